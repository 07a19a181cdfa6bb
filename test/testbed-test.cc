/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The DCON paper's testbed (Fig. 1/2) with DCQCN: the burst to R1 congests L2,
// L2 pauses S1, S1 pauses L0 and L1 (congestion spreading), and the innocent flow f0 (H0 -> R0,
// which never crosses the congested port to R1) collapses during the burst and recovers after.
//
// Default DconTestbedConfig: f0 and f1 start at their 20 Gb/s fair share at t = 0; from 30 ms
// H2..H15 each send 35 flows of 64 KB to R1, 15 us apart (the paper's Fig. 7 default spacing):
// 31.36 MB that R1's link needs about 6.8 ms to carry, so the burst, from its start to its
// last flow's completion, lasts about 7.5 ms (the paper's "about 8 ms"). A run takes ~2 s.
//
// Measured (2026-11-26, see doc/validation/testbed.rst), PAUSE frames L2->S1 / S1->L0 / S1->L1,
// f0 Gb/s before / during / end, f1 during:
//   DCQCN (RED 5/200 KB, 1%)                125 / 82 / 74  18.5 / 0.69 / 14.6  0.68
//   DCON (read with the text, Q_ECN 200 KB)  88 / 81 / 31  18.4 / 7.84 / 25.0  0.85
//   DCON, Algorithm 1's listing as written   (f0 ends the run near 2 Gb/s)
// With flows 230 us apart (--burstInterval=230us): DCQCN 1 / 0 / 0, DCON 0 / 4 / 0 with f0 at
// 9.7 Gb/s during the burst (all of Fig. 6's facts). The no-burst control: no PAUSE from L2 to
// S1, f0 flat.

#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-testbed.h"
#include "ns3/double.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/scenario-attributes.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Fixture: destroys the simulator after every test, also when an ASSERT ended it early, so
/// that tests stay independent when run together in one process.
class Testbed : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

/// A reading's value, which must have been measured.
double
G(const Reading& r)
{
    EXPECT_TRUE(r.IsMeasured()) << r.reason;
    return r.value.value_or(-1);
}

/// Run the testbed with \p cfg and return its facts (the simulator is destroyed after).
DconTestbedFacts
RunFacts(const DconTestbedConfig& cfg, uint64_t* cnms = nullptr)
{
    DconTestbed tb(cfg);
    tb.Run();
    DconTestbedFacts f = tb.GetFacts();
    if (cnms)
    {
        *cnms = 0;
        Ptr<RdmaFabric> fab = tb.GetFabric();
        for (uint32_t s : fab->GetSwitches())
        {
            Ptr<DconCnmGenerator> g = DynamicCast<DconCnmGenerator>(fab->GetSwitchAgent(s));
            *cnms += g ? g->GetStats().sent : 0;
        }
    }
    std::cout << cfg.cc << " (" << cfg.burstInterval.As(Time::US) << "): PAUSE L2->S1 "
              << f.pausesL2S1 << ", S1->L0 " << f.pausesS1L0 << ", S1->L1 " << f.pausesS1L1
              << "; f0 Gb/s before " << G(f.f0Before) << ", during " << G(f.f0During) << ", end "
              << G(f.f0After) << "; f1 during " << G(f.f1During) << "\n";
    for (const auto& fact : f.ExpectedFacts(cfg.cc))
    {
        std::cout << "  "
                  << (!fact.judged ? "---- "
                      : fact.holds ? "PASS "
                                   : "FAIL ")
                  << fact.name << "\n";
    }
    Simulator::Destroy();
    return f;
}

/// The names of the facts that hold.
std::vector<std::string>
Holding(const std::vector<DconTestbedFact>& facts)
{
    std::vector<std::string> out;
    for (const auto& f : facts)
    {
        if (f.holds)
        {
            out.push_back(f.name);
        }
    }
    return out;
}

