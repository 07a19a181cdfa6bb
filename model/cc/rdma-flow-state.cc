/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-state.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowState");
NS_OBJECT_ENSURE_REGISTERED(RdmaFlowState);
NS_OBJECT_ENSURE_REGISTERED(RdmaRxFlowState);

TypeId
RdmaFlowState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaFlowState")
                            .SetParent<Object>()
                            .SetGroupName("Dcon")
                            .AddConstructor<RdmaFlowState>()
                            .AddTraceSource("Rate",
                                            "Current sending rate",
                                            MakeTraceSourceAccessor(&RdmaFlowState::m_rate),
                                            "ns3::TracedValueCallback::DataRate")
                            .AddTraceSource("TargetRate",
                                            "Target rate",
                                            MakeTraceSourceAccessor(&RdmaFlowState::m_targetRate),
                                            "ns3::TracedValueCallback::DataRate")
                            .AddTraceSource("CongestionWindow",
                                            "Congestion window in bytes (0 = none)",
                                            MakeTraceSourceAccessor(&RdmaFlowState::m_cwnd),
                                            "ns3::TracedValueCallback::Uint64")
                            .AddTraceSource("RttSample",
                                            "An RTT sample the NIC measured (for algorithms "
                                            "that want RTT samples)",
                                            MakeTraceSourceAccessor(&RdmaFlowState::m_rttSample),
                                            "ns3::Time::TracedCallback");
    return tid;
}

RdmaFlowState::RdmaFlowState()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaFlowState::SetRate(DataRate rate, DataRate minRate)
{
    uint64_t bps = std::max(rate.GetBitRate(), minRate.GetBitRate());
    bps = std::min(bps, m_lineRate.GetBitRate());
    m_rate = DataRate(bps);
}

double
RdmaFlowState::GetRateBps() const
{
    return static_cast<double>(m_rate.Get().GetBitRate());
}

uint64_t
RdmaFlowState::GetBytesInFlight() const
{
    return m_sndNxt - m_sndUna;
}

TypeId
RdmaRxFlowState::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaRxFlowState")
                            .SetParent<Object>()
                            .SetGroupName("Dcon")
                            .AddConstructor<RdmaRxFlowState>();
    return tid;
}

} // namespace ns3
