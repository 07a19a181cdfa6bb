/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of RdmaDcqcn: the object is driven directly with a hand-built RdmaFlowState (line rate
// 40 Gb/s, no network). CNPs and checks are scheduled at chosen times and the simulator runs
// the algorithm's own timers in between. Rates are compared in bit/s with a tolerance of a few
// bit/s (the algorithm rounds to whole bit/s at each step).
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kG = 1.0 / 256; // paper g
constexpr double kKeep = 1.0 - kG;
constexpr double kGbps = 1e9;

class DcqcnTest : public ::testing::Test
{
protected:
    void
    SetUp() override
    {
        m_flow = CreateObject<RdmaFlowState>();
        m_flow->m_lineRate = DataRate("40Gb/s");
        m_cc = CreateObject<RdmaDcqcn>();
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        m_cc->Dispose();
    }

    /// Schedule a CNP at \p at.
    void
    CnpAt(Time at)
    {
        Ptr<RdmaDcqcn> cc = m_cc;
        Ptr<RdmaFlowState> flow = m_flow;
        Simulator::Schedule(at,
                            [cc, flow]()
                            {
                                cc->OnCnp(flow, RdmaCnpInfo{});
                            });
    }

    /// Schedule OnSent(bytes) at \p at.
    void
    SendAt(Time at, uint32_t bytes)
    {
        Ptr<RdmaDcqcn> cc = m_cc;
        Ptr<RdmaFlowState> flow = m_flow;
        Simulator::Schedule(at,
                            [cc, flow, bytes]()
                            {
                                cc->OnSent(flow, bytes);
                            });
    }

    /// Schedule a snapshot of (RC, RT) in bit/s at \p at into \p rc, \p rt.
    void
    SampleAt(Time at, double* rc, double* rt)
    {
        Ptr<RdmaFlowState> flow = m_flow;
        Simulator::Schedule(at,
                            [flow, rc, rt]()
                            {
                                *rc = static_cast<double>(flow->m_rate.Get().GetBitRate());
                                *rt = static_cast<double>(flow->m_targetRate.Get().GetBitRate());
                            });
    }

    void
    RunUntil(Time t)
    {
        Simulator::Stop(t);
        Simulator::Run();
    }

    double
    Rc() const
    {
        return static_cast<double>(m_flow->m_rate.Get().GetBitRate());
    }

    double
    Rt() const
    {
        return static_cast<double>(m_flow->m_targetRate.Get().GetBitRate());
    }

    Ptr<RdmaFlowState> m_flow;
    Ptr<RdmaDcqcn> m_cc;
};

// Init: RC = RT = line rate, alpha = InitialAlpha = 1, no timer scheduled.
TEST_F(DcqcnTest, InitAtLineRateNoTimers)
{
    m_cc->Init(m_flow);
    EXPECT_EQ(m_cc->GetName(), "dcqcn");
    EXPECT_EQ(Rc(), 40 * kGbps);
    EXPECT_EQ(Rt(), 40 * kGbps);
    EXPECT_DOUBLE_EQ(m_cc->GetAlpha(), 1.0);
    // A flow that never saw a CNP has no event: Run() returns at once, at time 0.
    Simulator::Run();
    EXPECT_EQ(Simulator::Now(), Time(0));
    // Sending does not start anything either.
    m_cc->OnSent(m_flow, 100000000);
    EXPECT_EQ(Rc(), 40 * kGbps);
    EXPECT_EQ(m_cc->GetByteStage(), 0u);
}

// One CNP at line rate (paper mode): RT = RC = 40; RC = 40 (1 - 1/2) = 20 Gb/s;
// alpha = (1 - g) 1 + g = 1.
TEST_F(DcqcnTest, OneCnpFromLineRate)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    RunUntil(MicroSeconds(1));
    EXPECT_EQ(Rc(), 20 * kGbps);
    EXPECT_EQ(Rt(), 40 * kGbps);
    EXPECT_NEAR(m_cc->GetAlpha(), 1.0, 1e-15);
    EXPECT_EQ(m_cc->GetDecreaseCount(), 1u);
}

