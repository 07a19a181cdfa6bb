/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Round-trip and exact-byte tests of the RoCEv2 / PFC / CNM headers and the flow-id helpers.
#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/cnm-header.h"
#include "ns3/cnp-header.h"
#include "ns3/hash.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-flow-id.h"
#include "ns3/roce-header.h"
#include "ns3/udp-header.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Serialize h into a packet in front of payloadBytes of payload, remove it into a fresh
/// object and check that exactly GetSerializedSize() bytes were used.
template <typename T>
T
RoundTrip(const T& h, uint32_t payloadBytes = 0)
{
    Ptr<Packet> p = Create<Packet>(payloadBytes);
    p->AddHeader(h);
    EXPECT_EQ(p->GetSize(), payloadBytes + h.GetSerializedSize());
    T out;
    uint32_t n = p->RemoveHeader(out);
    EXPECT_EQ(n, h.GetSerializedSize());
    EXPECT_EQ(p->GetSize(), payloadBytes);
    return out;
}

using test::WireBytes;

/// A packet holding exactly the given bytes.
Ptr<Packet>
PacketOf(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), bytes.size());
}

/// Reference CRC-16/ARC, bit by bit: reflected polynomial 0x8005 (0xA001), init 0, no xorout.
uint16_t
RefCrc16Arc(const uint8_t* data, size_t len)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < len; ++i)
    {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit)
        {
            crc = (crc & 1) ? static_cast<uint16_t>((crc >> 1) ^ 0xA001)
                            : static_cast<uint16_t>(crc >> 1);
        }
    }
    return crc;
}

template <typename T>
std::string
PrintToString(const T& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

/// The test flow 10.0.0.1:sport -> 10.0.0.2:4791, UDP.
RdmaFiveTuple
Tuple(uint16_t sport)
{
    RdmaFiveTuple t;
    t.src = Ipv4Address("10.0.0.1");
    t.dst = Ipv4Address("10.0.0.2");
    t.sport = sport;
    t.dport = 4791;
    return t;
}

} // namespace

// ---------------------------------------------------------------- BTH

TEST(BthHeaderTest, DefaultsAndConstants)
{
    BthHeader h;
    EXPECT_EQ(h.GetSerializedSize(), 12u);
    EXPECT_EQ(h.GetPartitionKey(), 0xFFFF);
    EXPECT_EQ(h.GetDestQp(), 0u);
    EXPECT_EQ(h.GetPsn(), 0u);
    EXPECT_FALSE(h.GetAckRequest());
    EXPECT_FALSE(h.GetFecn());
    EXPECT_FALSE(h.GetBecn());
    EXPECT_EQ(BthHeader::OPCODE_RC_SEND_FIRST, 0x00);
    EXPECT_EQ(BthHeader::OPCODE_RC_SEND_MIDDLE, 0x01);
    EXPECT_EQ(BthHeader::OPCODE_RC_SEND_LAST, 0x02);
    EXPECT_EQ(BthHeader::OPCODE_RC_SEND_ONLY, 0x04);
    EXPECT_EQ(BthHeader::OPCODE_RC_ACK, 0x11);
    EXPECT_EQ(BthHeader::OPCODE_CNP, 0x81);
    EXPECT_EQ(BthHeader::ROCEV2_UDP_PORT, 4791);
    EXPECT_EQ(h.GetInstanceTypeId().GetName(), "ns3::BthHeader");
}

TEST(BthHeaderTest, RoundTripAllFields)
{
    BthHeader h;
    h.SetOpcode(BthHeader::OPCODE_RC_SEND_MIDDLE);
    h.SetSolicitedEvent(true);
    h.SetMigrationRequest(true);
    h.SetPadCount(3);
    h.SetTransportVersion(5);
    h.SetPartitionKey(0x8001);
    h.SetFecn(true);
    h.SetBecn(true);
    h.SetDestQp(0xFEDCBA);
    h.SetAckRequest(true);
    h.SetPsn(0xABCDEF);

    BthHeader r = RoundTrip(h, 1000);
    EXPECT_EQ(r.GetOpcode(), BthHeader::OPCODE_RC_SEND_MIDDLE);
    EXPECT_TRUE(r.GetSolicitedEvent());
    EXPECT_TRUE(r.GetMigrationRequest());
    EXPECT_EQ(r.GetPadCount(), 3);
    EXPECT_EQ(r.GetTransportVersion(), 5);
    EXPECT_EQ(r.GetPartitionKey(), 0x8001);
    EXPECT_TRUE(r.GetFecn());
    EXPECT_TRUE(r.GetBecn());
    EXPECT_EQ(r.GetDestQp(), 0xFEDCBAu);
    EXPECT_TRUE(r.GetAckRequest());
    EXPECT_EQ(r.GetPsn(), 0xABCDEFu);

    // And with every flag off, so a bit stuck at 1 would show.
    BthHeader z;
    z.SetOpcode(BthHeader::OPCODE_CNP);
    BthHeader rz = RoundTrip(z);
    EXPECT_EQ(rz.GetOpcode(), 0x81);
    EXPECT_FALSE(rz.GetSolicitedEvent());
    EXPECT_FALSE(rz.GetMigrationRequest());
    EXPECT_EQ(rz.GetPadCount(), 0);
    EXPECT_EQ(rz.GetTransportVersion(), 0);
    EXPECT_FALSE(rz.GetFecn());
    EXPECT_FALSE(rz.GetBecn());
    EXPECT_FALSE(rz.GetAckRequest());
}

