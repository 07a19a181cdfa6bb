/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every trace source of every dcon TypeId names, as its callback signature, a typedef that
// exists and that matches its TracedCallback: the test connects to each source a function
// declared with that typedef. Which TypeIds are dcon's comes from ns-3's TypeId registry (group
// "Dcon"), so a trace source added without an entry here fails the test.

#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-dcon.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-fifo-queue.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-ibcc.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-pcn.h"
#include "ns3/rdma-rtt-pid.h"
#include "ns3/rdma-switch.h"
#include "ns3/switch-mmu.h"
#include "ns3/traced-value.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A trace sink of any signature: does nothing.
template <typename... Args>
void
Sink(Args...)
{
}

/// The sink whose type is exactly the function pointer type \p F (a callback typedef).
template <typename F>
struct SinkOf;

/// The sink of a typedef void (*F)(Args...).
template <typename... Args>
struct SinkOf<void (*)(Args...)>
{
    /**
     * \brief The sink.
     * \return a function of the typedef's type
     */
    static void (*Get())(Args...)
    {
        return &Sink<Args...>;
    }
};

/// Makes a callback of one typedef's signature.
using CallbackMaker = std::function<CallbackBase()>;

/// One typedef: its name as AddTraceSource gives it, and a callback of exactly its type (a
/// function declared with the typedef itself; it does not compile if the typedef is missing).
#define DCON_TRACE_TYPEDEF(T)        \
    {                                \
#T, []() -> CallbackBase {   \
            T fn = SinkOf<T>::Get(); \
            return MakeCallback(fn); \
        }                            \
    }

/// Every callback typedef a dcon trace source may name, by the name it is given as.
const std::map<std::string, CallbackMaker>&
Typedefs()
{
    static const std::map<std::string, CallbackMaker> typedefs = {
        // ns-3's own
        DCON_TRACE_TYPEDEF(ns3::Packet::TracedCallback),
        DCON_TRACE_TYPEDEF(ns3::Time::TracedCallback),
        DCON_TRACE_TYPEDEF(ns3::TracedValueCallback::DataRate),
        DCON_TRACE_TYPEDEF(ns3::TracedValueCallback::Double),
        DCON_TRACE_TYPEDEF(ns3::TracedValueCallback::Uint32),
        DCON_TRACE_TYPEDEF(ns3::TracedValueCallback::Uint64),
        // dcon's
        DCON_TRACE_TYPEDEF(ns3::DconCnmGenerator::CnmSentTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::DconQueueDisc::BurstOnsetTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::DconQueueDisc::CongestedFlowTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::DconQueueDisc::StateTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::PfcNetDevice::PauseStateTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::PfcNetDevice::PfcTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaDcon::CnmAppliedTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaFifoQueue::ItemTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaNic::CnmReceivedTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaNic::FlowCompleteTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaNic::FlowStartTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaNic::FlowSentTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaNic::MessageReceivedTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaRttPid::SampleTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaSwitch::DropTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::RdmaSwitch::PacketQueuedTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::SwitchMmu::DropTracedCallback),
        DCON_TRACE_TYPEDEF(ns3::SwitchMmu::PfcTracedCallback),
    };
    return typedefs;
}

/// One trace source the test covers: TypeId name, source name, its callback typedef.
struct Source
{
    std::string typeId;   //!< e.g. "ns3::RdmaSwitch"
    std::string name;     //!< e.g. "Drop"
    std::string callback; //!< e.g. "ns3::RdmaSwitch::DropTracedCallback"
};

