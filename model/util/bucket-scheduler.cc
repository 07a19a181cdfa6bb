/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "bucket-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BucketScheduler");
NS_OBJECT_ENSURE_REGISTERED(BucketScheduler);

namespace
{
/// The widest slot: 2^40 time steps (1.1 s in picoseconds).
constexpr uint32_t MAX_SHIFT = 40;
/// Fewer events than this per slot made current: the slots are too narrow.
constexpr uint64_t FEW_PER_SLOT = 6;
/// More events than this per slot made current: the slots are too wide.
constexpr uint64_t MANY_PER_SLOT = 48;
} // namespace

TypeId
BucketScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BucketScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Dcon")
                            .AddConstructor<BucketScheduler>();
    return tid;
}

BucketScheduler::BucketScheduler()
    : m_buckets(NUM_BUCKETS)
{
    NS_LOG_FUNCTION(this);
}

BucketScheduler::~BucketScheduler() = default;

uint32_t
BucketScheduler::GetSlotShift() const
{
    return m_shift;
}

void
BucketScheduler::Place(const Scheduler::Event& ev)
{
    const uint64_t slot = SlotOf(ev.key.m_ts);
    if (slot <= m_slot)
    {
        // After the current slot was sorted: into the small heap of late arrivals.
        m_late.push_back(ev);
        std::push_heap(m_late.begin(), m_late.end(), Later());
    }
    else if (slot - m_slot < NUM_BUCKETS)
    {
        m_buckets[slot & (NUM_BUCKETS - 1)].push_back(ev);
        m_inBuckets++;
    }
    else
    {
        m_far.push_back(ev);
        std::push_heap(m_far.begin(), m_far.end(), Later());
        m_insertedFar++;
    }
}

void
BucketScheduler::Insert(const Scheduler::Event& ev)
{
    NS_ASSERT_MSG(ev.key.m_ts >= m_lastTs, "an event before the last one removed");
    Place(ev);
    m_count++;
    m_inserted++;
}

bool
BucketScheduler::IsEmpty() const
{
    return m_count == 0;
}

Scheduler::Event
BucketScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_count > 0, "PeekNext on an empty scheduler");
    if (!m_current.empty() || !m_late.empty())
    {
        if (m_late.empty() || (!m_current.empty() && Later()(m_late.front(), m_current.back())))
        {
            return m_current.back();
        }
        return m_late.front();
    }
    if (m_inBuckets > 0)
    {
        for (uint64_t slot = m_slot + 1;; ++slot)
        {
            const auto& bucket = m_buckets[slot & (NUM_BUCKETS - 1)];
            if (!bucket.empty())
            {
                return *std::min_element(bucket.begin(),
                                         bucket.end(),
                                         [](const Event& a, const Event& b)
                                         {
                                             return Later()(b, a);
                                         });
            }
        }
    }
    return m_far.front();
}

Scheduler::Event
BucketScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_count > 0, "RemoveNext on an empty scheduler");
    Scheduler::Event ev;
    if (m_late.empty())
    {
        if (m_current.empty())
        {
            Advance();
            if (!m_late.empty())
            {
                return RemoveNext(); // a rebuild put the slot's events there
            }
        }
        ev = m_current.back();
        m_current.pop_back();
    }
    else if (m_current.empty() || Later()(m_current.back(), m_late.front()))
    {
        std::pop_heap(m_late.begin(), m_late.end(), Later());
        ev = m_late.back();
        m_late.pop_back();
    }
    else
    {
        ev = m_current.back();
        m_current.pop_back();
    }
    m_count--;
    m_lastTs = ev.key.m_ts;
    return ev;
}

