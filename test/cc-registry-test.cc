/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaCcRegistry: every algorithm registers its short name and switch queue; the scenarios'
// queue choice, the --cc help and the error for an unknown name come from it.
#include "ns3/boolean.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/object-factory.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcon.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/rdma-switch.h"
#include "ns3/scenario-attributes.h"
#include "ns3/simulator.h"
#include "ns3/switch-queue-settings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

using namespace ns3;

namespace ns3
{
/// An algorithm added the way a new one is: one class and its registration (in the test binary
/// only). It needs RED-ECN with marking on dequeue, an attribute no scenario option feeds.
class TestDequeueCc : public RdmaNoCc
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestDequeueCc")
                                .SetParent<RdmaNoCc>()
                                .SetGroupName("Dcon")
                                .AddConstructor<TestDequeueCc>();
        return tid;
    }

    std::string
    GetName() const override
    {
        return "test-dequeue";
    }

    /**
     * \brief The queue attributes it needs.
     * \return MarkOnDequeue = true
     */
    static std::vector<std::pair<std::string, std::string>>
    QueueAttributes(DataRate)
    {
        return {{"MarkOnDequeue", "true"}};
    }
};

/// A subclass that is not registered: it needs what its registered parent needs.
class TestUnregisteredDcon : public RdmaDcon
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestUnregisteredDcon")
                                .SetParent<RdmaDcon>()
                                .SetGroupName("Dcon")
                                .AddConstructor<TestUnregisteredDcon>();
        return tid;
    }
};

NS_OBJECT_ENSURE_REGISTERED(TestDequeueCc);
NS_OBJECT_ENSURE_REGISTERED(TestUnregisteredDcon);

namespace
{
const RdmaCcRegistry::Registration g_testRegistration({"test-dequeue",
                                                       &TestDequeueCc::GetTypeId,
                                                       "a test algorithm",
                                                       "ns3::RedEcnQueueDisc",
                                                       &TestDequeueCc::QueueAttributes});
} // namespace
} // namespace ns3

TEST(CcRegistry, EveryAlgorithmIsRegisteredOnceInNameOrder)
{
    std::vector<std::string> names = RdmaCcRegistry::GetNames();
    for (const char* cc : {"dcon", "dcqcn", "none", "pcn", "swift", "timely"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), cc), names.end()) << cc;
    }
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
    // Each entry's class answers to the same name, and its TypeId maps back to the entry.
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        ObjectFactory f;
        f.SetTypeId(e.typeId());
        EXPECT_EQ(f.Create<RdmaCongestionOps>()->GetName(), e.name);
        EXPECT_EQ(RdmaCongestionOps::LookupTypeId(e.name), e.typeId());
        EXPECT_EQ(RdmaCcRegistry::Lookup(e.typeId().GetName()).name, e.name);
        TypeId q;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(e.queueDisc, &q)) << e.queueDisc;
    }
}

TEST(CcRegistry, QueueDisciplinesAsBefore)
{
    EXPECT_EQ(SwitchQueueSettings::QueueForCc("dcon"), "ns3::DconQueueDisc");
    EXPECT_EQ(SwitchQueueSettings::QueueForCc("ns3::RdmaDcon"), "ns3::DconQueueDisc");
    EXPECT_EQ(SwitchQueueSettings::QueueForCc("pcn"), "ns3::NpEcnQueueDisc");
    for (const char* cc : {"dcqcn", "swift", "timely", "none"})
    {
        EXPECT_EQ(SwitchQueueSettings::QueueForCc(cc), "ns3::RedEcnQueueDisc") << cc;
    }
    SwitchQueueSettings s;
    s.queue = "npecn";
    EXPECT_EQ(s.GetQueueDisc("dcqcn"), "ns3::NpEcnQueueDisc"); // it marks ECN: DCQCN works
    s.queue = "dcon";
    EXPECT_EQ(s.GetQueueDisc("dcqcn"), "ns3::DconQueueDisc"); // legal, if unusual
    // DCON needs CNMs, which NP-ECN does not send: refused, naming the queue to use
    s.queue = "npecn";
    try
    {
        s.GetQueueDisc("dcon");
        ADD_FAILURE() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what();
        EXPECT_NE(what.find("--queue=npecn"), std::string::npos) << what;
        EXPECT_NE(what.find("no cnm"), std::string::npos) << what;
        EXPECT_NE(what.find("ns3::DconQueueDisc"), std::string::npos) << what;
        EXPECT_NE(what.find("--queue=dcon"), std::string::npos) << what;
    }
    s.queue = "fifo";
    try
    {
        s.GetQueueDisc("dcon");
        ADD_FAILURE() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'fifo'"), std::string::npos) << e.what();
    }
}