// The paper's Fig. 2: with the 15 us burst, every fact of DCQCN holds: L2 pauses S1, S1 pauses
// L0 and L1, f0 and f1 collapse during the burst, f0 recovers after it.
TEST_F(Testbed, DcqcnShowsFig2)
{
    DconTestbedConfig cfg; // cc "dcqcn", paper preset
    DconTestbedFacts f = RunFacts(cfg);
    EXPECT_TRUE(f.ShowsPaperFacts("dcqcn"));
    // before the burst f0 and f1 are at their fair share (18.48 Gb/s of goodput each), flat
    EXPECT_NEAR(G(f.f0Before), 18.48, 0.2);
    EXPECT_NEAR(G(f.f1Before), 18.48, 0.2);
    EXPECT_LT(G(f.f0During), 0.1 * G(f.f0Before)); // measured 4%
    // "the burst lasts about 8 ms": measured 6.2 ms (DCQCN) to 7.5 ms (DCON) after its start
    EXPECT_GT(f.burstEnd, MilliSeconds(35));
    EXPECT_LT(f.burstEnd, MilliSeconds(39));
}

// The paper's Fig. 6 against our model of its text, same burst and placement. What holds: f1
// is throttled by CNMs (0.85 Gb/s), f0 is far less hurt than with DCQCN (7.8 against 0.69 Gb/s)
// and, with the text's additive increase, recovers after the burst (25 Gb/s in the last 3 ms,
// above its share while f1 climbs back from C/N). f0 itself never gets a CNM: at S1, the only
// switch where it shares a congested queue, its ingress carries nothing but flows to that same
// queue. What does not hold: L2 still pauses S1 (88 frames), because half of the burst comes
// through S1 and its 64 KB flows leave their senders at line rate in 13 us, before any CNM can
// reach them (a CNM throttles a flow, and each new burst flow starts at line rate); and f0,
// ECN-marked at S1 -> L2 and paused with it, does not keep half of its rate during the burst.
// The test pins this outcome so that a change of it is seen; doc/validation/testbed.rst discusses
// it.
TEST_F(Testbed, DconTextReadingAgainstFig6)
{
    DconTestbedConfig cfg;
    DconTestbedFacts q = RunFacts(cfg);
    cfg.cc = "dcon";
    uint64_t cnms = 0;
    DconTestbedFacts d = RunFacts(cfg, &cnms);
    EXPECT_GT(cnms, 0u);
    EXPECT_EQ(d.cnmsF0, 0u);
    EXPECT_GT(d.cnmsF1, 0u);
    EXPECT_EQ(d.cnmsF0 + d.cnmsF1 + d.cnmsBurst, cnms);
    EXPECT_EQ(Holding(d.ExpectedFacts("dcon")),
              std::vector<std::string>{"f1 is throttled during the burst"});
    EXPECT_GT(G(d.f0During), 5 * G(q.f0During)); // f0 far less hurt than with DCQCN
    EXPECT_GE(G(d.f0After), 15.0);               // and it recovers (the bar: 15 Gb/s)
    EXPECT_GT(G(d.f0Before), 0.9 * 18.48);
}

// Algorithm 1's listing as written (UnmarkedCnpIncrease = 0: no additive increase) never
// raises a target: with Q_ECN at 5 KB, f0, marked during the burst, ends the run far below its
// share (measured 2.3 Gb/s), where the text's reading brings it back (17.0 Gb/s).
TEST_F(Testbed, DconListingNeverRecovers)
{
    DconTestbedConfig cfg;
    cfg.cc = "dcon";
    cfg.sw.qecn = QueueSize("5KB");
    DconTestbedFacts text = RunFacts(cfg);
    EXPECT_GE(G(text.f0After), 15.0);
    cfg.attributeArgs = {"ns3::RdmaDcon::UnmarkedCnpIncrease=0bps"};
    DconTestbedFacts d = RunFacts(cfg);
    EXPECT_LT(G(d.f0After), 0.25 * G(d.f0Before));
}