TEST(BthHeaderTest, ExactBytes)
{
    BthHeader h;
    h.SetOpcode(BthHeader::OPCODE_RC_SEND_ONLY);
    h.SetSolicitedEvent(true); // byte1 bit7 -> 0x80
    h.SetPadCount(2);          // byte1 bits5-4 = 10 -> 0x20; byte1 = 0xA0
    h.SetPartitionKey(0x1234);
    h.SetFecn(true); // byte4 = 0x80
    h.SetDestQp(0x0ABCDE);
    h.SetAckRequest(true); // byte8 = 0x80
    h.SetPsn(0x123456);
    std::vector<uint8_t> expected
        = {0x04, 0xA0, 0x12, 0x34, 0x80, 0x0A, 0xBC, 0xDE, 0x80, 0x12, 0x34, 0x56};
    EXPECT_EQ(WireBytes(h), expected);

    // MigReq (bit6) + TVer 1 -> byte1 = 0x41; BECN alone -> byte4 = 0x40; default P_Key FF FF.
    BthHeader g;
    g.SetOpcode(BthHeader::OPCODE_RC_ACK);
    g.SetMigrationRequest(true);
    g.SetTransportVersion(1);
    g.SetBecn(true);
    g.SetDestQp(1);
    g.SetPsn(0xFFFFFF);
    std::vector<uint8_t> expected2
        = {0x11, 0x41, 0xFF, 0xFF, 0x40, 0x00, 0x00, 0x01, 0x00, 0xFF, 0xFF, 0xFF};
    EXPECT_EQ(WireBytes(g), expected2);

    // Deserialize from hand-written bytes; reserved bits set to 1 are ignored (byte 4's bit 5
    // is the INT bit, BthHeader::SetIntPresent).
    std::vector<uint8_t> raw
        = {0x02, 0x00, 0xFF, 0xFF, 0x3F, 0x00, 0x01, 0x00, 0x7F, 0x00, 0x00, 0x2A};
    BthHeader d;
    PacketOf(raw)->RemoveHeader(d);
    EXPECT_EQ(d.GetOpcode(), BthHeader::OPCODE_RC_SEND_LAST);
    EXPECT_FALSE(d.GetFecn());
    EXPECT_FALSE(d.GetBecn());
    EXPECT_TRUE(d.GetIntPresent());
    EXPECT_EQ(d.GetDestQp(), 256u); // 0x000100
    EXPECT_FALSE(d.GetAckRequest());
    EXPECT_EQ(d.GetPsn(), 42u); // 0x2A
}

TEST(BthHeaderTest, RangeChecksAndPsnMask)
{
    BthHeader h;
    EXPECT_NO_THROW(h.SetDestQp(0xFFFFFF));
    EXPECT_THROW(h.SetDestQp(0x1000000), std::invalid_argument);
    EXPECT_EQ(h.GetDestQp(), 0xFFFFFFu); // unchanged by the rejected call
    EXPECT_THROW(h.SetPadCount(4), std::invalid_argument);
    EXPECT_THROW(h.SetTransportVersion(16), std::invalid_argument);
    // PSN wraps at 2^24: 0x01000005 & 0xFFFFFF = 5.
    h.SetPsn(0x01000005);
    EXPECT_EQ(h.GetPsn(), 5u);
    h.SetPsn(0xFFFFFFFF);
    EXPECT_EQ(h.GetPsn(), 0xFFFFFFu);
    try
    {
        h.SetDestQp(16777216);
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("16777216"), std::string::npos) << e.what();
    }
}

TEST(BthHeaderTest, Print)
{
    BthHeader h;
    h.SetOpcode(BthHeader::OPCODE_CNP);
    h.SetDestQp(77);
    h.SetPsn(1234);
    h.SetFecn(true);
    std::string s = PrintToString(h);
    EXPECT_NE(s.find("opcode=0x81"), std::string::npos) << s;
    EXPECT_NE(s.find("destQp=77"), std::string::npos) << s;
    EXPECT_NE(s.find("psn=1234"), std::string::npos) << s;
    EXPECT_NE(s.find("FECN"), std::string::npos) << s;
    EXPECT_EQ(s.find("BECN"), std::string::npos) << s;
}

