/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-ingress-tracker.h"

#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(DconIngressTracker);

TypeId
DconIngressTracker::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DconIngressTracker")
              .SetParent<Object>()
              .SetGroupName("Dcon")
              .AddConstructor<DconIngressTracker>()
              .AddAttribute("Window",
                            "T: a congested flow is notified only if its ingress port carried a "
                            "non-congested packet less than T ago (paper default 3 RTT; "
                            "120 us = 3 x 40 us)",
                            TimeValue(MicroSeconds(120)),
                            MakeTimeAccessor(&DconIngressTracker::m_window),
                            MakeTimeChecker(Time(1)));
    return tid;
}

DconIngressTracker::DconIngressTracker() {}

void
DconIngressTracker::SetNPorts(uint32_t nPorts)
{
    m_last.assign(nPorts, Time(-1));
}

void
DconIngressTracker::RecordNonCongested(uint32_t port)
{
    m_last.at(port) = Simulator::Now();
}

bool
DconIngressTracker::HasRecentNonCongested(uint32_t port) const
{
    Time last = m_last.at(port);
    return !last.IsStrictlyNegative() && Simulator::Now() - last < m_window;
}

Time
DconIngressTracker::GetLastNonCongested(uint32_t port) const
{
    return m_last.at(port);
}

Time
DconIngressTracker::GetWindow() const
{
    return m_window;
}

} // namespace ns3
