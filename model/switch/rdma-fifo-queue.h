/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FIFO_QUEUE_H
#define RDMA_FIFO_QUEUE_H

#include "ns3/queue-item.h"
#include "ns3/queue.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <functional>

namespace ns3
{

/**
 * \ingroup dcon-switch
 * \brief A FIFO of queue-disc items: the internal queue of RdmaEgressQueueDisc.
 *
 * Behaves as ns3::DropTailQueue<QueueDiscItem> (drop-tail at MaxSize, which is unbounded by
 * default since a switch's MMU limits what it holds; the counters, statistics
 * and the Enqueue, Dequeue, Drop, DropBeforeEnqueue and DropAfterDequeue trace sources, through
 * which a QueueDisc keeps its own statistics), at a third of its cost per packet: items are kept
 * in a std::deque instead of a std::list (no node allocation per packet) and the MaxSize check
 * compares two integers instead of building QueueSize objects. Every data packet passes one of
 * these at every switch, so this was about a tenth of a fabric run.
 *
 * The C++ class derives from Queue<QueueDiscItem>, as QueueDisc::AddInternalQueue requires, but
 * keeps its items itself (the base's container stays empty), so it cannot fire the base's
 * trace sources (private to Queue<Item>) and ns-3 does not let a subclass register sources of
 * the same names. Its TypeId therefore names ns3::QueueBase as the parent and registers the
 * five trace sources itself, with the same names and signatures. Connecting to "Enqueue" etc.
 * by name or through Config works as with any ns-3 queue; only a TypeId query
 * IsChildOf(Queue<QueueDiscItem>) answers false.
 */
class RdmaFifoQueue : public Queue<QueueDiscItem>
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFifoQueue();
    ~RdmaFifoQueue() override;

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * \brief Call \p fn for every item, oldest first.
     * \param fn the function
     */
    void ForEach(const std::function<void(const QueueDiscItem&)>& fn) const;

    /**
     * \brief The items queued (QueueBase::GetNPackets, without a call into ns-3's library).
     * \return the count
     */
    std::size_t
    GetNItems() const
    {
        return m_items.size();
    }

    /**
     * \brief Signature of the Enqueue, Dequeue, Drop, DropBeforeEnqueue and DropAfterDequeue
     * traces (ns-3's queues name ns3::QueueDiscItem::TracedCallback, which is QueueItem's and
     * takes a Ptr<const QueueItem>).
     * \param item the queue-disc item
     */
    typedef void (*ItemTracedCallback)(Ptr<const QueueDiscItem> item);

protected:
    void DoDispose() override;

private:
    std::deque<Ptr<QueueDiscItem>> m_items; //!< the items, oldest first

    TracedCallback<Ptr<const QueueDiscItem>> m_traceEnqueue;           //!< an item was enqueued
    TracedCallback<Ptr<const QueueDiscItem>> m_traceDequeue;           //!< an item was dequeued
    TracedCallback<Ptr<const QueueDiscItem>> m_traceDrop;              //!< an item was dropped
    TracedCallback<Ptr<const QueueDiscItem>> m_traceDropBeforeEnqueue; //!< dropped: queue full
    TracedCallback<Ptr<const QueueDiscItem>> m_traceDropAfterDequeue;  //!< dropped: Remove()
};

} // namespace ns3

#endif // RDMA_FIFO_QUEUE_H
