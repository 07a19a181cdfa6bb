/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Regression tests for what the libFuzzer targets (fuzz/) found: each test is one input that
// crashed a parser or broke one of its checks, with the behaviour it has now.
#include "ns3/aeth-header.h"
#include "ns3/bth-header.h"
#include "ns3/cnm-header.h"
#include "ns3/cnp-header.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hpcc-format.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/text-input.h"
#include "test-items.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using test::WireBytes;

/// Every proper prefix of a valid header's bytes is read as nothing: Deserialize used to read
/// past the end of the buffer (an NS_ASSERT in debug builds, out-of-bounds bytes otherwise).
template <typename H>
void
ExpectTruncatedReadsNothing(const H& valid)
{
    const std::vector<uint8_t> bytes = WireBytes(valid);
    ASSERT_EQ(bytes.size(), valid.GetSerializedSize());
    for (uint32_t n = 0; n < bytes.size(); ++n)
    {
        Ptr<Packet> p = Create<Packet>(bytes.data(), n);
        H h;
        EXPECT_EQ(p->RemoveHeader(h), 0U) << n << " bytes";
        EXPECT_EQ(p->GetSize(), n);
    }
    Ptr<Packet> whole = Create<Packet>(bytes.data(), bytes.size());
    H h;
    EXPECT_EQ(whole->RemoveHeader(h), bytes.size());
}

} // namespace

TEST(FuzzRegressionTest, TruncatedFixedSizeHeadersReadNothing)
{
    BthHeader bth;
    bth.SetDestQp(0x123456);
    bth.SetPsn(77);
    ExpectTruncatedReadsNothing(bth);
    AethHeader aeth;
    aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
    ExpectTruncatedReadsNothing(aeth);
    CnpHeader cnp;
    cnp.SetReceiveRate(DataRate("10Gbps"));
    ExpectTruncatedReadsNothing(cnp);
    CnmHeader cnm;
    cnm.SetDestQp(5);
    ExpectTruncatedReadsNothing(cnm);
    PfcHeader pfc;
    pfc.SetPauseTime(3, 0xFFFF);
    ExpectTruncatedReadsNothing(pfc);
}

TEST(FuzzRegressionTest, TruncatedRoceHeaderReadsNothing)
{
    RoceHeader data;
    data.SetSource(Ipv4Address("10.0.0.1"));
    data.SetDestination(Ipv4Address("10.0.0.2"));
    data.SetPayloadBytes(0);
    ExpectTruncatedReadsNothing(data);

    // An ACK opcode announces an AETH: IPv4 + UDP + BTH alone (40 bytes) are not a RoCEv2 ACK.
    RoceHeader ack = data;
    ack.Bth().SetOpcode(BthHeader::OPCODE_RC_ACK);
    ack.SetPayloadBytes(0);
    ASSERT_EQ(ack.GetSerializedSize(), RoceHeader::BASE_BYTES + AethHeader::SERIALIZED_SIZE);
    ExpectTruncatedReadsNothing(ack);
    const std::vector<uint8_t> bytes = WireBytes(ack);
    RoceHeader h;
    EXPECT_EQ(Create<Packet>(bytes.data(), RoceHeader::BASE_BYTES)->PeekHeader(h), 0U);
    EXPECT_EQ(h.GetProtocol(), 0); // nothing a NIC would take for UDP
}

// fuzz-text-input, input "\0\0\0\0\0\0\0\0\0\0" "0 2 100Gbps 1us 0" (maximum 0): ParseUnsigned
// returned 2 for "2" with max 0, because max - digit wrapped around. (No caller passed a maximum
// below 9, so no option or file was affected.)
TEST(FuzzRegressionTest, ParseUnsignedBelowOneDigit)
{
    EXPECT_EQ(textinput::ParseUnsigned("2", 0), std::nullopt);
    EXPECT_EQ(textinput::ParseUnsigned("9", 5), std::nullopt);
    EXPECT_EQ(textinput::ParseUnsigned("0", 0), std::optional<uint64_t>(0));
    EXPECT_EQ(textinput::ParseUnsigned("5", 5), std::optional<uint64_t>(5));
    EXPECT_EQ(textinput::ParseUnsigned("15", 15), std::optional<uint64_t>(15));
    EXPECT_EQ(textinput::ParseUnsigned("16", 15), std::nullopt);
    EXPECT_EQ(textinput::ParseUnsigned("18446744073709551615", UINT64_MAX),
              std::optional<uint64_t>(UINT64_MAX));
    EXPECT_EQ(textinput::ParseUnsigned("18446744073709551616", UINT64_MAX), std::nullopt);
}

// fuzz-text-input, input "\0 a\tb\r\n\v c \f": a token holding a NUL byte ended the message
// there (what() is a C string), so the error did not show the bad value. Control characters
// are now written as \xNN.
TEST(FuzzRegressionTest, ErrorMessageShowsControlCharacters)
{
    const std::string flows = std::string("1\n0 1 3 100 1") + '\0' + "\x1b 0\n";
    std::istringstream in(flows);
    try
    {
        ReadFlowFile(in, "f.flows");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "f.flows:2: flow size is not a non-negative integer, got '1\\x00\\x1b'");
    }
}

// fuzz-flow-size-cdf, input "# p 1 KB\n00 0.7\n+2e23 1\n": the CDF was accepted and its samples,
// up to 2e23 bytes, were converted to uint64_t by FlowSizeCdf::ToBytes: undefined behaviour
// (UBSan float-cast-overflow). Sizes above 2^53 bytes are now refused, and ToBytes refuses
// what no valid CDF gives.
TEST(FuzzRegressionTest, CdfSizeAboveTwoToThe53IsRefused)
{
    std::istringstream in("# p 1 KB\n00 0.7\n+2e23 1\n");
    try
    {
        FlowSizeCdf::Read(in, "p.cdf");
        FAIL() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind("p.cdf:3: flow size above 2^53 bytes", 0), 0U) << msg;
        EXPECT_NE(msg.find("got '+2e23'"), std::string::npos) << msg;
    }
    std::istringstream edge("0 0.5\n9007199254740992 1\n");
    const FlowSizeCdf cdf = FlowSizeCdf::Read(edge, "edge.cdf");
    EXPECT_EQ(FlowSizeCdf::ToBytes(FlowSizeCdf::MAX_SIZE_BYTES), 9007199254740992ULL);
    EXPECT_THROW(FlowSizeCdf::ToBytes(2e23), std::invalid_argument);
    EXPECT_THROW(FlowSizeCdf::ToBytes(std::nan("")), std::invalid_argument);
    EXPECT_EQ(FlowSizeCdf::ToBytes(-3.0), 1U);
}
