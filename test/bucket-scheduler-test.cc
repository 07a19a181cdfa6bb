/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ns3::BucketScheduler (model/util/bucket-scheduler.h): events leave in the order of every ns-3
// scheduler (time, then insertion), whatever the mix of near, same-time and far events, through
// its changes of slot width, and with events removed before they run.

#include "ns3/bucket-scheduler.h"
#include "ns3/object.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// A scheduler under test and the order it must follow (time, then uid).
class Checked
{
public:
    Checked()
        : m_s(CreateObject<BucketScheduler>())
    {
    }

    /// Insert an event at \p ts (not before the last event removed).
    void
    Insert(uint64_t ts)
    {
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = ts;
        ev.key.m_uid = m_uid++;
        ev.key.m_context = 0;
        m_s->Insert(ev);
        m_ref.insert({ts, ev.key.m_uid});
    }

    /// Remove the next event; check it is the one the order says.
    /// \return its time
    uint64_t
    RemoveNext()
    {
        EXPECT_FALSE(m_s->IsEmpty());
        Scheduler::Event peek = m_s->PeekNext();
        Scheduler::Event ev = m_s->RemoveNext();
        EXPECT_EQ(peek.key.m_uid, ev.key.m_uid);
        auto first = m_ref.begin();
        EXPECT_EQ(ev.key.m_ts, first->first);
        EXPECT_EQ(ev.key.m_uid, first->second);
        m_ref.erase(first);
        m_now = ev.key.m_ts;
        m_removed++;
        return ev.key.m_ts;
    }

    /// Remove a queued event (not the next one necessarily), chosen by \p pick.
    void
    RemoveSome(std::size_t pick)
    {
        auto it = m_ref.begin();
        std::advance(it, pick % m_ref.size());
        Scheduler::Event ev;
        ev.impl = nullptr;
        ev.key.m_ts = it->first;
        ev.key.m_uid = it->second;
        ev.key.m_context = 0;
        m_s->Remove(ev);
        m_ref.erase(it);
    }

    /// Remove everything, in order.
    void
    Drain()
    {
        while (!m_ref.empty())
        {
            RemoveNext();
        }
        EXPECT_TRUE(m_s->IsEmpty());
    }

    Ptr<BucketScheduler> m_s;                      //!< the scheduler
    std::set<std::pair<uint64_t, uint32_t>> m_ref; //!< the reference order
    uint32_t m_uid{0};                             //!< next uid
    uint64_t m_now{0};                             //!< time of the last event removed
    uint64_t m_removed{0};                         //!< events removed
};

} // namespace

// A fabric's pattern: thousands of events within a few microseconds (picoseconds as time
// steps), some at the current time, some far (timers, flow starts), removals in between.
TEST(BucketScheduler, KeepsTimeThenInsertionOrder)
{
    Checked c;
    std::mt19937_64 rng(1);
    for (int i = 0; i < 300; ++i)
    {
        c.Insert(2'000'000'000'000ULL + rng() % 1'000'000'000ULL); // far: flow starts
    }
    for (int i = 0; i < 5000; ++i)
    {
        c.Insert(rng() % 2'000'000);
    }
    std::set<uint32_t> shifts;
    for (int step = 0; step < 400'000; ++step)
    {
        c.RemoveNext();
        shifts.insert(c.m_s->GetSlotShift());
        // one event in for each out, on average
        const uint64_t r = rng() % 100;
        if (r < 70)
        {
            c.Insert(c.m_now + 1'000'000 + rng() % 100'000); // a frame on a 1 us wire
        }
        else if (r < 90)
        {
            c.Insert(c.m_now + rng() % 100'000); // a transmission end
        }
        else if (r < 96)
        {
            c.Insert(c.m_now); // now
            c.Insert(c.m_now + 1);
        }
        else if (r < 98)
        {
            c.Insert(c.m_now + rng() % 1'000'000'000); // a timer
        }
        else if (r == 99 && !c.m_ref.empty())
        {
            c.RemoveSome(rng());
        }
        if (c.m_ref.empty())
        {
            break;
        }
    }
    c.Drain();
    EXPECT_GT(c.m_removed, 300'000u);
}

// Densities that change by orders of magnitude make the slot width change both ways (the
// pending events are redistributed each time) without changing the order.
TEST(BucketScheduler, AdaptsTheSlotWidthBothWays)
{
    Checked c;
    std::mt19937_64 rng(7);
    std::set<uint32_t> shifts;
    auto phase = [&](uint64_t gap, int events, int pending)
    {
        for (int i = 0; i < pending; ++i)
        {
            c.Insert(c.m_now + rng() % (gap * pending));
        }
        for (int i = 0; i < events; ++i)
        {
            c.RemoveNext();
            shifts.insert(c.m_s->GetSlotShift());
            c.Insert(c.m_now + rng() % (gap * pending));
        }
        while (c.m_ref.size() > 0)
        {
            c.RemoveNext();
        }
    };
    phase(1, 200'000, 1000);         // dense: an event per time step
    phase(1'000'000, 200'000, 1000); // sparse
    phase(10, 200'000, 3000);        // dense again
    EXPECT_GE(shifts.size(), 4u);
    EXPECT_TRUE(c.m_s->IsEmpty());
}

// Same-time events leave in insertion order, also when they arrive in the current slot after
// it was sorted; an empty window jumps to the far events.
TEST(BucketScheduler, SameTimeAndJumps)
{
    Checked c;
    for (int i = 0; i < 50; ++i)
    {
        c.Insert(1000);
    }
    c.Insert(1ULL << 50);
    c.Insert(1ULL << 50);
    c.Insert((1ULL << 50) + 1);
    for (int i = 0; i < 20; ++i)
    {
        c.RemoveNext();
        c.Insert(1000); // at the current time, after the slot was sorted
        c.Insert(1001);
    }
    c.Drain();
    c.Insert(c.m_now + 5);
    c.Insert(c.m_now);
    c.Drain();
}
