/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceHeader);

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

bool
RoceHeader::HasAeth() const
{
    return m_bth.GetOpcode() == BthHeader::OPCODE_RC_ACK;
}

void
RoceHeader::SetPayloadBytes(uint32_t payloadBytes)
{
    uint32_t udpBytes = GetSerializedSize() - IPV4_BYTES + payloadBytes;
    m_ip.SetPayloadSize(static_cast<uint16_t>(udpBytes));
    m_udp.ForcePayloadSize(static_cast<uint16_t>(udpBytes));
}

void
RoceHeader::Print(std::ostream& os) const
{
    m_ip.Print(os);
    os << " ";
    m_udp.Print(os);
    os << " ";
    m_bth.Print(os);
    if (HasAeth())
    {
        os << " ";
        m_aeth.Print(os);
    }
}

uint32_t
RoceHeader::GetSerializedSize() const
{
    return BASE_BYTES + (HasAeth() ? AethHeader::SERIALIZED_SIZE : 0);
}

void
RoceHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    m_ip.Serialize(i);
    i.Next(IPV4_BYTES);
    m_udp.Serialize(i);
    i.Next(UDP_BYTES);
    m_bth.Serialize(i);
    if (HasAeth())
    {
        i.Next(BthHeader::SERIALIZED_SIZE);
        m_aeth.Serialize(i);
    }
}

uint32_t
RoceHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    i.Next(m_ip.Deserialize(i));
    i.Next(m_udp.Deserialize(i));
    i.Next(m_bth.Deserialize(i));
    if (HasAeth())
    {
        i.Next(m_aeth.Deserialize(i));
    }
    return i.GetDistanceFrom(start);
}

} // namespace ns3
