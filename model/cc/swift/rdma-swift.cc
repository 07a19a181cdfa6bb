/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-swift.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwift");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwift);

namespace
{
/// --cc=swift; switch queue: RED-ECN (its marks are not read: Swift reacts to delay).
const RdmaCcRegistry::Registration g_swiftRegistration(
    {"swift",
     &RdmaSwift::GetTypeId,
     "Swift (Kumar et al., SIGCOMM 2020): delay-based window",
     "ns3::RedEcnQueueDisc"});
} // namespace

TypeId
RdmaSwift::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaSwift")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaSwift>()
              .AddAttribute("Ai",
                            "Additive increase, packets per RTT",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RdmaSwift::m_ai),
                            MakeDoubleChecker<double>(0.0))
              .AddAttribute("BetaMd",
                            "Multiplicative decrease factor",
                            DoubleValue(0.8),
                            MakeDoubleAccessor(&RdmaSwift::m_betaMd),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("MaxMdf",
                            "Largest multiplicative decrease in one step",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&RdmaSwift::m_maxMdf),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("BaseTarget",
                            "Delay target before per-hop and flow-scaling terms; must exceed the "
                            "base RTT of every flow (refused when a flow starts otherwise)",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaSwift::m_baseTarget),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("PerHopDelay",
                            "Target added per switch hop",
                            TimeValue(MicroSeconds(1)),
                            MakeTimeAccessor(&RdmaSwift::m_perHop),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("FsRange",
                            "Largest flow-scaling target term",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaSwift::m_fsRange),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("FsMinCwnd",
                            "Window (packets) at which the flow-scaling term is FsRange",
                            DoubleValue(0.1),
                            MakeDoubleAccessor(&RdmaSwift::m_fsMinCwnd),
                            MakeDoubleChecker<double>(1e-6))
              .AddAttribute("FsMaxCwnd",
                            "Window (packets) at which the flow-scaling term is 0",
                            DoubleValue(256),
                            MakeDoubleAccessor(&RdmaSwift::m_fsMaxCwnd),
                            MakeDoubleChecker<double>(1e-6))
              .AddAttribute("MinCwnd",
                            "Smallest window in packets",
                            DoubleValue(0.001),
                            MakeDoubleAccessor(&RdmaSwift::m_minCwnd),
                            MakeDoubleChecker<double>(1e-9))
              .AddAttribute("MaxCwnd",
                            "Largest window in packets",
                            DoubleValue(256),
                            MakeDoubleAccessor(&RdmaSwift::m_maxCwnd),
                            MakeDoubleChecker<double>(1e-9))
              .AddAttribute("InitialCwnd",
                            "Initial window in packets (0 = the bandwidth-delay product)",
                            DoubleValue(0),
                            MakeDoubleAccessor(&RdmaSwift::m_initialCwnd),
                            MakeDoubleChecker<double>(0.0));
    return tid;
}

RdmaSwift::RdmaSwift()
{
    NS_LOG_FUNCTION(this);
}

RdmaSwift::~RdmaSwift() {}

std::string
RdmaSwift::GetName() const
{
    return "swift";
}

bool
RdmaSwift::WantsRttSamples() const
{
    return true;
}

Time
RdmaSwift::GetTargetDelay(double cwnd, uint32_t hops) const
{
    double a
        = m_fsRange.GetSeconds() / (1.0 / std::sqrt(m_fsMinCwnd) - 1.0 / std::sqrt(m_fsMaxCwnd));
    double b = -a / std::sqrt(m_fsMaxCwnd);
    double fs = std::clamp(a / std::sqrt(cwnd) + b, 0.0, m_fsRange.GetSeconds());
    return m_baseTarget + m_perHop * hops + Seconds(fs);
}

double
RdmaSwift::GetCwnd() const
{
    return m_cwnd;
}

void
RdmaSwift::Init(Ptr<RdmaFlowState> flow)
{
    if (m_fsMaxCwnd <= m_fsMinCwnd || m_maxCwnd < m_minCwnd)
    {
        throw std::invalid_argument(
            "RdmaSwift: need ns3::RdmaSwift::FsMinCwnd < ns3::RdmaSwift::FsMaxCwnd and "
            "ns3::RdmaSwift::MinCwnd <= ns3::RdmaSwift::MaxCwnd");
    }
    if (m_baseTarget <= flow->m_baseRtt)
    {
        // A target at or below the base RTT can never be met: every window would shrink to
        // MinCwnd (the attribute's documented limit).
        std::ostringstream rule;
        rule << "above the base RTT of flow " << flow->m_flowId << " ("
             << flow->m_baseRtt.As(Time::US) << "): a target at or below it is never met";
        std::ostringstream got;
        got << m_baseTarget.As(Time::US);
        RejectAttribute(GetTypeId(), "BaseTarget", got.str(), rule.str());
    }
    RdmaCongestionOps::Init(flow);
    m_rtt = flow->m_baseRtt;
    double cwnd = m_initialCwnd;
    if (cwnd == 0)
    {
        // bandwidth-delay product of the start rate (the line rate unless the flow asked for
        // another), in packets (at least one)
        cwnd = std::max(1.0,
                        flow->m_rate.Get().GetBitRate() * flow->m_baseRtt.GetSeconds()
                            / (8.0 * flow->m_mtu));
    }
    SetCwnd(flow, cwnd);
}

void
RdmaSwift::SetCwnd(Ptr<RdmaFlowState> flow, double cwnd)
{
    m_cwnd = std::clamp(cwnd, m_minCwnd, m_maxCwnd);
    if (m_cwnd >= 1.0)
    {
        flow->m_cwnd = static_cast<uint64_t>(std::llround(m_cwnd * flow->m_mtu));
        flow->m_rate = flow->m_lineRate;
    }
    else
    {
        // below one packet: one packet in flight, paced at cwnd packets per RTT
        flow->m_cwnd = flow->m_mtu;
        double bps = m_cwnd * flow->m_mtu * 8.0 / m_rtt.GetSeconds();
        flow->SetRate(DataRate(static_cast<uint64_t>(bps)), DataRate(1));
    }
}

void
RdmaSwift::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    if (!ack.rtt.IsStrictlyPositive())
    {
        return;
    }
    m_rtt = ack.rtt;
    Time now = Simulator::Now();
    Time target = GetTargetDelay(m_cwnd, flow->m_hops);
    double acked = static_cast<double>(ack.newlyAckedBytes) / flow->m_mtu;
    double cwnd = m_cwnd;
    if (ack.rtt < target)
    {
        cwnd += m_cwnd >= 1.0 ? m_ai * acked / m_cwnd : m_ai * acked;
    }
    else if (m_lastDecrease.IsStrictlyNegative() || now - m_lastDecrease >= ack.rtt)
    {
        double d = ack.rtt.GetSeconds();
        double factor = std::max(1.0 - m_betaMd * (d - target.GetSeconds()) / d, 1.0 - m_maxMdf);
        cwnd *= factor;
        m_lastDecrease = now;
    }
    SetCwnd(flow, cwnd);
    NS_LOG_DEBUG("flow " << flow->m_flowId << " rtt " << ack.rtt.As(Time::US) << " target "
                         << target.As(Time::US) << " cwnd " << m_cwnd);
}

} // namespace ns3
