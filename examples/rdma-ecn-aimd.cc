/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-ecn-aimd.h"

#include "ns3/double.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaEcnAimd);
// The signature of its trace source, so that tools (and the test suite) can connect to it.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaEcnAimd::RateCutTracedCallback);

namespace
{
// [registration]
// Everything the library needs to know about the algorithm, in one entry: its --cc name, its
// TypeId, a summary, the switch queue it runs over (and that queue's attributes per port rate),
// a named parameter set, the feedback it needs from the queue (ECN marks), and which of its
// attributes is a rate floor. RdmaFabricHelper::SetCongestionControl("ecn-aimd", "gentle")
// then builds the fabric with all of it; --list-cc, --cc and the scripts list it.
const RdmaCcRegistry::Registration g_ecnAimdRegistration(
    {"ecn-aimd",
     &RdmaEcnAimd::GetTypeId,
     "ECN-echo AIMD (the tutorial's own algorithm): cut on marked ACKs, grow per RTT",
     "ns3::RedEcnQueueDisc",
     &RdmaEcnAimd::QueueAttributes,
     "",
     {{"gentle",
       "smaller steps: cut by 10%, grow by line rate / 400 per RTT",
       [](DataRate lineRate)
       {
           return std::vector<RdmaCcParameterSet::Value>{
               {"Decrease", "0.1"},
               {"AdditiveIncrease", std::to_string(lineRate.GetBitRate() / 400) + "bps"}};
       }}},
     {"ecn"},
     "",
     "MinRate"});
// [registration]
} // namespace

TypeId
RdmaEcnAimd::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaEcnAimd")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaEcnAimd>()
              .AddAttribute("Decrease",
                            "Multiplicative decrease on a marked ACK: rate x (1 - Decrease); in "
                            "(0, 1)",
                            DoubleValue(0.2),
                            MakeDoubleAccessor(&RdmaEcnAimd::m_decrease),
                            MakeDoubleChecker<double>())
              .AddAttribute("AdditiveIncrease",
                            "Rate added per base RTT of clean ACKs (0: line rate / 100)",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&RdmaEcnAimd::m_increase),
                            MakeDataRateChecker())
              .AddAttribute("CutInterval",
                            "At most one cut per this time (0: the flow's base RTT)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&RdmaEcnAimd::m_cutInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("MinRate",
                            "Lowest sending rate",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&RdmaEcnAimd::m_minRate),
                            MakeDataRateChecker())
              .AddTraceSource("RateCut",
                              "The rate was cut on a marked ACK (before, after)",
                              MakeTraceSourceAccessor(&RdmaEcnAimd::m_rateCut),
                              "ns3::RdmaEcnAimd::RateCutTracedCallback");
    return tid;
}

std::string
RdmaEcnAimd::GetName() const
{
    return "ecn-aimd";
}

std::vector<std::pair<std::string, std::string>>
RdmaEcnAimd::QueueAttributes(DataRate portRate)
{
    const std::string k = std::to_string(portRate.GetBitRate() / 500000) + "B"; // 2 KB per Gb/s
    return {{"Kmin", k}, {"Kmax", k}, {"Pmax", "1"}};
}

void
RdmaEcnAimd::Init(Ptr<RdmaFlowState> flow)
{
    if (!(m_decrease > 0 && m_decrease < 1))
    {
        RejectAttribute(GetTypeId(), "Decrease", std::to_string(m_decrease), "in (0, 1)");
    }
    RdmaCongestionOps::Init(flow); // rate = target = the start rate
    m_step = m_increase.GetBitRate() ? m_increase : DataRate(flow->m_lineRate.GetBitRate() / 100);
    m_interval = m_cutInterval.IsStrictlyPositive() ? m_cutInterval : flow->m_baseRtt;
    m_nextCut = Simulator::Now();
}

void
RdmaEcnAimd::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    const DataRate rate = flow->m_rate;
    if (ack.ecnEcho)
    {
        if (Simulator::Now() >= m_nextCut)
        {
            flow->SetRate(DataRate(static_cast<uint64_t>(rate.GetBitRate() * (1 - m_decrease))),
                          m_minRate);
            m_nextCut = Simulator::Now() + m_interval;
            m_rateCut(rate, flow->m_rate.Get());
        }
        return;
    }
    // AdditiveIncrease per base RTT's worth of acknowledged bytes at the current rate.
    const double rttBytes = rate.GetBitRate() / 8.0 * flow->m_baseRtt.GetSeconds();
    const double share = rttBytes > 0 ? std::min(1.0, ack.newlyAckedBytes / rttBytes) : 1.0;
    flow->SetRate(DataRate(rate.GetBitRate() + static_cast<uint64_t>(m_step.GetBitRate() * share)),
                  m_minRate);
}

} // namespace ns3
