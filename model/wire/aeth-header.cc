/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aeth-header.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AethHeader");
NS_OBJECT_ENSURE_REGISTERED(AethHeader);

namespace
{
constexpr uint8_t KIND_MASK = 0xE0;  //!< syndrome bits 7-5
constexpr uint8_t KIND_ACK = 0x00;   //!< 000
constexpr uint8_t KIND_NAK = 0x60;   //!< 011
constexpr uint8_t VALUE_MASK = 0x1F; //!< syndrome bits 4-0
} // namespace

TypeId
AethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<AethHeader>();
    return tid;
}

TypeId
AethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

AethHeader::AethHeader()
    : m_syndrome(KIND_ACK | CREDIT_INVALID)
    , m_msn(0)
{
}

void
AethHeader::Print(std::ostream& os) const
{
    if (IsAck())
    {
        os << "ACK credit=" << +GetCreditCount();
    }
    else if (IsNak())
    {
        os << "NAK code=" << +GetNakCode();
    }
    else
    {
        os << "syndrome=" << +m_syndrome;
    }
    os << " msn=" << m_msn;
}

uint32_t
AethHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
AethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((static_cast<uint32_t>(m_syndrome) << 24) | (m_msn & MAX_MSN));
}

uint32_t
AethHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0; // a truncated header: read nothing rather than past the end of the buffer
    }
    uint32_t word = start.ReadNtohU32();
    m_syndrome = static_cast<uint8_t>(word >> 24);
    m_msn = word & MAX_MSN;
    return SERIALIZED_SIZE;
}

void
AethHeader::SetAck(uint8_t credit)
{
    if (credit > VALUE_MASK)
    {
        throw std::invalid_argument("AethHeader::SetAck: credit count " + std::to_string(+credit)
                                    + " is not in 0..31");
    }
    m_syndrome = KIND_ACK | credit;
}

void
AethHeader::SetNak(uint8_t code)
{
    if (code > VALUE_MASK)
    {
        throw std::invalid_argument("AethHeader::SetNak: NAK code " + std::to_string(+code)
                                    + " is not in 0..31");
    }
    m_syndrome = KIND_NAK | code;
}

bool
AethHeader::IsAck() const
{
    return (m_syndrome & KIND_MASK) == KIND_ACK;
}

bool
AethHeader::IsNak() const
{
    return (m_syndrome & KIND_MASK) == KIND_NAK;
}

uint8_t
AethHeader::GetNakCode() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
AethHeader::GetCreditCount() const
{
    return m_syndrome & VALUE_MASK;
}

uint8_t
AethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
AethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & MAX_MSN;
}

uint32_t
AethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
