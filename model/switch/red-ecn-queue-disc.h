/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RED_ECN_QUEUE_DISC_H
#define RED_ECN_QUEUE_DISC_H

#include "ns3/random-variable-stream.h"
#include "rdma-egress-queue-disc.h"

namespace ns3
{

/**
 * \ingroup dcon-switch
 * \brief Egress queue with DCQCN's RED-style ECN marking on the instantaneous queue length.
 *
 * With q the queue length in bytes (excluding the packet): no mark below Kmin; mark with
 * probability Pmax (q - Kmin) / (Kmax - Kmin) for Kmin <= q < Kmax; always from Kmax on.
 * Kmin = Kmax gives step marking at one threshold (the DCON paper's "ECN threshold").
 * Marking happens on enqueue (DCQCN paper) or on dequeue (the HPCC simulator), see MarkOnDequeue.
 * Marks are counted per reason in QueueDisc::Stats.
 */
class RedEcnQueueDisc : public RdmaEgressQueueDisc
{
public:
    /// Mark reason: Kmin <= q < Kmax and the coin said so.
    static constexpr const char* PROB_MARK = "Probabilistic mark";
    /// Mark reason: q >= Kmax.
    static constexpr const char* FORCED_MARK = "Forced mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RedEcnQueueDisc();
    ~RedEcnQueueDisc() override;

    /**
     * \brief Marking probability for a queue length.
     * \param queueBytes bytes in the queue
     * \return probability in [0, 1]
     */
    double MarkProbability(uint32_t queueBytes) const;

    /**
     * \brief Assign a fixed random variable stream number.
     * \param stream first stream index
     * \return number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

protected:
    void OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    bool CheckConfig() override;

private:
    /**
     * \brief Mark \p item if the RED rule says so.
     * \param item the packet
     * \param queueBytes queue length
     */
    void MaybeMark(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes);

    QueueSize m_kMin;
    QueueSize m_kMax;
    double m_pMax;
    bool m_markOnDequeue;
    Ptr<UniformRandomVariable> m_uv;
};

} // namespace ns3

#endif /* RED_ECN_QUEUE_DISC_H */
