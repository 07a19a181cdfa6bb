/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-disc-item.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/roce-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueueDiscItem");

RdmaQueueDiscItem::RdmaQueueDiscItem(
    Ptr<Packet> p, uint8_t tos, const RdmaFiveTuple& tuple, uint32_t inPort, uint8_t priority)
    : QueueDiscItem(p, Address(), 0x0800)
    , m_tos(tos)
    , m_tuple(tuple)
    , m_inPort(inPort)
    , m_priority(priority)
    , m_size(p->GetSize())
    , m_packet(PeekPointer(p))
{
    m_fields.src = tuple.src.Get();
    m_fields.dst = tuple.dst.Get();
    m_fields.sport = tuple.sport;
    m_fields.dport = tuple.dport;
    m_fields.protocol = tuple.protocol;
    m_fields.tos = tos;
}

RdmaQueueDiscItem::RdmaQueueDiscItem(Ptr<Packet> p,
                                     const Ipv4Fields& fields,
                                     uint32_t inPort,
                                     uint8_t priority)
    : QueueDiscItem(p, Address(), 0x0800)
    , m_tos(fields.tos)
    , m_collectsHops(fields.collectsHops)
    , m_fields(fields)
    , m_inPort(inPort)
    , m_priority(priority)
    , m_size(p->GetSize())
    , m_packet(PeekPointer(p))
{
}

RdmaFiveTuple
RdmaQueueDiscItem::Ipv4Fields::Tuple() const
{
    RdmaFiveTuple t;
    t.src = Ipv4Address(src);
    t.dst = Ipv4Address(dst);
    t.sport = sport;
    t.dport = dport;
    t.protocol = protocol;
    return t;
}

RdmaQueueDiscItem::~RdmaQueueDiscItem() {}

bool
RdmaQueueDiscItem::ParseIpv4(const Ptr<const Packet>& p, Ipv4Fields& fields)
{
    // IPv4 (20) + UDP (8) + BTH up to its flags byte (opcode at 28, INT bit at 32)
    constexpr uint32_t BTH_AT = 28;
    uint8_t b[BTH_AT + BthHeader::FLAGS_BYTE + 1];
    uint32_t n = p->CopyData(b, sizeof(b));
    if (n < 20 || b[0] != 0x45) // version 4, header length 5 words
    {
        return false; // not IPv4, or options (our NICs never send them)
    }
    auto be32 = [&b](int i)
    {
        return (uint32_t(b[i]) << 24) | (uint32_t(b[i + 1]) << 16) | (uint32_t(b[i + 2]) << 8)
               | uint32_t(b[i + 3]);
    };
    fields.tos = b[1];
    fields.protocol = b[9];
    fields.src = be32(12);
    fields.dst = be32(16);
    fields.sport = 0;
    fields.dport = 0;
    fields.collectsHops = false;
    if (fields.protocol == UDP_PROTOCOL && n >= 24)
    {
        fields.sport = static_cast<uint16_t>((b[20] << 8) | b[21]);
        fields.dport = static_cast<uint16_t>((b[22] << 8) | b[23]);
        if (fields.dport == BthHeader::ROCEV2_UDP_PORT && n == sizeof(b))
        {
            fields.collectsHops = b[BTH_AT] != BthHeader::OPCODE_RC_ACK
                                  && (b[BTH_AT + BthHeader::FLAGS_BYTE] & BthHeader::INT_BIT) != 0;
        }
    }
    return true;
}

uint32_t
RdmaQueueDiscItem::GetSize() const
{
    return m_size;
}

void
RdmaQueueDiscItem::AddHeader()
{
    if (!m_remarked)
    {
        return;
    }
    if (m_fields.protocol == UDP_PROTOCOL && m_fields.dport == BthHeader::ROCEV2_UDP_PORT)
    {
        // RdmaNic puts the IPv4, UDP and BTH headers on as one RoceHeader: rewrite it as a
        // whole so that the packet's metadata (when enabled) stays consistent.
        RoceHeader roce;
        GetPacket()->RemoveHeader(roce);
        roce.SetTos(m_tos);
        GetPacket()->AddHeader(roce);
    }
    else
    {
        Ipv4Header ip;
        GetPacket()->RemoveHeader(ip);
        ip.SetTos(m_tos);
        GetPacket()->AddHeader(ip);
    }
    m_remarked = false;
}

void
RdmaQueueDiscItem::SetCollectsHops(bool collects)
{
    m_collectsHops = collects;
}

bool
RdmaQueueDiscItem::CollectsHops() const
{
    return m_collectsHops;
}

void
RdmaQueueDiscItem::AddIntHop(const IntHop& hop)
{
    NS_ASSERT_MSG(m_collectsHops, "AddIntHop on a packet without an INT stack");
    RoceHeader roce;
    Ptr<Packet> p = GetPacket();
    p->RemoveHeader(roce);
    uint32_t payload = roce.GetPayloadBytes();
    roce.SetTos(m_tos);
    roce.Int().Push(hop);
    roce.SetPayloadBytes(payload); // the IPv4 and UDP lengths grow with the stack
    p->AddHeader(roce);
    m_remarked = false;
}

bool
RdmaQueueDiscItem::Mark()
{
    uint8_t ecn = m_tos & 0x03;
    if (ecn == Ipv4Header::ECN_NotECT)
    {
        return false;
    }
    if (ecn != Ipv4Header::ECN_CE)
    {
        m_tos |= Ipv4Header::ECN_CE;
        m_remarked = true;
    }
    return true;
}

bool
RdmaQueueDiscItem::IsCe() const
{
    return (m_tos & 0x03) == Ipv4Header::ECN_CE;
}

void
RdmaQueueDiscItem::Print(std::ostream& os) const
{
    const RdmaFiveTuple& t = GetFiveTuple();
    os << "tos=" << +m_tos << " " << t.src << ":" << t.sport << " > " << t.dst << ":" << t.dport
       << " in-port=" << m_inPort << " prio=" << +m_priority << " ";
    QueueDiscItem::Print(os);
}

bool
RdmaQueueDiscItem::GetUint8Value(Uint8Values field, uint8_t& value) const
{
    if (field == IP_DSFIELD)
    {
        value = m_tos;
        return true;
    }
    return false;
}

Ipv4Header
RdmaQueueDiscItem::GetHeader() const
{
    Ipv4Header ip;
    GetPacket()->PeekHeader(ip);
    ip.SetTos(m_tos);
    return ip;
}

const RdmaFiveTuple&
RdmaQueueDiscItem::GetFiveTuple() const
{
    if (!m_tuple)
    {
        m_tuple = m_fields.Tuple();
    }
    return *m_tuple;
}

uint32_t
RdmaQueueDiscItem::GetIngressPort() const
{
    return m_inPort;
}

uint8_t
RdmaQueueDiscItem::GetPriority() const
{
    return m_priority;
}

} // namespace ns3