TEST(HeadersPrintTest, PrintShowsFields)
{
    AethHeader a;
    a.SetNak(0);
    a.SetMsn(9);
    EXPECT_EQ(PrintToString(a), "NAK code=0 msn=9");
    CnpHeader c;
    c.SetReceiveRate(DataRate("25Gbps"));
    EXPECT_EQ(PrintToString(c), "congested=1 recRate=25000Mbps");
    PfcHeader p;
    p.SetPauseTime(3, 100);
    EXPECT_EQ(PrintToString(p), "opcode=0x0101 enable=0x08 p3=100");
    CnmHeader m;
    m.SetNumFlows(4);
    m.SetSource(Ipv4Address("10.0.0.1"));
    m.SetSourcePort(5);
    std::string s = PrintToString(m);
    EXPECT_NE(s.find("N=4"), std::string::npos) << s;
    EXPECT_NE(s.find("10.0.0.1:5->"), std::string::npos) << s;
    std::ostringstream os;
    os << Tuple(7);
    EXPECT_EQ(os.str(), "10.0.0.1:7->10.0.0.2:4791/17");
}

// ---------------------------------------------------------------- AETH

TEST(AethHeaderTest, AckNakRoundTrip)
{
    AethHeader a;
    EXPECT_EQ(a.GetSerializedSize(), 4u);
    EXPECT_TRUE(a.IsAck()); // default: ACK, credit 0x1F
    EXPECT_EQ(a.GetSyndrome(), 0x1F);

    a.SetAck(7);
    a.SetMsn(0x123456);
    AethHeader ra = RoundTrip(a, 64);
    EXPECT_TRUE(ra.IsAck());
    EXPECT_FALSE(ra.IsNak());
    EXPECT_EQ(ra.GetCreditCount(), 7);
    EXPECT_EQ(ra.GetSyndrome(), 0x07);
    EXPECT_EQ(ra.GetMsn(), 0x123456u);

    AethHeader n;
    n.SetNak();
    n.SetMsn(0x2000001); // masked: 0x2000001 & 0xFFFFFF = 1
    EXPECT_EQ(n.GetMsn(), 1u);
    AethHeader rn = RoundTrip(n);
    EXPECT_TRUE(rn.IsNak());
    EXPECT_FALSE(rn.IsAck());
    EXPECT_EQ(rn.GetNakCode(), AethHeader::NAK_PSN_SEQUENCE_ERROR);
    EXPECT_EQ(rn.GetSyndrome(), 0x60); // 011 00000
    EXPECT_EQ(rn.GetMsn(), 1u);

    EXPECT_THROW(a.SetAck(32), std::invalid_argument);
    EXPECT_THROW(a.SetNak(32), std::invalid_argument);
}

TEST(AethHeaderTest, ExactBytes)
{
    AethHeader n;
    n.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
    n.SetMsn(0x000102);
    std::vector<uint8_t> expected = {0x60, 0x00, 0x01, 0x02};
    EXPECT_EQ(WireBytes(n), expected);

    AethHeader a;
    a.SetAck(); // credit 0x1F -> syndrome 000 11111 = 0x1F
    a.SetMsn(0xABCDEF);
    std::vector<uint8_t> expected2 = {0x1F, 0xAB, 0xCD, 0xEF};
    EXPECT_EQ(WireBytes(a), expected2);
}

// ---------------------------------------------------------------- RoCE (IPv4 + UDP + BTH [+ AETH])

namespace
{

/// The same packet built the long way with ns-3's own headers: BTH (and AETH) then UDP then
/// IPv4, one AddHeader each.
Ptr<Packet>
SeparateHeaders(const RoceHeader& roce, uint32_t payloadBytes)
{
    Ptr<Packet> p = Create<Packet>(payloadBytes);
    if (roce.HasAeth())
    {
        p->AddHeader(roce.Aeth());
    }
    p->AddHeader(roce.Bth());
    UdpHeader udp; // its length comes from the buffer it is written into
    udp.SetSourcePort(roce.GetSourcePort());
    udp.SetDestinationPort(roce.GetDestinationPort());
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(roce.GetSource());
    ip.SetDestination(roce.GetDestination());
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetTos(roce.GetTos());
    ip.SetDontFragment();
    ip.SetPayloadSize(p->GetSize());
    p->AddHeader(ip);
    return p;
}

/// A RoCE header 10.0.0.1:49152 -> 10.0.0.2:4791, DSCP 24 (CS3), ECT(0), with the given opcode.
RoceHeader
SampleRoce(uint8_t opcode)
{
    RoceHeader roce;
    roce.SetSource(Ipv4Address("10.0.0.1"));
    roce.SetDestination(Ipv4Address("10.0.0.2"));
    roce.SetEcn(Ipv4Header::ECN_ECT0);
    roce.SetDscp(Ipv4Header::DSCP_CS3); // 24: the TOS byte is 24 << 2 | 2 = 0x62
    roce.SetSourcePort(49152);
    roce.Bth().SetOpcode(opcode);
    roce.Bth().SetDestQp(0x0A0B0C);
    roce.Bth().SetPsn(0x123456);
    roce.Aeth().SetNak();
    roce.Aeth().SetMsn(7);
    return roce;
}

std::vector<uint8_t>
AllBytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

} // namespace

