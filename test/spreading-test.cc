/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Congestion spreading measured directly (CongestionSpreading): culprit and victim time per
// flow, and pause trees, in small fabrics whose answers follow from the PFC traces.

#include "ns3/congestion-spreading.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-spec.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A topology of 40 Gb/s, 1 us links between the given node pairs; switches are listed.
TopologySpec
Topology(uint32_t nNodes,
         const std::vector<uint32_t>& switches,
         const std::vector<std::pair<uint32_t, uint32_t>>& links)
{
    TopologySpec t;
    t.nNodes = nNodes;
    t.isSwitch.assign(nNodes, false);
    for (uint32_t s : switches)
    {
        t.isSwitch[s] = true;
    }
    for (const auto& [a, b] : links)
    {
        t.links.push_back({a, b, DataRate("40Gbps"), MicroSeconds(1)});
    }
    return t;
}

/// A fabric without congestion control (senders at their start rate), static PFC at 60 KB.
Ptr<RdmaFabric>
Build(const TopologySpec& t)
{
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    fh.SetMmuAttribute("ThresholdMode", StringValue("STATIC"));
    fh.SetMmuAttribute("XOff", QueueSizeValue(QueueSize("60KB")));
    fh.SetMmuAttribute("XOn", QueueSizeValue(QueueSize("50KB")));
    return fh.Build(t);
}

/// Sums the time a device's priority 3 is paused, from its PauseState trace.
struct PausedTime
{
    Time total;
    Time since{Time(-1)};

    void
    Connect(Ptr<PfcNetDevice> dev)
    {
        dev->TraceConnectWithoutContext("PauseState",
                                        MakeCallback(+[](PausedTime* p, uint8_t prio, bool paused)
                                                     {
                                                         if (prio != 3)
                                                         {
                                                             return;
                                                         }
                                                         if (paused)
                                                         {
                                                             p->since = Simulator::Now();
                                                         }
                                                         else if (!p->since.IsStrictlyNegative())
                                                         {
                                                             p->total
                                                                 += Simulator::Now() - p->since;
                                                             p->since = Time(-1);
                                                         }
                                                     })
                                            .Bind(this));
    }

    /// The total, an interval still open counted up to now.
    Time
    Now() const
    {
        return total + (since.IsStrictlyNegative() ? Time(0) : Simulator::Now() - since);
    }
};

/// The device of \p node on its link to \p peer.
Ptr<PfcNetDevice>
DeviceTo(Ptr<RdmaFabric> f, uint32_t node, uint32_t peer)
{
    for (const auto& l : f->GetLinks())
    {
        if (l.a == node && l.b == peer)
        {
            return l.devA;
        }
        if (l.b == node && l.a == peer)
        {
            return l.devB;
        }
    }
    return nullptr;
}

} // namespace

// Two switches A (0) and B (1). At A: h2 sends to r4 (the innocent flow) at 15 Gb/s and h3 to r5
// at 22 Gb/s, so A's port to B (37 of 40 Gb/s) is not congested by itself; at B, h6 sends to r5
// at line rate. No congestion control: B's port to r5 gets 62 Gb/s for 40, B's ingress from A
// fills with h3's packets and B pauses A's port to B, where h2's packets wait behind h3's (and
// if A's ingress ports fill, A pauses the NICs: none did in this run); B pauses h6's NIC. All of
// it goes back to one root, B's egress queue to r5:
// - h2's flow never feeds it: every time it is held is victim time, exactly the time A's port
//   to B was paused while one of h2's packets was queued there (counted here from the queue's
//   own enqueue/dequeue traces) plus the time its NIC was paused (it always has unsent data);
// - h3's flow and h6's (alone on its ingress into the congested port) are culprits, never
//   victims.
TEST(CongestionSpreading, InnocentFlowIsVictimForExactlyThePausesItSatBehind)
{
    TopologySpec t = Topology(7, {0, 1}, {{0, 1}, {2, 0}, {3, 0}, {4, 1}, {5, 1}, {6, 1}});
    Ptr<RdmaFabric> f = Build(t);
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    const uint32_t innocent = flows->AddFlow(2, 4, 100000000, Time(0));
    const uint32_t culprit = flows->AddFlow(3, 5, 100000000, Time(0));
    const uint32_t alone = flows->AddFlow(6, 5, 100000000, Time(0));
    flows->SetStartRate(innocent, DataRate("15Gbps"));
    flows->SetStartRate(culprit, DataRate("22Gbps"));
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->EnableCongestionSpreading();
    // The expected victim time, counted independently: A's port to B paused (priority 3) while
    // at least one of h2's packets is in its queue, plus h2's NIC paused.
    struct Behind
    {
        bool paused{false};
        uint32_t packets{0}; // h2's packets in A's queue to B
        Time since{Time(-1)};
        Time total;
        Ipv4Address h2;

        void
        Update(bool p, uint32_t n)
        {
            const bool was = paused && packets > 0;
            paused = p;
            packets = n;
            const bool is = paused && packets > 0;
            if (was && !is)
            {
                total += Simulator::Now() - since;
            }
            if (!was && is)
            {
                since = Simulator::Now();
            }
        }
    } behind;
    behind.h2 = f->GetAddress(2);
    Ptr<PfcNetDevice> aToB = DeviceTo(f, 0, 1);
    aToB->TraceConnectWithoutContext("PauseState",
                                     MakeCallback(+[](Behind* b, uint8_t prio, bool p)
                                                  {
                                                      if (prio == 3)
                                                      {
                                                          b->Update(p, b->packets);
                                                      }
                                                  })
                                         .Bind(&behind));
    Ptr<RdmaEgressQueueDisc> q = f->GetSwitch(0)->GetQueueDisc(f->GetPort(0, 1), 3);
    q->TraceConnectWithoutContext(
        "Enqueue",
        MakeCallback(+[](Behind* b, Ptr<const QueueDiscItem> item)
                     {
                         const auto& r = static_cast<const RdmaQueueDiscItem&>(*item);
                         if (r.GetFiveTuple().src == b->h2)
                         {
                             b->Update(b->paused, b->packets + 1);
                         }
                     })
            .Bind(&behind));
    q->TraceConnectWithoutContext(
        "Dequeue",
        MakeCallback(+[](Behind* b, Ptr<const QueueDiscItem> item)
                     {
                         const auto& r = static_cast<const RdmaQueueDiscItem&>(*item);
                         if (r.GetFiveTuple().src == b->h2)
                         {
                             b->Update(b->paused, b->packets - 1);
                         }
                     })
            .Bind(&behind));
    PausedTime nic2;
    nic2.Connect(DeviceTo(f, 2, 0));
    mon->Start(MicroSeconds(100), MilliSeconds(2));
    Simulator::Stop(MilliSeconds(2)); // every flow still running
    Simulator::Run();
    Ptr<CongestionSpreading> cs = mon->GetCongestionSpreading();
    cs->Finish();
    behind.Update(false, behind.packets); // close an interval open at the end
    const Time expect = behind.total + nic2.Now();
    const CongestionSpreading::FlowTimes in = cs->GetFlowTimes(innocent);
    std::cout << "h2 behind A->B's pauses " << behind.total.As(Time::US) << ", h2's NIC paused "
              << nic2.Now().As(Time::US) << "; innocent victim " << in.victim.As(Time::US)
              << ", culprit " << in.culprit.As(Time::US) << "\n";
    EXPECT_TRUE(behind.total.IsStrictlyPositive());
    EXPECT_EQ(in.victim, expect);
    EXPECT_EQ(in.culprit, Time(0));
    for (uint32_t id : {culprit, alone})
    {
        const CongestionSpreading::FlowTimes c = cs->GetFlowTimes(id);
        EXPECT_TRUE(c.culprit.IsStrictlyPositive()) << id;
        EXPECT_EQ(c.victim, Time(0)) << id;
    }
    // one root: B's egress queue to r5
    for (const auto& fr : cs->GetPauseFrames())
    {
        EXPECT_EQ(fr.root, CongestionSpreading::Root(1, f->GetPort(1, 5), 3));
    }
    Simulator::Destroy();
}

