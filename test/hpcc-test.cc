/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// HPCC: the INT header's bytes, RdmaHpcc driven with hand-made ACKs (no network), the frames
// growing by 8 bytes per switch on a real path, two flows converging, and an 8-to-1 incast.
//
// Hand-made ACKs: 1000 B MTU, 100 Gb/s line rate, T = 10 us, so the first window is the
// bandwidth-delay product 100e9 x 10e-6 / 8 = 125,000 B; eta 0.95; W_AI = 100 Gb/s / 2500 x T
// = 40 Mb/s x 10 us / 8 = 50 B; the smallest window 100 Mb/s x 10 us / 8 = 125 B.
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fabric-monitor.h"
#include "ns3/int-header.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-flow-state.h"
#include "ns3/rdma-hpcc.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/switch-queue-settings.h"
#include "ns3/uinteger.h"
#include "test-items.h"
#include "two-flow-scenario.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <stdexcept>

using namespace ns3;

namespace
{

/// The serialized bytes of a header.
template <typename H>
std::vector<uint8_t>
Bytes(const H& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> out(p->GetSize());
    p->CopyData(out.data(), out.size());
    return out;
}

/// A packet holding \p bytes.
Ptr<Packet>
PacketOf(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), bytes.size());
}

/// A one-hop record of a 100 Gb/s port.
IntHop
Hop100(uint64_t ns, uint64_t txBytes, uint64_t qlenBytes)
{
    return IntHop::Make(DataRate("100Gbps"), NanoSeconds(ns), txBytes, qlenBytes);
}

struct HpccCase
{
    Ptr<RdmaFlowState> flow = CreateObject<RdmaFlowState>();
    Ptr<RdmaHpcc> cc = CreateObject<RdmaHpcc>();

    HpccCase()
    {
        flow->m_lineRate = DataRate("100Gbps");
        flow->m_startRate = flow->m_lineRate;
        flow->m_baseRtt = MicroSeconds(10);
        flow->m_mtu = 1000;
        flow->m_size = 100000000;
    }

    /// An ACK up to \p offset (1000 B newly acknowledged) with one hop record; the sender has
    /// sent up to \p sndNxt.
    void
    Ack(uint64_t offset, uint64_t sndNxt, const IntHop& hop)
    {
        RdmaAckInfo a;
        a.newlyAckedBytes = 1000;
        a.ackedOffset = offset;
        a.hops.Push(hop);
        flow->m_sndUna = offset;
        flow->m_sndNxt = sndNxt;
        cc->OnAck(flow, a);
    }
};

} // namespace

// One record: rate code 9 (100 Gb/s), 1000 ns, 128,000 B sent (1000 units of 128 B), 12,800 B
// queued (100 units): word = 9 << 60 | 1000 << 36 | 1000 << 16 | 100 = 0x90003E8003E80064.
TEST(IntHeader, ByteLayoutAndRoundTrip)
{
    IntHop h = Hop100(1000, 128000, 12800);
    EXPECT_EQ(h.GetWord(), 0x90003E8003E80064ULL);
    EXPECT_EQ(h.GetRateCode(), 9u);
    EXPECT_EQ(h.GetLineRateBps(), 100000000000ULL);
    EXPECT_EQ(h.GetTimeNs(), 1000u);
    EXPECT_EQ(h.GetBytesField(), 1000u);
    EXPECT_EQ(h.GetQlenBytes(), 12800u);

    IntHeader empty;
    EXPECT_EQ(Bytes(empty), (std::vector<uint8_t>{0, 0, 0, 0}));
    IntHeader two;
    two.Push(h);
    two.Push(IntHop::Make(DataRate("40Gbps"), NanoSeconds(2), 256, 0)); // code 7, 2 ns, 2 units
    std::vector<uint8_t> expected = {0x02, 0x00, 0x00, 0x00, 0x90, 0x00, 0x3E, 0x80, 0x03, 0xE8,
                                     0x00, 0x64, 0x70, 0x00, 0x00, 0x20, 0x00, 0x02, 0x00, 0x00};
    EXPECT_EQ(Bytes(two), expected);
    EXPECT_EQ(two.GetSerializedSize(), 4u + 2 * 8);
    IntHeader back;
    EXPECT_EQ(PacketOf(expected)->RemoveHeader(back), 20u);
    ASSERT_EQ(back.GetNHops(), 2u);
    EXPECT_EQ(back.GetHop(0).GetWord(), h.GetWord());
    EXPECT_EQ(back.GetHop(1).GetLineRateBps(), 40000000000ULL);
    EXPECT_EQ(back.GetHop(1).GetTimeNs(), 2u);
    EXPECT_EQ(back.GetHop(1).GetBytesField(), 2u);

    // at most MAX_HOPS records; a count above it, or too few bytes, is not a header
    IntHeader full;
    for (uint32_t i = 0; i < IntHeader::MAX_HOPS; ++i)
    {
        EXPECT_TRUE(full.Push(h));
    }
    EXPECT_FALSE(full.Push(h));
    EXPECT_EQ(full.GetSerializedSize(), 44u);
    IntHeader bad;
    EXPECT_EQ(PacketOf({6, 0, 0, 0})->RemoveHeader(bad), 0u);
    EXPECT_EQ(PacketOf({1, 0, 0, 0, 1, 2, 3})->RemoveHeader(bad), 0u);
    EXPECT_EQ(bad.GetNHops(), 0u);
}

