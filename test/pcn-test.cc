/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of PCN (Cheng et al., NSDI 2020): the NP-ECN switch queue, the receiver's
// periodic CNPs (congestion ratio, receive rate, slow flows) and the sender's rate rules.
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/np-ecn-queue-disc.h"
#include "ns3/packet.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/rdma-pcn.h"
#include "ns3/simulator.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// An ECN-capable RoCE packet of flow \p sport with \p ipBytes bytes (IPv4 header included).
Ptr<RdmaQueueDiscItem>
MakeItem(uint16_t sport, uint32_t ipBytes)
{
    return test::MakeRoceItem(sport, ipBytes);
}

Ptr<NpEcnQueueDisc>
MakeQueue(QueueSize k = QueueSize(QueueSizeUnit::BYTES, 0))
{
    Ptr<NpEcnQueueDisc> q = CreateObject<NpEcnQueueDisc>();
    q->SetAttribute("MarkingThreshold", QueueSizeValue(k));
    q->Initialize();
    return q;
}

/// Dequeue one packet and tell whether it left marked CE.
bool
DequeueIsCe(Ptr<NpEcnQueueDisc> q)
{
    Ptr<QueueDiscItem> it = q->Dequeue();
    EXPECT_TRUE(it);
    return it && StaticCast<RdmaQueueDiscItem>(it)->IsCe();
}

uint32_t
NpMarks(Ptr<NpEcnQueueDisc> q)
{
    return q->GetStats().GetNMarkedPackets(NpEcnQueueDisc::NP_ECN_MARK);
}

constexpr double kWmin = 1.0 / 128;
constexpr double kWmax = 0.5;
constexpr double kLine = 40e9; // bit/s

class PcnTest : public ::testing::Test
{
protected:
    void
    SetUp() override
    {
        m_flow = CreateObject<RdmaFlowState>();
        m_flow->m_lineRate = DataRate("40Gb/s");
        m_cc = CreateObject<RdmaPcn>();
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
        m_cc->Dispose();
    }

    void
    Cnp(bool congested, DataRate recRate)
    {
        m_cc->OnCnp(m_flow, RdmaCnpInfo{congested, recRate});
    }

    double
    Rate() const
    {
        return m_flow->GetRateBps();
    }

    /// Receive one 1000-byte packet (\p ce) at \p at.
    void
    PacketAt(Time at, bool ce, uint32_t bytes = 1000)
    {
        Ptr<RdmaPcn> cc = m_cc;
        Ptr<RdmaRxFlowState> rx = m_rx;
        Simulator::Schedule(at,
                            [cc, rx, ce, bytes]()
                            {
                                RdmaRxPacketInfo pkt;
                                pkt.payloadBytes = bytes;
                                pkt.ce = ce;
                                cc->OnDataReceived(rx, pkt);
                            });
    }

    void
    StartReceiver()
    {
        m_rx = CreateObject<RdmaRxFlowState>();
        std::vector<std::pair<Time, RdmaCnpInfo>>* cnps = &m_cnps;
        m_cc->InitReceiver(m_rx,
                           RdmaCongestionOps::SendCnpCallback(
                               [cnps](const RdmaCnpInfo& c)
                               {
                                   cnps->emplace_back(Simulator::Now(), c);
                               }));
    }

    void
    RunUntil(Time t)
    {
        Simulator::Stop(t);
        Simulator::Run();
    }

    Ptr<RdmaFlowState> m_flow;
    Ptr<RdmaPcn> m_cc;
    Ptr<RdmaRxFlowState> m_rx;
    std::vector<std::pair<Time, RdmaCnpInfo>> m_cnps;
};

} // namespace

// ------------------------------------------------------------------------------- NP-ECN

// Never paused, K = 0, ten 1000-byte packets queued: dequeue k (1..10) leaves 10 - k packets
// behind, so packets 1..9 are marked and packet 10 (leaves an empty queue) is not: 9 marks.
TEST(NpEcnQueueDisc, TrulyCongestedMarksAllButLast)
{
    Ptr<NpEcnQueueDisc> q = MakeQueue();
    for (int i = 0; i < 10; ++i)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    for (int k = 1; k <= 10; ++k)
    {
        EXPECT_EQ(DequeueIsCe(q), k <= 9) << "packet " << k;
    }
    EXPECT_EQ(NpMarks(q), 9u);
    EXPECT_EQ(q->GetPausedUnmarked(), 0u);
    // A lone packet crossing an idle port is never marked (uncongested -> no marks).
    q->Enqueue(MakeItem(1, 1000));
    EXPECT_FALSE(DequeueIsCe(q));
    EXPECT_EQ(NpMarks(q), 9u);
}

