/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/enum-accessor.h"
#include "ns3/log.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(DconQueueDisc);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::DconQueueDisc::BurstOnsetTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::DconQueueDisc::CongestedFlowTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::DconQueueDisc::StateTracedCallback);

namespace
{
/// --queue=dcon; the scenarios' DCON options set Q_ECN, Q_CNM and the fan-out M; Q_ECN and
/// Q_CNM are its two thresholds (dcon-bench puts the reference's Kmin and Kmax there).
const RdmaQueueRegistry::Registration g_dconQueueRegistration(
    {"dcon",
     "ns3::DconQueueDisc",
     {{"QEcn", "--qecn"},
      {"QcnmMode", "--qcnm or --qcnmFraction (0: dynamic)"},
      {"QCnm", "--qcnm or --qcnmFraction"},
      {"FanOut", "--qcnmFanOut"},
      {"FanOutMode", "--qcnmFanOutMode"},
      {"HopDelay", "none: d is the fabric's link delay"},
      {"MarkInBurst", "--dconMarkInBurst"}},
     "QEcn",
     "QCnm",
     {"ecn", "cnm"},
     "DCON: marks CE from Q_ECN, reports congested flows for CNMs from Q_CNM (DCON's switch)"});
} // namespace

TypeId
DconQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DconQueueDisc")
              .SetParent<RdmaEgressQueueDisc>()
              .SetGroupName("Dcon")
              .AddConstructor<DconQueueDisc>()
              .AddAttribute("QEcn",
                            "Q_ECN: queue length from which packets are ECN-marked (persistent "
                            "congestion); bytes, > 0, at most the PFC threshold",
                            QueueSizeValue(QueueSize("5KB")),
                            MakeQueueSizeAccessor(&DconQueueDisc::m_qEcn),
                            MakeQueueSizeChecker())
              .AddAttribute(
                  "QcnmMode",
                  "Where Q_CNM comes from. Dynamic (default): per arriving packet, "
                  "max(QEcn, Q_PFC/M - 3 d C (M-1)) (paper Section 4.4) with the "
                  "ingress port's current PFC threshold and fan-out M. Fixed: QCnm",
                  EnumValue(DconQueueDisc::DYNAMIC),
                  MakeDconEnumAccessor(&DconQueueDisc::m_qcnmMode),
                  MakeEnumChecker(DconQueueDisc::FIXED, "Fixed", DconQueueDisc::DYNAMIC, "Dynamic"))
              .AddAttribute("QCnm",
                            "QcnmMode=Fixed: queue length from which the queue is in burst "
                            "congestion (ECN off, congested flows reported for CNMs); bytes, "
                            "QEcn <= QCnm <= the PFC threshold",
                            QueueSizeValue(QueueSize("320KB")),
                            MakeQueueSizeAccessor(&DconQueueDisc::m_qCnm),
                            MakeQueueSizeChecker())
              .AddAttribute("FanOut",
                            "QcnmMode=Dynamic: M of Section 4.4. 0 (default): from FanOutMode; "
                            ">= 1: that fixed M for every ingress port",
                            UintegerValue(0),
                            MakeUintegerAccessor(&DconQueueDisc::m_fanOut),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("FanOutMode",
                            "QcnmMode=Dynamic, FanOut=0: how M is obtained. Live (default): "
                            "egress queues holding packets of the arriving packet's ingress "
                            "port now, this one included. LiveAboveQecn: the same, counting "
                            "only the other queues that hold at least Q_ECN. Design: the "
                            "ingress port's design fan-out (the egress ports its packets can "
                            "reach under the routing tables, the paper's worst case), "
                            "configured by RdmaFabric",
                            EnumValue(DconQueueDisc::LIVE),
                            MakeDconEnumAccessor(&DconQueueDisc::m_fanOutMode),
                            MakeEnumChecker(DconQueueDisc::LIVE,
                                            "Live",
                                            DconQueueDisc::LIVE_ABOVE_QECN,
                                            "LiveAboveQecn",
                                            DconQueueDisc::DESIGN,
                                            "Design"))
              .AddAttribute("HopDelay",
                            "QcnmMode=Dynamic: per-hop delay d of Section 4.4 (the CNM needs at "
                            "most 3 hops); >= 0",
                            TimeValue(MicroSeconds(5)),
                            MakeTimeAccessor(&DconQueueDisc::m_hopDelay),
                            MakeTimeChecker(Time(0)))
              .AddAttribute(
                  "FlowCount",
                  "What N counts. Window (default): flows with a packet queued or "
                  "seen within FlowWindow (the flows passing through the port). "
                  "Queued: flows with a packet queued now",
                  EnumValue(DconQueueDisc::WINDOW),
                  MakeDconEnumAccessor(&DconQueueDisc::m_flowCount),
                  MakeEnumChecker(DconQueueDisc::QUEUED, "Queued", DconQueueDisc::WINDOW, "Window"))
              .AddAttribute("FlowWindow",
                            "FlowCount=Window: a flow counts in N while its last packet arrived "
                            "less than this ago (default 120 us = T, 3 base RTTs of 40 us; "
                            "RdmaFabric::SetSwitchAgentWindowInRtts sets both); > 0",
                            TimeValue(MicroSeconds(120)),
                            MakeTimeAccessor(&DconQueueDisc::m_flowWindow),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("MarkInBurst",
                            "Keep ECN marking from Q_ECN up also in burst congestion (no latch). "
                            "false (default) is the paper: marking off from Q_CNM until the "
                            "queue falls below Q_ECN",
                            BooleanValue(false),
                            MakeBooleanAccessor(&DconQueueDisc::m_markInBurst),
                            MakeBooleanChecker())
              .AddTraceSource("State",
                              "Congestion state (0 not congested, 1 persistent, 2 burst)",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_state),
                              "ns3::DconQueueDisc::StateTracedCallback")
              .AddTraceSource("QcnmInUse",
                              "Q_CNM of the last arrival, bytes (changes with the dynamic "
                              "threshold)",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_qcnmInUse),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("BurstOnset",
                              "The queue entered burst congestion: queue bytes",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_burstOnsetTrace),
                              "ns3::DconQueueDisc::BurstOnsetTracedCallback")
              .AddTraceSource("CongestedFlow",
                              "A packet of a congested flow arrived in burst congestion: the "
                              "packet, N",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_congestedFlowTrace),
                              "ns3::DconQueueDisc::CongestedFlowTracedCallback");
    return tid;
}

