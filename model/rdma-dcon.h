/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCON_H
#define RDMA_DCON_H

#include "ns3/traced-callback.h"
#include "rdma-dcqcn.h"

namespace ns3
{

/**
 * \ingroup dcon
 * \brief DCON's sender (reaction point) and receiver: DCQCN plus the reaction to Congestion
 * Notification Messages (Hu et al. 2023, Algorithm 1; dcon.md 2.4, 2.5).
 *
 * Persistent congestion is handled exactly as RdmaDcqcn (the paper uses DCQCN's recommended
 * parameters; the receiver sends at most one CNP per flow per 50 us). On a CNM carrying N and
 * the congested link's capacity C, the rate becomes C / N (clamped to [MinRate, line rate]).
 * If several CNMs for the flow arrive within CnmHoldTime (50 us) of the last one applied, a
 * CNM is applied only if C / N is below the current rate. With CnmSetsTargetRate (default
 * true) the DCQCN target rate also becomes C / N, so that DCQCN's increase stages recover from
 * C / N (additive, then hyper increase) instead of jumping back toward the pre-burst target by
 * fast recovery; set it to false for the other reading of the paper. The increase timer is
 * restarted either way; alpha is not changed by a CNM.
 *
 * The paper's Algorithm 1 read literally (rate = (target + rate) / 2 only on a CNP with mark
 * 0, which DCQCN receivers never send) has no additive increase, so a throttled flow could
 * never exceed its target again; this class does not offer that variant.
 */
class RdmaDcon : public RdmaDcqcn
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaDcon();
    ~RdmaDcon() override;

    std::string GetName() const override;
    void OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm) override;

    /**
     * \brief CNMs received by this flow.
     * \return count
     */
    uint32_t GetCnmsReceived() const;

    /**
     * \brief CNMs that changed the rate.
     * \return count
     */
    uint32_t GetCnmsApplied() const;

    /// Signature of the CnmApplied trace: the new rate.
    typedef void (*CnmAppliedTracedCallback)(DataRate rate);

private:
    Time m_holdTime;
    bool m_setsTarget;
    Time m_lastApplied{Time(-1)};
    uint32_t m_received{0};
    uint32_t m_applied{0};
    TracedCallback<DataRate> m_cnmAppliedTrace;
};

} // namespace ns3

#endif /* RDMA_DCON_H */