// Continuous arrivals, one packet always behind the departing one: enqueue 2, then 20 times
// (enqueue 1, dequeue 1): each of those 20 departures leaves 1 packet behind -> 20 marks.
TEST(NpEcnQueueDisc, SteadyBacklogMarksEveryDeparture)
{
    Ptr<NpEcnQueueDisc> q = MakeQueue();
    q->Enqueue(MakeItem(1, 1000));
    q->Enqueue(MakeItem(1, 1000));
    for (int i = 0; i < 20; ++i)
    {
        q->Enqueue(MakeItem(1, 1000));
        EXPECT_TRUE(DequeueIsCe(q)) << "departure " << i;
    }
    EXPECT_EQ(NpMarks(q), 20u);
}

// Ten packets wait while paused; on resume PN = 10. Five more arrive during the drain.
// Departures 1..10 are PN packets: unmarked although 14..5 packets wait behind them (all 10
// would have been marked: 10 suppressed). Departures 11..14 leave 4..1 behind: marked;
// departure 15 leaves an empty queue: not marked. 4 marks.
TEST(NpEcnQueueDisc, PausedPacketsLeaveUnmarked)
{
    Ptr<NpEcnQueueDisc> q = MakeQueue();
    for (int i = 0; i < 10; ++i)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    q->NotifyPaused();
    EXPECT_TRUE(q->IsPaused());
    q->NotifyResumed();
    EXPECT_FALSE(q->IsPaused());
    EXPECT_EQ(q->GetPendingUnmarked(), 10u);
    for (int i = 0; i < 5; ++i)
    {
        q->Enqueue(MakeItem(2, 1000));
    }
    for (int k = 1; k <= 15; ++k)
    {
        EXPECT_EQ(DequeueIsCe(q), k >= 11 && k <= 14) << "departure " << k;
    }
    EXPECT_EQ(NpMarks(q), 4u);
    EXPECT_EQ(q->GetPausedUnmarked(), 10u);
    EXPECT_EQ(q->GetSuppressedMarks(), 10u);
    EXPECT_EQ(q->GetPendingUnmarked(), 0u);
    EXPECT_EQ(q->GetResumes(), 1u);
}

// A second pause in the middle of the drain: 10 queued, resume (PN = 10), 4 leave unmarked,
// pause, 2 arrive, resume: PN = 6 + 2 = 8 packets waiting. Those 8 leave unmarked: 12 exempt
// departures in all and no marks.
TEST(NpEcnQueueDisc, RepeatedResumeResetsPn)
{
    Ptr<NpEcnQueueDisc> q = MakeQueue();
    for (int i = 0; i < 10; ++i)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    q->NotifyPaused();
    q->NotifyResumed();
    for (int k = 0; k < 4; ++k)
    {
        EXPECT_FALSE(DequeueIsCe(q));
    }
    EXPECT_EQ(q->GetPendingUnmarked(), 6u);
    q->NotifyPaused();
    q->Enqueue(MakeItem(1, 1000));
    q->Enqueue(MakeItem(1, 1000));
    q->NotifyResumed();
    EXPECT_EQ(q->GetPendingUnmarked(), 8u);
    for (int k = 0; k < 8; ++k)
    {
        EXPECT_FALSE(DequeueIsCe(q));
    }
    EXPECT_EQ(q->GetPausedUnmarked(), 12u);
    // departures with 9..1, then 7..1 packets behind, 0 at the very end: 11 would have marked
    EXPECT_EQ(q->GetSuppressedMarks(), 11u);
    EXPECT_EQ(NpMarks(q), 0u);
}

