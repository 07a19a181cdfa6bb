/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_ECN_AIMD_H
#define RDMA_ECN_AIMD_H

// An algorithm of one's own (doc/usage/own-algorithm.rst): a rate-based AIMD on the ECN echo of
// the ACKs, registered as "ecn-aimd". Everything it is made of is in this file and
// rdma-ecn-aimd.cc; no file of the library names it. examples/dcon-own-algorithm.cc runs it.

#include "ns3/data-rate.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \brief ECN-echo AIMD: a sender that cuts its rate on marked ACKs and grows it on clean ones.
 *
 * The flow starts at its start rate (the line rate unless asked otherwise). An ACK whose ECN
 * echo is set cuts the rate to rate x (1 - Decrease), at most once per CutInterval (0: the
 * flow's base RTT), so that one congested RTT is one cut. An ACK without the echo adds
 * AdditiveIncrease x (acknowledged bytes / the bytes of one base RTT at the current rate):
 * AdditiveIncrease per RTT. The rate stays in [MinRate, line rate]. The receiver does nothing
 * of its own: the NIC echoes CE in every ACK (RdmaAckInfo::ecnEcho).
 */
class RdmaEcnAimd : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Signature of the RateCut trace source.
     * \param before the rate before the cut
     * \param after the rate after it
     */
    typedef void (*RateCutTracedCallback)(DataRate before, DataRate after);

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;

    /**
     * \brief The switch queue it asks for on a port of \p portRate: RED-ECN with step marking
     * at 2 KB per Gb/s of the port (50 KB at 25 Gb/s, 200 KB at 100 Gb/s).
     * \param portRate the port's rate
     * \return attribute name and value pairs
     */
    static std::vector<std::pair<std::string, std::string>> QueueAttributes(DataRate portRate);

private:
    double m_decrease{0.2}; //!< multiplicative decrease
    DataRate m_increase{0}; //!< additive increase per RTT (0: line rate / 100)
    Time m_cutInterval;     //!< at most one cut per this (0: the base RTT)
    DataRate m_minRate;     //!< rate floor
    DataRate m_step;        //!< the additive increase in use
    Time m_interval;        //!< the cut interval in use
    Time m_nextCut;         //!< no cut before this time
    TracedCallback<DataRate, DataRate> m_rateCut; //!< the RateCut trace source
};

} // namespace ns3

#endif /* RDMA_ECN_AIMD_H */
