/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "attribute-text.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Whether \p value reads as one T to its end, as ns-3's attribute parsers read it.
template <typename T>
bool
ReadsAs(const std::string& value)
{
    std::istringstream iss(value);
    T v{};
    iss >> v;
    return !iss.fail() && iss.eof();
}
} // namespace

void
CheckAttributeNumberText(TypeId tid,
                         const std::string& name,
                         const std::string& value,
                         const std::string& what)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return;
    }
    const std::string type = info.checker->GetValueTypeName();
    bool ok = true;
    if (type == "ns3::UintegerValue")
    {
        ok = ReadsAs<uint64_t>(value) && value.find('-') == std::string::npos;
    }
    else if (type == "ns3::IntegerValue")
    {
        ok = ReadsAs<int64_t>(value);
    }
    else if (type == "ns3::DoubleValue")
    {
        ok = ReadsAs<double>(value);
    }
    if (!ok)
    {
        throw std::invalid_argument(what + ": attribute '" + name + "' of " + tid.GetName()
                                    + " takes a number (" + type + "), got '" + value + "'");
    }
}

} // namespace ns3