DconQueueDisc::DconQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

DconQueueDisc::~DconQueueDisc() {}

bool
DconQueueDisc::CheckConfig()
{
    std::ostringstream err;
    if (m_qEcn.GetUnit() != QueueSizeUnit::BYTES || m_qCnm.GetUnit() != QueueSizeUnit::BYTES)
    {
        err << "DconQueueDisc: QEcn and QCnm must be in bytes, got QEcn=" << m_qEcn
            << " QCnm=" << m_qCnm;
    }
    else if (m_qEcn.GetValue() == 0)
    {
        err << "DconQueueDisc: QEcn must be positive, got " << m_qEcn;
    }
    else if (m_qcnmMode == FIXED && m_qCnm.GetValue() < m_qEcn.GetValue())
    {
        err << "DconQueueDisc: QCnm (" << m_qCnm << ") must not be below QEcn (" << m_qEcn
            << "): need Q_ECN <= Q_CNM <= Q_PFC";
    }
    else if (m_flowCount == WINDOW && !m_flowWindow.IsStrictlyPositive())
    {
        err << "DconQueueDisc: FlowWindow must be > 0 with FlowCount=Window, got "
            << m_flowWindow.As(Time::US);
    }
    if (!err.str().empty())
    {
        throw std::invalid_argument(err.str());
    }
    m_qcnmInUse = m_qcnmMode == FIXED ? m_qCnm.GetValue() : m_qEcn.GetValue();
    return RdmaEgressQueueDisc::CheckConfig();
}

void
DconQueueDisc::CheckPfcThreshold(uint64_t pfcThreshold) const
{
    if (pfcThreshold == 0)
    {
        return;
    }
    std::ostringstream err;
    if (m_qEcn.GetValue() > pfcThreshold)
    {
        err << "DconQueueDisc: Q_ECN = " << m_qEcn.GetValue()
            << " B is above the PFC pause threshold Q_PFC = " << pfcThreshold
            << " B; need Q_ECN <= Q_CNM <= Q_PFC";
    }
    else if (m_qcnmMode == FIXED && m_qCnm.GetValue() > pfcThreshold)
    {
        err << "DconQueueDisc: Q_CNM = " << m_qCnm.GetValue()
            << " B is above the PFC pause threshold Q_PFC = " << pfcThreshold
            << " B (Q_ECN = " << m_qEcn.GetValue() << " B); need Q_ECN <= Q_CNM <= Q_PFC";
    }
    if (!err.str().empty())
    {
        throw std::invalid_argument(err.str());
    }
}

