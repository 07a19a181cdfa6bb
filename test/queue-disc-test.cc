/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RedEcnQueueDisc driven directly with RdmaQueueDiscItems (no switch, no network).
//
// An item of N bytes is an Ipv4Header (20 B) + a packet of N - 20 bytes; GetSize() = N.
// The RED rule, with q the queue length in bytes excluding the packet:
//   q < Kmin: no mark; Kmin <= q < Kmax: mark with Pmax (q - Kmin) / (Kmax - Kmin);
//   q >= Kmax: always mark.

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-egress-queue-disc.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/red-ecn-queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A packet of one flow with \p bytes IP bytes and the given ECN codepoint.
Ptr<RdmaQueueDiscItem>
MakeItem(uint32_t bytes, Ipv4Header::EcnType ecn = Ipv4Header::ECN_ECT0)
{
    return test::MakeRoceItem(1000, bytes, ecn);
}

/// A RedEcnQueueDisc with the given thresholds (byte strings), initialized.
Ptr<RedEcnQueueDisc>
MakeRed(const std::string& kmin,
        const std::string& kmax,
        double pmax,
        bool onDequeue = false,
        int64_t stream = 1)
{
    Ptr<RedEcnQueueDisc> q = CreateObject<RedEcnQueueDisc>();
    q->SetAttribute("Kmin", QueueSizeValue(QueueSize(kmin)));
    q->SetAttribute("Kmax", QueueSizeValue(QueueSize(kmax)));
    q->SetAttribute("Pmax", DoubleValue(pmax));
    q->SetAttribute("MarkOnDequeue", BooleanValue(onDequeue));
    q->AssignStreams(stream);
    q->Initialize();
    return q;
}

/// Expect Initialize() to throw std::invalid_argument whose message contains \p needle.
void
ExpectConfigError(const std::string& kmin,
                  const std::string& kmax,
                  double pmax,
                  const std::string& needle)
{
    Ptr<RedEcnQueueDisc> q = CreateObject<RedEcnQueueDisc>();
    q->SetAttribute("Kmin", QueueSizeValue(QueueSize(kmin)));
    q->SetAttribute("Kmax", QueueSizeValue(QueueSize(kmax)));
    q->SetAttribute("Pmax", DoubleValue(pmax));
    try
    {
        q->Initialize();
        ADD_FAILURE() << "Kmin=" << kmin << " Kmax=" << kmax << " Pmax=" << pmax << " was accepted";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
            << "message '" << e.what() << "' does not name " << needle;
    }
}

/// Fixture: destroys the simulator after every test, also when an ASSERT ended it early, so
/// that tests stay independent when run together in one process.
class RedEcn : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

// Kmin = Kmax = 10,500 B, step marking on enqueue, 1000 B packets and no dequeue: packet i
// (from 0) sees q = 1000 i. Marked iff 1000 i >= 10,500, i.e. i >= 11: the 12th packet is the
// first marked, and from then on every one (forced). Of 20 packets, 9 are marked (i = 11..19).
TEST_F(RedEcn, StepMarkingOnEnqueue)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("10500B", "10500B", 1.0);
    std::vector<Ptr<RdmaQueueDiscItem>> items;
    for (uint32_t i = 0; i < 20; ++i)
    {
        items.push_back(MakeItem(1000));
        ASSERT_TRUE(q->Enqueue(items.back()));
    }
    for (uint32_t i = 0; i < 20; ++i)
    {
        EXPECT_EQ(items[i]->IsCe(), i >= 11) << "packet " << i;
    }
    EXPECT_EQ(q->GetNBytes(), 20000u);
    const auto& st = q->GetStats();
    EXPECT_EQ(st.nTotalMarkedPackets, 9u);
    EXPECT_EQ(st.GetNMarkedPackets(RedEcnQueueDisc::FORCED_MARK), 9u);
    EXPECT_EQ(st.GetNMarkedPackets(RedEcnQueueDisc::PROB_MARK), 0u);
    // the mark is in the IPv4 header that AddHeader() puts back on the packet
    Ptr<QueueDiscItem> out;
    for (uint32_t i = 0; i < 12; ++i)
    {
        out = q->Dequeue();
    }
    out->AddHeader();
    Ipv4Header ip;
    out->GetPacket()->PeekHeader(ip);
    EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_CE);
    q->Dispose();
    Simulator::Destroy();
}

