/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_EGRESS_QUEUE_DISC_H
#define RDMA_EGRESS_QUEUE_DISC_H

#include "ns3/data-rate.h"
#include "ns3/queue-disc.h"
#include "rdma-fifo-queue.h"
#include "rdma-queue-disc-item.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaEgressQueueDisc;

/**
 * \ingroup dcon-switch
 * \brief What an egress queue may ask its switch about the ingress side of a packet (DCON's
 * dynamic Q_CNM, paper Section 4.4). RdmaSwitch implements it.
 */
class RdmaIngressInfo
{
public:
    virtual ~RdmaIngressInfo() = default;

    /**
     * \brief M: the number of egress ports that hold packets of one ingress port and priority
     * now (the packet being enqueued included).
     * \param inPort the ingress port
     * \param priority the priority
     * \return M >= 1 while a packet of (inPort, priority) is being enqueued
     */
    virtual uint32_t GetIngressFanOut(uint32_t inPort, uint8_t priority) const = 0;

    /**
     * \brief The PFC pause threshold of an ingress port and priority now (static XOff, or the
     * dynamic threshold of the shared buffer); 0 if PFC is off.
     * \param inPort the ingress port
     * \param priority the priority
     * \return bytes
     */
    virtual uint64_t GetIngressPauseThreshold(uint32_t inPort, uint8_t priority) const = 0;

    /**
     * \brief M counting only congested queues: 1 (the asking queue) plus the number of other
     * egress queues of \p priority that hold packets of (\p inPort, \p priority) and hold at
     * least \p minQueueBytes now.
     * \param inPort the ingress port
     * \param priority the priority
     * \param minQueueBytes the queue length from which a queue counts (e.g. its Q_ECN)
     * \param self the asking queue (counted as 1 whatever its length)
     * \return M >= 1
     */
    virtual uint32_t GetIngressFanOutAbove(uint32_t inPort,
                                           uint8_t priority,
                                           uint64_t minQueueBytes,
                                           const RdmaEgressQueueDisc* self) const = 0;

    /**
     * \brief The design fan-out of an ingress port: how many egress ports its packets can be
     * forwarded to under the routing tables (the worst case M of Section 4.4), as configured
     * (RdmaFabric computes it from the routes); 0 if not configured.
     * \param inPort the ingress port
     * \return M, or 0
     */
    virtual uint32_t GetIngressDesignFanOut(uint32_t inPort) const = 0;
};

/**
 * \ingroup dcon-switch
 * \brief Base class of the switch egress queue disciplines (one per port and priority).
 *
 * A FIFO of RdmaQueueDiscItem with no size limit of its own: admission is the switch MMU's
 * job (shared buffer, PFC), so this queue never drops. Subclasses decide ECN marking (and
 * report whatever else they detect through trace sources of their own, e.g. DCON's congested
 * flows) by overriding OnEnqueue / OnDequeue, which see the queue
 * length in bytes excluding the packet itself (the bytes ahead of it on enqueue, the bytes
 * behind it on dequeue). The port's PFC state is passed in by the switch through
 * NotifyPaused / NotifyResumed so that schemes like PCN's NP-ECN can use it without reaching
 * into the device.
 */
class RdmaEgressQueueDisc : public QueueDisc
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaEgressQueueDisc();
    ~RdmaEgressQueueDisc() override;

    /**
     * \brief The egress port of this queue was paused by the downstream PFC.
     */
    virtual void NotifyPaused();

    /// A named counter of a queue discipline (name in snake_case, value since the start).
    typedef std::pair<std::string, uint64_t> Counter;

    /**
     * \brief The queue discipline's own counters by name (e.g. DCON's congested-flow reports),
     * for monitors that add them up over a fabric without knowing the class
     * (FabricMonitor::SumQueueCounters). Default: none.
     * \return the counters, in a fixed order
     */
    virtual std::vector<Counter> GetCounters();

    /**
     * \brief The egress port of this queue was resumed (RESUME or pause expiry).
     */
    virtual void NotifyResumed();

    /**
     * \brief Tell the queue the capacity of the link it feeds (used by DCON's C/N).
     * \param rate the link's rate
     */
    void SetLinkRate(DataRate rate);

    /**
     * \brief The capacity of the link this queue feeds.
     * \return the rate
     */
    DataRate GetLinkRate() const;

    /**
     * \brief Give the queue its switch's view of the ingress side (set by RdmaSwitch; must
     * outlive the queue's use).
     * \param info the switch, or nullptr
     */
    void SetIngressInfo(const RdmaIngressInfo* info);

    /**
     * \brief Whether this queue asks its switch for the live ingress fan-out
     * (RdmaIngressInfo::GetIngressFanOut, GetIngressFanOutAbove): the switch then accounts
     * the bytes of every ingress port per egress queue on each packet (RdmaSwitch::
     * EnableIngressAccounting). Default: false (DCON's queue: true).
     * \return true if it does
     */
    virtual bool UsesIngressFanOut() const;

    /**
     * \brief Check the queue's thresholds against its switch's largest PFC pause threshold
     * (called by RdmaSwitch::Finalize). The default accepts anything.
     * \throws std::invalid_argument naming the values if a threshold can never be reached
     * before PFC pauses the ingress.
     * \param pfcThreshold the pause threshold with an empty buffer (0 = PFC off: no check)
     */
    virtual void CheckPfcThreshold(uint64_t pfcThreshold) const;

    /**
     * \brief Call \p fn for every packet in the queue, head first (a measurement's look at
     * what waits here, e.g. when the port is paused; O(queue length)).
     * \param fn the function
     */
    void ForEachItem(const std::function<void(const RdmaQueueDiscItem&)>& fn) const;

protected:
    /**
     * \brief A packet is about to join the queue.
     * \param item the packet
     * \param queueBytes bytes already in the queue
     */
    virtual void OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes);

    /**
     * \brief A packet has left the queue.
     * \param item the packet
     * \param queueBytes bytes still in the queue
     */
    virtual void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes);

    bool CheckConfig() override;
    void InitializeParams() override;

    /**
     * \brief The switch's view of the ingress side.
     * \return it, or nullptr if the queue is used without a switch
     */
    const RdmaIngressInfo* GetIngressInfo() const;

public:
    /**
     * \brief Whether the queue holds a packet: GetNPackets() > 0, read from the internal
     * RdmaFifoQueue inline (the switch asks twice per packet it sends). The same as long as
     * no packet was requeued or peeked at (QueueDisc::Requeue, Peek), which the switch never
     * does; with another kind of internal queue it asks GetNPackets().
     * \return true if a packet is queued
     */
    bool
    HasPackets() const
    {
        return m_rdmaFifo ? m_rdmaFifo->GetNItems() > 0 : GetNPackets() > 0;
    }

private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) final;
    Ptr<QueueDiscItem> DoDequeue() final;

    DataRate m_linkRate;
    const RdmaIngressInfo* m_ingressInfo{nullptr}; //!< the switch (not owned)
    InternalQueue* m_fifo{nullptr};                //!< internal queue 0 (set by CheckConfig)
    RdmaFifoQueue* m_rdmaFifo{nullptr};            //!< the same if it is an RdmaFifoQueue
};

} // namespace ns3

#endif /* RDMA_EGRESS_QUEUE_DISC_H */
