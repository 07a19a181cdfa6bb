/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaFifoQueue behaves as ns-3's DropTailQueue<QueueDiscItem>: same counters and traces for the
// same operations, alone and as the internal queue of a queue disc.
#include "ns3/config.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-egress-queue-disc.h"
#include "ns3/rdma-fifo-queue.h"
#include "ns3/red-ecn-queue-disc.h"
#include "ns3/simulator.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Every trace a queue fires, as "<trace>:<item size>" in order.
struct TraceLog
{
    std::vector<std::string> events;

    void
    Record(std::string what, Ptr<const QueueDiscItem> item)
    {
        events.push_back(what + ":" + std::to_string(item->GetSize()));
    }

    void
    Connect(Ptr<Object> q)
    {
        for (const char* name :
             {"Enqueue", "Dequeue", "Drop", "DropBeforeEnqueue", "DropAfterDequeue"})
        {
            EXPECT_TRUE(q->TraceConnectWithoutContext(
                name, MakeCallback(&TraceLog::Record, this).Bind(std::string(name))))
                << name;
        }
    }
};

/// Counters of a queue, in one comparable string.
std::string
Counters(Ptr<QueueBase> q)
{
    return std::to_string(q->GetNPackets()) + "p " + std::to_string(q->GetNBytes()) + "B rx "
           + std::to_string(q->GetTotalReceivedPackets()) + "/"
           + std::to_string(q->GetTotalReceivedBytes()) + " drop "
           + std::to_string(q->GetTotalDroppedPackets()) + "/"
           + std::to_string(q->GetTotalDroppedBytes()) + " before "
           + std::to_string(q->GetTotalDroppedPacketsBeforeEnqueue()) + "/"
           + std::to_string(q->GetTotalDroppedBytesBeforeEnqueue()) + " after "
           + std::to_string(q->GetTotalDroppedPacketsAfterDequeue()) + "/"
           + std::to_string(q->GetTotalDroppedBytesAfterDequeue());
}

/// The same operations on a queue: fill past MaxSize, dequeue, remove, peek; returns what the
/// queue returned, its counters after each step and (through log) its traces.
std::vector<std::string>
Exercise(Ptr<Queue<QueueDiscItem>> q, const std::string& maxSize, TraceLog& log)
{
    q->SetMaxSize(QueueSize(maxSize));
    log.Connect(q);
    std::vector<std::string> out;
    for (uint32_t bytes : {1000u, 500u, 1500u, 700u, 64u})
    {
        bool ok = q->Enqueue(test::MakeRoceItem(1, bytes));
        out.push_back(std::string(ok ? "in " : "dropped ") + Counters(q));
    }
    Ptr<const QueueDiscItem> head = q->Peek();
    out.push_back("peek " + std::to_string(head ? head->GetSize() : 0));
    Ptr<QueueDiscItem> d = q->Dequeue();
    out.push_back("dequeued " + std::to_string(d ? d->GetSize() : 0) + " " + Counters(q));
    Ptr<QueueDiscItem> r = q->Remove();
    out.push_back("removed " + std::to_string(r ? r->GetSize() : 0) + " " + Counters(q));
    q->Flush();
    out.push_back("flushed " + Counters(q));
    out.push_back(std::string("empty dequeue ") + (q->Dequeue() ? "item" : "null"));
    out.push_back(std::string("empty peek ") + (q->Peek() ? "item" : "null"));
    return out;
}

} // namespace

TEST(RdmaFifoQueue, SameAsDropTailQueue)
{
    for (const std::string maxSize : {"3p", "2500B", "100p"})
    {
        SCOPED_TRACE("MaxSize " + maxSize);
        TraceLog refLog;
        TraceLog ourLog;
        auto ref = Exercise(CreateObject<DropTailQueue<QueueDiscItem>>(), maxSize, refLog);
        auto ours = Exercise(CreateObject<RdmaFifoQueue>(), maxSize, ourLog);
        EXPECT_EQ(ours, ref);
        EXPECT_EQ(ourLog.events, refLog.events);
    }
    // Hand-checked for 3 packets: 1000, 500, 1500 in; 700 and 64 dropped before enqueue.
    TraceLog log;
    auto steps = Exercise(CreateObject<RdmaFifoQueue>(), "3p", log);
    EXPECT_EQ(steps[2], "in 3p 3000B rx 3/3000 drop 0/0 before 0/0 after 0/0");
    EXPECT_EQ(steps[4], "dropped 3p 3000B rx 3/3000 drop 2/764 before 2/764 after 0/0");
    EXPECT_EQ(steps[6], "dequeued 1000 2p 2000B rx 3/3000 drop 2/764 before 2/764 after 0/0");
    EXPECT_EQ(steps[7], "removed 500 1p 1500B rx 3/3000 drop 3/1264 before 2/764 after 1/500");
}

TEST(RdmaFifoQueue, DefaultIsUnboundedAndItIsTheQueueDiscsInternalQueue)
{
    Ptr<RdmaFifoQueue> q = CreateObject<RdmaFifoQueue>();
    EXPECT_EQ(q->GetMaxSize(), QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX));

    Ptr<RedEcnQueueDisc> qd = CreateObject<RedEcnQueueDisc>();
    qd->Initialize();
    ASSERT_EQ(qd->GetNInternalQueues(), 1u);
    EXPECT_EQ(qd->GetInternalQueue(0)->GetInstanceTypeId().GetName(), "ns3::RdmaFifoQueue");
    TraceLog qdLog;
    for (const char* name : {"Enqueue", "Dequeue"})
    {
        qd->TraceConnectWithoutContext(
            name, MakeCallback(&TraceLog::Record, &qdLog).Bind(std::string(name)));
    }
    for (int i = 0; i < 1000; ++i)
    {
        ASSERT_TRUE(qd->Enqueue(test::MakeRoceItem(1, 1000)));
    }
    // the queue disc's own counters and statistics follow its internal queue
    EXPECT_EQ(qd->GetNPackets(), 1000u);
    EXPECT_EQ(qd->GetNBytes(), 1000000u);
    EXPECT_EQ(qd->GetInternalQueue(0)->GetNPackets(), 1000u);
    for (int i = 0; i < 400; ++i)
    {
        ASSERT_TRUE(qd->Dequeue());
    }
    EXPECT_EQ(qd->GetNPackets(), 600u);
    EXPECT_EQ(qd->GetNBytes(), 600000u);
    const QueueDisc::Stats& st = qd->GetStats();
    EXPECT_EQ(st.nTotalReceivedPackets, 1000u);
    EXPECT_EQ(st.nTotalEnqueuedPackets, 1000u);
    EXPECT_EQ(st.nTotalDequeuedPackets, 400u);
    EXPECT_EQ(st.nTotalDroppedPackets, 0u);
    EXPECT_EQ(qdLog.events.size(), 1400u);
    qd->Dispose();
}