TEST(IntHeader, WrapsAndSaturates)
{
    // time modulo 2^24 ns: from 2^24 - 100 to 100 (next period) is 200 ns
    IntHop a = Hop100((1 << 24) - 100, 0, 0);
    IntHop b = Hop100((1 << 24) + 100, 0, 0);
    EXPECT_EQ(b.GetTimeDeltaNs(a), 200u);
    // bytes modulo 2^20 x 128: from (2^20 - 1) units to 1 unit is 2 units = 256 B
    IntHop c = Hop100(0, ((1ULL << 20) - 1) * 128, 0);
    IntHop d = Hop100(0, ((1ULL << 20) + 1) * 128, 0);
    EXPECT_EQ(d.GetBytesDelta(c), 256u);
    // the queue length saturates at 65535 x 128 B
    EXPECT_EQ(Hop100(0, 0, 100000000).GetQlenBytes(), 65535u * 128);
    // a rate without a code is refused, naming it
    test::ExpectInvalid(
        []
        {
            IntHop::Make(DataRate("33Gbps"), Time(0), 0, 0);
        },
        "33000000000 b/s");
    EXPECT_TRUE(IntHop::CanEncodeRate(DataRate("25Gbps")));
    EXPECT_FALSE(IntHop::CanEncodeRate(DataRate("20.4Gbps")));
}

// A data packet with the BTH INT bit (byte 4 = 0x20) carries the stack after the BTH; an ACK
// after the AETH; the IPv4 and UDP lengths include it.
TEST(IntHeader, RoceHeaderCarriesTheStack)
{
    RoceHeader data;
    data.Bth().SetOpcode(BthHeader::OPCODE_RC_SEND_MIDDLE);
    data.Bth().SetIntPresent(true);
    data.Int().Push(Hop100(1000, 128000, 12800));
    data.SetPayloadBytes(1004);
    EXPECT_EQ(data.GetSerializedSize(), 40u + 12);
    std::vector<uint8_t> bytes = Bytes(data);
    ASSERT_EQ(bytes.size(), 52u);
    EXPECT_EQ(bytes[32], 0x20);                                     // BTH byte 4: INT
    EXPECT_EQ((bytes[2] << 8) | bytes[3], 20 + 8 + 12 + 12 + 1004); // IPv4 total length
    EXPECT_EQ(bytes[40], 1);                                        // hop count after the BTH
    EXPECT_EQ(bytes[44], 0x90);
    Ptr<Packet> p = PacketOf(bytes);
    p->AddPaddingAtEnd(1004);
    RoceHeader back;
    EXPECT_EQ(p->RemoveHeader(back), 52u);
    EXPECT_TRUE(back.HasInt());
    EXPECT_EQ(back.Int().GetNHops(), 1u);
    EXPECT_EQ(back.GetPayloadBytes(), 1004u);

    RoceHeader ack;
    ack.Bth().SetOpcode(BthHeader::OPCODE_RC_ACK);
    ack.Bth().SetIntPresent(true);
    ack.Int().Push(Hop100(1, 2 * 128, 0));
    ack.Int().Push(Hop100(3, 4 * 128, 0));
    ack.SetPayloadBytes(4);
    EXPECT_EQ(ack.GetSerializedSize(), 40u + 4 + 4 + 16);
    bytes = Bytes(ack);
    EXPECT_EQ(bytes[44], 2); // hop count after the AETH
    RoceHeader ackBack;
    p = PacketOf(bytes);
    p->AddPaddingAtEnd(4);
    EXPECT_EQ(p->RemoveHeader(ackBack), 64u);
    EXPECT_EQ(ackBack.Int().GetNHops(), 2u);
    EXPECT_EQ(ackBack.Int().GetHop(1).GetTimeNs(), 3u);

    // without the bit: no stack, the same 40 bytes as before INT existed
    RoceHeader plain;
    EXPECT_FALSE(plain.HasInt());
    EXPECT_EQ(plain.GetSerializedSize(), 40u);
}

