/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "bth-header.h"

#include "ns3/log.h"

#include <iomanip>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("BthHeader");
NS_OBJECT_ENSURE_REGISTERED(BthHeader);

TypeId
BthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::BthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<BthHeader>();
    return tid;
}

TypeId
BthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

BthHeader::BthHeader()
    : m_opcode(OPCODE_RC_SEND_ONLY)
    , m_se(false)
    , m_migReq(false)
    , m_padCount(0)
    , m_tver(0)
    , m_pkey(0xFFFF)
    , m_fecn(false)
    , m_becn(false)
    , m_destQp(0)
    , m_ackRequest(false)
    , m_psn(0)
{
}

void
BthHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags f = os.flags();
    os << "opcode=0x" << std::hex << std::setw(2) << std::setfill('0') << +m_opcode << std::dec
       << std::setfill(' ') << " destQp=" << m_destQp << " psn=" << m_psn << " pkey=0x" << std::hex
       << m_pkey << std::dec << " padCount=" << +m_padCount << " flags=[";
    std::string sep;
    auto flag = [&os, &sep](bool on, const char* name)
    {
        if (on)
        {
            os << sep << name;
            sep = ",";
        }
    };
    flag(m_se, "SE");
    flag(m_migReq, "M");
    flag(m_fecn, "FECN");
    flag(m_becn, "BECN");
    flag(m_int, "INT");
    flag(m_ackRequest, "A");
    os << "]";
    os.flags(f);
}

uint32_t
BthHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
BthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8((m_se ? 0x80 : 0) | (m_migReq ? 0x40 : 0) | ((m_padCount & 0x3) << 4)
              | (m_tver & 0x0F));
    i.WriteHtonU16(m_pkey);
    i.WriteU8((m_fecn ? 0x80 : 0) | (m_becn ? 0x40 : 0) | (m_int ? INT_BIT : 0));
    i.WriteU8((m_destQp >> 16) & 0xFF);
    i.WriteHtonU16(m_destQp & 0xFFFF);
    i.WriteU8(m_ackRequest ? 0x80 : 0);
    i.WriteU8((m_psn >> 16) & 0xFF);
    i.WriteHtonU16(m_psn & 0xFFFF);
}

uint32_t
BthHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0; // a truncated header: read nothing rather than past the end of the buffer
    }
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    uint8_t b1 = i.ReadU8();
    m_se = (b1 & 0x80) != 0;
    m_migReq = (b1 & 0x40) != 0;
    m_padCount = (b1 >> 4) & 0x3;
    m_tver = b1 & 0x0F;
    m_pkey = i.ReadNtohU16();
    uint8_t b4 = i.ReadU8();
    m_fecn = (b4 & 0x80) != 0;
    m_becn = (b4 & 0x40) != 0;
    m_int = (b4 & INT_BIT) != 0;
    uint32_t qpHigh = i.ReadU8();
    m_destQp = (qpHigh << 16) | i.ReadNtohU16();
    m_ackRequest = (i.ReadU8() & 0x80) != 0;
    uint32_t psnHigh = i.ReadU8();
    m_psn = (psnHigh << 16) | i.ReadNtohU16();
    return i.GetDistanceFrom(start);
}

void
BthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
BthHeader::GetOpcode() const
{
    return m_opcode;
}

void
BthHeader::SetDestQp(uint32_t qp)
{
    if (qp > MAX_24BIT)
    {
        throw std::invalid_argument("BthHeader::SetDestQp: QP number " + std::to_string(qp)
                                    + " does not fit in 24 bits (max 16777215)");
    }
    m_destQp = qp;
}

uint32_t
BthHeader::GetDestQp() const
{
    return m_destQp;
}

void
BthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & MAX_24BIT;
}

uint32_t
BthHeader::GetPsn() const
{
    return m_psn;
}

void
BthHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
BthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
BthHeader::SetSolicitedEvent(bool se)
{
    m_se = se;
}

bool
BthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
BthHeader::SetMigrationRequest(bool migReq)
{
    m_migReq = migReq;
}

bool
BthHeader::GetMigrationRequest() const
{
    return m_migReq;
}

void
BthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
BthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
BthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
BthHeader::GetFecn() const
{
    return m_fecn;
}

void
BthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
BthHeader::GetBecn() const
{
    return m_becn;
}

void
BthHeader::SetPadCount(uint8_t padCount)
{
    if (padCount > 3)
    {
        throw std::invalid_argument("BthHeader::SetPadCount: pad count " + std::to_string(+padCount)
                                    + " is not in 0..3");
    }
    m_padCount = padCount;
}

void
BthHeader::SetIntPresent(bool present)
{
    m_int = present;
}

bool
BthHeader::GetIntPresent() const
{
    return m_int;
}

uint8_t
BthHeader::GetPadCount() const
{
    return m_padCount;
}

void
BthHeader::SetTransportVersion(uint8_t version)
{
    if (version > 15)
    {
        throw std::invalid_argument("BthHeader::SetTransportVersion: version "
                                    + std::to_string(+version) + " is not in 0..15");
    }
    m_tver = version;
}

uint8_t
BthHeader::GetTransportVersion() const
{
    return m_tver;
}

} // namespace ns3