/// Every trace source of dcon's TypeIds (a new one must be added here).
const std::vector<Source>&
Sources()
{
    static const std::vector<Source> sources = {
        {"ns3::DconCnmGenerator", "CnmSent", "ns3::DconCnmGenerator::CnmSentTracedCallback"},
        {"ns3::DconQueueDisc", "State", "ns3::DconQueueDisc::StateTracedCallback"},
        {"ns3::DconQueueDisc", "QcnmInUse", "ns3::TracedValueCallback::Uint32"},
        {"ns3::DconQueueDisc", "BurstOnset", "ns3::DconQueueDisc::BurstOnsetTracedCallback"},
        {"ns3::DconQueueDisc", "CongestedFlow", "ns3::DconQueueDisc::CongestedFlowTracedCallback"},
        {"ns3::PfcNetDevice", "Sniffer", "ns3::Packet::TracedCallback"},
        {"ns3::PfcNetDevice", "PromiscSniffer", "ns3::Packet::TracedCallback"},
        {"ns3::PfcNetDevice", "MacTx", "ns3::Packet::TracedCallback"},
        {"ns3::PfcNetDevice", "MacRx", "ns3::Packet::TracedCallback"},
        {"ns3::PfcNetDevice", "PfcTx", "ns3::PfcNetDevice::PfcTracedCallback"},
        {"ns3::PfcNetDevice", "PfcRx", "ns3::PfcNetDevice::PfcTracedCallback"},
        {"ns3::PfcNetDevice", "PauseState", "ns3::PfcNetDevice::PauseStateTracedCallback"},
        {"ns3::RdmaDcon", "CnmApplied", "ns3::RdmaDcon::CnmAppliedTracedCallback"},
        {"ns3::RdmaDcqcn", "Alpha", "ns3::TracedValueCallback::Double"},
        {"ns3::RdmaDctcp", "Alpha", "ns3::TracedValueCallback::Double"},
        {"ns3::RdmaFifoQueue", "Enqueue", "ns3::RdmaFifoQueue::ItemTracedCallback"},
        {"ns3::RdmaFifoQueue", "Dequeue", "ns3::RdmaFifoQueue::ItemTracedCallback"},
        {"ns3::RdmaFifoQueue", "Drop", "ns3::RdmaFifoQueue::ItemTracedCallback"},
        {"ns3::RdmaFifoQueue", "DropBeforeEnqueue", "ns3::RdmaFifoQueue::ItemTracedCallback"},
        {"ns3::RdmaFifoQueue", "DropAfterDequeue", "ns3::RdmaFifoQueue::ItemTracedCallback"},
        {"ns3::RdmaFlowState", "Rate", "ns3::TracedValueCallback::DataRate"},
        {"ns3::RdmaFlowState", "TargetRate", "ns3::TracedValueCallback::DataRate"},
        {"ns3::RdmaFlowState", "CongestionWindow", "ns3::TracedValueCallback::Uint64"},
        {"ns3::RdmaFlowState", "RttSample", "ns3::Time::TracedCallback"},
        {"ns3::RdmaHpcc", "U", "ns3::TracedValueCallback::Double"},
        {"ns3::RdmaIbcc", "Ccti", "ns3::TracedValueCallback::Uint32"},
        {"ns3::RdmaNic", "FlowComplete", "ns3::RdmaNic::FlowCompleteTracedCallback"},
        {"ns3::RdmaNic", "FlowStart", "ns3::RdmaNic::FlowStartTracedCallback"},
        {"ns3::RdmaNic", "FlowSent", "ns3::RdmaNic::FlowSentTracedCallback"},
        {"ns3::RdmaNic", "MessageReceived", "ns3::RdmaNic::MessageReceivedTracedCallback"},
        {"ns3::RdmaNic", "CnmReceived", "ns3::RdmaNic::CnmReceivedTracedCallback"},
        {"ns3::RdmaPcn", "W", "ns3::TracedValueCallback::Double"},
        {"ns3::RdmaRttPid", "Sample", "ns3::RdmaRttPid::SampleTracedCallback"},
        {"ns3::RdmaSwitch", "PacketQueued", "ns3::RdmaSwitch::PacketQueuedTracedCallback"},
        {"ns3::RdmaSwitch", "Drop", "ns3::RdmaSwitch::DropTracedCallback"},
        {"ns3::SwitchMmu", "Pause", "ns3::SwitchMmu::PfcTracedCallback"},
        {"ns3::SwitchMmu", "Resume", "ns3::SwitchMmu::PfcTracedCallback"},
        {"ns3::SwitchMmu", "Drop", "ns3::SwitchMmu::DropTracedCallback"},
    };
    return sources;
}

/// dcon's group name, set on every dcon TypeId.
const std::string DCON_GROUP = "Dcon";

/**
 * \brief dcon's TypeIds, from ns-3's registry: those of group "Dcon".
 * \return the TypeIds, in registration order
 */
std::vector<TypeId>
DconTypeIds()
{
    std::vector<TypeId> tids;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() == DCON_GROUP)
        {
            tids.push_back(tid);
        }
    }
    return tids;
}

} // namespace

