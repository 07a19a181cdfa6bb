/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: RdmaQueueDiscItem::ParseIpv4 (model/switch/rdma-queue-disc-item.h), the fields
// a switch forwards on, from arbitrary bytes, checked against ns-3's Ipv4Header and UdpHeader.
#include "fuzz-common.h"
#include "ns3/ipv4-header.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/udp-header.h"

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<Packet> p = Create<Packet>(data, static_cast<uint32_t>(size));
    RdmaQueueDiscItem::Ipv4Fields fields;
    if (!RdmaQueueDiscItem::ParseIpv4(p, fields))
    {
        FUZZ_CHECK(size < 20 || data[0] != 0x45);
        return 0;
    }
    FUZZ_CHECK(size >= 20 && data[0] == 0x45);
    Ptr<Packet> copy = p->Copy();
    Ipv4Header ip;
    FUZZ_CHECK(copy->RemoveHeader(ip) == 20);
    FUZZ_CHECK(fields.tos == ip.GetTos() && fields.protocol == ip.GetProtocol());
    FUZZ_CHECK(fields.Tuple().src == ip.GetSource() && fields.Tuple().dst == ip.GetDestination());
    if (ip.GetProtocol() == 17 && copy->GetSize() >= 8)
    {
        UdpHeader udp;
        copy->RemoveHeader(udp);
        FUZZ_CHECK(fields.sport == udp.GetSourcePort());
        FUZZ_CHECK(fields.dport == udp.GetDestinationPort());
    }
    else if (ip.GetProtocol() != 17 || copy->GetSize() < 4)
    {
        FUZZ_CHECK(fields.sport == 0 && fields.dport == 0);
    }
    return 0;
}
