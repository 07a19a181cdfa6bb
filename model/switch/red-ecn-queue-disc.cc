/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "red-ecn-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-queue-registry.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RedEcnQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(RedEcnQueueDisc);

namespace
{
/// --queue=red; the scenarios' --kmin, --kmax and --pmax set its marking.
const RdmaQueueRegistry::Registration g_redRegistration(
    {"red",
     "ns3::RedEcnQueueDisc",
     {{"Kmin", "--kmin"}, {"Kmax", "--kmax"}, {"Pmax", "--pmax"}},
     "Kmin",
     "Kmax",
     {"ecn"},
     "RED-ECN: marks CE with a probability rising from Kmin to Kmax (DCQCN's switch)"});
} // namespace

TypeId
RedEcnQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RedEcnQueueDisc")
              .SetParent<RdmaEgressQueueDisc>()
              .SetGroupName("Dcon")
              .AddConstructor<RedEcnQueueDisc>()
              .AddAttribute("Kmin",
                            "Queue length where marking starts",
                            QueueSizeValue(QueueSize("5KB")),
                            MakeQueueSizeAccessor(&RedEcnQueueDisc::m_kMin),
                            MakeQueueSizeChecker())
              .AddAttribute("Kmax",
                            "Queue length from which every packet is marked",
                            QueueSizeValue(QueueSize("200KB")),
                            MakeQueueSizeAccessor(&RedEcnQueueDisc::m_kMax),
                            MakeQueueSizeChecker())
              .AddAttribute("Pmax",
                            "Marking probability just below Kmax",
                            DoubleValue(0.01),
                            MakeDoubleAccessor(&RedEcnQueueDisc::m_pMax),
                            MakeDoubleChecker<double>())
              .AddAttribute("MarkOnDequeue",
                            "Decide marking when the packet leaves (true, as the HPCC simulator) "
                            "or when it arrives (false, as the DCQCN paper)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RedEcnQueueDisc::m_markOnDequeue),
                            MakeBooleanChecker());
    return tid;
}

RedEcnQueueDisc::RedEcnQueueDisc()
{
    NS_LOG_FUNCTION(this);
    m_uv = CreateObject<UniformRandomVariable>();
}

RedEcnQueueDisc::~RedEcnQueueDisc() {}

int64_t
RedEcnQueueDisc::AssignStreams(int64_t stream)
{
    m_uv->SetStream(stream);
    return 1;
}

bool
RedEcnQueueDisc::CheckConfig()
{
    std::ostringstream err;
    if (m_kMin.GetUnit() != QueueSizeUnit::BYTES || m_kMax.GetUnit() != QueueSizeUnit::BYTES)
    {
        err << "RedEcnQueueDisc: Kmin and Kmax must be in bytes, got Kmin=" << m_kMin
            << " Kmax=" << m_kMax;
    }
    else if (m_kMax.GetValue() < m_kMin.GetValue())
    {
        err << "RedEcnQueueDisc: Kmax (" << m_kMax << ") must not be below Kmin (" << m_kMin << ")";
    }
    else if (m_pMax < 0.0 || m_pMax > 1.0)
    {
        err << "RedEcnQueueDisc: Pmax must be in [0, 1], got " << m_pMax;
    }
    if (!err.str().empty())
    {
        throw std::invalid_argument(err.str());
    }
    return RdmaEgressQueueDisc::CheckConfig();
}

double
RedEcnQueueDisc::MarkProbability(uint32_t queueBytes) const
{
    uint32_t kMin = m_kMin.GetValue();
    uint32_t kMax = m_kMax.GetValue();
    if (queueBytes < kMin)
    {
        return 0.0;
    }
    if (queueBytes >= kMax)
    {
        return 1.0;
    }
    return m_pMax * static_cast<double>(queueBytes - kMin) / static_cast<double>(kMax - kMin);
}

void
RedEcnQueueDisc::MaybeMark(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (queueBytes < m_kMin.GetValue())
    {
        return;
    }
    if (queueBytes >= m_kMax.GetValue())
    {
        Mark(item, FORCED_MARK);
    }
    else if (m_uv->GetValue() < MarkProbability(queueBytes))
    {
        Mark(item, PROB_MARK);
    }
}

void
RedEcnQueueDisc::OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (!m_markOnDequeue)
    {
        MaybeMark(item, queueBytes);
    }
}

void
RedEcnQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (m_markOnDequeue)
    {
        MaybeMark(item, queueBytes);
    }
}

} // namespace ns3
