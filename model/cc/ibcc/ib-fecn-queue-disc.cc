/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-fecn-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbFecnQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(IbFecnQueueDisc);

namespace
{
/// --queue=ibfecn (no scenario option sets it; IB CC's registration sets its threshold step).
const RdmaQueueRegistry::Registration g_ibFecnRegistration(
    {"ibfecn",
     "ns3::IbFecnQueueDisc",
     {},
     "",
     "",
     {"ecn"},
     "InfiniBand FECN: marks CE above a 0..15 threshold, every MarkingRate-th packet (IB CC's "
     "switch)"});
} // namespace

TypeId
IbFecnQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::IbFecnQueueDisc")
              .SetParent<RdmaEgressQueueDisc>()
              .SetGroupName("Dcon")
              .AddConstructor<IbFecnQueueDisc>()
              .AddAttribute("Threshold",
                            "IB congestion threshold 0..15: 0 = no marking, 15 = most sensitive "
                            "(IBA A10); marks from (16 - Threshold) x ThresholdStep bytes",
                            UintegerValue(15),
                            MakeUintegerAccessor(&IbFecnQueueDisc::m_threshold),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("ThresholdStep",
                            "Bytes per threshold level (IBA leaves the scale to the switch; "
                            "--cc=ibcc sets 1,000 B per Gb/s of the port)",
                            QueueSizeValue(QueueSize("10KB")),
                            MakeQueueSizeAccessor(&IbFecnQueueDisc::m_step),
                            MakeQueueSizeChecker())
              .AddAttribute("MarkingRate",
                            "IB Marking_Rate: packets above the threshold let through unmarked "
                            "between two marks (0 = mark every one; default 30, this project's "
                            "choice, see doc/cc/ibcc.rst)",
                            UintegerValue(30),
                            MakeUintegerAccessor(&IbFecnQueueDisc::m_markingRate),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("MarkOnDequeue",
                            "Decide marking when the packet leaves (true) or arrives (false)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&IbFecnQueueDisc::m_markOnDequeue),
                            MakeBooleanChecker());
    return tid;
}

IbFecnQueueDisc::IbFecnQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

IbFecnQueueDisc::~IbFecnQueueDisc() {}

bool
IbFecnQueueDisc::CheckConfig()
{
    std::ostringstream err;
    if (m_threshold > 15)
    {
        err << "IbFecnQueueDisc: ns3::IbFecnQueueDisc::Threshold must be in 0..15, got "
            << m_threshold;
    }
    else if (m_step.GetUnit() != QueueSizeUnit::BYTES || m_step.GetValue() == 0)
    {
        err << "IbFecnQueueDisc: ns3::IbFecnQueueDisc::ThresholdStep must be > 0 bytes, got "
            << m_step;
    }
    if (!err.str().empty())
    {
        throw std::invalid_argument(err.str());
    }
    return RdmaEgressQueueDisc::CheckConfig();
}

uint64_t
IbFecnQueueDisc::GetThresholdBytes() const
{
    if (m_threshold == 0 || m_threshold > 15)
    {
        return 0;
    }
    return static_cast<uint64_t>(16 - m_threshold) * m_step.GetValue();
}

uint64_t
IbFecnQueueDisc::GetMarks() const
{
    return m_marks;
}

void
IbFecnQueueDisc::MaybeMark(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (m_threshold == 0 || queueBytes < GetThresholdBytes())
    {
        return;
    }
    if (m_marked && m_sinceMark < m_markingRate)
    {
        m_sinceMark++;
        return;
    }
    m_marked = true;
    m_sinceMark = 0;
    m_marks++;
    Mark(item, FECN_MARK);
}

void
IbFecnQueueDisc::OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (!m_markOnDequeue)
    {
        MaybeMark(item, queueBytes);
    }
}

void
IbFecnQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    if (m_markOnDequeue)
    {
        MaybeMark(item, queueBytes);
    }
}

} // namespace ns3