// Alpha decay: CNP at t = 0 makes alpha 1; after k whole periods of K = 55 us without a CNP,
// alpha = (1-g)^k: k = 0 at 54 us -> 1; k = 1 at 60 us -> 255/256 = 0.99609375;
// k = 10 at 555 us -> (255/256)^10 = 0.96164...
// The Alpha trace follows (it is refreshed by the increase ticks at 55 us multiples, the last
// one before 555 us at 550 us = 10 K).
TEST_F(DcqcnTest, AlphaDecay)
{
    m_cc->Init(m_flow);
    double traced = -1;
    m_cc->TraceConnectWithoutContext("Alpha",
                                     Callback<void, double, double>(
                                         [&traced](double, double v)
                                         {
                                             traced = v;
                                         }));
    CnpAt(MicroSeconds(0));
    double a54 = 0;
    double a60 = 0;
    Ptr<RdmaDcqcn> cc = m_cc;
    Simulator::Schedule(MicroSeconds(54),
                        [cc, &a54]()
                        {
                            a54 = cc->GetAlpha();
                        });
    Simulator::Schedule(MicroSeconds(60),
                        [cc, &a60]()
                        {
                            a60 = cc->GetAlpha();
                        });
    RunUntil(MicroSeconds(555));
    EXPECT_NEAR(a54, 1.0, 1e-12);
    EXPECT_NEAR(a60, kKeep, 1e-12);
    EXPECT_NEAR(m_cc->GetAlpha(), std::pow(kKeep, 10), 1e-12);
    EXPECT_NEAR(traced, std::pow(kKeep, 10), 1e-12);
}

// Second CNP at 120 us uses the decayed alpha.
// CNP at 0: RC 20, RT 40, alpha 1. Increase ticks (T = 55 us) at 55 and 110 us (fast recovery):
// RC = (40+20)/2 = 30, then (40+30)/2 = 35. Alpha periods end at 55 and 110 us:
// alpha = (255/256)^2 = 0.9922027587890625.
// CNP at 120 us: RT = RC = 35; RC = 35 (1 - 0.9922027587890625/2) = 17.636451721191... Gb/s;
// alpha = (1-g) 0.9922027587890625 + g = 0.99223321676254...
TEST_F(DcqcnTest, SecondCnpUsesDecayedAlpha)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    CnpAt(MicroSeconds(120));
    RunUntil(MicroSeconds(121));
    double a = kKeep * kKeep;
    EXPECT_NEAR(Rt(), 35 * kGbps, 1);
    EXPECT_NEAR(Rc(), 35 * kGbps * (1 - a / 2), 2); // 17636451721.19 b/s
    EXPECT_NEAR(Rc(), 17636451721.19, 2);
    EXPECT_NEAR(m_cc->GetAlpha(), kKeep * a + kG, 1e-12);
    EXPECT_EQ(m_cc->GetDecreaseCount(), 2u);
}

// Fast recovery: after the CNP at 0 (RC 20, RT 40) each increase tick (55, 110, 165 us)
// halves the gap to RT: RC = 30, 35, 37.5 Gb/s, RT stays 40.
TEST_F(DcqcnTest, FastRecovery)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    double rc[3];
    double rt[3];
    SampleAt(MicroSeconds(56), &rc[0], &rt[0]);
    SampleAt(MicroSeconds(111), &rc[1], &rt[1]);
    SampleAt(MicroSeconds(166), &rc[2], &rt[2]);
    RunUntil(MicroSeconds(170));
    EXPECT_EQ(rc[0], 30 * kGbps);
    EXPECT_EQ(rc[1], 35 * kGbps);
    EXPECT_EQ(rc[2], 37.5 * kGbps);
    EXPECT_EQ(rt[2], 40 * kGbps);
    EXPECT_EQ(m_cc->GetTimerStage(), 3u);
}

