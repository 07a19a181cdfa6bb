/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_STATE_H
#define RDMA_FLOW_STATE_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/int-header.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup dcon-cc
 * \brief Sender-side state of one RDMA queue pair that congestion control reads and writes.
 *
 * Like TcpSocketState for TcpCongestionOps: the NIC owns it, the congestion-control object
 * (RdmaCongestionOps) changes the rate and window, and the NIC paces with them. Rates are
 * traced so a monitor can record them.
 */
class RdmaFlowState : public Object
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFlowState();

    /**
     * \brief Set the current sending rate, clamped to [minRate, lineRate].
     * \param rate the new rate
     * \param minRate the lowest rate the caller allows
     */
    void SetRate(DataRate rate, DataRate minRate);

    /**
     * \brief The current sending rate as a double in bit/s (convenience for algorithms).
     * \return rate in bit/s
     */
    double GetRateBps() const;

    /**
     * \brief Bytes sent but not yet acknowledged.
     * \return in-flight bytes
     */
    uint64_t GetBytesInFlight() const;

    uint32_t m_flowId{0};               //!< simulation-wide flow identifier
    uint32_t m_mtu{1000};               //!< payload bytes per full packet
    uint64_t m_size{0};                 //!< message size in bytes
    DataRate m_lineRate;                //!< NIC line rate
    DataRate m_startRate;               //!< rate to start at (RdmaFlowRequest::startRate)
    Time m_baseRtt;                     //!< base (unloaded) round-trip time of the path
    uint32_t m_hops{0};                 //!< switch hops on the path (for delay targets)
    TracedValue<DataRate> m_rate;       //!< current sending rate (pacing rate)
    TracedValue<DataRate> m_targetRate; //!< target rate (algorithms that keep one)
    TracedValue<uint64_t> m_cwnd;       //!< congestion window in bytes; 0 = no window
    uint64_t m_sndNxt{0};               //!< next byte offset to send
    uint64_t m_sndUna{0};               //!< lowest unacknowledged byte offset
    uint64_t m_sentHighWater{0};        //!< highest byte offset ever sent (for retransmit counts)
    Time m_lastRtt;                     //!< last RTT sample (zero if none)
    /// The congestion control holds the flow: the NIC sends no data packet of it before this
    /// time (on top of the pacing at m_rate). Set in OnSent, which the NIC reads right after
    /// each data packet. Zero: no hold. For schemes that pace with gaps between groups of
    /// packets (InfiniBand CC's injection rate delay, RdmaIbcc).
    Time m_holdUntil;
    Time m_startTime; //!< when the flow started
    /// Every RTT sample the NIC measures (only for algorithms that want RTT samples), for
    /// traces such as RTT exports ("RttSample").
    TracedCallback<Time> m_rttSample;
};

/**
 * \ingroup dcon-cc
 * \brief Receiver-side state of one RDMA queue pair, for the receiver duties of a congestion
 * control algorithm (CNP generation, receive-rate estimation).
 */
class RdmaRxFlowState : public Object
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    uint32_t m_flowId{0};        //!< simulation-wide flow identifier
    uint64_t m_bytesReceived{0}; //!< in-order payload bytes received so far
    uint32_t m_cnpsSent{0};      //!< CNPs sent for this flow
    Time m_lastCnp{Time::Max()}; //!< time the last CNP was sent (Max = never)
};

/**
 * \ingroup dcon-cc
 * \brief What a CNP carries to the sender's congestion control.
 */
struct RdmaCnpInfo
{
    bool congested{true}; //!< congestion bit (DCQCN CNPs always set it; PCN may clear it)
    DataRate recRate{0};  //!< receive rate measured by the receiver (PCN); 0 if absent
};

/**
 * \ingroup dcon-cc
 * \brief What an ACK tells the sender's congestion control.
 */
struct RdmaAckInfo
{
    uint64_t newlyAckedBytes{0}; //!< bytes acknowledged by this ACK that were not before
    uint64_t ackedOffset{0};     //!< cumulative acknowledged byte offset
    /// The newly acknowledged data carried CE: the receiver NIC sets the BTH BECN bit of an ACK
    /// if an in-order packet since its previous ACK arrived with CE (with AckInterval 1: this
    /// packet's CE, DCTCP's per-packet echo). Always echoed; algorithms that use ECN read it.
    bool ecnEcho{false};
    Time rtt; //!< RTT of the packet this ACK acknowledges, from its send time (zero if none)
    /// INT hop records of the data packet that caused this ACK, in path order: one per switch
    /// egress port it left (IntHeader; none unless the algorithm WantsHopRecords).
    IntHeader hops;
};

/**
 * \ingroup dcon-cc
 * \brief What a DCON Congestion Notification Message tells the sender.
 */
struct RdmaCnmInfo
{
    uint16_t numFlows{1}; //!< N, congested flows at the congested egress port
    DataRate capacity;    //!< C, capacity of the congested switch egress link
};

/**
 * \ingroup dcon-cc
 * \brief One received data packet, as seen by the receiver side of congestion control.
 */
struct RdmaRxPacketInfo
{
    uint32_t payloadBytes{0}; //!< payload bytes of the packet
    bool ce{false};           //!< the packet arrived with ECN Congestion Experienced
    bool inOrder{true};       //!< the packet was the expected one
};

} // namespace ns3

#endif /* RDMA_FLOW_STATE_H */
