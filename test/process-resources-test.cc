/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What a run records of its own cost (helper/process-resources.h): the VmHWM reader by hand-made
// status texts, the peak after touching a known block, the CPU time after a known busy loop.

#include "ns3/process-resources.h"

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <vector>

using namespace ns3;

TEST(ProcessResources, ParsesVmHwm)
{
    std::istringstream status("Name:\tdcon-large-scale\nVmPeak:\t  900000 kB\n"
                              "VmHWM:\t   54321 kB\nVmRSS:\t   50000 kB\n");
    auto bytes = ParseVmHwmBytes(status);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_DOUBLE_EQ(*bytes, 54321.0 * 1024);
    for (const char* bad : {"VmRSS:\t 100 kB\n",
                            "VmHWM:\t abc kB\n",
                            "VmHWM:\t 12 MB\n",
                            "VmHWM:\t -5 kB\n",
                            "VmHWM:\n",
                            ""})
    {
        std::istringstream in(bad);
        EXPECT_FALSE(ParseVmHwmBytes(in).has_value()) << bad;
    }
}

// The peak counts a 96 MiB block once it is touched (resident), and never falls.
TEST(ProcessResources, PeakCountsWhatWasTouched)
{
    auto before = ProcessPeakResidentBytes();
    ASSERT_TRUE(before.has_value());
    const size_t size = 96u << 20;
    {
        std::vector<char> block(size);
        for (size_t i = 0; i < size; i += 4096)
        {
            static_cast<volatile char*>(block.data())[i] = 1;
        }
        auto during = ProcessPeakResidentBytes();
        ASSERT_TRUE(during.has_value());
        EXPECT_GE(*during, static_cast<double>(size));
        EXPECT_GE(*during, *before);
    }
    auto after = ProcessPeakResidentBytes(); // freed: the high-water mark stays
    ASSERT_TRUE(after.has_value());
    EXPECT_GE(*after, static_cast<double>(size));
}

// A busy loop of 0.2 s of CPU shows in the CPU time well before 10 s of wall time.
TEST(ProcessResources, CpuTimeAdvances)
{
    const double t0 = ProcessCpuSeconds();
    EXPECT_GT(t0, 0.0); // the test program has started, at least
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    volatile double x = 0;
    while (ProcessCpuSeconds() - t0 < 0.2 && std::chrono::steady_clock::now() < deadline)
    {
        for (int i = 0; i < 100000; ++i)
        {
            x = x + i * 1e-9;
        }
    }
    EXPECT_GE(ProcessCpuSeconds() - t0, 0.2);
}
