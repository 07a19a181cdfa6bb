/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "ns3/cnm-header.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/roce-header.h"
#include "ns3/traced-callback.h"
#include "rdma-flow-id.h"
#include "rdma-queue-pair.h"

#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;
class AethHeader;
class BthHeader;
class IntHeader;
class RoceHeader;

/**
 * \ingroup dcon-nic
 * \brief An RDMA (RoCEv2) NIC on a host, aggregated to the node; it owns the host's
 * PfcNetDevice.
 *
 * Each flow is one reliable-connection queue pair. The sender segments the message into
 * packets of Mtu payload bytes (IPv4 + UDP 4791 + BTH + payload + 4-byte ICRC), paces each QP
 * at the rate its congestion control sets (and holds it while the CC asks for a gap,
 * RdmaFlowState::m_holdUntil), and serves the QPs round robin when the device pulls
 * (no per-QP timers: one wake-up event for the earliest paced QP when nothing is eligible).
 * ACKs and NAKs (BTH + AETH) and CNPs travel in the control priority and are served first.
 *
 * The receiver ACKs every AckInterval in-order packets and the last packet of a message; on a
 * gap it sends a NAK (PSN sequence error) with the expected PSN and drops out-of-order packets,
 * and the sender goes back N. A retransmission timer covers lost tails (runs without PFC).
 * Congestion-control feedback (ACK, NAK, CNP, CNM) is parsed and passed to the QP's
 * RdmaCongestionOps; the receiver role of the CC decides when to send CNPs. The NIC echoes
 * what any algorithm may use: CE into every ACK (BTH BECN), and, for a flow whose algorithm
 * WantsHopRecords, the INT hop records switches appended to a data packet (IntHeader after the
 * BTH, BTH INT bit) into the ACK that packet triggers (after the AETH), passed to the sender's
 * algorithm as RdmaAckInfo::hops.
 */
