/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-timely.h"

#include "ns3/double.h"
#include "ns3/enum-accessor.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTimely");
NS_OBJECT_ENSURE_REGISTERED(RdmaTimely);

namespace
{
/// --cc=timely; switch queue: RED-ECN (its marks are not read: TIMELY reacts to RTT).
const RdmaCcRegistry::Registration g_timelyRegistration(
    {"timely",
     &RdmaTimely::GetTypeId,
     "TIMELY (Mittal et al., SIGCOMM 2015): RTT-gradient rate control",
     "ns3::RedEcnQueueDisc",
     nullptr,
     "",
     {},
     {},
     "",
     "MinRate"});
} // namespace

TypeId
RdmaTimely::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaTimely")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaTimely>()
              .AddAttribute("EwmaWeight",
                            "a: weight of the new RTT difference in rtt_diff",
                            DoubleValue(0.875),
                            MakeDoubleAccessor(&RdmaTimely::m_ewma),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("Beta",
                            "Multiplicative decrease factor",
                            DoubleValue(0.8),
                            MakeDoubleAccessor(&RdmaTimely::m_beta),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("TLow",
                            "Below this RTT the rate increases additively",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaTimely::m_tLow),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("THigh",
                            "Above this RTT the rate decreases in proportion to the excess",
                            TimeValue(MicroSeconds(500)),
                            MakeTimeAccessor(&RdmaTimely::m_tHigh),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("MinRtt",
                            "Normalizes the RTT gradient",
                            TimeValue(MicroSeconds(20)),
                            MakeTimeAccessor(&RdmaTimely::m_minRtt),
                            MakeTimeChecker(Time(1)))
              .AddAttribute("Delta",
                            "Additive increase step (0 = line rate / 1000)",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&RdmaTimely::m_delta),
                            MakeDataRateChecker())
              .AddAttribute("HaiThreshold",
                            "Consecutive non-positive gradients after which the step is "
                            "HaiFactor x Delta",
                            UintegerValue(5),
                            MakeUintegerAccessor(&RdmaTimely::m_haiThreshold),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("HaiFactor",
                            "N of hyper-active increase",
                            UintegerValue(5),
                            MakeUintegerAccessor(&RdmaTimely::m_haiFactor),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("SegmentBytes",
                            "Update once per this many acknowledged bytes, as the paper does per "
                            "completed 16-64 KB segment (0 = on every ACK with an RTT sample)",
                            UintegerValue(64000),
                            MakeUintegerAccessor(&RdmaTimely::m_segmentBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute(
                  "Variant",
                  "Original TIMELY (Mittal et al. 2015) or patched TIMELY (Zhu et al. "
                  "2016: one weighted update between TLow and THigh, fair fixed point)",
                  EnumValue(RdmaTimely::ORIGINAL),
                  MakeDconEnumAccessor(&RdmaTimely::m_variant),
                  MakeEnumChecker(RdmaTimely::ORIGINAL, "Original", RdmaTimely::PATCHED, "Patched"))
              .AddAttribute("RttRef",
                            "Patched TIMELY's reference RTT of error = (rtt - RttRef) / RttRef "
                            "(0 = TLow)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&RdmaTimely::m_rttRef),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("MinRate",
                            "Lowest rate",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&RdmaTimely::m_minRate),
                            MakeDataRateChecker());
    return tid;
}

RdmaTimely::RdmaTimely()
{
    NS_LOG_FUNCTION(this);
}

RdmaTimely::~RdmaTimely() {}

std::string
RdmaTimely::GetName() const
{
    return "timely";
}

bool
RdmaTimely::WantsRttSamples() const
{
    return true;
}

void
RdmaTimely::Init(Ptr<RdmaFlowState> flow)
{
    if (m_tLow >= m_tHigh)
    {
        throw std::invalid_argument("RdmaTimely: ns3::RdmaTimely::TLow ("
                                    + std::to_string(m_tLow.GetMicroSeconds())
                                    + " us) must be below ns3::RdmaTimely::THigh ("
                                    + std::to_string(m_tHigh.GetMicroSeconds()) + " us)");
    }
    if (m_minRate > flow->m_lineRate || m_delta > flow->m_lineRate)
    {
        throw std::invalid_argument("RdmaTimely: ns3::RdmaTimely::MinRate and "
                                    "ns3::RdmaTimely::Delta must not exceed the line rate "
                                    + std::to_string(flow->m_lineRate.GetBitRate()) + " b/s");
    }
    RdmaCongestionOps::Init(flow);
    // Delta 0 (the attribute's default) means line rate / 1000; the attribute keeps its value.
    m_step = m_delta.GetBitRate() ? m_delta : DataRate(flow->m_lineRate.GetBitRate() / 1000);
}

void
RdmaTimely::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    m_ackedSinceUpdate += ack.newlyAckedBytes;
    if (!ack.rtt.IsStrictlyPositive() || m_ackedSinceUpdate < m_segmentBytes)
    {
        return;
    }
    m_ackedSinceUpdate = 0;
    OnRttSample(flow, ack.rtt);
}

double
RdmaTimely::PatchedWeight(double g)
{
    if (g <= -0.25)
    {
        return 0;
    }
    if (g >= 0.25)
    {
        return 1;
    }
    return 2 * g + 0.5;
}

Time
RdmaTimely::GetRttDiff() const
{
    return PicoSeconds(static_cast<int64_t>(std::llround(m_rttDiffPs)));
}

void
RdmaTimely::OnRttSample(Ptr<RdmaFlowState> flow, Time rtt)
{
    if (m_prevRtt.IsStrictlyNegative())
    {
        m_prevRtt = rtt;
        return;
    }
    double diff = static_cast<double>((rtt - m_prevRtt).GetPicoSeconds());
    m_prevRtt = rtt;
    m_rttDiffPs = (1.0 - m_ewma) * m_rttDiffPs + m_ewma * diff;
    double gradient = m_rttDiffPs / static_cast<double>(m_minRtt.GetPicoSeconds());
    double rate = flow->GetRateBps();
    double delta = static_cast<double>(m_step.GetBitRate());
    if (rtt < m_tLow)
    {
        rate += delta;
        m_negativeGradients = 0;
    }
    else if (rtt > m_tHigh)
    {
        rate *= 1.0 - m_beta * (1.0 - m_tHigh.GetSeconds() / rtt.GetSeconds());
        m_negativeGradients = 0;
    }
    else if (m_variant == PATCHED)
    {
        double w = PatchedWeight(gradient);
        Time ref = m_rttRef.IsStrictlyPositive() ? m_rttRef : m_tLow;
        double error = (rtt - ref).GetSeconds() / ref.GetSeconds();
        rate = rate * (1.0 - m_beta * w * error) + delta * (1.0 - w);
        m_negativeGradients = 0;
    }
    else if (gradient <= 0)
    {
        m_negativeGradients++;
        uint32_t n = m_negativeGradients >= m_haiThreshold ? m_haiFactor : 1;
        rate += n * delta;
    }
    else
    {
        rate *= 1.0 - m_beta * gradient;
        m_negativeGradients = 0;
    }
    flow->SetRate(DataRate(static_cast<uint64_t>(std::max(0.0, std::round(rate)))), m_minRate);
    NS_LOG_DEBUG("flow " << flow->m_flowId << " rtt " << rtt.As(Time::US) << " gradient "
                         << gradient << " rate " << flow->m_rate.Get());
}

} // namespace ns3
