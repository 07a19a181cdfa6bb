/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-cc-registry.h"

#include "ns3/attribute-text.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/rdma-queue-registry.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcRegistry");

namespace
{

/**
 * \brief The registry's storage, created on first use (registrations run during static
 * initialization, in an order the linker chooses). Keyed by name, so listings are ordered.
 * \return the map from short name to entry
 */
std::map<std::string, RdmaCcEntry>&
Entries()
{
    static std::map<std::string, RdmaCcEntry> entries;
    return entries;
}

} // namespace

std::vector<RdmaCcEntry::QueueAttribute>
RdmaCcEntry::GetQueueAttributes(DataRate portRate) const
{
    return queueAttributes ? queueAttributes(portRate) : std::vector<QueueAttribute>{};
}

std::string
RdmaCcEntry::GetQueueProblem(TypeId queue) const
{
    const std::vector<std::string> given = RdmaQueueRegistry::GetFeedback(queue);
    std::vector<std::string> missing;
    for (const std::string& f : feedback)
    {
        if (std::find(given.begin(), given.end(), f) == given.end())
        {
            missing.push_back(f);
        }
    }
    if (missing.empty())
    {
        return "";
    }
    auto join = [](const std::vector<std::string>& v)
    {
        std::string out;
        for (std::size_t i = 0; i < v.size(); ++i)
        {
            out += (i == 0 ? "" : (i + 1 == v.size() ? " and " : ", ")) + v[i];
        }
        return out.empty() ? std::string("none") : out;
    };
    return "congestion control '" + name + "' cannot work over the switch queue " + queue.GetName()
           + ": it needs " + join(feedback) + " feedback from the queue, and " + queue.GetName()
           + " gives " + join(given) + " (no " + join(missing) + "); use " + queueDisc
           + ", the queue '" + name + "' declares";
}

const RdmaCcParameterSet&
RdmaCcEntry::GetParameterSet(const std::string& set) const
{
    for (const RdmaCcParameterSet& p : parameterSets)
    {
        if (p.name == set)
        {
            return p;
        }
    }
    std::string known;
    for (const std::string& n : GetParameterSetNames())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown parameter set '" + set + "' of congestion control '" + name
                                + "' (known: " + (known.empty() ? "none" : known) + ")");
}

std::vector<std::string>
RdmaCcEntry::GetParameterSetNames() const
{
    std::vector<std::string> out;
    for (const RdmaCcParameterSet& p : parameterSets)
    {
        out.push_back(p.name);
    }
    return out;
}

std::vector<RdmaCcParameterSet::Value>
RdmaCcEntry::GetParameterValues(const std::string& set, DataRate lineRate) const
{
    const RdmaCcParameterSet& p = GetParameterSet(set);
    std::vector<RdmaCcParameterSet::Value> values = p.values(lineRate);
    const TypeId tid = typeId();
    for (const auto& [attribute, value] : values)
    {
        CheckAttributeText(tid,
                           attribute,
                           value,
                           "parameter set '" + set + "' of '" + name + "', attribute " + attribute);
    }
    return values;
}

RdmaCcRegistry::Registration::Registration(const RdmaCcEntry& entry)
{
    RdmaCcRegistry::Add(entry);
}

void
RdmaCcRegistry::Add(const RdmaCcEntry& entry)
{
    if (entry.name.empty() || entry.typeId == nullptr || entry.queueDisc.empty())
    {
        NS_FATAL_ERROR("RdmaCcRegistry: an entry needs a name, a TypeId and a queue disc (name '"
                       << entry.name << "')");
    }
    if (!Entries().emplace(entry.name, entry).second)
    {
        NS_FATAL_ERROR("RdmaCcRegistry: congestion control '" << entry.name
                                                              << "' is registered twice");
    }
}

std::vector<RdmaCcEntry>
RdmaCcRegistry::GetAll()
{
    std::vector<RdmaCcEntry> out;
    for (const auto& [name, e] : Entries())
    {
        out.push_back(e);
    }
    return out;
}

std::vector<std::string>
RdmaCcRegistry::GetNames()
{
    std::vector<std::string> out;
    for (const auto& [name, e] : Entries())
    {
        out.push_back(name);
    }
    return out;
}

std::string
RdmaCcRegistry::GetNameList()
{
    std::string out;
    for (const auto& [name, e] : Entries())
    {
        out += (out.empty() ? "" : ", ") + name;
    }
    return out;
}

RdmaCcEntry
RdmaCcRegistry::Lookup(const std::string& name)
{
    auto it = Entries().find(name);
    if (it != Entries().end())
    {
        return it->second;
    }
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(name, &tid))
    {
        // The TypeId itself or its nearest registered parent.
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (const auto& [n, e] : Entries())
            {
                if (e.typeId() == t)
                {
                    return e;
                }
            }
            if (t.GetParent() == t)
            {
                break;
            }
        }
    }
    throw std::invalid_argument("unknown congestion control '" + name + "'; known: " + GetNameList()
                                + " (or an algorithm's TypeId name)");
}

std::string
RdmaCcRegistry::GetSwitchAgentFor(TypeId queueDisc)
{
    for (const auto& [name, e] : Entries())
    {
        if (e.switchAgent.empty())
        {
            continue;
        }
        TypeId q;
        if (TypeId::LookupByNameFailSafe(e.queueDisc, &q)
            && (queueDisc == q || queueDisc.IsChildOf(q)))
        {
            return e.switchAgent;
        }
    }
    return "";
}

std::string
RdmaCcRegistry::GetCommandLineHelp()
{
    return "Congestion control: " + GetNameList()
           + "; the switch egress queue follows the algorithm (--list-cc prints each one's)";
}

std::string
RdmaCcRegistry::GetListing()
{
    std::ostringstream out;
    for (const auto& [name, e] : Entries())
    {
        out << name << "\t" << e.queueDisc << "\t" << e.summary << "\n";
    }
    return out.str();
}

} // namespace ns3