// Additive increase after F = 5 fast-recovery ticks (paper preset, no bytes sent: b = 0).
// CNP at 0: RC 20, RT 40, alpha 1. CNP at 1 us: RT = RC = 20; RC = 20 (1 - 1/2) = 10.
// Ticks (restarted at 1 us) at 56, 111, 166, 221, 276 us: t = 0..4 < F, fast recovery:
//   RC = 15, 17.5, 18.75, 19.375, 19.6875
// Tick at 331 us: t = 5 >= F > b = 0: RT = 20 + 0.04 = 20.04; RC = (20.04+19.6875)/2 = 19.86375
// Tick at 386 us: RT = 20.08; RC = (20.08 + 19.86375)/2 = 19.971875
TEST_F(DcqcnTest, AdditiveIncreaseAfterFTicks)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    CnpAt(MicroSeconds(1));
    double rc276;
    double rt276;
    double rc331;
    double rt331;
    double rc386;
    double rt386;
    SampleAt(MicroSeconds(277), &rc276, &rt276);
    SampleAt(MicroSeconds(332), &rc331, &rt331);
    SampleAt(MicroSeconds(387), &rc386, &rt386);
    RunUntil(MicroSeconds(390));
    EXPECT_NEAR(rc276, 19.6875 * kGbps, 2);
    EXPECT_NEAR(rt276, 20 * kGbps, 2);
    EXPECT_NEAR(rt331, 20.04 * kGbps, 2);
    EXPECT_NEAR(rc331, 19.86375 * kGbps, 2);
    EXPECT_NEAR(rt386, 20.08 * kGbps, 2);
    EXPECT_NEAR(rc386, 19.971875 * kGbps, 2);
}

// RT never exceeds the line rate: one CNP at 0 (RC 20, RT 40); 5 fast-recovery ticks give
// RC = 30, 35, 37.5, 38.75, 39.375 (at 275 us); the additive tick at 330 us would make
// RT = 40.04 > 40, so RT = 40 and RC = (40 + 39.375)/2 = 39.6875.
// Then RC converges to 40 and, at RC = RT = line rate, the increase timer stops: Run() without
// Stop() returns (the last event is the tick that reached the line rate).
TEST_F(DcqcnTest, TargetClampedToLineRateAndTimerStops)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    double rc330;
    double rt330;
    SampleAt(MicroSeconds(331), &rc330, &rt330);
    Simulator::Run();
    EXPECT_EQ(rt330, 40 * kGbps);
    EXPECT_EQ(rc330, 39.6875 * kGbps);
    EXPECT_EQ(Rc(), 40 * kGbps);
    EXPECT_EQ(Rt(), 40 * kGbps);
    // The gap 0.3125 Gb/s at 330 us halves per tick; < 1 b/s after 29 more ticks, so the
    // timer stops well before 330 + 40 x 55 us.
    EXPECT_LT(Simulator::Now(), MicroSeconds(330 + 40 * 55));
    EXPECT_GT(Simulator::Now(), MicroSeconds(330));
}

// Hyper increase when both counters pass F = 5 (byte counter B = 10^7 bytes).
// CNPs at 0 and 1 us: RC 10, RT 20, t = b = 0; ticks at 56, 111, ... us.
// At 2 us OnSent(5 B): five byte events with (t=0, b=0..4): fast recovery
//   RC = 15, 17.5, 18.75, 19.375, 19.6875; b = 5
// Ticks 56..276 us, t = 0..4 (max = b = 5 >= F > min = t): additive, RT += 0.04 each:
//   56: RT 20.04 RC 19.86375; 111: 20.08, 19.971875; 166: 20.12, 20.0459375;
//   221: 20.16, 20.10296875; 276: 20.20, 20.151484375; t = 5
// Tick 331 us (t=5, b=5): hyper, i = 5-5+1 = 1: RT = 20.6; RC = (20.6+20.151484375)/2
//   = 20.3757421875
// At 340 us OnSent(B) (t=6, b=5): i = 1: RT = 21.0; RC = (21 + 20.3757421875)/2 = 20.68787109375
// Tick 386 us (t=6, b=6): i = 2: RT = 21.8; RC = (21.8 + 20.68787109375)/2 = 21.243935546875
TEST_F(DcqcnTest, HyperIncreaseWhenBothCountersPassF)
{
    m_cc->Init(m_flow);
    const uint32_t b = 10000000;
    CnpAt(MicroSeconds(0));
    CnpAt(MicroSeconds(1));
    for (int i = 0; i < 5; ++i)
    {
        SendAt(MicroSeconds(2), b);
    }
    SendAt(MicroSeconds(340), b / 2); // half a counter: no event yet
    SendAt(MicroSeconds(340), b / 2); // completes it
    double rc3;
    double rt3;
    double rc276;
    double rt276;
    double rc331;
    double rt331;
    double rc340;
    double rt340;
    SampleAt(MicroSeconds(3), &rc3, &rt3);
    SampleAt(MicroSeconds(277), &rc276, &rt276);
    SampleAt(MicroSeconds(332), &rc331, &rt331);
    SampleAt(MicroSeconds(341), &rc340, &rt340);
    RunUntil(MicroSeconds(387));
    EXPECT_NEAR(rc3, 19.6875 * kGbps, 2);
    EXPECT_NEAR(rt3, 20 * kGbps, 2);
    EXPECT_NEAR(rt276, 20.20 * kGbps, 2);
    EXPECT_NEAR(rc276, 20.151484375 * kGbps, 5);
    EXPECT_NEAR(rt331, 20.6 * kGbps, 2);
    EXPECT_NEAR(rc331, 20.3757421875 * kGbps, 5);
    EXPECT_NEAR(rt340, 21.0 * kGbps, 2);
    EXPECT_NEAR(rc340, 20.68787109375 * kGbps, 5);
    EXPECT_NEAR(Rt(), 21.8 * kGbps, 2);
    EXPECT_NEAR(Rc(), 21.243935546875 * kGbps, 5);
    EXPECT_EQ(m_cc->GetTimerStage(), 7u);
    EXPECT_EQ(m_cc->GetByteStage(), 6u);
}