TEST(Hpcc, StartsAtTheBdpAndAsksForHopRecords)
{
    HpccCase c;
    c.cc->Init(c.flow);
    EXPECT_TRUE(c.cc->WantsHopRecords());
    EXPECT_FALSE(c.cc->WantsRttSamples());
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000);
    EXPECT_EQ(c.flow->m_cwnd.Get(), 125000u);
    EXPECT_EQ(c.flow->m_rate.Get(), DataRate("100Gbps"));
    EXPECT_DOUBLE_EQ(c.cc->GetWindowAi(), 50);
    EXPECT_DOUBLE_EQ(c.cc->GetU(), 1);
    // an ACK without records (the bytes a NAK acknowledges) changes nothing
    RdmaAckInfo none;
    none.ackedOffset = 1000;
    c.cc->OnAck(c.flow, none);
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000);
}

// The arithmetic of Algorithm 1, by hand:
// ACK 1 (t = 1000 ns, 0 B sent, 25,600 B queued): stored; lastUpdateSeq = 50,000.
// ACK 2 (acks 51,000 > 50,000: an update; t + 10,240 ns, 128,000 B more, 12,800 B queued):
//   txRate = 128,000 x 8 / 10.24 us = 100 Gb/s -> txRate / B = 1;
//   min(12,800, 25,600) x 8 / (100 Gb/s x 10 us) = 102,400 / 1e6 = 0.1024; u = 1.1024;
//   tau = min(10.24, 10) us = T -> U = 1.1024 >= eta:
//   W = 125,000 / (1.1024 / 0.95) + 50 = 107,769.521 B; W_c = W; incStage 0;
//   rate = W x 8 / 10 us = 86.2156 Gb/s; lastUpdateSeq = 100,000.
// ACK 3 (acks 52,000 <= 100,000: per ACK; 5,120 ns later, 32,000 B more, 0 queued):
//   txRate = 32,000 x 8 / 5.12 us = 50 Gb/s -> u = 0.5 (min(0, 12,800) = 0);
//   U = (1.1024 x (10 - 5.12) + 0.5 x 5.12) / 10 = 0.7939712 < eta and incStage 0 < 5:
//   W = W_c + W_AI = 107,819.521 B; W_c and incStage unchanged.
// ACK 4 (acks 101,000 > 100,000: an update; 10,240 ns later, 64,000 B more, 0 queued):
//   u = 0.5, tau = T -> U = 0.5: W = W_c + 50 = 107,819.521; W_c = W; incStage 1.
TEST(Hpcc, HandComputedWindow)
{
    HpccCase c;
    c.cc->Init(c.flow);
    c.Ack(1000, 50000, Hop100(1000, 0, 25600));
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000); // the first records only
    EXPECT_DOUBLE_EQ(c.cc->GetU(), 1);

    c.Ack(51000, 100000, Hop100(11240, 128000, 12800));
    EXPECT_NEAR(c.cc->GetU(), 1.1024, 1e-12);
    const double w2 = 125000 * 0.95 / 1.1024 + 50;
    EXPECT_NEAR(w2, 107769.521, 1e-3);
    EXPECT_NEAR(c.cc->GetWindow(), w2, 1e-6);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), w2, 1e-6);
    EXPECT_EQ(c.cc->GetIncStage(), 0u);
    EXPECT_EQ(c.flow->m_cwnd.Get(), 107770u);
    EXPECT_NEAR(c.flow->m_rate.Get().GetBitRate(), 86.2156168e9, 1e3);

    c.Ack(52000, 100000, Hop100(16360, 160000, 0));
    EXPECT_NEAR(c.cc->GetU(), 0.7939712, 1e-12);
    EXPECT_NEAR(c.cc->GetWindow(), w2 + 50, 1e-6);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), w2, 1e-6); // per ACK: W_c stays
    EXPECT_EQ(c.cc->GetIncStage(), 0u);

    c.Ack(101000, 150000, Hop100(26600, 224000, 0));
    EXPECT_NEAR(c.cc->GetU(), 0.5, 1e-12);
    EXPECT_NEAR(c.cc->GetWindow(), w2 + 50, 1e-6);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), w2 + 50, 1e-6);
    EXPECT_EQ(c.cc->GetIncStage(), 1u);
}

