/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "trace-callback-registry.h"

#include "ns3/data-rate.h"
#include "ns3/fatal-error.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-value.h"

#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \brief The registry's storage, created on first use (registrations run during static
 * initialization, in an order the linker chooses).
 * \return the map from typedef name to sink maker
 */
std::map<std::string, TraceCallbackRegistry::SinkMaker>&
Makers()
{
    static std::map<std::string, TraceCallbackRegistry::SinkMaker> makers;
    return makers;
}

} // namespace

// The typedefs of ns-3 that dcon's trace sources name.
DCON_REGISTER_TRACE_CALLBACK(ns3::Packet::TracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::Time::TracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::TracedValueCallback::DataRate);
DCON_REGISTER_TRACE_CALLBACK(ns3::TracedValueCallback::Double);
DCON_REGISTER_TRACE_CALLBACK(ns3::TracedValueCallback::Uint32);
DCON_REGISTER_TRACE_CALLBACK(ns3::TracedValueCallback::Uint64);
DCON_REGISTER_TRACE_CALLBACK(ns3::TracedValueCallback::Bool);

TraceCallbackRegistry::Registration::Registration(const std::string& name, SinkMaker maker)
{
    if (!Makers().emplace(name, std::move(maker)).second)
    {
        NS_FATAL_ERROR("TraceCallbackRegistry: " << name << " is registered twice");
    }
}

bool
TraceCallbackRegistry::Has(const std::string& name)
{
    return Makers().count(name) > 0;
}

CallbackBase
TraceCallbackRegistry::MakeSink(const std::string& name)
{
    auto it = Makers().find(name);
    if (it == Makers().end())
    {
        throw std::invalid_argument("trace callback typedef '" + name
                                    + "' is not registered (DCON_REGISTER_TRACE_CALLBACK in the "
                                      "file that declares the trace source)");
    }
    return it->second();
}

std::vector<std::string>
TraceCallbackRegistry::GetNames()
{
    std::vector<std::string> out;
    for (const auto& [name, maker] : Makers())
    {
        out.push_back(name);
    }
    return out;
}

} // namespace ns3
