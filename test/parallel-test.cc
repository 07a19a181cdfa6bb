/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Parallel runs without MPI: the partition (RankPartition) by hand on a leaf-spine and on a
// three-layer fat-tree, its file format and its errors, what ParallelRun and RankTransport do in
// a sequential build (one rank; a parallel engine asked for is refused with the way to get one),
// and the channels RdmaFabricHelper makes (PfcRemoteChannel only for links between ranks; one
// whose ends are on this rank carries frames as a PfcChannel does).
// The runs on several ranks are tested by test/mpi-tests.sh (ctest, when build-mpi/ exists).

#include "ns3/global-value.h"
#include "ns3/hpcc-format.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/parallel-run.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-remote-channel.h"
#include "ns3/rank-partition.h"
#include "ns3/rank-transport.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using test::ExpectInvalid;

namespace
{

/// A temporary file with the given text, removed at the end of the test.
class TempFile
{
public:
    explicit TempFile(const std::string& text)
        : m_path(::testing::TempDir() + "partition-"
                 + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt")
    {
        std::ofstream(m_path) << text;
    }

    ~TempFile()
    {
        std::remove(m_path.c_str());
    }

    const std::string&
    Path() const
    {
        return m_path;
    }

private:
    std::string m_path;
};

/// A k = 4 fat-tree: 16 hosts, 8 ToRs (2 per pod), 8 aggregation switches, 4 cores.
TopologySpec
FatTree4()
{
    TopologySpec t;
    const uint32_t hosts = 16;
    const uint32_t tor0 = hosts;
    const uint32_t agg0 = tor0 + 8;
    const uint32_t core0 = agg0 + 8;
    t.nNodes = core0 + 4;
    t.isSwitch.assign(t.nNodes, true);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        t.isSwitch[h] = false;
        t.links.push_back({h, tor0 + h / 2, DataRate("100Gb/s"), MicroSeconds(1)});
    }
    for (uint32_t pod = 0; pod < 4; ++pod)
    {
        for (uint32_t i = 0; i < 2; ++i)
        {
            for (uint32_t j = 0; j < 2; ++j)
            {
                t.links.push_back(
                    {tor0 + 2 * pod + i, agg0 + 2 * pod + j, DataRate("100Gb/s"), MicroSeconds(1)});
            }
        }
        for (uint32_t j = 0; j < 2; ++j)
        {
            for (uint32_t c = 0; c < 2; ++c)
            {
                t.links.push_back(
                    {agg0 + 2 * pod + j, core0 + 2 * j + c, DataRate("100Gb/s"), MicroSeconds(1)});
            }
        }
    }
    return t;
}

/// Links whose ends are on different ranks.
uint32_t
CutLinks(const TopologySpec& t, const std::vector<uint32_t>& rank)
{
    uint32_t n = 0;
    for (const auto& l : t.links)
    {
        n += rank[l.a] != rank[l.b];
    }
    return n;
}

} // namespace

TEST(RankPartition, LeafSpineKeepsHostsWithTheirLeafAndSpreadsSpines)
{
    LeafSpineHelper ls(4, 4, 6); // 4 spines, 4 leaves x 6 hosts
    TopologySpec t = ls.GetTopology();
    std::vector<uint32_t> r = RankPartition::Balanced(t, 2);
    RankPartition::Validate(r, t, 2);
    for (uint32_t leaf = 0; leaf < 4; ++leaf)
    {
        for (uint32_t i = 0; i < 6; ++i)
        {
            EXPECT_EQ(r[ls.GetHost(leaf, i)], r[ls.GetLeaf(leaf)])
                << "host " << i << " of leaf " << leaf;
        }
    }
    // Leaves 0, 1 on rank 0 and 2, 3 on rank 1 (consecutive runs of equal work); two spines
    // each.
    EXPECT_EQ(r[ls.GetLeaf(0)], 0u);
    EXPECT_EQ(r[ls.GetLeaf(1)], 0u);
    EXPECT_EQ(r[ls.GetLeaf(2)], 1u);
    EXPECT_EQ(r[ls.GetLeaf(3)], 1u);
    uint32_t spinesOn0 = 0;
    for (uint32_t s = 0; s < 4; ++s)
    {
        spinesOn0 += r[ls.GetSpine(s)] == 0;
    }
    EXPECT_EQ(spinesOn0, 2u);
    // Work (sum of degrees): leaf 6 + 4 = 10, host 1, spine 4: each rank 2 x (10 + 6) + 2 x 4.
    std::vector<uint64_t> w = RankPartition::Work(r, t, 2);
    EXPECT_EQ(w[0], 40u);
    EXPECT_EQ(w[1], 40u);
    // Every leaf-spine link from a leaf to a spine of the other rank is cut: 4 leaves x 2.
    EXPECT_EQ(CutLinks(t, r), 8u);
}

