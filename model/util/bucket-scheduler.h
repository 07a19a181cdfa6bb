/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_BUCKET_SCHEDULER_H
#define DCON_BUCKET_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup dcon-util
 * \brief ns3::BucketScheduler: an event queue for fabrics with many events in the near future.
 */

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief An ns-3 event scheduler made of time slots: a binary heap for the current slot,
 * unsorted buckets for the next slots, and a heap for the events beyond them.
 *
 * A packet-level fabric keeps thousands of events pending (a frame on every busy wire, a
 * transmission end at every busy port), nearly all within a few microseconds of now. A single
 * binary heap of all of them (ns3::PriorityQueueScheduler) moves every removed event's
 * replacement down its full depth (13 levels for 6,000 events). Here time is cut into slots of
 * 2^k time steps. An event of the current slot goes into a small heap; an event of one of the next
 * N - 1 slots is appended to that slot's bucket (no ordering yet); a later one goes into a
 * second heap (flow starts, timers). When the current slot is empty, the next non-empty bucket
 * becomes the heap (built in linear time) and the far heap gives the buckets the events that
 * came within reach.
 *
 * Events leave in the order of every ns-3 scheduler: by time, then by insertion (the event's
 * uid), so results do not depend on the choice of scheduler. The slot width adapts to the
 * events' density (every 4,096 slots it looks at how many events each slot held and how many
 * empty slots it stepped over, and halves or doubles the width, redistributing the pending
 * events), so it needs no setting for a time resolution or a fabric size.
 *
 * Complexity: insertion O(1) into a bucket, O(log n) into a heap; removal O(log m) for m
 * events in the current slot; Remove() (events removed before they run, rare: cancelled events
 * stay queued in ns-3) O(n).
 */
class BucketScheduler : public Scheduler
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    BucketScheduler();
    ~BucketScheduler() override;

    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

    /**
     * \brief The width of a slot now.
     * \return log2 of the slot width in time steps
     */
    uint32_t GetSlotShift() const;

private:
    /// The buckets' count: a power of two, the window is that many slots.
    static constexpr uint64_t NUM_BUCKETS = 1024;
    /// Slots (made current) between two looks at the width.
    static constexpr uint32_t ADAPT_PERIOD = 4096;

    /// Heap order: a leaves after b.
    struct Later
    {
        /**
         * \param a an event
         * \param b another event
         * \return whether a is later than b (by time, then by insertion)
         */
        bool
        operator()(const Scheduler::Event& a, const Scheduler::Event& b) const
        {
            return a.key.m_ts > b.key.m_ts
                   || (a.key.m_ts == b.key.m_ts && a.key.m_uid > b.key.m_uid);
        }
    };

    /**
     * \brief The slot of a time.
     * \param ts a time in time steps
     * \return its slot number
     */
    uint64_t
    SlotOf(uint64_t ts) const
    {
        return ts >> m_shift;
    }

    /// Put an event where it belongs (the count is not changed).
    /// \param ev the event
    void Place(const Scheduler::Event& ev);

    /// Make the next non-empty slot current (precondition: the current slot is empty and some
    /// event is pending).
    void Advance();

    /// Move the far events that came within the window into their buckets.
    void PullFar();

    /// Look at the slots made current since the last look; change the width if it is off.
    void Adapt();

    /// Put every pending event in place again, with slots of 2^shift time steps.
    /// \param shift the new log2 of the width
    void Rebuild(uint32_t shift);

    std::vector<Scheduler::Event> m_current; //!< the current slot's events, latest first
    std::vector<Scheduler::Event> m_late;    //!< heap: events put in the current slot after it
                                             //!< was sorted
    std::vector<std::vector<Scheduler::Event>> m_buckets; //!< the next slots, unsorted
    std::vector<Scheduler::Event> m_far;                  //!< heap: the events beyond the window
    uint64_t m_slot{0};                                   //!< the current slot
    uint32_t m_shift{14};                                 //!< log2 of the slot width (time steps)
    uint64_t m_count{0};                                  //!< events pending
    uint64_t m_inBuckets{0};                              //!< events in the buckets
    uint64_t m_lastTs{0};                                 //!< the time of the last event removed

    // Adaptation
    uint32_t m_slotsTaken{0};  //!< slots made current since the last look
    uint64_t m_slotsWalked{0}; //!< slots stepped over (empty or not) since then
    uint64_t m_eventsTaken{0}; //!< events those slots held
    uint64_t m_inserted{0};    //!< events inserted since then
    uint64_t m_insertedFar{0}; //!< of which beyond the window
};

} // namespace ns3

#endif /* DCON_BUCKET_SCHEDULER_H */
