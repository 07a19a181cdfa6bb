/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of DCON's pieces: the three-state queue disc (thresholds, latch, N), the T_last
// window, the sender's CNM reaction with the 50 us rule, and the Q_CNM calculator.
#include "ns3/boolean.h"
#include "ns3/dcon-ingress-tracker.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-dcon.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <tuple>
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

/// A DCON queue alone (no switch): fixed Q_CNM, N = flows queued now.
Ptr<DconQueueDisc>
MakeQueue(const std::string& qEcn, const std::string& qCnm, bool markInBurst = false)
{
    Ptr<DconQueueDisc> q = CreateObject<DconQueueDisc>();
    q->SetAttribute("QcnmMode", StringValue("Fixed"));
    q->SetAttribute("FlowCount", StringValue("Queued"));
    q->SetAttribute("QEcn", QueueSizeValue(QueueSize(qEcn)));
    q->SetAttribute("QCnm", QueueSizeValue(QueueSize(qCnm)));
    q->SetAttribute("MarkInBurst", BooleanValue(markInBurst));
    q->SetLinkRate(DataRate("40Gbps"));
    q->Initialize();
    return q;
}

} // namespace

// Q_ECN = 10 KB, Q_CNM = 20 KB, 1000-byte packets.
// Enqueue k (1-based) sees 1000 (k-1) bytes ahead of it and leaves 1000 k in the queue.
// - packets 1..10: ahead 0..9000 < 10000: not marked; state after packet 10 is PERSISTENT
//   (10000 >= Q_ECN)
// - packets 11..20: ahead 10000..19000 in [Q_ECN, Q_CNM): marked (10 marks); after packet 20 the
//   queue holds 20000 = Q_CNM: BURST (one onset), and packet 20 is the first congested report
// - packets 21..25: ahead >= Q_CNM: not marked (burst), each reported (5 more reports)
TEST(DconQueueDisc, ThreeStatesOnEnqueue)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB");
    std::vector<uint32_t> reports;
    q->TraceConnectWithoutContext(
        "CongestedFlow",
        MakeCallback(+[](std::vector<uint32_t>* r, Ptr<const QueueDiscItem>, uint32_t n)
                     {
                         r->push_back(n);
                     })
            .Bind(&reports));
    std::vector<Ptr<RdmaQueueDiscItem>> items;
    for (int k = 1; k <= 25; ++k)
    {
        Ptr<RdmaQueueDiscItem> it = MakeItem(1, 1000);
        items.push_back(it);
        q->Enqueue(it);
        if (k == 9)
        {
            EXPECT_EQ(q->GetState(), DconQueueDisc::NOT_CONGESTED);
        }
        if (k == 10)
        {
            EXPECT_EQ(q->GetState(), DconQueueDisc::PERSISTENT);
        }
        if (k == 19)
        {
            EXPECT_EQ(q->GetState(), DconQueueDisc::PERSISTENT);
            EXPECT_TRUE(reports.empty());
        }
    }
    for (int k = 0; k < 25; ++k)
    {
        EXPECT_EQ(items[k]->IsCe(), k >= 10 && k < 20) << "packet " << k + 1;
    }
    EXPECT_EQ(q->GetStats().GetNMarkedPackets(DconQueueDisc::PERSISTENT_MARK), 10u);
    EXPECT_EQ(q->GetState(), DconQueueDisc::BURST);
    EXPECT_TRUE(q->IsBurstCongested());
    EXPECT_TRUE(q->IsMarkingDisabled());
    EXPECT_EQ(q->GetBurstOnsets(), 1u);
    EXPECT_EQ(reports.size(), 6u);
    EXPECT_EQ(q->GetCnmTriggers(), 6u);
    EXPECT_EQ(reports.front(), 1u); // one flow in the queue
    // 25 arrivals; packets 21..25 found >= Q_ECN ahead and were not marked (burst); Q_CNM
    // (20 KB) is above Q_ECN, so no arrival is at the floor.
    EXPECT_EQ(q->GetStats().nTotalEnqueuedPackets, 25u);
    EXPECT_EQ(q->GetUnmarkedAboveQecn(), 5u);
    EXPECT_EQ(q->GetArrivalsAtQecnFloor(), 0u);
}

// Q_CNM = Q_ECN = 10 KB (the dynamic bound at its floor): no persistent band. Packets 1..10
// see 0..9000 B ahead (below Q_ECN: not marked); after packet 10 the queue holds 10000 B =
// Q_CNM: burst; packets 11 and 12 see 10000 and 11000 B ahead and are not marked. So 12
// arrivals, all 12 at the floor, 2 unmarked at or above Q_ECN, 0 marks.
TEST(DconQueueDisc, QcnmAtQecnFloorNeverMarks)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "10KB");
    for (int k = 1; k <= 12; ++k)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    EXPECT_EQ(q->GetStats().nTotalEnqueuedPackets, 12u);
    EXPECT_EQ(q->GetArrivalsAtQecnFloor(), 12u);
    EXPECT_EQ(q->GetUnmarkedAboveQecn(), 2u);
    EXPECT_EQ(q->GetStats().GetNMarkedPackets(DconQueueDisc::PERSISTENT_MARK), 0u);
    EXPECT_EQ(q->GetState(), DconQueueDisc::BURST);
}

