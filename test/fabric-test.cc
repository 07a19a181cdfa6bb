/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scenario tests of small lossless fabrics built with LeafSpineHelper + RdmaFabricHelper +
// RdmaFlowHelper (+ FabricMonitor): flow completion times, losslessness under incast, go-back-N
// without PFC, ECMP spreading, DCQCN fairness, absence of spurious PAUSEs, input validation
// and determinism.
//
// Wire sizes used below (RdmaNic Mtu 1000, PfcNetDevice with preamble/IFG):
//   data packet, 1000 B payload: IPv4 20 + UDP 8 + BTH 12 + 1000 + ICRC 4 = 1044 B L3;
//     + Ethernet 14 + FCS 4 + preamble/IFG 20 = 1082 B on the wire -> 216.4 ns at 40 Gb/s
//   ACK: 20 + 8 + 12 + AETH 4 + ICRC 4 = 48 B L3 -> 62 B frame -> 86 B wire -> 17.2 ns
//   goodput ceiling at 40 Gb/s: 40 x 1000 / 1082 = 36.9686 Gb/s

#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/config.h"
#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-ingress-tracker.h"
#include "ns3/fabric-monitor.h"
#include "ns3/global-value.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/pfc-channel.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"
#include "test-items.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using test::Slurp;

namespace
{

constexpr double GOODPUT_40G = 40e9 * 1000.0 / 1082.0; // bit/s of payload at 40 Gb/s

using test::ExpectInvalid;
using test::TotalPauses;

/// Sum of MMU and forwarding drops over all switches.
uint64_t
TotalDrops(Ptr<RdmaFabric> f)
{
    uint64_t n = 0;
    for (uint32_t s : f->GetSwitches())
    {
        for (const auto& [reason, c] : f->GetSwitch(s)->GetMmu()->GetDropCounts())
        {
            n += c;
        }
        for (const auto& [reason, c] : f->GetSwitch(s)->GetForwardingDrops())
        {
            n += c;
        }
    }
    return n;
}

/// Outcome of an incast run.
struct IncastResult
{
    uint32_t flows{0};
    uint32_t completed{0};
    uint64_t drops{0};
    uint64_t pauses{0};
    uint64_t bytes{0};
    Time firstStart{Time::Max()};
    Time lastEnd{0};
    RdmaNic::Stats nic;
    std::vector<Time> ends; //!< completion time of each flow, by flow id
};

/// 16-to-1 incast on a 1-spine leaf-spine with leaves of 8 and 9 hosts (40 Gb/s, 1 us links):
/// hosts 0..15 each send \p size bytes at t = 0 to host 16 (on leaf 1), cc "none".
IncastResult
RunIncast(bool pfc, const std::string& buffer, uint64_t size)
{
    LeafSpineHelper ls(1, std::vector<uint32_t>{8, 9});
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    fh.SetMmuAttribute("PfcEnabled", BooleanValue(pfc));
    fh.SetMmuAttribute("BufferSize", QueueSizeValue(QueueSize(buffer)));
    fh.SetNicAttribute("RetransmitTimeout", TimeValue(MilliSeconds(1)));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    uint32_t rx = ls.GetHost(1, 8);
    for (uint32_t h = 0; h < 16; ++h)
    {
        flows->AddFlow(h, rx, size, Time(0));
    }
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->Start(MicroSeconds(100), Seconds(1));
    Simulator::Stop(Seconds(1)); // safety net; the flow helper stops when all are done
    Simulator::Run();
    IncastResult r;
    r.flows = flows->GetFlows().size();
    r.completed = flows->GetNCompleted();
    r.drops = TotalDrops(f);
    r.pauses = TotalPauses(f);
    r.nic = f->GetNicTotals();
    for (const auto& rec : mon->GetRecordsById())
    {
        r.ends.push_back(rec.end);
        r.bytes += rec.size;
        r.firstStart = std::min(r.firstStart, rec.start);
        r.lastEnd = std::max(r.lastEnd, rec.end);
    }
    return r;
}

/// Fixture: destroys the simulator after every test, also when an ASSERT ended it early, so
/// that tests stay independent when run together in one process.
class Fabric : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

// Lone flows over a 2-leaf, 1-spine fabric (40 Gb/s, 1 us everywhere), cc "none": the FCT is
// the ideal one. By hand for 1 MB (1000 packets of 1000 B), path host-leaf-spine-leaf-host =
// 4 links:
//   first packet store-and-forward + its ACK back, per link: 2 x 1 us + 216.4 ns + 17.2 ns =
//   2233.6 ns; x 4 = 8934.4 ns
//   the other 999 packets stream behind it at line rate: 999 x 216.4 ns = 216,183.6 ns
//   ideal FCT = 225,118.0 ns.
// For 1 packet: 8934.4 ns; for 10 packets: 8934.4 + 9 x 216.4 = 10,882.0 ns.
// Measured: the simulated FCTs equal these to the picosecond.
// Large messages (ideal only, not simulated): 1 GB = 10^6 packets: 8934.4 + 999,999 x 216.4 =
// 216,408,718.0 ns; 5 GB: 8934.4 + 4,999,999 x 216.4 = 1,082,008,718.0 ns. (GetIdealFct used
// DataRate::CalculateBytesTxTime, whose 32-bit bytes x 8 wrapped: 1 GB gave 1.66 ms.)
TEST_F(Fabric, LoneFlowFctIsIdeal)
{
    struct Case
    {
        uint64_t size;
        int64_t idealPs;
    };
    for (Case c : {Case{1000, 8934400}, Case{10000, 10882000}, Case{1000000, 225118000}})
    {
        LeafSpineHelper ls(1, 2, 1);
        ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
        ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
        RdmaFabricHelper fh;
        fh.SetCongestionControl("none");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        uint32_t src = ls.GetHost(0, 0);
        uint32_t dst = ls.GetHost(1, 0);
        EXPECT_EQ(f->GetSwitchHops(src, dst), 3u);
        Time ideal = f->GetIdealFct(src, dst, c.size);
        EXPECT_EQ(ideal.GetPicoSeconds(), c.idealPs) << c.size;
        EXPECT_EQ(f->GetIdealFct(src, dst, 1000000000).GetPicoSeconds(), 216408718000);
        EXPECT_EQ(f->GetIdealFct(src, dst, 5000000000).GetPicoSeconds(), 1082008718000);
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        flows->AddFlow(src, dst, c.size, MicroSeconds(10));
        Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
        mon->Start(MicroSeconds(100), Seconds(1));
        Simulator::Run();
        ASSERT_EQ(mon->GetRecords().size(), 1u);
        const RdmaFlowRecord& rec = mon->GetRecords()[0];
        EXPECT_EQ(rec.start, MicroSeconds(10));
        Time fct = rec.end - rec.start;
        std::cout << "size " << c.size << ": FCT " << fct.GetPicoSeconds() << " ps, ideal "
                  << ideal.GetPicoSeconds() << " ps\n";
        EXPECT_EQ(fct, ideal) << c.size; // to the picosecond (the issue asks for 1%)
        // The HPCC simulator's fct.txt line: hosts 10.0.0.1 -> 10.0.0.2, the NIC's source port,
        // RoCEv2's 4791, size, start 10 us, FCT and ideal FCT in ns (equal here).
        std::string path = ::testing::TempDir() + "/dcon-fct.txt";
        mon->WriteFctFile(path);
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);
        std::string ns = std::to_string(c.idealPs / 1000);
        EXPECT_EQ(line,
                  "0a000001 0a000002 " + std::to_string(rec.sport) + " 4791 "
                      + std::to_string(c.size) + " 10000 " + ns + " " + ns);
        EXPECT_FALSE(std::getline(in, line));
        Simulator::Destroy();
    }
}

