/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_TEST_ITEMS_H
#define DCON_TEST_ITEMS_H

// Shared by the tests: build the switch's parsed packet the way RdmaSwitch does; count a
// fabric's PAUSE frames; expect a bad-input error that names the bad value; a header's bytes;
// a whole file.

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/roce-header.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace test
{

/**
 * \brief A RoCEv2 packet as a switch queues it: 10.0.0.1 -> 10.0.0.2, UDP sport -> 4791.
 * \param sport UDP source port (tells flows apart)
 * \param ipBytes IP packet size, headers included (>= 40: IPv4 + UDP + BTH)
 * \param ecn the ECN codepoint
 * \param inPort ingress port
 * \return the item (priority 3)
 */
inline Ptr<RdmaQueueDiscItem>
MakeRoceItem(uint16_t sport,
             uint32_t ipBytes,
             Ipv4Header::EcnType ecn = Ipv4Header::ECN_ECT0,
             uint32_t inPort = 0)
{
    if (ipBytes < RoceHeader::BASE_BYTES)
    {
        throw std::invalid_argument("MakeRoceItem: " + std::to_string(ipBytes)
                                    + " bytes is less than an IPv4 + UDP + BTH header");
    }
    RoceHeader roce;
    roce.SetSource(Ipv4Address("10.0.0.1"));
    roce.SetDestination(Ipv4Address("10.0.0.2"));
    roce.SetEcn(ecn);
    roce.SetSourcePort(sport);
    roce.Bth().SetOpcode(BthHeader::OPCODE_RC_SEND_MIDDLE);
    roce.SetPayloadBytes(ipBytes - RoceHeader::BASE_BYTES);
    RdmaFiveTuple t;
    t.src = roce.GetSource();
    t.dst = roce.GetDestination();
    t.sport = sport;
    t.dport = BthHeader::ROCEV2_UDP_PORT;
    Ptr<Packet> p = Create<Packet>(ipBytes - RoceHeader::BASE_BYTES);
    p->AddHeader(roce);
    return Create<RdmaQueueDiscItem>(p, roce.GetTos(), t, inPort, 3);
}

/**
 * \brief Sum of PAUSE frames (non-zero time) sent by every device of a fabric.
 * \param f the fabric
 * \return the count
 */
inline uint64_t
TotalPauses(Ptr<RdmaFabric> f)
{
    uint64_t n = 0;
    for (const auto& l : f->GetLinks())
    {
        n += l.devA->GetStats().pauseSent + l.devB->GetStats().pauseSent;
    }
    return n;
}

/**
 * \brief Expect \p f to throw std::invalid_argument with \p needle in its message.
 * \param f the call
 * \param needle text the message must contain (the bad value, or the setting's name)
 */
template <typename F>
void
ExpectInvalid(F f, const std::string& needle)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception; expected one naming '" << needle << "'";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
            << "message '" << e.what() << "' does not name '" << needle << "'";
    }
}

/**
 * \brief The bytes a header puts on the wire.
 * \param h the header
 * \return its serialized bytes
 */
inline std::vector<uint8_t>
WireBytes(const Header& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    std::vector<uint8_t> v(p->GetSize());
    p->CopyData(v.data(), v.size());
    return v;
}

/**
 * \brief A whole file's bytes ("" when it cannot be read: the comparisons then fail).
 * \param path the file
 * \return its bytes
 */
inline std::string
Slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace test
} // namespace ns3

#endif /* DCON_TEST_ITEMS_H */
