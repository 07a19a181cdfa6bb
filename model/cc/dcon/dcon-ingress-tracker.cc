/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-ingress-tracker.h"

#include "ns3/enum-accessor.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconIngressTracker");

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
                            MakeTimeChecker(Time(1)))
              .AddAttribute("Scope",
                            "Which stamps count for a flow congested at egress port e. "
                            "OtherEgress (default): packets of the ingress port that went to "
                            "another egress port not in burst congestion (Section 4.2: an "
                            "ingress carrying only congested flows needs no CNM). Port: every "
                            "packet of the ingress port whose egress was not in burst, the "
                            "congested flows' own earlier packets included (earlier reading)",
                            EnumValue(DconIngressTracker::OTHER_EGRESS),
                            MakeDconEnumAccessor(&DconIngressTracker::m_scope),
                            MakeEnumChecker(DconIngressTracker::PORT,
                                            "Port",
                                            DconIngressTracker::OTHER_EGRESS,
                                            "OtherEgress"));
    return tid;
}

DconIngressTracker::DconIngressTracker()
{
    NS_LOG_FUNCTION(this);
}

void
DconIngressTracker::SetNPorts(uint32_t nPorts)
{
    NS_LOG_FUNCTION(this << nPorts);
    m_ports.assign(nPorts, Stamps());
}

void
DconIngressTracker::RecordNonCongested(uint32_t inPort, uint32_t outPort)
{
    Stamps& s = m_ports.at(inPort);
    const Time now = Simulator::Now();
    if (outPort != s.lastEgress)
    {
        // The previous latest stamp is the latest from an egress other than the new one's.
        s.other = s.last;
        s.lastEgress = outPort;
    }
    s.last = now;
}

Time
DconIngressTracker::GetLastNonCongested(uint32_t inPort, uint32_t congestedPort) const
{
    const Stamps& s = m_ports.at(inPort);
    if (m_scope == PORT || s.lastEgress != congestedPort)
    {
        return s.last;
    }
    return s.other;
}

Time
DconIngressTracker::GetLastNonCongested(uint32_t inPort) const
{
    return m_ports.at(inPort).last;
}

bool
DconIngressTracker::HasRecentNonCongested(uint32_t inPort, uint32_t congestedPort) const
{
    const Time last = GetLastNonCongested(inPort, congestedPort);
    return !last.IsStrictlyNegative() && Simulator::Now() - last < m_window;
}

Time
DconIngressTracker::GetWindow() const
{
    return m_window;
}

DconIngressTracker::Scope
DconIngressTracker::GetScope() const
{
    return m_scope;
}

} // namespace ns3
