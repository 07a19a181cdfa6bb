/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(DconQueueDisc);

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
                            "congestion)",
                            QueueSizeValue(QueueSize("200KB")),
                            MakeQueueSizeAccessor(&DconQueueDisc::m_qEcn),
                            MakeQueueSizeChecker())
              .AddAttribute("QCnm",
                            "Q_CNM: queue length from which the queue is in burst congestion "
                            "(ECN off, congested flows reported for CNMs); must be >= QEcn",
                            QueueSizeValue(QueueSize("320KB")),
                            MakeQueueSizeAccessor(&DconQueueDisc::m_qCnm),
                            MakeQueueSizeChecker())
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
                              "ns3::TracedValueCallback::Uint8")
              .AddTraceSource("BurstOnset",
                              "The queue entered burst congestion: queue bytes",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_burstOnsetTrace),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("CongestedFlow",
                              "A packet of a congested flow arrived in burst congestion: the "
                              "packet, N",
                              MakeTraceSourceAccessor(&DconQueueDisc::m_congestedFlowTrace),
                              "ns3::DconQueueDisc::CongestedFlowTracedCallback");
    return tid;
}

DconQueueDisc::DconQueueDisc() {}

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
    else if (m_qEcn.GetValue() == 0 || m_qCnm.GetValue() == 0)
    {
        err << "DconQueueDisc: QEcn and QCnm must be positive, got QEcn=" << m_qEcn
            << " QCnm=" << m_qCnm;
    }
    else if (m_qCnm.GetValue() < m_qEcn.GetValue())
    {
        err << "DconQueueDisc: QCnm (" << m_qCnm << ") must not be below QEcn (" << m_qEcn << ")";
    }
    if (!err.str().empty())
    {
        throw std::invalid_argument(err.str());
    }
    return RdmaEgressQueueDisc::CheckConfig();
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
    return m_flows.size();
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
    double bound = static_cast<double>(qPfc.GetValue()) / m
                   - 3.0 * d.GetSeconds() * static_cast<double>(c.GetBitRate()) / 8.0 * (m - 1);
    double q = std::max(static_cast<double>(qEcn.GetValue()), bound);
    return QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(q));
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
    else if (queueBytes >= m_qCnm.GetValue())
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
}

void
DconQueueDisc::OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    uint32_t& count = m_flows[item->GetFiveTuple()];
    count++;
    // Persistent congestion: mark on the bytes ahead of the packet, unless latched off (or,
    // with MarkInBurst, from Q_ECN up whatever the state).
    bool mark = m_markInBurst ? queueBytes >= m_qEcn.GetValue()
                              : !m_markingDisabled && queueBytes >= m_qEcn.GetValue()
                                    && queueBytes < m_qCnm.GetValue();
    if (mark)
    {
        Mark(item, PERSISTENT_MARK);
    }
    UpdateState(queueBytes + item->GetSize());
    if (m_state == BURST)
    {
        m_cnmTriggers++;
        uint32_t n = m_flows.size();
        m_congestedFlowTrace(item, n);
        NotifyCongestedFlow(item, n);
    }
}

void
DconQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    auto it = m_flows.find(item->GetFiveTuple());
    if (it != m_flows.end() && --it->second == 0)
    {
        m_flows.erase(it);
    }
    UpdateState(queueBytes);
}

} // namespace ns3
