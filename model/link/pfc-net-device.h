/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "tx-time-cache.h"

#include <array>
#include <deque>
#include <vector>

namespace ns3
{

class PfcChannel;
class Node;

/**
 * \ingroup dcon-link
 * \brief A frame the owner of a PfcNetDevice hands to it for transmission.
 */
struct PfcTxFrame
{
    Ptr<Packet> packet;   //!< the L3 packet (no Ethernet header yet)
    uint16_t protocol{0}; //!< EtherType to put in the Ethernet header
    uint8_t priority{0};  //!< PFC priority the frame travels in
    bool more{true};      //!< the owner may have another frame ready when this one ends
};

/**
 * \ingroup dcon-link
 * \brief The owner of PfcNetDevices (a switch or a NIC) as the devices call it directly.
 *
 * Same contract as PfcNetDevice::PullCallback and FrameReceiveCallback, through a virtual call
 * instead of a bound ns-3 Callback: every frame is pulled once and received once, and the
 * callback route costs three indirections and reference-count updates each time (several
 * percent of a large run). RdmaSwitch and RdmaNic implement it; other owners (tests, user code)
 * can keep using the callbacks. See PfcNetDevice::SetOwner.
 */
class PfcDeviceOwner
{
public:
    virtual ~PfcDeviceOwner() = default;

    /**
     * \brief A device asks for the next frame.
     * \param port the number the owner gave the device in SetOwner
     * \param pausedMask bit mask of the priorities paused by the peer
     * \param frame what to send (fill in)
     * \return true if a frame was supplied (of an unpaused priority)
     */
    virtual bool PullFrame(uint32_t port, uint8_t pausedMask, PfcTxFrame& frame) = 0;

    /**
     * \brief A device received a frame.
     * \param port the number the owner gave the device in SetOwner
     * \param packet the frame without Ethernet header (owned by the receiver, may be modified)
     * \param protocol EtherType
     */
    virtual void ReceiveFrame(uint32_t port, const Ptr<Packet>& packet, uint16_t protocol) = 0;
};

/**
 * \ingroup dcon-link
 * \brief Full-duplex point-to-point Ethernet device with IEEE 802.1Qbb priority flow control.
 *
 * Transmission is pull-based: when the wire is free the device asks its owner (a switch port
 * or an RDMA NIC) for the next frame through the pull callback, telling it which of the 8
 * priorities are paused; the owner returns a frame of an unpaused priority or nothing. When
 * the owner gets something new to send it calls NotifyTxReady(). The device itself keeps no
 * data queue, so a paused priority is simply not pulled from and the owner's queue (e.g. a
 * QueueDisc) holds the frames.
 *
 * Every frame is Ethernet II: 14-byte header, payload padded to the 60-byte minimum, and on the
 * wire also the 4-byte FCS and, if IncludePreambleAndIfg is true, the 8-byte preamble/SFD and
 * the 12-byte inter-frame gap. All of these count toward serialization time. Between devices the
 * channel carries the L3 packet and the EtherType; the Ethernet header and padding are built as
 * bytes only when a Sniffer, PromiscSniffer, MacTx or MacRx sink is connected (pcap captures
 * get full frames), since nothing else reads them. The FCS is never in the packet (as in a
 * capture), only counted.
 *
 * PFC: a received PAUSE (MAC Control, EtherType 0x8808, opcode 0x0101) stops the priorities it
 * enables for time x 512 bit times, starting when the frame has been received; the frame being
 * transmitted at that moment completes. A time of zero (RESUME) restarts them at once. The
 * owner asks the device to send PAUSE/RESUME frames with SendPfc(); those go ahead of any data
 * and are never paused.
 */
class PfcNetDevice : public NetDevice
{
public:
    /// Number of PFC priorities.
    static constexpr uint8_t NUM_PRIORITIES = 8;
    /// Ethernet header bytes (destination, source, EtherType).
    static constexpr uint32_t ETH_HEADER_BYTES = 14;
    /// Frame check sequence bytes.
    static constexpr uint32_t ETH_FCS_BYTES = 4;
    /// Preamble + SFD (8) and minimum inter-frame gap (12).
    static constexpr uint32_t ETH_PREAMBLE_IFG_BYTES = 20;
    /// Minimum Ethernet frame without FCS.
    static constexpr uint32_t ETH_MIN_FRAME_BYTES = 60;

    /**
     * \brief Callback the device uses to pull the next frame from its owner.
     *
     * Arguments: the bit mask of paused priorities, and the frame to fill in.
     * Returns true if a frame was supplied.
     */
    typedef Callback<bool, uint8_t, PfcTxFrame&> PullCallback;

