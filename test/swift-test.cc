/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaSwift driven with hand-made ACKs. Line rate 40 Gb/s, MTU 1000 B, base RTT 40 us, 3 hops;
// defaults: BaseTarget 50 us, PerHopDelay 1 us, FsRange 50 us, FsMinCwnd 0.1, FsMaxCwnd 256, Ai 1,
// BetaMd 0.8, MaxMdf 0.5.
// Flow scaling: a = 50 us / (1/sqrt(0.1) - 1/sqrt(256)) = 50 / (3.16227766 - 0.0625) us
// = 16.130188 us; b = -a / 16 = -1.008137 us.
#include "ns3/rdma-flow-state.h"
#include "ns3/rdma-swift.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ns3;

namespace
{
struct SwiftCase
{
    Ptr<RdmaFlowState> flow = CreateObject<RdmaFlowState>();
    Ptr<RdmaSwift> cc = CreateObject<RdmaSwift>();

    SwiftCase()
    {
        flow->m_lineRate = DataRate("40Gbps");
        flow->m_mtu = 1000;
        flow->m_baseRtt = MicroSeconds(40);
        flow->m_hops = 3;
        cc->Init(flow);
    }

    void
    Ack(Time rtt, uint64_t bytes = 1000)
    {
        RdmaAckInfo a;
        a.rtt = rtt;
        a.newlyAckedBytes = bytes;
        cc->OnAck(flow, a);
    }
};

const double kA = 50.0 / (1.0 / std::sqrt(0.1) - 1.0 / 16.0); // us
const double kB = -kA / 16.0;                                 // us
} // namespace

// BDP = 40e9 x 40e-6 / 8000 = 200 packets: window 200,000 B at line rate.
TEST(RdmaSwift, StartsAtBdp)
{
    SwiftCase c;
    EXPECT_DOUBLE_EQ(c.cc->GetCwnd(), 200.0);
    EXPECT_EQ(c.flow->m_cwnd.Get(), 200000u);
    EXPECT_EQ(c.flow->m_rate.Get(), DataRate("40Gbps"));
    EXPECT_TRUE(c.cc->WantsRttSamples());
}

// target = 50 + 3 x 1 + clamp(a / sqrt(cwnd) + b, 0, 50) us:
// cwnd 1 -> 53 + 15.122051 = 68.122051 us; cwnd 256 -> 53 us; cwnd 0.1 -> fs clamped to 50 ->
// 103 us; cwnd 100 -> 53 + a/10 + b = 53.604882 us.
TEST(RdmaSwift, TargetDelay)
{
    SwiftCase c;
    auto us = [&](double cwnd)
    {
        return c.cc->GetTargetDelay(cwnd, 3).GetSeconds() * 1e6;
    };
    EXPECT_NEAR(us(1), 53 + kA + kB, 1e-3);
    EXPECT_NEAR(us(1), 68.122051, 1e-3);
    EXPECT_NEAR(us(256), 53.0, 1e-6);
    EXPECT_NEAR(us(0.1), 103.0, 1e-3);
    EXPECT_NEAR(us(100), 53.604882, 1e-3);
}

// Below target: cwnd 10 + 1 x 1 / 10 = 10.1; below one packet: 0.5 + 1 x 1 = 1.5.
TEST(RdmaSwift, AdditiveIncrease)
{
    SwiftCase c;
    c.cc->SetCwnd(c.flow, 10);
    c.Ack(MicroSeconds(45));
    EXPECT_NEAR(c.cc->GetCwnd(), 10.1, 1e-12);
    c.cc->SetCwnd(c.flow, 0.5);
    c.Ack(MicroSeconds(45));
    EXPECT_NEAR(c.cc->GetCwnd(), 1.5, 1e-12);
}

// cwnd 100, target 53.604882 us. RTT 60 us: x (1 - 0.8 x 6.395118 / 60) = x 0.914732 -> 91.4732.
// RTT 1000 us (a new flow, no earlier decrease): 1 - 0.8 x 0.946395 = 0.242884 < 1 - MaxMdf ->
// x 0.5 -> 50.
TEST(RdmaSwift, MultiplicativeDecreaseAndBound)
{
    {
        SwiftCase c;
        c.cc->SetCwnd(c.flow, 100);
        c.Ack(MicroSeconds(60));
        EXPECT_NEAR(c.cc->GetCwnd(), 100 * (1 - 0.8 * (60 - 53.604882) / 60), 1e-4);
    }
    {
        SwiftCase c;
        c.cc->SetCwnd(c.flow, 100);
        c.Ack(MicroSeconds(1000));
        EXPECT_NEAR(c.cc->GetCwnd(), 50.0, 1e-12);
    }
}

// At most one decrease per RTT: RTT 1000 us samples at 0, 500 us and 1000 us from cwnd 100:
// 50 at 0, unchanged at 500 us (less than one RTT later), 25 at 1000 us.
TEST(RdmaSwift, OneDecreasePerRtt)
{
    SwiftCase c;
    c.cc->SetCwnd(c.flow, 100);
    std::vector<double> seen;
    for (int64_t at : {0, 500, 1000})
    {
        Simulator::Schedule(MicroSeconds(at),
                            [&c, &seen]()
                            {
                                c.Ack(MicroSeconds(1000));
                                seen.push_back(c.cc->GetCwnd());
                            });
    }
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_NEAR(seen[0], 50.0, 1e-12);
    EXPECT_NEAR(seen[1], 50.0, 1e-12);
    EXPECT_NEAR(seen[2], 25.0, 1e-12);
}

// Below one packet the window is one packet and the flow is paced at cwnd x MTU / RTT: with
// cwnd 0.5 and the base RTT (40 us) as the RTT, 0.5 x 8000 bit / 40 us = 100 Mb/s. Then an ACK
// with RTT 200 us: target at cwnd 0.5 = 53 + a / sqrt(0.5) + b = 53 + 22.811 - 1.008 = 74.803 us;
// 1 - 0.8 x (200 - 74.803) / 200 = 0.49921 < 0.5 -> bounded: cwnd 0.25, paced at
// 0.25 x 8000 bit / 200 us = 10 Mb/s.
TEST(RdmaSwift, PacingBelowOnePacket)
{
    SwiftCase c;
    c.cc->SetCwnd(c.flow, 0.5);
    EXPECT_EQ(c.flow->m_cwnd.Get(), 1000u);
    EXPECT_EQ(c.flow->m_rate.Get().GetBitRate(), 100000000u);
    EXPECT_NEAR(
        c.cc->GetTargetDelay(0.5, 3).GetSeconds() * 1e6, 53 + kA / std::sqrt(0.5) + kB, 1e-3);
    c.Ack(MicroSeconds(200));
    EXPECT_NEAR(c.cc->GetCwnd(), 0.25, 1e-12);
    EXPECT_EQ(c.flow->m_cwnd.Get(), 1000u);
    EXPECT_EQ(c.flow->m_rate.Get().GetBitRate(), 10000000u);
}

TEST(RdmaSwift, LookupByShortName)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("swift"), RdmaSwift::GetTypeId());
}
