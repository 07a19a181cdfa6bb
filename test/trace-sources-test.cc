/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every trace source of every dcon TypeId names, as its callback signature, a typedef that is
// registered (TraceCallbackRegistry, DCON_REGISTER_TRACE_CALLBACK next to the trace source) and
// that matches its TracedCallback: the test connects to each source a function declared with
// that typedef. Which TypeIds are dcon's, and their trace sources, come from ns-3's TypeId
// registry (group "Dcon"), and the typedefs from TraceCallbackRegistry: no list here, so a new
// trace source (of a new algorithm too) is checked without an edit of this file.

#include "ns3/object-factory.h"
#include "ns3/trace-callback-registry.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

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

/// One trace source: the TypeId that declares it, its name, its callback typedef.
struct Source
{
    TypeId owner;         //!< the TypeId that declares it
    std::string name;     //!< e.g. "Drop"
    std::string callback; //!< e.g. "ns3::RdmaSwitch::DropTracedCallback"
};

/**
 * \brief Every trace source dcon's TypeIds declare (not the ones they inherit from ns-3).
 * \return the sources, by TypeId then declaration order
 */
std::vector<Source>
DconTraceSources()
{
    std::vector<Source> out;
    for (const TypeId& tid : DconTypeIds())
    {
        for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
            out.push_back({tid, info.name, info.callback});
        }
    }
    return out;
}

/**
 * \brief A type that can be created and has \p owner's trace sources: \p owner itself if it
 * has a constructor, else its first registered dcon subclass that has one.
 * \param owner the TypeId that declares the sources
 * \param found set to whether one exists
 * \return the type
 */
TypeId
Instantiable(TypeId owner, bool* found)
{
    *found = true;
    if (owner.HasConstructor())
    {
        return owner;
    }
    for (const TypeId& tid : DconTypeIds())
    {
        if (tid.HasConstructor() && tid.IsChildOf(owner))
        {
            return tid;
        }
    }
    *found = false;
    return owner;
}

} // namespace

// The registry knows dcon's TypeIds by their group: every TypeId named like dcon's classes has
// it, and there are trace sources among them.
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
    // The library's trace sources of every kind are found (devices, switches, NICs, queues,
    // algorithms): at least the 36 the module had when this test stopped listing them.
    EXPECT_GE(DconTraceSources().size(), 36u);
}

// Every trace source of a dcon TypeId names a callback typedef "ns3::<Class>::<Name>" that
// TraceCallbackRegistry knows, and has a help text.
TEST(TraceSources, EveryTraceSourceNamesARegisteredTypedef)
{
    for (const Source& s : DconTraceSources())
    {
        const std::string where = s.owner.GetName() + "::" + s.name;
        TypeId::TraceSourceInformation info;
        ASSERT_TRUE(s.owner.LookupTraceSourceByName(s.name, &info) != nullptr) << where;
        EXPECT_FALSE(info.help.empty()) << where << " has no help text";
        EXPECT_FALSE(s.callback.empty()) << where << " names no callback typedef";
        EXPECT_EQ(s.callback.rfind("ns3::", 0), 0u)
            << where << ": \"" << s.callback << "\" is not ns3::<Class>::<Name>";
        EXPECT_TRUE(TraceCallbackRegistry::Has(s.callback))
            << where << ": its callback typedef \"" << s.callback
            << "\" is not registered: add DCON_REGISTER_TRACE_CALLBACK(" << s.callback
            << ") to the .cc file that declares the trace source (ns3/trace-callback-registry.h)";
    }
}

// Each trace source of a real object accepts a function of exactly its documented type. A
// mismatch makes ns-3 abort (NS_FATAL_ERROR in TracedCallback::ConnectWithoutContext), so each
// connection is first tried in a child process, then made here.
TEST(TraceSources, EachConnectsThroughItsDocumentedSignature)
{
    uint32_t connected = 0;
    for (const Source& s : DconTraceSources())
    {
        const std::string where = s.owner.GetName() + "::" + s.name + " through " + s.callback;
        if (!TraceCallbackRegistry::Has(s.callback))
        {
            continue; // reported by EveryTraceSourceNamesARegisteredTypedef
        }
        bool found = false;
        const TypeId type = Instantiable(s.owner, &found);
        ASSERT_TRUE(found) << where << ": no type with a constructor has this trace source";
        ObjectFactory factory;
        factory.SetTypeId(type);
        Ptr<Object> object = factory.Create();
        ASSERT_TRUE(object) << type.GetName();
        CallbackBase cb = TraceCallbackRegistry::MakeSink(s.callback);
        EXPECT_EXIT(std::_Exit(object->TraceConnectWithoutContext(s.name, cb) ? 0 : 1),
                    ::testing::ExitedWithCode(0),
                    "")
            << where << " (on a " << type.GetName() << ")";
        if (!::testing::Test::HasFailure())
        {
            EXPECT_TRUE(object->TraceConnectWithoutContext(s.name, cb)) << where;
            ++connected;
        }
        object->Dispose();
    }
    EXPECT_EQ(connected, DconTraceSources().size());
}

// A typedef the registry does not know is refused by name; a known one makes a callback.
TEST(TraceSources, RegistryNamesAnUnknownTypedef)
{
    EXPECT_TRUE(TraceCallbackRegistry::Has("ns3::Packet::TracedCallback"));
    EXPECT_TRUE(TraceCallbackRegistry::MakeSink("ns3::Packet::TracedCallback").GetImpl());
    try
    {
        TraceCallbackRegistry::MakeSink("ns3::Nowhere::TracedCallback");
        ADD_FAILURE() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'ns3::Nowhere::TracedCallback'"), std::string::npos)
            << e.what();
    }
}