// An ACK whose records have the same departure time as the previous ones measures nothing (as
// the simulator's updated_any): U, W, W_c and incStage stay; the next ACK is measured against
// those records.
TEST(Hpcc, NoMeasurementNoUpdate)
{
    HpccCase c;
    c.cc->Init(c.flow);
    c.Ack(1000, 50000, Hop100(1000, 0, 25600));
    c.Ack(51000, 100000, Hop100(1000, 128000, 12800)); // dt = 0
    EXPECT_DOUBLE_EQ(c.cc->GetU(), 1);
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000);
    EXPECT_DOUBLE_EQ(c.cc->GetReferenceWindow(), 125000);
    EXPECT_EQ(c.cc->GetIncStage(), 0u);
    // Then the hand-computed step of HandComputedWindow (dt 10,240 ns, 128,000 B, min queue
    // 12,800 B): U = 1.1024 and an update (the ACK passes lastUpdateSeq 50,000).
    c.Ack(52000, 100000, Hop100(11240, 256000, 12800));
    EXPECT_NEAR(c.cc->GetU(), 1.1024, 1e-12);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), 125000 * 0.95 / 1.1024 + 50, 1e-6);
}

// Records older than half the fields' shortest wrap period are only a new reference. At
// 100 Gb/s the byte field wraps every 2^20 x 128 B x 8 / 100 Gb/s = 10.74 ms (the time field
// every 16.78 ms), so after 6 ms the bytes sent (here 1 GB wrapped to a small difference) are not
// compared; 10 us later they are.
TEST(Hpcc, StaleRecordsAreOnlyAReference)
{
    HpccCase c;
    c.cc->Init(c.flow);
    c.Ack(1000, 50000, Hop100(1000, 0, 0));
    constexpr uint64_t wrap = (uint64_t{1} << IntHop::BYTES_BITS) * IntHop::BYTES_UNIT;
    Simulator::Schedule(MilliSeconds(6),
                        [&c]()
                        {
                            // one wrap (2^27 B) + 1,280 B sent since the first record
                            c.Ack(51000, 100000, Hop100(6001000, wrap + 1280, 0));
                        });
    Simulator::Run();
    EXPECT_DOUBLE_EQ(c.cc->GetU(), 1); // not measured: 1,280 B in 6 ms would read U = 0.0017
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000);
    Simulator::Schedule(MicroSeconds(10),
                        [&c]()
                        {
                            // 10,000 ns later, 125,000 B more
                            c.Ack(101000, 150000, Hop100(6011000, wrap + 1280 + 125000, 0));
                        });
    Simulator::Run();
    // The byte fields: (2^27 + 1,280) / 128 = 2^20 + 10 -> 10 units; (2^27 + 126,280) / 128 ->
    // 986 units: 976 units = 124,928 B in 10 us. tau = min(10 us, T = 10 us) = T, so
    // U = u = 124,928 x 8 / 10 us / 100 Gb/s = 0.999424 (no queue).
    EXPECT_NEAR(c.cc->GetU(), 0.999424, 1e-12);
    EXPECT_EQ(c.cc->GetIncStage(), 0u); // U >= eta: multiplicative
    Simulator::Destroy();
}

