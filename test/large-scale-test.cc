/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The large-scale experiment's scenario (paper Fig. 8), at test size: the load
// conversion by hand, bad settings rejected by name, and a 2 x 4 x 4 leaf-spine at core load 0.6
// with PFC on that completes every flow with no drop, reproducibly.

#include "ns3/atomic-output-file.h"
#include "ns3/dcon-large-scale.h"
#include "ns3/hpcc-format.h"
#include "ns3/simulator.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace ns3;
using test::Slurp;

namespace
{

/// Fixture: destroys the simulator after every test.
class LargeScale : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

/// The tiny fabric at core load 0.6, WebSearch, a 3 ms arrival window.
DconLargeScaleConfig
TinyConfig(const std::string& cc)
{
    DconLargeScaleConfig c;
    c.cc = cc;
    c.SetScale("tiny");
    c.load = 0.6;
    c.duration = MilliSeconds(3);
    c.dataDir = DCON_SOURCE_DIR "/data";
    return c;
}

} // namespace

TEST(LargeScaleLoad, CoreToHostConversion)
{
    // Paper fabric: N = 240, 24 hosts on each of 10 leaves, 8 spines, all 40 Gb/s.
    // f = 10 x 24 x 216 / (240 x 239) = 51840 / 57360 = 0.903766
    // factor = N f R_h / (L S R_f) = 240 x 0.903766 / 80 = 2.711297
    LeafSpineHelper paper(8, 10, 24);
    EXPECT_NEAR(paper.GetCoreLoadPerHostLoad(), 2.711297, 1e-6);
    // Tiny: N = 16, 4 hosts on each of 4 leaves, 2 spines.
    // f = 4 x 4 x 12 / (16 x 15) = 0.8; factor = 16 x 0.8 / 8 = 1.6
    LeafSpineHelper tiny(2, 4, 4);
    EXPECT_DOUBLE_EQ(tiny.GetCoreLoadPerHostLoad(), 1.6);
    // The same with 100 Gb/s uplinks: 16 x 40 x 0.8 / (8 x 100) = 0.64
    tiny.SetFabricLink(DataRate("100Gbps"), MicroSeconds(5));
    EXPECT_DOUBLE_EQ(tiny.GetCoreLoadPerHostLoad(), 0.64);
}

TEST_F(LargeScale, RejectsBadSettings)
{
    auto expectThrow = [](const DconLargeScaleConfig& c, const std::string& what)
    {
        test::ExpectInvalid(
            [&c]()
            {
                DconLargeScale run(c);
            },
            what);
        Simulator::Destroy();
    };
    DconLargeScaleConfig c = TinyConfig("dcon");
    c.load = -0.2;
    expectThrow(c, "-0.2");
    c = TinyConfig("dcon");
    c.load = 1.8; // core 1.8 = host 1.125 on the tiny fabric
    expectThrow(c, "1.125");
    c = TinyConfig("dcon");
    c.loadType = "edge";
    expectThrow(c, "edge");
    c = TinyConfig("dcon");
    c.workload = "websurf";
    expectThrow(c, "websurf");
    c = TinyConfig("bbr");
    expectThrow(c, "bbr");
    c = TinyConfig("dcon");
    c.leaves = 1;
    expectThrow(c, "2 leaves");
    EXPECT_THROW(TinyConfig("dcon").SetScale("huge"), std::invalid_argument);
}