TEST(RoceHeaderTest, SameBytesAsNs3Headers)
{
    // data (payload 1000 + ICRC), ACK/NAK (ICRC only), CNP (16 bytes + ICRC after the BTH)
    const std::vector<std::pair<uint8_t, uint32_t>> cases
        = {{BthHeader::OPCODE_RC_SEND_MIDDLE, 1004},
           {BthHeader::OPCODE_RC_SEND_ONLY, 5},
           {BthHeader::OPCODE_RC_ACK, 4},
           {BthHeader::OPCODE_CNP, 20}};
    for (const auto& [opcode, payload] : cases)
    {
        SCOPED_TRACE("opcode " + std::to_string(opcode));
        RoceHeader roce = SampleRoce(opcode);
        roce.SetPayloadBytes(payload);
        uint32_t headerBytes = opcode == BthHeader::OPCODE_RC_ACK ? 44 : 40;
        EXPECT_EQ(roce.GetSerializedSize(), headerBytes);
        Ptr<Packet> p = Create<Packet>(payload);
        p->AddHeader(roce);
        std::vector<uint8_t> bytes = AllBytes(p);
        EXPECT_EQ(bytes, AllBytes(SeparateHeaders(roce, payload)));
        // by hand: version/IHL, TOS, total length, DF, TTL, protocol, ports, UDP length, opcode
        ASSERT_EQ(bytes.size(), headerBytes + payload);
        EXPECT_EQ(bytes[0], 0x45);
        EXPECT_EQ(bytes[1], 0x62); // DSCP 24 << 2 | ECT(0) = 0x60 | 0x02
        EXPECT_EQ((bytes[2] << 8) | bytes[3], headerBytes + payload);
        EXPECT_EQ(bytes[6], 0x40);
        EXPECT_EQ(bytes[8], 64);
        EXPECT_EQ(bytes[9], 17);
        EXPECT_EQ((bytes[20] << 8) | bytes[21], 49152);
        EXPECT_EQ((bytes[22] << 8) | bytes[23], 4791);
        EXPECT_EQ((bytes[24] << 8) | bytes[25], headerBytes - 20 + payload);
        EXPECT_EQ(bytes[28], opcode);
        // ns-3's Ipv4Header reads the IPv4 part back; the payload length is what was set.
        Ipv4Header ip;
        p->PeekHeader(ip);
        EXPECT_EQ(ip.GetDscp(), Ipv4Header::DSCP_CS3);
        EXPECT_EQ(ip.GetEcn(), Ipv4Header::ECN_ECT0);
        EXPECT_EQ(roce.GetPayloadBytes(), payload);
    }
}

TEST(RoceHeaderTest, RemovesWhatNs3HeadersPutOn)
{
    RoceHeader ack = SampleRoce(BthHeader::OPCODE_RC_ACK);
    ack.SetPayloadBytes(4);
    Ptr<Packet> p = SeparateHeaders(ack, 4);
    RoceHeader out;
    EXPECT_EQ(p->RemoveHeader(out), 44u);
    EXPECT_EQ(p->GetSize(), 4u);
    EXPECT_EQ(out.GetSource(), Ipv4Address("10.0.0.1"));
    EXPECT_EQ(out.GetDestination(), Ipv4Address("10.0.0.2"));
    EXPECT_EQ(out.GetEcn(), Ipv4Header::ECN_ECT0);
    EXPECT_EQ(out.GetTos(), 0x62);
    EXPECT_EQ(out.GetTtl(), 64);
    EXPECT_EQ(out.GetProtocol(), 17);
    EXPECT_EQ(out.GetIpPayloadSize(), 28u);
    EXPECT_EQ(out.GetUdpLength(), 28u);
    EXPECT_EQ(out.GetPayloadBytes(), 4u); // the ICRC
    EXPECT_EQ(out.GetSourcePort(), 49152);
    EXPECT_EQ(out.GetDestinationPort(), 4791);
    EXPECT_EQ(out.Bth().GetDestQp(), 0x0A0B0Cu);
    EXPECT_EQ(out.Bth().GetPsn(), 0x123456u);
    EXPECT_TRUE(out.Aeth().IsNak());
    EXPECT_EQ(out.Aeth().GetMsn(), 7u);

    // A data packet has no AETH: its first payload bytes stay in the packet.
    RoceHeader data = SampleRoce(BthHeader::OPCODE_RC_SEND_LAST);
    data.SetPayloadBytes(100);
    Ptr<Packet> d = SeparateHeaders(data, 100);
    RoceHeader dout;
    EXPECT_EQ(d->RemoveHeader(dout), 40u);
    EXPECT_EQ(d->GetSize(), 100u);
    EXPECT_FALSE(dout.HasAeth());
    EXPECT_EQ(dout.Bth().GetOpcode(), BthHeader::OPCODE_RC_SEND_LAST);
    std::string printed = PrintToString(dout);
    EXPECT_NE(printed.find("10.0.0.1 > 10.0.0.2"), std::string::npos) << printed;
    EXPECT_NE(printed.find("49152 > 4791"), std::string::npos) << printed;
}

