/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: LstmPredictor::Parse (RTT-PID's weight file, model/cc/rttpid/lstm-predictor.h)
// on arbitrary text: refused with the file name and line, or a predictor that runs.
#include "fuzz-common.h"
#include "ns3/lstm-predictor.h"

#include <stdexcept>
#include <vector>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<const LstmPredictor> p;
    try
    {
        p = LstmPredictor::Parse(dconfuzz::AsText(data, size), "fuzz.txt");
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).find("fuzz.txt:") != std::string::npos);
        return 0;
    }
    FUZZ_CHECK(p->GetHidden() >= 1 && p->GetHidden() <= 1024);
    FUZZ_CHECK(p->GetSteps() >= 1 && p->GetSteps() <= 1024);
    // Any accepted file runs (finite weights; extreme ones may still sum to an infinity).
    const std::vector<double> xs(p->GetSteps(), 0.05);
    volatile double out = p->Predict(xs);
    (void) out;
    return 0;
}