/// Packets each priority's queue discs received, summed over every switch and port.
std::array<uint64_t, PfcNetDevice::NUM_PRIORITIES>
QueueDiscPackets(Ptr<RdmaFabric> f)
{
    std::array<uint64_t, PfcNetDevice::NUM_PRIORITIES> n{};
    for (uint32_t s : f->GetSwitches())
    {
        Ptr<RdmaSwitch> sw = f->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                n[prio] += sw->GetQueueDisc(p, prio)->GetStats().nTotalReceivedPackets;
            }
        }
    }
    return n;
}

// ACKs travel in the control priority, which switches keep in a plain FIFO per port instead of
// that priority's queue disc. One 1 MB flow (1000 packets of 1000 B, an ACK per packet) from
// leaf 0 to leaf 1 over the spine: 3 switch hops, so the data priority's queue discs see
// 3 x 1000 = 3000 packets and the control priority's none, while all 1000 ACKs arrive. With
// the NICs' ControlPriority set to 6 (through the helper, and through Config::SetDefault),
// the switches follow (priority 6 stays out of the queue discs, 7 carries nothing either).
TEST_F(Fabric, ControlPacketsBypassTheQueueDisc)
{
    enum Setting
    {
        DEFAULT,
        HELPER,
        CONFIG
    };

    for (Setting how : {DEFAULT, HELPER, CONFIG})
    {
        const uint8_t ctrl = how == DEFAULT ? 7 : 6;
        LeafSpineHelper ls(1, 2, 2);
        ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
        ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
        RdmaFabricHelper fh;
        fh.SetCongestionControl("none");
        if (how == HELPER)
        {
            fh.SetNicAttribute("ControlPriority", UintegerValue(ctrl));
        }
        else if (how == CONFIG)
        {
            Config::SetDefault("ns3::RdmaNic::ControlPriority", UintegerValue(ctrl));
        }
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 0), 1000000, Time(0));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        EXPECT_EQ(flows->GetNCompleted(), 1u) << "setting " << how;
        RdmaNic::Stats nic = f->GetNicTotals();
        EXPECT_EQ(nic.acksSent, 1000u);
        // every ACK reached the sender (nothing else is sent to it: no CNP, no PFC here)
        EXPECT_EQ(f->GetNic(ls.GetHost(0, 0))->GetDevice()->GetStats().rxFrames, 1000u);
        auto n = QueueDiscPackets(f);
        EXPECT_EQ(n[3], 3000u); // data, CS3
        EXPECT_EQ(n[6], 0u) << "setting " << how;
        EXPECT_EQ(n[7], 0u);
        Simulator::Destroy();
        Config::SetDefault("ns3::RdmaNic::ControlPriority", UintegerValue(7)); // the default
    }
}

