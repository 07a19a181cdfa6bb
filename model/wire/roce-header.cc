/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

namespace
{
constexpr uint8_t IPV4_VERSION_IHL = 0x45; //!< version 4, 5 words of header
} // namespace

TypeId
RoceHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<RoceHeader>();
    return tid;
}

TypeId
RoceHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceHeader::RoceHeader() = default;

void
RoceHeader::SetSource(Ipv4Address src)
{
    m_source = src.Get();
}

Ipv4Address
RoceHeader::GetSource() const
{
    return Ipv4Address(m_source);
}

void
RoceHeader::SetDestination(Ipv4Address dst)
{
    m_destination = dst.Get();
}

Ipv4Address
RoceHeader::GetDestination() const
{
    return Ipv4Address(m_destination);
}

void
RoceHeader::SetTos(uint8_t tos)
{
    m_tos = tos;
}

uint8_t
RoceHeader::GetTos() const
{
    return m_tos;
}

void
RoceHeader::SetDscp(Ipv4Header::DscpType dscp)
{
    m_tos = static_cast<uint8_t>((dscp << 2) | (m_tos & 0x03));
}

void
RoceHeader::SetEcn(Ipv4Header::EcnType ecn)
{
    m_tos = static_cast<uint8_t>((m_tos & 0xFC) | (ecn & 0x03));
}

Ipv4Header::EcnType
RoceHeader::GetEcn() const
{
    return static_cast<Ipv4Header::EcnType>(m_tos & 0x03);
}

void
RoceHeader::SetTtl(uint8_t ttl)
{
    m_ttl = ttl;
}

uint8_t
RoceHeader::GetTtl() const
{
    return m_ttl;
}

uint8_t
RoceHeader::GetProtocol() const
{
    return m_protocol;
}

uint16_t
RoceHeader::GetIpPayloadSize() const
{
    return m_ipPayload;
}

void
RoceHeader::SetSourcePort(uint16_t port)
{
    m_sourcePort = port;
}

uint16_t
RoceHeader::GetSourcePort() const
{
    return m_sourcePort;
}

void
RoceHeader::SetDestinationPort(uint16_t port)
{
    m_destinationPort = port;
}

uint16_t
RoceHeader::GetDestinationPort() const
{
    return m_destinationPort;
}

uint16_t
RoceHeader::GetUdpLength() const
{
    return m_udpLength;
}

bool
RoceHeader::HasAeth() const
{
    return m_bth.GetOpcode() == BthHeader::OPCODE_RC_ACK;
}

bool
RoceHeader::HasInt() const
{
    return m_bth.GetIntPresent();
}

void
RoceHeader::SetPayloadBytes(uint32_t payloadBytes)
{
    uint32_t udpBytes = GetSerializedSize() - IPV4_BYTES + payloadBytes;
    m_ipPayload = static_cast<uint16_t>(udpBytes);
    m_udpLength = static_cast<uint16_t>(udpBytes);
}

uint32_t
RoceHeader::GetPayloadBytes() const
{
    uint32_t total = m_ipPayload + IPV4_BYTES;
    uint32_t header = GetSerializedSize();
    return total > header ? total - header : 0;
}

void
RoceHeader::Print(std::ostream& os) const
{
    os << "IPv4 " << GetSource() << " > " << GetDestination() << " tos 0x" << std::hex << +m_tos
       << std::dec << " ttl " << +m_ttl << " length " << m_ipPayload + IPV4_BYTES << " UDP "
       << m_sourcePort << " > " << m_destinationPort << " length " << m_udpLength << " ";
    m_bth.Print(os);
    if (HasAeth())
    {
        os << " ";
        m_aeth.Print(os);
    }
    if (HasInt())
    {
        os << " ";
        m_int.Print(os);
    }
}

uint32_t
RoceHeader::GetSerializedSize() const
{
    return BASE_BYTES + (HasAeth() ? AethHeader::SERIALIZED_SIZE : 0)
           + (HasInt() ? m_int.GetSerializedSize() : 0);
}

void
RoceHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(IPV4_VERSION_IHL);
    i.WriteU8(m_tos);
    i.WriteHtonU16(static_cast<uint16_t>(m_ipPayload + IPV4_BYTES));
    i.WriteHtonU16(m_identification);
    i.WriteHtonU16(m_flagsFragment);
    i.WriteU8(m_ttl);
    i.WriteU8(m_protocol);
    i.WriteHtonU16(0); // header checksum: not computed, as ns-3's Ipv4Header by default
    i.WriteHtonU32(m_source);
    i.WriteHtonU32(m_destination);
    i.WriteHtonU16(m_sourcePort);
    i.WriteHtonU16(m_destinationPort);
    i.WriteHtonU16(m_udpLength);
    i.WriteHtonU16(m_udpChecksum);
    m_bth.Serialize(i);
    i.Next(BthHeader::SERIALIZED_SIZE);
    if (HasAeth())
    {
        m_aeth.Serialize(i);
        i.Next(AethHeader::SERIALIZED_SIZE);
    }
    if (HasInt())
    {
        m_int.Serialize(i);
    }
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    if (i.GetRemainingSize() < BASE_BYTES || i.ReadU8() != IPV4_VERSION_IHL)
    {
        m_protocol = 0; // truncated, or not IPv4 without options: nothing for a RoCEv2 NIC
        return 0;
    }
    m_tos = i.ReadU8();
    m_ipPayload = static_cast<uint16_t>(i.ReadNtohU16() - IPV4_BYTES);
    m_identification = i.ReadNtohU16();
    m_flagsFragment = i.ReadNtohU16();
    m_ttl = i.ReadU8();
    m_protocol = i.ReadU8();
    i.Next(2); // header checksum
    m_source = i.ReadNtohU32();
    m_destination = i.ReadNtohU32();
    m_sourcePort = i.ReadNtohU16();
    m_destinationPort = i.ReadNtohU16();
    m_udpLength = i.ReadNtohU16();
    m_udpChecksum = i.ReadNtohU16();
    i.Next(m_bth.Deserialize(i));
    if (HasAeth())
    {
        if (i.GetRemainingSize() < AethHeader::SERIALIZED_SIZE)
        {
            m_protocol = 0; // an ACK opcode without room for its AETH
            return 0;
        }
        i.Next(m_aeth.Deserialize(i));
    }
    if (HasInt())
    {
        uint32_t n = m_int.Deserialize(i);
        if (n == 0)
        {
            m_protocol = 0; // the INT bit without a valid INT stack
            return 0;
        }
        i.Next(n);
    }
    else
    {
        m_int.Clear();
    }
    return i.GetDistanceFrom(start);
}

} // namespace ns3
