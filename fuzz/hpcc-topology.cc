/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: ReadTopologyFile (helper/hpcc-format.h) on arbitrary text.
#include "fuzz-common.h"
#include "ns3/hpcc-format.h"

#include <stdexcept>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(dconfuzz::AsText(data, size));
    TopologySpec topo;
    try
    {
        topo = ReadTopologyFile(in, "fuzz.topo");
    }
    catch (const std::invalid_argument& e)
    {
        // The message names the input and the line: "fuzz.topo:<line>: ...".
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.topo:", 0) == 0);
        return 0;
    }
    FUZZ_CHECK(topo.nNodes > 0);
    FUZZ_CHECK(topo.isSwitch.size() == topo.nNodes);
    for (const TopologyLinkSpec& link : topo.links)
    {
        FUZZ_CHECK(link.a < topo.nNodes && link.b < topo.nNodes && link.a != link.b);
        FUZZ_CHECK(link.rate.GetBitRate() > 0);
        FUZZ_CHECK(!link.delay.IsStrictlyNegative());
    }
    if (topo.nNodes <= (1U << 20)) // the id lists of a huge node count would only test memory
    {
        FUZZ_CHECK(topo.GetHostIds().size() + topo.GetSwitchIds().size() == topo.nNodes);
    }
    return 0;
}