// The latch: after a burst, marking stays off between Q_ECN and Q_CNM until the queue falls
// below Q_ECN. Queue at 25000 (burst). Dequeue down to 15000 (10 dequeues): PERSISTENT but
// latched, so a packet enqueued with 15000 ahead is NOT marked. Dequeue to 9000 (< Q_ECN):
// latch released; enqueue up to 10000 and the next packet (10000 ahead) is marked again.
TEST(DconQueueDisc, LatchHoldsUntilBelowQecn)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB");
    for (int k = 0; k < 25; ++k)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    for (int k = 0; k < 10; ++k)
    {
        q->Dequeue();
    }
    EXPECT_EQ(q->GetNBytes(), 15000u);
    EXPECT_EQ(q->GetState(), DconQueueDisc::PERSISTENT);
    EXPECT_TRUE(q->IsMarkingDisabled());
    EXPECT_FALSE(q->IsBurstCongested());
    Ptr<RdmaQueueDiscItem> latched = MakeItem(1, 1000);
    q->Enqueue(latched); // 15000 ahead
    EXPECT_FALSE(latched->IsCe());
    while (q->GetNBytes() > 9000)
    {
        q->Dequeue();
    }
    EXPECT_EQ(q->GetState(), DconQueueDisc::NOT_CONGESTED);
    EXPECT_FALSE(q->IsMarkingDisabled());
    q->Enqueue(MakeItem(1, 1000)); // 9000 ahead: below Q_ECN, not marked, queue now 10000
    Ptr<RdmaQueueDiscItem> again = MakeItem(1, 1000);
    q->Enqueue(again); // 10000 ahead: marked
    EXPECT_TRUE(again->IsCe());
    EXPECT_EQ(q->GetBurstOnsets(), 1u);
    // not marked at or above Q_ECN: packets 21..25 (burst) and the latched one
    EXPECT_EQ(q->GetUnmarkedAboveQecn(), 6u);
    EXPECT_EQ(q->GetStats().nTotalEnqueuedPackets, 28u);
}

// Time in each phase, Q_ECN 10 KB, Q_CNM 20 KB, 1000-byte packets:
// t = 0: 12 packets (queue 12000 >= Q_ECN: marking from t = 0);
// t = 10 us: 8 more (20000 = Q_CNM: burst); t = 25 us: 6 out (14000: the band, latched off);
// t = 40 us: one in, 14000 ahead: a latched arrival (15000); t = 45 us: 6 out (9000 < Q_ECN);
// at 100 us: below Q_ECN 55 us (45..100), marking 10 us, burst 15 us, latched 20 us.
TEST(DconQueueDisc, TimeInEachPhase)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB");
    auto in = [q](int k)
    {
        for (int i = 0; i < k; ++i)
        {
            q->Enqueue(MakeItem(1, 1000));
        }
    };
    auto out = [q](int k)
    {
        for (int i = 0; i < k; ++i)
        {
            q->Dequeue();
        }
    };
    in(12);
    Simulator::Schedule(MicroSeconds(10), [&]() { in(8); });
    Simulator::Schedule(MicroSeconds(25), [&]() { out(6); });
    Simulator::Schedule(MicroSeconds(40), [&]() { in(1); });
    Simulator::Schedule(MicroSeconds(45), [&]() { out(6); });
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    const auto t = q->GetTimeInStates();
    EXPECT_EQ(t[DconQueueDisc::PHASE_BELOW_QECN], MicroSeconds(55));
    EXPECT_EQ(t[DconQueueDisc::PHASE_MARKING], MicroSeconds(10));
    EXPECT_EQ(t[DconQueueDisc::PHASE_BURST], MicroSeconds(15));
    EXPECT_EQ(t[DconQueueDisc::PHASE_LATCHED], MicroSeconds(20));
    EXPECT_EQ(q->GetLatchedArrivals(), 1u);
    EXPECT_EQ(q->GetNBytes(), 9000u);
    Simulator::Destroy();
}

// MarkInBurst (no latch), same sequence as ThreeStatesOnEnqueue: every packet with at least
// Q_ECN = 10 KB ahead is marked, in burst congestion too (packets 11..25: 15 marks), and the
// burst is still reported for CNMs (6 reports, 1 onset); after draining to 15000 B the next
// packet (15000 ahead) is marked, not latched off.
TEST(DconQueueDisc, MarkInBurstKeepsMarking)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB", true);
    std::vector<Ptr<RdmaQueueDiscItem>> items;
    for (int k = 1; k <= 25; ++k)
    {
        items.push_back(MakeItem(1, 1000));
        q->Enqueue(items.back());
    }
    for (int k = 0; k < 25; ++k)
    {
        EXPECT_EQ(items[k]->IsCe(), k >= 10) << "packet " << k + 1;
    }
    EXPECT_EQ(q->GetState(), DconQueueDisc::BURST);
    EXPECT_FALSE(q->IsMarkingDisabled());
    EXPECT_EQ(q->GetBurstOnsets(), 1u);
    EXPECT_EQ(q->GetCnmTriggers(), 6u);
    for (int k = 0; k < 10; ++k)
    {
        q->Dequeue();
    }
    Ptr<RdmaQueueDiscItem> next = MakeItem(1, 1000);
    q->Enqueue(next); // 15000 ahead
    EXPECT_TRUE(next->IsCe());
}

