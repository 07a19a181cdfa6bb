/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "np-ecn-queue-disc.h"

#include "ns3/log.h"
#include "ns3/rdma-queue-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NpEcnQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(NpEcnQueueDisc);

namespace
{
/// --queue=npecn (no scenario option sets it).
const RdmaQueueRegistry::Registration g_npEcnRegistration(
    {"npecn",
     "ns3::NpEcnQueueDisc",
     {},
     "",
     "",
     {"ecn"},
     "NP-ECN (PCN): marks CE above a threshold, except the packets PFC held (PCN's switch)"});
} // namespace

TypeId
NpEcnQueueDisc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::NpEcnQueueDisc")
              .SetParent<RdmaEgressQueueDisc>()
              .SetGroupName("Dcon")
              .AddConstructor<NpEcnQueueDisc>()
              .AddAttribute("MarkingThreshold",
                            "K: a departing packet not held by PFC is ECN-marked if the queue it "
                            "leaves behind is longer than K (bytes or packets). PCN uses 0: mark "
                            "whenever at least one packet waits behind it.",
                            QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, 0)),
                            MakeQueueSizeAccessor(&NpEcnQueueDisc::m_k),
                            MakeQueueSizeChecker());
    return tid;
}

NpEcnQueueDisc::NpEcnQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

NpEcnQueueDisc::~NpEcnQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
NpEcnQueueDisc::NotifyPaused()
{
    NS_LOG_FUNCTION(this);
    m_paused = true;
}

void
NpEcnQueueDisc::NotifyResumed()
{
    NS_LOG_FUNCTION(this);
    m_paused = false;
    m_resumes++;
    // Everything waiting now was held by PFC: let it leave unmarked.
    m_pn = GetNPackets();
    NS_LOG_DEBUG("resume: PN = " << m_pn);
}

bool
NpEcnQueueDisc::IsPaused() const
{
    return m_paused;
}

uint32_t
NpEcnQueueDisc::GetPendingUnmarked() const
{
    return m_pn;
}

uint64_t
NpEcnQueueDisc::GetPausedUnmarked() const
{
    return m_pausedUnmarked;
}

uint64_t
NpEcnQueueDisc::GetSuppressedMarks() const
{
    return m_suppressedMarks;
}

uint64_t
NpEcnQueueDisc::GetResumes() const
{
    return m_resumes;
}

bool
NpEcnQueueDisc::AboveThreshold(uint32_t queueBytes) const
{
    if (m_k.GetUnit() == QueueSizeUnit::PACKETS)
    {
        // OnDequeue runs after the packet left the internal queue: GetNPackets() is what
        // waits behind it.
        return GetNPackets() > m_k.GetValue();
    }
    return queueBytes > m_k.GetValue();
}

void
NpEcnQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
    bool above = AboveThreshold(queueBytes);
    if (m_pn > 0)
    {
        m_pn--;
        m_pausedUnmarked++;
        if (above)
        {
            m_suppressedMarks++;
        }
        return;
    }
    if (above)
    {
        Mark(item, NP_ECN_MARK);
    }
}

} // namespace ns3
