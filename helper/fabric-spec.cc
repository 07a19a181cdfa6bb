/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-spec.h"

namespace ns3
{

std::vector<uint32_t>
TopologySpec::GetHostIds() const
{
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < nNodes; ++i)
    {
        if (!isSwitch[i])
        {
            ids.push_back(i);
        }
    }
    return ids;
}

std::vector<uint32_t>
TopologySpec::GetSwitchIds() const
{
    std::vector<uint32_t> ids;
    for (uint32_t i = 0; i < nNodes; ++i)
    {
        if (isSwitch[i])
        {
            ids.push_back(i);
        }
    }
    return ids;
}

bool
operator==(const FlowSpec& a, const FlowSpec& b)
{
    return a.src == b.src && a.dst == b.dst && a.priorityGroup == b.priorityGroup
           && a.dport == b.dport && a.sizeBytes == b.sizeBytes && a.start == b.start;
}

bool
operator!=(const FlowSpec& a, const FlowSpec& b)
{
    return !(a == b);
}

} // namespace ns3
