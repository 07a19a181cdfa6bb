/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fifo-queue.h"

#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/trace-callback-registry.h"

#include <cstdint>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaFifoQueue);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaFifoQueue::ItemTracedCallback);

TypeId
RdmaFifoQueue::GetTypeId()
{
    // Parent QueueBase, not Queue<QueueDiscItem>: see the class documentation.
    static TypeId tid
        = TypeId("ns3::RdmaFifoQueue")
              .SetParent<QueueBase>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaFifoQueue>()
              .AddAttribute("MaxSize",
                            "The max queue size (drop-tail beyond it); unbounded by default, "
                            "since a switch's MMU limits what it holds",
                            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX)),
                            MakeQueueSizeAccessor(&QueueBase::SetMaxSize, &QueueBase::GetMaxSize),
                            MakeQueueSizeChecker())
              .AddTraceSource("Enqueue",
                              "Enqueue a packet in the queue.",
                              MakeTraceSourceAccessor(&RdmaFifoQueue::m_traceEnqueue),
                              "ns3::RdmaFifoQueue::ItemTracedCallback")
              .AddTraceSource("Dequeue",
                              "Dequeue a packet from the queue.",
                              MakeTraceSourceAccessor(&RdmaFifoQueue::m_traceDequeue),
                              "ns3::RdmaFifoQueue::ItemTracedCallback")
              .AddTraceSource("Drop",
                              "Drop a packet (for whatever reason).",
                              MakeTraceSourceAccessor(&RdmaFifoQueue::m_traceDrop),
                              "ns3::RdmaFifoQueue::ItemTracedCallback")
              .AddTraceSource("DropBeforeEnqueue",
                              "Drop a packet before enqueue.",
                              MakeTraceSourceAccessor(&RdmaFifoQueue::m_traceDropBeforeEnqueue),
                              "ns3::RdmaFifoQueue::ItemTracedCallback")
              .AddTraceSource("DropAfterDequeue",
                              "Drop a packet after dequeue.",
                              MakeTraceSourceAccessor(&RdmaFifoQueue::m_traceDropAfterDequeue),
                              "ns3::RdmaFifoQueue::ItemTracedCallback");
    return tid;
}

// No NS_LOG here: inside a Queue<QueueDiscItem> subclass, NS_LOG's g_log names the base
// class's private logger.
RdmaFifoQueue::RdmaFifoQueue() = default;

RdmaFifoQueue::~RdmaFifoQueue() = default;

void
RdmaFifoQueue::DoDispose()
{
    m_items.clear();
    Queue<QueueDiscItem>::DoDispose();
}

bool
RdmaFifoQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    uint32_t size = item->GetSize();
    bool full = m_maxSize.GetUnit() == QueueSizeUnit::PACKETS
                    ? m_nPackets.Get() + 1 > m_maxSize.GetValue()
                    : m_nBytes.Get() + static_cast<uint64_t>(size) > m_maxSize.GetValue();
    if (full)
    {
        m_nTotalDroppedPackets++;
        m_nTotalDroppedPacketsBeforeEnqueue++;
        m_nTotalDroppedBytes += size;
        m_nTotalDroppedBytesBeforeEnqueue += size;
        m_traceDrop(item);
        m_traceDropBeforeEnqueue(item);
        return false;
    }
    m_items.push_back(item);
    m_nBytes += size;
    m_nTotalReceivedBytes += size;
    m_nPackets++;
    m_nTotalReceivedPackets++;
    m_traceEnqueue(item);
    return true;
}

Ptr<QueueDiscItem>
RdmaFifoQueue::Dequeue()
{
    if (m_items.empty())
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> item = std::move(m_items.front());
    m_items.pop_front();
    m_nBytes -= item->GetSize();
    m_nPackets--;
    m_traceDequeue(item);
    return item;
}

Ptr<QueueDiscItem>
RdmaFifoQueue::Remove()
{
    // as Queue<Item>: dequeued first (counted and traced), then dropped
    Ptr<QueueDiscItem> item = Dequeue();
    if (item)
    {
        uint32_t size = item->GetSize();
        m_nTotalDroppedPackets++;
        m_nTotalDroppedPacketsAfterDequeue++;
        m_nTotalDroppedBytes += size;
        m_nTotalDroppedBytesAfterDequeue += size;
        m_traceDrop(item);
        m_traceDropAfterDequeue(item);
    }
    return item;
}

void
RdmaFifoQueue::ForEach(const std::function<void(const QueueDiscItem&)>& fn) const
{
    for (const auto& item : m_items)
    {
        fn(*item);
    }
}

Ptr<const QueueDiscItem>
RdmaFifoQueue::Peek() const
{
    return m_items.empty() ? nullptr : m_items.front();
}

} // namespace ns3