// K = 3000 B, ten 1000-byte packets, never paused: departure k leaves 1000 (10 - k) bytes;
// marked if > 3000, i.e. k = 1..6 (9000..4000): 6 marks. K = 3 packets: the same 6.
TEST(NpEcnQueueDisc, ThresholdK)
{
    for (QueueSize k : {QueueSize("3000B"), QueueSize("3p")})
    {
        Ptr<NpEcnQueueDisc> q = MakeQueue(k);
        for (int i = 0; i < 10; ++i)
        {
            q->Enqueue(MakeItem(1, 1000));
        }
        for (int d = 1; d <= 10; ++d)
        {
            EXPECT_EQ(DequeueIsCe(q), d <= 6) << k << " departure " << d;
        }
        EXPECT_EQ(NpMarks(q), 6u) << k;
    }
}

// -------------------------------------------------------------------------- sender role

TEST_F(PcnTest, InitAtLineRate)
{
    m_cc->Init(m_flow);
    EXPECT_EQ(m_flow->m_rate.Get(), DataRate("40Gb/s"));
    EXPECT_DOUBLE_EQ(m_cc->GetW(), kWmin);
    EXPECT_EQ(m_cc->GetName(), "pcn");
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("pcn"), RdmaPcn::GetTypeId());
}

// From rate 0 (MinRate 0), unmarked CNPs: rate_n = rate_{n-1} (1 - w) + L w, then
// w = w (1 - w) + Wmax w.
// Step 1: w = 1/128: rate = L/128 = 40e9/128 = 312,500,000 b/s exactly;
//         w = (1/128)(1 - 1/128 + 1/2) = (1/128)(191/128) = 191/16384.
// Step 2: rate = (L/128)(1 - 191/16384) + L 191/16384 = L (16193 + 24448) / 2097152
//         = 40e9 x 40641/2097152 = 775,165,557.86 b/s (stored rounded: 775,165,558).
// Then (rate/L, computed the same way): n=5: 0.0967876 <= 0.10; n=14: 0.92268; n=15: 0.958396
// >= 0.95 (the paper's property).
TEST_F(PcnTest, IncreaseFromZero)
{
    m_cc->SetAttribute("MinRate", DataRateValue(DataRate(uint64_t(0))));
    m_cc->Init(m_flow);
    m_flow->m_rate = DataRate(uint64_t(0));
    // Model the sequence exactly in doubles and compare every step.
    double r = 0;
    double w = kWmin;
    for (int n = 1; n <= 15; ++n)
    {
        r = r * (1 - w) + kLine * w;
        w = w * (1 - w) + kWmax * w;
        Cnp(false, DataRate("1Gb/s"));
        EXPECT_NEAR(Rate(), r, 20.0) << "step " << n; // <= 1 b/s rounding per step
        std::printf("PCN increase from 0: step %d rate %.0f b/s (%.6f of line rate)\n",
                    n,
                    Rate(),
                    Rate() / kLine);
        if (n == 1)
        {
            EXPECT_EQ(Rate(), 312500000.0);
            EXPECT_DOUBLE_EQ(m_cc->GetW(), 191.0 / 16384);
        }
        if (n == 2)
        {
            EXPECT_EQ(Rate(), 775165558.0);
            EXPECT_NEAR(Rate(), kLine * 40641.0 / 2097152, 1.0);
        }
        if (n == 5)
        {
            EXPECT_LE(Rate(), 0.10 * kLine);
            EXPECT_NEAR(Rate() / kLine, 0.0967876, 1e-6);
        }
        if (n == 14)
        {
            EXPECT_LT(Rate(), 0.95 * kLine);
        }
        if (n == 15)
        {
            EXPECT_GE(Rate(), 0.95 * kLine);
            EXPECT_NEAR(Rate() / kLine, 0.958396, 1e-6);
        }
    }
    EXPECT_NEAR(m_cc->GetW(), w, 1e-12);
}

