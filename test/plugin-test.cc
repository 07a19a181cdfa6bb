/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A congestion-control algorithm added by editing only its own file (this one): a sender (a
// DCQCN variant with one attribute of its own), a switch egress queue discipline with a named
// counter, a switch agent, and a parameter set, all declared in its registry entries. Nothing
// outside this file names them; the fabric helper, the queue settings and the monitor find
// them through RdmaCcRegistry, RdmaQueueRegistry, RdmaSwitchAgent and
// RdmaEgressQueueDisc::GetCounters.
#include "ns3/attribute-text.h"
#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/rdma-switch.h"
#include "ns3/red-ecn-queue-disc.h"
#include "ns3/scenario-attributes.h"
#include "ns3/simulator.h"
#include "ns3/switch-queue-settings.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace ns3
{

/// The sender: DCQCN with an attribute its parameter set sets.
class PluginTestCc : public RdmaDcqcn
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PluginTestCc")
                                .SetParent<RdmaDcqcn>()
                                .SetGroupName("DconPluginTest")
                                .AddConstructor<PluginTestCc>()
                                .AddAttribute("Probe",
                                              "A value only the parameter set sets",
                                              UintegerValue(0),
                                              MakeUintegerAccessor(&PluginTestCc::m_probe),
                                              MakeUintegerChecker<uint32_t>());
        return tid;
    }

    uint32_t m_probe{0}; //!< the attribute
};

/// The queue: RED-ECN that counts its arrivals under a name.
class PluginTestQueueDisc : public RedEcnQueueDisc
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PluginTestQueueDisc")
                                .SetParent<RedEcnQueueDisc>()
                                .SetGroupName("DconPluginTest")
                                .AddConstructor<PluginTestQueueDisc>();
        return tid;
    }

    std::vector<Counter>
    GetCounters() override
    {
        return {{"plugin_arrivals", m_arrivals}};
    }

protected:
    void
    OnEnqueue(Ptr<RdmaQueueDiscItem> item, uint32_t queueBytes) override
    {
        ++m_arrivals;
        RedEcnQueueDisc::OnEnqueue(item, queueBytes);
    }

private:
    uint64_t m_arrivals{0}; //!< arrivals
};

/// The switch agent: remembers its switch and the window the program gives.
class PluginTestAgent : public RdmaSwitchAgent
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PluginTestAgent")
                                .SetParent<RdmaSwitchAgent>()
                                .SetGroupName("DconPluginTest")
                                .AddConstructor<PluginTestAgent>()
                                .AddAttribute("Tag",
                                              "A value the program sets on every agent",
                                              UintegerValue(0),
                                              MakeUintegerAccessor(&PluginTestAgent::m_tag),
                                              MakeUintegerChecker<uint32_t>());
        return tid;
    }

    void
    Install(Ptr<RdmaSwitch> sw) override
    {
        m_switch = sw;
        m_installs++;
    }

    void
    SetWindow(Time window) override
    {
        m_window = window;
    }

    Ptr<RdmaSwitch> m_switch; //!< where it is installed
    uint32_t m_installs{0};   //!< Install calls
    uint32_t m_tag{0};        //!< the attribute
    Time m_window;            //!< SetWindow's value

protected:
    void
    DoDispose() override
    {
        m_switch = nullptr;
        RdmaSwitchAgent::DoDispose();
    }
};

NS_OBJECT_ENSURE_REGISTERED(PluginTestCc);
NS_OBJECT_ENSURE_REGISTERED(PluginTestQueueDisc);
NS_OBJECT_ENSURE_REGISTERED(PluginTestAgent);

} // namespace ns3

namespace
{

/// The registry entries, added once (at run time here, so that the other tests of this
/// binary see only the library's algorithms; an algorithm's .cc file uses static
/// Registration objects instead).
void
RegisterPlugin()
{
    static const RdmaQueueRegistry::Registration queue({"plugintest",
                                                        "ns3::PluginTestQueueDisc",
                                                        {{"Kmin", "--kmin"}, {"Kmax", "--kmax"}},
                                                        "Kmin",
                                                        "Kmax"});
    static const RdmaCcRegistry::Registration cc(
        {"plugintest",
         &PluginTestCc::GetTypeId,
         "a test algorithm: DCQCN with a counting queue and a switch agent",
         "ns3::PluginTestQueueDisc",
         nullptr,
         "ns3::PluginTestAgent",
         {{"fast",
           "Probe = line rate in Gb/s",
           [](DataRate rate)
           {
               return std::vector<RdmaCcParameterSet::Value>{
                   {"Probe", std::to_string(rate.GetBitRate() / 1000000000)},
                   {"AdditiveIncrease", "80Mb/s"}};
           }}}});
}

} // namespace