// After MaxStage additive steps the update is multiplicative even below eta: with U = 0.5,
// W = W_c / (0.5 / 0.95) + 50 = 1.9 W_c + 50, capped at the BDP (125,000 B).
// MaxStage 2: updates at U = 0.5 give W_c = 107,769.521 + 50, + 100, then 1.9 x ... -> 125,000.
TEST(Hpcc, MaxStageForcesTheMultiplicativeStep)
{
    HpccCase c;
    c.cc->SetAttribute("MaxStage", UintegerValue(2));
    c.cc->Init(c.flow);
    c.Ack(1000, 50000, Hop100(1000, 0, 25600));
    c.Ack(51000, 100000, Hop100(11240, 128000, 12800)); // W_c = 107,769.521 (as above)
    const double w2 = 125000 * 0.95 / 1.1024 + 50;
    uint64_t t = 11240;
    uint64_t tx = 128000;
    uint64_t seq = 100000;
    // each update: 10,240 ns, 64,000 B (u = 0.5, U = 0.5)
    auto update = [&]
    {
        t += 10240;
        tx += 64000;
        c.Ack(seq + 1000, seq + 50000, Hop100(t, tx, 0));
        seq += 50000;
    };
    update();
    EXPECT_EQ(c.cc->GetIncStage(), 1u);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), w2 + 50, 1e-6);
    update();
    EXPECT_EQ(c.cc->GetIncStage(), 2u);
    EXPECT_NEAR(c.cc->GetReferenceWindow(), w2 + 100, 1e-6);
    update(); // incStage 2 >= MaxStage: 1.9 x 107,869.5 + 50 > 125,000 -> the BDP
    EXPECT_EQ(c.cc->GetIncStage(), 0u);
    EXPECT_DOUBLE_EQ(c.cc->GetReferenceWindow(), 125000);
}

// A deep queue drives W to its floor MinRate x T = 125 B: u = 1 + 1,250,000 x 8 / 1e6 = 11,
// W = 125,000 / (11 / 0.95) + 50 = 10,845.45 B;
// the next update with the same: 10,845.45 / 11.5789 + 50 = 986.6 B; then 135.2 B; then the
// floor (125 B = 100 Mb/s).
TEST(Hpcc, WindowFloorIsMinRate)
{
    HpccCase c;
    c.cc->Init(c.flow);
    uint64_t t = 0;
    uint64_t tx = 0;
    uint64_t seq = 0;
    c.Ack(1000, 50000, Hop100(t, tx, 1280000));
    seq = 50000;
    std::vector<double> w;
    for (int i = 0; i < 4; ++i)
    {
        t += 10240;
        tx += 128000;
        c.Ack(seq + 1000, seq + 50000, Hop100(t, tx, 1250048)); // 9766 units of 128 B
        seq += 50000;
        w.push_back(c.cc->GetWindow());
    }
    // 1,250,048 B: u = 1 + 1,250,048 x 8 / 1e6 = 11.000384
    const double u = 1 + 1250048 * 8 / 1e6;
    EXPECT_NEAR(w[0], 125000 * 0.95 / u + 50, 1e-6);
    EXPECT_NEAR(w[1], w[0] * 0.95 / u + 50, 1e-6);
    EXPECT_NEAR(w[2], w[1] * 0.95 / u + 50, 1e-6);
    EXPECT_DOUBLE_EQ(w[3], 125);
    EXPECT_EQ(c.flow->m_rate.Get(), DataRate("100Mbps"));
}

// PerAckUpdate false: ACKs between updates are ignored (the records of the next update are
// compared with those of the previous update).
TEST(Hpcc, OncePerRttWithoutPerAckUpdate)
{
    HpccCase c;
    c.cc->SetAttribute("PerAckUpdate", BooleanValue(false));
    c.cc->Init(c.flow);
    c.Ack(1000, 50000, Hop100(1000, 0, 25600));
    c.Ack(2000, 50000, Hop100(6000, 100000, 500000)); // not an update: ignored
    EXPECT_DOUBLE_EQ(c.cc->GetWindow(), 125000);
    EXPECT_DOUBLE_EQ(c.cc->GetU(), 1);
    c.Ack(51000, 100000, Hop100(11240, 128000, 12800)); // as ACK 2 of HandComputedWindow
    EXPECT_NEAR(c.cc->GetU(), 1.1024, 1e-12);
}