// Congested CNP at line rate with recRate 10 Gb/s: rate = 10e9 x 127/128 = 9,921,875,000 b/s;
// w = Wmin. A second congested CNP with recRate 20 Gb/s: min(9.921875e9, 19.84375e9) keeps
// 9.921875e9. recRate 5 Gb/s then: 5e9 x 127/128 = 4,960,937,500.
TEST_F(PcnTest, DecreaseToDiscountedRecRate)
{
    m_cc->Init(m_flow);
    Cnp(false, DataRate("1Gb/s")); // w grows to 191/16384
    EXPECT_GT(m_cc->GetW(), kWmin);
    Cnp(true, DataRate("10Gb/s"));
    EXPECT_EQ(Rate(), 9921875000.0);
    EXPECT_DOUBLE_EQ(m_cc->GetW(), kWmin);
    Cnp(true, DataRate("20Gb/s"));
    EXPECT_EQ(Rate(), 9921875000.0);
    Cnp(true, DataRate("5Gb/s"));
    EXPECT_EQ(Rate(), 4960937500.0);
    // Next unmarked CNP: 4,960,937,500 (127/128) + 40e9/128 = 4,922,180,175.78 + 312,500,000
    // = 5,234,680,175.78 b/s.
    Cnp(false, DataRate("1Gb/s"));
    EXPECT_NEAR(Rate(), 5234680175.78, 1.0);
}

// A congested CNP with a tiny recRate clamps at MinRate (100 Mb/s default):
// 50 Mb/s x 127/128 = 49.6 Mb/s < 100 Mb/s.
TEST_F(PcnTest, DecreaseClampsAtMinRate)
{
    m_cc->Init(m_flow);
    Cnp(true, DataRate("50Mb/s"));
    EXPECT_EQ(Rate(), 100e6);
}

// Each bad attribute on its own (the others at their valid defaults) is rejected with a message
// naming it.
TEST_F(PcnTest, BadAttributesThrow)
{
    auto sender = [this]()
    {
        m_cc->Init(m_flow);
    };
    auto receiver = [this]()
    {
        m_cc->InitReceiver(CreateObject<RdmaRxFlowState>(), RdmaCongestionOps::SendCnpCallback());
    };
    m_cc->SetAttribute("Wmin", DoubleValue(0.0));
    test::ExpectInvalid(sender, "Wmin = 0");
    m_cc->SetAttribute("Wmin", DoubleValue(2.0));
    test::ExpectInvalid(sender, "Wmin = 2");
    m_cc->SetAttribute("Wmin", DoubleValue(1.0 / 128));
    m_cc->SetAttribute("Wmax", DoubleValue(1.5));
    test::ExpectInvalid(sender, "Wmax = 1.5");
    m_cc->SetAttribute("Wmax", DoubleValue(0.5));
    m_cc->SetAttribute("MinRate", DataRateValue(DataRate("100Gb/s")));
    test::ExpectInvalid(sender, "MinRate");
    m_cc->SetAttribute("MinRate", DataRateValue(DataRate("100Mb/s")));
    m_cc->SetAttribute("ReceiverPeriod", TimeValue(Time(0)));
    test::ExpectInvalid(receiver, "ReceiverPeriod");
    m_cc->SetAttribute("ReceiverPeriod", TimeValue(MicroSeconds(50)));
    m_cc->SetAttribute("CongestionRatio", DoubleValue(1.2));
    test::ExpectInvalid(receiver, "CongestionRatio = 1.2");
    m_cc->SetAttribute("CongestionRatio", DoubleValue(0.95));
    EXPECT_NO_THROW(sender()); // all valid again
}

// ------------------------------------------------------------------------ receiver role

// 1000-byte CE packets at 0, 1, ..., 199 us. Periods [0,50), [50,100), [100,150), [150,200)
// hold 50 packets each (a packet at exactly 50 us opens the next period); the period
// [200,250) is empty, so no CNP there and the timer stops.
// recRate = 50 x 1000 B x 8 / 50 us = 400,000 bit / 5e-5 s = 8,000,000,000 b/s exactly.
TEST_F(PcnTest, ReceiverAllCeCongested)
{
    StartReceiver();
    for (int i = 0; i < 200; ++i)
    {
        PacketAt(MicroSeconds(i), true);
    }
    RunUntil(MicroSeconds(400));
    ASSERT_EQ(m_cnps.size(), 4u);
    for (int k = 0; k < 4; ++k)
    {
        EXPECT_EQ(m_cnps[k].first, MicroSeconds(50 * (k + 1)));
        EXPECT_TRUE(m_cnps[k].second.congested);
        EXPECT_EQ(m_cnps[k].second.recRate.GetBitRate(), 8000000000ull);
    }
    EXPECT_EQ(m_rx->m_cnpsSent, 4u);
    EXPECT_FALSE(m_cc->IsReceiverTimerRunning());
}