// MinRate clamp (100 Mb/s): CNPs at 0, 1, ..., 8 us, alpha stays 1 ((1-g) 1 + g = 1, no
// whole K in between), so each CNP halves RC:
// 20, 10, 5, 2.5, 1.25, 0.625, 0.3125, 0.15625 Gb/s, then 0.078125 < 0.1 -> 0.1 Gb/s.
// RT = RC before the last CNP = 0.15625 Gb/s. A tenth CNP keeps RC at 0.1 and sets RT = 0.1.
TEST_F(DcqcnTest, MinRateClamp)
{
    m_cc->Init(m_flow);
    for (int i = 0; i < 9; ++i)
    {
        CnpAt(MicroSeconds(i));
    }
    double rc8;
    double rt8;
    SampleAt(NanoSeconds(8500), &rc8, &rt8);
    CnpAt(MicroSeconds(9));
    RunUntil(NanoSeconds(9500));
    EXPECT_EQ(rc8, 100e6);
    EXPECT_EQ(rt8, 156.25e6);
    EXPECT_EQ(Rc(), 100e6);
    EXPECT_EQ(Rt(), 100e6);
}

/// Set the "cx4" values on one object (g 1/256, K 1 us, decrease interval 4 us, T 300 us,
/// F 1, no byte counter, R_AI 8 Mb/s, R_HAI 80 Mb/s at 40 Gb/s, ClampTargetRate false).
void
SetCx4(Ptr<RdmaDcqcn> cc)
{
    cc->SetAttribute("AlphaUpdateInterval", TimeValue(MicroSeconds(1)));
    cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    cc->SetAttribute("RateIncreaseInterval", TimeValue(MicroSeconds(300)));
    cc->SetAttribute("FastRecoveryThreshold", UintegerValue(1));
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    cc->SetAttribute("AdditiveIncrease", DataRateValue(DataRate("8Mb/s")));
    cc->SetAttribute("HyperIncrease", DataRateValue(DataRate("80Mb/s")));
    cc->SetAttribute("ClampTargetRate", BooleanValue(false));
}