TEST(Hpcc, BadValuesAreNamed)
{
    auto init = [](const std::string& attr, const AttributeValue& v, const std::string& needle)
    {
        HpccCase c;
        c.cc->SetAttribute(attr, v);
        test::ExpectInvalid(
            [&]
            {
                c.cc->Init(c.flow);
            },
            needle);
    };
    init("Eta", DoubleValue(0), "ns3::RdmaHpcc::Eta must be in (0, 1], got 0");
    init("Eta", DoubleValue(1.5), "got 1.5");
    init("MinRate", DataRateValue(DataRate(0)), "ns3::RdmaHpcc::MinRate must be > 0");
    init("MinRate", DataRateValue(DataRate("200Gbps")), "200000000000 b/s");
    init("BaseRtt", TimeValue(NanoSeconds(-5)), "ns3::RdmaHpcc::BaseRtt must be >= 0");
    HpccCase c;
    c.flow->m_baseRtt = Time(0);
    test::ExpectInvalid(
        [&]
        {
            c.cc->Init(c.flow);
        },
        "no base RTT");
    // BaseRtt overrides the flow's: T = 20 us -> W = 100 Gb/s x 20 us / 8 = 250,000 B
    HpccCase d;
    d.cc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(20)));
    d.cc->Init(d.flow);
    EXPECT_DOUBLE_EQ(d.cc->GetWindow(), 250000);
    EXPECT_DOUBLE_EQ(d.cc->GetWindowAi(), 100);
}

TEST(Hpcc, RegistersAPlainFifo)
{
    RdmaCcEntry e = RdmaCcRegistry::Lookup("hpcc");
    EXPECT_EQ(e.queueDisc, "ns3::RdmaEgressQueueDisc");
    EXPECT_TRUE(e.GetQueueAttributes(DataRate("100Gbps")).empty());
    EXPECT_EQ(RdmaCongestionOps::LookupTypeId("hpcc"), RdmaHpcc::GetTypeId());
}

namespace
{
/// Frame sizes (Ethernet header + L3, no FCS) seen arriving at a host's device, by size.
void
CountFrame(std::map<uint32_t, uint32_t>* sizes, Ptr<const Packet> frame)
{
    (*sizes)[frame->GetSize()]++;
}

/// The INT stack of the last ACK the sender received.
IntHeader g_lastAckStack;

/// Keep the INT stack of an ACK frame (Ethernet header first).
void
KeepAckStack(Ptr<const Packet> frame)
{
    Ptr<Packet> p = frame->Copy();
    p->RemoveAtStart(PfcNetDevice::ETH_HEADER_BYTES);
    RoceHeader roce;
    p->RemoveHeader(roce);
    g_lastAckStack = roce.Int();
}

/// Data frames at the receiver and ACK frames at the sender, host (0, 0) -> host (1, 0) of a
/// leaf-spine (3 switches: leaf, spine, leaf), 10 packets of 1000 B.
std::pair<std::map<uint32_t, uint32_t>, std::map<uint32_t, uint32_t>>
RunThreeSwitchPath(const std::string& cc)
{
    LeafSpineHelper ls(1, 2, 1);
    ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl(cc);
    SwitchQueueSettings sw;
    sw.Apply(fh, cc, MicroSeconds(1), DataRate("40Gbps"));
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 0), 10000, Time(0));
    std::map<uint32_t, uint32_t> data;
    std::map<uint32_t, uint32_t> acks;
    f->GetNic(ls.GetHost(1, 0))
        ->GetDevice()
        ->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&CountFrame, &data));
    f->GetNic(ls.GetHost(0, 0))
        ->GetDevice()
        ->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&CountFrame, &acks));
    f->GetNic(ls.GetHost(0, 0))
        ->GetDevice()
        ->TraceConnectWithoutContext("MacRx", MakeCallback(&KeepAckStack));
    g_lastAckStack.Clear();
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    return {data, acks};
}
} // namespace