// N counts distinct flows with packets in the queue: 3 packets of flow A, 2 of B, 1 of C -> 3;
// after the 3 packets of A leave (FIFO: A A A B B C), N = 2; after everything, 0.
TEST(DconQueueDisc, CountsFlowsInQueue)
{
    Ptr<DconQueueDisc> q = MakeQueue("100KB", "200KB");
    for (uint16_t s : {1, 1, 1, 2, 2, 3})
    {
        q->Enqueue(MakeItem(s, 1000));
    }
    EXPECT_EQ(q->GetNumFlows(), 3u);
    for (int k = 0; k < 3; ++k)
    {
        q->Dequeue();
    }
    EXPECT_EQ(q->GetNumFlows(), 2u);
    for (int k = 0; k < 3; ++k)
    {
        q->Dequeue();
    }
    EXPECT_EQ(q->GetNumFlows(), 0u);
}

// N reported with a burst includes the arriving packet's flow: 19 packets of flow 1 (19000 B),
// then one of flow 2 makes 20000 = Q_CNM: reported N = 2.
TEST(DconQueueDisc, ReportsNWithArrivingFlow)
{
    Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB");
    uint32_t lastN = 0;
    q->TraceConnectWithoutContext(
        "CongestedFlow",
        MakeCallback(+[](uint32_t* n, Ptr<const QueueDiscItem>, uint32_t v)
                     {
                         *n = v;
                     })
            .Bind(&lastN));
    for (int k = 0; k < 19; ++k)
    {
        q->Enqueue(MakeItem(1, 1000));
    }
    EXPECT_EQ(lastN, 0u);
    q->Enqueue(MakeItem(2, 1000));
    EXPECT_EQ(lastN, 2u);
}

// FlowCount = Window (the default): N counts the flows with a packet queued now or seen less
// than FlowWindow (here 100 us) ago. A arrives at 0 and leaves at 1 us; B arrives at 50 us and
// stays queued; C at 150 us; D at 170 us after B left at 160 us.
//   at 50 us:  A (seen 50 us ago) + B                 -> 2
//   at 150 us: A expired (150 us), B queued, C         -> 2
//   at 170 us: B left (last seen 120 us ago), C, D     -> 2; and at 260 us, nothing queued and
//   C (110 us) and D (90 us): D only                   -> 1
// FlowCount = Queued counts only what is queued: 1, 2, 2, 1 at the same instants.
TEST(DconQueueDisc, FlowWindowCountsFlowsPassingThrough)
{
    for (const char* mode : {"Window", "Queued"})
    {
        SCOPED_TRACE(mode);
        Ptr<DconQueueDisc> q = MakeQueue("10KB", "20KB");
        q->SetAttribute("FlowCount", StringValue(mode));
        q->SetAttribute("FlowWindow", TimeValue(MicroSeconds(100)));
        const bool window = std::string(mode) == "Window";
        std::vector<uint32_t> n;
        auto at = [](double us, std::function<void()> f)
        {
            Simulator::Schedule(NanoSeconds(static_cast<int64_t>(us * 1000)), f);
        };
        at(0,
           [q]()
           {
               q->Enqueue(MakeItem(1, 1000));
           });
        at(1,
           [q]()
           {
               q->Dequeue();
           });
        at(50,
           [q, &n]()
           {
               q->Enqueue(MakeItem(2, 1000));
               n.push_back(q->GetNumFlows());
           });
        at(150,
           [q, &n]()
           {
               q->Enqueue(MakeItem(3, 1000));
               n.push_back(q->GetNumFlows());
           });
        at(160,
           [q]()
           {
               q->Dequeue();
           }); // B (first in the FIFO)
        at(170,
           [q, &n]()
           {
               q->Enqueue(MakeItem(4, 1000));
               n.push_back(q->GetNumFlows());
           });
        at(250,
           [q]()
           {
               q->Dequeue();
               q->Dequeue();
           });
        at(260,
           [q, &n]()
           {
               n.push_back(q->GetNumFlows());
           });
        Simulator::Run();
        std::vector<uint32_t> expected
            = window ? std::vector<uint32_t>{2, 2, 2, 1} : std::vector<uint32_t>{1, 2, 2, 0};
        EXPECT_EQ(n, expected);
        Simulator::Destroy();
    }
}