TEST(CcRegistry, UnknownNameIsNamedWithTheKnownOnes)
{
    for (const std::string& bad : {std::string("dcqnc"), std::string("ns3::RdmaNic")})
    {
        try
        {
            RdmaCongestionOps::LookupTypeId(bad);
            ADD_FAILURE() << "no exception for " << bad;
        }
        catch (const std::invalid_argument& e)
        {
            std::string what = e.what();
            EXPECT_NE(what.find("'" + bad + "'"), std::string::npos) << what;
            EXPECT_NE(what.find(RdmaCcRegistry::GetNameList()), std::string::npos) << what;
        }
    }
    EXPECT_THROW(RdmaCcRegistry::Lookup("bogus"), std::invalid_argument);
}

TEST(CcRegistry, HelpAndListingAreGenerated)
{
    std::string help = RdmaCcRegistry::GetCommandLineHelp();
    EXPECT_NE(help.find(RdmaCcRegistry::GetNameList()), std::string::npos) << help;
    std::string listing = RdmaCcRegistry::GetListing();
    EXPECT_NE(listing.find("dcon\tns3::DconQueueDisc\tDCON ("), std::string::npos) << listing;
    EXPECT_EQ(std::count(listing.begin(), listing.end(), '\n'),
              static_cast<long>(RdmaCcRegistry::GetNames().size()));
}

// The new algorithm reaches the registry, the scenarios' queue settings and a built fabric
// without any other edit: its queue attribute, fed by no option, is set on every queue.
TEST(CcRegistry, ANewAlgorithmBringsItsQueueAttributes)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("test-dequeue"), TestDequeueCc::GetTypeId());
    EXPECT_NE(RdmaCcRegistry::GetCommandLineHelp().find("test-dequeue"), std::string::npos);
    SwitchQueueSettings s = SwitchQueueSettings().ForCc("test-dequeue", DataRate("40Gbps"));
    EXPECT_EQ(s.kmin.GetValue(), 5000u); // the scenario's own RED settings stay
    using Attrs = std::vector<std::pair<std::string, std::string>>;
    EXPECT_EQ(s.extraQueueAttributes, (Attrs{{"MarkOnDequeue", "true"}}));
    EXPECT_EQ(s.ForCc("test-dequeue", DataRate("40Gbps")).extraQueueAttributes,
              s.extraQueueAttributes); // twice is once

    LeafSpineHelper ls(1, 1, 2);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("test-dequeue");
    SwitchQueueSettings().Apply(fh, "test-dequeue", MicroSeconds(1), DataRate("40Gbps"));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    BooleanValue deq;
    f->GetSwitch(ls.GetLeaf(0))->GetQueueDisc(0, 3)->GetAttribute("MarkOnDequeue", deq);
    EXPECT_TRUE(deq.Get());
    // an algorithm that does not ask for it keeps RED's default
    Simulator::Destroy();
    RdmaFabricHelper fh2;
    SwitchQueueSettings().Apply(fh2, "dcqcn", MicroSeconds(1), DataRate("40Gbps"));
    f = fh2.Build(ls.GetTopology());
    f->GetSwitch(ls.GetLeaf(0))->GetQueueDisc(0, 3)->GetAttribute("MarkOnDequeue", deq);
    EXPECT_FALSE(deq.Get());
    Simulator::Destroy();
}

// An unregistered subclass of a registered algorithm needs what its parent needs.
TEST(CcRegistry, UnregisteredSubclassTakesItsParentsEntry)
{
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("ns3::TestUnregisteredDcon"),
              TestUnregisteredDcon::GetTypeId());
    EXPECT_EQ(RdmaCcRegistry::Lookup("ns3::TestUnregisteredDcon").name, "dcon");
    EXPECT_EQ(SwitchQueueSettings::QueueForCc("ns3::TestUnregisteredDcon"), "ns3::DconQueueDisc");
}