// A switch re-marking ECN removes the header and puts it back: every other byte must survive
// (ns-3's UdpHeader would write its length back 8 bytes short).
TEST(RoceHeaderTest, RemoveAndAddKeepsTheBytes)
{
    RoceHeader roce = SampleRoce(BthHeader::OPCODE_RC_SEND_FIRST);
    roce.SetPayloadBytes(1004);
    Ptr<Packet> p = SeparateHeaders(roce, 1004);
    std::vector<uint8_t> before = AllBytes(p);
    RoceHeader h;
    p->RemoveHeader(h);
    h.SetEcn(Ipv4Header::ECN_CE);
    p->AddHeader(h);
    std::vector<uint8_t> after = AllBytes(p);
    ASSERT_EQ(after.size(), before.size());
    EXPECT_EQ(after[1], 0x63);
    after[1] = before[1];
    EXPECT_EQ(after, before);
}

TEST(RoceHeaderTest, NotIpv4ReadsNothing)
{
    std::vector<uint8_t> bytes(48, 0);
    bytes[0] = 0x46; // IPv4 with options: not what a RoCE NIC sends
    Ptr<Packet> p = PacketOf(bytes);
    RoceHeader h;
    EXPECT_EQ(p->RemoveHeader(h), 0u);
    EXPECT_EQ(p->GetSize(), 48u);
    EXPECT_EQ(h.GetProtocol(), 0);
}

// ---------------------------------------------------------------- CNP

TEST(CnpHeaderTest, RoundTripAndBytes)
{
    CnpHeader d;
    EXPECT_EQ(d.GetSerializedSize(), 16u);
    EXPECT_TRUE(d.IsCongested()); // a DCQCN CNP means congestion
    EXPECT_EQ(d.GetReceiveRate().GetBitRate(), 0u);

    CnpHeader h;
    h.SetCongested(false);
    h.SetReceiveRate(DataRate("40Gbps"));
    CnpHeader r = RoundTrip(h, 10);
    EXPECT_FALSE(r.IsCongested());
    EXPECT_EQ(r.GetReceiveRate(), DataRate("40Gbps"));

    // 40 Gb/s = 40000 Mb/s = 0x00009C40; congested flag in byte 0 bit 0.
    h.SetCongested(true);
    std::vector<uint8_t> expected = {0x01,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x9C,
                                     0x40,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00,
                                     0x00};
    EXPECT_EQ(WireBytes(h), expected);
    EXPECT_TRUE(RoundTrip(h).IsCongested());
}

TEST(CnpHeaderTest, RateRounding)
{
    CnpHeader h;
    h.SetReceiveRate(DataRate(1499999)); // 1.499999 Mb/s -> 1
    EXPECT_EQ(h.GetReceiveRateMbps(), 1u);
    h.SetReceiveRate(DataRate(1500000)); // 1.5 Mb/s -> 2 (half up)
    EXPECT_EQ(h.GetReceiveRateMbps(), 2u);
    h.SetReceiveRate(DataRate(400000)); // 0.4 Mb/s -> 0
    EXPECT_EQ(h.GetReceiveRateMbps(), 0u);
    // 5e15 b/s = 5e9 Mb/s > 2^32 - 1 = 4294967295: saturates.
    h.SetReceiveRate(DataRate(5000000000000000ULL));
    EXPECT_EQ(h.GetReceiveRateMbps(), 0xFFFFFFFFu);
    EXPECT_EQ(h.GetReceiveRate().GetBitRate(), 4294967295ULL * 1000000ULL);
}

// ---------------------------------------------------------------- PFC

TEST(PfcHeaderTest, ConstantsAndDefaults)
{
    PfcHeader h;
    EXPECT_EQ(h.GetSerializedSize(), 46u);
    EXPECT_EQ(h.GetOpcode(), 0x0101);
    EXPECT_EQ(h.GetPriorityEnableVector(), 0);
    EXPECT_EQ(PfcHeader::ETHERTYPE, 0x8808);
    EXPECT_EQ(PfcHeader::OPCODE_PFC, 0x0101);
    EXPECT_EQ(PfcHeader::QUANTUM_BITS, 512u);
    EXPECT_EQ(PfcHeader::NUM_PRIORITIES, 8);
    EXPECT_EQ(PfcHeader::GetMulticastDestination(), Mac48Address("01:80:c2:00:00:01"));
    uint8_t mac[6];
    PfcHeader::GetMulticastDestination().CopyTo(mac);
    EXPECT_EQ(mac[0], 0x01);
    EXPECT_EQ(mac[2], 0xC2);
    EXPECT_EQ(mac[5], 0x01);
}

