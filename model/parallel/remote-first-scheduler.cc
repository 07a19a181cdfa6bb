/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "remote-first-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/rank-transport.h"
#include "ns3/type-id.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RemoteFirstScheduler");
NS_OBJECT_ENSURE_REGISTERED(RemoteFirstScheduler);

TypeId
RemoteFirstScheduler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RemoteFirstScheduler")
              .SetParent<Scheduler>()
              .SetGroupName("Dcon")
              .AddConstructor<RemoteFirstScheduler>()
              .AddAttribute("Inner",
                            "The scheduler of the rank's own events (an ns3::Scheduler)",
                            TypeIdValue(PriorityQueueScheduler::GetTypeId()),
                            MakeTypeIdAccessor(&RemoteFirstScheduler::SetInner),
                            MakeTypeIdChecker());
    return tid;
}

RemoteFirstScheduler::RemoteFirstScheduler()
{
    NS_LOG_FUNCTION(this);
}

RemoteFirstScheduler::~RemoteFirstScheduler() = default;

void
RemoteFirstScheduler::SetInner(TypeId type)
{
    if (type == GetTypeId()
        || !(type == Scheduler::GetTypeId() || type.IsChildOf(Scheduler::GetTypeId()))
        || !type.HasConstructor())
    {
        throw std::invalid_argument(
            "RemoteFirstScheduler: Inner must be another ns3::Scheduler, got " + type.GetName());
    }
    if (m_local && !m_local->IsEmpty())
    {
        throw std::logic_error("RemoteFirstScheduler: Inner changed with events queued");
    }
    ObjectFactory f;
    f.SetTypeId(type);
    m_local = f.Create<Scheduler>();
    m_innerType = type;
}

void
RemoteFirstScheduler::Insert(const Event& ev)
{
    uint32_t source = 0;
    uint64_t sequence = 0;
    if (RankTransport::TakeRemoteInsert(&source, &sequence))
    {
        // The engine's rule: a message arrives before this rank runs any event at its time (it
        // is later than every guarantee sent before it). Otherwise its place, and so the run,
        // would depend on timing: an error, never a silent reordering.
        if (m_removedAny && ev.key.m_ts <= m_lastTs)
        {
            throw std::logic_error(
                "a message from rank " + std::to_string(source) + " for time step "
                + std::to_string(ev.key.m_ts) + " arrived after this rank ran time step "
                + std::to_string(m_lastTs) + " (the null-message engine's guarantee was broken)");
        }
        m_remote.emplace(std::make_tuple(ev.key.m_ts, source, sequence), ev);
        return;
    }
    m_local->Insert(ev);
}

bool
RemoteFirstScheduler::IsEmpty() const
{
    RankTransport::EngineSteps();
    return m_remote.empty() && m_local->IsEmpty();
}

bool
RemoteFirstScheduler::RemoteFirst() const
{
    if (m_remote.empty())
    {
        return false;
    }
    // At one time, messages from other ranks first.
    return m_local->IsEmpty()
           || std::get<0>(m_remote.begin()->first) <= m_local->PeekNext().key.m_ts;
}

Scheduler::Event
RemoteFirstScheduler::PeekNext() const
{
    RankTransport::EngineSteps();
    return RemoteFirst() ? m_remote.begin()->second : m_local->PeekNext();
}

Scheduler::Event
RemoteFirstScheduler::RemoveNext()
{
    RankTransport::EngineSteps();
    Event ev;
    if (RemoteFirst())
    {
        ev = m_remote.begin()->second;
        m_remote.erase(m_remote.begin());
        // The engine takes an event of the current time whose id is at most the running
        // event's for one that has run (EventId::IsExpired: Simulator::Cancel then does
        // nothing, IsPending is false). A message runs before the rank's own events of its
        // time, whatever id it got when it arrived: it runs with the id below every event's.
        ev.key.m_uid = EventId::UID::RESERVED;
    }
    else
    {
        ev = m_local->RemoveNext();
    }
    m_lastTs = ev.key.m_ts;
    m_removedAny = true;
    return ev;
}

void
RemoteFirstScheduler::Remove(const Event& ev)
{
    for (auto it = m_remote.begin(); it != m_remote.end(); ++it)
    {
        if (it->second.key.m_uid == ev.key.m_uid && it->second.key.m_ts == ev.key.m_ts)
        {
            m_remote.erase(it);
            return;
        }
    }
    m_local->Remove(ev);
}

} // namespace ns3
