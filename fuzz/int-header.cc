/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: IntHeader (HPCC's hop records, model/wire/int-header.h) read from arbitrary
// bytes: what is read is written back and reads the same (the reserved bytes are written as
// zero), and every record's fields stay in range.
#include "ns3/int-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    IntHeader h;
    const uint32_t n = dconfuzz::DeserializeAndCheck(data, size, h);
    if (n == 0)
    {
        return 0;
    }
    FUZZ_CHECK(h.GetNHops() <= IntHeader::MAX_HOPS);
    FUZZ_CHECK(n == IntHeader::BASE_BYTES + IntHeader::HOP_BYTES * h.GetNHops());
    FUZZ_CHECK(data[0] == h.GetNHops());
    for (uint32_t k = 0; k < h.GetNHops(); ++k)
    {
        const IntHop& hop = h.GetHop(k);
        FUZZ_CHECK(hop.GetRateCode() <= 15);
        FUZZ_CHECK(hop.GetTimeNs() < (1u << 24) && hop.GetBytesField() < (1u << 20));
        FUZZ_CHECK(IntHop::FromWord(hop.GetWord()).GetWord() == hop.GetWord());
        // Deltas against itself are zero; against any record they stay within the fields' wrap.
        FUZZ_CHECK(hop.GetTimeDeltaNs(hop) == 0 && hop.GetBytesDelta(hop) == 0);
        const IntHop& first = h.GetHop(0);
        FUZZ_CHECK(hop.GetTimeDeltaNs(first) < (1u << 24));
    }
    return 0;
}
