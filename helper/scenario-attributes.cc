/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-attributes.h"

#include "ns3/config.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
GetAttributeArguments(int argc, char* argv[])
{
    std::vector<std::string> out;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0)
        {
            continue;
        }
        a = a.substr(2);
        std::string::size_type eq = a.find('=');
        if (a.substr(0, eq).find("::") != std::string::npos)
        {
            out.push_back(a);
        }
    }
    return out;
}

void
ApplyCcPreset(const std::string& cc,
              const std::string& preset,
              DataRate lineRate,
              const std::vector<std::string>& attributeArgs)
{
    TypeId tid = RdmaCongestionOps::LookupTypeId(cc);
    if (tid == RdmaDcqcn::GetTypeId() || tid.IsChildOf(RdmaDcqcn::GetTypeId()))
    {
        RdmaDcqcn::SetPreset(preset, lineRate);
    }
    else if (preset != "paper" && preset != "cx4")
    {
        throw std::invalid_argument("unknown DCQCN preset '" + preset + "' (known: paper, cx4)");
    }
    for (const std::string& a : attributeArgs)
    {
        std::string::size_type eq = a.find('=');
        if (eq == std::string::npos)
        {
            throw std::invalid_argument("attribute argument --" + a + " has no '=value'");
        }
        std::string name = a.substr(0, eq);
        std::string value = a.substr(eq + 1);
        // ns-3 reads "-1" into an unsigned attribute as its largest value (and a 64-bit one
        // passes the checker): reject a sign before it is taken for a huge number.
        std::string::size_type sep = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (sep != std::string::npos && TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid)
            && tid.LookupAttributeByName(name.substr(sep + 2), &info)
            && info.checker->GetValueTypeName() == "ns3::UintegerValue"
            && value.find('-') != std::string::npos)
        {
            throw std::invalid_argument("attribute " + name + " is an unsigned integer, got '"
                                        + value + "'");
        }
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw std::invalid_argument("cannot set attribute " + name + " to '" + value
                                        + "' (unknown attribute or invalid value)");
        }
    }
}

} // namespace ns3