TEST(RankPartition, FatTreeKeepsPodsTogetherAndSpreadsCores)
{
    TopologySpec t = FatTree4();
    std::vector<uint32_t> r = RankPartition::Balanced(t, 2);
    RankPartition::Validate(r, t, 2);
    // Pods 0 and 1 (ToRs 16-19, aggregation 24-27) on rank 0, pods 2 and 3 on rank 1; cores
    // 32-35 two per rank.
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(r[16 + i], 0u) << "ToR " << 16 + i;
        EXPECT_EQ(r[20 + i], 1u) << "ToR " << 20 + i;
        EXPECT_EQ(r[24 + i], 0u) << "aggregation " << 24 + i;
        EXPECT_EQ(r[28 + i], 1u) << "aggregation " << 28 + i;
    }
    std::map<uint32_t, uint32_t> cores;
    for (uint32_t c = 32; c < 36; ++c)
    {
        cores[r[c]]++;
    }
    EXPECT_EQ(cores[0], 2u);
    EXPECT_EQ(cores[1], 2u);
    // Only aggregation-core links are cut: each of the 8 aggregation switches has one of its
    // two cores on the other rank.
    EXPECT_EQ(CutLinks(t, r), 8u);
    // Four ranks: one pod each, one core each.
    std::vector<uint32_t> r4 = RankPartition::Balanced(t, 4);
    RankPartition::Validate(r4, t, 4);
    for (uint32_t pod = 0; pod < 4; ++pod)
    {
        EXPECT_EQ(r4[16 + 2 * pod], r4[24 + 2 * pod]) << "pod " << pod;
        EXPECT_EQ(r4[16 + 2 * pod + 1], r4[24 + 2 * pod + 1]) << "pod " << pod;
    }
    std::set<uint32_t> coreRanks{r4[32], r4[33], r4[34], r4[35]};
    EXPECT_EQ(coreRanks.size(), 4u);
}

TEST(RankPartition, OneRankAndTooManyRanks)
{
    TopologySpec t = FatTree4();
    std::vector<uint32_t> r = RankPartition::Balanced(t, 1);
    EXPECT_TRUE(std::all_of(r.begin(),
                            r.end(),
                            [](uint32_t x)
                            {
                                return x == 0;
                            }));
    // More ranks than groups with hosts (8): every rank still gets a node (switches without
    // hosts fill the rest), and each host stays with its ToR.
    for (uint32_t ranks : {9u, 12u, 20u})
    {
        std::vector<uint32_t> many = RankPartition::Balanced(t, ranks);
        RankPartition::Validate(many, t, ranks); // throws if a rank has no node
        for (uint32_t h = 0; h < 16; ++h)
        {
            EXPECT_EQ(many[h], many[16 + h / 2]) << ranks << " ranks, host " << h;
        }
    }
    // 8 host groups and 12 switches without hosts: 20 groups at most.
    ExpectInvalid(
        [&]
        {
            RankPartition::Balanced(t, 21);
        },
        "21 ranks but only 20 groups");
    ExpectInvalid(
        [&]
        {
            RankPartition::Balanced(t, 0);
        },
        "ranks must be >= 1");
}

TEST(RankPartition, ValidateNamesTheFault)
{
    TopologySpec t = FatTree4();
    std::vector<uint32_t> r = RankPartition::Balanced(t, 2);
    std::vector<uint32_t> bad = r;
    bad[5] = 3;
    ExpectInvalid(
        [&]
        {
            RankPartition::Validate(bad, t, 2);
        },
        "node 5 is on rank 3, but the run has 2 rank(s)");
    std::vector<uint32_t> empty(t.nNodes, 0);
    ExpectInvalid(
        [&]
        {
            RankPartition::Validate(empty, t, 2);
        },
        "rank 1 has no node");
    ExpectInvalid(
        [&]
        {
            RankPartition::Validate({0, 1}, t, 2);
        },
        "2 ranks given for 36 nodes");
    // A zero-delay link between ranks: no lookahead.
    TopologySpec z = t;
    for (auto& l : z.links)
    {
        if (r[l.a] != r[l.b])
        {
            l.delay = Time(0);
            ExpectInvalid(
                [&]
                {
                    RankPartition::Validate(r, z, 2);
                },
                "joins rank " + std::to_string(r[l.a]) + " and rank " + std::to_string(r[l.b])
                    + " with a delay of 0 ps");
            break;
        }
    }
    // The same link inside one rank is fine.
    RankPartition::Validate(std::vector<uint32_t>(t.nNodes, 0), z, 1);
}

