/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: PfcHeader (IEEE 802.1Qbb PFC frame, model/wire/pfc-header.h) read from
// arbitrary bytes, and the pause-time conversions a receiver applies to its fields.
#include "ns3/pfc-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    PfcHeader pfc;
    if (!dconfuzz::ReadFixedSize(data, size, pfc))
    {
        return 0;
    }
    FUZZ_CHECK(pfc.GetOpcode() == ((data[0] << 8) | data[1]));
    static const DataRate rates[] = {DataRate("1Mbps"), DataRate("40Gbps"), DataRate("400Gbps")};
    for (uint8_t p = 0; p < PfcHeader::NUM_PRIORITIES; ++p)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetPauseTime(p);
        for (const DataRate& rate : rates)
        {
            const Time t = PfcHeader::QuantaToTime(quanta, rate);
            FUZZ_CHECK(!t.IsStrictlyNegative());
            FUZZ_CHECK(PfcHeader::TimeToQuanta(t, rate) <= quanta);
        }
    }
    return 0;
}