// With the burst flows 230 us apart (the burst's flows spread over 8 ms), L2 pauses S1 once
// with DCQCN and S1 pauses nobody; f0 loses most of its rate to ECN marks at S1 -> L2. With DCON
// every fact of Fig. 6 holds: L2 never pauses S1, f1 is throttled, f0 keeps half of its rate.
TEST_F(Testbed, SparseBurst)
{
    DconTestbedConfig cfg;
    cfg.burstInterval = MicroSeconds(230);
    DconTestbedFacts q = RunFacts(cfg);
    EXPECT_EQ(q.pausesS1L0 + q.pausesS1L1, 0u);
    EXPECT_LE(q.pausesL2S1, 2u);
    EXPECT_LT(G(q.f0During), 0.5 * G(q.f0Before));
    cfg.cc = "dcon";
    DconTestbedFacts d = RunFacts(cfg);
    EXPECT_TRUE(d.ShowsPaperFacts("dcon"));
    EXPECT_EQ(d.cnmsF0, 0u);
}

// A command-line attribute reaches the queue pairs: the example passes the "--ns3::..."
// arguments (ProgramFrame::GetAttributeArguments) in DconTestbedConfig::attributeArgs, which
// the DCQCN parameter set (applied to the NICs' factories) leaves alone, so G = 0.5 given by
// the user is what f0's QP uses; without it the set's 1/256. The set applies only to DCQCN and
// DCON, and never to ns-3's global defaults.
TEST_F(Testbed, CommandLineAttributeWinsOverPreset)
{
    const std::vector<std::string> args{"ns3::RdmaDcqcn::G=0.5"};

    auto gOfF0 = [](const DconTestbedConfig& cfg)
    {
        DconTestbed tb(cfg);
        Simulator::Stop(MicroSeconds(1)); // f0 starts at t = 0
        Simulator::Run();
        Ptr<RdmaCongestionOps> ops = tb.GetFabric()->GetNic(tb.H(0))->GetSenderCongestionOps(0);
        DoubleValue g;
        ops->GetAttribute("G", g);
        Simulator::Destroy();
        return g.Get();
    };
    // (The user's arguments are ns-3 defaults for the rest of the process: runs without them
    // first.)
    for (bool user : {false, true})
    {
        for (const char* scheme : {"dcqcn", "dcon"})
        {
            DconTestbedConfig cfg;
            cfg.cc = scheme;
            cfg.dcqcnPreset = "cx4"; // the set has G too (1/256)
            if (user)
            {
                cfg.attributeArgs = args;
            }
            EXPECT_DOUBLE_EQ(gOfF0(cfg), user ? 0.5 : 1.0 / 256) << scheme;
        }
    }
    // The preset is for the algorithm in use only: a Swift run leaves DCQCN's defaults alone.
    auto alphaInterval = []()
    {
        TypeId::AttributeInformation info;
        RdmaDcqcn::GetTypeId().LookupAttributeByName("AlphaUpdateInterval", &info);
        return info.initialValue->SerializeToString(info.checker);
    };
    const std::string before = alphaInterval();
    {
        DconTestbedConfig cfg;
        cfg.cc = "swift";
        cfg.dcqcnPreset = "cx4"; // would set AlphaUpdateInterval to 1 us
        DconTestbed tb(cfg);
        Simulator::Destroy();
    }
    EXPECT_EQ(alphaInterval(), before);
    // An unknown attribute is an error naming it. (A malformed value never gets here: ns-3's
    // CommandLine stops at it when the example parses its arguments.)
    DconTestbedConfig bad;
    bad.attributeArgs = {"ns3::RdmaDcqcn::NoSuchAttribute=1"};
    try
    {
        DconTestbed tb(bad);
        FAIL() << "an unknown attribute was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("ns3::RdmaDcqcn::NoSuchAttribute"), std::string::npos)
            << e.what();
    }
}

