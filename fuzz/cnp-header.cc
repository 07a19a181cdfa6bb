/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: CnpHeader (model/wire/cnp-header.h) read from arbitrary bytes.
#include "ns3/cnp-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    CnpHeader cnp;
    if (!dconfuzz::ReadFixedSize(data, size, cnp))
    {
        return 0;
    }
    FUZZ_CHECK(cnp.IsCongested() == ((data[0] & 1) != 0));
    // The rate field in Mb/s converts to a rate and back unchanged.
    FUZZ_CHECK(cnp.GetReceiveRate().GetBitRate() == uint64_t(cnp.GetReceiveRateMbps()) * 1000000);
    CnpHeader again;
    again.SetReceiveRate(cnp.GetReceiveRate());
    FUZZ_CHECK(again.GetReceiveRateMbps() == cnp.GetReceiveRateMbps());
    return 0;
}
