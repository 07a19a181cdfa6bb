/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_RX_PERIOD_H
#define RDMA_RX_PERIOD_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-flow-state.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-nic
 * \brief The receiver's reporting period of the schemes whose receiver sends one CNP per
 * period while a flow is active (PCN's notification point, DCON's receiver in the paper's
 * reading): it counts what arrives in each period and reports it when the period ends.
 *
 * A period starts with the first packet after an idle time and is the half-open interval
 * [start, start + Period): a packet arriving exactly at the end belongs to the next period,
 * whatever the order of the two events in the scheduler. At the end of a period with packets
 * the callback gets the period's counts and the next period starts at once; a period without
 * packets reports nothing and stops the timer until the next packet (no event for an idle
 * flow). Stop() cancels the timer for good.
 */
class RdmaRxPeriod
{
public:
    /// What arrived in one period.
    struct Counts
    {
        uint32_t packets{0};   //!< packets received in the period
        uint32_t cePackets{0}; //!< of which carried ECN CE
        uint64_t bytes{0};     //!< payload bytes received in the period
        /// Largest inter-arrival time in the period (the first packet's gap to the flow's
        /// previous packet counts; zero for the flow's very first packet).
        Time maxGap;
    };

    /// Called at the end of each period that had packets.
    typedef Callback<void, const Counts&> PeriodEndCallback;

    RdmaRxPeriod();
    ~RdmaRxPeriod();

    /**
     * \brief Set the period length and the callback (before the first packet).
     * \param period the period (> 0)
     * \param cb what to call at the end of a period with packets
     */
    void Setup(Time period, PeriodEndCallback cb);

    /**
     * \brief Count a packet in the current period, starting a period if none runs.
     * \param pkt what arrived
     */
    void OnPacket(const RdmaRxPacketInfo& pkt);

    /**
     * \brief Cancel the timer; later packets are ignored.
     */
    void Stop();

    /**
     * \brief Whether a period is running.
     * \return true while the timer runs
     */
    bool IsRunning() const;

private:
    /// The current period ended.
    void PeriodEnd();

    Time m_period;
    PeriodEndCallback m_cb;
    EventId m_event;
    Counts m_counts;
    Time m_lastArrival{Time::Max()}; //!< previous packet's arrival (Max = none yet)
    bool m_stopped{false};
};

} // namespace ns3

#endif /* RDMA_RX_PERIOD_H */