// 16-to-1 incast with PFC on and cc "none". Buffer 2 MB per switch so that the dynamic PFC
// threshold is reached (with the default 32 MB it would not be). 16 x 500 KB = 8 MB through the
// receiver's 40 Gb/s link: at the goodput ceiling 36.9686 Gb/s that takes 64e6 / 36.9686e9 =
// 1.7312 ms; the link must be used at >= 95% of that ceiling from the first start to the last
// completion.
// Measured: 451 PAUSE frames, 0 drops, last completion at 1737 us, 36.83 Gb/s = 99.6% of the
// ceiling.
TEST_F(Fabric, IncastIsLosslessWithPfc)
{
    IncastResult r = RunIncast(true, "2MB", 500000);
    double goodput = r.bytes * 8.0 / (r.lastEnd - r.firstStart).GetSeconds();
    std::cout << "PFC incast: completed " << r.completed << "/" << r.flows << ", pauses "
              << r.pauses << ", drops " << r.drops << ", span "
              << (r.lastEnd - r.firstStart).GetMicroSeconds() << " us, goodput " << goodput / 1e9
              << " Gb/s (" << 100 * goodput / GOODPUT_40G << "% of ceiling)\n";
    EXPECT_EQ(r.completed, 16u);
    EXPECT_EQ(r.bytes, 8000000u);
    EXPECT_EQ(r.drops, 0u);
    EXPECT_GT(r.pauses, 0u);
    // lossless: not a single retransmission, NAK or timeout; 16 x 500 data packets exactly
    EXPECT_EQ(r.nic.dataPacketsSent, 8000u);
    EXPECT_EQ(r.nic.retransmittedPackets, 0u);
    EXPECT_EQ(r.nic.naksSent, 0u);
    EXPECT_EQ(r.nic.timeouts, 0u);
    EXPECT_GE(goodput, 0.95 * GOODPUT_40G);
    Simulator::Destroy();
}

// DCON's switch side goes only where a DconQueueDisc can report congested flows: a RED fabric
// has no DconCnmGenerator, a DCON one has one per switch, sized to its ports, installed once.
// A switch-agent attribute with no agent to take it (no queue of an algorithm that declares
// one) is refused, naming it, instead of being dropped.
TEST_F(Fabric, SwitchAgentAttributeWithoutAgentIsRefused)
{
    LeafSpineHelper ls(1, 2, 2);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetQueueDisc("ns3::RedEcnQueueDisc");
    fh.SetSwitchAgentAttribute("CnmInterval", TimeValue(MicroSeconds(70)));
    try
    {
        fh.Build(ls.GetTopology());
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("SetSwitchAgentAttribute(CnmInterval)"),
                  std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

// A buffer that cannot hold the headroom every port reserves is refused as BufferTooSmallError
// (its own type, kept through the "switch N:" the helper adds), so a program can name its
// --bufferSize without reading the text; another MMU error stays a plain invalid_argument.
TEST_F(Fabric, BufferTooSmallKeepsItsType)
{
    LeafSpineHelper ls(1, 2, 2); // leaves: 2 host ports + 1 uplink; the spine: 2 ports
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    // The helper sizes each port's headroom from its link: 2 x 1 us x 40 Gb/s = 10 kB in
    // flight plus 3 frames, about 13.3 kB; a leaf's 3 ports need about 40 kB of the 30 kB.
    RdmaFabricHelper fh;
    fh.SetMmuAttribute("BufferSize", QueueSizeValue(QueueSize("30kB")));
    try
    {
        fh.Build(ls.GetTopology());
        FAIL() << "no exception";
    }
    catch (const BufferTooSmallError& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("switch ", 0), 0u) << what;
        EXPECT_NE(what.find("3 ports x Headroom"), std::string::npos) << what;
        EXPECT_NE(what.find("exceeds BufferSize 30000 B"), std::string::npos) << what;
    }
    Simulator::Destroy();

    RdmaFabricHelper other; // a size in packets: refused by the MMU, not as a small buffer
    other.SetMmuAttribute("BufferSize", QueueSizeValue(QueueSize("1000p")));
    try
    {
        other.Build(ls.GetTopology());
        FAIL() << "no exception";
    }
    catch (const BufferTooSmallError& e)
    {
        FAIL() << "a size in packets is not a buffer size error: " << e.what();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("switch ", 0), 0u) << e.what();
    }
    Simulator::Destroy();
}