// An attribute the scenario sets from its own options (the switch thresholds, the CNM window)
// would be overwritten without a word if it came as "--ns3::...": it is rejected with the
// argument and the option to use; an attribute the scenario leaves alone passes the check.
TEST_F(Testbed, ScenarioSetAttributeIsRejected)
{
    const std::pair<std::string, std::string> cases[] = {
        {"ns3::DconQueueDisc::QCnm=1KB", "--qcnm"},
        {"ns3::SwitchMmu::XOff=100KB", "--xoff"},
        {"ns3::RedEcnQueueDisc::Kmax=50KB", "--kmax"},
        {"ns3::DconIngressTracker::Window=10us", "--cnmWindowRtts"},
    };
    for (const auto& [arg, option] : cases)
    {
        DconTestbedConfig cfg;
        cfg.cc = "dcon";
        cfg.attributeArgs = {arg};
        try
        {
            DconTestbed tb(cfg);
            ADD_FAILURE() << arg << " was accepted";
        }
        catch (const std::invalid_argument& e)
        {
            const std::string msg = e.what();
            EXPECT_NE(msg.find("--" + arg), std::string::npos) << msg;
            EXPECT_NE(msg.find("use " + option), std::string::npos) << msg;
        }
        Simulator::Destroy();
    }
    // A queue attribute an algorithm's registration sets per port rate (IB CC's threshold
    // scale) is refused the same way, naming the algorithm.
    try
    {
        RejectScenarioSetAttributes({"ns3::IbFecnQueueDisc::ThresholdStep=5KB"});
        ADD_FAILURE() << "ThresholdStep was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("--cc=ibcc sets ns3::IbFecnQueueDisc::ThresholdStep"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_NO_THROW(RejectScenarioSetAttributes({"ns3::RdmaDcqcn::G=0.5",
                                                 "ns3::DconCnmGenerator::CnmInterval=60us",
                                                 "ns3::IbFecnQueueDisc::MarkingRate=10"}));
}

TEST_F(Testbed, NoBurstNoPause)
{
    DconTestbedConfig cfg;
    cfg.burstFlowsPerHost = 0;
    cfg.stopTime = MilliSeconds(38); // the window of interest ends at 30 + 7 ms
    DconTestbed tb(cfg);
    tb.Run();
    Ptr<FabricMonitor> m = tb.GetMonitor();
    uint64_t l2s1 = m->GetPauseFrames(tb.L(2), tb.S(1));
    double before = G(tb.AverageThroughput(0, cfg.burstStart - MilliSeconds(2), cfg.burstStart));
    double during = G(tb.AverageThroughput(0, cfg.burstStart, cfg.burstStart + MilliSeconds(7)));
    // (burstFlowsPerHost = 0: the "burst window" is just the same 7 ms without a burst)
    std::cout << "no burst: PAUSE L2->S1 " << l2s1 << "; f0 Gb/s before " << before << ", during "
              << during << "\n";
    EXPECT_EQ(l2s1, 0u);
    EXPECT_GT(during, 0.9 * before);
    // Without a burst there is nothing to read during it: not measured, and the facts that
    // compare it are neither held nor failed (issue 29).
    DconTestbedFacts f = tb.GetFacts();
    EXPECT_FALSE(f.f0During.IsMeasured());
    EXPECT_NE(f.f0During.reason.find("no burst (--burstFlowsPerHost=0)"), std::string::npos);
    EXPECT_TRUE(f.f0Before.IsMeasured());
    for (const DconTestbedFact& fact : f.CongestionSpreadingFacts())
    {
        const bool readsDuring = fact.name.find("during") != std::string::npos;
        EXPECT_EQ(fact.judged, !readsDuring) << fact.name;
        EXPECT_FALSE(!fact.judged && fact.holds) << fact.name;
    }
    EXPECT_EQ(f.Verdict("dcqcn"), "FAIL"); // L2 does not pause S1, which is judged
    EXPECT_EQ(f.Verdict("dcon"), "NOT JUDGED");
    Simulator::Destroy();
}