// CX4 mode (decrease interval 4 us, K 1 us): two CNPs within one interval give one decrease.
// CNP at 0 (first: starts the alpha grid 1, 2, 3 ... us and the decrease grid 4, 8 ... us; not
// counted as congestion for alpha; no rate change yet). CNP at 1.5 us.
// alpha: 1 us no CNP -> (1-g); 2 us CNP in (1,2] -> (1-g)^2 + g; 3 us, 4 us -> x (1-g)^2:
//   a4 = ((1-g)^2 + g)(1-g)^2 = 0.98834210657514...
// Decrease tick at 4 us (alpha of 4 us applied first): RC = 40 (1 - a4/2) = 20.233157868497 Gb/s;
// RT stays 40 (ClampTargetRate false and no increase event yet). No decrease at 8 us.
// CNP at 10.5 us -> decrease at 12 us. Alpha periods ending at 5..10 us had no CNP:
// a(10) = a4 (1-g)^6; the one ending at 11 us had the CNP: a(11) = a(10)(1-g) + g; 12 us: x (1-g):
//   a12 = (a4 (1-g)^7 + g)(1-g) = 0.96176638937...
// RC = 20.233157868 (1 - a12/2) = 10.503372274 Gb/s; RT still 40 (t = 0: no clamp).
TEST_F(DcqcnTest, Cx4OneDecreasePerInterval)
{
    SetCx4(m_cc);
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    CnpAt(NanoSeconds(1500));
    double rc3;
    double rt3;
    double rc5;
    double rt5;
    double rc9;
    double rt9;
    uint64_t dec9 = 0;
    Ptr<RdmaDcqcn> cc = m_cc;
    SampleAt(MicroSeconds(3), &rc3, &rt3);
    SampleAt(MicroSeconds(5), &rc5, &rt5);
    SampleAt(MicroSeconds(9), &rc9, &rt9);
    Simulator::Schedule(MicroSeconds(9),
                        [cc, &dec9]()
                        {
                            dec9 = cc->GetDecreaseCount();
                        });
    CnpAt(NanoSeconds(10500));
    RunUntil(MicroSeconds(13));
    double a4 = (kKeep * kKeep + kG) * kKeep * kKeep;
    double rc1 = std::round(40 * kGbps * (1 - a4 / 2));
    double a12 = (a4 * std::pow(kKeep, 7) + kG) * kKeep;
    EXPECT_EQ(rc3, 40 * kGbps); // nothing before the first tick
    EXPECT_NEAR(rc5, rc1, 1);
    EXPECT_NEAR(rc5, 20233157868.5, 1);
    EXPECT_EQ(rt5, 40 * kGbps);
    EXPECT_EQ(rc9, rc5); // one decrease only
    EXPECT_EQ(dec9, 1u);
    EXPECT_EQ(m_cc->GetDecreaseCount(), 2u);
    EXPECT_NEAR(Rc(), rc1 * (1 - a12 / 2), 2);
    EXPECT_NEAR(Rc(), 10503372274.0, 2);
    EXPECT_EQ(Rt(), 40 * kGbps);
}

// CX4 mode, timer-only stages (F = 1, no byte counter) as in the HPCC simulator:
// tick 1 fast recovery, tick 2 additive (+R_AI = 8 Mb/s), ticks 3, 4 hyper with a constant
// step (+R_HAI = 80 Mb/s each, i = 1). ClampTargetRate true here so that RT = RC < line rate.
// CNP at 0 -> decrease at 4 us (RT = RC = 40, RC ~ 20.2); CNP at 5 us -> decrease at 8 us:
// RT = R1 (= RC before it), RC = R2. Ticks at 308, 608, 908, 1208 us:
//   308: RT = R1, RC = (R1 + R2)/2; 608: RT = R1 + 8M; 908: RT = R1 + 88M; 1208: R1 + 168M,
//   and every time RC = (RT + RC)/2.
TEST_F(DcqcnTest, Cx4TimerOnlyStages)
{
    SetCx4(m_cc);
    m_cc->SetAttribute("ClampTargetRate", BooleanValue(true));
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    CnpAt(MicroSeconds(5));
    double rc[5];
    double rt[5];
    SampleAt(MicroSeconds(9), &rc[0], &rt[0]);
    SampleAt(MicroSeconds(309), &rc[1], &rt[1]);
    SampleAt(MicroSeconds(609), &rc[2], &rt[2]);
    SampleAt(MicroSeconds(909), &rc[3], &rt[3]);
    SampleAt(MicroSeconds(1209), &rc[4], &rt[4]);
    RunUntil(MicroSeconds(1210));
    const double r1 = rt[0];
    EXPECT_LT(r1, 40 * kGbps);
    EXPECT_LT(rc[0], r1);
    EXPECT_EQ(rt[1], r1); // fast recovery
    EXPECT_NEAR(rc[1], (r1 + rc[0]) / 2, 1);
    EXPECT_EQ(rt[2], r1 + 8e6); // additive
    EXPECT_NEAR(rc[2], (rt[2] + rc[1]) / 2, 1);
    EXPECT_EQ(rt[3], r1 + 88e6); // hyper, i = 1
    EXPECT_NEAR(rc[3], (rt[3] + rc[2]) / 2, 1);
    EXPECT_EQ(rt[4], r1 + 168e6); // hyper, constant step
    EXPECT_NEAR(rc[4], (rt[4] + rc[3]) / 2, 1);
}

