/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-attributes.h"

#include "ns3/attribute-text.h"
#include "ns3/config.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

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
        // ns-3 aborts on a value it cannot read, and reads "-1" into an unsigned attribute as
        // its largest value: the text is read strictly first (ReadValueText).
        std::string::size_type sep = name.rfind("::");
        TypeId tid;
        TypeId::AttributeInformation info;
        if (sep != std::string::npos && TypeId::LookupByNameFailSafe(name.substr(0, sep), &tid)
            && tid.LookupAttributeByName(name.substr(sep + 2), &info))
        {
            if (!Config::SetDefaultFailSafe(name, *ReadValueText(info.checker, value, "--" + name)))
            {
                throw std::invalid_argument("cannot set attribute " + name + " to '" + value
                                            + "' (an attribute of a parent type?)");
            }
        }
        else if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw std::invalid_argument("cannot set attribute " + name + " to '" + value
                                        + "' (unknown attribute or invalid value)");
        }
    }
}

std::vector<std::pair<std::string, std::string>>
GetScenarioOwnedAttributes()
{
    // Every attribute the scenarios set on factories or objects (SwitchQueueSettings::Apply,
    // RdmaFabricHelper::SetCongestionControl and Build, RdmaFabric::SetCnmWindowInRtts), with
    // the option that sets it.
    return {
        {"ns3::SwitchMmu::BufferSize", "--bufferSize"},
        {"ns3::SwitchMmu::ThresholdMode", "--pfcThreshold"},
        {"ns3::SwitchMmu::Alpha", "--pfcAlpha"},
        {"ns3::SwitchMmu::XOff", "--xoff"},
        {"ns3::SwitchMmu::XOn", "--xon"},
        {"ns3::SwitchMmu::Headroom",
         "none: each switch's PFC headroom is sized from the delay and rate of its links"},
        {"ns3::RdmaNic::CongestionControl", "--cc"},
        {"ns3::RedEcnQueueDisc::Kmin", "--kmin"},
        {"ns3::RedEcnQueueDisc::Kmax", "--kmax"},
        {"ns3::RedEcnQueueDisc::Pmax", "--pmax"},
        {"ns3::DconQueueDisc::QEcn", "--qecn"},
        {"ns3::DconQueueDisc::QcnmMode", "--qcnm or --qcnmFraction (0: dynamic)"},
        {"ns3::DconQueueDisc::QCnm", "--qcnm or --qcnmFraction"},
        {"ns3::DconQueueDisc::FanOut", "--qcnmFanOut"},
        {"ns3::DconQueueDisc::FanOutMode", "--qcnmFanOutMode"},
        {"ns3::DconQueueDisc::HopDelay", "none: d is the fabric's link delay"},
        {"ns3::DconQueueDisc::MarkInBurst", "--dconMarkInBurst"},
        {"ns3::DconQueueDisc::FlowWindow", "--cnmWindowRtts"},
        {"ns3::DconIngressTracker::Window", "--cnmWindowRtts"},
    };
}

void
OwnScenarioAttributes(ProgramFrame& frame, const std::string& fallback)
{
    for (const auto& [attribute, option] : GetScenarioOwnedAttributes())
    {
        if (option.rfind("--", 0) != 0)
        {
            frame.SetOwned(attribute, option);
            continue;
        }
        const std::string name = option.substr(2, option.find(' ') - 2);
        if (frame.HasOption(name))
        {
            frame.SetOwned(attribute, "use " + option);
        }
        else if (!fallback.empty())
        {
            frame.SetOwned(attribute, fallback);
        }
    }
}

void
RejectScenarioSetAttributes(const std::vector<std::string>& attributeArgs)
{
    for (const std::string& arg : attributeArgs)
    {
        const std::string path = arg.substr(0, arg.find('='));
        for (const auto& [attribute, option] : GetScenarioOwnedAttributes())
        {
            if (path == attribute)
            {
                throw std::invalid_argument(
                    "--" + arg + ": the scenario sets " + path
                    + " from its own options and would overwrite this value; "
                    + (option.rfind("--", 0) == 0 ? "use " : "") + option);
            }
        }
        // The queue attributes an algorithm declares (RdmaCcRegistry) are set per port rate
        // on its switch queues, over any default.
        for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
        {
            for (const auto& [name, value] : e.GetQueueAttributes(DataRate("1Gbps")))
            {
                if (path == e.queueDisc + "::" + name)
                {
                    throw std::invalid_argument("--" + arg + ": --cc=" + e.name + " sets " + path
                                                + " per port rate (its registration) and would "
                                                  "overwrite this value");
                }
            }
        }
    }
}

} // namespace ns3