bool
DconQueueDisc::IsBurstCongested() const
{
    return m_state == BURST;
}

DconQueueDisc::State
DconQueueDisc::GetState() const
{
    return m_state;
}

bool
DconQueueDisc::IsMarkingDisabled() const
{
    return m_markingDisabled && !m_markInBurst;
}

uint32_t
DconQueueDisc::GetNumFlows() const
{
    if (m_flowCount == QUEUED)
    {
        return m_flows.size();
    }
    const Time now = Simulator::Now();
    return std::count_if(m_flows.begin(),
                         m_flows.end(),
                         [this, now](const auto& f)
                         {
                             return f.second.queued > 0 || now - f.second.lastSeen < m_flowWindow;
                         });
}

uint32_t
DconQueueDisc::GetQcnmInUse() const
{
    return m_qcnmInUse;
}

bool
DconQueueDisc::UsesIngressFanOut() const
{
    return true;
}

std::vector<RdmaEgressQueueDisc::Counter>
DconQueueDisc::GetCounters()
{
    return {{"arrivals", GetStats().nTotalEnqueuedPackets},
            {"burst_onsets", GetBurstOnsets()},
            {"cnm_triggers", GetCnmTriggers()},
            {"arrivals_at_qecn_floor", GetArrivalsAtQecnFloor()},
            {"unmarked_above_qecn", GetUnmarkedAboveQecn()},
            {"latched_arrivals", GetLatchedArrivals()}};
}

uint64_t
DconQueueDisc::GetBurstOnsets() const
{
    return m_burstOnsets;
}

uint64_t
DconQueueDisc::GetCnmTriggers() const
{
    return m_cnmTriggers;
}

uint64_t
DconQueueDisc::GetArrivalsAtQecnFloor() const
{
    return m_arrivalsAtQecnFloor;
}

uint64_t
DconQueueDisc::GetUnmarkedAboveQecn() const
{
    return m_unmarkedAboveQecn;
}

uint64_t
DconQueueDisc::GetLatchedArrivals() const
{
    return m_latchedArrivals;
}

std::array<Time, DconQueueDisc::NUM_PHASES>
DconQueueDisc::GetTimeInStates() const
{
    std::array<Time, NUM_PHASES> t = m_phaseTime;
    t[m_phase] += Simulator::Now() - m_phaseSince;
    return t;
}

uint32_t
DconQueueDisc::DynamicQcnmBytes(uint64_t qEcn, uint64_t qPfc, uint32_t m, Time d, DataRate c)
{
    double bound = static_cast<double>(qPfc) / m
                   - 3.0 * d.GetSeconds() * static_cast<double>(c.GetBitRate()) / 8.0 * (m - 1);
    double q = std::max(static_cast<double>(qEcn), bound);
    return static_cast<uint32_t>(std::min(q, 4294967295.0));
}

QueueSize
DconQueueDisc::ComputeDynamicQcnm(QueueSize qEcn, QueueSize qPfc, uint32_t m, Time d, DataRate c)
{
    if (m == 0)
    {
        throw std::invalid_argument("ComputeDynamicQcnm: M must be >= 1, got 0");
    }
    if (qEcn.GetUnit() != QueueSizeUnit::BYTES || qPfc.GetUnit() != QueueSizeUnit::BYTES)
    {
        throw std::invalid_argument("ComputeDynamicQcnm: thresholds must be in bytes");
    }
    return QueueSize(QueueSizeUnit::BYTES,
                     DynamicQcnmBytes(qEcn.GetValue(), qPfc.GetValue(), m, d, c));
}

uint32_t
DconQueueDisc::QcnmFor(const RdmaQueueDiscItem& item) const
{
    if (m_qcnmMode == FIXED)
    {
        return m_qCnm.GetValue();
    }
    const RdmaIngressInfo* info = GetIngressInfo();
    if (!info)
    {
        throw std::logic_error("DconQueueDisc: QcnmMode=Dynamic needs the switch's ingress "
                               "information (RdmaSwitch sets it); use QcnmMode=Fixed alone");
    }
    return DynamicQcnmBytes(
        m_qEcn.GetValue(),
        info->GetIngressPauseThreshold(item.GetIngressPort(), item.GetPriority()),
        FanOutFor(*info, item),
        m_hopDelay,
        GetLinkRate());
}

