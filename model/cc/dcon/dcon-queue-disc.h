/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_QUEUE_DISC_H
#define DCON_QUEUE_DISC_H

#include "ns3/nstime.h"
#include "ns3/rdma-egress-queue-disc.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <array>
#include <deque>
#include <unordered_map>
#include <utility>

namespace ns3
{

/**
 * \ingroup dcon-cc-dcon
 * \brief DCON's three-state egress queue (Hu et al. 2023, Sections 4.1, 4.2 and 4.4).
 *
 * With q the instantaneous queue length in bytes:
 * - q < Q_ECN: not congested; ECN marking is (re-)enabled;
 * - Q_ECN <= q < Q_CNM: persistent congestion; arriving packets are ECN-marked (CE), unless
 *   marking is disabled by the latch;
 * - q >= Q_CNM: burst congestion; ECN marking is disabled (latched until q falls below Q_ECN
 *   again, so the end-to-end CNP reaction does not fight the direct CNM one), and every flow
 *   with a packet arriving while q >= Q_CNM is a congested flow: the queue reports it, with N,
 *   through its CongestedFlow trace source, to which the switch's DconCnmGenerator listens
 *   (it decides, from the ingress port's T_last, whether to send a CNM). Between Q_ECN and Q_CNM
 * with the latch on, the state is PERSISTENT but no packet is marked and no flow is reported.
 *
 * Marking uses q excluding the arriving packet (the bytes ahead of it, as RedEcnQueueDisc on
 * enqueue); the burst test uses q including it (the queue has reached Q_CNM once the packet is
 * in).
 *
 * \par Q_CNM (QcnmMode)
 * Fixed: the QCnm attribute. Dynamic (default, the paper's "dynamic" threshold of Fig. 11):
 * for each arriving packet, the upper end of the paper's conservative range (Section 4.4),
 * Q_CNM = max(Q_ECN, Q_PFC / M - 3 d C (M - 1)), with Q_PFC the current PFC pause threshold of
 * the packet's ingress port, M the number of egress ports that hold packets of that ingress
 * port and priority now, this one included (the live fan-out; FanOut > 0 fixes M instead),
 * d = HopDelay and C the capacity of this queue's link. The switch supplies Q_PFC and M
 * (RdmaIngressInfo). The state between arrivals uses the Q_CNM of the last arrival.
 *
 * \par M (FanOutMode, FanOut)
 * FanOut > 0 fixes M for every ingress port. With FanOut = 0, FanOutMode decides:
 * - Live (default): the egress queues that hold packets of the packet's ingress port and
 *   priority now, this one included;
 * - LiveAboveQecn: the same, counting only the other queues that hold at least Q_ECN (queues
 *   with a transit packet or two do not lower Q_CNM);
 * - Design: the ingress port's design fan-out, the egress ports its packets can be forwarded to
 *   under the routing tables (the paper's worst case; RdmaFabric configures it per switch port,
 *   e.g. 2 for the testbed's P1/L2, 24 for a leaf's spine port in the 240-host fabric).
 *
 * \par Time in each state
 * The queue accumulates the simulated time it spends below Q_ECN, in the persistent band with
 * marking on, in the band with marking latched off, and in burst congestion
 * (GetTimeInStates), and counts the arrivals that found the band with marking latched off
 * (GetLatchedArrivals: the marks the latch suppressed).
 *
 * \par N (FlowCount)
 * Window (default): the flows "passing through the egress port" (the paper's words): every
 * flow with a packet in the queue now or with a packet that arrived less than FlowWindow ago.
 * Queued: only the flows with a packet in the queue now (paused or idle flows are missed, so
 * the C/N rates of the notified flows can add up to more than C). Both count the arriving
 * packet's flow.
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

    /// Where Q_CNM comes from.
    enum QcnmMode
    {
        FIXED = 0,  //!< the QCnm attribute
        DYNAMIC = 1 //!< Section 4.4's bound per arriving packet
    };

    /// What N counts.
    enum FlowCountMode
    {
        QUEUED = 0, //!< flows with a packet in the queue
        WINDOW = 1  //!< flows queued or seen within FlowWindow
    };

    /// How M is obtained when FanOut is 0.
    enum FanOutMode
    {
        LIVE = 0,            //!< egress queues holding packets of the ingress port now
        LIVE_ABOVE_QECN = 1, //!< the same, counting only queues at or above Q_ECN
        DESIGN = 2           //!< the ingress port's configured design fan-out
    };

    /// What GetTimeInStates reports (indices).
    enum Phase
    {
        PHASE_BELOW_QECN = 0, //!< q < Q_ECN
        PHASE_MARKING = 1,    //!< Q_ECN <= q < Q_CNM, marking on
        PHASE_LATCHED = 2,    //!< Q_ECN <= q < Q_CNM, marking latched off
        PHASE_BURST = 3,      //!< q >= Q_CNM
        NUM_PHASES = 4        //!< number of phases
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

    /**
     * \brief Whether the queue is in burst congestion now (DconCnmGenerator: arrivals at a
     * queue in burst congestion do not stamp T_last).
     * \return true in burst congestion
     */
    bool IsBurstCongested() const;

