/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cnp-header.h"

#include "ns3/log.h"
#include "rate-field.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CnpHeader");
NS_OBJECT_ENSURE_REGISTERED(CnpHeader);

TypeId
CnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<CnpHeader>();
    return tid;
}

TypeId
CnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

CnpHeader::CnpHeader()
    : m_congested(true)
    , m_recRateMbps(0)
{
}

void
CnpHeader::Print(std::ostream& os) const
{
    os << "congested=" << (m_congested ? 1 : 0) << " recRate=" << m_recRateMbps << "Mbps";
}

uint32_t
CnpHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
CnpHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_congested ? 0x01 : 0x00);
    i.WriteU8(0, 3);
    i.WriteHtonU32(m_recRateMbps);
    i.WriteU8(0, 8);
}

uint32_t
CnpHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0; // a truncated header: read nothing rather than past the end of the buffer
    }
    Buffer::Iterator i = start;
    m_congested = (i.ReadU8() & 0x01) != 0;
    i.Next(3);
    m_recRateMbps = i.ReadNtohU32();
    i.Next(8);
    return i.GetDistanceFrom(start);
}

void
CnpHeader::SetCongested(bool congested)
{
    m_congested = congested;
}

bool
CnpHeader::IsCongested() const
{
    return m_congested;
}

void
CnpHeader::SetReceiveRate(DataRate rate)
{
    m_recRateMbps = RateToMbpsField(rate);
}

DataRate
CnpHeader::GetReceiveRate() const
{
    return MbpsFieldToRate(m_recRateMbps);
}

uint32_t
CnpHeader::GetReceiveRateMbps() const
{
    return m_recRateMbps;
}

} // namespace ns3
