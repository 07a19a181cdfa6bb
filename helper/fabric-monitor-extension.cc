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
    std::string attributeType;               //!< the type holding its attributes ("": none)
    std::string requiredType;                //!< the type a run must create for it to record
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
        || !Registrations().emplace(name, Registered{factory, outputKinds, "", ""}).second)
    {
        NS_FATAL_ERROR("FabricMonitorExtension: '" << name
                                                   << "' is empty, has no factory or is "
                                                      "registered twice");
    }
}

FabricMonitorExtension::Registration::Registration(const std::string& name,
                                                   Factory factory,
                                                   const std::vector<std::string>& outputKinds,
                                                   const std::string& attributeType,
                                                   const std::string& requiredType)
{
    if (name.empty() || factory == nullptr || attributeType.empty() || requiredType.empty()
        || !Registrations()
                .emplace(name, Registered{factory, outputKinds, attributeType, requiredType})
                .second)
    {
        NS_FATAL_ERROR("FabricMonitorExtension: '"
                       << name
                       << "' is empty, has no factory, attribute or required type, or is "
                          "registered twice");
    }
}

std::vector<TypeId>
FabricMonitorExtension::GetCreatedTypes(const std::vector<TypeId>& created)
{
    std::vector<TypeId> out;
    for (const auto& [name, r] : Registrations())
    {
        if (r.attributeType.empty())
        {
            continue;
        }
        const TypeId required = TypeId::LookupByName(r.requiredType);
        for (TypeId c : created)
        {
            if (c == required || c.IsChildOf(required))
            {
                out.push_back(TypeId::LookupByName(r.attributeType));
                break;
            }
        }
    }
    return out;
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