TEST(DconQueueDisc, RejectsBadThresholds)
{
    EXPECT_THROW(MakeQueue("200KB", "100KB"), std::invalid_argument); // Q_CNM < Q_ECN
    EXPECT_THROW(MakeQueue("0B", "100KB"), std::invalid_argument);
    EXPECT_THROW(MakeQueue("10p", "20p"), std::invalid_argument); // packets
    try
    {
        MakeQueue("200KB", "100KB");
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("100000B"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(MakeQueue("100KB", "100KB")); // Q_CNM = Q_ECN is allowed
}

// Dynamic Q_CNM = max(Q_ECN, Q_PFC/M - 3 d C (M-1)), d = 5 us, C = 40 Gb/s:
// 3 d C = 3 x 5e-6 x 5e9 B/s = 75000 B.
// M = 1: 320000 - 0 = 320000.  M = 2: 160000 - 75000 = 85000 < Q_ECN 200000 -> 200000.
// Q_ECN 50 KB, M = 2: 85000.  M = 3: 106666 - 150000 < 0 -> Q_ECN.
TEST(DconQueueDisc, DynamicQcnm)
{
    auto calc = [](const char* qEcn, uint32_t m)
    {
        return DconQueueDisc::ComputeDynamicQcnm(
                   QueueSize(qEcn), QueueSize("320KB"), m, MicroSeconds(5), DataRate("40Gbps"))
            .GetValue();
    };
    EXPECT_EQ(calc("200KB", 1), 320000u);
    EXPECT_EQ(calc("200KB", 2), 200000u);
    EXPECT_EQ(calc("50KB", 2), 85000u);
    EXPECT_EQ(calc("50KB", 3), 50000u);
    EXPECT_THROW(calc("50KB", 0), std::invalid_argument);
}

// T_last window T = 120 us: a non-congested arrival at 10 us qualifies the port until just
// before 130 us; a port that never carried one never qualifies.
TEST(DconIngressTracker, Window)
{
    Ptr<DconIngressTracker> t = CreateObject<DconIngressTracker>();
    t->SetAttribute("Window", TimeValue(MicroSeconds(120)));
    t->SetNPorts(2);
    std::vector<std::pair<Time, bool>> seen;
    Simulator::Schedule(MicroSeconds(10),
                        [t]()
                        {
                            t->RecordNonCongested(0, 1);
                        });
    for (int64_t us : {5, 10, 129, 130, 200})
    {
        Simulator::Schedule(MicroSeconds(us) + PicoSeconds(1),
                            [t, &seen, us]()
                            {
                                (void) us;
                                seen.emplace_back(Simulator::Now(), t->HasRecentNonCongested(0, 2));
                            });
    }
    Simulator::Schedule(MicroSeconds(20),
                        [t]()
                        {
                            EXPECT_FALSE(t->HasRecentNonCongested(1, 2));
                        });
    Simulator::Run();
    ASSERT_EQ(seen.size(), 5u);
    EXPECT_FALSE(seen[0].second); // 5 us: nothing recorded yet
    EXPECT_TRUE(seen[1].second);  // 10 us + 1 ps
    EXPECT_TRUE(seen[2].second);  // 129 us: 119 us since
    EXPECT_FALSE(seen[3].second); // 130 us + 1 ps: 120 us + 1 ps since
    EXPECT_FALSE(seen[4].second);
    EXPECT_EQ(t->GetLastNonCongested(0), MicroSeconds(10));
    EXPECT_EQ(t->GetLastNonCongested(0, 2), MicroSeconds(10));
    EXPECT_TRUE(t->GetLastNonCongested(0, 1).IsNegative()); // its only stamp went to egress 1
    EXPECT_TRUE(t->GetLastNonCongested(1).IsNegative());
    Simulator::Destroy();
}

// T_last per (ingress, egress), Scope OtherEgress (default), T = 120 us. Ingress 0 stamps
// toward egress 1 at 10 us, egress 2 at 20 us, egress 1 at 30 us. For a flow congested at
// egress 1 the latest stamp from another egress is 20 us; at egress 2 it is 30 us (egress 1's);
// at egress 3, 30 us. At 139 us: egress 1 119 us since 20 us (recent), at 141 us 121 us
// (not); egress 2 still recent at 141 us (111 us since 30 us). Ingress 1 only ever sends to
// egress 1: a flow congested there never qualifies (its own packets do not count), one
// congested at egress 4 does. Scope Port: every stamp counts (ingress 1 qualifies for egress 1).
TEST(DconIngressTracker, PerIngressAndEgress)
{
    for (const char* scope : {"OtherEgress", "Port"})
    {
        SCOPED_TRACE(scope);
        const bool port = std::string(scope) == "Port";
        Ptr<DconIngressTracker> t = CreateObject<DconIngressTracker>();
        t->SetAttribute("Scope", StringValue(scope));
        t->SetNPorts(5);
        for (auto [us, in, out] : std::vector<std::tuple<int, uint32_t, uint32_t>>{
                 {10, 0, 1}, {20, 0, 2}, {30, 0, 1}, {30, 1, 1}, {35, 1, 1}})
        {
            Simulator::Schedule(MicroSeconds(us),
                                [t, in = in, out = out]()
                                {
                                    t->RecordNonCongested(in, out);
                                });
        }
        Simulator::Stop(MicroSeconds(40));
        Simulator::Run();
        EXPECT_EQ(t->GetLastNonCongested(0, 1), MicroSeconds(port ? 30 : 20));
        EXPECT_EQ(t->GetLastNonCongested(0, 2), MicroSeconds(30));
        EXPECT_EQ(t->GetLastNonCongested(0, 3), MicroSeconds(30));
        EXPECT_EQ(t->GetLastNonCongested(0), MicroSeconds(30));
        EXPECT_EQ(t->HasRecentNonCongested(1, 1), port);
        EXPECT_TRUE(t->HasRecentNonCongested(1, 4));
        Simulator::Stop(MicroSeconds(99)); // to 139 us
        Simulator::Run();
        EXPECT_TRUE(t->HasRecentNonCongested(0, 1));
        Simulator::Stop(MicroSeconds(2)); // to 141 us
        Simulator::Run();
        EXPECT_EQ(t->HasRecentNonCongested(0, 1), port); // Port: 111 us since 30 us
        EXPECT_TRUE(t->HasRecentNonCongested(0, 2));
        Simulator::Destroy();
    }
}

namespace
{
struct DconSender
{
    Ptr<RdmaFlowState> flow;
    Ptr<RdmaDcon> cc;

    /// A sender at 40 Gb/s; \p variant "Paper" or "Dcqcn", \p setsTarget CnmSetsTargetRate,
    /// \p increase UnmarkedCnpIncrease (the listing as written: "0bps").
    explicit DconSender(const std::string& variant = "Paper",
                        bool setsTarget = false,
                        const std::string& increase = "40Mbps")
    {
        flow = CreateObject<RdmaFlowState>();
        flow->m_lineRate = DataRate("40Gbps");
        cc = CreateObject<RdmaDcon>();
        cc->SetAttribute("Sender", StringValue(variant));
        cc->SetAttribute("CnmSetsTargetRate", BooleanValue(setsTarget));
        cc->SetAttribute("UnmarkedCnpIncrease", StringValue(increase));
        cc->Init(flow);
    }

    void
    CnmAt(Time at, uint16_t n)
    {
        Simulator::Schedule(at,
                            [this, n]()
                            {
                                RdmaCnmInfo info;
                                info.numFlows = n;
                                info.capacity = DataRate("40Gbps");
                                cc->OnCnm(flow, info);
                            });
    }

    /// Deliver a CNP with congestion mark \p marked now.
    void
    Cnp(bool marked)
    {
        RdmaCnpInfo info;
        info.congested = marked;
        cc->OnCnp(flow, info);
    }

    uint64_t
    Rate() const
    {
        return flow->m_rate.Get().GetBitRate();
    }

    uint64_t
    Target() const
    {
        return flow->m_targetRate.Get().GetBitRate();
    }

    uint64_t
    RateAt(Time at)
    {
        uint64_t r = 0;
        // absolute time: the simulator may already have run to an earlier check
        Simulator::Schedule(at - Simulator::Now(),
                            [this, &r]()
                            {
                                r = flow->m_rate.Get().GetBitRate();
                            });
        Simulator::Stop(at + PicoSeconds(1) - Simulator::Now());
        Simulator::Run();
        return r;
    }
};
} // namespace

// The paper's Algorithm 1 by hand, g = 1/256, 40 Gb/s, delta starts at 1, rate = target = 40:
// mark 1: target = 40, delta = (255/256) 1 + 1/256 = 1, rate = 40 (1 - 1/2) = 20
// mark 1: target = 20, delta = 1, rate = 10
// mark 0: delta = 255/256, rate = (20 + 10)/2 = 15
// mark 0: delta = (255/256)^2, rate = (20 + 15)/2 = 17.5
// mark 1: target = 17.5, delta = (255/256)^3 + 1/256 = 0.992203..., rate = 17.5 (1 - delta/2)
//         = 17.5 x 0.5038981... = 8.818217... Gb/s
// mark 0 (x3): rate -> 13.159..., 15.329..., 16.414...; never above the target 17.5.
// (UnmarkedCnpIncrease = 0: the listing as written, without the text's additive increase.)
TEST(RdmaDcon, AlgorithmOneByHand)
{
    DconSender s("Paper", false, "0bps");
    EXPECT_EQ(s.cc->GetSenderVariant(), RdmaDcon::PAPER);
    EXPECT_EQ(s.Rate(), 40000000000u);
    EXPECT_EQ(s.Target(), 40000000000u);
    EXPECT_DOUBLE_EQ(s.cc->GetAlpha(), 1.0);
    s.Cnp(true);
    EXPECT_EQ(s.Target(), 40000000000u);
    EXPECT_EQ(s.Rate(), 20000000000u);
    s.Cnp(true);
    EXPECT_EQ(s.Target(), 20000000000u);
    EXPECT_EQ(s.Rate(), 10000000000u);
    s.Cnp(false);
    EXPECT_DOUBLE_EQ(s.cc->GetAlpha(), 255.0 / 256);
    EXPECT_EQ(s.Rate(), 15000000000u);
    s.Cnp(false);
    EXPECT_EQ(s.Rate(), 17500000000u);
    EXPECT_EQ(s.Target(), 20000000000u);
    s.Cnp(true);
    const double delta = std::pow(255.0 / 256, 3) + 1.0 / 256;
    EXPECT_NEAR(s.cc->GetAlpha(), delta, 1e-15);
    EXPECT_EQ(s.Target(), 17500000000u);
    const double r = 17.5e9 * (1 - delta / 2);
    EXPECT_NEAR(static_cast<double>(s.Rate()), r, 1.0);
    double expect = r;
    for (int i = 0; i < 3; ++i)
    {
        s.Cnp(false);
        expect = (17.5e9 + expect) / 2;
        EXPECT_NEAR(static_cast<double>(s.Rate()), expect, 2.0);
    }
    for (int i = 0; i < 100; ++i)
    {
        s.Cnp(false);
    }
    EXPECT_EQ(s.Rate(), 17500000000u); // converges to the target, never above it
    s.cc->Stop();
    Simulator::Destroy();
}

// The defaults read with the text: additive increase R_AI = 40 Mb/s on unmarked CNPs, a CNM sets
// the target too and only lowers. By hand, 40 Gb/s, g = 1/256, alpha 1:
// CNM N = 4 at 10 us: rate = target = 10 Gb/s (alpha untouched).
// mark 0: alpha = 255/256, target = 10.04, rate = (10.04 + 10)/2 = 10.02
// mark 0: alpha = (255/256)^2, target = 10.08, rate = (10.08 + 10.02)/2 = 10.05
// mark 0: alpha = (255/256)^3, target = 10.12, rate = (10.12 + 10.05)/2 = 10.085
// mark 1: target = 10.085, alpha = (255/256)^4 + 1/256, rate = 10.085 (1 - alpha/2)
// mark 0: target = 10.085 + 0.04 = 10.125, rate = (10.125 + r)/2
// A CNM N = 2 (20 Gb/s) 100 us later is above the rate: ignored (not lowering), counted.
// Near the line rate the target stops at 40 Gb/s.
TEST(RdmaDcon, AdditiveIncreaseByHand)
{
    Ptr<RdmaFlowState> flow = CreateObject<RdmaFlowState>();
    flow->m_lineRate = DataRate("40Gbps");
    Ptr<RdmaDcon> cc = CreateObject<RdmaDcon>();
    cc->Init(flow);
    auto cnm = [&](uint16_t n)
    {
        RdmaCnmInfo info;
        info.numFlows = n;
        info.capacity = DataRate("40Gbps");
        return cc->OnCnm(flow, info);
    };
    auto cnp = [&](bool marked)
    {
        RdmaCnpInfo info;
        info.congested = marked;
        cc->OnCnp(flow, info);
    };
    auto rate = [&]() { return flow->m_rate.Get().GetBitRate(); };
    auto target = [&]() { return flow->m_targetRate.Get().GetBitRate(); };
    EXPECT_TRUE(cnm(4));
    EXPECT_EQ(rate(), 10000000000u);
    EXPECT_EQ(target(), 10000000000u);
    cnp(false);
    EXPECT_EQ(target(), 10040000000u);
    EXPECT_EQ(rate(), 10020000000u);
    cnp(false);
    EXPECT_EQ(target(), 10080000000u);
    EXPECT_EQ(rate(), 10050000000u);
    cnp(false);
    EXPECT_EQ(target(), 10120000000u);
    EXPECT_EQ(rate(), 10085000000u);
    EXPECT_NEAR(cc->GetAlpha(), std::pow(255.0 / 256, 3), 1e-15);
    cnp(true);
    const double alpha = std::pow(255.0 / 256, 4) + 1.0 / 256;
    EXPECT_NEAR(cc->GetAlpha(), alpha, 1e-15);
    EXPECT_EQ(target(), 10085000000u);
    const double r = 10.085e9 * (1 - alpha / 2);
    EXPECT_NEAR(static_cast<double>(rate()), r, 1.0);
    cnp(false);
    EXPECT_EQ(target(), 10125000000u);
    EXPECT_NEAR(static_cast<double>(rate()), (10.125e9 + r) / 2, 2.0);
    // Outside the hold time (the simulator's clock does not move here: hold from t = 0 lasts
    // 50 us, so move it): a not-lowering CNM is ignored by default and counted.
    Simulator::Schedule(MicroSeconds(100), [&]() { EXPECT_FALSE(cnm(2)); });
    Simulator::Run();
    EXPECT_EQ(cc->GetCnmsReceived(), 2u);
    EXPECT_EQ(cc->GetCnmsApplied(), 1u);
    EXPECT_EQ(cc->GetCnmsNotLowering(), 1u);
    // The target stops at the line rate.
    flow->m_targetRate = DataRate("39.99Gbps");
    flow->m_rate = DataRate("39.99Gbps");
    cnp(false);
    EXPECT_EQ(target(), 40000000000u);
    EXPECT_EQ(rate(), 39995000000u);
    cc->Stop();
    Simulator::Destroy();
}

// DCQCN's hyper increase as an option: R_HAI = 400 Mb/s after 2 unmarked CNPs in a row. From a
// CNM to 10 Gb/s: +40, +40, then +400 Mb/s: targets 10.04, 10.08, 10.48; a marked CNP restarts
// the count (the next step is +40 again: target = the rate r before the cut, then r + 0.04).
TEST(RdmaDcon, HyperIncreaseOption)
{
    Ptr<RdmaFlowState> flow = CreateObject<RdmaFlowState>();
    flow->m_lineRate = DataRate("40Gbps");
    Ptr<RdmaDcon> cc = CreateObject<RdmaDcon>();
    cc->SetAttribute("UnmarkedCnpHyperIncrease", StringValue("400Mbps"));
    cc->SetAttribute("HyperIncreaseAfter", UintegerValue(2));
    cc->Init(flow);
    RdmaCnmInfo info;
    info.numFlows = 4;
    info.capacity = DataRate("40Gbps");
    cc->OnCnm(flow, info);
    RdmaCnpInfo unmarked;
    unmarked.congested = false;
    RdmaCnpInfo marked;
    marked.congested = true;
    std::vector<uint64_t> targets;
    for (int i = 0; i < 3; ++i)
    {
        cc->OnCnp(flow, unmarked);
        targets.push_back(flow->m_targetRate.Get().GetBitRate());
    }
    EXPECT_EQ(targets, (std::vector<uint64_t>{10040000000u, 10080000000u, 10480000000u}));
    const uint64_t r = flow->m_rate.Get().GetBitRate(); // the marked CNP's new target
    cc->OnCnp(flow, marked);
    cc->OnCnp(flow, unmarked);
    EXPECT_EQ(flow->m_targetRate.Get().GetBitRate(), r + 40000000u);
    cc->Stop();
    Simulator::Destroy();
}

// Line 2: a CNM sets the sending rate to C/N (N = 4 on 40 Gb/s: 10 Gb/s). With
// CnmSetsTargetRate = false the target stays (here the line rate), so an unmarked CNP halves the
// gap: (40 + 10)/2 = 25 Gb/s. With it (default) the target becomes 10 Gb/s too and an unmarked
// CNP adds R_AI: target 10.04, rate 10.02 Gb/s.
TEST(RdmaDcon, CnmSetsSendingRateOnly)
{
    DconSender s;
    s.CnmAt(MicroSeconds(10), 4);
    EXPECT_EQ(s.RateAt(MicroSeconds(11)), 10000000000u);
    EXPECT_EQ(s.Target(), 40000000000u);
    EXPECT_EQ(s.cc->GetCnmsApplied(), 1u);
    s.Cnp(false);
    EXPECT_EQ(s.Rate(), 25000000000u);
    s.cc->Stop();
    Simulator::Destroy();

    DconSender t("Paper", true);
    t.CnmAt(MicroSeconds(10), 4);
    EXPECT_EQ(t.RateAt(MicroSeconds(11)), 10000000000u);
    EXPECT_EQ(t.Target(), 10000000000u);
    t.Cnp(false);
    EXPECT_EQ(t.Target(), 10040000000u);
    EXPECT_EQ(t.Rate(), 10020000000u);
    t.cc->Stop();
    Simulator::Destroy();
}

// Line 2 sets the sending rate to C/N whatever it was, so a CNM can raise a slow flow: after a
// marked CNP (40 -> 20 Gb/s) a CNM with N = 1 sets 40 Gb/s (applied). With CnmRaisesRate =
// false it is ignored (received, not applied) and the rate stays 20 Gb/s; a lowering CNM
// (N = 4: 10 Gb/s) 100 us later, outside the hold time, is applied in both. Both variants.
TEST(RdmaDcon, CnmRaisesRateOnlyWhenAllowed)
{
    for (const char* variant : {"Paper", "Dcqcn"})
    {
        for (bool raises : {true, false})
        {
            SCOPED_TRACE(std::string(variant) + (raises ? " raises" : " lowers only"));
            DconSender s(variant);
            s.cc->SetAttribute("CnmRaisesRate", BooleanValue(raises));
            RdmaCnpInfo info;
            info.congested = true;
            s.cc->OnCnp(s.flow, info); // both variants halve: alpha = 1
            ASSERT_EQ(s.Rate(), 20000000000u);
            s.CnmAt(MicroSeconds(10), 1);
            s.CnmAt(MicroSeconds(110), 4);
            EXPECT_EQ(s.RateAt(MicroSeconds(11)), raises ? 40000000000u : 20000000000u);
            EXPECT_EQ(s.RateAt(MicroSeconds(111)), 10000000000u);
            EXPECT_EQ(s.cc->GetCnmsReceived(), 2u);
            EXPECT_EQ(s.cc->GetCnmsApplied(), raises ? 2u : 1u);
            s.cc->Stop();
            Simulator::Destroy();
        }
    }
}

// The 50 us rule, in both variants (with CnmRaisesRate, so that only the hold time refuses a
// raise): CNM N=4 at 10 us -> 10 Gb/s. N=2 at 30 us (20 Gb/s, not
// lower, within 50 us of 10 us) is ignored. N=8 at 40 us (5 Gb/s, lower) is applied and
// restarts the window. N=2 at 80 us: 40 us after 40 us, still within: ignored. N=2 at 95 us:
// 55 us after the last applied one: applied -> 20 Gb/s. (Dcqcn: no increase event intervenes,
// the increase timer period is 55 us and each applied CNM restarts it; Paper: no timer at all.)
TEST(RdmaDcon, FiftyMicrosecondRule)
{
    for (const char* variant : {"Paper", "Dcqcn"})
    {
        SCOPED_TRACE(variant);
        DconSender s(variant);
        s.cc->SetAttribute("CnmRaisesRate", BooleanValue(true));
        s.CnmAt(MicroSeconds(10), 4);
        s.CnmAt(MicroSeconds(30), 2);
        s.CnmAt(MicroSeconds(40), 8);
        s.CnmAt(MicroSeconds(80), 2);
        s.CnmAt(MicroSeconds(95), 2);
        EXPECT_EQ(s.RateAt(MicroSeconds(31)), 10000000000u);
        EXPECT_EQ(s.RateAt(MicroSeconds(41)), 5000000000u);
        EXPECT_EQ(s.RateAt(MicroSeconds(81)), 5000000000u);
        EXPECT_EQ(s.RateAt(MicroSeconds(96)), 20000000000u);
        EXPECT_EQ(s.cc->GetCnmsReceived(), 5u);
        EXPECT_EQ(s.cc->GetCnmsApplied(), 3u);
        s.cc->Stop();
        Simulator::Destroy();
    }
}

// Sender = Dcqcn with CnmSetsTargetRate (the module's earlier default): after a CNM to
// 10 Gb/s (RT = RC = 10 Gb/s), DCQCN's increase stages take over: the paper preset's timer
// (55 us) gives 5 fast-recovery steps toward RT (no change, RC = RT), then additive increase:
// RT = 10.04, RC = (10.04 + 10)/2 = 10.02 Gb/s at the 6th tick (10 + 6 x 55 = 340 us).
TEST(RdmaDcon, DcqcnVariantRecoversWithDcqcnIncrease)
{
    DconSender s("Dcqcn", true);
    s.CnmAt(MicroSeconds(10), 4);
    EXPECT_EQ(s.RateAt(MicroSeconds(10) + MicroSeconds(55) * 5 + MicroSeconds(1)), 10000000000u);
    EXPECT_EQ(s.RateAt(MicroSeconds(10) + MicroSeconds(55) * 6 + MicroSeconds(1)), 10020000000u);
    s.cc->Stop();
    Simulator::Destroy();
}

// Sender = Paper runs no timer: after a CNM the rate stays at C/N until a CNP arrives.
TEST(RdmaDcon, PaperVariantHasNoTimer)
{
    DconSender s;
    s.CnmAt(MicroSeconds(10), 4);
    EXPECT_EQ(s.RateAt(MicroSeconds(11)), 10000000000u);
    EXPECT_TRUE(Simulator::IsFinished()); // nothing scheduled by the CNM
    EXPECT_EQ(s.RateAt(MilliSeconds(5)), 10000000000u);
    s.cc->Stop();
    Simulator::Destroy();
}

// N = 1000 on 40 Gb/s -> 40 Mb/s, clamped to MinRate 100 Mb/s.
TEST(RdmaDcon, ClampsToMinRate)
{
    DconSender s;
    s.CnmAt(MicroSeconds(1), 1000);
    EXPECT_EQ(s.RateAt(MicroSeconds(2)), 100000000u);
    s.cc->Stop();
    Simulator::Destroy();
}

// The receiver (Sender = Paper) sends one CNP per 50 us period while packets arrive, marked
// if any packet of the period carried CE: packets every 10 us from t = 0 to 190 us (20
// packets), CE only at 60 us. Periods [0,50), [50,100), [100,150), [150,200): CNPs at 50, 100,
// 150 and 200 us with marks 0, 1, 0, 0; the period [200, 250) has no packet: no CNP, and the
// timer stops.
TEST(RdmaDcon, ReceiverSendsPeriodicMarkedCnps)
{
    Ptr<RdmaDcon> cc = CreateObject<RdmaDcon>();
    Ptr<RdmaRxFlowState> rx = CreateObject<RdmaRxFlowState>();
    std::vector<std::pair<Time, bool>> cnps;
    cc->InitReceiver(
        rx,
        MakeCallback(+[](std::vector<std::pair<Time, bool>>* v, const RdmaCnpInfo& info)
                     {
                         v->emplace_back(Simulator::Now(), info.congested);
                     })
            .Bind(&cnps));
    for (int i = 0; i < 20; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 * i),
                            [cc, rx, i]()
                            {
                                RdmaRxPacketInfo pkt;
                                pkt.payloadBytes = 1000;
                                pkt.ce = i == 6;
                                cc->OnDataReceived(rx, pkt);
                            });
    }
    Simulator::Run();
    ASSERT_EQ(cnps.size(), 4u);
    const bool marks[] = {false, true, false, false};
    for (std::size_t k = 0; k < 4; ++k)
    {
        EXPECT_EQ(cnps[k].first, MicroSeconds(50) * (k + 1));
        EXPECT_EQ(cnps[k].second, marks[k]);
    }
    EXPECT_EQ(rx->m_cnpsSent, 4u);
    EXPECT_FALSE(cc->IsReceiverPeriodRunning());
    Simulator::Destroy();
}

