/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DCON's switch side in small fabrics: which congested flows get CNMs (T_last per ingress and
// egress), what the recorder writes (cnm.csv, the queues' phase times).

#include "ns3/boolean.h"
#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/dcon-recorder.h"
#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What a small DCON incast run shows.
struct IncastResult
{
    DconCnmGenerator::Stats stats;       //!< the leaf's generator
    uint64_t burstOnsets{0};             //!< of the receiver's queue
    std::map<uint32_t, uint64_t> cnmsOf; //!< CNMs per flow id (recorder)
    std::vector<DconRecorder::Cnm> cnms; //!< every CNM
    uint32_t completed{0};               //!< flows completed
};

/**
 * One leaf, 10 hosts, 40 Gb/s, 1 us links; DCON with Q_ECN 5 KB and a fixed Q_CNM of 20 KB;
 * h0..h7 each send one 300 KB flow to h8 from t = 0 at line rate (8:1 incast: the queue to h8
 * reaches burst congestion at once). With \p innocent, h0 also sends a 3 MB flow to h9 (a
 * non-congested flow on h0's ingress port, flow id 8). \p scope: the tracker's Scope.
 */
IncastResult
RunIncast(bool innocent, const std::string& scope)
{
    LeafSpineHelper ls(1, 1, 10);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("dcon");
    fh.SetQueueDisc("ns3::DconQueueDisc",
                    "QEcn",
                    QueueSizeValue(QueueSize("5KB")),
                    "QcnmMode",
                    StringValue("Fixed"),
                    "QCnm",
                    QueueSizeValue(QueueSize("20KB")));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    for (uint32_t s : f->GetSwitches())
    {
        DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(s))
            ->GetIngressTracker()
            ->SetAttribute("Scope", StringValue(scope));
    }
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    for (uint32_t i = 0; i < 8; ++i)
    {
        flows->AddFlow(ls.GetHost(0, i), ls.GetHost(0, 8), 300000, Time(0));
    }
    if (innocent)
    {
        flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(0, 9), 3000000, Time(0));
    }
    flows->SetStopWhenDone(true);
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->Start(MicroSeconds(100), MilliSeconds(50));
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    IncastResult r;
    const uint32_t leaf = ls.GetLeaf(0);
    r.stats = DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(leaf))->GetStats();
    r.burstOnsets = DynamicCast<DconQueueDisc>(
                        f->GetSwitch(leaf)->GetQueueDisc(f->GetPort(leaf, ls.GetHost(0, 8)), 3))
                        ->GetBurstOnsets();
    r.cnms = mon->GetExtension<DconRecorder>()->GetCnms();
    for (const auto& c : r.cnms)
    {
        r.cnmsOf[c.flowId]++;
    }
    r.completed = mon->GetRecords().size();
    Simulator::Destroy();
    return r;
}

} // namespace

// Section 4.2: "if an ingress port carries only congested flows' packets, even if that port
// triggers PFC no non-congested flow is blocked, so there is no need to quickly lower the
// congested flow's rate". In an 8:1 incast whose every ingress carries one flow to the
// congested port, the queue to h8 is in burst congestion and reports congested flows, but no
// CNM is sent: every report finds no non-congested packet on the flow's ingress (to another
// egress). With the earlier per-port T_last (Scope=Port) the flows' own packets from before the
// onset qualify their ingress, and CNMs go out.
TEST(RdmaSwitch, IncastOfCongestedIngressesGetsNoCnm)
{
    IncastResult r = RunIncast(false, "OtherEgress");
    EXPECT_GT(r.burstOnsets, 0u);
    EXPECT_GT(r.stats.noInnocentFlow, 0u);
    EXPECT_EQ(r.stats.sent, 0u);
    EXPECT_TRUE(r.cnms.empty());
    EXPECT_EQ(r.completed, 8u);
    IncastResult port = RunIncast(false, "Port");
    EXPECT_GT(port.stats.sent, 0u);
    std::cout << "8:1 incast: reports without an innocent flow " << r.stats.noInnocentFlow
              << ", CNMs 0; with T_last per port: " << port.stats.sent << " CNMs\n";
}

