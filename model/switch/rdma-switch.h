/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_H
#define RDMA_SWITCH_H

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-flow-id.h"
#include "ns3/traced-callback.h"
#include "rdma-egress-queue-disc.h"
#include "switch-mmu.h"

#include <array>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;

/**
 * \ingroup dcon-switch
 * \brief The forwarding plane of a lossless RoCEv2 switch, aggregated to an ns3::Node.
 *
 * Switches do not run the ns-3 IP stack. For every IPv4 packet that arrives on a port the
 * switch parses the IPv4 and UDP headers once into an RdmaQueueDiscItem, picks the egress port
 * from its routing table (all shortest paths, installed by a helper) with per-flow ECMP (a
 * seeded hash of the 5-tuple, or a pinned port for that 5-tuple), asks the SwitchMmu to admit
 * the bytes against the ingress port and priority, sends a PFC PAUSE upstream when the MMU says
 * so, and enqueues the item in the egress queue disc of that port and priority.
 *
 * Each port has one RdmaEgressQueueDisc per priority. When the port's device can send, it pulls:
 * non-IP control frames (CNMs) first, then the priorities from 7 down to 0 (strict priority),
 * skipping priorities the downstream has paused. Packets of the ControlPriority (the NICs' ACK,
 * NAK and CNP) wait in a plain FIFO per port instead of that priority's queue disc: ECN and
 * DCON's CNM decisions are for data, and a queue disc per control packet and hop would cost
 * about as much as one per data packet (the benchmark sends an ACK per packet). They are
 * admitted, accounted and paused by the MMU like any packet and count in GetEgressBytes; the
 * queue disc of the control priority exists but stays empty. Dequeuing releases the bytes in the
 * MMU and sends RESUME upstream when the ingress falls below its resume threshold. While an ingress
 * stays paused, the PAUSE is refreshed every PauseRefreshRatio x pause time.
 *
 * The IPv4 DSCP selects the priority: priority = DSCP >> 3 (class selector). The NIC sends
 * data at CS3 (priority 3) and control at CS7 by default.
 *
 * INT (in-band network telemetry, for HPCC): a RoCEv2 data packet with the BTH INT bit gets an
 * IntHop record appended to its IntHeader as it leaves an egress port (MakeIntHop: the port's
 * queue length over all priorities, bytes sent, time, link rate), whatever the queue
 * discipline; the frame grows by 8 bytes. Other packets are not touched.
 *
 * Every packet the switch queues at an egress port is reported by the PacketQueued trace
 * source (ingress port, egress port, priority) after it joined its queue. DCON's switch-side
 * logic (T_last, congested-flow checks, CNM construction) is not here: a DconCnmGenerator
 * aggregated to the node listens to PacketQueued and to its DconQueueDiscs and sends CNMs with
 * SendControlFrame. CNMs (CnmHeader, EtherType 0x22E7) arriving from other switches are
 * forwarded toward the flow's sender by its address, ahead of data.
 */