// The registry knows dcon's TypeIds by their group: every TypeId named like dcon's classes has
// it, and the classes with trace sources are among them.
TEST(TraceSources, DconTypeIdsAreFoundByTheirGroup)
{
    std::set<std::string> names;
    for (const TypeId& tid : DconTypeIds())
    {
        names.insert(tid.GetName());
    }
    EXPECT_GE(names.size(), 30u);
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        const std::string& name = tid.GetName();
        for (const char* prefix : {"ns3::Rdma", "ns3::Dcon", "ns3::Pfc", "ns3::SwitchMmu"})
        {
            if (name.rfind(prefix, 0) == 0)
            {
                EXPECT_EQ(tid.GetGroupName(), DCON_GROUP)
                    << name << " has no SetGroupName(\"" << DCON_GROUP << "\")";
            }
        }
    }
    for (const Source& s : Sources())
    {
        EXPECT_EQ(names.count(s.typeId), 1u) << s.typeId << " is not a registered dcon TypeId";
    }
}

// Every trace source of a dcon TypeId is in Sources(), with the callback typedef it registers,
// and that typedef is one of Typedefs(); every entry of Sources() still exists.
TEST(TraceSources, EveryTraceSourceIsCoveredAndNamesAKnownTypedef)
{
    std::map<std::pair<std::string, std::string>, std::string> covered;
    for (const Source& s : Sources())
    {
        EXPECT_TRUE(covered.emplace(std::make_pair(s.typeId, s.name), s.callback).second)
            << s.typeId << "::" << s.name << " listed twice";
        EXPECT_EQ(Typedefs().count(s.callback), 1u)
            << s.typeId << "::" << s.name << ": " << s.callback << " is not in Typedefs()";
    }
    std::set<std::pair<std::string, std::string>> registered;
    for (const TypeId& tid : DconTypeIds())
    {
        for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
            std::string where = tid.GetName() + "::" + info.name;
            registered.emplace(tid.GetName(), info.name);
            auto it = covered.find({tid.GetName(), info.name});
            if (it == covered.end())
            {
                ADD_FAILURE() << "trace source " << where << " (callback \"" << info.callback
                              << "\") is not covered by test/trace-sources-test.cc: add it to "
                                 "Sources() (and its typedef to Typedefs())";
                continue;
            }
            EXPECT_FALSE(info.callback.empty()) << where << " names no callback typedef";
            EXPECT_EQ(info.callback.rfind("ns3::", 0), 0u)
                << where << ": \"" << info.callback << "\" is not ns3::<Class>::<Name>";
            EXPECT_EQ(Typedefs().count(info.callback), 1u)
                << where << ": \"" << info.callback << "\" is not a typedef known to the test";
            EXPECT_EQ(info.callback, it->second) << where;
        }
    }
    for (const Source& s : Sources())
    {
        EXPECT_EQ(registered.count({s.typeId, s.name}), 1u)
            << s.typeId << "::" << s.name << " is listed but not registered";
    }
}

// Each trace source of a real object accepts a function of exactly its documented type. A
// mismatch makes ns-3 abort (NS_FATAL_ERROR in TracedCallback::ConnectWithoutContext), so each
// connection is first tried in a child process, then made here.
TEST(TraceSources, EachConnectsThroughItsDocumentedSignature)
{
    for (const Source& s : Sources())
    {
        TypeId tid;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(s.typeId, &tid)) << s.typeId;
        ASSERT_TRUE(tid.HasConstructor()) << s.typeId;
        TypeId::TraceSourceInformation info;
        ASSERT_TRUE(tid.LookupTraceSourceByName(s.name, &info) != nullptr)
            << s.typeId << "::" << s.name;
        auto maker = Typedefs().find(info.callback);
        ASSERT_NE(maker, Typedefs().end()) << s.typeId << "::" << s.name << ": " << info.callback;
        ObjectFactory factory;
        factory.SetTypeId(tid);
        Ptr<Object> object = factory.Create();
        ASSERT_TRUE(object) << s.typeId;
        CallbackBase cb = maker->second();
        std::string where = s.typeId + "::" + s.name + " through " + info.callback;
        EXPECT_EXIT(std::_Exit(object->TraceConnectWithoutContext(s.name, cb) ? 0 : 1),
                    ::testing::ExitedWithCode(0),
                    "")
            << where;
        if (!::testing::Test::HasFailure())
        {
            EXPECT_TRUE(object->TraceConnectWithoutContext(s.name, cb)) << where;
        }
        object->Dispose();
    }
}