// Same thresholds, but the queue is drained as it fills: enqueue 2, dequeue 1, ... The length
// seen by the k-th enqueue (k from 0) is 1000 x (k - floor(k / 2)) = 1000 x ceil(k / 2):
// k = 21 sees 11,000 >= 10,500 and is the first marked (k = 20 sees 10,000).
TEST_F(RedEcn, StepMarkingFirstMarkWithDrain)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("10500B", "10500B", 1.0);
    int first = -1;
    for (int k = 0; k < 40; ++k)
    {
        Ptr<RdmaQueueDiscItem> it = MakeItem(1000);
        q->Enqueue(it);
        if (it->IsCe() && first < 0)
        {
            first = k;
        }
        if (k % 2 == 1)
        {
            q->Dequeue();
        }
    }
    EXPECT_EQ(first, 21);
    q->Dispose();
    Simulator::Destroy();
}

// Kmin 100 KB, Kmax 400 KB, Pmax 0.2 ("KB" = 1000 B):
//   p(q) = 0.2 (q - 100,000) / 300,000
TEST_F(RedEcn, MarkProbability)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("100KB", "400KB", 0.2);
    EXPECT_DOUBLE_EQ(q->MarkProbability(0), 0.0);
    EXPECT_DOUBLE_EQ(q->MarkProbability(99999), 0.0);
    EXPECT_DOUBLE_EQ(q->MarkProbability(100000), 0.0);  // 0.2 x 0 / 300,000
    EXPECT_DOUBLE_EQ(q->MarkProbability(175000), 0.05); // 0.2 x 75,000 / 300,000
    EXPECT_DOUBLE_EQ(q->MarkProbability(250000), 0.1);  // 0.2 x 150,000 / 300,000
    EXPECT_DOUBLE_EQ(q->MarkProbability(399999), 0.2 * 299999.0 / 300000.0);
    EXPECT_DOUBLE_EQ(q->MarkProbability(400000), 1.0); // q >= Kmax: always
    EXPECT_DOUBLE_EQ(q->MarkProbability(1000000), 1.0);
    q->Dispose();
    Simulator::Destroy();
}

// Kmin 0, Kmax 400 KB, Pmax 0.5, the queue held at q = 399,000 B (399 Not-ECT packets of
// 1000 B; each ECT test packet is enqueued, then the oldest packet is dequeued):
//   p = 0.5 x 399,000 / 400,000 = 0.49875 -> 4987.5 of 10,000 expected; binomial sd =
//   sqrt(10,000 x 0.5 x 0.5) = 50, so within 3% (4838 .. 5137) is a 3-sigma band.
TEST_F(RedEcn, ProbabilisticMarkingRate)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("0B", "400KB", 0.5, false, 7);
    for (uint32_t i = 0; i < 399; ++i)
    {
        q->Enqueue(MakeItem(1000, Ipv4Header::ECN_NotECT));
    }
    ASSERT_EQ(q->GetNBytes(), 399000u);
    EXPECT_DOUBLE_EQ(q->MarkProbability(399000), 0.49875);
    uint32_t marked = 0;
    for (uint32_t i = 0; i < 10000; ++i)
    {
        Ptr<RdmaQueueDiscItem> it = MakeItem(1000);
        q->Enqueue(it);
        marked += it->IsCe() ? 1 : 0;
        q->Dequeue();
        ASSERT_EQ(q->GetNBytes(), 399000u);
    }
    const double expected = 0.49875 * 10000;
    EXPECT_GE(marked, 0.97 * expected);
    EXPECT_LE(marked, 1.03 * expected);
    // every mark was a probabilistic one, and no Not-ECT packet counted as marked
    EXPECT_EQ(q->GetStats().GetNMarkedPackets(RedEcnQueueDisc::PROB_MARK), marked);
    EXPECT_EQ(q->GetStats().GetNMarkedPackets(RedEcnQueueDisc::FORCED_MARK), 0u);
    EXPECT_EQ(q->GetStats().nTotalMarkedPackets, marked);
    std::cout << "marked " << marked << " of 10000 (expected 4987.5)\n";
    q->Dispose();
    Simulator::Destroy();
}

// Not-ECT packets are never marked, even far above Kmax (100 packets of 1000 B, Kmax 5 KB).
TEST_F(RedEcn, NotEctNeverMarked)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("5KB", "5KB", 1.0);
    for (uint32_t i = 0; i < 100; ++i)
    {
        Ptr<RdmaQueueDiscItem> it = MakeItem(1000, Ipv4Header::ECN_NotECT);
        q->Enqueue(it);
        EXPECT_FALSE(it->IsCe());
    }
    EXPECT_EQ(q->GetStats().nTotalMarkedPackets, 0u);
    // an ECT(1) packet at the same length is marked (100,000 >= 5,000)
    Ptr<RdmaQueueDiscItem> ect1 = MakeItem(1000, Ipv4Header::ECN_ECT1);
    q->Enqueue(ect1);
    EXPECT_TRUE(ect1->IsCe());
    EXPECT_EQ(q->GetStats().nTotalMarkedPackets, 1u);
    q->Dispose();
    Simulator::Destroy();
}

