/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-input.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace textinput
{

void
Fail(const std::string& name, uint64_t line, const std::string& what, std::string_view token)
{
    std::ostringstream oss;
    oss << name << ":" << line << ": " << what << ", got '";
    static const char HEX[] = "0123456789abcdef";
    for (char c : token)
    {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
        {
            oss << "\\x" << HEX[u >> 4] << HEX[u & 0xf];
        }
        else
        {
            oss << c;
        }
    }
    oss << "'";
    throw std::invalid_argument(oss.str());
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
    if (token.empty())
    {
        return std::nullopt;
    }
    uint64_t value = 0;
    for (char c : token)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        const uint64_t digit = c - '0';
        if (digit > max || value > (max - digit) / 10)
        {
            return std::nullopt; // value * 10 + digit > max (max - digit must not wrap)
        }
        value = value * 10 + digit;
    }
    return value;
}

} // namespace textinput
} // namespace ns3
