/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef IB_FECN_QUEUE_DISC_H
#define IB_FECN_QUEUE_DISC_H

#include "ns3/queue-size.h"
#include "ns3/rdma-egress-queue-disc.h"

namespace ns3
{

/**
 * \ingroup dcon-cc-ibcc
 * \brief Egress queue of an InfiniBand-style switch port: marks FECN when the queue is above
 * a threshold given on IB's 0..15 scale (IBA Annex A10, switch congestion setting), for
 * RdmaIbcc.
 *
 * Threshold 0 marks nothing; 1..15 mark when the bytes ahead of the packet (or behind it, with
 * MarkOnDequeue) are at least (16 - Threshold) x ThresholdStep: 15 is the most sensitive (one
 * step), 1 the least (15 steps). IBA leaves the byte value of each level to the switch; here it
 * is linear with the ThresholdStep attribute as its scale. Of the packets that find the queue
 * above the threshold, one is marked and then MarkingRate are let through unmarked (IBA's
 * Marking_Rate: the mean number of packets between marks; 0 = mark every one), counted, not
 * drawn at random. FECN travels as the IP ECN CE codepoint (RoCEv2 carries IB's FECN there;
 * the receiver NIC echoes it in the BTH BECN bit of its ACK).
 */
class IbFecnQueueDisc : public RdmaEgressQueueDisc
{
public:
    /// Mark reason: the queue was above the threshold.
    static constexpr const char* FECN_MARK = "FECN mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbFecnQueueDisc();
    ~IbFecnQueueDisc() override;

    /**
     * \brief The marking threshold in bytes: (16 - Threshold) x ThresholdStep, or 0 with
     * Threshold 0 (no marking).
     * \return bytes
     */
    uint64_t GetThresholdBytes() const;

    /**
     * \brief Packets marked so far.
     * \return the count
     */
    uint64_t GetMarks() const;

protected:
    void OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    bool CheckConfig() override;

private:
    /**
     * \brief Mark \p item if the queue is above the threshold and the marking rate allows.
     * \param item the packet
     * \param queueBytes queue length
     */
    void MaybeMark(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes);

    uint32_t m_threshold;    //!< 0..15
    QueueSize m_step;        //!< bytes per threshold level
    uint32_t m_markingRate;  //!< unmarked eligible packets between two marks
    bool m_markOnDequeue;    //!< decide when the packet leaves
    uint32_t m_sinceMark{0}; //!< eligible packets let through since the last mark
    bool m_marked{false};    //!< a packet was marked (the counter runs)
    uint64_t m_marks{0};     //!< packets marked
};

} // namespace ns3

#endif /* IB_FECN_QUEUE_DISC_H */
