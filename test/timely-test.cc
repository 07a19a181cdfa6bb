/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaTimely's four branches and HAI, driven with hand-made RTT samples. Line rate 40 Gb/s, so
// Delta = 40 Mb/s; a = 0.875, beta = 0.8, TLow 50 us, THigh 500 us, MinRtt 20 us. Each case starts
// from 10 Gb/s; the first sample only sets prev_rtt.
#include "ns3/enum.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/rdma-timely.h"

#include <gtest/gtest.h>

#include <initializer_list>

using namespace ns3;

namespace
{
struct TimelyCase
{
    Ptr<RdmaFlowState> flow = CreateObject<RdmaFlowState>();
    Ptr<RdmaTimely> cc = CreateObject<RdmaTimely>();

    TimelyCase()
    {
        flow->m_lineRate = DataRate("40Gbps");
        cc->Init(flow);
        flow->m_rate = DataRate("10Gbps");
    }

    double
    Feed(std::initializer_list<int64_t> rttsUs)
    {
        for (int64_t us : rttsUs)
        {
            cc->OnRttSample(flow, MicroSeconds(us));
        }
        return static_cast<double>(flow->m_rate.Get().GetBitRate());
    }
};
} // namespace

TEST(RdmaTimely, FirstSampleOnlySetsPrevious)
{
    TimelyCase c;
    EXPECT_DOUBLE_EQ(c.Feed({300}), 10e9);
    EXPECT_EQ(c.cc->GetRttDiff(), Time(0));
    EXPECT_TRUE(c.cc->WantsRttSamples());
}

// 30 then 40 us: 40 < TLow -> +Delta = 10.04 Gb/s; rtt_diff = 0.875 x 10 us = 8.75 us.
TEST(RdmaTimely, BelowTLowAddsDelta)
{
    TimelyCase c;
    EXPECT_DOUBLE_EQ(c.Feed({30, 40}), 10.04e9);
    EXPECT_EQ(c.cc->GetRttDiff(), NanoSeconds(8750));
}

// 100 then 1000 us: > THigh -> x (1 - 0.8 (1 - 500/1000)) = x 0.6 -> 6 Gb/s.
TEST(RdmaTimely, AboveTHighDecreasesWithExcess)
{
    TimelyCase c;
    EXPECT_NEAR(c.Feed({100, 1000}), 6e9, 2);
}

// 100 then 110 us: rtt_diff 8.75 us, gradient 8.75/20 = 0.4375 -> x (1 - 0.8 x 0.4375) = x 0.65.
TEST(RdmaTimely, PositiveGradientDecreases)
{
    TimelyCase c;
    EXPECT_NEAR(c.Feed({100, 110}), 6.5e9, 2);
}

// 100, then 90 us five times: rtt_diff -8.75 us, then x 0.125 each time (still < 0): five
// non-positive gradients; steps 1-4 add Delta, the 5th (HAI) adds 5 Delta:
// 10 + 4 x 0.04 + 0.2 = 10.36 Gb/s. A positive gradient then resets the count: 90 -> 200 us
// gives rtt_diff = 0.125^4 x (-8.75) x 0.125 + 0.875 x 110 = 96.2497... us, gradient 4.81 ->
// factor 1 - 0.8 x 4.81 < 0 -> clamped to MinRate 100 Mb/s.
TEST(RdmaTimely, NonPositiveGradientWithHai)
{
    TimelyCase c;
    EXPECT_DOUBLE_EQ(c.Feed({100, 90, 90, 90, 90}), 10.16e9);
    EXPECT_DOUBLE_EQ(c.Feed({90}), 10.36e9);
    EXPECT_DOUBLE_EQ(c.Feed({200}), 100e6);
}

TEST(RdmaTimely, LookupByShortName)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("timely"), RdmaTimely::GetTypeId());
}

// The paper updates once per completed segment (SegmentBytes, default 64 KB = 64,000 B here):
// ACKs of 1000 B with a 30 us RTT (< TLow) change the rate only on the 64th ACK (the first
// update only sets prev_rtt), the 128th adds Delta: 10 -> 10.04 Gb/s.
TEST(RdmaTimely, UpdatesOncePerSegment)
{
    TimelyCase c;
    RdmaAckInfo ack;
    ack.rtt = MicroSeconds(30);
    ack.newlyAckedBytes = 1000;
    for (int i = 1; i <= 127; ++i)
    {
        c.cc->OnAck(c.flow, ack);
        EXPECT_DOUBLE_EQ(static_cast<double>(c.flow->m_rate.Get().GetBitRate()), 10e9) << i;
    }
    c.cc->OnAck(c.flow, ack);
    EXPECT_DOUBLE_EQ(static_cast<double>(c.flow->m_rate.Get().GetBitRate()), 10.04e9);
}

// Patched TIMELY's weight: 0 up to g = -1/4, 2g + 1/2 between, 1 from 1/4.
TEST(RdmaTimely, PatchedWeight)
{
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(-0.3), 0);
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(-0.25), 0);
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(0), 0.5);
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(0.1), 0.7);
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(0.25), 1);
    EXPECT_DOUBLE_EQ(RdmaTimely::PatchedWeight(2), 1);
}

// Patched, 100 then 102 us (between TLow and THigh): rtt_diff = 0.875 x 2 = 1.75 us, gradient
// 1.75 / 20 = 0.0875, w = 2 x 0.0875 + 0.5 = 0.675, error = (102 - 50) / 50 = 1.04 (RttRef =
// TLow): rate = 10e9 (1 - 0.8 x 0.675 x 1.04) + 40e6 x 0.325 = 4.384e9 + 13e6 = 4.397 Gb/s.
// The original rule would have cut to 10e9 (1 - 0.8 x 0.0875) = 9.3 Gb/s.
TEST(RdmaTimely, PatchedUpdate)
{
    TimelyCase c;
    c.cc->SetAttribute("Variant", EnumValue(RdmaTimely::PATCHED));
    EXPECT_NEAR(c.Feed({100, 102}), 4.397e9, 2);
}

// Patched with RttRef 100 us, 100 then 100 us: gradient 0, w = 1/2, error 0: only the additive
// part, 10e9 + 40e6 x 0.5 = 10.02 Gb/s. Below TLow and above THigh the original rules apply:
// 30 us -> +Delta = 10.06 Gb/s.
TEST(RdmaTimely, PatchedFixedPointAndOuterBranches)
{
    TimelyCase c;
    c.cc->SetAttribute("Variant", EnumValue(RdmaTimely::PATCHED));
    c.cc->SetAttribute("RttRef", TimeValue(MicroSeconds(100)));
    EXPECT_NEAR(c.Feed({100, 100}), 10.02e9, 2);
    EXPECT_NEAR(c.Feed({30}), 10.06e9, 2);
}
