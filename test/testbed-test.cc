/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The DCON paper's testbed (dcon.md 3.1, Fig. 1/2) with DCQCN: the burst to R1 congests L2,
// L2 pauses S1, S1 pauses L0 and L1 (congestion spreading), and the innocent flow f0 (H0 -> R0,
// which never crosses the congested port to R1) collapses during the burst and recovers after.
//
// Default DconTestbedConfig: f0, f1 from t = 0; burst from 30 ms: 14 senders x 35 flows x
// 64 KB = 31.36 MB to R1. Even back to back at R1's goodput ceiling (40 x 1000 / 1082 =
// 36.97 Gb/s) that takes 31.36e6 x 8 / 36.97e9 = 6.8 ms, and the flows are released over
// 34 x burstInterval (7.8 ms with the default 230 us), so burstStart .. burstStart + 7 ms is
// inside the burst. The run takes ~3 s (Release build).
//
// Measured (default config, 2026-11-21): PAUSE frames L2->S1 13, S1->L0 2, S1->L1 2; f0 averages
// 16.45 Gb/s in the 2 ms before the burst, 3.65 Gb/s during it (22%), 16.66 Gb/s in the last
// 3 ms. (With the earlier default burstInterval of 15 us the burst was much denser: L2->S1 128,
// S1->L0 82, S1->L1 78, f0 1.03 Gb/s during the burst.) The no-burst control: no PAUSE from L2
// to S1, f0 16.45 Gb/s before and 17.44 Gb/s in the same 7 ms window.

#include "ns3/dcon-testbed.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <iostream>

using namespace ns3;

namespace
{

/// Fixture: destroys the simulator after every test, also when an ASSERT ended it early, so
/// that tests stay independent when run together in one process.
class Testbed : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(Testbed, DcqcnBurstSpreadsCongestion)
{
    DconTestbedConfig cfg; // cc "dcqcn", paper preset, burst at 30 ms, stop at 60 ms
    DconTestbed tb(cfg);
    tb.Run();
    DconTestbedFacts f = tb.GetFacts();
    std::cout << "PAUSE L2->S1 " << f.pausesL2S1 << ", S1->L0 " << f.pausesS1L0 << ", S1->L1 "
              << f.pausesS1L1 << "; f0 Gb/s before " << f.f0Before << ", during " << f.f0During
              << ", end " << f.f0After << "\n";
    EXPECT_TRUE(f.ShowsCongestionSpreading());
    EXPECT_GT(f.pausesL2S1, 0u);
    EXPECT_GT(f.pausesS1L0, 0u);
    EXPECT_GT(f.pausesS1L1, 0u);
    // before the burst f0 and f1 share S1 -> L2 (fair share 18.5 Gb/s of goodput each)
    EXPECT_GT(f.f0Before, 5.0);
    // "collapse": measured 22% of the pre-burst rate; f1 (congested itself) falls further
    EXPECT_LT(f.f0During, 0.3 * f.f0Before);
    EXPECT_LT(f.f1During, 0.3 * f.f1Before);
    EXPECT_GT(f.f0After, 0.5 * f.f0Before);
}

// The paper's Fig. 6 against Fig. 2 on the same placement and burst. Measured: DCON L2->S1 0
// PAUSE frames (DCQCN 13); f0 during the burst 5.58 Gb/s with DCON, 3.63 with DCQCN (1.54x);
// f1 throttled by CNMs to 2.7 Gb/s (17.5 before). With DCQCN, f0 is stopped whenever L2 pauses S1
// (head-of-line blocking behind f1 and the burst at P0/S1) on top of the ECN marks it gets at
// P0/S1; DCON removes the pauses but not the marks (half of the burst crosses S1 too). We require
// at least 1.25x, about half of the measured gain, so that the test tracks the effect and not
// the exact number.
TEST_F(Testbed, DconAvoidsPauseAtL2)
{
    DconTestbedConfig cfg;
    DconTestbed dcqcn(cfg);
    dcqcn.Run();
    DconTestbedFacts q = dcqcn.GetFacts();
    Simulator::Destroy();
    cfg.cc = "dcon";
    DconTestbed dcon(cfg);
    dcon.Run();
    DconTestbedFacts d = dcon.GetFacts();
    EXPECT_EQ(dcon.GetQcnm().GetValue(), 320000u); // dynamic, M = 1: Q_PFC
    std::cout << "DCON: PAUSE L2->S1 " << d.pausesL2S1 << "; f0 during " << d.f0During
              << " Gb/s (DCQCN " << q.f0During << "), f1 during " << d.f1During << " (before "
              << d.f1Before << ")\n";
    EXPECT_TRUE(d.ShowsNoPauseAtL2());
    EXPECT_GT(q.pausesL2S1, 0u);
    EXPECT_GT(d.f0During, 1.25 * q.f0During);
    EXPECT_LT(d.f1During, 0.5 * d.f1Before);
    uint64_t cnms = 0;
    Ptr<RdmaFabric> fab = dcon.GetFabric();
    for (uint32_t s : fab->GetSwitches())
    {
        cnms += fab->GetSwitch(s)->GetCnmStats().sent;
    }
    EXPECT_GT(cnms, 0u);
}

TEST_F(Testbed, NoBurstNoPause)
{
    DconTestbedConfig cfg;
    cfg.burstFlowsPerHost = 0;
    cfg.stopTime = MilliSeconds(38); // the window of interest ends at 30 + 7 ms
    DconTestbed tb(cfg);
    tb.Run();
    Ptr<DconMonitor> m = tb.GetMonitor();
    uint64_t l2s1 = m->GetPauseFrames(tb.L(2), tb.S(1));
    double before = tb.AverageThroughput(0, cfg.burstStart - MilliSeconds(2), cfg.burstStart);
    double during = tb.AverageThroughput(0, cfg.burstStart, cfg.burstStart + MilliSeconds(7));
    // (burstFlowsPerHost = 0: the "burst window" is just the same 7 ms without a burst)
    std::cout << "no burst: PAUSE L2->S1 " << l2s1 << "; f0 Gb/s before " << before << ", during "
              << during << "\n";
    EXPECT_EQ(l2s1, 0u);
    EXPECT_GT(during, 0.9 * before);
    Simulator::Destroy();
}
