/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the strict readers of value texts (model/util/value-text.h): a text is either
// refused with std::invalid_argument or gives a value within what the simulator holds, and
// what they accept ns-3's own (non-aborting) stream parsers read to the same value.
#include "ns3/value-text.h"

#include "fuzz-common.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const bool resolution = (Time::SetResolution(Time::PS), true);
    (void) resolution;
    const std::string text = dconfuzz::AsText(data, size);
    const std::string quoted = QuoteText(text);
    FUZZ_CHECK(quoted.size() >= 2 && quoted.front() == '\'' && quoted.back() == '\'');
    for (char c : quoted)
    {
        FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f);
    }
    if (auto v = ReadDecimalNumber(text))
    {
        FUZZ_CHECK(std::isfinite(*v));
    }
    if (auto v = ReadDecimalUnsigned(text, UINT32_MAX))
    {
        FUZZ_CHECK(*v <= UINT32_MAX);
    }
    try
    {
        QueueSize q = ReadQueueSizeText(text, "--q");
        std::istringstream iss(text);
        QueueSize ns3;
        iss >> ns3;
        FUZZ_CHECK(!iss.fail() && ns3 == q);
    }
    catch (const std::invalid_argument&)
    {
    }
    try
    {
        DataRate r = ReadDataRateText(text, "--r");
        std::istringstream iss(text);
        DataRate ns3;
        iss >> ns3;
        FUZZ_CHECK(!iss.fail() && ns3 == r);
    }
    catch (const std::invalid_argument&)
    {
    }
    try
    {
        Time t = ReadTimeText(text, "--t");
        FUZZ_CHECK(t <= Time::Max() && t >= Time::Min());
    }
    catch (const std::invalid_argument&)
    {
    }
    try
    {
        ReadBoolText(text, "--f");
    }
    catch (const std::invalid_argument&)
    {
    }
    return 0;
}
