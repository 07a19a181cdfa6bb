/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCON_H
#define RDMA_DCON_H

#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-rx-period.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup dcon-cc-dcon
 * \brief DCON's sender (reaction point) and receiver (Hu et al. 2023, Sections 4.1 and 4.3,
 * Algorithm 1).
 *
 * Two readings of the paper, chosen by the Sender attribute.
 *
 * \par Sender = Paper (default): Algorithm 1 read with the text around it
 * Receiver: "like DCQCN, it copies the ECN mark into a CNP and sends CNPs periodically
 * (default 50 us)". One CNP per CnpPeriod while the flow is active (RdmaRxPeriod: a period
 * starts with the first packet after an idle time; a period without packets sends nothing),
 * carrying the congestion mark: 1 if any packet of the period arrived with ECN CE, else 0
 * (CnpHeader's congested bit).
 *
 * Sender: the flow starts at line rate with target rate = line rate and delta (the paper's
 * rate adjustment factor, DCQCN's alpha) = InitialAlpha (1); g = G (1/256). Then
 * - CNM (N, C): rate = C / N (line 2) if that lowers the rate (CnmRaisesRate = false, default:
 *   the text says a CNM lowers); the target rate becomes C / N too (CnmSetsTargetRate = true,
 *   default: the text calls C / N the flow's target rate);
 * - CNP with mark 1: target = rate; delta = (1-g) delta + g; rate = rate (1 - delta/2)
 *   (lines 5-8, in this order: the decrease uses the updated delta);
 * - CNP with mark 0: target = min(line rate, target + R_AI) (UnmarkedCnpIncrease, 40 Mb/s:
 *   the additive increase of the text's "AIMD" with DCQCN's R_AI; 0 gives the listing as
 *   written, whose target never rises); delta = (1-g) delta; rate = (target + rate) / 2
 *   (lines 10-11). Optionally DCQCN's hyper increase: after HyperIncreaseAfter unmarked CNPs
 *   in a row the step is UnmarkedCnpHyperIncrease (off by default).
 * Rates are kept in [MinRate, line rate]. No timer runs at the sender.
 *
 * \par Sender = Dcqcn: DCQCN plus the CNM reaction
 * Persistent congestion is handled exactly as RdmaDcqcn (timers, byte counter, fast recovery,
 * additive and hyper increase; the receiver sends at most one CNP per flow per CnpInterval on
 * CE packets). A CNM sets the rate to C / N (and DCQCN's target too if CnmSetsTargetRate) and
 * restarts DCQCN's increase stages. This is the module's earlier reading, kept as an
 * alternative; the paper's text does not describe it.
 *
 * In both, several CNMs for the flow within CnmHoldTime (50 us) of the last one applied: a CNM
 * is then applied only if C / N is below the current rate. A CNM with N = 0 counts as N = 1.
 * Both ends must use the same Sender value (the NIC creates the sender and the receiver from
 * one factory).
 */
class RdmaDcon : public RdmaDcqcn
{
public:
    /// Which reading of the paper's sender and receiver.
    enum SenderVariant
    {
        PAPER = 0, //!< Algorithm 1 as written, periodic CNPs with a congestion mark
        DCQCN = 1  //!< DCQCN's reaction point and notification point plus the CNM reaction
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaDcon();
    ~RdmaDcon() override;

    std::string GetName() const override;

    /**
     * \brief Start the sender: rate = target = line rate, delta = InitialAlpha, no timer.
     * \throws std::invalid_argument naming the attribute if an attribute value is invalid.
     * \param flow the flow's state
     */
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes) override;
    void OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp) override;
    bool OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm) override;
    void Stop() override;

    /**
     * \brief Start the receiver role (checks CnpPeriod in the Paper variant).
     * \param rx the receiver state
     * \param sendCnp how to send a CNP
     */
    void InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp) override;
    void OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt) override;

    /**
     * \brief What each Sender reads: Paper does not read DCQCN's timers, byte counter,
     * increase steps, ClampTargetRate and CnpInterval (it reads DCQCN's G, InitialAlpha and
     * MinRate); Dcqcn does not read CnpPeriod and the unmarked-CNP increases.
     * \return the declarations
     */
    std::vector<ModalAttribute> GetModalAttributes() const override;

    /**
     * \brief The variant in use (attribute Sender).
     * \return the variant
     */
    SenderVariant GetSenderVariant() const;

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

    /**
     * \brief CNMs whose C/N was not below the flow's current rate when they arrived (applied
     * only with CnmRaisesRate outside CnmHoldTime; they would raise the rate).
     * \return count
     */
    uint32_t GetCnmsNotLowering() const;

    /**
     * \brief Whether the receiver's CNP period is running (Paper variant).
     * \return true while it runs
     */
    bool IsReceiverPeriodRunning() const;

    /// Signature of the CnmApplied trace: the new rate.
    typedef void (*CnmAppliedTracedCallback)(DataRate rate);

protected:
    void DoDispose() override;

private:
    /**
     * \brief Algorithm 1's reaction to a CNP (Paper variant).
     * \param flow the flow's state
     * \param marked the CNP's congestion mark
     */
    void ApplyCnp(Ptr<RdmaFlowState> flow, bool marked);

    /**
     * \brief End of a receiver period with packets: send the CNP with the mark.
     * \param counts what arrived in the period
     */
    void PeriodEnd(const RdmaRxPeriod::Counts& counts);

    SenderVariant m_variant{PAPER};
    Time m_cnpPeriod;
    Time m_holdTime;
    bool m_setsTarget{true};
    bool m_raisesRate{false};
    DataRate m_unmarkedIncrease; //!< R_AI on an unmarked CNP (Paper)
    DataRate m_hyperIncrease;    //!< R_HAI after m_hyperAfter unmarked CNPs (Paper; 0 off)
    uint32_t m_hyperAfter{5};    //!< unmarked CNPs in a row before the hyper increase
    uint32_t m_unmarkedRun{0};   //!< unmarked CNPs since the last decrease
    bool m_stopped{false};
    Time m_lastApplied{Time(-1)};
    uint32_t m_received{0};
    uint32_t m_applied{0};
    uint32_t m_notLowering{0}; //!< CNMs with C/N >= the current rate
    Ptr<RdmaRxFlowState> m_rx; //!< receiver state (Paper variant)
    RdmaRxPeriod m_rxPeriod;   //!< receiver's CNP period (Paper variant)
    TracedCallback<DataRate> m_cnmAppliedTrace;
};

} // namespace ns3

#endif /* RDMA_DCON_H */