// Receiver: CE packets every 10 us from 0 to 200 us with CnpInterval 50 us produce CNPs at
// 0, 50, 100, 150, 200 us only (a packet exactly 50 us after the last CNP may send).
TEST_F(DcqcnTest, ReceiverCnpSpacing)
{
    Ptr<RdmaRxFlowState> rx = CreateObject<RdmaRxFlowState>();
    std::vector<Time> sent;
    m_cc->InitReceiver(rx,
                       RdmaCongestionOps::SendCnpCallback(
                           [&sent](const RdmaCnpInfo& c)
                           {
                               EXPECT_TRUE(c.congested);
                               sent.push_back(Simulator::Now());
                           }));
    Ptr<RdmaDcqcn> cc = m_cc;
    for (int i = 0; i <= 20; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 * i),
                            [cc, rx]()
                            {
                                RdmaRxPacketInfo pkt;
                                pkt.payloadBytes = 1000;
                                pkt.ce = true;
                                cc->OnDataReceived(rx, pkt);
                            });
    }
    RunUntil(MicroSeconds(300));
    ASSERT_EQ(sent.size(), 5u);
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_EQ(sent[i], MicroSeconds(50 * i));
    }
    EXPECT_EQ(rx->m_cnpsSent, 5u);
    EXPECT_EQ(rx->m_lastCnp, MicroSeconds(200));
}

// Receiver: packets without CE produce no CNP.
TEST_F(DcqcnTest, ReceiverNoCeNoCnp)
{
    Ptr<RdmaRxFlowState> rx = CreateObject<RdmaRxFlowState>();
    int count = 0;
    m_cc->InitReceiver(rx,
                       RdmaCongestionOps::SendCnpCallback(
                           [&count](const RdmaCnpInfo&)
                           {
                               ++count;
                           }));
    Ptr<RdmaDcqcn> cc = m_cc;
    for (int i = 0; i <= 20; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 * i),
                            [cc, rx]()
                            {
                                RdmaRxPacketInfo pkt;
                                pkt.payloadBytes = 1000;
                                pkt.ce = false;
                                cc->OnDataReceived(rx, pkt);
                            });
    }
    RunUntil(MicroSeconds(300));
    EXPECT_EQ(count, 0);
    EXPECT_EQ(rx->m_cnpsSent, 0u);
    EXPECT_EQ(rx->m_lastCnp, Time::Max());
}

