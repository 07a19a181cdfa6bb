/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-disc-item.h"

#include "ns3/log.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueueDiscItem");

RdmaQueueDiscItem::RdmaQueueDiscItem(Ptr<Packet> p,
                                     const Ipv4Header& header,
                                     const RdmaFiveTuple& tuple,
                                     uint32_t inPort,
                                     uint8_t priority)
    : QueueDiscItem(p, Address(), 0x0800)
    , m_header(header)
    , m_tuple(tuple)
    , m_inPort(inPort)
    , m_priority(priority)
    , m_size(p->GetSize() + header.GetSerializedSize())
{
}

RdmaQueueDiscItem::~RdmaQueueDiscItem() {}

uint32_t
RdmaQueueDiscItem::GetSize() const
{
    return m_size;
}

void
RdmaQueueDiscItem::AddHeader()
{
    GetPacket()->AddHeader(m_header);
}

bool
RdmaQueueDiscItem::Mark()
{
    Ipv4Header::EcnType ecn = m_header.GetEcn();
    if (ecn == Ipv4Header::ECN_NotECT)
    {
        return false;
    }
    m_header.SetEcn(Ipv4Header::ECN_CE);
    return true;
}

bool
RdmaQueueDiscItem::IsCe() const
{
    return m_header.GetEcn() == Ipv4Header::ECN_CE;
}

void
RdmaQueueDiscItem::Print(std::ostream& os) const
{
    os << m_header << " in-port=" << m_inPort << " prio=" << +m_priority << " ";
    QueueDiscItem::Print(os);
}

bool
RdmaQueueDiscItem::GetUint8Value(Uint8Values field, uint8_t& value) const
{
    if (field == IP_DSFIELD)
    {
        value = m_header.GetTos();
        return true;
    }
    return false;
}

const Ipv4Header&
RdmaQueueDiscItem::GetHeader() const
{
    return m_header;
}

const RdmaFiveTuple&
RdmaQueueDiscItem::GetFiveTuple() const
{
    return m_tuple;
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
