/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWIFT_H
#define RDMA_SWIFT_H

#include "ns3/rdma-congestion-ops.h"

namespace ns3
{

/**
 * \ingroup dcon-cc-swift
 * \brief Swift (Kumar et al., SIGCOMM 2020): delay-based window control with pacing below one
 * packet.
 *
 * On each ACK with an RTT sample (the NIC's send-time measurement, like Swift's NIC
 * timestamps; RdmaCongestionOps::WantsRttSamples):
 * \verbatim
 *   target = BaseTarget + hops x PerHopDelay + fs_delay(cwnd)
 *   fs_delay = clamp(a / sqrt(cwnd) + b, 0, FsRange),
 *     a = FsRange / (1/sqrt(FsMinCwnd) - 1/sqrt(FsMaxCwnd)),  b = -a / sqrt(FsMaxCwnd)
 *   delay < target:  cwnd += Ai x acked / cwnd   (cwnd >= 1)   or   cwnd += Ai x acked  (cwnd < 1)
 *   delay >= target, no decrease within the last RTT:
 *                    cwnd *= max(1 - BetaMd (delay - target) / delay, 1 - MaxMdf)
 *   cwnd in [MinCwnd, MaxCwnd] (packets)
 * \endverbatim
 * "acked" is in packets (newly acknowledged bytes / MTU). The NIC window is cwnd x MTU bytes;
 * below one packet the window is one packet and the flow is paced at cwnd x MTU / RTT (the last
 * RTT sample, the base RTT before the first one). Defaults suit the 40 Gb/s, 40 us fabric of
 * the DCON experiments: BaseTarget 50 us (the 40 us base RTT plus 10 us, about 50 KB of queue
 * at 40 Gb/s; Swift's target must exceed the base RTT), PerHopDelay 1 us, FsRange 50 us,
 * FsMinCwnd 0.1, FsMaxCwnd 256, Ai 1, BetaMd 0.8, MaxMdf 0.5, MinCwnd 0.001, MaxCwnd 256. The
 * initial window is InitialCwnd, or (0, default) the bandwidth-delay product of the line rate
 * and the base RTT. Retransmission and timeout reactions of Swift are not modelled (PFC makes
 * the fabric lossless).
 */
class RdmaSwift : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaSwift();
    ~RdmaSwift() override;

    std::string GetName() const override;
    void Init(Ptr<RdmaFlowState> flow) override;
    void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override;
    bool WantsRttSamples() const override;

    /**
     * \brief The target delay for a window and hop count.
     * \param cwnd window in packets
     * \param hops switch hops
     * \return the target
     */
    Time GetTargetDelay(double cwnd, uint32_t hops) const;

    /**
     * \brief The window in packets.
     * \return cwnd
     */
    double GetCwnd() const;

    /**
     * \brief Set the window (packets) and apply it to the flow (window and pacing rate).
     * \param flow the flow
     * \param cwnd the window in packets (clamped to [MinCwnd, MaxCwnd])
     */
    void SetCwnd(Ptr<RdmaFlowState> flow, double cwnd);

private:
    double m_ai;
    double m_betaMd;
    double m_maxMdf;
    Time m_baseTarget;
    Time m_perHop;
    Time m_fsRange;
    double m_fsMinCwnd;
    double m_fsMaxCwnd;
    double m_minCwnd;
    double m_maxCwnd;
    double m_initialCwnd;
    double m_cwnd{1};
    Time m_lastDecrease{Time(-1)};
    Time m_rtt; //!< last RTT sample (base RTT before the first)
};

} // namespace ns3

#endif /* RDMA_SWIFT_H */
