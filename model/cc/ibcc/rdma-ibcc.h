/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_IBCC_H
#define RDMA_IBCC_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-value.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-cc-ibcc
 * \brief InfiniBand congestion control (IBA Annex A10) at the channel adapter, per QP, as
 * the paper "Differentiated transport-layer bandwidth partitioning for InfiniBand data centers"
 * (NUDT; the IB partitioning paper) describes it (its Algorithms 1 and 2), with every parameter an
 * attribute so that each QP (flow) may have its own (RdmaFlowRequest::ccAttributes).
 *
 * Switches mark FECN (here: the IP ECN CE codepoint, IbFecnQueueDisc) when a queue is above a
 * threshold; the receiver NIC returns it as BECN in the BTH of its ACK (RdmaAckInfo::ecnEcho).
 * The sender keeps an index CCTI into a table CCT of injection rate delays (IRD, ascending):
 *
 * 1. CCTI starts at CctiMin.
 * 2. On a BECN: if CCTI < CctiLimit, CCTI += CctiIncrease (at most CctiLimit). With
 *    TimerResetOnBecn (the paper's Algorithm 1, step 7; off by default, as IBA's periodic
 *    timer) the recovery timer restarts.
 * 3. Recovery: every CctiTimer x TimerUnit (150 x 1.024 us) with CCTI > CctiMin, CCTI -= 1.
 * 4. Pacing (Algorithm 2): packets go out at the line rate in aggregates of Aggregate packets;
 *    when an aggregate is complete the next one starts no earlier than CCT[CCTI] after the
 *    previous one started (RdmaFlowState::m_holdUntil), CCTI read when the aggregate completes.
 *
 * The table is the Cct attribute (IRDs in microseconds) or, when that is empty, CCT[i] =
 * CctScale x i^CctExponent microseconds for i = 0 .. CctSize - 1 (default: the paper's reference
 * table 14 i^2 / 1062 us, 128 entries). doc/cc/ibcc.rst gives
 * each default's source.
 */
class RdmaIbcc : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaIbcc();
    ~RdmaIbcc() override;

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    void Stop() override;

    /**
     * \brief The switch queue attributes IBCC needs on a port: FECN marking with the
     * threshold scale ThresholdStep = 1,000 bytes per Gb/s of the port (IbFecnQueueDisc).
     * \param portRate the port's rate
     * \return ThresholdStep of IbFecnQueueDisc
     */
    static std::vector<std::pair<std::string, std::string>> QueueAttributes(DataRate portRate);

    /**
     * \brief Parse a CCT given as text: IRDs in microseconds separated by commas or spaces,
     * ascending (equal neighbours allowed), each >= 0.
     * \throws std::invalid_argument naming the bad entry and its position.
     * \param text e.g. "0, 0.5, 1.5, 4"
     * \return the IRDs
     */
    static std::vector<Time> ParseCct(const std::string& text);

    /**
     * \brief The current CCT index.
     * \return CCTI
     */
    uint32_t GetCcti() const;

    /**
     * \brief The injection rate delay of the current index, CCT[CCTI].
     * \return the IRD
     */
    Time GetIrd() const;

    /**
     * \brief The table in use (after Init).
     * \return the IRDs, index 0 first
     */
    const std::vector<Time>& GetCct() const;

    /**
     * \brief BECNs received by this QP.
     * \return the count
     */
    uint64_t GetBecnCount() const;

private:
    /**
     * \brief Check the attributes (throws std::invalid_argument naming the bad value).
     */
    void Validate() const;
    /**
     * \brief Set CCTI and publish it.
     * \param ccti the new index
     */
    void SetCcti(uint32_t ccti);
    /// Start (or restart) the recovery timer.
    void StartTimer();
    /// The recovery timer expired: CCTI -= 1 if above CctiMin.
    void TimerExpired();

    // attributes
    uint32_t m_cctiIncrease; //!< CCTI_Increase
    uint32_t m_cctiLimit;    //!< CCTI_Limit (0: the table's last index)
    uint32_t m_cctiMin;      //!< CCTI_Min
    uint32_t m_cctiTimer;    //!< CCTI_Timer in TimerUnit units
    Time m_timerUnit;        //!< unit of CCTI_Timer
    bool m_timerReset;       //!< a BECN restarts the recovery timer
    uint32_t m_aggregate;    //!< packets per aggregate
    std::string m_cctText;   //!< the table as text (empty: the formula)
    double m_cctScale;       //!< formula: microseconds factor
    double m_cctExponent;    //!< formula: exponent of the index
    uint32_t m_cctSize;      //!< formula: entries

    // state
    std::vector<Time> m_cct;         //!< the table
    uint32_t m_limit{0};             //!< CCTI_Limit resolved
    TracedValue<uint32_t> m_ccti{0}; //!< CCTI
    uint64_t m_becns{0};             //!< BECNs received
    uint32_t m_inAggregate{0};       //!< packets sent in the current aggregate
    Time m_aggregateStart;           //!< when the current aggregate's first packet went
    EventId m_timer;                 //!< the recovery timer
};

} // namespace ns3

#endif /* RDMA_IBCC_H */
