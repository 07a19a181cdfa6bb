/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: FlowSizeCdf::Read (helper/flow-size-cdf.h) on arbitrary text, then the
// mean, the constructor from points and a few samples of the CDF's random variable.
#include "ns3/flow-size-cdf.h"

#include "fuzz-common.h"

#include <cmath>
#include <stdexcept>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(dconfuzz::AsText(data, size));
    std::vector<std::pair<double, double>> points;
    try
    {
        points = FlowSizeCdf::Read(in, "fuzz.cdf").GetPoints();
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.cdf:", 0) == 0);
        return 0;
    }
    FUZZ_CHECK(points.size() >= 2 && points.back().second == 1.0);
    for (size_t i = 0; i < points.size(); ++i)
    {
        FUZZ_CHECK(points[i].first >= 0 && points[i].second >= 0 && points[i].second <= 1);
        FUZZ_CHECK(i == 0
                   || (points[i].first >= points[i - 1].first
                       && points[i].second >= points[i - 1].second));
    }
    // Points that were read are valid points for the constructor as well.
    const FlowSizeCdf cdf(points);
    const double lo = points.front().first;
    const double hi = points.back().first;
    const double mean = cdf.GetMean();
    FUZZ_CHECK(mean >= lo * (1 - 1e-9) && mean <= hi * (1 + 1e-9));

    Ptr<FlowSizeRandomVariable> rv = cdf.CreateRandomVariable();
    rv->SetStream(1);
    for (int k = 0; k < 4; ++k)
    {
        const double v = rv->GetValue();
        FUZZ_CHECK(v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9));
        const uint64_t bytes = FlowSizeCdf::ToBytes(v);
        FUZZ_CHECK(bytes >= 1);
    }
    return 0;
}