class RdmaNic
    : public Object
    , public PfcDeviceOwner
{
public:
    /// Bytes of the RoCEv2 invariant CRC that ends every packet.
    static constexpr uint32_t ICRC_BYTES = 4;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaNic();
    ~RdmaNic() override;

    /**
     * \brief Attach the NIC to its device and give it its address.
     * \param device the host's device
     * \param address the host's IPv4 address
     */
    void Setup(Ptr<PfcNetDevice> device, Ipv4Address address);

    /**
     * \brief Start sending a message now. The request's ccAttributes are set on the flow's
     * congestion-control object before its Init.
     * \throws std::invalid_argument naming the flow and the value for a bad request (size 0,
     * priority, start rate, an unknown CC attribute or a value it cannot take).
     * \param request what to send
     * \return the flow's state (rate, window, progress), e.g. for a monitor
     */
    Ptr<RdmaFlowState> StartFlow(const RdmaFlowRequest& request);

    /**
     * \brief Choose the congestion control of the flows started from now on.
     * \param tid an RdmaCongestionOps subclass
     */
    void SetCongestionControl(TypeId tid);

    /**
     * \brief The congestion control of the flows started from now on.
     * \return its TypeId
     */
    TypeId GetCongestionControl() const;

    /**
     * \brief Set an attribute of the congestion control of the flows started from now on (on
     * its factory; a flow request's ccAttributes still win for that flow).
     * \param name attribute of the congestion control's TypeId
     * \param value value; throws std::invalid_argument naming an unknown attribute or a value
     * the attribute refuses
     */
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief The host's address.
     * \return the address
     */
    Ipv4Address GetAddress() const;

    /**
     * \brief The host's device.
     * \return the device
     */
    Ptr<PfcNetDevice> GetDevice() const;

    /**
     * \brief The priority of this NIC's ACK, NAK and CNP packets (attribute ControlPriority);
     * data flows may not use it.
     * \return the priority
     */
    uint8_t GetControlPriority() const;

    /**
     * \brief Payload bytes per full data packet (the Mtu attribute).
     * \return bytes
     */
    uint32_t GetMtu() const;

    /**
     * \brief Bytes on the wire of a data packet with \p payload bytes.
     * \param payload payload bytes
     * \return wire bytes (all headers, ICRC, Ethernet overhead)
     */
    uint32_t GetDataWireBytes(uint32_t payload) const;

    /**
     * \brief Bytes on the wire of an ACK.
     * \return wire bytes
     */
    uint32_t GetAckWireBytes() const;

    /**
     * \brief Number of messages being received (receiver state is freed when the last packet
     * of a message arrives in order).
     * \return receiving QPs
     */
    uint32_t GetNReceivingFlows() const;

    /**
     * \brief Number of flows still sending.
     * \return active QPs
     */
    uint32_t GetNActiveFlows() const;

    /**
     * \brief The congestion-control object of a flow this NIC is sending (for inspection:
     * a linear search over the active QPs).
     * \param flowId the flow's identifier
     * \return the object, or nullptr if the flow is not active here
     */
    Ptr<RdmaCongestionOps> GetSenderCongestionOps(uint32_t flowId) const;

    /// Counters of the NIC.
    struct Stats
    {
        uint64_t dataPacketsSent{0};       //!< data packets sent (including retransmissions)
        uint64_t retransmittedPackets{0};  //!< data packets sent again after NAK or timeout
        uint64_t acksSent{0};              //!< ACKs sent
        uint64_t naksSent{0};              //!< NAKs sent
        uint64_t naksReceived{0};          //!< NAKs received
        uint64_t cnpsSent{0};              //!< CNPs sent
        uint64_t cnpsReceived{0};          //!< CNPs received
        uint64_t cnpsCongestedReceived{0}; //!< CNPs received with the congestion bit set
        uint64_t cnmsReceived{0};          //!< CNMs received
        uint64_t timeouts{0};              //!< retransmission timeouts
        uint64_t flowsCompleted{0};        //!< flows completed
    };

    /**
     * \brief Counters of this NIC.
     * \return the statistics
     */
    const Stats& GetStats() const;

    /**
     * \brief The 5-tuple of an open flow of this NIC (its data packets' addresses and ports).
     * \param flowId the flow
     * \param tuple filled in
     * \return false if no open flow of this NIC has that id
     */
    bool GetFlowTuple(uint32_t flowId, RdmaFiveTuple& tuple) const;

    /**
     * \brief Call \p fn for every open flow of a priority with unsent data (what waits at this
     * NIC when the priority is paused), in flow id order.
     * \param priority the PFC priority
     * \param fn called with the flow id and its 5-tuple
     */
    void ForEachFlowWithData(uint8_t priority,
                             const std::function<void(uint32_t, const RdmaFiveTuple&)>& fn) const;

    /// Signature of the FlowComplete trace.
    typedef void (*FlowCompleteTracedCallback)(const RdmaFlowRecord& record);

    /// Signature of the FlowStart trace: flow id, the flow's state.
    typedef void (*FlowStartTracedCallback)(uint32_t flowId, Ptr<RdmaFlowState> state);

    /// Signature of the FlowSent trace: the flow id.
    typedef void (*FlowSentTracedCallback)(uint32_t flowId);

    /**
     * Signature of the MessageReceived trace (the receiver's completion of a message): the
     * sender's address, the connection's UDP source port, its queue pair number (BTH
     * destination QP) and the message's bytes.
     */
    typedef void (*MessageReceivedTracedCallback)(Ipv4Address src,
                                                  uint16_t sport,
                                                  uint32_t qpn,
                                                  uint64_t bytes);

    /**
     * Signature of the CnmReceived trace: the CNM, the flow it names (its destination QP's
     * flow id; UINT32_MAX if no open QP has it: the flow has ended), the flow's sending rate
     * when it arrived, and whether the flow's congestion control applied it.
     */
    typedef void (*CnmReceivedTracedCallback)(const CnmHeader& cnm,
                                              uint32_t flowId,
                                              DataRate rateBefore,
                                              bool applied);

protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

private:
    /**
     * \brief The 5-tuple of a queue pair's data packets.
     * \param qp the queue pair
     * \return its addresses and ports
     */
    RdmaFiveTuple TupleOf(const RdmaQueuePair& qp) const;

    /**
     * \brief The device asks for the next frame.
     * \param port unused (the NIC has one device)
     * \param pausedMask paused priorities
     * \param frame what to send
     * \return true if a frame was supplied
     */
    bool PullFrame(uint32_t port, uint8_t pausedMask, PfcTxFrame& frame) override;
    /**
     * \brief Build the next data packet of a QP and account it.
     * \param qp the QP
     * \param now the current time
     * \return the IPv4 packet
     */
    Ptr<Packet> BuildDataPacket(const Ptr<RdmaQueuePair>& qp, Time now);
    /**
     * \brief Make sure the device pulls again at \p when.
     * \param when the time
     */
    void ScheduleWake(Time when);
    /// Wake-up: let the device pull.
    void Wake();
    /**
     * \brief A frame arrived.
     * \param port unused (the NIC has one device)
     * \param packet the frame without Ethernet header
     * \param protocol EtherType
     */
    void ReceiveFrame(uint32_t port, const Ptr<Packet>& packet, uint16_t protocol) override;
    /**
     * \brief A data packet arrived (receiver role).
     * \param roce its IPv4, UDP and BTH headers
     */
    void ReceiveData(const RoceHeader& roce);
    /**
     * \brief An ACK or NAK arrived (sender role).
     * \param bth its BTH
     * \param aeth its AETH
     * \param hops the INT hop records it echoes, or nullptr
     */
    void ReceiveAck(const BthHeader& bth, const AethHeader& aeth, const IntHeader* hops);
    /**
     * \brief Send an ACK or NAK for a receiver QP. An ACK echoes CE (BTH BECN bit) if an
     * in-order packet since the previous ACK arrived with CE, and clears that record.
     * \param rx the receiver QP
     * \param psn PSN to put in the BTH
     * \param nak true for a NAK (PSN sequence error)
     * \param hops INT hop records to echo (those of the data packet that triggered the ACK),
     * or nullptr
     */
    void SendAck(Ptr<RdmaRxQueuePair> rx, uint32_t psn, bool nak, const IntHeader* hops);
    /**
     * \brief Send an ACK or NAK for a connection.
     * \param src the data sender's address (32-bit value, host order)
     * \param qpn the queue pair number
     * \param sport UDP port of the connection
     * \param psn PSN to put in the BTH
     * \param nak true for a NAK
     * \param ecnEcho set the BTH BECN bit (the acknowledged data carried CE)
     * \param hops INT hop records to put after the AETH (BTH INT bit), or nullptr for none
     */
    void SendAckTo(uint32_t src,
                   uint32_t qpn,
                   uint16_t sport,
                   uint32_t psn,
                   bool nak,
                   bool ecnEcho,
                   const IntHeader* hops);
    /**
     * \brief Send a CNP for a receiver QP (called by the receiver role of the CC).
     * \param rx the receiver QP
     * \param info what to put in the CNP
     */
    void SendCnp(Ptr<RdmaRxQueuePair> rx, const RdmaCnpInfo& info);
    /**
     * \brief Queue a control packet (ACK, NAK, CNP) for sending ahead of data.
     * \param packet what follows the RoCE header (CNP fields, ICRC)
     * \param roce its header, BTH (and AETH) filled in
     * \param dst destination host (32-bit value, host order)
     * \param sport UDP source port
     */
    void SendControl(const Ptr<Packet>& packet, RoceHeader& roce, uint32_t dst, uint16_t sport);
    /**
     * \brief Fill in the IPv4 and UDP parts of a RoCE header and put it on a packet.
     * \param packet what follows the header
     * \param roce the header, BTH (and AETH) filled in
     * \param dst destination host (host-order address value)
     * \param sport UDP source port
     * \param priority PFC priority (DSCP class selector)
     * \param ect whether the packet is ECN-capable
     */
    void AddRoceHeader(const Ptr<Packet>& packet,
                       RoceHeader& roce,
                       uint32_t dst,
                       uint16_t sport,
                       uint8_t priority,
                       bool ect);
    /**
     * \brief Drop the recorded send times of packets from \p index on (they will be resent).
     * \param qp the QP
     * \param index first packet index to forget
     */
    void ForgetSendTimesFrom(Ptr<RdmaQueuePair> qp, uint64_t index);
    /**
     * \brief The retransmission timer of a QP fired.
     * \param qp the QP
     */
    void CheckRto(Ptr<RdmaQueuePair> qp);
    /**
     * \brief A QP's last byte was acknowledged.
     * \param qp the QP
     */
    void Complete(Ptr<RdmaQueuePair> qp);
    /**
     * \brief Find a sender QP by number.
     * \param qpn the number
     * \return the QP or nullptr
     */
    Ptr<RdmaQueuePair> FindQp(uint32_t qpn) const;

    Ptr<Node> m_node;
    Ptr<PfcNetDevice> m_device;
    Ipv4Address m_address;
    uint32_t m_addressValue{0}; //!< m_address.Get(), read for every packet
    /// Scratch headers, reset from a default one for each packet (a RoceHeader holds four ns-3
    /// Header objects, whose construction and destruction are calls into ns-3's libraries):
    /// data packets built, ACK/NAK/CNP built, packets received. Each is used by one function
    /// and is done with before that function calls anything that could use it again.
    RoceHeader m_dataHeader;
    RoceHeader m_controlHeader; //!< see m_dataHeader
    RoceHeader m_rxHeader;      //!< see m_dataHeader
    ObjectFactory m_ccFactory;
    uint32_t m_mtu;
    uint32_t m_ackInterval;
    uint8_t m_controlPriority;
    Time m_rto;
    Time m_nakInterval;
    uint32_t m_nextQpn{1};
    std::unordered_map<uint32_t, Ptr<RdmaQueuePair>> m_qps;     //!< sender QPs by number
    std::vector<Ptr<RdmaQueuePair>> m_active;                   //!< round-robin order
    uint32_t m_rr{0};                                           //!< round-robin position
    std::unordered_map<uint64_t, Ptr<RdmaRxQueuePair>> m_rxQps; //!< by (src address, qpn)
    std::unordered_map<uint64_t, uint32_t> m_completedRx;       //!< received messages: last PSN
    std::deque<Ptr<Packet>> m_control;                          //!< ACK/NAK/CNP to send
    EventId m_wake;
    Stats m_stats;

    TracedCallback<const RdmaFlowRecord&> m_flowCompleteTrace;
    TracedCallback<uint32_t, Ptr<RdmaFlowState>> m_flowStartTrace;
    TracedCallback<uint32_t> m_flowSentTrace; //!< the last packet's first transmission
    /// the receiver got a message's last byte in order
    TracedCallback<Ipv4Address, uint16_t, uint32_t, uint64_t> m_messageReceivedTrace;
    TracedCallback<const CnmHeader&, uint32_t, DataRate, bool> m_cnmReceivedTrace;
};

} // namespace ns3

#endif /* RDMA_NIC_H */
