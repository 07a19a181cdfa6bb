/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_QUEUE_DISC_H
#define DCON_QUEUE_DISC_H

#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"
#include "rdma-egress-queue-disc.h"

#include <unordered_map>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief DCON's three-state egress queue (Hu et al. 2023, Section 3.2; dcon.md 2.1).
 *
 * With q the instantaneous queue length in bytes:
 * - q < Q_ECN: not congested; ECN marking is (re-)enabled;
 * - Q_ECN <= q < Q_CNM: persistent congestion; arriving packets are ECN-marked (CE), unless
 *   marking is disabled by the latch;
 * - q >= Q_CNM: burst congestion; ECN marking is disabled (latched until q falls below Q_ECN
 *   again, so the end-to-end CNP reaction does not fight the direct CNM one), and every flow
 *   with a packet arriving while q >= Q_CNM is a congested flow: the queue reports it, with N,
 *   to the switch's CNM generator (which decides, from the ingress port's T_last, whether to
 *   send a CNM). Between Q_ECN and Q_CNM with the latch on, the state is PERSISTENT but no
 *   packet is marked and no flow is reported.
 *
 * Marking uses q excluding the arriving packet (the bytes ahead of it, as RedEcnQueueDisc on
 * enqueue); the burst test uses q including it (the queue has reached Q_CNM once the packet is
 * in). N is the number of distinct flows (5-tuples) with at least one packet in this queue,
 * the arriving packet included.
 */
class DconQueueDisc : public RdmaEgressQueueDisc
{
public:
    /// Congestion state of the queue.
    enum State
    {
        NOT_CONGESTED = 0, //!< q < Q_ECN
        PERSISTENT = 1,    //!< Q_ECN <= q < Q_CNM (marking on, or latched off after a burst)
        BURST = 2          //!< q >= Q_CNM
    };

    /// Mark reason: persistent congestion.
    static constexpr const char* PERSISTENT_MARK = "Persistent-congestion mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DconQueueDisc();
    ~DconQueueDisc() override;

    bool IsBurstCongested() const override;

    /**
     * \brief The current state.
     * \return the state
     */
    State GetState() const;

    /**
     * \brief Whether ECN marking is latched off (entered burst, not yet below Q_ECN).
     * \return true if latched off
     */
    bool IsMarkingDisabled() const;

    /**
     * \brief N: distinct flows with packets in the queue.
     * \return the count
     */
    uint32_t GetNumFlows() const;

    /**
     * \brief Number of times the queue entered burst congestion.
     * \return burst onsets
     */
    uint64_t GetBurstOnsets() const;

    /**
     * \brief Number of congested-flow reports made (CNM triggers, before the switch's
     * ingress and rate-limit checks).
     * \return reports
     */
    uint64_t GetCnmTriggers() const;

    /**
     * \brief The upper end of the paper's conservative Q_CNM range (dcon.md 2.6, paper
     * Section 4.4): max(Q_ECN, Q_PFC / M - 3 d C (M - 1)). This is the "dynamic" Q_CNM.
     * \param qEcn Q_ECN
     * \param qPfc the PFC pause threshold of an ingress port
     * \param m M, egress ports one ingress port may feed (>= 1)
     * \param d per-hop delay
     * \param c link capacity
     * \return Q_CNM in bytes
     */
    static QueueSize ComputeDynamicQcnm(
        QueueSize qEcn, QueueSize qPfc, uint32_t m, Time d, DataRate c);

protected:
    void OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    bool CheckConfig() override;

private:
    /**
     * \brief Recompute the state after a change of the queue length.
     * \param queueBytes the queue length
     */
    void UpdateState(uint32_t queueBytes);

    QueueSize m_qEcn;
    QueueSize m_qCnm;
    bool m_markingDisabled{false};
    bool m_markInBurst{false}; //!< keep marking in burst congestion (no latch)
    TracedValue<State> m_state{NOT_CONGESTED};
    std::unordered_map<RdmaFiveTuple, uint32_t, RdmaFiveTupleHash> m_flows; //!< packets per flow
    uint64_t m_burstOnsets{0};
    uint64_t m_cnmTriggers{0};
    TracedCallback<uint32_t> m_burstOnsetTrace;                              //!< queue bytes
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_congestedFlowTrace; //!< item, N
};

} // namespace ns3

#endif /* DCON_QUEUE_DISC_H */
