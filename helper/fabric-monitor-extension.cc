/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-monitor-extension.h"

#include "ns3/fatal-error.h"
#include "rdma-fabric-helper.h"

#include <map>
#include <utility>

namespace ns3
{

namespace
{

/// A registered factory and its file names.
struct Registered
{
    FabricMonitorExtension::Factory factory; //!< the factory
    std::vector<std::string> outputKinds;    //!< the files it writes
};

/**
 * \brief The registrations, created on first use (static initialization order), by name.
 * \return the map
 */
std::map<std::string, Registered>&
Registrations()
{
    static std::map<std::string, Registered> r;
    return r;
}

} // namespace

FabricMonitorExtension::Registration::Registration(const std::string& name,
                                                   Factory factory,
                                                   const std::vector<std::string>& outputKinds)
{
    if (name.empty() || factory == nullptr
        || !Registrations().emplace(name, Registered{factory, outputKinds}).second)
    {
        NS_FATAL_ERROR("FabricMonitorExtension: '" << name
                                                   << "' is empty, has no factory or is "
                                                      "registered twice");
    }
}

std::vector<Ptr<FabricMonitorExtension>>
FabricMonitorExtension::CreateAll(Ptr<RdmaFabric> fabric)
{
    std::vector<Ptr<FabricMonitorExtension>> out;
    for (const auto& [name, r] : Registrations())
    {
        if (Ptr<FabricMonitorExtension> e = r.factory(fabric))
        {
            out.push_back(e);
        }
    }
    return out;
}

std::vector<std::string>
FabricMonitorExtension::GetAllOutputKinds()
{
    std::vector<std::string> out;
    for (const auto& [name, r] : Registrations())
    {
        out.insert(out.end(), r.outputKinds.begin(), r.outputKinds.end());
    }
    return out;
}

} // namespace ns3