// A chain of three switches 0 - 1 - 2; h3 at switch 0 and h5 at switch 2 send to r4 at switch 2
// at line rate. Switch 2's port to r4 is the root; switch 2 pauses switch 1 (depth 1), switch 1
// pauses switch 0 (depth 2), switch 0 pauses h3's NIC (depth 3). The tree is one event with
// depth 3; every frame names the root; the depths by pausing switch are 1, 2, 3.
TEST(CongestionSpreading, ThreeHopTreeHasDepthThree)
{
    TopologySpec t = Topology(6, {0, 1, 2}, {{0, 1}, {1, 2}, {3, 0}, {4, 2}, {5, 2}});
    Ptr<RdmaFabric> f = Build(t);
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->AddFlow(3, 4, 100000000, Time(0));
    flows->AddFlow(5, 4, 100000000, Time(0));
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->EnableCongestionSpreading();
    mon->Start(MicroSeconds(100), MilliSeconds(2));
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    Ptr<CongestionSpreading> cs = mon->GetCongestionSpreading();
    cs->Finish();
    std::map<uint32_t, std::set<uint32_t>> depthsBySwitch;
    for (const auto& fr : cs->GetPauseFrames())
    {
        EXPECT_EQ(fr.root, CongestionSpreading::Root(2, f->GetPort(2, 4), 3))
            << "frame at " << fr.time.As(Time::US) << " from switch " << fr.sw << " port "
            << fr.port << " depth " << fr.depth << " root " << std::get<0>(fr.root) << ":"
            << std::get<1>(fr.root);
        depthsBySwitch[fr.sw].insert(fr.depth);
    }
    EXPECT_EQ(depthsBySwitch[2], std::set<uint32_t>{1});
    EXPECT_EQ(depthsBySwitch[1], std::set<uint32_t>{2});
    EXPECT_EQ(depthsBySwitch[0], std::set<uint32_t>{3});
    // (the tree grows and shrinks as pauses come and go: one event per interval in which some
    // transmitter is paused under the root)
    const CongestionSpreading::Event* deepest = nullptr;
    for (const auto& e : cs->GetEvents())
    {
        EXPECT_EQ(e.root, CongestionSpreading::Root(2, f->GetPort(2, 4), 3));
        if (!deepest || e.maxDepth > deepest->maxDepth)
        {
            deepest = &e;
        }
    }
    ASSERT_NE(deepest, nullptr);
    EXPECT_EQ(deepest->maxDepth, 3u);
    // switch 1's port to 2, switch 0's port to 1 and h3's NIC, at least
    EXPECT_GE(deepest->transmitters.size(), 3u);
    // Written outputs: the three files and summary.json's "spreading" with max_depth 3.
    const std::string dir
        = (std::filesystem::temp_directory_path() / ("dcon-spread-" + std::to_string(getpid())))
              .string();
    mon->Write(dir, 0);
    Simulator::Destroy();
    for (const char* file : {"victims.csv", "pause-trees.csv", "pause-events.csv"})
    {
        EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
    }
    std::ifstream js(dir + "/summary.json");
    std::stringstream all;
    all << js.rdbuf();
    EXPECT_NE(all.str().find("\"spreading\": {"), std::string::npos);
    EXPECT_NE(all.str().find("\"max_depth\": 3"), std::string::npos);
    std::filesystem::remove_all(dir);
}