// Data frame = Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + payload 1000 + ICRC 4 = 1058 B; with
// HPCC + INT 4 + 3 records x 8 = 1086 B. ACK = 14 + 40 + AETH 4 + ICRC 4 = 62 B; with HPCC +
// the echoed stack 28 = 90 B. DCQCN's frames carry no INT bytes.
TEST(Hpcc, FramesGrowByEightBytesPerSwitch)
{
    auto [data, acks] = RunThreeSwitchPath("hpcc");
    // the records, in path order: leaf 0 -> spine (100 Gb/s), spine -> leaf 1 (100 Gb/s),
    // leaf 1 -> the receiver (40 Gb/s), each stamped later than the one before (1 us links)
    IntHeader s = g_lastAckStack;
    ASSERT_EQ(s.GetNHops(), 3u);
    EXPECT_EQ(s.GetHop(0).GetLineRateBps(), 100000000000ULL);
    EXPECT_EQ(s.GetHop(1).GetLineRateBps(), 100000000000ULL);
    EXPECT_EQ(s.GetHop(2).GetLineRateBps(), 40000000000ULL);
    EXPECT_GT(s.GetHop(1).GetTimeDeltaNs(s.GetHop(0)), 1000u);
    EXPECT_GT(s.GetHop(2).GetTimeDeltaNs(s.GetHop(1)), 1000u);
    // the last packet left the receiver's leaf port after the 9 before it: 9 x 1110 B on the
    // wire (1086 + FCS 4 + preamble and gap 20) = 9990 B = 78 units of 128 B (rounded down)
    EXPECT_EQ(s.GetHop(2).GetBytesField(), 9990u / 128);
    EXPECT_EQ(data, (std::map<uint32_t, uint32_t>{{1086, 10}}));
    EXPECT_EQ(acks, (std::map<uint32_t, uint32_t>{{90, 10}}));
    auto [dData, dAcks] = RunThreeSwitchPath("dcqcn");
    EXPECT_EQ(dData, (std::map<uint32_t, uint32_t>{{1058, 10}}));
    EXPECT_EQ(dAcks, (std::map<uint32_t, uint32_t>{{62, 10}}));
}

namespace
{
/// HPCC's rate at 40 Gb/s: eta x the goodput ceiling, with frames of 1000 B payload + 82 B of
/// headers, FCS, preamble and gap + 12 B of INT (one record on a one-switch path):
/// 0.95 x 40 x 1000 / 1094 = 34.73 Gb/s.
constexpr double kHpccCeiling = 0.95 * 40.0 * 1000 / 1094;

/// The bottleneck (leaf -> receiver) queue over [from, to): mean and max in KB.
std::pair<double, double>
QueueStats(Ptr<FabricMonitor> mon, uint32_t leaf, uint32_t port, Time from, Time to)
{
    double sum = 0;
    double max = 0;
    uint64_t n = 0;
    for (const auto& [t, bytes] : mon->GetQueueSamples(leaf, port, false))
    {
        if (t >= from && t < to)
        {
            sum += bytes;
            n++;
            max = std::max(max, bytes / 1000.0);
        }
    }
    return {n ? sum / n / 1000.0 : 0, max};
}
} // namespace

// Two long flows into host (0, 2) of one leaf (40 Gb/s, 1 us links): A from 0, B from 1 ms,
// until 10 ms. Measured: see the printed line (doc/cc/hpcc.rst).
TEST(Convergence, Hpcc)
{
    const Time stop = MilliSeconds(10);
    test::TwoFlowScenario sc("hpcc", DataRate("40Gbps"), 4000000000ULL, MilliSeconds(1));
    Ptr<RdmaFabric> f = sc.fabric;
    Ptr<FabricMonitor> mon = sc.monitor;
    const uint32_t a = sc.a;
    const uint32_t b = sc.b;
    mon->AddQueueSample(sc.leaf, sc.bottleneckPort, false);
    mon->Start(MicroSeconds(10), stop);
    Simulator::Stop(stop);
    Simulator::Run();
    double alone = mon->GetAverageThroughput(a, MicroSeconds(100), MilliSeconds(1));
    double ra = mon->GetAverageThroughput(a, MilliSeconds(5), stop);
    double rb = mon->GetAverageThroughput(b, MilliSeconds(5), stop);
    const double fair = kHpccCeiling / 2;
    // converged: from then on, every 100 us has both flows within 10% of the share
    Time converged = Time::Max();
    const Time step = MicroSeconds(100);
    for (Time t = stop - step; t >= MilliSeconds(1); t -= step)
    {
        double ta = mon->GetAverageThroughput(a, t, t + step);
        double tb = mon->GetAverageThroughput(b, t, t + step);
        if (std::abs(ta - fair) > 0.1 * fair || std::abs(tb - fair) > 0.1 * fair)
        {
            break;
        }
        converged = t - MilliSeconds(1);
    }
    auto [qMean, qMax] = QueueStats(mon, sc.leaf, sc.bottleneckPort, MilliSeconds(5), stop);
    uint64_t pauses = test::TotalPauses(f);
    Simulator::Destroy();
    std::cout << "hpcc: A alone " << alone << " Gb/s; A " << ra << ", B " << rb
              << " Gb/s over 5-10 ms (share " << fair << "); within 10% from "
              << converged.As(Time::US) << " after B's start; bottleneck queue mean " << qMean
              << " KB, max " << qMax << " KB; pauses " << pauses << "\n";
    EXPECT_NEAR(alone, kHpccCeiling, 0.05 * kHpccCeiling);
    EXPECT_NEAR(ra, fair, 0.1 * fair);
    EXPECT_NEAR(rb, fair, 0.1 * fair);
    EXPECT_LT(converged, MilliSeconds(1));
    EXPECT_LT(qMean, 5.0);
    EXPECT_EQ(pauses, 0u);
}

