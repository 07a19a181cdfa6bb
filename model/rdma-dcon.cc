/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-dcon.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcon");
NS_OBJECT_ENSURE_REGISTERED(RdmaDcon);

TypeId
RdmaDcon::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaDcon")
              .SetParent<RdmaDcqcn>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaDcon>()
              .AddAttribute("CnmHoldTime",
                            "Within this time of the last applied CNM, a CNM only lowers the rate",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaDcon::m_holdTime),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("CnmSetsTargetRate",
                            "A CNM also sets DCQCN's target rate to C/N",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaDcon::m_setsTarget),
                            MakeBooleanChecker())
              .AddTraceSource("CnmApplied",
                              "A CNM set the rate: the new rate",
                              MakeTraceSourceAccessor(&RdmaDcon::m_cnmAppliedTrace),
                              "ns3::RdmaDcon::CnmAppliedTracedCallback");
    return tid;
}

RdmaDcon::RdmaDcon() {}

RdmaDcon::~RdmaDcon() {}

std::string
RdmaDcon::GetName() const
{
    return "dcon";
}

void
RdmaDcon::OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm)
{
    m_received++;
    uint16_t n = cnm.numFlows ? cnm.numFlows : 1;
    DataRate target(cnm.capacity.GetBitRate() / n);
    Time now = Simulator::Now();
    bool inHold = !m_lastApplied.IsStrictlyNegative() && now - m_lastApplied < m_holdTime;
    if (inHold && target >= flow->m_rate.Get())
    {
        NS_LOG_DEBUG("flow " << flow->m_flowId << " ignores CNM to " << target << " (rate "
                             << flow->m_rate.Get() << ")");
        return;
    }
    m_lastApplied = now;
    m_applied++;
    ApplyExternalRate(target, m_setsTarget);
    NS_LOG_DEBUG("flow " << flow->m_flowId << " CNM N=" << n << " C=" << cnm.capacity << " -> rate "
                         << flow->m_rate.Get());
    m_cnmAppliedTrace(flow->m_rate.Get());
}

uint32_t
RdmaDcon::GetCnmsReceived() const
{
    return m_received;
}

uint32_t
RdmaDcon::GetCnmsApplied() const
{
    return m_applied;
}

} // namespace ns3
