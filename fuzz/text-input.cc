/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the text-input helpers (helper/text-input.h): SplitFields, ParseUnsigned
// (against a reference in 128-bit arithmetic) and the error format of Fail.
#include "fuzz-common.h"

#include "ns3/text-input.h"

#include <cstring>
#include <stdexcept>

using namespace ns3;

namespace
{

/// ParseUnsigned's contract, computed the slow way: digits only, value <= max.
std::optional<uint64_t>
ReferenceParseUnsigned(std::string_view token, uint64_t max)
{
    if (token.empty())
    {
        return std::nullopt;
    }
    unsigned __int128 value = 0;
    for (char c : token)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        value = value * 10 + (c - '0');
        if (value > max)
        {
            return std::nullopt;
        }
    }
    return static_cast<uint64_t>(value);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string line = dconfuzz::AsText(data, size);
    const std::vector<std::string_view> fields = textinput::SplitFields(line);
    // The fields are the runs of non-separators: joined, they are the line without its
    // separators, and no field is empty or holds a separator.
    std::string joined;
    for (std::string_view f : fields)
    {
        FUZZ_CHECK(!f.empty());
        FUZZ_CHECK(f.data() >= line.data() && f.data() + f.size() <= line.data() + line.size());
        for (char c : f)
        {
            FUZZ_CHECK(!textinput::IsSpace(c));
        }
        joined += f;
    }
    std::string stripped;
    for (char c : line)
    {
        if (!textinput::IsSpace(c))
        {
            stripped += c;
        }
    }
    FUZZ_CHECK(joined == stripped);

    // ParseUnsigned on each field, with a maximum taken from the first bytes: the whole range
    // when there are 8 of them, else a small one (0 .. 255) where the digits themselves matter.
    uint64_t max = size > 0 ? data[0] : 0;
    if (size >= 8)
    {
        std::memcpy(&max, data, sizeof(max));
    }
    for (uint64_t m : {max, uint64_t(UINT64_MAX), uint64_t(UINT32_MAX), uint64_t(65535)})
    {
        for (std::string_view f : fields)
        {
            FUZZ_CHECK(textinput::ParseUnsigned(f, m) == ReferenceParseUnsigned(f, m));
        }
    }

    try
    {
        textinput::Fail("in.txt", fields.size(), "bad field", line);
    }
    catch (const std::invalid_argument& e)
    {
        // The whole token is in the message, control characters (but tab) as \xNN.
        std::string token;
        for (char c : line)
        {
            const auto u = static_cast<unsigned char>(c);
            char hex[8];
            std::snprintf(hex, sizeof(hex), "\\x%02x", u);
            token += (u < 0x20 && c != '\t') || u == 0x7f ? std::string(hex) : std::string(1, c);
        }
        const std::string expected =
            "in.txt:" + std::to_string(fields.size()) + ": bad field, got '" + token + "'";
        FUZZ_CHECK(std::string(e.what()) == expected);
    }
    return 0;
}
