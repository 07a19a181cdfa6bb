/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-egress-queue-disc.h"

#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "rdma-fifo-queue.h"
#include "rdma-queue-registry.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEgressQueueDisc");
NS_OBJECT_ENSURE_REGISTERED(RdmaEgressQueueDisc);

namespace
{
/// --queue=plain: one FIFO per priority that marks nothing (HPCC's queue: its INT records are
/// the switch's, not the queue's).
const RdmaQueueRegistry::Registration g_plainRegistration(
    {"plain",
     "ns3::RdmaEgressQueueDisc",
     {},
     "",
     "",
     {},
     "a FIFO per priority that marks nothing (HPCC's switch: INT comes from the switch)"});
} // namespace

TypeId
RdmaEgressQueueDisc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaEgressQueueDisc")
                            .SetParent<QueueDisc>()
                            .SetGroupName("Dcon")
                            .AddConstructor<RdmaEgressQueueDisc>();
    return tid;
}

RdmaEgressQueueDisc::RdmaEgressQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE)
{
    NS_LOG_FUNCTION(this);
}

RdmaEgressQueueDisc::~RdmaEgressQueueDisc() {}

bool
RdmaEgressQueueDisc::UsesIngressFanOut() const
{
    return false;
}

std::vector<RdmaEgressQueueDisc::Counter>
RdmaEgressQueueDisc::GetCounters()
{
    return {};
}

void
RdmaEgressQueueDisc::NotifyPaused()
{
}

void
RdmaEgressQueueDisc::NotifyResumed()
{
}

void
RdmaEgressQueueDisc::SetIngressInfo(const RdmaIngressInfo* info)
{
    NS_LOG_FUNCTION(this << info);
    m_ingressInfo = info;
}

const RdmaIngressInfo*
RdmaEgressQueueDisc::GetIngressInfo() const
{
    return m_ingressInfo;
}

void
RdmaEgressQueueDisc::CheckPfcThreshold(uint64_t /* pfcThreshold */) const
{
}

void
RdmaEgressQueueDisc::ForEachItem(const std::function<void(const RdmaQueueDiscItem&)>& fn) const
{
    const RdmaFifoQueue* fifo = dynamic_cast<const RdmaFifoQueue*>(m_fifo);
    if (!m_fifo)
    {
        return; // not initialized: no packet has been queued
    }
    if (!fifo)
    {
        throw std::logic_error(GetInstanceTypeId().GetName()
                               + "::ForEachItem: the internal queue is not an RdmaFifoQueue");
    }
    fifo->ForEach(
        [&fn](const QueueDiscItem& item)
        {
            fn(static_cast<const RdmaQueueDiscItem&>(item));
        });
}

void
RdmaEgressQueueDisc::SetLinkRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    m_linkRate = rate;
}

DataRate
RdmaEgressQueueDisc::GetLinkRate() const
{
    return m_linkRate;
}

void
RdmaEgressQueueDisc::OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
}

void
RdmaEgressQueueDisc::OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes)
{
}

bool
RdmaEgressQueueDisc::CheckConfig()
{
    if (GetNQueueDiscClasses() > 0)
    {
        throw std::invalid_argument(GetInstanceTypeId().GetName() + " takes no child queue discs");
    }
    if (GetNInternalQueues() == 0)
    {
        // The MMU limits what the switch holds; the FIFO itself is unbounded.
        AddInternalQueue(CreateObject<RdmaFifoQueue>());
    }
    m_fifo = PeekPointer(GetInternalQueue(0)); // owned by the queue disc; saves a Ptr per packet
    return true;
}

void
RdmaEgressQueueDisc::InitializeParams()
{
}

bool
RdmaEgressQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    Ptr<RdmaQueueDiscItem> rdma = StaticCast<RdmaQueueDiscItem>(item);
    OnEnqueue(rdma, GetNBytes());
    return m_fifo->Enqueue(item);
}

Ptr<QueueDiscItem>
RdmaEgressQueueDisc::DoDequeue()
{
    Ptr<QueueDiscItem> item = m_fifo->Dequeue();
    if (item)
    {
        OnDequeue(StaticCast<RdmaQueueDiscItem>(item), GetNBytes());
    }
    return item;
}

} // namespace ns3