// Same traffic, 47 of each period's 50 packets CE (94% < 95%): congested = false, recRate still
// 8 Gb/s.
TEST_F(PcnTest, Receiver94PercentNotCongested)
{
    StartReceiver();
    for (int i = 0; i < 200; ++i)
    {
        PacketAt(MicroSeconds(i), i % 50 >= 3);
    }
    RunUntil(MicroSeconds(400));
    ASSERT_EQ(m_cnps.size(), 4u);
    for (const auto& c : m_cnps)
    {
        EXPECT_FALSE(c.second.congested);
        EXPECT_EQ(c.second.recRate.GetBitRate(), 8000000000ull);
    }
}

// Exactly 95%: packets every 2.5 us (20 per period), 19 of 20 CE -> congested.
// recRate = 20 x 8000 bit / 50 us = 3,200,000,000 b/s.
TEST_F(PcnTest, ReceiverExactly95PercentCongested)
{
    StartReceiver();
    for (int i = 0; i < 80; ++i)
    {
        PacketAt(NanoSeconds(2500 * i), i % 20 != 0);
    }
    RunUntil(MicroSeconds(400));
    ASSERT_EQ(m_cnps.size(), 4u);
    for (const auto& c : m_cnps)
    {
        EXPECT_TRUE(c.second.congested);
        EXPECT_EQ(c.second.recRate.GetBitRate(), 3200000000ull);
    }
}

// Slow flow: one 1000-byte packet every 120 us (0, 120, 240, 360). Period [0,50) -> CNP at 50
// with recRate = 8000 bit / 50 us = 160 Mb/s (first packet: no inter-arrival time, T used).
// [50,100) is empty: no CNP, timer stops. The packet at 120 opens [120,170): inter-arrival
// 120 us > T, so recRate = 8000 bit / 120 us = 66,666,666.67 -> 66,666,666 b/s (floored); CNP
// at 170. Likewise CNPs at 290 and 410. No CNP at 100, 220, 340, 460.
TEST_F(PcnTest, ReceiverSlowFlowUsesInterArrival)
{
    StartReceiver();
    for (int i = 0; i < 4; ++i)
    {
        PacketAt(MicroSeconds(120 * i), false);
    }
    RunUntil(MicroSeconds(1000));
    ASSERT_EQ(m_cnps.size(), 4u);
    EXPECT_EQ(m_cnps[0].first, MicroSeconds(50));
    EXPECT_EQ(m_cnps[0].second.recRate.GetBitRate(), 160000000ull);
    for (int k = 1; k < 4; ++k)
    {
        EXPECT_EQ(m_cnps[k].first, MicroSeconds(120 * k + 50));
        EXPECT_FALSE(m_cnps[k].second.congested);
        EXPECT_EQ(m_cnps[k].second.recRate.GetBitRate(), 66666666ull);
    }
    EXPECT_FALSE(m_cc->IsReceiverTimerRunning());
}

// Stop cancels the timer: packets at 0..9 us, Stop at 20 us: no CNP at 50 us.
TEST_F(PcnTest, ReceiverStopCancelsTimer)
{
    StartReceiver();
    for (int i = 0; i < 10; ++i)
    {
        PacketAt(MicroSeconds(i), true);
    }
    Ptr<RdmaPcn> cc = m_cc;
    Simulator::Schedule(MicroSeconds(20),
                        [cc]()
                        {
                            cc->Stop();
                        });
    RunUntil(MicroSeconds(200));
    EXPECT_TRUE(m_cnps.empty());
}

TEST(PcnRate, ComputeRate)
{
    // 1500 B in 1 us = 12,000 bit / 1e-6 s = 12 Gb/s; 1 B in 3 ns = 8/3 Gb/s floored.
    EXPECT_EQ(RdmaPcn::ComputeRate(1500, MicroSeconds(1)).GetBitRate(), 12000000000ull);
    EXPECT_EQ(RdmaPcn::ComputeRate(1, NanoSeconds(3)).GetBitRate(), 2666666666ull);
    EXPECT_THROW(RdmaPcn::ComputeRate(1, Time(0)), std::invalid_argument);
}
