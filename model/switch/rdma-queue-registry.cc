/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-registry.h"

#include "ns3/fatal-error.h"

#include <map>

namespace ns3
{

namespace
{

/**
 * \brief The registry's storage, created on first use (registrations run during static
 * initialization). Keyed by short name, so listings are ordered.
 * \return the map from short name to entry
 */
std::map<std::string, RdmaQueueEntry>&
Entries()
{
    static std::map<std::string, RdmaQueueEntry> entries;
    return entries;
}

} // namespace

std::string
RdmaQueueEntry::GetAttribute(const std::string& option) const
{
    for (const Setting& s : settings)
    {
        if (s.setter == "--" + option)
        {
            return s.attribute;
        }
    }
    return "";
}

std::vector<std::string>
RdmaQueueEntry::GetOptions() const
{
    std::vector<std::string> out;
    for (const Setting& s : settings)
    {
        if (s.setter.rfind("--", 0) == 0 && s.setter.find(' ') == std::string::npos)
        {
            out.push_back(s.setter.substr(2));
        }
    }
    return out;
}

RdmaQueueRegistry::Registration::Registration(const RdmaQueueEntry& entry)
{
    if (entry.name.empty() || entry.typeName.empty())
    {
        NS_FATAL_ERROR("RdmaQueueRegistry: an entry needs a name and a TypeId name (name '"
                       << entry.name << "')");
    }
    for (const auto& [name, e] : Entries())
    {
        if (e.typeName == entry.typeName)
        {
            NS_FATAL_ERROR("RdmaQueueRegistry: " << entry.typeName << " is registered twice");
        }
    }
    if (!Entries().emplace(entry.name, entry).second)
    {
        NS_FATAL_ERROR("RdmaQueueRegistry: queue '" << entry.name << "' is registered twice");
    }
}

std::vector<RdmaQueueEntry>
RdmaQueueRegistry::GetAll()
{
    std::vector<RdmaQueueEntry> out;
    for (const auto& [name, e] : Entries())
    {
        out.push_back(e);
    }
    return out;
}

RdmaQueueEntry
RdmaQueueRegistry::Lookup(const std::string& name)
{
    for (const auto& [n, e] : Entries())
    {
        if (n == name || e.typeName == name)
        {
            return e;
        }
    }
    RdmaQueueEntry none;
    none.typeName = name;
    return none;
}

std::vector<std::string>
RdmaQueueRegistry::GetFeedback(TypeId queueDisc)
{
    for (TypeId t = queueDisc;; t = t.GetParent())
    {
        for (const auto& [name, e] : Entries())
        {
            if (e.typeName == t.GetName())
            {
                return e.feedback;
            }
        }
        if (t.GetParent() == t)
        {
            return {};
        }
    }
}

std::vector<std::string>
RdmaQueueRegistry::GetNames()
{
    std::vector<std::string> out;
    for (const auto& [name, e] : Entries())
    {
        out.push_back(name);
    }
    return out;
}

} // namespace ns3
