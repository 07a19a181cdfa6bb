/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "attribute-text.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/string.h"
#include "ns3/type-id.h"
#include "value-text.h"

#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconAttributeText");

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

/// The attributes the user gave ("ns3::Type::Name"), see SetUserAttributePaths.
std::set<std::string>&
UserAttributePaths()
{
    static std::set<std::string> paths;
    return paths;
}

/// A checker's value type without the "ns3::" that some of them carry.
std::string
ValueType(Ptr<const AttributeChecker> checker)
{
    std::string type = checker->GetValueTypeName();
    return type.rfind("ns3::", 0) == 0 ? type.substr(5) : type;
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

Ptr<AttributeValue>
ReadValueText(Ptr<const AttributeChecker> checker, const std::string& text, const std::string& what)
{
    const std::string type = ValueType(checker);
    const std::string info
        = checker->HasUnderlyingTypeInformation() ? checker->GetUnderlyingTypeInformation() : type;
    auto refuse = [&what, &text](const std::string& expected)
    {
        throw std::invalid_argument(what + ": got " + QuoteText(text) + ", " + expected);
    };
    Ptr<AttributeValue> value;
    if (type == "UintegerValue")
    {
        if (!ReadDecimalUnsigned(text, std::numeric_limits<uint64_t>::max()))
        {
            refuse("expected a non-negative integer (" + info + ")");
        }
        value = checker->CreateValidValue(StringValue(text));
    }
    else if (type == "IntegerValue")
    {
        const bool negative = !text.empty() && text[0] == '-';
        const std::string digits = text.substr(!text.empty() && (text[0] == '-' || text[0] == '+'));
        const uint64_t max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + negative;
        if (!ReadDecimalUnsigned(digits, max))
        {
            refuse("expected an integer (" + info + ")");
        }
        value = checker->CreateValidValue(StringValue(text));
    }
    else if (type == "DoubleValue")
    {
        if (!ReadDecimalNumber(text))
        {
            refuse("expected a finite decimal number (" + info + ")");
        }
        value = checker->CreateValidValue(StringValue(text));
    }
    else if (type == "BooleanValue")
    {
        if (text.empty())
        {
            refuse("expected true or false");
        }
        value = checker->CreateValidValue(BooleanValue(ReadBoolText(text, what)));
    }
    else if (type.rfind("EnumValue", 0) == 0) // ("EnumValue<T>" since ns-3.41)
    {
        bool known = false;
        std::istringstream names(info);
        std::string name;
        while (std::getline(names, name, '|'))
        {
            known = known || name == text;
        }
        if (!known)
        {
            refuse("expected one of " + info);
        }
        value = checker->CreateValidValue(StringValue(text));
    }
    else if (type == "TimeValue")
    {
        value = checker->CreateValidValue(TimeValue(ReadTimeText(text, what)));
    }
    else if (type == "DataRateValue")
    {
        value = checker->CreateValidValue(DataRateValue(ReadDataRateText(text, what)));
    }
    else if (type == "QueueSizeValue")
    {
        value = checker->CreateValidValue(QueueSizeValue(ReadQueueSizeText(text, what)));
    }
    else if (type == "StringValue")
    {
        value = checker->CreateValidValue(StringValue(text));
    }
    else if (type == "TypeIdValue")
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe(text, &tid))
        {
            refuse("expected the name of a registered type (e.g. ns3::MapScheduler)");
        }
        value = checker->CreateValidValue(TypeIdValue(tid));
    }
    else
    {
        refuse("a value of type " + checker->GetValueTypeName() + " cannot be given as text");
    }
    if (!value)
    {
        refuse("outside the range of values allowed (" + info + ")");
    }
    return value;
}

void
CheckAttributeText(TypeId tid,
                   const std::string& name,
                   const std::string& value,
                   const std::string& what)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument(what + ": " + tid.GetName() + " has no attribute '" + name
                                    + "' (--PrintAttributes=" + tid.GetName() + " lists them)");
    }
    ReadValueText(info.checker, value, what);
}

bool
FindAttributeOwner(TypeId tid, const std::string& name, TypeId* owner)
{
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == name)
            {
                *owner = t;
                return true;
            }
        }
        if (!t.HasParent() || t.GetParent() == t)
        {
            return false;
        }
    }
}

void
SetUserAttributePaths(const std::vector<std::string>& paths)
{
    UserAttributePaths() = std::set<std::string>(paths.begin(), paths.end());
}

void
AddUserAttributePath(const std::string& path)
{
    UserAttributePaths().insert(path);
}

bool
IsUserAttribute(TypeId tid, const std::string& name)
{
    TypeId owner;
    return FindAttributeOwner(tid, name, &owner)
           && UserAttributePaths().count(owner.GetName() + "::" + name) > 0;
}

void
RefuseOverwritingUserAttribute(TypeId tid, const std::string& name, const std::string& setter)
{
    const std::set<std::string>& given = UserAttributePaths();
    if (given.empty())
    {
        return;
    }
    TypeId owner;
    if (!FindAttributeOwner(tid, name, &owner))
    {
        return; // not an attribute: the setter refuses it itself
    }
    const std::string path = owner.GetName() + "::" + name;
    if (given.count(path))
    {
        throw std::invalid_argument("--" + path + ": " + setter + " sets " + path
                                    + " itself and would overwrite this value");
    }
}

} // namespace ns3
