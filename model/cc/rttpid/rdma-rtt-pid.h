/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RTT_PID_H
#define RDMA_RTT_PID_H

#include "lstm-predictor.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-callback.h"

#include <deque>

namespace ns3
{

/**
 * \ingroup dcon-cc-rttpid
 * \brief RTT-based PID rate control with an LSTM RTT predictor (the RTT-PID thesis: an
 * LSTM + PIDNN thesis on the HPCC ns-3 simulator; doc/cc/rttpid.rst).
 *
 * One RTT sample per RTT: the first packet sent after the previous sample is timed, and its ACK
 * gives the next sample (the NIC measures the RTT of each first-transmission packet). For the
 * t-th sample R_t of a flow:
 * \verbatim
 *   S_t = R_t (t = 0),  S_t = sigma R_t + (1 - sigma) S_{t-1}         (EWMA, sigma = 0.2)
 *   K_t = (R_t - S_t) / S_t
 *   rtt_pred = (1 + LSTM(K_{t-2}, K_{t-1}, K_t)) S_t   (measured R_t without a predictor, or
 *                                                        before T values of K exist)
 *   e_t = (rtt_pred - target) / target
 *   d_t = Kp e_t + Ki mean(e) + Kd (e_t - e_{t-1}),  clamped to [DeltaMin, DeltaMax]
 *   rate = rate (1 + d_t),  bounded to [MinRate, MaxRate (0 = line rate)]
 * \endverbatim
 * mean(e) is the mean of e over all samples of the flow (IntegralWindow 0, the thesis's "long-time
 * average"), or over the last IntegralWindow samples. With GainTuning, the gains w = [Kp, Ki,
 * Kd] learn online by gradient descent on J = (R_{t+1} - target)^2 / 2 when the next sample
 * arrives:
 * \verbatim
 *   g_x = clip((R_{t+1} - target)[us] x Beta x rate_{t-1}[Gb/s] x out_x(t), +-GradientClip)
 *   w_x -= LearningRate / sqrt(n + 1) x g_x        (n = tuning steps so far)
 * \endverbatim
 * with out_p = e_t, out_i = mean(e), out_d = e_t - e_{t-1} and rate_{t-1} the rate before the
 * update of sample t. Optional: target adaptation (after more than TargetAdaptCount
 * consecutive samples on one side of the target, target = mean of all samples of the flow) and
 * an HPCC-style window (cwnd = rate x base RTT).
 *
 * Init aggregates the object to the flow's RdmaFlowState (flow->GetObject<RdmaRttPid>() finds
 * it, e.g. from RdmaNic's FlowStart trace, to read the gains or connect to the Sample trace).
 */
class RdmaRttPid : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaRttPid();
    ~RdmaRttPid() override;

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    bool WantsRttSamples() const override;

    /**
     * \brief What each mode reads: LearningRate, GradientClip and Beta only with
     * GainTuning=true, TargetAdaptCount only with TargetAdaptation=true.
     * \return the declarations
     */
    std::vector<ModalAttribute> GetModalAttributes() const override;

    /**
     * \brief Apply one (per-RTT) RTT sample: EWMA, feature, prediction, PID, rate.
     * \param flow the flow
     * \param rtt the sample
     */
    void OnRttSample(Ptr<RdmaFlowState> flow, Time rtt);

    /// \return the smoothed RTT S_t in seconds (0 before the first sample)
    double GetSmoothedRtt() const;
    /// \return the last K_t
    double GetLastK() const;
    /// \return the RTT the PID used for the last sample, in seconds
    double GetLastPredictedRtt() const;
    /// \return the last PID output d_t after the clamp
    double GetLastDelta() const;
    /// \return the current gains [Kp, Ki, Kd]
    std::vector<double> GetGains() const;
    /// \return the current RTT target
    Time GetTarget() const;
    /// \return the number of samples taken
    uint64_t GetSamples() const;
    /// \return whether a predictor is loaded
    bool HasPredictor() const;

    /**
     * \brief TracedCallback signature of the Sample trace.
     * \param rtt the measured sample
     * \param predicted the RTT the PID used
     * \param rate the rate after the update
     */
    typedef void (*SampleTracedCallback)(Time rtt, Time predicted, DataRate rate);

private:
    /// Throw std::invalid_argument if an attribute is out of range for \p flow.
    void Validate(Ptr<RdmaFlowState> flow) const;

    // attributes
    double m_sigma;
    Time m_target;
    double m_kp0;
    double m_ki0;
    double m_kd0;
    double m_deltaMin;
    double m_deltaMax;
    DataRate m_minRate;
    DataRate m_maxRate;
    DataRate m_initialRate;
    uint32_t m_integralWindow;
    bool m_tuning;
    double m_learningRate;
    double m_gradClip;
    double m_beta;
    bool m_adaptTarget;
    uint32_t m_adaptCount;
    bool m_windowCap;
    std::string m_predictorFile;

    // state
    Ptr<const LstmPredictor> m_predictor;
    double m_maxRateBps{0};     //!< MaxRate in use (line rate if 0)
    bool m_timing{false};       //!< a timed packet is outstanding (else the next is timed)
    uint64_t m_timedEnd{0};     //!< end offset of the timed packet
    uint64_t m_samples{0};      //!< samples so far
    double m_s{0};              //!< S_t, seconds
    double m_lastK{0};          //!< K_t
    std::deque<double> m_ks;    //!< the last T values of K
    double m_pred{0};           //!< RTT used by the PID, seconds
    double m_ePrev{0};          //!< e_{t-1}
    double m_eSum{0};           //!< sum of e (all, or those in m_eWin)
    std::deque<double> m_eWin;  //!< the last IntegralWindow values of e
    double m_delta{0};          //!< d_t
    double m_gains[3]{0, 0, 0}; //!< Kp, Ki, Kd
    double m_outs[3]{0, 0, 0};  //!< out_p, out_i, out_d of the last decision
    double m_rateBefore{0};     //!< rate before the last decision, b/s
    uint64_t m_tuneSteps{0};    //!< gradient steps so far
    double m_targetS{0};        //!< current target, seconds
    int64_t m_sideCount{0};     //!< signed count of consecutive samples on one side
    double m_rttSum{0};         //!< sum of all samples, seconds (target adaptation)
    TracedCallback<Time, Time, DataRate> m_sampleTrace;
};

} // namespace ns3

#endif /* RDMA_RTT_PID_H */
