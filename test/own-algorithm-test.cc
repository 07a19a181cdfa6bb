/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The tutorial's own algorithm (examples/rdma-ecn-aimd.{h,cc}, "ecn-aimd"), linked into the test
// binary as a library algorithm would be: found through the registry only, it brings its switch
// queue with its per-rate marking threshold, its parameter set applies at each NIC's line rate,
// and in an incast its trace source reports the cuts its marked ACKs cause.
#include "ns3/double.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/simulator.h"
#include "rdma-ecn-aimd.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(OwnAlgorithm, IsACongestionControlLikeTheLibrarys)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("ecn-aimd"), RdmaEcnAimd::GetTypeId());
    const RdmaCcEntry e = RdmaCcRegistry::Lookup("ecn-aimd");
    EXPECT_EQ(e.queueDisc, "ns3::RedEcnQueueDisc");
    EXPECT_EQ(e.GetParameterSetNames(), std::vector<std::string>{"gentle"});
    EXPECT_NE(RdmaCcRegistry::GetListing().find("ecn-aimd\tns3::RedEcnQueueDisc\t"),
              std::string::npos);
}

TEST(OwnAlgorithm, BringsItsQueueAndCutsOnMarkedAcks)
{
    LeafSpineHelper ls(1, 2, 3);
    ls.SetHostLink(DataRate("25Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("ecn-aimd", "gentle");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    // Step marking at 2 KB per Gb/s of the port: 50 KB at 25 Gb/s, 200 KB at 100 Gb/s.
    const uint32_t leaf = ls.GetLeaf(1);
    QueueSizeValue kmin;
    f->GetSwitch(leaf)->GetQueueDisc(0, 3)->GetAttribute("Kmin", kmin);
    EXPECT_EQ(kmin.Get().GetValue(), 50000u);
    f->GetSwitch(leaf)
        ->GetQueueDisc(f->GetPort(leaf, ls.GetSpine(0)), 3)
        ->GetAttribute("Kmin", kmin);
    EXPECT_EQ(kmin.Get().GetValue(), 200000u);

    // A 3-to-1 incast into host 0 of leaf 1: every flow gets marked ACKs and cuts its rate.
    struct Observed
    {
        std::map<uint32_t, uint32_t> cuts; //!< RateCut calls per flow
        std::vector<double> decrease;      //!< each flow's Decrease attribute
    } seen;
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    for (uint32_t i = 0; i < 3; ++i)
    {
        const uint32_t src = ls.GetHost(0, i);
        flows->AddFlow(src, ls.GetHost(1, 0), 1000000, Time(0));
        Ptr<RdmaNic> nic = f->GetNic(src);
        nic->TraceConnectWithoutContext(
            "FlowStart",
            MakeCallback(
                +[](Observed* o, RdmaNic* n, uint32_t id, Ptr<RdmaFlowState>)
                {
                    Ptr<RdmaCongestionOps> cc = n->GetSenderCongestionOps(id);
                    DoubleValue d;
                    cc->GetAttribute("Decrease", d);
                    o->decrease.push_back(d.Get());
                    cc->TraceConnectWithoutContext(
                        "RateCut",
                        MakeCallback(
                            +[](Observed* o, uint32_t flow, DataRate before, DataRate after)
                            {
                                EXPECT_LT(after, before);
                                ++o->cuts[flow];
                            })
                            .Bind(o, id));
                })
                .Bind(&seen, PeekPointer(nic))); // a Ptr here would be a cycle
    }
    Simulator::Run();
    EXPECT_EQ(flows->GetNCompleted(), 3u);
    for (uint32_t id = 0; id < 3; ++id)
    {
        EXPECT_GT(seen.cuts[id], 0u) << "flow " << id;
    }
    // The parameter set "gentle" reached every flow's congestion control (Decrease 0.1).
    EXPECT_EQ(seen.decrease, std::vector<double>(3, 0.1));
    Simulator::Destroy();
}