TEST_F(Fabric, CnmGeneratorOnlyWithDconQueues)
{
    LeafSpineHelper ls(1, 2, 2);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    {
        RdmaFabricHelper fh;
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        for (uint32_t s : f->GetSwitches())
        {
            EXPECT_EQ(DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(s)), nullptr);
        }
        Simulator::Destroy();
    }
    RdmaFabricHelper fh;
    fh.SetQueueDisc("ns3::DconQueueDisc");
    fh.SetSwitchAgentAttribute("CnmInterval", TimeValue(MicroSeconds(70)));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    for (uint32_t s : f->GetSwitches())
    {
        Ptr<DconCnmGenerator> g = DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(s));
        ASSERT_NE(g, nullptr);
        TimeValue interval;
        g->GetAttribute("CnmInterval", interval);
        EXPECT_EQ(interval.Get(), MicroSeconds(70));
        EXPECT_EQ(g->GetStats().sent, 0u);
        EXPECT_EQ(g->GetCnmsSent(f->GetSwitch(s)->GetNPorts() - 1), 0u);
        EXPECT_THROW(g->GetCnmsSent(f->GetSwitch(s)->GetNPorts()), std::out_of_range);
        EXPECT_THROW(g->Install(f->GetSwitch(s)), std::logic_error);
    }
    Simulator::Destroy();
}

// T_last and control packets (DconCnmGenerator::ControlStampsTlast). One flow from leaf 0 to leaf 1
// (40 Gb/s, 1 us links): at leaf 0 the port from the spine only ever carries the flow's ACKs.
// 50 us into the flow (ACKs arrive every 216 ns, the window T is 120 us) that port has a recent
// non-congested arrival by default, and none when control packets do not stamp T_last; the
// host port that carries the data has one either way.
TEST_F(Fabric, ControlPacketsAndTlast)
{
    for (bool stamps : {true, false})
    {
        LeafSpineHelper ls(1, 2, 2);
        ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
        ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
        RdmaFabricHelper fh;
        fh.SetCongestionControl("none");
        fh.SetQueueDisc("ns3::DconQueueDisc"); // the CNM generator goes with DCON's queue
        fh.SetSwitchAgentAttribute("ControlStampsTlast", BooleanValue(stamps));
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 0), 10000000, Time(0));
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        Ptr<RdmaSwitch> leaf = f->GetSwitch(ls.GetLeaf(0));
        Ptr<DconIngressTracker> tracker
            = DynamicCast<DconCnmGenerator>(f->GetSwitchAgent(ls.GetLeaf(0)))->GetIngressTracker();
        uint32_t fromSpine = UINT32_MAX;
        uint32_t fromHost = UINT32_MAX;
        for (uint32_t p = 0; p < leaf->GetNPorts(); ++p)
        {
            Ptr<PfcNetDevice> dev = leaf->GetDevice(p);
            uint32_t peer
                = DynamicCast<PfcChannel>(dev->GetChannel())->GetPeer(dev)->GetNode()->GetId();
            if (peer == ls.GetSpine(0))
            {
                fromSpine = p;
            }
            if (peer == ls.GetHost(0, 0))
            {
                fromHost = p;
            }
        }
        ASSERT_NE(fromSpine, UINT32_MAX);
        ASSERT_NE(fromHost, UINT32_MAX);
        // (asked for a flow congested at the port itself: no packet goes back out its own port)
        EXPECT_EQ(tracker->HasRecentNonCongested(fromSpine, fromSpine), stamps)
            << "stamps " << stamps;
        EXPECT_TRUE(tracker->HasRecentNonCongested(fromHost, fromHost)) << "stamps " << stamps;
        Simulator::Destroy();
    }
}