TEST(PfcHeaderTest, RoundTripAndBytes)
{
    PfcHeader h;
    h.SetPauseTime(0, 0x0102);
    h.SetPauseTime(3, 0xFFFF);
    h.SetPauseTime(7, 0); // enabled with time 0 = resume
    // vector = bit0 | bit3 | bit7 = 0x01 + 0x08 + 0x80 = 0x89
    EXPECT_EQ(h.GetPriorityEnableVector(), 0x89);

    PfcHeader r = RoundTrip(h);
    EXPECT_EQ(r.GetOpcode(), PfcHeader::OPCODE_PFC);
    EXPECT_EQ(r.GetPriorityEnableVector(), 0x89);
    for (uint8_t p = 0; p < 8; ++p)
    {
        bool en = (p == 0 || p == 3 || p == 7);
        EXPECT_EQ(r.IsEnabled(p), en) << "priority " << +p;
    }
    EXPECT_EQ(r.GetPauseTime(0), 0x0102);
    EXPECT_EQ(r.GetPauseTime(3), 0xFFFF);
    EXPECT_EQ(r.GetPauseTime(7), 0);
    EXPECT_EQ(r.GetPauseTime(1), 0);

    std::vector<uint8_t> expected = {
        0x01, 0x01, // opcode
        0x00, 0x89, // enable vector
        0x01, 0x02, // time[0]
        0x00, 0x00, // time[1]
        0x00, 0x00, // time[2]
        0xFF, 0xFF, // time[3]
        0x00, 0x00, // time[4]
        0x00, 0x00, // time[5]
        0x00, 0x00, // time[6]
        0x00, 0x00, // time[7]
    };
    expected.resize(46, 0x00); // 20 + 26 reserved zero bytes
    EXPECT_EQ(WireBytes(h), expected);
}

TEST(PfcHeaderTest, OtherOpcodeDeserializesAndIsReported)
{
    // An 802.3x PAUSE (opcode 0x0001, one 16-bit time) padded to 46 bytes.
    std::vector<uint8_t> raw(46, 0x00);
    raw[1] = 0x01;
    raw[2] = 0x00;
    raw[3] = 0x10;
    Ptr<Packet> p = PacketOf(raw);
    PfcHeader h;
    EXPECT_EQ(p->RemoveHeader(h), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(h.GetOpcode(), 0x0001);
    EXPECT_NE(h.GetOpcode(), PfcHeader::OPCODE_PFC);
}

TEST(PfcHeaderTest, PriorityRangeChecks)
{
    PfcHeader h;
    EXPECT_THROW(h.SetPauseTime(8, 1), std::invalid_argument);
    EXPECT_THROW(h.GetPauseTime(8), std::invalid_argument);
    EXPECT_THROW(h.IsEnabled(255), std::invalid_argument);
    EXPECT_EQ(h.GetPriorityEnableVector(), 0); // the rejected call changed nothing
}

TEST(PfcHeaderTest, QuantaTimeConversion)
{
    DataRate r100("100Gbps");
    // 1 quantum = 512 bits / 1e11 b/s = 5.12 ns = 5120 ps
    EXPECT_EQ(PfcHeader::QuantaToTime(1, r100), PicoSeconds(5120));
    // 65535 x 5120 ps = 335,539,200 ps
    EXPECT_EQ(PfcHeader::QuantaToTime(65535, r100), PicoSeconds(335539200));
    // 25 Gb/s: 512 / 2.5e10 = 20.48 ns
    EXPECT_EQ(PfcHeader::QuantaToTime(1, DataRate("25Gbps")), PicoSeconds(20480));
    EXPECT_EQ(PfcHeader::QuantaToTime(0, r100), Time(0));

    EXPECT_EQ(PfcHeader::TimeToQuanta(Time(0), r100), 0);
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(1), r100), 1);    // rounded up
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5120), r100), 1); // exact
    EXPECT_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5121), r100), 2); // rounded up
    // 1 us at 100 Gb/s = 1e5 bits = 195.3125 quanta -> 196
    EXPECT_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), r100), 196);
    // 1 ms at 100 Gb/s = 1e8 bits = 195312.5 quanta -> saturates at 65535
    EXPECT_EQ(PfcHeader::TimeToQuanta(MilliSeconds(1), r100), 65535);
    for (uint16_t q : {1, 2, 100, 1000, 65534, 65535})
    {
        EXPECT_EQ(PfcHeader::TimeToQuanta(PfcHeader::QuantaToTime(q, r100), r100), q);
    }

    EXPECT_THROW(PfcHeader::QuantaToTime(1, DataRate(0)), std::invalid_argument);
    EXPECT_THROW(PfcHeader::TimeToQuanta(MicroSeconds(1), DataRate(0)), std::invalid_argument);
    EXPECT_THROW(PfcHeader::TimeToQuanta(MicroSeconds(-1), r100), std::invalid_argument);
}

// ---------------------------------------------------------------- CNM