class RdmaSwitch
    : public Object
    , public PfcDeviceOwner
    , public RdmaIngressInfo
{
public:
    /// Drop reason: no route to the destination.
    static constexpr const char* NO_ROUTE = "NoRoute";
    /// Drop reason: an IPv4 packet too short or with options (not what a RoCEv2 NIC sends).
    static constexpr const char* MALFORMED = "Malformed";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaSwitch();
    ~RdmaSwitch() override;

    /**
     * \brief Set the factory for the egress queue discs (one per port and priority).
     * \param factory a factory of an RdmaEgressQueueDisc subclass
     */
    void SetQueueDiscFactory(const ObjectFactory& factory);

    /**
     * \brief Add a port. Ports are numbered 0, 1, ... in the order they are added.
     * \param device the port's device
     * \return the port index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> device);

    /**
     * \brief Add a port whose egress queue discs come from a given factory.
     * \param device the port's device
     * \param queueFactory factory of an RdmaEgressQueueDisc subclass for this port
     * \return the port index
     */
    uint32_t AddPort(Ptr<PfcNetDevice> device, const ObjectFactory& queueFactory);

    /**
     * \brief Size the MMU and start. Call after all ports were added.
     */
    void Finalize();

    /**
     * \brief Add an equal-cost egress port toward a destination host address.
     * \param dst the destination
     * \param port the port index
     */
    void AddRoute(Ipv4Address dst, uint32_t port);

    /**
     * \brief Force every packet of a flow out of one port (overrides ECMP).
     * \param tuple the flow's 5-tuple
     * \param port the port index
     */
    void PinFlow(const RdmaFiveTuple& tuple, uint32_t port);

    /**
     * \brief The egress port this switch would use for a flow.
     * \param tuple the flow's 5-tuple
     * \return the port index, or UINT32_MAX if there is no route
     */
    uint32_t Route(const RdmaFiveTuple& tuple) const;

    /**
     * \brief Number of ports.
     * \return the count
     */
    uint32_t GetNPorts() const;

    /**
     * \brief A port's device.
     * \param port the port index
     * \return the device
     */
    Ptr<PfcNetDevice> GetDevice(uint32_t port) const;

    /**
     * \brief A port's egress queue disc for one priority.
     * \param port the port index
     * \param priority the priority
     * \return the queue disc
     */
    Ptr<RdmaEgressQueueDisc> GetQueueDisc(uint32_t port, uint8_t priority) const;

    /**
     * \brief Bytes waiting in a port's egress queues (all priorities).
     * \param port the port index
     * \return bytes
     */
    uint64_t GetEgressBytes(uint32_t port) const;

    /**
     * \brief The MMU.
     * \return the MMU
     */
    Ptr<SwitchMmu> GetMmu() const;

    /**
     * \brief Drops of this switch that are not the MMU's (e.g. no route), by reason.
     * \return reason -> count
     */
    const std::map<std::string, uint64_t>& GetForwardingDrops() const;

    /**
     * \brief Send a frame that is not IPv4 (e.g. a CNM) out of a port ahead of its data.
     * \param port the port index
     * \param frame the L3 payload
     * \param protocol EtherType
     */
    void SendControlFrame(uint32_t port, Ptr<Packet> frame, uint16_t protocol);

    /**
     * \brief The egress port toward a host address (ECMP by the address alone).
     * \param dst the host address
     * \return the port, or UINT32_MAX if there is no route
     */
    uint32_t RouteToHost(Ipv4Address dst) const;

    /**
     * \brief CNMs of other switches this switch forwarded toward their flows' senders.
     * \return count
     */
    uint64_t GetCnmsForwarded() const;

    /**
     * \brief Count a drop that is not the MMU's (e.g. a frame with no route), by reason; it
     * shows in GetForwardingDrops. For the switch's own control-frame generators.
     * \param reason the reason (a static string)
     */
    void CountForwardingDrop(const char* reason);

    /**
     * \brief The priority of the NICs' ACK, NAK and CNP packets (ControlPriority), served from
     * a plain FIFO per port without queue disc.
     * \return the priority
     */
    uint8_t GetControlPriority() const;

    /// Signature of the PacketQueued trace: ingress port, egress port, priority.
    typedef void (*PacketQueuedTracedCallback)(uint32_t inPort, uint32_t outPort, uint8_t priority);

    /// Signature of the Drop trace: the packet, the reason (a static string).
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const char* reason);

    /**
     * \brief M: egress ports that hold data packets of (inPort, priority) now (RdmaIngressInfo,
     * for DCON's dynamic Q_CNM). Control-priority packets are not counted.
     * \param inPort the ingress port
     * \param priority the priority
     * \return the count
     */
    uint32_t GetIngressFanOut(uint32_t inPort, uint8_t priority) const override;

    /**
     * \brief The MMU's current pause threshold (RdmaIngressInfo); 0 if PFC is off.
     * \param inPort the ingress port
     * \param priority the priority
     * \return bytes
     */
    uint64_t GetIngressPauseThreshold(uint32_t inPort, uint8_t priority) const override;

    /**
     * \brief Egress queues that hold packets of an ingress port and at least \p minQueueBytes
     * (RdmaIngressInfo; DCON's fan-out of congested queues). O(ports).
     * \param inPort the ingress port
     * \param priority the priority
     * \param minQueueBytes queue length from which a queue counts
     * \param self the asking queue (counted once whatever its length)
     * \return M >= 1
     */
    uint32_t GetIngressFanOutAbove(uint32_t inPort,
                                   uint8_t priority,
                                   uint64_t minQueueBytes,
                                   const RdmaEgressQueueDisc* self) const override;

    /**
     * \brief Bytes that arrived on an ingress port and wait in an egress port's queue of a
     * priority now (what a PAUSE of that ingress port is made of, per egress).
     * \param inPort the ingress port
     * \param outPort the egress port
     * \param priority the priority
     * \return bytes
     */
    uint64_t GetIngressBytesTo(uint32_t inPort, uint32_t outPort, uint8_t priority) const;

    /**
     * \brief The configured design fan-out of an ingress port (RdmaIngressInfo).
     * \param inPort the ingress port
     * \return M, 0 if not configured
     */
    uint32_t GetIngressDesignFanOut(uint32_t inPort) const override;

    /**
     * \brief Account, on every packet, the bytes each ingress port holds in each egress queue
     * (GetIngressFanOut, GetIngressFanOutAbove, GetIngressBytesTo). Finalize turns it on when
     * a queue disc asks for it (RdmaEgressQueueDisc::UsesIngressFanOut); a measurement that
     * needs it (CongestionSpreading) calls it before the run. Off, those getters throw
     * std::logic_error.
     * \throws std::logic_error if the switch holds packets already (the counts would be wrong)
     */
    void EnableIngressAccounting();

    /**
     * \brief Whether the ingress accounting is on.
     * \return true if it is
     */
    bool IsIngressAccountingEnabled() const;

    /**
     * \brief Configure the design fan-out of an ingress port: how many egress ports its
     * packets can be forwarded to (RdmaFabric sets it from the routing tables). After Finalize.
     * \param inPort the ingress port
     * \param m the fan-out (0 = not configured)
     */
    void SetIngressDesignFanOut(uint32_t inPort, uint32_t m);

    /**
     * \brief The PFC priority a DSCP value maps to.
     * \param dscp the DSCP
     * \return the priority
     */
    static uint8_t DscpToPriority(uint8_t dscp);

protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

private:
    /// A packet at an egress port: waiting in the control FIFO, or leaving the port.
    struct QueuedPacket
    {
        Ptr<Packet> packet; //!< the packet (IPv4 header on)
        uint32_t inPort{0}; //!< its ingress port (for the MMU)
        uint32_t size{0};   //!< its size in the MMU
    };

    /// One switch port.
    struct Port
    {
        Ptr<PfcNetDevice> device;                                                  //!< the device
        std::array<Ptr<RdmaEgressQueueDisc>, PfcNetDevice::NUM_PRIORITIES> queues; //!< egress
        std::array<EventId, PfcNetDevice::NUM_PRIORITIES> pauseRefresh; //!< PAUSE refresh timers
        std::deque<std::pair<Ptr<Packet>, uint16_t>> control;           //!< non-IP control frames
        std::deque<QueuedPacket> controlIp; //!< IPv4 packets of the control priority
        uint64_t controlIpBytes{0};         //!< bytes in controlIp
        /// bit p set: queues[p] (controlIp for the control priority) may hold packets
        uint8_t nonEmpty{0};
        uint32_t intRateCode{0};   //!< IntHop::RateCode of the device's rate (0: none)
        uint64_t frameOverhead{0}; //!< wire bytes of a frame besides what the device counts
    };

    /**
     * \brief A frame arrived on a port.
     * \param port the port index
     * \param packet the frame without Ethernet header
     * \param protocol EtherType
     */
    void ReceiveFrame(uint32_t port, const Ptr<Packet>& packet, uint16_t protocol) override;

    /**
     * \brief Forward an IPv4 packet.
     * \param inPort arrival port
     * \param packet the packet
     */
    void ForwardIpv4(uint32_t inPort, const Ptr<Packet>& packet);

    /**
     * \brief A port's device asks for the next frame.
     * \param port the port index
     * \param pausedMask priorities paused downstream
     * \param frame what to send
     * \return true if a frame was supplied
     */
    bool PullFrame(uint32_t port, uint8_t pausedMask, PfcTxFrame& frame) override;

    /**
     * \brief Pause the upstream of an ingress port and keep refreshing it.
     * \param port the ingress port
     * \param priority the priority
     */
    void SendPause(uint32_t port, uint8_t priority);

    /**
     * \brief Resume the upstream of an ingress port.
     * \param port the ingress port
     * \param priority the priority
     */
    void SendResume(uint32_t port, uint8_t priority);

    /**
     * \brief Pass a device's pause state change to its egress queue disc.
     * \param port the port
     * \param priority the priority
     * \param paused the new state
     */
    void PauseStateChanged(uint32_t port, uint8_t priority, bool paused);

    /**
     * \brief Throw std::logic_error naming \p what unless the ingress accounting is on.
     * \param what the getter
     */
    void RequireIngressAccounting(const char* what) const;

    /**
     * \brief Account a data packet of (inPort, priority) joining or leaving egress port
     * \p outPort, for GetIngressFanOut.
     * \param inPort the ingress port
     * \param outPort the egress port
     * \param priority the priority
     * \param bytes the packet's size
     * \param joining true when it joins the egress queue, false when it leaves
     */
    void AccountFanOut(
        uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes, bool joining);

    /**
     * \brief The INT hop record of a port for a packet leaving it now: the port's link rate,
     * the time, the bytes it sent before (on the wire: frames with FCS, and preamble and gap if
     * the device counts them) and the bytes still in its egress queues (all priorities).
     * \param portIndex the port
     * \return the record
     */
    IntHop MakeIntHop(uint32_t portIndex) const;

    Ptr<Node> m_node;
    Ptr<SwitchMmu> m_mmu;
    ObjectFactory m_queueFactory;
    std::vector<Port> m_ports;
    std::unordered_map<uint32_t, uint32_t> m_routeIndex; //!< dst address -> index in m_routes
    mutable std::vector<uint32_t> m_routeDense; //!< (dst - m_routeBase) -> index + 1 (0 = none)
    mutable uint32_t m_routeBase{0};            //!< lowest routed address
    mutable bool m_routeDenseValid{false};      //!< m_routeDense matches m_routeIndex
    /// Index in m_routes for a destination, or UINT32_MAX.
    uint32_t RouteIndex(uint32_t dst) const;
    /// Route() of a packet's fields (no 5-tuple object unless flows are pinned).
    /// \param f the fields \return the port index, or UINT32_MAX if there is no route
    uint32_t RouteFields(const RdmaQueueDiscItem::Ipv4Fields& f) const;
    std::vector<std::vector<uint32_t>> m_routes; //!< equal-cost port sets
    std::map<RdmaFiveTuple, uint32_t> m_pinned;
    std::map<std::string, uint64_t> m_drops;
    uint64_t m_cnmsForwarded{0}; //!< GetCnmsForwarded
    uint32_t m_ecmpSeed;
    uint16_t m_pauseQuanta;
    double m_pauseRefreshRatio;
    std::vector<uint64_t> m_fanBytes;     //!< bytes per (inPort, outPort, priority)
    std::vector<uint32_t> m_fanOut;       //!< egress ports with bytes, per (inPort, priority)
    bool m_ingressAccounting{false};      //!< EnableIngressAccounting
    std::vector<uint32_t> m_designFanOut; //!< configured fan-out per ingress port (0 = none)
    uint8_t m_controlPriority;            //!< priority served from Port::controlIp

    TracedCallback<Ptr<const Packet>, const char*> m_dropTrace;      //!< packet dropped, reason
    TracedCallback<uint32_t, uint32_t, uint8_t> m_packetQueuedTrace; //!< in, out, priority
};

} // namespace ns3

#endif /* RDMA_SWITCH_H */