// The same incast with a non-congested flow on h0's ingress (h0 -> h9): only h0's congested
// flow (id 0) is notified; the other seven senders' ingress ports carry congested flows only,
// and the innocent flow itself is never congested. Every CNM reaches its sender (cnm records
// matched), names the congested port's C = 40 Gb/s, and when applied lowered the rate to C/N.
TEST(RdmaSwitch, OnlyTheFlowSharingAnIngressIsNotified)
{
    IncastResult r = RunIncast(true, "OtherEgress");
    EXPECT_GT(r.stats.sent, 0u);
    EXPECT_EQ(r.cnmsOf.size(), 1u);
    EXPECT_EQ(r.cnmsOf[0], r.stats.sent);
    EXPECT_EQ(r.completed, 9u);
    uint32_t applied = 0;
    for (const auto& c : r.cnms)
    {
        EXPECT_EQ(c.capacityBps, 40000000000u);
        EXPECT_GT(c.received, c.sent);
        EXPECT_LE(c.received - c.sent, MicroSeconds(3)); // one hop back, a frame or two
        const uint64_t target = c.capacityBps / std::max<uint16_t>(c.n, 1);
        if (c.applied)
        {
            applied++;
            EXPECT_LT(target, c.rateBeforeBps); // a CNM only lowers (CnmRaisesRate false)
        }
    }
    EXPECT_GT(applied, 0u);
    std::cout << "CNMs to flow 0: " << r.stats.sent << " (" << applied << " applied)\n";
}

// cnm.csv and summary.json's DCON members, written by FabricMonitor::Write: one row per CNM with
// its columns, and the phase shares of the congested-time add up to 1.
TEST(RdmaSwitch, MonitorWritesCnmsAndPhases)
{
    LeafSpineHelper ls(1, 1, 10);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("dcon");
    fh.SetQueueDisc("ns3::DconQueueDisc",
                    "QEcn",
                    QueueSizeValue(QueueSize("5KB")),
                    "QcnmMode",
                    StringValue("Fixed"),
                    "QCnm",
                    QueueSizeValue(QueueSize("20KB")));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    for (uint32_t i = 0; i < 8; ++i)
    {
        flows->AddFlow(ls.GetHost(0, i), ls.GetHost(0, 8), 300000, Time(0));
    }
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(0, 9), 3000000, Time(0));
    flows->SetStopWhenDone(true);
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->Start(MicroSeconds(100), MilliSeconds(50));
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    const std::string dir
        = (std::filesystem::temp_directory_path() / ("dcon-cnm-test-" + std::to_string(getpid())))
              .string();
    mon->Write(dir, 0);
    const auto sent
        = DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(ls.GetLeaf(0)))->GetStats().sent;
    Simulator::Destroy();
    std::ifstream csv(dir + "/cnm.csv");
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header,
              "time_s,switch,port,flow_id,src,dst,sport,n,capacity_gbps,target_gbps,received_s,"
              "rate_before_gbps,applied");
    std::string line;
    uint64_t rows = 0;
    while (std::getline(csv, line))
    {
        rows++;
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');)
        {
            cells.push_back(c);
        }
        ASSERT_EQ(cells.size(), 13u) << line;
        EXPECT_EQ(cells[3], "0") << line; // flow 0
        EXPECT_EQ(cells[8], "40.000000") << line;
        EXPECT_TRUE(cells[12] == "0" || cells[12] == "1") << line;
    }
    EXPECT_EQ(rows, sent);
    EXPECT_GT(rows, 0u);
    std::ifstream js(dir + "/summary.json");
    std::stringstream all;
    all << js.rdbuf();
    const std::string summary = all.str();
    for (const char* key : {"\"dcon_queues\"",
                            "\"latched_arrivals\"",
                            "\"queue_seconds\"",
                            "\"shares_above_qecn\"",
                            "\"per_queue\"",
                            "\"burst_s\"",
                            "\"cnms\": {\"sent\": "})
    {
        EXPECT_NE(summary.find(key), std::string::npos) << key;
    }
    std::filesystem::remove_all(dir);
}