uint32_t
DconQueueDisc::FanOutFor(const RdmaIngressInfo& info, const RdmaQueueDiscItem& item) const
{
    if (m_fanOut)
    {
        return m_fanOut;
    }
    const uint32_t in = item.GetIngressPort();
    const uint8_t prio = item.GetPriority();
    switch (m_fanOutMode)
    {
        case LIVE_ABOVE_QECN:
            return info.GetIngressFanOutAbove(in, prio, m_qEcn.GetValue(), this);
        case DESIGN:
        {
            const uint32_t m = info.GetIngressDesignFanOut(in);
            if (m == 0)
            {
                throw std::logic_error("DconQueueDisc: FanOutMode=Design but ingress port "
                                       + std::to_string(in)
                                       + " has no design fan-out (RdmaFabric configures it)");
            }
            return m;
        }
        case LIVE:
        default:
            return std::max<uint32_t>(1, info.GetIngressFanOut(in, prio));
    }
}

void
DconQueueDisc::UpdateState(uint32_t queueBytes)
{
    State s;
    if (queueBytes < m_qEcn.GetValue())
    {
        m_markingDisabled = false;
        s = NOT_CONGESTED;
    }
    else if (queueBytes >= m_qcnmInUse)
    {
        if (!m_markingDisabled)
        {
            m_burstOnsets++;
            m_burstOnsetTrace(queueBytes);
        }
        m_markingDisabled = true;
        s = BURST;
    }
    else
    {
        s = PERSISTENT; // marking stays off if latched
    }
    if (s != m_state)
    {
        m_state = s;
    }
    const Phase phase = s == NOT_CONGESTED    ? PHASE_BELOW_QECN
                        : s == BURST          ? PHASE_BURST
                        : IsMarkingDisabled() ? PHASE_LATCHED
                                              : PHASE_MARKING;
    if (phase != m_phase)
    {
        const Time now = Simulator::Now();
        m_phaseTime[m_phase] += now - m_phaseSince;
        m_phase = phase;
        m_phaseSince = now;
    }
}

void
DconQueueDisc::ExpireFlows(Time now)
{
    while (!m_arrivals.empty() && now - m_arrivals.front().first >= m_flowWindow)
    {
        auto it = m_flows.find(m_arrivals.front().second);
        // Only the flow's latest arrival can retire it, and only with nothing queued.
        if (it != m_flows.end() && it->second.queued == 0
            && it->second.lastSeen == m_arrivals.front().first)
        {
            m_flows.erase(it);
        }
        m_arrivals.pop_front();
    }
}

void
DconQueueDisc::OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    const RdmaFiveTuple& tuple = item->GetFiveTuple();
    if (m_flowCount == WINDOW)
    {
        const Time now = Simulator::Now();
        ExpireFlows(now);
        FlowEntry& e = m_flows[tuple];
        e.queued++;
        e.lastSeen = now;
        m_arrivals.emplace_back(now, tuple);
    }
    else
    {
        m_flows[tuple].queued++;
    }
    const uint32_t qcnm = QcnmFor(*item);
    m_qcnmInUse = qcnm;
    if (qcnm <= m_qEcn.GetValue())
    {
        m_arrivalsAtQecnFloor++;
    }
    // Persistent congestion: mark on the bytes ahead of the packet, unless latched off (or,
    // with MarkInBurst, from Q_ECN up whatever the state).
    bool mark = m_markInBurst
                    ? queueBytes >= m_qEcn.GetValue()
                    : !m_markingDisabled && queueBytes >= m_qEcn.GetValue() && queueBytes < qcnm;
    if (mark)
    {
        Mark(item, PERSISTENT_MARK);
    }
    else if (queueBytes >= m_qEcn.GetValue())
    {
        m_unmarkedAboveQecn++;
        if (m_markingDisabled && !m_markInBurst && queueBytes < qcnm)
        {
            m_latchedArrivals++;
        }
    }
    UpdateState(queueBytes + item->GetSize());
    if (m_state == BURST)
    {
        m_cnmTriggers++;
        uint32_t n = m_flows.size();
        m_congestedFlowTrace(item, n);
    }
}

void
DconQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    auto it = m_flows.find(item->GetFiveTuple());
    if (it != m_flows.end() && --it->second.queued == 0)
    {
        if (m_flowCount == QUEUED || Simulator::Now() - it->second.lastSeen >= m_flowWindow)
        {
            m_flows.erase(it);
        }
    }
    UpdateState(queueBytes);
}

} // namespace ns3