TEST_F(LargeScale, TinyFabricCompletesEveryFlowWithoutDrops)
{
    // Host load 0.6 / 1.6 = 0.375; WebSearch mean 1.7 MB: per host 0.375 x 40e9 / (8 x 1.7e6)
    // = 1100 flows/s, so about 3.3 flows per host and 50 flows in 3 ms.
    DconLargeScaleConfig c = TinyConfig("dcon");
    DconLargeScale run(c);
    EXPECT_NEAR(run.GetHostLoad(), 0.375, 1e-12);
    // About 53 flows expected (16 hosts x 1100 /s x 3 ms), Poisson: standard deviation 7.3;
    // the bounds are about 3 standard deviations.
    size_t n = run.GetFlowSpecs().size();
    EXPECT_GT(n, 30u);
    EXPECT_LT(n, 76u);
    run.Run();
    RdmaNic::Stats t = run.GetFabric()->GetNicTotals();
    std::cout << n << " flows, completed " << run.GetMonitor()->GetRecords().size() << " by "
              << Simulator::Now().As(Time::MS) << "\n";
    EXPECT_EQ(run.GetMonitor()->GetRecords().size(), n);
    EXPECT_EQ(t.retransmittedPackets, 0u);
    for (uint32_t s : run.GetFabric()->GetSwitches())
    {
        for (const auto& [reason, count] : run.GetFabric()->GetSwitch(s)->GetMmu()->GetDropCounts())
        {
            EXPECT_EQ(count, 0u) << "switch " << s << " dropped for " << reason;
        }
    }
    std::string dir = ::testing::TempDir() + "/dcon-large-a";
    std::filesystem::remove_all(dir);
    run.Write(dir, 0);
    EXPECT_TRUE(std::filesystem::exists(dir + "/summary.json"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/run.json"));
    // The written flow file replays to the same flows.
    EXPECT_EQ(ReadFlowFile(dir + "/flows.txt"), run.GetFlowSpecs());
}

TEST_F(LargeScale, SameSeedSameOutputDifferentSeedDifferentFlows)
{
    std::string a = ::testing::TempDir() + "/dcon-large-r1";
    std::string b = ::testing::TempDir() + "/dcon-large-r2";
    std::vector<FlowSpec> seed1Flows;
    for (const std::string& dir : {a, b})
    {
        std::filesystem::remove_all(dir);
        DconLargeScale run(TinyConfig("dcqcn"));
        run.Run();
        run.Write(dir, 0);
        seed1Flows = run.GetFlowSpecs(); // the same both times (checked through flows.txt)
        Simulator::Destroy();
    }
    for (const char* f : {"flows.csv", "pfc.csv", "flows.txt", "run.json"})
    {
        std::string first = Slurp(a + "/" + f);
        EXPECT_GT(first.size(), 20u) << f << " is missing or empty";
        EXPECT_EQ(first, Slurp(b + "/" + f)) << f;
    }
    DconLargeScaleConfig c = TinyConfig("dcqcn");
    c.seed = 2;
    DconLargeScale other(c);
    EXPECT_NE(other.GetFlowSpecs(), seed1Flows);
}

// A safety stop with flows unfinished is marked in summary.json ("complete": false and the
// reason); a run that completes every flow and drains says "complete": true and that the
// switches hold nothing ("mmu_at_end" all 0). No ".part" file is left behind.
TEST_F(LargeScale, SummarySaysWhetherTheRunIsComplete)
{
    for (bool stopEarly : {true, false})
    {
        DconLargeScaleConfig c = TinyConfig("dcqcn");
        c.maxTime = stopEarly ? MilliSeconds(1) : Seconds(2);
        c.drain = MicroSeconds(100);
        DconLargeScale run(c);
        run.Run();
        std::string dir = ::testing::TempDir() + "/dcon-large-complete";
        std::filesystem::remove_all(dir);
        run.Write(dir, 0);
        std::string summary = Slurp(dir + "/summary.json");
        // the one run-specific line: wall time, then this process's CPU time and peak memory
        std::smatch m;
        ASSERT_TRUE(std::regex_search(summary,
                                      m,
                                      std::regex("\n  \"wall_time_s\": [0-9.e+-]+, "
                                                 "\"cpu_time_s\": ([0-9.e+-]+), "
                                                 "\"peak_rss_mib\": ([0-9.]+),\n")))
            << summary;
        EXPECT_GT(std::stod(m[1]), 0.0);
        EXPECT_GT(std::stod(m[2]), 1.0); // MiB: the program's code alone is more
        if (stopEarly)
        {
            EXPECT_NE(summary.find("\"complete\": false"), std::string::npos) << summary;
            EXPECT_NE(summary.find("flows unfinished"), std::string::npos) << summary;
        }
        else
        {
            EXPECT_NE(summary.find("\"complete\": true"), std::string::npos) << summary;
            EXPECT_NE(summary.find("\"mmu_at_end\": {\"total_bytes\": 0, \"shared_bytes\": 0, "
                                   "\"headroom_bytes\": 0, \"ingress_bytes\": 0, "
                                   "\"egress_bytes\": 0, \"paused_port_priorities\": 0}"),
                      std::string::npos)
                << summary;
        }
        for (const auto& e : std::filesystem::directory_iterator(dir))
        {
            EXPECT_NE(e.path().extension(), ".part") << e.path();
        }
        Simulator::Destroy();
    }
}

// AtomicOutputFile: the file appears under its name only when committed; abandoned, neither it
// nor its part file remains; an unwritable path is an error naming it.
TEST(AtomicOutputFile, CompleteOrAbsent)
{
    namespace fs = std::filesystem;
    fs::path dir = fs::path(::testing::TempDir()) / "dcon-atomic";
    fs::remove_all(dir);
    fs::create_directories(dir);
    {
        AtomicOutputFile f(dir / "a.csv");
        f.Stream() << "x\n";
        EXPECT_TRUE(fs::exists(dir / "a.csv.part"));
        EXPECT_FALSE(fs::exists(dir / "a.csv"));
        f.Commit();
    }
    EXPECT_EQ(Slurp((dir / "a.csv").string()), "x\n");
    EXPECT_FALSE(fs::exists(dir / "a.csv.part"));
    {
        AtomicOutputFile f(dir / "b.csv");
        f.Stream() << "half";
        // abandoned, as when an exception leaves the writer
    }
    EXPECT_FALSE(fs::exists(dir / "b.csv"));
    EXPECT_FALSE(fs::exists(dir / "b.csv.part"));
    try
    {
        AtomicOutputFile f(dir / "no-such-dir" / "c.csv");
        FAIL() << "an unwritable path was accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("c.csv"), std::string::npos) << e.what();
    }
}
