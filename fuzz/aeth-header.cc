/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: AethHeader (model/wire/aeth-header.h) read from arbitrary bytes.
#include "ns3/aeth-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    AethHeader aeth;
    if (!dconfuzz::ReadFixedSize(data, size, aeth))
    {
        return 0;
    }
    FUZZ_CHECK(aeth.GetSyndrome() == data[0]);
    FUZZ_CHECK(!(aeth.IsAck() && aeth.IsNak()));
    FUZZ_CHECK(aeth.GetMsn() <= AethHeader::MAX_MSN);
    FUZZ_CHECK(aeth.GetCreditCount() <= 31 && aeth.GetNakCode() <= 31);
    return 0;
}
