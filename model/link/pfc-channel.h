/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <deque>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup dcon-link
 * \brief Full-duplex point-to-point link between two PfcNetDevices with a propagation delay.
 *
 * Lossless: a frame that starts serialization arrives at the peer txTime + Delay later.
 * Frames never overtake each other: if Delay is lowered while frames are on the wire, a later
 * frame arrives no earlier than the one before it.
 *
 * Each direction keeps its frames on the wire in a FIFO and one reusable event object delivers
 * the oldest of them each time it fires (scheduled once per frame, at that frame's arrival), so
 * carrying a frame allocates nothing. The channel knows nothing of MPI ranks: a link whose two
 * ends run on different ranks of a parallel run is a PfcRemoteChannel (model/parallel/), which
 * overrides TransmitStart, as ns-3's PointToPointRemoteChannel does for PointToPointChannel.
 */
class PfcChannel : public Channel
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcChannel();

    /**
     * \brief Connect a device (at most two).
     * \param device the device
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Start carrying a frame given as its L3 packet and EtherType (no Ethernet header
     * bytes in the packet).
     * \param packet the L3 packet
     * \param protocol the EtherType
     * \param src the sending device
     * \param now the current time (the start of serialization)
     * \param txTime serialization time of the frame
     */
    virtual void TransmitStart(const Ptr<Packet>& packet,
                               uint16_t protocol,
                               const PfcNetDevice* src,
                               Time now,
                               Time txTime);

    /**
     * \brief The propagation delay.
     * \return the delay
     */
    Time GetDelay() const;

    /**
     * \brief The device at the other end from \p dev.
     * \param dev one end
     * \return the other end
     */
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

protected:
    void DoDispose() override;

    /**
     * \brief The direction a frame of \p src travels in.
     * \param src one end
     * \return the index (0 or 1) of the device at the other end
     */
    std::size_t Toward(const PfcNetDevice* src) const;

    /**
     * \brief The device at the end of a direction.
     * \param to the direction (Toward)
     * \return the receiving device (nullptr when none is attached)
     */
    PfcNetDevice* GetReceiver(std::size_t to) const;

    /**
     * \brief When a frame that starts now in direction \p to arrives, and record it as the
     * newest frame on the wire there: now + txTime + Delay, but no earlier than the frame
     * before it (frames never overtake each other).
     * \param to the direction (Toward)
     * \param now the start of serialization
     * \param txTime serialization time of the frame
     * \return the arrival time (of the frame's last bit)
     */
    Time ReserveArrival(std::size_t to, Time now, Time txTime);

private:
    /**
     * \brief One direction of the link: the frames on the wire toward one device, and the
     * event that delivers the oldest of them.
     */
    class Direction : public EventImpl
    {
    public:
        /// A frame on the wire.
        struct Frame
        {
            Ptr<Packet> packet; //!< the L3 packet
            uint16_t protocol;  //!< its EtherType
        };

        std::deque<Frame> wire;        //!< frames on the wire, oldest first
        PfcNetDevice* dst{nullptr};    //!< the receiving device (owned by the channel's list)
        uint32_t context{0};           //!< the receiving node's id (event context)
        bool contextKnown{false};      //!< context has been looked up
        Time lastArrival{Time::Min()}; //!< arrival time of the newest frame on the wire

    protected:
        /// Deliver the oldest frame on the wire.
        void Notify() override;
    };

    Time m_delay;
    Ptr<PfcNetDevice> m_devices[2];
    Ptr<Direction> m_toward[2]; //!< m_toward[i]: frames travelling to m_devices[i]
    std::size_t m_nDevices{0};
};

// Inline: TransmitStart takes the direction of every frame.
inline std::size_t
PfcChannel::Toward(const PfcNetDevice* src) const
{
    return PeekPointer(m_devices[0]) == src ? 1 : 0;
}

inline PfcNetDevice*
PfcChannel::GetReceiver(std::size_t to) const
{
    return m_toward[to]->dst;
}

} // namespace ns3

#endif /* PFC_CHANNEL_H */