// DCON's dynamic Q_CNM (paper Section 4.4) from the live fan-out of the ingress port. One leaf,
// 5 hosts, 40 Gb/s and 1 us links, cc "none", DconQueueDisc with Q_ECN 5 KB: h0 sends to h2 and
// h3 (20 Gb/s each, its NIC alternates), h1 to h3 and h4 to h2 at 40 Gb/s, so the egress
// queues to h2 and h3 both fill (60 Gb/s in, 40 out) and h0's ingress port holds packets in
// both: M = 2 for h0's packets, M = 1 for h1's and h4's. With static PFC at 320 KB:
// h0's packets see Q_CNM = 320000 / 2 - 3 x 1 us x 5 GB/s x 1 = 145,000 B; the others 320,000 B.
TEST_F(Fabric, DynamicQcnmFollowsIngressFanOut)
{
    LeafSpineHelper ls(1, 1, 5);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    fh.SetMmuAttribute("ThresholdMode", StringValue("STATIC"));
    fh.SetMmuAttribute("XOff", QueueSizeValue(QueueSize("320KB")));
    fh.SetQueueDisc("ns3::DconQueueDisc",
                    "QEcn",
                    QueueSizeValue(QueueSize("5KB")),
                    "HopDelay",
                    TimeValue(MicroSeconds(1)));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    const uint32_t h0 = ls.GetHost(0, 0);
    const uint32_t h1 = ls.GetHost(0, 1);
    const uint32_t h2 = ls.GetHost(0, 2);
    const uint32_t h3 = ls.GetHost(0, 3);
    const uint32_t h4 = ls.GetHost(0, 4);
    flows->AddFlow(h0, h2, 10000000, Time(0));
    flows->AddFlow(h0, h3, 10000000, Time(0));
    flows->AddFlow(h1, h3, 10000000, Time(0));
    flows->AddFlow(h4, h2, 10000000, Time(0));
    Ptr<RdmaSwitch> leaf = f->GetSwitch(ls.GetLeaf(0));
    std::set<uint32_t> seen;
    for (uint32_t dst : {h2, h3})
    {
        Ptr<RdmaEgressQueueDisc> q = leaf->GetQueueDisc(f->GetPort(ls.GetLeaf(0), dst), 3);
        q->TraceConnectWithoutContext("QcnmInUse",
                                      MakeCallback(+[](std::set<uint32_t>* s, uint32_t, uint32_t v)
                                                   {
                                                       s->insert(v);
                                                   })
                                          .Bind(&seen));
    }
    Simulator::Stop(MicroSeconds(30));
    Simulator::Run();
    const uint32_t in0 = f->GetPort(ls.GetLeaf(0), h0);
    const uint32_t in1 = f->GetPort(ls.GetLeaf(0), h1);
    EXPECT_EQ(leaf->GetIngressFanOut(in0, 3), 2u);
    EXPECT_EQ(leaf->GetIngressFanOut(in1, 3), 1u);
    EXPECT_EQ(leaf->GetIngressFanOut(in0, 7), 0u); // no data in the control priority
    EXPECT_EQ(leaf->GetIngressPauseThreshold(in0, 3), 320000u);
    // Counting only queues of at least some length (FanOutMode=LiveAboveQecn): both egress
    // queues hold far more than 5 KB after 30 us, neither holds 10 MB. Asked by the queue to h2
    // (counted as 1 whatever it holds), h0's ingress also feeds h3's queue.
    Ptr<RdmaEgressQueueDisc> toH2 = leaf->GetQueueDisc(f->GetPort(ls.GetLeaf(0), h2), 3);
    EXPECT_GT(toH2->GetNBytes(), 5000u);
    EXPECT_GT(leaf->GetQueueDisc(f->GetPort(ls.GetLeaf(0), h3), 3)->GetNBytes(), 5000u);
    EXPECT_EQ(leaf->GetIngressFanOutAbove(in0, 3, 5000, PeekPointer(toH2)), 2u);
    EXPECT_EQ(leaf->GetIngressFanOutAbove(in0, 3, 10000000, PeekPointer(toH2)), 1u);
    EXPECT_EQ(leaf->GetIngressFanOutAbove(in1, 3, 5000, PeekPointer(toH2)), 2u); // h1 -> h3 only
    EXPECT_EQ(seen.count(145000u), 1u);
    EXPECT_EQ(seen.count(320000u), 1u);
    EXPECT_EQ(seen.size(), 2u);
}

// The design fan-out (DCON's worst-case M): the egress ports an ingress port's packets can be
// routed to. 2 spines, 3 leaves, 4 hosts per leaf: a leaf's port from a spine reaches the
// leaf's 4 host ports; a host port the 2 uplinks and the 3 other host ports (5); a spine's port
// from a leaf the 2 other leaves. Build configures each switch with them. The testbed's P1/L2
// (L2's port from S1) reaches R0 and R1: 2.
TEST_F(Fabric, DesignFanOutFromRoutes)
{
    {
        LeafSpineHelper ls(2, 3, 4);
        RdmaFabricHelper fh;
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        const uint32_t leaf = ls.GetLeaf(1);
        const uint32_t spine = ls.GetSpine(0);
        EXPECT_EQ(f->GetDesignFanOut(leaf, f->GetPort(leaf, spine)), 4u);
        EXPECT_EQ(f->GetDesignFanOut(leaf, f->GetPort(leaf, ls.GetHost(1, 2))), 5u);
        EXPECT_EQ(f->GetDesignFanOut(spine, f->GetPort(spine, ls.GetLeaf(2))), 2u);
        EXPECT_EQ(f->GetSwitch(leaf)->GetIngressDesignFanOut(f->GetPort(leaf, spine)), 4u);
        EXPECT_THROW(f->GetDesignFanOut(ls.GetHost(0, 0), 0), std::invalid_argument);
        EXPECT_THROW(f->GetDesignFanOut(leaf, 99), std::invalid_argument);
        Simulator::Destroy();
    }
    LeafSpineHelper tb = LeafSpineHelper::DconTestbed();
    RdmaFabricHelper fh;
    Ptr<RdmaFabric> f = fh.Build(tb.GetTopology());
    const uint32_t l2 = tb.GetLeaf(2);
    EXPECT_EQ(f->GetDesignFanOut(l2, f->GetPort(l2, tb.GetSpine(1))), 2u);
    Simulator::Destroy();
}

