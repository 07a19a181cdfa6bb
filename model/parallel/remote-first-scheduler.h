/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef REMOTE_FIRST_SCHEDULER_H
#define REMOTE_FIRST_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <map>
#include <tuple>

namespace ns3
{

/**
 * \ingroup dcon-parallel
 * \brief The event queue of a rank under ns3::NullMessageSimulatorImpl: the same order of
 * events on every run.
 *
 * ns-3's null-message engine inserts the event that delivers a message from another rank (a
 * frame, a completion message) when it receives the message, which is whenever MPI hands it
 * over: the event then gets an id somewhere among the ids of the rank's own events, and where
 * the two meet at the same picosecond, their order depended on wall-clock timing (two 2-rank
 * testbed runs gave 798 and 841 PAUSE frames). This queue orders events by time, and at one
 * time the events of messages from other ranks first, in the order of their sending rank and,
 * per rank, the order it sent them (MPI keeps a sender's messages in order), then the rank's
 * own events in the order they were scheduled: an order that does not depend on when a message
 * arrived. It is complete because every message is received before the engine runs any event
 * at its time (the engine's rule, with the guarantee kept strict: RankTransport).
 *
 * A message's event is handed to the engine with the id EventId::UID::RESERVED, below every
 * event's id: the engine takes an event of the current time whose id is at most the running
 * event's for one that has run (EventId::IsExpired), and a message runs before the rank's own
 * events of its time (with the id it got when it arrived, a cancel of one of them from the
 * message's event could be ignored, depending on when the message arrived).
 *
 * Which inserts are messages is told by RankTransport (TakeRemoteInsert), from the hooks on
 * the engine's MPI calls (model/parallel/mpi-hooks.cc). The rank's own events go to an inner
 * scheduler (attribute Inner, the program's SchedulerType). ParallelRun::Start installs it for
 * the null-message engine; the granted-time-window engine, which receives messages only at the
 * start of a synchronization round, keeps its queue.
 */
class RemoteFirstScheduler : public Scheduler
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RemoteFirstScheduler();
    ~RemoteFirstScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

private:
    /// Create the inner scheduler of the rank's own events (attribute Inner).
    void SetInner(TypeId type);

    /// Whether the next event is a message's (from other ranks).
    bool RemoteFirst() const;

    Ptr<Scheduler> m_local; //!< the rank's own events
    TypeId m_innerType;     //!< its type
    /// Messages from other ranks: (time, sending rank, its sequence) -> event
    std::map<std::tuple<uint64_t, uint32_t, uint64_t>, Event> m_remote;
    uint64_t m_lastTs{0};     //!< time step of the last event removed
    bool m_removedAny{false}; //!< an event was removed
};

} // namespace ns3

#endif /* REMOTE_FIRST_SCHEDULER_H */
