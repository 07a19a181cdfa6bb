/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: RdmaIbcc::ParseCct (the Cct attribute of InfiniBand CC,
// model/cc/ibcc/rdma-ibcc.h) on arbitrary text: refused naming the attribute, or a non-empty,
// ascending table of inter-packet delays from 0 to 1 s.
#include "fuzz-common.h"
#include "ns3/rdma-ibcc.h"

#include <stdexcept>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::vector<Time> cct;
    try
    {
        cct = RdmaIbcc::ParseCct(dconfuzz::AsText(data, size));
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).find("ns3::RdmaIbcc::Cct") != std::string::npos);
        return 0;
    }
    FUZZ_CHECK(!cct.empty());
    for (size_t i = 0; i < cct.size(); ++i)
    {
        FUZZ_CHECK(cct[i] >= Time(0) && cct[i] <= Seconds(1));
        FUZZ_CHECK(i == 0 || cct[i] >= cct[i - 1]);
    }
    return 0;
}