void
BucketScheduler::Remove(const Scheduler::Event& ev)
{
    const uint64_t slot = SlotOf(ev.key.m_ts);
    auto same = [&ev](const Event& e)
    {
        return e.key.m_uid == ev.key.m_uid;
    };
    if (slot <= m_slot)
    {
        auto it = std::find_if(m_current.begin(), m_current.end(), same);
        if (it != m_current.end())
        {
            m_current.erase(it); // stays sorted
        }
        else
        {
            it = std::find_if(m_late.begin(), m_late.end(), same);
            NS_ASSERT_MSG(it != m_late.end(), "Remove of an event that is not queued");
            m_late.erase(it);
            std::make_heap(m_late.begin(), m_late.end(), Later());
        }
    }
    else if (slot - m_slot < NUM_BUCKETS)
    {
        auto& bucket = m_buckets[slot & (NUM_BUCKETS - 1)];
        auto it = std::find_if(bucket.begin(), bucket.end(), same);
        NS_ASSERT_MSG(it != bucket.end(), "Remove of an event that is not queued");
        *it = bucket.back();
        bucket.pop_back();
        m_inBuckets--;
    }
    else
    {
        auto it = std::find_if(m_far.begin(), m_far.end(), same);
        NS_ASSERT_MSG(it != m_far.end(), "Remove of an event that is not queued");
        m_far.erase(it);
        std::make_heap(m_far.begin(), m_far.end(), Later());
    }
    m_count--;
}

void
BucketScheduler::PullFar()
{
    // The window: the slots after the current one, up to NUM_BUCKETS - 1 of them.
    while (!m_far.empty() && SlotOf(m_far.front().key.m_ts) - m_slot < NUM_BUCKETS)
    {
        std::pop_heap(m_far.begin(), m_far.end(), Later());
        const Scheduler::Event& ev = m_far.back();
        m_buckets[SlotOf(ev.key.m_ts) & (NUM_BUCKETS - 1)].push_back(ev);
        m_inBuckets++;
        m_far.pop_back();
    }
}

void
BucketScheduler::Advance()
{
    if (m_slotsTaken >= ADAPT_PERIOD)
    {
        Adapt(); // a rebuild may put events in the current slot (m_late)
        if (!m_late.empty())
        {
            return;
        }
    }
    if (m_inBuckets == 0)
    {
        // Nothing within the window: go to the slot before the first far event's.
        NS_ASSERT(!m_far.empty());
        m_slot = SlotOf(m_far.front().key.m_ts) - 1;
    }
    for (;;)
    {
        ++m_slot;
        ++m_slotsWalked;
        PullFar();
        auto& bucket = m_buckets[m_slot & (NUM_BUCKETS - 1)];
        if (!bucket.empty())
        {
            m_current.swap(bucket); // both keep their capacity for later slots
            break;
        }
    }
    m_inBuckets -= m_current.size();
    m_eventsTaken += m_current.size();
    m_slotsTaken++;
    // Latest first: the next event is at the back.
    std::sort(m_current.begin(), m_current.end(), Later());
}

void
BucketScheduler::Adapt()
{
    const uint64_t perSlot = m_eventsTaken / m_slotsTaken;
    const bool farOften = m_insertedFar * 20 > m_inserted; // more than 5% beyond the window
    uint32_t shift = m_shift;
    if (perSlot > MANY_PER_SLOT && !farOften && shift > 0)
    {
        shift--;
    }
    else if ((perSlot < FEW_PER_SLOT || (farOften && perSlot < MANY_PER_SLOT / 2))
             && shift < MAX_SHIFT)
    {
        shift++;
    }
    NS_LOG_LOGIC("events per slot " << perSlot << ", slots walked " << m_slotsWalked
                                    << ", inserted " << m_inserted << " (beyond the window "
                                    << m_insertedFar << "): shift " << m_shift << " -> " << shift);
    m_slotsTaken = 0;
    m_slotsWalked = 0;
    m_eventsTaken = 0;
    m_inserted = 0;
    m_insertedFar = 0;
    if (shift != m_shift)
    {
        Rebuild(shift);
    }
}

void
BucketScheduler::Rebuild(uint32_t shift)
{
    std::vector<Scheduler::Event> all;
    all.reserve(m_count);
    all.insert(all.end(), m_current.begin(), m_current.end());
    m_current.clear();
    all.insert(all.end(), m_late.begin(), m_late.end());
    m_late.clear();
    for (auto& bucket : m_buckets)
    {
        all.insert(all.end(), bucket.begin(), bucket.end());
        bucket.clear();
    }
    all.insert(all.end(), m_far.begin(), m_far.end());
    m_far.clear();
    NS_ASSERT(all.size() == m_count);
    m_shift = shift;
    m_slot = SlotOf(m_lastTs); // every pending event is at m_lastTs or later
    m_inBuckets = 0;
    for (const auto& ev : all)
    {
        Place(ev);
    }
    m_insertedFar = 0;
}

} // namespace ns3
