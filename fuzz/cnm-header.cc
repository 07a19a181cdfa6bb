/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: CnmHeader (model/wire/cnm-header.h) read from arbitrary bytes.
#include "ns3/cnm-header.h"

#include "fuzz-common.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    CnmHeader cnm;
    if (!dconfuzz::ReadFixedSize(data, size, cnm))
    {
        return 0;
    }
    FUZZ_CHECK(cnm.GetVersion() == data[0] >> 4);
    FUZZ_CHECK(cnm.GetQntzFb() <= CnmHeader::MAX_QNTZ_FB);
    FUZZ_CHECK(cnm.GetDestQp() <= CnmHeader::MAX_DEST_QP);
    // The setters accept every value the reader produces.
    CnmHeader copy;
    copy.SetQntzFb(cnm.GetQntzFb());
    copy.SetDestQp(cnm.GetDestQp());
    copy.SetCapacity(cnm.GetCapacity());
    FUZZ_CHECK(copy.GetCapacity() == cnm.GetCapacity());
    return 0;
}
