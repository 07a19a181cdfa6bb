/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCQCN_H
#define RDMA_DCQCN_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dcon-cc-dcqcn
 * \brief DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
 * SIGCOMM 2015) as a pluggable RDMA congestion control; one instance per queue pair.
 *
 * \par Notification point (receiver role)
 * On a data packet with ECN CE, send a CNP to the sender unless one was sent for this flow less
 * than CnpInterval ago (RdmaRxFlowState::m_lastCnp). CnpInterval = 0 sends a CNP for every CE
 * packet (what the HPCC simulator does: it sets the CNP bit on the per-packet ACK).
 *
 * \par Reaction point (sender role)
 * State: current rate RC = RdmaFlowState::m_rate, target rate RT = RdmaFlowState::m_targetRate
 * (both start at line rate), alpha (starts at InitialAlpha), stage counts t (increase timer) and
 * b (byte counter). Both rates are kept in [MinRate, line rate].
 *
 * Two variants, chosen by RateDecreaseInterval:
 *
 * - RateDecreaseInterval = 0, the paper. Every CNP immediately does
 *   RT = RC; RC = RC (1 - alpha/2); alpha = (1-g) alpha + g (the decrease uses the alpha from
 *   before the CNP, in the paper's order; Zhu's original ns-3 code updates alpha first); it
 *   restarts the alpha period (alpha = (1-g) alpha after every AlphaUpdateInterval K without a
 *   CNP), restarts the increase timer, clears the byte counter and sets t = b = 0.
 *
 * - RateDecreaseInterval > 0, the Mellanox ConnectX-4 style of the HPCC simulator
 *   (alibaba-edu/High-Precision-Congestion-Control, rdma-hw.cc, cnp_received_mlx,
 *   UpdateAlphaMlx, CheckRateDecreaseMlx). The first CNP of the flow starts two clocks
 *   (a K grid for alpha and a RateDecreaseInterval grid for decreases) and does not count as
 *   a "CNP in the period" for alpha. A later CNP only sets two flags. At the end of each alpha
 *   period alpha = (1-g) alpha + g if a CNP arrived in the period, else alpha = (1-g) alpha (so
 *   alpha moves per period, never per CNP). At each decrease tick, if a CNP arrived since the
 *   previous tick: RT = RC (see ClampTargetRate); RC = RC (1 - alpha/2) with the alpha of that
 *   instant (an alpha update due at the same instant is applied first, as the simulator's
 *   +1 ns offset does); t = b = 0; the increase timer restarts. At most one decrease per
 *   interval however many CNPs arrived.
 *
 * ClampTargetRate: true (paper) sets RT = RC at every decrease; false (HPCC simulator default,
 * used by the "cx4" preset) only when an increase event happened since the previous decrease
 * (t or b non-zero), so back-to-back decreases keep the older, higher target.
 *
 * \par Rate increase
 * Increase events come from a timer of period RateIncreaseInterval T (restarted at every
 * decrease) and from a byte counter (one event per ByteCounter B bytes handed to OnSent; B = 0
 * disables it). Each event is classified with the counts t, b of the events that came *before*
 * it since the last decrease, and then increments its own count, so there are exactly F =
 * FastRecoveryThreshold fast-recovery steps per counter (the paper's "F = 5 successive
 * iterations"; HPCC's RateIncEventMlx; Zhu's code increments first and makes F-1):
 * - fast recovery, max(t,b) < F: RC = (RT+RC)/2
 * - additive increase, max(t,b) >= F > min(t,b): RT += R_AI; RC = (RT+RC)/2
 * - hyper increase, min(t,b) >= F: RT += i R_HAI, i = min(t,b) - F + 1; RC = (RT+RC)/2
 *
 * With the byte counter disabled (B = 0) the timer alone drives the stages exactly as the HPCC
 * simulator does: t < F fast recovery, t == F additive increase, t > F hyper increase with a
 * constant step (i = 1). (Treating b as 0 would mean additive increase for ever; treating b as
 * t would skip the additive stage; neither is what the simulator does.)
 * (RT+RC)/2 is rounded to the nearest bit/s (halves up) so RC reaches RT exactly.
 *
 * \par Timers and cost
 * Nothing is scheduled before the first CNP: a flow at line rate that was never slowed needs no
 * timer. The increase timer runs from a decrease until RC = RT = line rate (afterwards an
 * increase event cannot change anything; the counts only matter after the next decrease, which
 * resets them) and the byte counter only counts in that time. Alpha needs no event at all: it
 * only changes by a known factor per period, so it is brought up to date lazily, from the
 * number of whole periods elapsed, whenever it is read (CNP, decrease tick, increase tick,
 * GetAlpha); the values are those of a periodic timer (up to rounding of pow()). In the CX4
 * mode the decrease tick is only scheduled when a CNP is pending, at the next point of the
 * decrease grid, which is equivalent to the simulator's endless 4 us check. Stop() and
 * DoDispose() cancel everything.
 *
 * \par Departures from other implementations
 * Not modelled: QCN's target-rate reduction when RT > 10 RC (Zhu's AdjustRates), halved timer
 * and byte-counter periods in hyper increase (Zhu's rpr_hyper_*), the HPCC simulator's
 * RateOnFirstCnp (its default 1.0 is what is modelled).
 */
class RdmaDcqcn : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaDcqcn();
    ~RdmaDcqcn() override;

    /**
     * \brief The algorithm's short name.
     * \return "dcqcn"
     */
    std::string GetName() const override;

    /**
     * \brief Start the sender role: RC = RT = line rate, alpha = InitialAlpha, no timer.
     * \throws std::invalid_argument naming the attribute if an attribute value is invalid.
     * \param flow the flow's state
     */
    void Init(Ptr<RdmaFlowState> flow) override;

    /**
     * \brief Count sent bytes for the byte counter (only while the flow is recovering).
     * \param flow the flow's state
     * \param bytes payload bytes of the packet
     */
    void OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes) override;

    /**
     * \brief React to a CNP (immediately, or at the next decrease tick in the CX4 mode).
     * \param flow the flow's state
     * \param cnp what the CNP says (a CNP with congested = false is ignored)
     */
    void OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp) override;

    /**
     * \brief Cancel every timer; later CNPs and sends are ignored.
     */
    void Stop() override;

    /**
     * \brief Receiver role: send a CNP for a CE packet unless one was sent less than
     * CnpInterval ago.
     * \param rx the receiver state
     * \param pkt what arrived
     */
    void OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt) override;

    /**
     * \brief The values of a named parameter set (the "dcqcn" and "dcon" registry entries'
     * sets; RdmaFabricHelper::SetCongestionControl applies one to the NICs' factories).
     *
     * - "paper": the DCQCN paper (the attribute defaults): g 1/256, alpha 1, K 55 us,
     *   T 55 us, B 10 MB (10^7 bytes), F 5, R_AI 40 Mb/s, R_HAI 400 Mb/s, MinRate 100 Mb/s,
     *   no decrease interval, CNP interval 50 us, ClampTargetRate true.
     * - "cx4": the Mellanox ConnectX-4 style of the HPCC simulator: g 1/256, alpha 1,
     *   K 1 us, decrease interval 4 us, T 300 us, no byte counter, F 1,
     *   R_AI 5 Mb/s x lineGbps/25, R_HAI 50 Mb/s x lineGbps/25, MinRate 100 Mb/s,
     *   CNP interval 0 (a CNP per CE packet, like its CNP bit on every ACK),
     *   ClampTargetRate false.
     *
     * \throws std::invalid_argument naming \p name if the preset is unknown, or naming
     * \p lineRate if it is zero.
     * - "hpcc-sim": "cx4" with MinRate 1 Gb/s, as the HPCC simulator's run.py runs it.
     *
     * \param name "paper", "cx4" or "hpcc-sim"
     * \param lineRate the NICs' line rate (scales R_AI and R_HAI in "cx4")
     * \return attribute name and value pairs
     */
    static std::vector<RdmaCcParameterSet::Value> GetParameterSet(const std::string& name,
                                                                  DataRate lineRate);

    /**
     * \brief The parameter sets "paper" (the default), "cx4" and "hpcc-sim", for RdmaCcRegistry
     * entries. \return the sets
     */
    static std::vector<RdmaCcParameterSet> GetParameterSets();

    /**
     * \brief The current alpha, including the decays due up to now.
     * \return alpha in [0, 1]
     */
    double GetAlpha() const;

    /**
     * \brief The timer stage count t (increase-timer events since the last decrease).
     * \return t
     */
    uint32_t GetTimerStage() const;

    /**
     * \brief The byte stage count b (byte-counter events since the last decrease).
     * \return b
     */
    uint32_t GetByteStage() const;

    /**
     * \brief How many rate decreases this flow has made.
     * \return number of decreases
     */
    uint64_t GetDecreaseCount() const;