// Everything a new algorithm declares takes effect: the queue its entry names is installed by
// the scenarios' queue settings, its agent on every switch with that queue (with the program's
// attribute and window), its parameter set on every NIC (Probe = 40 at 40 Gb/s), and its
// queue counter is summed by the monitor (one arrival per data and control packet that
// crossed a switch queue: 8 flows of 100 packets through the leaf at least).
TEST(Plugin, AlgorithmAddedInItsOwnFileTakesEffect)
{
    RegisterPlugin();
    LeafSpineHelper ls(2, 2, 4);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("plugintest", "fast");
    fh.SetSwitchAgentAttribute("Tag", UintegerValue(5));
    SwitchQueueSettings sw;
    EXPECT_EQ(sw.GetQueueDisc("plugintest"), "ns3::PluginTestQueueDisc");
    sw.Apply(fh, "plugintest", MicroSeconds(1), DataRate("40Gbps"));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    f->SetSwitchAgentWindowInRtts(3);

    for (uint32_t s : f->GetSwitches())
    {
        Ptr<PluginTestAgent> a = DynamicCast<PluginTestAgent>(f->GetSwitchAgent(s));
        ASSERT_NE(a, nullptr) << "switch " << s;
        EXPECT_EQ(a->m_switch, f->GetSwitch(s));
        EXPECT_EQ(a->m_installs, 1u);
        EXPECT_EQ(a->m_tag, 5u);
        EXPECT_EQ(a->m_window, 3 * f->GetMaxBaseRtt());
        EXPECT_NE(DynamicCast<PluginTestQueueDisc>(f->GetSwitch(s)->GetQueueDisc(0, 3)), nullptr);
    }

    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    const uint64_t bytes = 100000;
    for (uint32_t i = 0; i < 4; ++i)
    {
        flows->AddFlow(ls.GetHost(0, i), ls.GetHost(1, i), bytes, Time(0));
        flows->AddFlow(ls.GetHost(1, i), ls.GetHost(0, i), bytes, Time(0));
    }
    flows->SetStopWhenDone(true);
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    Simulator::Schedule(MicroSeconds(1),
                        [&f, &ls]()
                        {
                            Ptr<RdmaCongestionOps> ops
                                = f->GetNic(ls.GetHost(0, 0))->GetSenderCongestionOps(0);
                            ASSERT_NE(ops, nullptr);
                            UintegerValue probe;
                            ops->GetAttribute("Probe", probe);
                            EXPECT_EQ(probe.Get(), 40u);
                            DataRateValue ai;
                            ops->GetAttribute("AdditiveIncrease", ai);
                            EXPECT_EQ(ai.Get(), DataRate("80Mb/s"));
                        });
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    EXPECT_EQ(f->GetNicTotals().flowsCompleted, 8u);
    const auto counters = FabricMonitor::SumQueueCounters(f);
    ASSERT_EQ(counters.count("plugin_arrivals"), 1u);
    const uint64_t packets = 8 * ((bytes + 999) / 1000);
    EXPECT_GE(counters.at("plugin_arrivals"), packets);
    Simulator::Destroy();
}

// The user's attribute beats the parameter set; an unknown set is refused naming it.
TEST(Plugin, UserAttributeBeatsParameterSet)
{
    RegisterPlugin();
    RdmaFabricHelper bad;
    try
    {
        bad.SetCongestionControl("plugintest", "slow");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'slow'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("fast"), std::string::npos) << e.what();
    }
    ApplyAttributeArguments({"ns3::PluginTestCc::Probe=9"});
    EXPECT_TRUE(IsUserAttribute(PluginTestCc::GetTypeId(), "Probe"));
    LeafSpineHelper ls(1, 1, 2);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl("plugintest", "fast");
    fh.SetQueueDisc("ns3::PluginTestQueueDisc");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(0, 1), 10000, Time(0));
    Simulator::Stop(MicroSeconds(1));
    Simulator::Run();
    Ptr<RdmaCongestionOps> ops = f->GetNic(ls.GetHost(0, 0))->GetSenderCongestionOps(0);
    ASSERT_NE(ops, nullptr);
    UintegerValue probe;
    ops->GetAttribute("Probe", probe);
    EXPECT_EQ(probe.Get(), 9u); // the user's, not the set's 40
    DataRateValue ai;
    ops->GetAttribute("AdditiveIncrease", ai);
    EXPECT_EQ(ai.Get(), DataRate("80Mb/s")); // the set's: the user did not give it
    Simulator::Destroy();
    SetUserAttributePaths({});
}