// The library's algorithms are all registered (and this test binary's "test-dequeue"): a static
// registration that vanished (e.g. its object file no longer linked) fails here. One more
// algorithm (a new one, or one a program links in, as the own-algorithm example does) is
// fine. Each name's TypeId and its queue discipline's TypeId exist.
TEST(CcRegistry, TheLibrarysAlgorithmsAreRegistered)
{
    const std::vector<std::string> names = RdmaCcRegistry::GetNames();
    for (const char* cc : {"dcon",
                           "dcqcn",
                           "dctcp",
                           "hpcc",
                           "ibcc",
                           "none",
                           "pcn",
                           "rttpid",
                           "swift",
                           "test-dequeue",
                           "timely"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), cc), names.end()) << cc;
    }
    for (const std::string& name : names)
    {
        RdmaCcEntry e = RdmaCcRegistry::Lookup(name);
        TypeId tid;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(e.typeId().GetName(), &tid)) << name;
        EXPECT_TRUE(tid.IsChildOf(RdmaCongestionOps::GetTypeId())) << name;
        TypeId queue;
        EXPECT_TRUE(TypeId::LookupByNameFailSafe(e.queueDisc, &queue))
            << name << ": " << e.queueDisc;
        EXPECT_TRUE(queue.HasConstructor()) << name << ": " << e.queueDisc;
    }
}

// What each algorithm declares holds for itself: its own queue gives the feedback it needs, that
// queue is registered (so --queue takes it), and the attributes it names for the fabric's base
// RTT and a rate floor exist with the right kind of value.
TEST(CcRegistry, DeclarationsHoldForEveryAlgorithm)
{
    for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
    {
        EXPECT_EQ(e.GetQueueProblem(TypeId::LookupByName(e.queueDisc)), "") << e.name;
        const std::vector<std::string> queues = RdmaQueueRegistry::GetNames();
        EXPECT_NE(
            std::find(queues.begin(), queues.end(), RdmaQueueRegistry::Lookup(e.queueDisc).name),
            queues.end())
            << e.name << ": its queue " << e.queueDisc << " is not registered";
        TypeId::AttributeInformation info;
        if (!e.baseRttAttribute.empty())
        {
            ASSERT_TRUE(e.typeId().LookupAttributeByName(e.baseRttAttribute, &info)) << e.name;
            EXPECT_TRUE(info.checker->Check(TimeValue(MicroSeconds(10)))) << e.name;
        }
        if (!e.rateFloorAttribute.empty())
        {
            ASSERT_TRUE(e.typeId().LookupAttributeByName(e.rateFloorAttribute, &info)) << e.name;
            EXPECT_TRUE(info.checker->Check(DataRateValue(DataRate("1Gbps")))) << e.name;
        }
    }
    EXPECT_EQ(RdmaCcRegistry::Lookup("hpcc").baseRttAttribute, "BaseRtt");
    EXPECT_EQ(RdmaCcRegistry::Lookup("dcqcn").rateFloorAttribute, "MinRate");
    EXPECT_EQ(RdmaCcRegistry::Lookup("swift").rateFloorAttribute, ""); // a window floor only
    // Feedback is inherited: a subclass of RED-ECN marks as RED-ECN does.
    EXPECT_EQ(RdmaQueueRegistry::GetFeedback(TypeId::LookupByName("ns3::RedEcnQueueDisc")),
              std::vector<std::string>{"ecn"});
    EXPECT_EQ(RdmaQueueRegistry::GetFeedback(TypeId::LookupByName("ns3::RdmaEgressQueueDisc")),
              std::vector<std::string>{});
}

namespace
{
/// The queue disc type of a leaf's first port (priority 3) and the type of its switch agent.
std::pair<std::string, std::string>
SwitchSide(Ptr<RdmaFabric> f, uint32_t sw)
{
    Ptr<RdmaSwitchAgent> agent = f->GetSwitchAgent(sw);
    return {f->GetSwitch(sw)->GetQueueDisc(0, 3)->GetInstanceTypeId().GetName(),
            agent ? agent->GetInstanceTypeId().GetName() : ""};
}
} // namespace

