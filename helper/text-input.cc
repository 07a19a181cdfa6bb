/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-input.h"

#include "ns3/value-text.h"

#include <stdexcept>

namespace ns3
{
namespace textinput
{

void
Fail(const std::string& name, uint64_t line, const std::string& what, std::string_view token)
{
    throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what + ", got "
                                + QuoteText(token));
}

std::vector<std::string_view>
SplitFields(std::string_view line)
{
    std::vector<std::string_view> fields;
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end)
    {
        while (p < end && IsSpace(*p))
        {
            ++p;
        }
        const char* start = p;
        while (p < end && !IsSpace(*p))
        {
            ++p;
        }
        if (p > start)
        {
            fields.emplace_back(start, p - start);
        }
    }
    return fields;
}

std::optional<uint64_t>
ParseUnsigned(std::string_view token, uint64_t max)
{
    return ReadDecimalUnsigned(token, max);
}

} // namespace textinput
} // namespace ns3