    /**
     * \brief Callback delivering a received frame (Ethernet header removed) to the owner.
     *
     * Arguments: this device, the packet (owned by the receiver, may be modified), EtherType.
     */
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint16_t> FrameReceiveCallback;

    /**
     * \brief Signature of the PauseState trace: priority, whether it is now paused.
     */
    typedef void (*PauseStateTracedCallback)(uint8_t priority, bool paused);

    /**
     * \brief Signature of the PfcTx/PfcRx traces: priority, pause quanta (0 = resume).
     */
    typedef void (*PfcTracedCallback)(uint8_t priority, uint16_t quanta);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcNetDevice();
    ~PfcNetDevice() override;

    /**
     * \brief Attach to a channel.
     * \param ch the channel
     */
    void Attach(Ptr<PfcChannel> ch);

    /**
     * \brief Set where the device pulls frames from (replaces an owner set with SetOwner).
     * \param cb the owner's pull callback
     */
    void SetPullCallback(PullCallback cb);

    /**
     * \brief Set where received frames go. Takes precedence over the NetDevice receive callback.
     * Replaces an owner set with SetOwner.
     * \param cb the owner's receive callback
     */
    void SetFrameReceiveCallback(FrameReceiveCallback cb);

    /**
     * \brief Pull frames from, and deliver received frames to, \p owner by direct calls.
     *
     * Replaces the pull and frame-receive callbacks (and is replaced by them when they are set
     * later). The owner must outlive the device's use of it, as with a callback bound to a raw
     * pointer; Dispose forgets it.
     * \param owner the owner (nullptr: none)
     * \param port the number passed back to the owner in every call
     */
    void SetOwner(PfcDeviceOwner* owner, uint32_t port);

    /**
     * \brief The owner has something new to send: start transmitting if the wire is idle.
     */
    void NotifyTxReady();

    /**
     * \brief Send a PFC frame for one priority ahead of all data.
     *
     * A PFC frame for the same priority still waiting to be sent is updated in place rather
     * than queued twice. A RESUME asked for while the PAUSE it answers is still waiting, and
     * the last frame sent for that priority was not a PAUSE, cancels the PAUSE and sends
     * nothing: the upstream was never paused, and a RESUME that follows no PAUSE would be a
     * spurious frame.
     * \param priority the priority (0..7)
     * \param quanta pause time in quanta of 512 bit times; 0 = RESUME
     */
    void SendPfc(uint8_t priority, uint16_t quanta);

    /**
     * \brief Whether a priority is paused by the peer now.
     * \param priority the priority
     * \return true if paused
     */
    bool IsPaused(uint8_t priority) const;

    /**
     * \brief Bit mask of the priorities paused by the peer now.
     * \return the mask (bit i = priority i)
     */
    uint8_t GetPausedMask() const;

    /**
     * \brief Whether a frame is being serialized now.
     * \return true if busy
     */
    bool IsBusy() const;

    /**
     * \brief Bytes on the wire for an Ethernet frame carrying \p l3Bytes of payload.
     * \param l3Bytes bytes after the Ethernet header
     * \return header + padded payload + FCS (+ preamble and IFG if enabled)
     */
    uint32_t GetWireBytes(uint32_t l3Bytes) const;

    /**
     * \brief The line rate.
     * \return the data rate
     */
    DataRate GetDataRate() const;

    /**
     * \brief Set the line rate (the DataRate attribute).
     * \param rate the rate
     */
    void SetDataRate(DataRate rate);

    /**
     * \brief A frame arrived from the channel, as its L3 packet and EtherType.
     * \param packet the L3 packet (no Ethernet header)
     * \param protocol the EtherType
     */
    void ReceiveL3(const Ptr<Packet>& packet, uint16_t protocol);

    /// Counters of this device.
    struct Stats
    {
        uint64_t txFrames{0};       //!< frames sent (all kinds)
        uint64_t txBytes{0};        //!< frame bytes sent (without FCS/preamble/IFG)
        uint64_t rxFrames{0};       //!< frames received
        uint64_t pauseSent{0};      //!< PFC frames with a non-zero time sent
        uint64_t resumeSent{0};     //!< PFC frames with zero time sent
        uint64_t pauseReceived{0};  //!< PFC frames with a non-zero time received
        uint64_t resumeReceived{0}; //!< PFC frames with zero time received
    };