    /**
     * \brief Reject Q_ECN or a fixed Q_CNM above the switch's PFC pause threshold.
     * \param pfcThreshold the pause threshold with an empty buffer (0 = PFC off: no check)
     */
    void CheckPfcThreshold(uint64_t pfcThreshold) const override;

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
     * \brief The flows N counts now (FlowCount): with a packet queued, or (Window) seen less
     * than FlowWindow ago.
     * \return the count
     */
    uint32_t GetNumFlows() const;

    /**
     * \brief The Q_CNM of the last arrival (the fixed one before any arrival).
     * \return bytes
     */
    uint32_t GetQcnmInUse() const;

    /**
     * \brief Number of times the queue entered burst congestion.
     * \return burst onsets
     */
    uint64_t GetBurstOnsets() const;

    /**
     * \brief DCON's counters by name: "arrivals" (packets enqueued), "burst_onsets",
     * "cnm_triggers", "arrivals_at_qecn_floor", "unmarked_above_qecn", "latched_arrivals".
     * \return the counters
     */
    std::vector<Counter> GetCounters() override;

    /**
     * \brief The live fan-out M of the dynamic Q_CNM needs its switch's ingress accounting.
     * \return true
     */
    bool UsesIngressFanOut() const override;

    /**
     * \brief Number of congested-flow reports made (CNM triggers, before the switch's
     * ingress and rate-limit checks).
     * \return reports
     */
    uint64_t GetCnmTriggers() const;

    /**
     * \brief Number of arrivals whose Q_CNM was Q_ECN itself: the dynamic bound of Section 4.4
     * at its floor (Q_PFC / M - 3 d C (M - 1) <= Q_ECN, e.g. every M >= 3 with the paper's
     * thresholds), or a fixed Q_CNM equal to Q_ECN. Such an arrival finds no persistent band:
     * from Q_ECN up the queue is in burst congestion. (All arrivals: GetStats()
     * .nTotalEnqueuedPackets; the FIFO is unbounded, the MMU admits.)
     * \return arrivals
     */
    uint64_t GetArrivalsAtQecnFloor() const;

    /**
     * \brief Number of arrivals that found the queue at Q_ECN or above and were not
     * ECN-marked (burst congestion, or marking latched off after it).
     * \return arrivals
     */
    uint64_t GetUnmarkedAboveQecn() const;

    /**
     * \brief Arrivals that found Q_ECN <= q < Q_CNM with marking latched off (would have been
     * marked without the latch).
     * \return arrivals
     */
    uint64_t GetLatchedArrivals() const;

    /**
     * \brief Simulated time spent in each phase (indexed by Phase) up to now.
     * \return the four times
     */
    std::array<Time, NUM_PHASES> GetTimeInStates() const;

    /**
     * \brief The upper end of the paper's conservative Q_CNM range (Section 4.4):
     * max(Q_ECN, Q_PFC / M - 3 d C (M - 1)). This is the "dynamic" Q_CNM.
     * \param qEcn Q_ECN
     * \param qPfc the PFC pause threshold of an ingress port
     * \param m M, egress ports one ingress port may feed (>= 1)
     * \param d per-hop delay
     * \param c link capacity
     * \return Q_CNM in bytes
     */
    static QueueSize ComputeDynamicQcnm(
        QueueSize qEcn, QueueSize qPfc, uint32_t m, Time d, DataRate c);

