/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: BthHeader (model/wire/bth-header.h) read from arbitrary bytes.
#include "ns3/bth-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    BthHeader bth;
    if (!dconfuzz::ReadFixedSize(data, size, bth))
    {
        return 0;
    }
    FUZZ_CHECK(bth.GetOpcode() == data[0]);
    FUZZ_CHECK(bth.GetDestQp() <= BthHeader::MAX_24BIT && bth.GetPsn() <= BthHeader::MAX_24BIT);
    FUZZ_CHECK(bth.GetPadCount() <= 3 && bth.GetTransportVersion() <= 15);
    return 0;
}