TEST(CnmHeaderTest, RoundTripAndBytes)
{
    CnmHeader h;
    EXPECT_EQ(h.GetSerializedSize(), 34u);
    EXPECT_EQ(CnmHeader::ETHERTYPE, 0x22E7);
    h.SetQntzFb(5);
    h.SetCpid(0x0102030405060708ULL);
    h.SetFlowId(0xBEEF);
    h.SetNumFlows(3);
    h.SetCapacity(DataRate("100Gbps")); // 100000 Mb/s = 0x000186A0
    h.SetSource(Ipv4Address("10.0.0.1"));
    h.SetDestination(Ipv4Address("10.0.1.2"));
    h.SetSourcePort(49152);                           // 0xC000
    h.SetDestinationPort(BthHeader::ROCEV2_UDP_PORT); // 4791 = 0x12B7
    h.SetDestQp(0xABCDEF);

    CnmHeader r = RoundTrip(h, 20);
    EXPECT_EQ(r.GetVersion(), 0);
    EXPECT_EQ(r.GetQntzFb(), 5);
    EXPECT_EQ(r.GetCpid(), 0x0102030405060708ULL);
    EXPECT_EQ(r.GetFlowId(), 0xBEEF);
    EXPECT_EQ(r.GetNumFlows(), 3);
    EXPECT_EQ(r.GetCapacity(), DataRate("100Gbps"));
    EXPECT_EQ(r.GetSource(), Ipv4Address("10.0.0.1"));
    EXPECT_EQ(r.GetDestination(), Ipv4Address("10.0.1.2"));
    EXPECT_EQ(r.GetSourcePort(), 49152);
    EXPECT_EQ(r.GetDestinationPort(), 4791);
    EXPECT_EQ(r.GetDestQp(), 0xABCDEFu);

    std::vector<uint8_t> expected = {
        0x00, 0x05,                                     // version 0 | reserved | QntzFb 5
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // CPID
        0xBE, 0xEF,                                     // flow id
        0x00, 0x03,                                     // N
        0x00, 0x01, 0x86, 0xA0,                         // C = 100000 Mb/s
        0x0A, 0x00, 0x00, 0x01,                         // src 10.0.0.1
        0x0A, 0x00, 0x01, 0x02,                         // dst 10.0.1.2
        0xC0, 0x00,                                     // sport 49152
        0x12, 0xB7,                                     // dport 4791
        0x00, 0xAB, 0xCD, 0xEF,                         // DestQP
    };
    EXPECT_EQ(WireBytes(h), expected);
}

TEST(CnmHeaderTest, RangeChecksAndRounding)
{
    CnmHeader h;
    EXPECT_THROW(h.SetQntzFb(64), std::invalid_argument);
    EXPECT_THROW(h.SetDestQp(0x1000000), std::invalid_argument);
    h.SetCapacity(DataRate("25.4Mbps")); // 25.4 -> 25
    EXPECT_EQ(h.GetCapacity(), DataRate("25Mbps"));
    h.SetCapacity(DataRate("25.5Mbps")); // 25.5 -> 26
    EXPECT_EQ(h.GetCapacity(), DataRate("26Mbps"));

    // Top 8 bits of the DestQP word are ignored when read; version is read back.
    std::vector<uint8_t> raw(34, 0x00);
    raw[0] = 0x30; // version 3
    raw[1] = 0x3F; // QntzFb 63
    raw[30] = 0xFF;
    raw[33] = 0x07;
    CnmHeader d;
    PacketOf(raw)->RemoveHeader(d);
    EXPECT_EQ(d.GetVersion(), 3);
    EXPECT_EQ(d.GetQntzFb(), 63);
    EXPECT_EQ(d.GetDestQp(), 7u);
}

// ---------------------------------------------------------------- flow id / ECMP

TEST(RdmaFlowIdTest, TupleComparison)
{
    RdmaFiveTuple a = Tuple(1000);
    RdmaFiveTuple b = Tuple(1000);
    EXPECT_EQ(a.protocol, 17);
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a < b);
    b.sport = 1001;
    EXPECT_FALSE(a == b);
    EXPECT_TRUE(a < b);
    EXPECT_FALSE(b < a);
    RdmaFiveTuple c = Tuple(0);
    c.src = Ipv4Address("10.0.0.2"); // src compares first
    EXPECT_TRUE(b < c);
    RdmaFiveTuple d = a;
    d.protocol = 6;
    EXPECT_FALSE(a == d);
    std::set<RdmaFiveTuple> s = {a, b, c, d, Tuple(1000)};
    EXPECT_EQ(s.size(), 4u);
}