    /**
     * \brief ComputeDynamicQcnm in bytes, without unit checks (the per-packet path).
     * \param qEcn Q_ECN in bytes
     * \param qPfc Q_PFC in bytes
     * \param m M (>= 1)
     * \param d per-hop delay
     * \param c link capacity
     * \return Q_CNM in bytes
     */
    static uint32_t DynamicQcnmBytes(uint64_t qEcn, uint64_t qPfc, uint32_t m, Time d, DataRate c);

    /// Signature of the CongestedFlow trace: the packet (an RdmaQueueDiscItem), N. The switch's
    /// DconCnmGenerator listens to it.
    typedef void (*CongestedFlowTracedCallback)(Ptr<const QueueDiscItem> item, uint32_t n);

    /// Signature of the State trace (a TracedValue<State>): the old and the new state.
    typedef void (*StateTracedCallback)(State oldValue, State newValue);

    /// Signature of the BurstOnset trace: the queue's bytes when burst congestion began.
    typedef void (*BurstOnsetTracedCallback)(uint32_t queueBytes);

protected:
    void OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    void OnDequeue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override;
    bool CheckConfig() override;

private:
    /// Per-flow bookkeeping for N.
    struct FlowEntry
    {
        uint32_t queued{0}; //!< packets of the flow in the queue
        Time lastSeen;      //!< arrival of its last packet (Window mode)
    };

    /**
     * \brief Recompute the state after a change of the queue length.
     * \param queueBytes the queue length
     */
    void UpdateState(uint32_t queueBytes);

    /**
     * \brief M for an arriving packet (FanOut, FanOutMode).
     * \param info the switch
     * \param item the packet
     * \return M >= 1
     */
    uint32_t FanOutFor(const RdmaIngressInfo& info, const RdmaQueueDiscItem& item) const;

    /**
     * \brief The Q_CNM for an arriving packet.
     * \param item the packet
     * \return bytes
     */
    uint32_t QcnmFor(const RdmaQueueDiscItem& item) const;

    /**
     * \brief Window mode: forget the flows last seen FlowWindow or more before \p now that
     * have nothing queued.
     * \param now the current time
     */
    void ExpireFlows(Time now);

    QueueSize m_qEcn;
    QueueSize m_qCnm;
    QcnmMode m_qcnmMode{DYNAMIC};
    uint32_t m_fanOut{0}; //!< fixed M of the dynamic Q_CNM (0 = FanOutMode)
    FanOutMode m_fanOutMode{LIVE};
    Time m_hopDelay; //!< d of the dynamic Q_CNM
    bool m_markingDisabled{false};
    bool m_markInBurst{false}; //!< keep marking in burst congestion (no latch)
    FlowCountMode m_flowCount{WINDOW};
    Time m_flowWindow;
    TracedValue<State> m_state{NOT_CONGESTED};
    TracedValue<uint32_t> m_qcnmInUse{0}; //!< Q_CNM of the last arrival
    std::unordered_map<RdmaFiveTuple, FlowEntry, RdmaFiveTupleHash> m_flows;
    std::deque<std::pair<Time, RdmaFiveTuple>> m_arrivals; //!< Window mode, oldest first
    uint64_t m_burstOnsets{0};
    uint64_t m_cnmTriggers{0};
    uint64_t m_arrivalsAtQecnFloor{0};          //!< GetArrivalsAtQecnFloor
    uint64_t m_unmarkedAboveQecn{0};            //!< GetUnmarkedAboveQecn
    uint64_t m_latchedArrivals{0};              //!< GetLatchedArrivals
    Phase m_phase{PHASE_BELOW_QECN};            //!< the phase now
    Time m_phaseSince;                          //!< when it began
    std::array<Time, NUM_PHASES> m_phaseTime{}; //!< time in each phase before m_phaseSince
    TracedCallback<uint32_t> m_burstOnsetTrace; //!< queue bytes
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_congestedFlowTrace; //!< item, N
};

} // namespace ns3

#endif /* DCON_QUEUE_DISC_H */
