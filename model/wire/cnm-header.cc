/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cnm-header.h"

#include "ns3/log.h"
#include "rate-field.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CnmHeader");
NS_OBJECT_ENSURE_REGISTERED(CnmHeader);

TypeId
CnmHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CnmHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<CnmHeader>();
    return tid;
}

TypeId
CnmHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

CnmHeader::CnmHeader()
    : m_version(0)
    , m_qntzFb(0)
    , m_cpid(0)
    , m_flowId(0)
    , m_numFlows(0)
    , m_capacityMbps(0)
    , m_src(Ipv4Address::GetAny())
    , m_dst(Ipv4Address::GetAny())
    , m_sport(0)
    , m_dport(0)
    , m_destQp(0)
{
}

void
CnmHeader::Print(std::ostream& os) const
{
    os << "cpid=" << m_cpid << " flowId=" << m_flowId << " N=" << m_numFlows
       << " C=" << m_capacityMbps << "Mbps qntzFb=" << +m_qntzFb << " flow=" << m_src << ":"
       << m_sport << "->" << m_dst << ":" << m_dport << " destQp=" << m_destQp;
}

uint32_t
CnmHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
CnmHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(static_cast<uint16_t>(((m_version & 0x0F) << 12) | (m_qntzFb & MAX_QNTZ_FB)));
    i.WriteHtonU64(m_cpid);
    i.WriteHtonU16(m_flowId);
    i.WriteHtonU16(m_numFlows);
    i.WriteHtonU32(m_capacityMbps);
    i.WriteHtonU32(m_src.Get());
    i.WriteHtonU32(m_dst.Get());
    i.WriteHtonU16(m_sport);
    i.WriteHtonU16(m_dport);
    i.WriteHtonU32(m_destQp & MAX_DEST_QP);
}

uint32_t
CnmHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0; // a truncated header: read nothing rather than past the end of the buffer
    }
    Buffer::Iterator i = start;
    uint16_t first = i.ReadNtohU16();
    m_version = static_cast<uint8_t>(first >> 12);
    m_qntzFb = static_cast<uint8_t>(first & MAX_QNTZ_FB);
    m_cpid = i.ReadNtohU64();
    m_flowId = i.ReadNtohU16();
    m_numFlows = i.ReadNtohU16();
    m_capacityMbps = i.ReadNtohU32();
    m_src.Set(i.ReadNtohU32());
    m_dst.Set(i.ReadNtohU32());
    m_sport = i.ReadNtohU16();
    m_dport = i.ReadNtohU16();
    m_destQp = i.ReadNtohU32() & MAX_DEST_QP;
    return i.GetDistanceFrom(start);
}

uint8_t
CnmHeader::GetVersion() const
{
    return m_version;
}

void
CnmHeader::SetQntzFb(uint8_t qntzFb)
{
    if (qntzFb > MAX_QNTZ_FB)
    {
        throw std::invalid_argument("CnmHeader::SetQntzFb: QntzFb " + std::to_string(+qntzFb)
                                    + " does not fit in 6 bits (0..63)");
    }
    m_qntzFb = qntzFb;
}

uint8_t
CnmHeader::GetQntzFb() const
{
    return m_qntzFb;
}

void
CnmHeader::SetCpid(uint64_t cpid)
{
    m_cpid = cpid;
}

uint64_t
CnmHeader::GetCpid() const
{
    return m_cpid;
}

void
CnmHeader::SetFlowId(uint16_t flowId)
{
    m_flowId = flowId;
}

uint16_t
CnmHeader::GetFlowId() const
{
    return m_flowId;
}

void
CnmHeader::SetNumFlows(uint16_t numFlows)
{
    m_numFlows = numFlows;
}

uint16_t
CnmHeader::GetNumFlows() const
{
    return m_numFlows;
}

void
CnmHeader::SetCapacity(DataRate capacity)
{
    m_capacityMbps = RateToMbpsField(capacity);
}

DataRate
CnmHeader::GetCapacity() const
{
    return MbpsFieldToRate(m_capacityMbps);
}

void
CnmHeader::SetSource(Ipv4Address src)
{
    m_src = src;
}

Ipv4Address
CnmHeader::GetSource() const
{
    return m_src;
}

void
CnmHeader::SetDestination(Ipv4Address dst)
{
    m_dst = dst;
}

Ipv4Address
CnmHeader::GetDestination() const
{
    return m_dst;
}

void
CnmHeader::SetSourcePort(uint16_t port)
{
    m_sport = port;
}

uint16_t
CnmHeader::GetSourcePort() const
{
    return m_sport;
}

void
CnmHeader::SetDestinationPort(uint16_t port)
{
    m_dport = port;
}

uint16_t
CnmHeader::GetDestinationPort() const
{
    return m_dport;
}

void
CnmHeader::SetDestQp(uint32_t qp)
{
    if (qp > MAX_DEST_QP)
    {
        throw std::invalid_argument("CnmHeader::SetDestQp: QP number " + std::to_string(qp)
                                    + " does not fit in 24 bits (max 16777215)");
    }
    m_destQp = qp;
}

uint32_t
CnmHeader::GetDestQp() const
{
    return m_destQp;
}

} // namespace ns3