// Sender = Dcqcn keeps DCQCN's receiver: a CNP only for CE packets, at most one per 50 us.
TEST(RdmaDcon, DcqcnVariantReceiverSendsOnlyOnCe)
{
    Ptr<RdmaDcon> cc = CreateObject<RdmaDcon>();
    cc->SetAttribute("Sender", StringValue("Dcqcn"));
    Ptr<RdmaRxFlowState> rx = CreateObject<RdmaRxFlowState>();
    uint32_t sent = 0;
    cc->InitReceiver(rx,
                     MakeCallback(+[](uint32_t* n, const RdmaCnpInfo& info)
                                  {
                                      EXPECT_TRUE(info.congested);
                                      (*n)++;
                                  })
                         .Bind(&sent));
    for (int i = 0; i < 20; ++i)
    {
        Simulator::Schedule(MicroSeconds(10 * i),
                            [cc, rx, i]()
                            {
                                RdmaRxPacketInfo pkt;
                                pkt.payloadBytes = 1000;
                                pkt.ce = i == 6 || i == 8 || i == 15;
                                cc->OnDataReceived(rx, pkt);
                            });
    }
    Simulator::Run();
    EXPECT_EQ(sent, 2u); // 60 us, (80 us: within 50 us), 150 us
    Simulator::Destroy();
}

TEST(RdmaDcon, RejectsBadCnpPeriod)
{
    Ptr<RdmaDcon> cc = CreateObject<RdmaDcon>();
    cc->SetAttribute("CnpPeriod", TimeValue(Time(0)));
    Ptr<RdmaRxFlowState> rx = CreateObject<RdmaRxFlowState>();
    try
    {
        cc->InitReceiver(rx, RdmaCongestionOps::SendCnpCallback());
        FAIL() << "CnpPeriod 0 accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("CnpPeriod"), std::string::npos) << e.what();
    }
}

TEST(RdmaDcon, LookupByShortName)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("dcon"), RdmaDcon::GetTypeId());
}

// ns-3's Time::IsNegative() is true for zero: a non-congested arrival at exactly t = 0 must
// still count as recent (regression: it was taken for "never").
TEST(DconIngressTracker, ArrivalAtTimeZeroCounts)
{
    Ptr<DconIngressTracker> t = CreateObject<DconIngressTracker>();
    t->SetNPorts(1);
    t->RecordNonCongested(0, 1); // Now() == 0
    EXPECT_TRUE(t->HasRecentNonCongested(0, 2));
    Simulator::Destroy();
}