// Q_ECN <= Q_CNM <= Q_PFC: a fixed Q_CNM or a Q_ECN above the switches' PFC threshold can never
// be reached before PFC pauses the ingress, and the fabric is rejected naming the values.
TEST_F(Fabric, QcnmAbovePfcThresholdIsRejected)
{
    LeafSpineHelper ls(1, 2, 1);
    for (const char* attr : {"QCnm", "QEcn"})
    {
        RdmaFabricHelper fh;
        fh.SetMmuAttribute("ThresholdMode", StringValue("STATIC"));
        fh.SetMmuAttribute("XOff", QueueSizeValue(QueueSize("320KB")));
        fh.SetQueueDisc("ns3::DconQueueDisc",
                        "QcnmMode",
                        StringValue("Fixed"),
                        "QEcn",
                        QueueSizeValue(QueueSize(std::string(attr) == "QEcn" ? "330KB" : "5KB")),
                        "QCnm",
                        QueueSizeValue(QueueSize("400KB")));
        try
        {
            fh.Build(ls.GetTopology());
            ADD_FAILURE() << attr << " above the PFC threshold accepted";
        }
        catch (const std::invalid_argument& e)
        {
            std::string m = e.what();
            EXPECT_NE(m.find("320000 B"), std::string::npos) << m;
            EXPECT_NE(m.find(std::string(attr) == "QEcn" ? "330000 B" : "400000 B"),
                      std::string::npos)
                << m;
        }
        Simulator::Destroy();
    }
}

// The event scheduler must not change a result: every ns-3 scheduler orders events by time and
// then by insertion, so the PFC incast (451 PAUSE frames, many simultaneous events) completes
// every flow at the same picosecond with the default MapScheduler, with ns-3's binary heap and
// with the time slots that the examples choose (RdmaFabricHelper::UseFastScheduler).
TEST_F(Fabric, SchedulerChoiceDoesNotChangeResults)
{
    StringValue before;
    GlobalValue::GetValueByName("SchedulerType", before);
    struct Restore
    {
        StringValue type;

        ~Restore()
        {
            GlobalValue::Bind("SchedulerType", type);
        }
    } restore{before};

    GlobalValue::Bind("SchedulerType", StringValue("ns3::MapScheduler"));
    IncastResult map = RunIncast(true, "2MB", 500000);
    Simulator::Destroy();

    RdmaFabricHelper::UseFastScheduler();
    StringValue bound;
    GlobalValue::GetValueByName("SchedulerType", bound);
    EXPECT_EQ(bound.Get(), "ns3::BucketScheduler");
    IncastResult heap = RunIncast(true, "2MB", 500000);
    Simulator::Destroy();

    GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    IncastResult pq = RunIncast(true, "2MB", 500000);
    Simulator::Destroy();
    EXPECT_EQ(pq.pauses, map.pauses);
    for (std::size_t i = 0; i < map.ends.size(); ++i)
    {
        EXPECT_EQ(pq.ends[i], map.ends[i]) << "flow " << i;
    }

    ASSERT_EQ(map.ends.size(), 16u);
    EXPECT_GT(map.pauses, 0u);
    EXPECT_EQ(heap.pauses, map.pauses);
    EXPECT_EQ(heap.nic.acksSent, map.nic.acksSent);
    for (std::size_t i = 0; i < map.ends.size(); ++i)
    {
        EXPECT_EQ(heap.ends[i], map.ends[i]) << "flow " << i;
    }
}