// SetCongestionControl alone brings the algorithm's switch side: its queue discipline with the
// attributes it declares for the port's rate, and its switch agent.
TEST(CcRegistry, SetCongestionControlAloneInstallsTheSwitchSide)
{
    LeafSpineHelper ls(1, 1, 2);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    using Side = std::pair<std::string, std::string>;
    {
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcon");
        EXPECT_EQ(fh.GetQueueDisc(DataRate("40Gbps")), "ns3::DconQueueDisc");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)),
                  Side("ns3::DconQueueDisc", "ns3::DconCnmGenerator"));
        Simulator::Destroy();
    }
    {
        RdmaFabricHelper fh;
        fh.SetCongestionControl("hpcc");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)), Side("ns3::RdmaEgressQueueDisc", ""));
        Simulator::Destroy();
    }
    {
        // DCTCP's step marking at K = 3 KB per Gb/s of the port: 120 KB at 40 Gb/s.
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dctcp");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)), Side("ns3::RedEcnQueueDisc", ""));
        QueueSizeValue kmin;
        f->GetSwitch(ls.GetLeaf(0))->GetQueueDisc(0, 3)->GetAttribute("Kmin", kmin);
        EXPECT_EQ(kmin.Get().GetValue(), 120000u);
        Simulator::Destroy();
    }
    {
        // No SetCongestionControl: the NICs' default (DCQCN) decides, RED-ECN as before.
        RdmaFabricHelper fh;
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)), Side("ns3::RedEcnQueueDisc", ""));
        Simulator::Destroy();
    }
    {
        // A program's attribute for the algorithm's own queue, without choosing the queue.
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcon");
        fh.SetQueueDiscAttribute("QEcn", QueueSizeValue(QueueSize("12KB")));
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        QueueSizeValue qecn;
        f->GetSwitch(ls.GetLeaf(0))->GetQueueDisc(0, 3)->GetAttribute("QEcn", qecn);
        EXPECT_EQ(qecn.Get().GetValue(), 12000u);
        Simulator::Destroy();
    }
    {
        // ... which is refused, with its name, when that queue has no such attribute (not an
        // abort of ns-3's ObjectFactory).
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcqcn");
        fh.SetQueueDiscAttribute("QEcn", QueueSizeValue(QueueSize("12KB")));
        try
        {
            fh.Build(ls.GetTopology());
            ADD_FAILURE() << "no exception";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find("no attribute 'QEcn'"), std::string::npos)
                << e.what();
        }
        Simulator::Destroy();
    }
}

// A queue chosen explicitly: refused if it lacks feedback the algorithm needs, naming the right
// queue; used as chosen if it gives it, however unusual (DCQCN over DCON's queue).
TEST(CcRegistry, AChosenQueueMustGiveTheAlgorithmsFeedback)
{
    LeafSpineHelper ls(1, 1, 2);
    {
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcon");
        fh.SetQueueDisc("ns3::RedEcnQueueDisc");
        try
        {
            fh.Build(ls.GetTopology());
            ADD_FAILURE() << "DCON over RED-ECN was accepted";
        }
        catch (const std::invalid_argument& e)
        {
            const std::string what = e.what();
            EXPECT_NE(what.find("'dcon'"), std::string::npos) << what;
            EXPECT_NE(what.find("ns3::RedEcnQueueDisc"), std::string::npos) << what;
            EXPECT_NE(what.find("use ns3::DconQueueDisc"), std::string::npos) << what;
        }
        Simulator::Destroy();
    }
    {
        // DCQCN on a queue that marks nothing: refused too (per-rate choice, checked the same).
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcqcn");
        fh.SetQueueDiscForRate(DataRate("40Gbps"), "ns3::RdmaEgressQueueDisc");
        EXPECT_THROW(fh.Build(ls.GetTopology()), std::invalid_argument);
        Simulator::Destroy();
    }
    using Side = std::pair<std::string, std::string>;
    {
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcqcn");
        fh.SetQueueDisc("ns3::DconQueueDisc");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)),
                  Side("ns3::DconQueueDisc", "ns3::DconCnmGenerator"));
        Simulator::Destroy();
    }
    {
        // HPCC needs nothing of the queue (INT is the switch's): RED-ECN, chosen, is used.
        RdmaFabricHelper fh;
        fh.SetCongestionControl("hpcc");
        fh.SetQueueDisc("ns3::RedEcnQueueDisc");
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        EXPECT_EQ(SwitchSide(f, ls.GetLeaf(0)), Side("ns3::RedEcnQueueDisc", ""));
        Simulator::Destroy();
    }
}
