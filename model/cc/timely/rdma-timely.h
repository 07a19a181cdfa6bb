/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "ns3/rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup dcon-cc-timely
 * \brief TIMELY (Mittal et al., SIGCOMM 2015): RTT-gradient rate control.
 *
 * One update per completed segment of SegmentBytes (default 64 KB, the paper's 16-64 KB
 * completions), using the RTT of the ACK that completes it (the NIC measures the RTT of each
 * first-transmission packet from the ACK that acknowledges it); SegmentBytes 0 updates on every
 * ACK with a sample:
 * \verbatim
 *   rtt_diff = (1 - a) rtt_diff + a (new_rtt - prev_rtt);  prev_rtt = new_rtt
 *   gradient = rtt_diff / MinRtt
 *   new_rtt < TLow:   rate += Delta
 *   new_rtt > THigh:  rate *= 1 - Beta (1 - THigh / new_rtt)
 *   gradient <= 0:    rate += N Delta   (N = HaiFactor from the HaiThreshold-th consecutive
 *                                         such event on, else 1)
 *   else:             rate *= 1 - Beta x gradient
 * \endverbatim
 * The first sample only sets prev_rtt (no difference yet). The rate stays in [MinRate, line
 * rate]. Delta 0 (default) means line rate / 1000 (10 Mb/s per 10 Gb/s).
 *
 * Variant PATCHED is "patched TIMELY" of Zhu et al. (ECN or Delay, CoNEXT 2016), which replaces
 * the two gradient branches (TLow <= new_rtt <= THigh) by one update with a unique, fair fixed
 * point:
 * \verbatim
 *   w(g) = 0 for g <= -1/4, 2 g + 1/2 for -1/4 < g < 1/4, 1 for g >= 1/4
 *   error = (new_rtt - RttRef) / RttRef
 *   rate = rate (1 - Beta w(gradient) error) + Delta (1 - w(gradient))
 * \endverbatim
 * (RttRef 0, the default, means TLow, as in eRPC's implementation.) The original TIMELY has a
 * continuum of fixed points (any split of the link with a zero gradient), which is why two
 * flows need not converge to a fair share.
 */
class RdmaTimely : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Which TIMELY.
    enum Variant
    {
        ORIGINAL, //!< Mittal et al. 2015, Algorithm 1
        PATCHED   //!< Zhu et al. 2016, unique fixed point
    };

    RdmaTimely();
    ~RdmaTimely() override;

    std::string GetName() const override;
    /// RttRef is read by Variant=Patched only; HaiThreshold and HaiFactor (the hyper-active
    /// increase) by Variant=Original only.
    std::vector<ModalAttribute> GetModalAttributes() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    bool WantsRttSamples() const override;

    /**
     * \brief Apply one RTT sample.
     * \param flow the flow
     * \param rtt the sample
     */
    void OnRttSample(Ptr<RdmaFlowState> flow, Time rtt);

    /**
     * \brief The smoothed RTT difference.
     * \return rtt_diff
     */
    Time GetRttDiff() const;

    /**
     * \brief Patched TIMELY's gradient weight w(g).
     * \param g the normalized gradient
     * \return w in [0, 1]
     */
    static double PatchedWeight(double g);

private:
    double m_ewma;
    double m_beta;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    DataRate m_delta; //!< Delta attribute (0 = line rate / 1000)
    DataRate m_step;  //!< the additive step in use (Delta, or line rate / 1000; set by Init)
    uint32_t m_haiThreshold;
    uint32_t m_haiFactor;
    DataRate m_minRate;
    double m_rttDiffPs{0}; //!< rtt_diff in picoseconds
    Time m_prevRtt{Time(-1)};
    uint32_t m_negativeGradients{0};
    uint64_t m_segmentBytes; //!< update once per this many acknowledged bytes (0 = every ACK)
    uint64_t m_ackedSinceUpdate{0};
    Variant m_variant;
    Time m_rttRef;
};

} // namespace ns3

#endif /* RDMA_TIMELY_H */