// The same incast without PFC and with a 200 KB buffer drops packets; go-back-N (NAKs, and the
// 1 ms retransmission timeout for lost tails) still completes every flow.
// Measured: 24,890 drops, 24,903 retransmitted packets, 65 timeouts, 4 NAKs, all done at 6547 us.
// (So few NAKs because the 16 senders are exactly synchronized: at equal arrival times the same
// sender always wins the freed buffer slot, the others lose whole tails and need the timeout.)
TEST_F(Fabric, IncastWithoutPfcDropsAndRecovers)
{
    IncastResult r = RunIncast(false, "200KB", 500000);
    std::cout << "lossy incast: completed " << r.completed << "/" << r.flows << ", drops "
              << r.drops << ", retransmitted " << r.nic.retransmittedPackets << ", NAKs "
              << r.nic.naksSent << ", timeouts " << r.nic.timeouts << ", last end "
              << r.lastEnd.GetMicroSeconds() << " us\n";
    EXPECT_EQ(r.completed, 16u);
    EXPECT_EQ(r.bytes, 8000000u);
    EXPECT_GT(r.drops, 0u);
    EXPECT_EQ(r.pauses, 0u);
    EXPECT_GT(r.nic.retransmittedPackets, 0u);
    // every packet beyond the 8000 originals is a retransmission
    EXPECT_EQ(r.nic.dataPacketsSent, 8000u + r.nic.retransmittedPackets);
    Simulator::Destroy();
}

// ECMP over 8 spines: 1000 flows from the 4 hosts of leaf 0 to the 4 hosts of leaf 1, source
// ports 10000..10999. Expected 1000 / 8 = 125 per spine (binomial sd = sqrt(1000 x 1/8 x 7/8)
// = 10.5), every spine must get 90..160. The flows (one packet each) are then run, and each
// spine's port to leaf 1 must carry exactly the data packets that leaf 0's Route() predicted.
// Measured: 129 123 131 121 136 127 130 103.
TEST_F(Fabric, EcmpSpreadsFlowsOverSpines)
{
    LeafSpineHelper ls(8, 2, 4);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    Ptr<RdmaSwitch> leaf0 = f->GetSwitch(ls.GetLeaf(0));
    std::vector<uint32_t> perSpine(8, 0);
    for (uint32_t i = 0; i < 1000; ++i)
    {
        uint32_t id = flows->AddFlow(ls.GetHost(0, i % 4),
                                     ls.GetHost(1, (i / 4) % 4),
                                     1000,
                                     Time(0),
                                     3,
                                     static_cast<uint16_t>(10000 + i));
        uint32_t port = leaf0->Route(flows->GetFiveTuple(id));
        // leaf 0's port to spine s is hostsOnLeaf + s = 4 + s
        ASSERT_GE(port, 4u);
        ASSERT_LT(port, 12u);
        perSpine[port - 4]++;
    }
    Simulator::Run();
    EXPECT_EQ(flows->GetNCompleted(), 1000u);
    std::cout << "flows per spine:";
    for (uint32_t s = 0; s < 8; ++s)
    {
        std::cout << " " << perSpine[s];
        EXPECT_GE(perSpine[s], 90u) << "spine " << s;
        EXPECT_LE(perSpine[s], 160u) << "spine " << s;
        Ptr<RdmaSwitch> spine = f->GetSwitch(ls.GetSpine(s));
        // spine s's port to leaf l is l
        const auto& st = spine->GetDevice(1)->GetStats();
        EXPECT_EQ(st.txFrames - st.pauseSent - st.resumeSent, perSpine[s]) << "spine " << s;
    }
    std::cout << "\n";
    Simulator::Destroy();
}

// A single flow at line rate through leaf-spine never builds a queue, so it never causes a
// PAUSE: every link runs at 40 Gb/s, each switch forwards a packet as soon as it has arrived.
// The MMU of every switch holds at most one data packet (1044 B) plus one ACK (48 B) at a time.
// Measured: 0 PAUSE frames, peak buffer use 1044 B.
TEST_F(Fabric, NoPauseBelowThresholds)
{
    LeafSpineHelper ls(2, 2, 2);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 1), 5000000, Time(0));
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    mon->Start(MicroSeconds(100), Seconds(1));
    Simulator::Run();
    ASSERT_EQ(mon->GetRecords().size(), 1u);
    EXPECT_EQ(TotalPauses(f), 0u);
    uint64_t maxUsed = 0;
    for (uint32_t s : f->GetSwitches())
    {
        maxUsed = std::max(maxUsed, f->GetSwitch(s)->GetMmu()->GetMaxTotalUsed());
    }
    std::cout << "max buffer use " << maxUsed << " B\n";
    EXPECT_LE(maxUsed, 1044u + 48u);
    EXPECT_GE(maxUsed, 1044u);
    Simulator::Destroy();
}

