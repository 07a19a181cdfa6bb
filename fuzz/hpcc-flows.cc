/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: ReadFlowFile (helper/hpcc-format.h) on arbitrary text, with and without a
// topology, and WriteFlowFile' round trip.
#include "fuzz-common.h"
#include "ns3/hpcc-format.h"

#include <stdexcept>

using namespace ns3;

namespace
{

/// 6 nodes: hosts 0..3, switches 4 and 5.
TopologySpec
SmallTopology()
{
    TopologySpec topo;
    topo.nNodes = 6;
    topo.isSwitch = {false, false, false, false, true, true};
    return topo;
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text = dconfuzz::AsText(data, size);
    std::vector<FlowSpec> flows;
    try
    {
        std::istringstream in(text);
        flows = ReadFlowFile(in, "fuzz.flows");
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.flows:", 0) == 0);
        return 0;
    }
    for (const FlowSpec& flow : flows)
    {
        FUZZ_CHECK(flow.src != flow.dst && flow.sizeBytes > 0 && !flow.start.IsStrictlyNegative());
    }

    // Written and read back: the same flows, to the picosecond.
    std::ostringstream out;
    WriteFlowFile(out, flows);
    std::istringstream written(out.str());
    FUZZ_CHECK(ReadFlowFile(written, "written") == flows);

    // Against a topology, the reader and ValidateFlows agree on whether the flows are valid.
    static const TopologySpec topo = SmallTopology();
    bool readOk = true;
    try
    {
        std::istringstream in(text);
        FUZZ_CHECK(ReadFlowFile(in, "fuzz.flows", topo) == flows);
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.flows:", 0) == 0);
        readOk = false;
    }
    bool validOk = true;
    try
    {
        ValidateFlows(flows, topo);
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).rfind("flows[", 0) == 0);
        validOk = false;
    }
    FUZZ_CHECK(readOk == validOk);
    return 0;
}