protected:
    void DoDispose() override;

    /**
     * \brief Set the rate from outside the DCQCN rules (DCON's CNM reaction) and recover from
     * there with DCQCN's increase stages: RC = \p rate (clamped to [MinRate, line rate]), RT =
     * RC too if \p setTarget, stage counters reset and the increase timer restarted; alpha is
     * not touched.
     * \param rate the new current rate
     * \param setTarget whether the target rate also becomes \p rate
     */
    void ApplyExternalRate(DataRate rate, bool setTarget);

    /**
     * \brief The lowest rate this algorithm allows.
     * \return MinRate
     */
    DataRate GetMinRate() const;

    /**
     * \brief The alpha gain g (attribute G).
     * \return g
     */
    double GetG() const;

    /**
     * \brief Set alpha directly (for a subclass that runs its own rules on DCQCN's alpha and
     * attributes, without DCQCN's timers: DCON's Algorithm 1). Only valid while no CNP went
     * through RdmaDcqcn::OnCnp (alpha's periodic decay clock is not running).
     * \param alpha the new value, in [0, 1]
     */
    void SetAlpha(double alpha);

private:
    /// Throw std::invalid_argument if an attribute value cannot work with \p lineRate.
    void CheckConfig(DataRate lineRate) const;
    /// Whether the CX4 (hardware-style, periodic decrease) mode is on.
    bool IsCx4Mode() const;
    /// Alpha at time \p now from the stored value and the periods elapsed since.
    double AlphaAt(Time now) const;
    /// Bring m_alpha up to date (applies the periods elapsed since the last update).
    void UpdateAlpha();
    /// Apply one rate decrease (RT = RC per ClampTargetRate, RC *= 1 - alpha/2, reset stages).
    void DecreaseRate();
    /// CX4 mode: the decrease tick.
    void DecreaseTick();
    /// (Re)start the increase timer from now.
    void StartIncreaseTimer();
    /// The increase timer fired.
    void IncreaseTimerExpired();
    /// One increase event; \p fromTimer says which counter it belongs to.
    void IncreaseEvent(bool fromTimer);
    /// Stop the increase machinery if RC = RT = line rate.
    void StopIncreaseIfAtLineRate();

    // Attributes
    double m_g;              //!< alpha gain g
    double m_initialAlpha;   //!< alpha at Init
    Time m_alphaInterval;    //!< K
    Time m_decreaseInterval; //!< 0 = paper mode, > 0 = CX4 mode
    Time m_increaseInterval; //!< T
    uint64_t m_byteCounter;  //!< B in bytes, 0 = disabled
    uint32_t m_threshold;    //!< F
    DataRate m_rai;          //!< R_AI
    DataRate m_rhai;         //!< R_HAI
    DataRate m_minRate;      //!< lower bound of RC and RT
    bool m_clampTargetRate;  //!< RT = RC on every decrease
    Time m_cnpInterval;      //!< receiver: minimum gap between CNPs of a flow

    // Sender state
    Ptr<RdmaFlowState> m_flow;      //!< the flow (set by Init)
    TracedValue<double> m_alpha;    //!< alpha as of m_alphaStamp
    Time m_alphaStamp;              //!< start of the current alpha period
    bool m_alphaClock{false};       //!< alpha periods run (after the first CNP)
    bool m_alphaCnpInPeriod{false}; //!< CX4: a CNP arrived in the current alpha period
    Time m_decreaseAnchor;          //!< CX4: origin of the decrease grid (first CNP)
    bool m_decreasePending{false};  //!< CX4: a CNP arrived since the last decrease tick
    bool m_seenCnp{false};          //!< a CNP has been received
    bool m_recovering{false};       //!< increase timer / byte counter active
    bool m_stopped{false};          //!< Stop() was called
    uint32_t m_timerStage{0};       //!< t
    uint32_t m_byteStage{0};        //!< b
    uint64_t m_bytesCounted{0};     //!< bytes since the last byte-counter event
    uint64_t m_decreases{0};        //!< number of decreases
    EventId m_increaseEvent;        //!< next increase-timer expiry
    EventId m_decreaseEvent;        //!< CX4: next decrease tick
};

} // namespace ns3

#endif /* RDMA_DCQCN_H */
