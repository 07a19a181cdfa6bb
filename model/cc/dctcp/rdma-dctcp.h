/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_DCTCP_H
#define RDMA_DCTCP_H

#include "ns3/rdma-congestion-ops.h"
#include "ns3/traced-value.h"

namespace ns3
{

/**
 * \ingroup dcon-cc-dctcp
 * \brief DCTCP (Alizadeh et al., SIGCOMM 2010) as an RDMA window scheme, as the HPCC
 * simulator runs it (its CC mode 8), with a window in place of its rate.
 *
 * Switches mark CE at a step threshold K (RedEcnQueueDisc with Kmin = Kmax = K: the
 * registration asks for K = 3 KB per Gb/s of the port, the HPCC simulator's run.py); the
 * receiver NIC echoes CE in every ACK (RdmaAckInfo::ecnEcho). The sender, per ACK:
 *
 * 1. counts the acknowledged bytes and those acknowledged by echoing ACKs; when the ACK passes
 *    the end of the current observation window (the next byte to send when that window began),
 *    F = marked / acknowledged bytes of the window and alpha = (1 - g) alpha + g F, and a new
 *    window begins (the first ACK of the flow only starts the first window);
 * 2. leaves the "congestion window reduced" state once the ACK passes the byte sent last when
 *    the window was cut;
 * 3. on an echoing ACK outside that state: cwnd = cwnd (1 - alpha / 2), at least MinCwnd, and
 *    enters the state until everything sent so far is acknowledged (at most one cut per window);
 * 4. otherwise, when step 1 began a new window: cwnd += one MTU, at most MaxCwnd (default: no
 *    limit).
 *
 * The flow is window-limited (RdmaFlowState::m_cwnd) and paced at its start rate (the line
 * rate unless the flow asked for another), or, with PacingGain > 0, at PacingGain x cwnd / the
 * last RTT sample (at most the start rate). No timer. doc/cc/dctcp.rst gives each
 * default's source and the departures from the HPCC simulator.
 */
class RdmaDctcp : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaDctcp();
    ~RdmaDctcp() override;

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    bool WantsRttSamples() const override;

    /**
     * \brief The switch queue attributes DCTCP needs on a port: step marking at
     * K = 3,000 bytes per Gb/s of the port (Kmin = Kmax = K, Pmax 1), the HPCC simulator's
     * run.py setting for DCTCP (300 KB at 100 Gb/s, 120 KB at 40 Gb/s).
     * \param portRate the port's rate
     * \return Kmin, Kmax and Pmax of RedEcnQueueDisc
     */
    static std::vector<std::pair<std::string, std::string>> QueueAttributes(DataRate portRate);

    /**
     * \brief The current estimate of the fraction of marked bytes.
     * \return alpha in [0, 1]
     */
    double GetAlpha() const;

    /**
     * \brief The current window.
     * \return bytes
     */
    double GetCwnd() const;

    /**
     * \brief Whether the window was cut and not all data sent before the cut is acknowledged.
     * \return true in the "congestion window reduced" state
     */
    bool InCwr() const;

private:
    /**
     * \brief Set the window (clamped to [MinCwnd, MaxCwnd] in bytes) and publish it.
     * \param flow the flow
     * \param bytes the new window
     */
    void SetCwnd(Ptr<RdmaFlowState> flow, double bytes);

    // attributes
    double m_g;           //!< EWMA gain g
    double m_alphaInit;   //!< alpha at the flow's start
    double m_initialCwnd; //!< first window in MTUs (0: bandwidth-delay product)
    double m_minCwnd;     //!< smallest window in MTUs
    double m_maxCwnd;     //!< largest window in MTUs (0: no limit)
    double m_pacingGain;  //!< 0: pace at the start rate; else gain x cwnd / RTT
    DataRate m_startRate; //!< the flow's start rate

    // state
    TracedValue<double> m_alpha{1}; //!< fraction of marked bytes, EWMA
    double m_cwnd{0};               //!< window in bytes
    double m_minBytes{0};           //!< MinCwnd in bytes
    double m_maxBytes{0};           //!< MaxCwnd in bytes
    bool m_windowStarted{false};    //!< the first observation window has begun
    uint64_t m_windowEnd{0};        //!< byte offset that ends the observation window
    uint64_t m_ackedBytes{0};       //!< bytes acknowledged in the observation window
    uint64_t m_markedBytes{0};      //!< of which by ACKs that echoed CE
    bool m_cwr{false};              //!< in the "congestion window reduced" state
    uint64_t m_cwrEnd{0};           //!< m_sndNxt at the cut: the state ends past it
};

} // namespace ns3

#endif /* RDMA_DCTCP_H */
