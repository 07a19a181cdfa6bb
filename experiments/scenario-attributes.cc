/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-attributes.h"

#include "ns3/attribute-text.h"
#include "ns3/config.h"
#include "ns3/object-factory.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/string.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ns3
{

std::string
ParameterSetFor(const std::string& cc, const std::string& set)
{
    const std::vector<std::string> own = RdmaCcRegistry::Lookup(cc).GetParameterSetNames();
    if (std::find(own.begin(), own.end(), set) != own.end())
    {
        return set;
    }
    std::set<std::string> known;
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        for (const std::string& n : e.GetParameterSetNames())
        {
            known.insert(n);
        }
    }
    if (!known.count(set))
    {
        std::string list;
        for (const std::string& n : known)
        {
            list += (list.empty() ? "" : ", ") + n;
        }
        throw std::invalid_argument("unknown parameter set '" + set + "' (known: " + list + ")");
    }
    return "";
}

void
RefuseUnreadParameterSet(const std::string& option,
                         const std::string& cc,
                         const std::string& set,
                         const std::vector<std::string>& choices,
                         DataRate lineRate)
{
    const RdmaCcEntry entry = RdmaCcRegistry::Lookup(cc);
    const std::vector<std::string> own = entry.GetParameterSetNames();
    auto has = [&own](const std::string& s)
    {
        return std::find(own.begin(), own.end(), s) != own.end();
    };
    if (!has(set))
    {
        return; // not applied at all (ProgramFrame::CheckUse refuses the option)
    }
    const TypeId tid = RdmaCongestionOps::LookupTypeId(cc);
    const auto values = entry.GetParameterValues(set, lineRate);
    ObjectFactory f;
    f.SetTypeId(tid);
    for (const auto& [attribute, value] : values)
    {
        if (!IsUserAttribute(tid, attribute))
        {
            f.Set(attribute, StringValue(value));
        }
    }
    const std::vector<RdmaCongestionOps::UnreadAttribute> unread
        = f.Create<RdmaCongestionOps>()->GetUnreadAttributes();
    if (unread.empty())
    {
        return;
    }
    auto isUnread = [&unread](const std::string& a)
    {
        return std::any_of(unread.begin(),
                           unread.end(),
                           [&a](const RdmaCongestionOps::UnreadAttribute& u)
                           {
                               return u.attribute == a;
                           });
    };
    std::vector<std::pair<std::string, std::string>> read;
    for (const auto& [attribute, value] : values)
    {
        if (!isUnread(attribute) && !IsUserAttribute(tid, attribute))
        {
            read.emplace_back(attribute, value);
        }
    }
    std::vector<std::string> alike{set};
    for (const std::string& other : choices)
    {
        if (other == set || !has(other))
        {
            continue;
        }
        for (const auto& [attribute, value] : read)
        {
            bool same = false;
            for (const auto& [a, v] : entry.GetParameterValues(other, lineRate))
            {
                same = same || (a == attribute && v == value);
            }
            if (!same)
            {
                return; // the choice changes what the algorithm reads
            }
        }
        alike.push_back(other);
    }
    if (alike.size() < 2)
    {
        return;
    }
    auto join = [](const std::vector<std::string>& names)
    {
        std::string out;
        for (std::size_t i = 0; i < names.size(); ++i)
        {
            out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        }
        return out;
    };
    std::vector<std::string> readNames;
    for (const auto& [attribute, value] : read)
    {
        readNames.push_back(attribute);
    }
    throw std::invalid_argument(
        "--" + option + "=" + set + " does not apply: it changes nothing in this run, as "
        + tid.GetName() + " with " + unread.front().inUse + " reads, of the values the sets "
        + join(alike) + " give, only " + (readNames.empty() ? "none" : join(readNames))
        + ", which they give alike (the others are read with "
        + (unread.front().readers.empty() ? "no mode" : unread.front().readers.front()) + ")");
}

std::vector<std::string>
ParameterSetUsers(const std::string& set)
{
    std::vector<std::string> out;
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        const std::vector<std::string> sets = e.GetParameterSetNames();
        if (std::find(sets.begin(), sets.end(), set) != sets.end())
        {
            out.push_back(e.typeId().GetName());
        }
    }
    return out;
}

std::vector<std::string>
SwitchAgentWindowQueues()
{
    std::vector<std::string> out;
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        if (e.switchAgent.empty() || std::find(out.begin(), out.end(), e.queueDisc) != out.end())
        {
            continue;
        }
        ObjectFactory f;
        f.SetTypeId(e.switchAgent);
        if (!f.Create<RdmaSwitchAgent>()->GetWindowAttributes().empty())
        {
            out.push_back(e.queueDisc);
        }
    }
    return out;
}

void
ApplyAttributeArguments(const std::vector<std::string>& attributeArgs)
{
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
            TypeId owner;
            if (FindAttributeOwner(tid, name.substr(sep + 2), &owner))
            {
                AddUserAttributePath(owner.GetName() + "::" + name.substr(sep + 2));
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
    // RdmaFabricHelper::SetCongestionControl and Build, RdmaFabric::SetSwitchAgentWindowInRtts),
    // with the option that sets it: the fabric's own, then what each queue discipline declares
    // (RdmaQueueRegistry), then the switch agents' window (--cnmWindowRtts).
    std::vector<std::pair<std::string, std::string>> owned{
        {"ns3::SwitchMmu::BufferSize", "--bufferSize"},
        {"ns3::SwitchMmu::ThresholdMode", "--pfcThreshold"},
        {"ns3::SwitchMmu::Alpha", "--pfcAlpha"},
        {"ns3::SwitchMmu::XOff", "--xoff"},
        {"ns3::SwitchMmu::XOn", "--xon"},
        {"ns3::SwitchMmu::Headroom",
         "none: each switch's PFC headroom is sized from the delay and rate of its links"},
        {"ns3::RdmaNic::CongestionControl", "--cc"},
    };
    for (const RdmaQueueEntry& q : RdmaQueueRegistry::GetAll())
    {
        for (const RdmaQueueEntry::Setting& st : q.settings)
        {
            owned.emplace_back(q.typeName + "::" + st.attribute, st.setter);
        }
    }
    std::set<std::string> agents;
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        if (!e.switchAgent.empty() && agents.insert(e.switchAgent).second)
        {
            ObjectFactory f;
            f.SetTypeId(e.switchAgent);
            for (const auto& [tid, attribute] : f.Create<RdmaSwitchAgent>()->GetWindowAttributes())
            {
                owned.emplace_back(tid.GetName() + "::" + attribute, "--cnmWindowRtts");
            }
        }
    }
    return owned;
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