TEST_F(Fabric, BadInputThrows)
{
    // unknown congestion control
    {
        RdmaFabricHelper fh;
        ExpectInvalid(
            [&]
            {
                fh.SetCongestionControl("bogus-cc");
            },
            "bogus-cc");
    }
    // host 0 with two links (to switches 2 and 3)
    {
        TopologySpec t;
        t.nNodes = 4;
        t.isSwitch = {false, false, true, true};
        t.links = {{0, 2, DataRate("40Gbps"), MicroSeconds(1)},
                   {1, 2, DataRate("40Gbps"), MicroSeconds(1)},
                   {0, 3, DataRate("40Gbps"), MicroSeconds(1)}};
        RdmaFabricHelper fh;
        ExpectInvalid(
            [&]
            {
                fh.Build(t);
            },
            "host 0 has more than one link");
    }
    // host 2 without a link
    {
        TopologySpec t;
        t.nNodes = 4;
        t.isSwitch = {false, false, false, true};
        t.links = {{0, 3, DataRate("40Gbps"), MicroSeconds(1)},
                   {1, 3, DataRate("40Gbps"), MicroSeconds(1)}};
        RdmaFabricHelper fh;
        ExpectInvalid(
            [&]
            {
                fh.Build(t);
            },
            "host 2 has no link");
    }
    // host 2 on its own switch 4, not connected to switch 3
    {
        TopologySpec t;
        t.nNodes = 5;
        t.isSwitch = {false, false, false, true, true};
        t.links = {{0, 3, DataRate("40Gbps"), MicroSeconds(1)},
                   {1, 3, DataRate("40Gbps"), MicroSeconds(1)},
                   {2, 4, DataRate("40Gbps"), MicroSeconds(1)}};
        RdmaFabricHelper fh;
        ExpectInvalid(
            [&]
            {
                fh.Build(t);
            },
            "host 2");
    }
    // flows: src == dst, size 0, not a host
    {
        LeafSpineHelper ls(1, 1, 2);
        RdmaFabricHelper fh;
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        ExpectInvalid(
            [&]
            {
                flows->AddFlow(1, 1, 1000, Time(0));
            },
            "both 1");
        ExpectInvalid(
            [&]
            {
                flows->AddFlow(0, 1, 0, Time(0));
            },
            "size is 0");
        uint32_t leaf = ls.GetLeaf(0);
        ExpectInvalid(
            [&]
            {
                flows->AddFlow(0, leaf, 1000, Time(0));
            },
            "destination " + std::to_string(leaf) + " is not a host");
        // data in the control priority would bypass the switches' ECN marking
        ExpectInvalid(
            [&]
            {
                flows->AddFlow(0, 1, 1000, Time(0), 7);
            },
            "priority 7 is the NICs' ControlPriority");
        RdmaFlowRequest req;
        req.flowId = 9;
        req.dst = Ipv4Address("10.0.0.2");
        req.size = 1000;
        req.priority = 7;
        ExpectInvalid(
            [&]
            {
                f->GetNic(0)->StartFlow(req);
            },
            "flow 9 has priority 7, the ControlPriority");
        EXPECT_EQ(flows->GetFlows().size(), 0u);
    }
    Simulator::Destroy();
}

// The same small scenario run twice in one process gives byte-identical flows.csv and pfc.csv.
// 6-to-1 incast (hosts 0..5 -> 6 on one leaf), DCQCN with the default probabilistic RED
// marking, 300 KB buffer so that PFC triggers. Measured: 63 PAUSE frames in each run.
// (Before RdmaFabricHelper::Build assigned fixed RNG streams this test failed: ns-3's automatic
// stream numbers keep counting across Simulator::Destroy, so the second run drew other RED coins
// and diverged at 66 us.)
TEST_F(Fabric, Deterministic)
{
    namespace fs = std::filesystem;
    fs::path base = fs::temp_directory_path() / ("dcon-det-" + std::to_string(::getpid()));
    auto run = [&](const std::string& name)
    {
        LeafSpineHelper ls(1, 1, 7);
        ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
        ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcqcn");
        fh.SetMmuAttribute("BufferSize", QueueSizeValue(QueueSize("300KB")));
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        for (uint32_t h = 0; h < 6; ++h)
        {
            flows->AddFlow(h, 6, 200000 + 10000 * h, MicroSeconds(h));
        }
        Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
        mon->Start(MicroSeconds(10), Seconds(1));
        Simulator::Run();
        mon->Write((base / name).string(), 0.0);
        uint64_t pauses = TotalPauses(f);
        Simulator::Destroy();
        return pauses;
    };
    uint64_t p1 = run("a");
    uint64_t p2 = run("b");
    std::cout << "pauses " << p1 << " " << p2 << "\n";
    EXPECT_GT(p1, 0u);
    std::string flowsA = Slurp(base / "a" / "flows.csv");
    std::string pfcA = Slurp(base / "a" / "pfc.csv");
    // 6 flows + header; PAUSE lines + header
    EXPECT_EQ(std::count(flowsA.begin(), flowsA.end(), '\n'), 7);
    EXPECT_GT(std::count(pfcA.begin(), pfcA.end(), '\n'), 1);
    EXPECT_EQ(flowsA, Slurp(base / "b" / "flows.csv"));
    EXPECT_EQ(pfcA, Slurp(base / "b" / "pfc.csv"));
    EXPECT_EQ(Slurp(base / "a" / "queues.csv"), Slurp(base / "b" / "queues.csv"));
    fs::remove_all(base);
}
