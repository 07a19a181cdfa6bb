/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the text-input helpers (helper/text-input.h): SplitFields, ParseUnsigned
// (against a reference in 128-bit arithmetic) and the error format of Fail (the token quoted by
// QuoteText).
#include "ns3/text-input.h"

#include "fuzz-common.h"
#include "ns3/value-text.h"

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
        // The whole token is in the message, quoted (QuoteText): no control character is left
        // raw (they are \xNN), and printable ASCII is kept as it is.
        const std::string msg = e.what();
        const std::string head = "in.txt:" + std::to_string(fields.size()) + ": bad field, got ";
        FUZZ_CHECK(msg == head + QuoteText(line));
        FUZZ_CHECK(msg.size() >= head.size() + 2 && msg.back() == '\'');
        for (char c : msg)
        {
            const auto u = static_cast<unsigned char>(c);
            FUZZ_CHECK(u >= 0x20 && u != 0x7f);
        }
        for (char c : line)
        {
            if (c > 0x20 && c < 0x7f && c != '\'' && c != '\\')
            {
                FUZZ_CHECK(msg.find(c, head.size()) != std::string::npos);
            }
        }
    }
    return 0;
}
