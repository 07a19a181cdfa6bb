/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-switch-agent.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitchAgent");
NS_OBJECT_ENSURE_REGISTERED(RdmaSwitchAgent);

TypeId
RdmaSwitchAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaSwitchAgent").SetParent<Object>().SetGroupName("Dcon");
    return tid;
}

void
RdmaSwitchAgent::SetWindow(Time window)
{
    NS_LOG_FUNCTION(this << window);
}

std::vector<std::pair<TypeId, std::string>>
RdmaSwitchAgent::GetWindowAttributes() const
{
    return {};
}

std::vector<TypeId>
RdmaSwitchAgent::GetCreatedTypes() const
{
    return {};
}

} // namespace ns3
