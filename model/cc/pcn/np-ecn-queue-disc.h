/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef NP_ECN_QUEUE_DISC_H
#define NP_ECN_QUEUE_DISC_H

#include "ns3/queue-size.h"
#include "ns3/rdma-egress-queue-disc.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-cc-pcn
 * \brief PCN's Non-Pause ECN egress queue (Cheng et al., NSDI 2020, Section 5.1).
 *
 * When the port is resumed after a PFC pause (NotifyResumed), the queue records
 * PN = the number of packets waiting in it at that moment. The next PN packets that leave are
 * never marked: they waited because of PFC, not because this port is congested. Every other
 * packet is ECN-marked (CE) when it leaves and the queue it leaves behind is longer than the
 * marking threshold K (default 0).
 *
 * "Non-empty" is read *after* the departing packet is removed: a packet is marked if at least
 * one packet (more than K bytes, or K packets, depending on K's unit) waits behind it. With
 * the other reading (the queue including the departing packet) every departure would be
 * marked, even a lone flow's packets crossing an idle port, and NP-ECN could not tell
 * "uncongested" (no marks) from "truly congested" (all marks).
 *
 * A new RESUME while PN packets are still pending sets PN to the packets waiting at that new
 * moment (which include the pending ones). Marks are counted per reason in QueueDisc::Stats
 * under NP_ECN_MARK.
 */
class NpEcnQueueDisc : public RdmaEgressQueueDisc
{
public:
    /// Mark reason: the packet left a queue longer than K and was not held by PFC.
    static constexpr const char* NP_ECN_MARK = "NP-ECN mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    NpEcnQueueDisc();
    ~NpEcnQueueDisc() override;

    void NotifyPaused() override;
    void NotifyResumed() override;

    /**
     * \brief Whether the port is paused now (between NotifyPaused and NotifyResumed).
     * \return true if paused
     */
    bool IsPaused() const;

    /**
     * \brief PN: packets that will still leave unmarked because they were held by PFC.
     * \return the remaining count
     */
    uint32_t GetPendingUnmarked() const;

    /**
     * \brief Packets that left unmarked because they were counted in PN (all of them, whether
     * or not the threshold rule would have marked them).
     * \return the count
     */
    uint64_t GetPausedUnmarked() const;

    /**
     * \brief Of GetPausedUnmarked(), those that the threshold rule would have marked.
     * \return the count
     */
    uint64_t GetSuppressedMarks() const;

    /**
     * \brief Number of NotifyResumed calls seen.
     * \return the count
     */
    uint64_t GetResumes() const;

protected:
    void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;

private:
    /**
     * \brief Whether a queue of \p queueBytes bytes (after the departure) exceeds K.
     * \param queueBytes bytes behind the departing packet
     * \return true if above K
     */
    bool AboveThreshold(uint32_t queueBytes) const;

    QueueSize m_k;                 //!< marking threshold K
    bool m_paused{false};          //!< port paused now
    uint32_t m_pn{0};              //!< PN, remaining packets to leave unmarked
    uint64_t m_pausedUnmarked{0};  //!< departures exempted by PN
    uint64_t m_suppressedMarks{0}; //!< exempted departures that were above K
    uint64_t m_resumes{0};         //!< resumes seen
};

} // namespace ns3

#endif /* NP_ECN_QUEUE_DISC_H */