TEST(RankPartition, ReadsAFileAndRejectsBadLines)
{
    LeafSpineHelper ls(1, 1, 2); // 4 nodes: 2 hosts, a leaf, a spine
    TopologySpec t = ls.GetTopology();
    ASSERT_EQ(t.nNodes, 4u);
    {
        TempFile f("# node rank\n0 0\n1 0\n2 0  # the leaf\n\n3 1\n");
        EXPECT_EQ(RankPartition::Read(f.Path(), t), (std::vector<uint32_t>{0, 0, 0, 1}));
    }
    {
        TempFile f("0 0\n1 0\n2 0\n");
        ExpectInvalid(
            [&]
            {
                RankPartition::Read(f.Path(), t);
            },
            "gives no rank for node 3");
    }
    {
        TempFile f("0 0\n1 0\n2 0\n3 x\n");
        ExpectInvalid(
            [&]
            {
                RankPartition::Read(f.Path(), t);
            },
            ":4: rank must be a non-negative integer, got 'x'");
    }
    {
        TempFile f("0 0\n9 0\n");
        ExpectInvalid(
            [&]
            {
                RankPartition::Read(f.Path(), t);
            },
            ":2: node must be an integer in [0, 4), got '9'");
    }
    {
        TempFile f("0 0\n0 1\n");
        ExpectInvalid(
            [&]
            {
                RankPartition::Read(f.Path(), t);
            },
            ":2: node given twice, got '0'");
    }
    {
        TempFile f("0 0 0\n");
        ExpectInvalid(
            [&]
            {
                RankPartition::Read(f.Path(), t);
            },
            ":1: expected 'node rank'");
    }
    ExpectInvalid(
        [&]
        {
            RankPartition::Read("/nonexistent/partition.txt", t);
        },
        "'/nonexistent/partition.txt' cannot be read");
}

TEST(ParallelRun, SequentialBuildIsOneRank)
{
    EXPECT_FALSE(ParallelRun::IsEnabled());
    EXPECT_EQ(ParallelRun::GetRank(), 0u);
    EXPECT_EQ(ParallelRun::GetSize(), 1u);
    EXPECT_TRUE(ParallelRun::IsRoot());
    EXPECT_EQ(ParallelRun::Who(), "");
    EXPECT_EQ(ParallelRun::Gather("x"), (std::vector<std::string>{"x"}));
    EXPECT_EQ(ParallelRun::SumAll(7), 7u);
    EXPECT_EQ(ParallelRun::MaxAll(2.5), 2.5);
    EXPECT_EQ(ParallelRun::RankReport(1.0), "");
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(ParallelRun::Fail("bad input x"), 2); // returns in a sequential run
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "error: bad input x\n");
    EXPECT_THROW(ParallelRun::NotifyLocalDone(Time(0)), std::logic_error);
}

TEST(RankTransport, SequentialBuildCarriesNothing)
{
    EXPECT_FALSE(RankTransport::IsEnabled());
    EXPECT_EQ(RankTransport::GetRank(), 0u);
    EXPECT_EQ(RankTransport::GetSize(), 1u);
    EXPECT_TRUE(RankTransport::IsLocal(CreateObject<Node>(3))); // every node, whatever its id
    RankTransport::SetCutLinks({}, {});
    EXPECT_THROW(RankTransport::SetCutLinks({{0, 0, 0, 1, 1, 0, MicroSeconds(1)}}, {nullptr}),
                 std::logic_error);
    EXPECT_EQ(RankTransport::GetTraffic().framesSent, 0u);
    EXPECT_EQ(RankTransport::GetSync().calls, 0u);
    Simulator::Destroy();
}

