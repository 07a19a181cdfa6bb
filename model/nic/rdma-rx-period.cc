/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-rx-period.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRxPeriod");

RdmaRxPeriod::RdmaRxPeriod()
{
    NS_LOG_FUNCTION(this);
}

RdmaRxPeriod::~RdmaRxPeriod()
{
    m_event.Cancel();
}

void
RdmaRxPeriod::Setup(Time period, PeriodEndCallback cb)
{
    NS_LOG_FUNCTION(this << period);
    if (!period.IsStrictlyPositive())
    {
        throw std::invalid_argument("RdmaRxPeriod: the period must be > 0, got "
                                    + std::to_string(period.GetNanoSeconds()) + " ns");
    }
    m_period = period;
    m_cb = cb;
}

void
RdmaRxPeriod::OnPacket(const RdmaRxPacketInfo& pkt)
{
    if (m_stopped)
    {
        return;
    }
    if (m_cb.IsNull())
    {
        throw std::logic_error("RdmaRxPeriod::OnPacket called before Setup");
    }
    const Time now = Simulator::Now();
    // A packet arriving exactly when the period ends belongs to the next period.
    if (!m_event.IsExpired() && Simulator::GetDelayLeft(m_event).IsZero())
    {
        m_event.Cancel();
        PeriodEnd();
    }
    if (m_event.IsExpired())
    {
        m_event = Simulator::Schedule(m_period, &RdmaRxPeriod::PeriodEnd, this);
        m_counts = Counts();
    }
    if (m_lastArrival != Time::Max())
    {
        m_counts.maxGap = std::max(m_counts.maxGap, now - m_lastArrival);
    }
    m_lastArrival = now;
    m_counts.packets++;
    m_counts.bytes += pkt.payloadBytes;
    if (pkt.ce)
    {
        m_counts.cePackets++;
    }
}

void
RdmaRxPeriod::PeriodEnd()
{
    if (m_counts.packets == 0)
    {
        return; // an idle period: nothing to report, and the timer stops until the next packet
    }
    Counts c = m_counts;
    m_counts = Counts();
    m_event = Simulator::Schedule(m_period, &RdmaRxPeriod::PeriodEnd, this);
    m_cb(c);
}

void
RdmaRxPeriod::Stop()
{
    m_stopped = true;
    m_event.Cancel();
}

bool
RdmaRxPeriod::IsRunning() const
{
    return !m_event.IsExpired();
}

} // namespace ns3
