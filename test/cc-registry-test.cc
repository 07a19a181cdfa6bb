/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaCcRegistry: every algorithm registers its short name and switch queue; the scenarios'
// queue choice, the --cc help and the error for an unknown name come from it.
#include "ns3/boolean.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-dcon.h"
#include "ns3/rdma-fabric-helper.h"
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
    EXPECT_EQ(s.GetQueueDisc("dcon"), "ns3::NpEcnQueueDisc");
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

// The library registers exactly these algorithms (and this test binary "test-dequeue"): a
// static registration that vanished (e.g. its object file no longer linked) fails here. Each
// name's TypeId and its queue discipline's TypeId exist.
TEST(CcRegistry, RegisteredNamesAreExactlyTheLibrarysAlgorithms)
{
    const std::vector<std::string> expected = {"dcon",
                                               "dcqcn",
                                               "dctcp",
                                               "hpcc",
                                               "ibcc",
                                               "none",
                                               "pcn",
                                               "rttpid",
                                               "swift",
                                               "test-dequeue",
                                               "timely"};
    EXPECT_EQ(RdmaCcRegistry::GetNames(), expected);
    for (const std::string& name : expected)
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