namespace
{
struct IncastResult
{
    double qMeanKb{0}; //!< bottleneck queue mean over [200 us, end of the incast)
    double qMaxKb{0};  //!< its largest sample after 200 us
    double qPeakKb{0}; //!< its largest sample overall (the first RTT's burst)
    Time last;         //!< last completion
    uint64_t pauses{0};
};

/// 8 hosts send 2 MB each to a ninth (one leaf, 40 Gb/s, 1 us links) from t = 0.
IncastResult
RunIncast(const std::string& cc)
{
    LeafSpineHelper ls(1, 1, 9);
    Ptr<RdmaFabric> f = test::BuildFabric(ls, cc, DataRate("40Gbps"));
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->SetStopWhenDone(true);
    for (uint32_t i = 0; i < 8; ++i)
    {
        flows->AddFlow(ls.GetHost(0, i), ls.GetHost(0, 8), 2000000, Time(0));
    }
    IncastResult r;
    f->GetNic(ls.GetHost(0, 0)); // all NICs: record the last completion
    for (uint32_t i = 0; i < 8; ++i)
    {
        f->GetNic(ls.GetHost(0, i))
            ->TraceConnectWithoutContext("FlowComplete",
                                         MakeCallback(+[](Time* last, const RdmaFlowRecord& rec)
                                                      {
                                                          *last = std::max(*last, rec.end);
                                                      })
                                             .Bind(&r.last));
    }
    Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
    uint32_t leaf = ls.GetLeaf(0);
    uint32_t port = f->GetPort(leaf, ls.GetHost(0, 8));
    mon->AddQueueSample(leaf, port, false);
    mon->Start(MicroSeconds(1), MilliSeconds(20));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();
    std::tie(r.qMeanKb, r.qMaxKb) = QueueStats(mon, leaf, port, MicroSeconds(200), r.last);
    r.qPeakKb = QueueStats(mon, leaf, port, Time(0), r.last).second;
    r.pauses = test::TotalPauses(f);
    Simulator::Destroy();
    std::cout << cc << " 8-to-1 incast of 2 MB flows: last completion " << r.last.As(Time::US)
              << "; bottleneck queue after 200 us mean " << r.qMeanKb << " KB, max " << r.qMaxKb
              << " KB (peak " << r.qPeakKb << " KB); pauses " << r.pauses << "\n";
    return r;
}
} // namespace

// HPCC keeps the incast's queue near zero after the first RTTs; DCQCN (the same scenario, its
// RED-ECN queue) holds a standing queue. 8 x 2 MB at 34.7 Gb/s take at least 3.7 ms.
TEST(Hpcc, IncastKeepsTheQueueNearZero)
{
    IncastResult h = RunIncast("hpcc");
    IncastResult d = RunIncast("dcqcn");
    EXPECT_LT(h.qMeanKb, 5.0);
    EXPECT_LT(h.qMeanKb, d.qMeanKb / 4);
    EXPECT_LT(h.last, MilliSeconds(5));
}
