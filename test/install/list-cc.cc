/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The smallest program against the installed dcon (test/install-test.sh builds it with
// pkg-config): prints the registered congestion controls, one a line (name, switch queue,
// summary), and where the installed data files are.

#include "ns3/flow-size-cdf.h"
#include "ns3/rdma-cc-registry.h"

#include <iostream>

int
main()
{
    std::cout << ns3::RdmaCcRegistry::GetListing();
    std::cout << "data: " << ns3::FlowSizeCdf::GetDataDir() << "\n";
    return 0;
}