namespace
{

/// Arrival times (ps) and sizes of the frames received (CarryFrames).
std::vector<std::pair<int64_t, uint32_t>> g_carried;

bool
Carried(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
{
    g_carried.emplace_back(Simulator::Now().GetPicoSeconds(), p->GetSize());
    return true;
}

/// Arrival times (ps) and sizes of the frames a link of \p type carries both ways: back-to-back
/// frames from A, one from B, and a frame from A after Delay was lowered (FIFO on the wire).
std::vector<std::pair<int64_t, uint32_t>>
CarryFrames(const std::string& type)
{
    g_carried.clear();
    ObjectFactory f(type);
    f.Set("Delay", TimeValue(MicroSeconds(2)));
    Ptr<PfcChannel> ch = f.Create<PfcChannel>();
    Ptr<PfcNetDevice> d[2];
    for (auto& dev : d)
    {
        Ptr<Node> n = CreateObject<Node>();
        dev = CreateObject<PfcNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate("100Gb/s")));
        dev->SetAddress(Mac48Address::Allocate());
        n->AddDevice(dev);
        dev->Attach(ch);
        dev->SetReceiveCallback(MakeCallback(&Carried));
    }
    for (uint32_t k = 0; k < 3; ++k)
    {
        d[0]->Send(Create<Packet>(100 + 400 * k), d[1]->GetAddress(), 0x0800);
    }
    d[1]->Send(Create<Packet>(64), d[0]->GetAddress(), 0x0800);
    Simulator::Schedule(NanoSeconds(100),
                        [ch, d]()
                        {
                            ch->SetAttribute("Delay", TimeValue(NanoSeconds(10)));
                            d[0]->Send(Create<Packet>(80), d[1]->GetAddress(), 0x0800);
                        });
    Simulator::Run();
    Simulator::Destroy();
    return g_carried;
}

} // namespace

TEST(PfcRemoteChannel, BetweenLocalNodesCarriesFramesAsAPfcChannel)
{
    EXPECT_EQ(PfcRemoteChannel::GetTypeId().GetParent(), PfcChannel::GetTypeId());
    const auto local = CarryFrames("ns3::PfcChannel");
    ASSERT_EQ(local.size(), 5u);
    EXPECT_EQ(CarryFrames("ns3::PfcRemoteChannel"), local);
}

TEST(PfcRemoteChannel, SequentialFabricHasNone)
{
    LeafSpineHelper ls(2, 2, 2);
    Ptr<RdmaFabric> fabric = RdmaFabricHelper().Build(ls.GetTopology());
    ASSERT_FALSE(fabric->GetLinks().empty());
    for (const auto& l : fabric->GetLinks())
    {
        Ptr<Channel> ch = l.devA->GetChannel();
        EXPECT_EQ(ch->GetInstanceTypeId(), PfcChannel::GetTypeId());
        EXPECT_EQ(ch, l.devB->GetChannel());
    }
    Simulator::Destroy();
}

TEST(ParallelRun, ParallelEngineWithoutMpiIsRefused)
{
    if (ParallelRun::HasMpi())
    {
        GTEST_SKIP() << "this build has MPI";
    }
    int argc = 1;
    char name[] = "dcon-test";
    char* args[] = {name, nullptr};
    char** argv = args;
    ParallelRun::Init(&argc, &argv);
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::NullMessageSimulatorImpl"));
    try
    {
        ParallelRun::Start();
        ADD_FAILURE() << "a parallel engine was accepted without MPI";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("this build of dcon has no MPI "
                                             "(--SimulatorImplementationType="
                                             "ns3::NullMessageSimulatorImpl was asked for)"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("scripts/setup-mpi.sh"), std::string::npos);
    }
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    ParallelRun::Start(); // the sequential engine: fine
    EXPECT_FALSE(ParallelRun::IsEnabled());
    ParallelRun::Finish();
}

TEST(RdmaFabricHelper, RefusesAPartitionBeyondTheRanks)
{
    LeafSpineHelper ls(1, 2, 2);
    RdmaFabricHelper fh;
    std::vector<uint32_t> r(ls.GetTopology().nNodes, 0);
    r[ls.GetLeaf(1)] = 1;
    fh.SetPartition(r);
    ExpectInvalid(
        [&]
        {
            fh.Build(ls.GetTopology());
        },
        "node " + std::to_string(ls.GetLeaf(1)) + " is on rank 1, but the run has 1");
    Simulator::Destroy();
}

TEST(RdmaFabricHelper, TakesAOneRankPartitionFile)
{
    LeafSpineHelper ls(1, 2, 2);
    TopologySpec t = ls.GetTopology();
    std::string text;
    for (uint32_t i = 0; i < t.nNodes; ++i)
    {
        text += std::to_string(i) + " 0\n";
    }
    TempFile f(text);
    RdmaFabricHelper fh;
    fh.SetPartitionFile(f.Path());
    Ptr<RdmaFabric> fabric = fh.Build(t);
    for (uint32_t i = 0; i < t.nNodes; ++i)
    {
        EXPECT_EQ(fabric->GetRank(i), 0u);
        EXPECT_TRUE(fabric->IsLocal(i));
        EXPECT_EQ(fabric->GetNode(i)->GetSystemId(), 0u);
    }
    Simulator::Destroy();
}
