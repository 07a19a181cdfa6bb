/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/simple-ref-count.h"
#include "ns3/tx-time-cache.h"

#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-nic
 * \brief What a user asks the NIC to send: one message on its own reliable connection.
 */
struct RdmaFlowRequest
{
    uint32_t flowId{0};  //!< simulation-wide identifier (used in outputs)
    Ipv4Address dst;     //!< destination host address
    uint64_t size{0};    //!< message size in bytes (> 0)
    uint8_t priority{3}; //!< PFC priority of the data
    Time baseRtt;        //!< unloaded round-trip time of the path (for CC and ideal FCT)
    uint32_t hops{0};    //!< switches on the path
    uint16_t sport{0};   //!< UDP source port (ECMP entropy); 0 = chosen by the NIC
    /// Rate the congestion control starts the flow at (rate and target rate, or Swift's first
    /// window = start rate x base RTT); 0 = line rate, the usual start. At most the line rate.
    DataRate startRate{0};
    /// Attribute values for this flow's congestion-control object (name, value in ns-3's
    /// string form), set before its Init: per-QP parameters, e.g. {"CctiIncrease", "2"} for
    /// RdmaIbcc. Empty: the NIC's defaults. An unknown name or bad value is refused by
    /// RdmaNic::StartFlow with std::invalid_argument naming the flow, the name and the value.
    std::vector<std::pair<std::string, std::string>> ccAttributes;
};

/**
 * \ingroup dcon-nic
 * \brief The record of a completed flow.
 */
struct RdmaFlowRecord
{
    uint32_t flowId{0};  //!< flow identifier
    uint64_t size{0};    //!< message size in bytes
    uint8_t priority{0}; //!< PFC priority of the data
    uint16_t sport{0};   //!< UDP source port the flow used
    Time start;          //!< when the flow started
    Time end;            //!< when the sender received the ACK of the last byte
};

/**
 * \ingroup dcon-nic
 * \brief Sender side of one reliable connection (one flow).
 */
class RdmaQueuePair : public SimpleRefCount<RdmaQueuePair>
{
public:
    RdmaFlowRequest request;   //!< what was asked
    uint32_t dstValue{0};      //!< request.dst as a 32-bit value (put in every data packet)
    uint32_t qpn{0};           //!< queue pair number (24 bits)
    uint16_t sport{0};         //!< UDP source port (ECMP entropy)
    Ptr<RdmaFlowState> state;  //!< state shared with congestion control
    Ptr<RdmaCongestionOps> cc; //!< the flow's congestion control
    Time nextAvail;            //!< rate limiter: earliest next send
    Time lastProgress;         //!< last time the ACKed offset advanced (for the RTO)
    EventId rtoEvent;          //!< retransmission timer
    bool rtoArmed{false};      //!< rtoEvent is pending (cheaper to ask than the simulator)
    TxTimeCache txTimes;       //!< pacing: serialization times at the flow's rate
    uint32_t timeouts{0};      //!< retransmission timeouts so far
    bool rttSamples{false};    //!< record send times for RTT samples (the CC wants them)
    bool hopRecords{false};    //!< data packets carry an IntHeader (the CC wants hop records)
    std::deque<std::pair<uint64_t, Time>> sendTimes; //!< (packet index, first send time)

    /**
     * \brief Whether the QP has data it may send now, ignoring pacing.
     * \return true if there is unsent data and the window (if any) allows
     */
    bool
    CanSend() const
    {
        if (state->m_sndNxt >= state->m_size)
        {
            return false;
        }
        uint64_t cwnd = state->m_cwnd;
        return cwnd == 0 || state->GetBytesInFlight() < cwnd;
    }
};

/**
 * \ingroup dcon-nic
 * \brief Receiver side of one reliable connection.
 */
class RdmaRxQueuePair : public SimpleRefCount<RdmaRxQueuePair>
{
public:
    Ipv4Address src;                 //!< the sender's address
    uint32_t srcValue{0};            //!< src as a 32-bit value (put in every ACK)
    uint32_t qpn{0};                 //!< queue pair number
    uint16_t sport{0};               //!< UDP port of the connection
    uint32_t expectedPsn{0};         //!< next in-order PSN (24 bits)
    uint32_t sinceAck{0};            //!< in-order packets since the last ACK
    bool ceSinceAck{false};          //!< an in-order packet since the last ACK carried CE
    uint32_t lastNakPsn{UINT32_MAX}; //!< PSN of the last NAK sent
    Time lastNakTime;                //!< when it was sent
    Ptr<RdmaRxFlowState> state;      //!< state for the receiver role of CC
    Ptr<RdmaCongestionOps> cc;       //!< receiver role of the flow's CC
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
