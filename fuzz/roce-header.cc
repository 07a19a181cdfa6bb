/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: RoceHeader (IPv4 + UDP + BTH [+ AETH] [+ INT], model/wire/roce-header.h) read
// from arbitrary bytes, checked against ns-3's own Ipv4Header and UdpHeader.
#include "ns3/roce-header.h"

#include "fuzz-common.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    RoceHeader roce;
    const uint32_t n = dconfuzz::DeserializeAndCheck(data, size, roce);
    if (n == 0)
    {
        return 0;
    }
    FUZZ_CHECK(data[0] == 0x45); // IPv4 without options
    // BTH, then the AETH of an ACK, then the INT stack when the BTH's INT bit is set (HPCC)
    FUZZ_CHECK(n
               == RoceHeader::BASE_BYTES + (roce.HasAeth() ? AethHeader::SERIALIZED_SIZE : 0)
                      + (roce.HasInt() ? roce.Int().GetSerializedSize() : 0));
    FUZZ_CHECK(!roce.HasInt() || roce.Int().GetNHops() <= IntHeader::MAX_HOPS);
    Ptr<Packet> p = Create<Packet>(data, static_cast<uint32_t>(size));
    Ipv4Header ip;
    FUZZ_CHECK(p->RemoveHeader(ip) == RoceHeader::IPV4_BYTES);
    FUZZ_CHECK(ip.GetSource() == roce.GetSource() && ip.GetDestination() == roce.GetDestination());
    FUZZ_CHECK(ip.GetTos() == roce.GetTos() && ip.GetTtl() == roce.GetTtl());
    FUZZ_CHECK(ip.GetProtocol() == roce.GetProtocol());
    FUZZ_CHECK(ip.GetPayloadSize() == roce.GetIpPayloadSize());
    UdpHeader udp;
    FUZZ_CHECK(p->RemoveHeader(udp) == RoceHeader::UDP_BYTES);
    FUZZ_CHECK(udp.GetSourcePort() == roce.GetSourcePort());
    FUZZ_CHECK(udp.GetDestinationPort() == roce.GetDestinationPort());
    FUZZ_CHECK(roce.GetPayloadBytes() + n <= 0xFFFFu + RoceHeader::IPV4_BYTES);
    return 0;
}
