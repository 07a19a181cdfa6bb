/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-header.h"

#include "ns3/log.h"

#include <iomanip>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");
NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
/// Reserved bytes after opcode (2), vector (2) and 8 times (16): 46 - 20.
constexpr uint32_t PFC_RESERVED_BYTES = 26;
} // namespace

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_opcode(OPCODE_PFC)
    , m_enableVector(0)
{
    m_time.fill(0);
}

void
PfcHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags f = os.flags();
    os << "opcode=0x" << std::hex << std::setw(4) << std::setfill('0') << m_opcode << " enable=0x"
       << std::setw(2) << m_enableVector << std::dec << std::setfill(' ');
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (m_enableVector & (1u << p))
        {
            os << " p" << +p << "=" << m_time[p];
        }
    }
    os.flags(f);
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_enableVector);
    for (uint16_t t : m_time)
    {
        i.WriteHtonU16(t);
    }
    i.WriteU8(0, PFC_RESERVED_BYTES);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SERIALIZED_SIZE)
    {
        return 0; // a truncated header: read nothing rather than past the end of the buffer
    }
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_enableVector = i.ReadNtohU16();
    for (uint16_t& t : m_time)
    {
        t = i.ReadNtohU16();
    }
    i.Next(PFC_RESERVED_BYTES);
    return i.GetDistanceFrom(start);
}

void
PfcHeader::CheckPriority(uint8_t priority, const char* where)
{
    if (priority >= NUM_PRIORITIES)
    {
        throw std::invalid_argument(std::string("PfcHeader::") + where + ": priority "
                                    + std::to_string(+priority) + " is not in 0..7");
    }
}

void
PfcHeader::SetPauseTime(uint8_t priority, uint16_t quanta)
{
    CheckPriority(priority, "SetPauseTime");
    m_time[priority] = quanta;
    m_enableVector |= static_cast<uint16_t>(1u << priority);
}

uint16_t
PfcHeader::GetPauseTime(uint8_t priority) const
{
    CheckPriority(priority, "GetPauseTime");
    return m_time[priority];
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    CheckPriority(priority, "IsEnabled");
    return (m_enableVector & (1u << priority)) != 0;
}

uint16_t
PfcHeader::GetPriorityEnableVector() const
{
    return m_enableVector;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

Mac48Address
PfcHeader::GetMulticastDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("PfcHeader::QuantaToTime: link rate is 0 bps");
    }
    return rate.CalculateBitsTxTime(static_cast<uint32_t>(quanta) * QUANTUM_BITS);
}

uint16_t
PfcHeader::TimeToQuanta(Time t, DataRate rate)
{
    if (rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("PfcHeader::TimeToQuanta: link rate is 0 bps");
    }
    if (t.IsStrictlyNegative())
    {
        throw std::invalid_argument("PfcHeader::TimeToQuanta: negative time "
                                    + std::to_string(t.GetSeconds()) + " s");
    }
    if (QuantaToTime(MAX_QUANTA, rate) < t)
    {
        return MAX_QUANTA;
    }
    // Smallest q in [0, 65535] with QuantaToTime(q) >= t; QuantaToTime is non-decreasing in q.
    uint32_t lo = 0;
    uint32_t hi = MAX_QUANTA;
    while (lo < hi)
    {
        uint32_t mid = lo + (hi - lo) / 2;
        if (QuantaToTime(static_cast<uint16_t>(mid), rate) >= t)
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    return static_cast<uint16_t>(lo);
}

} // namespace ns3
