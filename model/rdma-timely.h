/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TIMELY_H
#define RDMA_TIMELY_H

#include "rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup dcon
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
 */
class RdmaTimely : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaTimely();
    ~RdmaTimely() override;

    std::string GetName() const override;
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

private:
    double m_ewma;
    double m_beta;
    Time m_tLow;
    Time m_tHigh;
    Time m_minRtt;
    DataRate m_delta;
    uint32_t m_haiThreshold;
    uint32_t m_haiFactor;
    DataRate m_minRate;
    double m_rttDiffPs{0}; //!< rtt_diff in picoseconds
    Time m_prevRtt{Time(-1)};
    uint32_t m_negativeGradients{0};
    uint64_t m_segmentBytes; //!< update once per this many acknowledged bytes (0 = every ACK)
    uint64_t m_ackedSinceUpdate{0};
};

} // namespace ns3

#endif /* RDMA_TIMELY_H */