    /**
     * \brief Counters of this device.
     * \return the statistics
     */
    const Stats& GetStats() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    /**
     * \brief Queue a frame outside the pull path (sent after PFC frames, before pulled ones).
     *
     * The normal data path is the pull callback; this exists so the device is a complete
     * NetDevice.
     * \param packet the L3 packet
     * \param dest ignored (point-to-point: the peer)
     * \param protocolNumber EtherType
     * \return true
     */
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

protected:
    void DoDispose() override;

private:
    /**
     * \brief Start the next transmission if the wire is idle and something may be sent.
     * \param now the current time if the caller has it, else negative (asked when needed)
     */
    void TryTransmit(Time now);
    /// The current frame has left the device. \param now the current time
    void TransmitComplete(Time now);
    /// Schedule the end of the current frame. \param delay when, from now
    void ScheduleTransmitComplete(const Time& delay);
    /**
     * \brief Start serializing a frame (to the peer, or for PFC to the PFC multicast address).
     * \param packet the L3 packet
     * \param protocol EtherType
     * \param more the owner may have another frame ready when this one ends
     * \param now the current time if the caller has it, else negative
     */
    void StartTransmission(const Ptr<Packet>& packet, uint16_t protocol, bool more, Time now);
    /**
     * \brief Apply a received PFC frame.
     * \param frame the frame, Ethernet header removed
     */
    void ReceivePfc(Ptr<Packet> frame);
    /**
     * \brief A pause timer of a priority expired.
     * \param priority the priority
     */
    void PauseExpired(uint8_t priority);
    /// A copy of \p packet with padding and Ethernet header, for traces.
    Ptr<Packet> MakeFrame(Ptr<const Packet> packet,
                          uint16_t protocol,
                          Mac48Address src,
                          Mac48Address dst) const;
    /// Dispatch a received L3 packet. \param packet the packet \param protocol its EtherType
    void Deliver(const Ptr<Packet>& packet, uint16_t protocol);
    /// The peer device's MAC address (looked up once).
    Mac48Address PeerAddress();
    /// Serialization time of \p wireBytes at the line rate (memoised per size).
    Time TxTime(uint32_t wireBytes);

    Ptr<Node> m_node;
    Ptr<PfcChannel> m_channel;
    Mac48Address m_address;
    uint32_t m_ifIndex{0};
    uint16_t m_mtu{1500};
    DataRate m_rate;
    uint64_t m_bps{0}; //!< m_rate in bit/s (read for every frame)
    bool m_includePreambleIfg{true};
    bool m_busy{false};
    Time m_busyUntil; //!< end of the frame on the wire

    /**
     * \brief The end of a transmission: one event object for every frame of the device,
     * scheduled again for each (no allocation per frame). A pending end that is no longer wanted
     * is not cancelled (a cancelled EventImpl cannot be scheduled again) but ignored when it
     * runs: it runs only while m_txCompletePending says an end is wanted and at m_busyUntil,
     * the time the wanted end was scheduled for.
     */
    class TxCompleteEvent : public EventImpl
    {
    public:
        PfcNetDevice* device{nullptr}; //!< the device (nullptr once disposed of)

    protected:
        void Notify() override;
    };

    Ptr<TxCompleteEvent> m_txComplete; //!< the transmission end's event object
    bool m_txCompletePending{false};   //!< an end is scheduled and wanted
    PfcDeviceOwner* m_owner{nullptr};  //!< direct-call owner (instead of the callbacks)
    uint32_t m_ownerPort{0};           //!< the owner's number for this device
    PullCallback m_pull;
    NetDevice::ReceiveCallback m_rxCallback;
    FrameReceiveCallback m_frameRxCallback;
    NetDevice::PromiscReceiveCallback m_promiscCallback;
    /// Pending PFC frames: quanta per priority, -1 = none pending.
    std::array<int32_t, NUM_PRIORITIES> m_pendingPfc;
    uint8_t m_pendingPfcMask{0};
    /// Priorities whose last PFC frame sent was a PAUSE (the upstream may be paused by it).
    uint8_t m_pausedUpstreamMask{0};
    /// Frames given through Send().
    std::deque<PfcTxFrame> m_sendQueue;
    std::array<EventId, NUM_PRIORITIES> m_pauseEvents;
    uint8_t m_pausedMask{0};
    Stats m_stats;
    TxTimeCache m_txTimes;          //!< serialization times of recent frame sizes
    Mac48Address m_peerAddress;     //!< the other end's address (cached at first use)
    bool m_peerAddressValid{false}; //!< m_peerAddress is set

    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< every frame sent or received
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< same, for pcap helpers
    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< frame starts serialization
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< frame received
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;          //!< PFC frame sent (prio, quanta)
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;          //!< PFC frame received
    TracedCallback<uint8_t, bool> m_pauseStateTrace;         //!< a priority paused/resumed
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_H */