// Parameter sets: an unknown name throws, naming it; "cx4" at 40 Gb/s gives R_AI = 5 x 40/25 =
// 8 Mb/s and R_HAI = 50 x 40/25 = 80 Mb/s and the other CX4 values; "paper" gives the defaults.
TEST_F(DcqcnTest, ParameterSets)
{
    try
    {
        RdmaCcRegistry::Lookup("dcqcn").GetParameterValues("bogus", DataRate("40Gb/s"));
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos) << e.what();
    }
    EXPECT_THROW(RdmaDcqcn::GetParameterSet("cx4", DataRate(uint64_t(0))), std::invalid_argument);

    // A set applies to a factory, as RdmaFabricHelper applies it to the NICs'.
    auto withSet = [](const std::string& set, DataRate rate)
    {
        ObjectFactory f;
        f.SetTypeId(RdmaDcqcn::GetTypeId());
        for (const auto& [name, value] :
             RdmaCcRegistry::Lookup("dcqcn").GetParameterValues(set, rate))
        {
            f.Set(name, StringValue(value));
        }
        return f.Create<RdmaDcqcn>();
    };
    Ptr<RdmaDcqcn> cx4 = withSet("cx4", DataRate("40Gb/s"));
    DataRateValue rate;
    TimeValue time;
    UintegerValue uint;
    DoubleValue dbl;
    BooleanValue flag;
    cx4->GetAttribute("AdditiveIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("8Mb/s"));
    cx4->GetAttribute("HyperIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("80Mb/s"));
    cx4->GetAttribute("MinRate", rate);
    EXPECT_EQ(rate.Get(), DataRate("100Mb/s"));
    cx4->GetAttribute("AlphaUpdateInterval", time);
    EXPECT_EQ(time.Get(), MicroSeconds(1));
    cx4->GetAttribute("RateDecreaseInterval", time);
    EXPECT_EQ(time.Get(), MicroSeconds(4));
    cx4->GetAttribute("RateIncreaseInterval", time);
    EXPECT_EQ(time.Get(), MicroSeconds(300));
    cx4->GetAttribute("FastRecoveryThreshold", uint);
    EXPECT_EQ(uint.Get(), 1u);
    cx4->GetAttribute("ByteCounter", uint);
    EXPECT_EQ(uint.Get(), 0u);
    cx4->GetAttribute("G", dbl);
    EXPECT_EQ(dbl.Get(), 1.0 / 256);
    cx4->GetAttribute("ClampTargetRate", flag);
    EXPECT_FALSE(flag.Get());

    // 100 Gb/s: R_AI = 5 x 100/25 = 20 Mb/s.
    withSet("cx4", DataRate("100Gb/s"))->GetAttribute("AdditiveIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("20Mb/s"));

    // The HPCC simulator's: "cx4" with a 1 Gb/s floor.
    withSet("hpcc-sim", DataRate("100Gb/s"))->GetAttribute("MinRate", rate);
    EXPECT_EQ(rate.Get(), DataRate("1Gb/s"));
    withSet("hpcc-sim", DataRate("100Gb/s"))->GetAttribute("AdditiveIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("20Mb/s"));
    // A set leaves ns-3's global defaults alone.
    CreateObject<RdmaDcqcn>()->GetAttribute("AlphaUpdateInterval", time);
    EXPECT_EQ(time.Get(), MicroSeconds(55));

    Ptr<RdmaDcqcn> paper = withSet("paper", DataRate("40Gb/s"));
    paper->GetAttribute("AdditiveIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("40Mb/s"));
    paper->GetAttribute("HyperIncrease", rate);
    EXPECT_EQ(rate.Get(), DataRate("400Mb/s"));
    paper->GetAttribute("RateDecreaseInterval", time);
    EXPECT_EQ(time.Get(), Time(0));
    paper->GetAttribute("ByteCounter", uint);
    EXPECT_EQ(uint.Get(), 10000000u);
    paper->GetAttribute("FastRecoveryThreshold", uint);
    EXPECT_EQ(uint.Get(), 5u);
    paper->GetAttribute("CnpInterval", time);
    EXPECT_EQ(time.Get(), MicroSeconds(50));
}

// Bad attribute values are reported at Init, naming the attribute.
TEST_F(DcqcnTest, InvalidAttributesThrow)
{
    m_cc->SetAttribute("MinRate", DataRateValue(DataRate("50Gb/s")));
    try
    {
        m_cc->Init(m_flow);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("MinRate"), std::string::npos) << e.what();
    }
    Ptr<RdmaDcqcn> other = CreateObject<RdmaDcqcn>();
    other->SetAttribute("G", DoubleValue(1.5));
    EXPECT_THROW(other->Init(m_flow), std::invalid_argument);
    other = CreateObject<RdmaDcqcn>();
    other->SetAttribute("AlphaUpdateInterval", TimeValue(Time(0)));
    EXPECT_THROW(other->Init(m_flow), std::invalid_argument);
}

// Stop() cancels every timer: after the CNP at 0 (RC 20) the increase tick at 55 us would make
// RC (40+20)/2 = 30; after Stop() the (cancelled) tick does nothing and nothing is rescheduled,
// and later CNPs change nothing.
TEST_F(DcqcnTest, StopCancelsTimers)
{
    m_cc->Init(m_flow);
    CnpAt(MicroSeconds(0));
    RunUntil(MicroSeconds(1));
    EXPECT_EQ(Rc(), 20 * kGbps);
    m_cc->Stop();
    Simulator::Run(); // returns: no live event
    EXPECT_LE(Simulator::Now(), MicroSeconds(55));
    EXPECT_EQ(Rc(), 20 * kGbps);
    EXPECT_EQ(m_cc->GetTimerStage(), 0u);
    m_cc->OnCnp(m_flow, RdmaCnpInfo{});
    EXPECT_EQ(Rc(), 20 * kGbps);
    EXPECT_EQ(m_cc->GetDecreaseCount(), 1u);
}

} // namespace
