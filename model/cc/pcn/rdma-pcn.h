/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_PCN_H
#define RDMA_PCN_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-rx-period.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup dcon-cc-pcn
 * \brief PCN, Photonic Congestion Notification (Cheng et al., NSDI 2020), end-host part.
 *
 * Works with NpEcnQueueDisc (the congestion point) in the switches.
 *
 * Receiver role (notification point), per flow: a period of T (ReceiverPeriod) runs while
 * packets arrive (RdmaRxPeriod: it starts at the first packet after an idle time; the period is
 * the half-open interval [start, start + T)). At the end of a period with packets a CNP is
 * sent with
 * congested = (CE packets >= CongestionRatio x packets) and recRate = bytes / D, where
 * D = T, or, if the first packet of the period came more than T after the flow's previous
 * packet (a slow flow), D = that inter-arrival time. The first packet of a flow has no
 * inter-arrival time and uses D = T. A period without packets sends nothing and stops the
 * timer. ComputeRate floors recRate to whole bit/s; the CNP's 32-bit RecRate field then
 * carries it in 1 Mb/s units, rounded half up (rate-field.h), so the sender reacts to the
 * rounded rate, as on the wire.
 *
 * Sender role (reaction point): rate starts at line rate, w = Wmin.
 * - congested CNP: rate = min(rate, recRate x (1 - Wmin)); w = Wmin;
 * - uncongested CNP: rate = rate (1 - w) + lineRate x w; w = w (1 - w) + Wmax x w.
 * The rate is clamped to [MinRate, lineRate] by RdmaFlowState::SetRate.
 */
class RdmaPcn : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaPcn();
    ~RdmaPcn() override;

    /**
     * \brief The short name.
     * \return "pcn"
     */
    std::string GetName() const override;

    /**
     * \brief Start the flow at line rate with w = Wmin.
     * \param flow the flow's state
     */
    void Init(Ptr<RdmaFlowState> flow) override;

    /**
     * \brief Apply PCN's decrease (congested) or increase (not congested) rule.
     * \param flow the flow's state
     * \param cnp the CNP's congestion bit and receive rate
     */
    void OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp) override;

    /**
     * \brief Cancel the receiver period timer; later packets and CNPs are ignored.
     */
    void Stop() override;

    /**
     * \brief Start the receiver role (checks ReceiverPeriod and CongestionRatio).
     * \param rx the receiver state
     * \param sendCnp how to send a CNP
     */
    void InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp) override;

    /**
     * \brief Count a received packet in the current period (starting the timer if idle).
     * \param rx the receiver state
     * \param pkt what arrived
     */
    void OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt) override;

    /**
     * \brief The current increase weight w.
     * \return w
     */
    double GetW() const;

    /**
     * \brief Whether the receiver's period timer is running.
     * \return true while running
     */
    bool IsReceiverTimerRunning() const;

    /**
     * \brief The receive rate bytes / duration, floored to whole bit/s.
     * \param bytes bytes received
     * \param duration the time they took (> 0)
     * \return the rate
     */
    static DataRate ComputeRate(uint64_t bytes, Time duration);

protected:
    void DoDispose() override;

private:
    /**
     * \brief Throw std::invalid_argument on bad sender attributes.
     * \param lineRate the flow's line rate
     */
    void CheckSenderConfig(DataRate lineRate) const;

    /// Throw std::invalid_argument on bad receiver attributes.
    void CheckReceiverConfig() const;

    /**
     * \brief End of a receiver period with packets: send the CNP.
     * \param counts what arrived in the period
     */
    void PeriodEnd(const RdmaRxPeriod::Counts& counts);

    // Attributes
    double m_wMin;            //!< Wmin
    double m_wMax;            //!< Wmax
    DataRate m_minRate;       //!< lowest sending rate
    Time m_period;            //!< T, receiver period
    double m_congestionRatio; //!< CE fraction from which a period is congested

    // Sender state
    TracedValue<double> m_w; //!< increase weight w
    bool m_stopped{false};   //!< Stop() was called

    // Receiver state
    Ptr<RdmaRxFlowState> m_rx; //!< receiver state (set by InitReceiver)
    RdmaRxPeriod m_rxPeriod;   //!< the receiver's period
};

} // namespace ns3

#endif /* RDMA_PCN_H */