// Mark on dequeue, Kmin = Kmax = 5 KB: enqueue 10 packets of 1000 B (no marks: marking is
// decided on the way out), then dequeue them. Packet j (from 0) leaves with (9 - j) x 1000 B
// behind it, marked iff (9 - j) x 1000 >= 5000, i.e. j <= 4: the first 5 out are marked.
// (On enqueue the same sequence marks the last 5: packet i sees 1000 i >= 5000 for i >= 5.)
TEST_F(RedEcn, MarkOnDequeueUsesBytesBehind)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("5KB", "5KB", 1.0, true);
    std::vector<Ptr<RdmaQueueDiscItem>> items;
    for (uint32_t i = 0; i < 10; ++i)
    {
        items.push_back(MakeItem(1000));
        q->Enqueue(items.back());
        EXPECT_FALSE(items.back()->IsCe());
    }
    for (uint32_t j = 0; j < 10; ++j)
    {
        Ptr<RdmaQueueDiscItem> out = StaticCast<RdmaQueueDiscItem>(q->Dequeue());
        ASSERT_EQ(out, items[j]);
        EXPECT_EQ(out->IsCe(), j <= 4) << "dequeue " << j;
    }
    EXPECT_EQ(q->GetStats().GetNMarkedPackets(RedEcnQueueDisc::FORCED_MARK), 5u);

    Ptr<RedEcnQueueDisc> onEnqueue = MakeRed("5KB", "5KB", 1.0, false);
    uint32_t lastFive = 0;
    for (uint32_t i = 0; i < 10; ++i)
    {
        Ptr<RdmaQueueDiscItem> it = MakeItem(1000);
        onEnqueue->Enqueue(it);
        EXPECT_EQ(it->IsCe(), i >= 5) << "enqueue " << i;
        lastFive += it->IsCe() ? 1 : 0;
    }
    EXPECT_EQ(lastFive, 5u);
    q->Dispose();
    onEnqueue->Dispose();
    Simulator::Destroy();
}

// Forced and probabilistic marks are counted under their own reasons. Kmin 2 KB, Kmax 6 KB,
// Pmax 1: packet i (1000 B, no dequeue) sees q = 1000 i; i = 0, 1 never marked; i = 2..5 in
// the RED range with p = (1000 i - 2000) / 4000 = 0, 0.25, 0.5, 0.75; i >= 6 forced. Of 10
// packets: 4 forced (6..9), PROB_MARK between 0 and 3 (i = 2 has p = 0 so it is never marked).
TEST_F(RedEcn, MarkReasons)
{
    Ptr<RedEcnQueueDisc> q = MakeRed("2KB", "6KB", 1.0);
    std::vector<Ptr<RdmaQueueDiscItem>> items;
    for (uint32_t i = 0; i < 10; ++i)
    {
        items.push_back(MakeItem(1000));
        q->Enqueue(items.back());
    }
    EXPECT_FALSE(items[0]->IsCe());
    EXPECT_FALSE(items[1]->IsCe());
    EXPECT_FALSE(items[2]->IsCe());
    uint32_t prob = 0;
    for (uint32_t i = 3; i <= 5; ++i)
    {
        prob += items[i]->IsCe() ? 1 : 0;
    }
    for (uint32_t i = 6; i < 10; ++i)
    {
        EXPECT_TRUE(items[i]->IsCe()) << i;
    }
    const auto& st = q->GetStats();
    EXPECT_EQ(st.GetNMarkedPackets(RedEcnQueueDisc::FORCED_MARK), 4u);
    EXPECT_EQ(st.GetNMarkedPackets(RedEcnQueueDisc::PROB_MARK), prob);
    EXPECT_EQ(st.nTotalMarkedPackets, 4u + prob);
    // the queue never drops (admission is the MMU's job)
    EXPECT_EQ(st.nTotalDroppedPackets, 0u);
    q->Dispose();
    Simulator::Destroy();
}

