/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_HPCC_H
#define RDMA_HPCC_H

#include "ns3/int-header.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-value.h"

#include <array>

namespace ns3
{

/**
 * \ingroup dcon-cc-hpcc
 * \brief HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019): a window
 * computed from in-band network telemetry, as the paper's Algorithm 1.
 *
 * Every data packet of the flow asks switches for hop records (WantsHopRecords: the NIC sets
 * the BTH INT bit); each switch egress port appends its queue length, transmitted bytes,
 * timestamp and link rate as the packet leaves (IntHeader); the receiver copies the records
 * into the ACK (RdmaAckInfo::hops). Per ACK, with T the base RTT and L the records of the
 * previous ACK:
 *
 * - MeasureInflight: per hop i, txRate = (txBytes - L.txBytes) / (ts - L.ts) and
 *   u_i = min(qLen, L.qLen) / (B_i T) + txRate / B_i; u = max_i u_i, tau = the ts difference of
 *   that hop, at most T; U = (1 - tau / T) U + (tau / T) u.
 * - ComputeWind: if U >= eta or incStage >= MaxStage, W = W_c / (U / eta) + W_AI (and, on an
 *   update, incStage = 0); else W = W_c + W_AI (and, on an update, incStage + 1). W_c = W on an
 *   update only.
 * - An update happens once per RTT: when the ACK acknowledges past lastUpdateSeq (the next byte
 *   to send at the previous update), which then becomes the next byte to send. Other ACKs
 *   compute W from W_c without changing W_c or incStage (the paper's per-ACK reaction; the HPCC
 *   simulator's FastReact), unless PerAckUpdate is false.
 * - The rate is W / T (paced), the window W; both within [MinRate, the start rate] x T.
 *
 * The first ACK with records only stores them (and sets lastUpdateSeq), as does an ACK whose
 * record count differs from the stored one (a different path). W starts at the
 * bandwidth-delay product of the start rate (rate = the start rate), U at 1. doc/cc/hpcc.rst
 * gives each default's source and the departures from the HPCC simulator.
 */
class RdmaHpcc : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaHpcc();
    ~RdmaHpcc() override;

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    bool WantsHopRecords() const override;

    /// \return U, the EWMA of the largest normalized inflight bytes
    double GetU() const;
    /// \return the window W in bytes
    double GetWindow() const;
    /// \return the reference window W_c in bytes
    double GetReferenceWindow() const;
    /// \return incStage, additive steps since the last multiplicative one
    uint32_t GetIncStage() const;
    /// \return W_AI in bytes
    double GetWindowAi() const;
    /// \return T, the base RTT the flow uses
    Time GetBaseRtt() const;

private:
    /**
     * \brief Update U from the records of an ACK against the previous ones (MeasureInflight).
     * \param hops the ACK's records (as many as the previous ACK's)
     * \return false if no hop could be measured (no rate, or the same departure time at every
     * hop): U is left as it was
     */
    bool MeasureInflight(const IntHeader& hops);

    /**
     * \brief Whether the stored records are too old to compare with \p hops: half the shortest
     * wrap period of their fields (2^24 ns; 2^20 x 128 B at the fastest hop's rate) has passed
     * since they arrived.
     * \param hops the new records
     * \return true to take \p hops as a new reference
     */
    bool IsStale(const IntHeader& hops) const;

    /**
     * \brief W from U (ComputeWind).
     * \param updateWc whether this is the once-per-RTT update of W_c and incStage
     * \return W in bytes, within the window limits
     */
    double ComputeWind(bool updateWc);

    /**
     * \brief Publish W: window and pacing rate W / T.
     * \param flow the flow
     */
    void Apply(Ptr<RdmaFlowState> flow);

    // attributes
    double m_eta;        //!< target utilization eta
    uint32_t m_maxStage; //!< additive steps before a multiplicative one is forced
    DataRate m_rateAi;   //!< W_AI / T (0: the start rate / 2500)
    DataRate m_minRate;  //!< smallest rate (the window is at least MinRate x T)
    Time m_baseRttAttr;  //!< T (0: the flow's base RTT)
    bool m_perAck;       //!< react to every ACK (not only once per RTT)

    // state
    double m_t{0};               //!< T in seconds
    double m_wAi{0};             //!< W_AI in bytes
    double m_minW{0};            //!< smallest W in bytes
    double m_maxW{0};            //!< largest W in bytes
    TracedValue<double> m_u{1};  //!< U
    double m_w{0};               //!< W in bytes
    double m_wc{0};              //!< W_c in bytes
    uint32_t m_incStage{0};      //!< incStage
    uint64_t m_lastUpdateSeq{0}; //!< byte offset that starts the next update
    IntHeader m_hops;            //!< the previous ACK's records (L; none before the first)
    Time m_hopsAt;               //!< when m_hops arrived
};

} // namespace ns3

#endif /* RDMA_HPCC_H */