TEST(RdmaFlowIdTest, Crc16MatchesReference)
{
    // The reference implementation gives the catalogued CRC-16/ARC check value.
    const char* check = "123456789";
    EXPECT_EQ(RefCrc16Arc(reinterpret_cast<const uint8_t*>(check), 9), 0xBB3D);

    // 10.0.0.1 -> 10.0.0.2, sport 0xC000, dport 4791 = 0x12B7, protocol 17 = 0x11.
    RdmaFiveTuple t = Tuple(0xC000);
    const uint8_t key[13]
        = {0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x02, 0xC0, 0x00, 0x12, 0xB7, 0x11};
    EXPECT_EQ(RdmaFlowCrc16(t), RefCrc16Arc(key, 13));
    auto bytes = RdmaFiveTupleBytes(t);
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), key));

    // A CRC16 changes with any single-field change that is less than 16 bits wide.
    EXPECT_NE(RdmaFlowCrc16(Tuple(0xC000)), RdmaFlowCrc16(Tuple(0xC001)));
    RdmaFiveTuple u = t;
    u.dst = Ipv4Address("10.0.0.3");
    EXPECT_NE(RdmaFlowCrc16(t), RdmaFlowCrc16(u));
    const uint8_t keyU[13]
        = {0x0A, 0x00, 0x00, 0x01, 0x0A, 0x00, 0x00, 0x03, 0xC0, 0x00, 0x12, 0xB7, 0x11};
    EXPECT_EQ(RdmaFlowCrc16(u), RefCrc16Arc(keyU, 13));
}

TEST(RdmaFlowIdTest, EcmpHashIsMurmurOfSeedAndKey)
{
    RdmaFiveTuple t = Tuple(0xC000);
    // seed 0x01020304 in network order, then the 13 key bytes.
    const uint8_t buf[17] = {0x01,
                             0x02,
                             0x03,
                             0x04,
                             0x0A,
                             0x00,
                             0x00,
                             0x01,
                             0x0A,
                             0x00,
                             0x00,
                             0x02,
                             0xC0,
                             0x00,
                             0x12,
                             0xB7,
                             0x11};
    EXPECT_EQ(RdmaEcmpHash(t, 0x01020304), Hash32(reinterpret_cast<const char*>(buf), sizeof(buf)));
    EXPECT_NE(RdmaEcmpHash(t, 0x01020304), RdmaEcmpHash(t, 0x01020305));
    EXPECT_EQ(RdmaEcmpHash(t, 7), RdmaEcmpHash(Tuple(0xC000), 7)); // deterministic
}

TEST(RdmaFlowIdTest, EcmpSpreadAndSeedIndependence)
{
    // 1000 flows over 8 ports: expected 125 per port (binomial sd = sqrt(1000/8*7/8) ~ 10.5),
    // so [90, 160] is more than 3 sd either side.
    const uint32_t nFlows = 1000;
    const uint32_t nPorts = 8;
    std::vector<uint32_t> seqA;
    std::vector<uint32_t> seqB;
    std::vector<uint32_t> countA(nPorts, 0);
    std::vector<uint32_t> countB(nPorts, 0);
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        RdmaFiveTuple t = Tuple(static_cast<uint16_t>(10000 + i));
        uint32_t a = RdmaEcmpHash(t, 1) % nPorts;
        uint32_t b = RdmaEcmpHash(t, 2) % nPorts;
        seqA.push_back(a);
        seqB.push_back(b);
        ++countA[a];
        ++countB[b];
    }
    for (uint32_t p = 0; p < nPorts; ++p)
    {
        EXPECT_GE(countA[p], 90u) << "seed 1 port " << p;
        EXPECT_LE(countA[p], 160u) << "seed 1 port " << p;
        EXPECT_GE(countB[p], 90u) << "seed 2 port " << p;
        EXPECT_LE(countB[p], 160u) << "seed 2 port " << p;
    }
    EXPECT_NE(seqA, seqB);
    // Independent choices agree on a flow with probability 1/8: about 125 of 1000 flows.
    // A polarized (e.g. seeded-CRC) hash would agree on all of them or on a fixed permutation.
    uint32_t same = 0;
    for (uint32_t i = 0; i < nFlows; ++i)
    {
        same += (seqA[i] == seqB[i]) ? 1 : 0;
    }
    EXPECT_GE(same, 80u);
    EXPECT_LE(same, 170u);
}

// The unordered-container hash: equal tuples hash equal; changing any one field changes it.
TEST(RdmaFlowIdTest, FiveTupleHashUsesEveryField)
{
    RdmaFiveTuple a;
    a.src = Ipv4Address("10.0.0.1");
    a.dst = Ipv4Address("10.0.0.2");
    a.sport = 49152;
    a.dport = 4791;
    a.protocol = 17;
    RdmaFiveTupleHash h;
    RdmaFiveTuple same = a;
    EXPECT_EQ(h(a), h(same));
    std::vector<RdmaFiveTuple> changed(5, a);
    changed[0].src = Ipv4Address("10.0.0.3");
    changed[1].dst = Ipv4Address("10.0.0.3");
    changed[2].sport = 49153;
    changed[3].dport = 4792;
    changed[4].protocol = 6;
    for (const auto& c : changed)
    {
        EXPECT_NE(h(a), h(c));
    }
    // splitmix64 seeded with 0 returns Mix(0x9E3779B97F4A7C15) first: 0xE220A8397B1DCDAF
    EXPECT_EQ(RdmaFiveTupleHash::Mix(0x9E3779B97F4A7C15ULL), 0xE220A8397B1DCDAFULL);
}