TEST_F(RedEcn, ConfigErrors)
{
    // Kmax below Kmin: the message names both values
    ExpectConfigError("200KB", "100KB", 0.1, "100000B");
    ExpectConfigError("200KB", "100KB", 0.1, "Kmax");
    // Pmax outside [0, 1]
    ExpectConfigError("100KB", "200KB", 1.5, "1.5");
    ExpectConfigError("100KB", "200KB", -0.1, "-0.1");
    // thresholds in packets
    ExpectConfigError("10p", "20KB", 0.1, "10p");
    ExpectConfigError("10KB", "20p", 0.1, "20p");
    // valid corner cases are accepted: Kmin = Kmax, Pmax 0 and 1
    for (double pmax : {0.0, 1.0})
    {
        Ptr<RedEcnQueueDisc> q = CreateObject<RedEcnQueueDisc>();
        q->SetAttribute("Kmin", QueueSizeValue(QueueSize("50KB")));
        q->SetAttribute("Kmax", QueueSizeValue(QueueSize("50KB")));
        q->SetAttribute("Pmax", DoubleValue(pmax));
        EXPECT_NO_THROW(q->Initialize());
        q->Dispose();
    }
    Simulator::Destroy();
}

// A switch reads the fields it forwards on from the packet's first 24 bytes (ParseIpv4); the
// IPv4 header stays on the packet, and AddHeader() rewrites it only for a packet whose ECN bits
// Mark() changed. Packet: IPv4 10.0.0.7 -> 10.0.0.9, DSCP 24 (priority 3), ECT(0), UDP 49153 ->
// 4791, 1000 B payload: TOS = 24 << 2 | 2 = 98.
TEST(RdmaQueueDiscItem, ParsesFieldsAndRewritesOnlyMarkedHeaders)
{
    auto makePacket = []()
    {
        Ptr<Packet> p = Create<Packet>(1000);
        UdpHeader udp;
        udp.SetSourcePort(49153);
        udp.SetDestinationPort(4791);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.7"));
        ip.SetDestination(Ipv4Address("10.0.0.9"));
        ip.SetProtocol(17);
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(24));
        ip.SetEcn(Ipv4Header::ECN_ECT0);
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
        return p;
    };
    Ptr<Packet> p = makePacket();
    RdmaQueueDiscItem::Ipv4Fields f;
    ASSERT_TRUE(RdmaQueueDiscItem::ParseIpv4(p, f));
    EXPECT_EQ(f.Tuple().src, Ipv4Address("10.0.0.7"));
    EXPECT_EQ(f.Tuple().dst, Ipv4Address("10.0.0.9"));
    EXPECT_EQ(f.protocol, 17);
    EXPECT_EQ(f.sport, 49153);
    EXPECT_EQ(f.dport, 4791);
    EXPECT_EQ(f.tos, 98);

    // unmarked: the bytes leave unchanged
    std::vector<uint8_t> before(p->GetSize());
    p->CopyData(before.data(), before.size());
    Ptr<RdmaQueueDiscItem> item = Create<RdmaQueueDiscItem>(p, f, 0, 3);
    EXPECT_EQ(item->GetSize(), 1028u); // 20 + 8 + 1000
    EXPECT_FALSE(item->IsCe());
    item->AddHeader();
    std::vector<uint8_t> after(p->GetSize());
    p->CopyData(after.data(), after.size());
    EXPECT_EQ(before, after);

    // marked: CE (TOS 99) in the header on the wire, nothing else changed
    Ptr<Packet> q = makePacket();
    Ptr<RdmaQueueDiscItem> marked = Create<RdmaQueueDiscItem>(q, f.tos, f.Tuple(), 0, 3);
    EXPECT_TRUE(marked->Mark());
    EXPECT_TRUE(marked->IsCe());
    EXPECT_EQ(marked->GetHeader().GetTos(), 99); // the mark shows before the rewrite
    EXPECT_EQ(marked->GetHeader().GetSource(), Ipv4Address("10.0.0.7"));
    marked->AddHeader();
    EXPECT_EQ(q->GetSize(), 1028u);
    Ipv4Header ip;
    q->PeekHeader(ip);
    EXPECT_EQ(ip.GetTos(), 99);
    EXPECT_EQ(ip.GetDestination(), Ipv4Address("10.0.0.9"));

    // too short, or not a plain 20-byte IPv4 header: rejected
    EXPECT_FALSE(RdmaQueueDiscItem::ParseIpv4(Create<Packet>(12), f));
    uint8_t v6[24] = {0x60};
    EXPECT_FALSE(RdmaQueueDiscItem::ParseIpv4(Create<Packet>(v6, sizeof(v6)), f));
}
