/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "int-header.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IntHeader);

namespace
{
constexpr uint32_t QLEN_SHIFT = 0;
constexpr uint32_t BYTES_SHIFT = IntHop::QLEN_BITS;               // 16
constexpr uint32_t TIME_SHIFT = BYTES_SHIFT + IntHop::BYTES_BITS; // 36
constexpr uint32_t RATE_SHIFT = TIME_SHIFT + IntHop::TIME_BITS;   // 60
static_assert(RATE_SHIFT + IntHop::RATE_BITS == 64, "an IntHop is one 64-bit word");

constexpr uint64_t
Mask(uint32_t bits)
{
    return (uint64_t{1} << bits) - 1;
}
} // namespace

// ------------------------------------------------------------------------------ IntHop

uint32_t
IntHop::RateCode(DataRate rate)
{
    const uint64_t bps = rate.GetBitRate();
    for (uint32_t c = 1; c < RATE_TABLE_MBPS.size(); ++c)
    {
        if (RATE_TABLE_MBPS[c] != 0 && RATE_TABLE_MBPS[c] * 1000000 == bps)
        {
            return c;
        }
    }
    return 0;
}

bool
IntHop::CanEncodeRate(DataRate rate)
{
    return RateCode(rate) != 0;
}

IntHop
IntHop::Make(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes)
{
    const uint32_t code = RateCode(rate);
    if (code == 0)
    {
        throw std::invalid_argument(
            "IntHop: link rate " + std::to_string(rate.GetBitRate())
            + " b/s has no INT rate code (1, 2.5, 5, 10, 20, 25, 40, 50, 100, 200, 400, 800 or "
              "1600 Gb/s)");
    }
    return Make(code, now, txBytes, qlenBytes);
}

IntHop
IntHop::Make(uint32_t rateCode, Time now, uint64_t txBytes, uint64_t qlenBytes)
{
    if (rateCode == 0 || rateCode >= RATE_TABLE_MBPS.size())
    {
        throw std::invalid_argument("IntHop: rate code " + std::to_string(rateCode)
                                    + " is not a link rate's (1, 2.5, 5, 10, 20, 25, 40, 50, "
                                      "100, 200, 400, 800 or 1600 Gb/s)");
    }
    const uint64_t code = rateCode;
    uint64_t ns = static_cast<uint64_t>(now.GetNanoSeconds());
    uint64_t qlen = std::min<uint64_t>(qlenBytes / QLEN_UNIT, Mask(QLEN_BITS));
    IntHop h;
    h.m_word = (code << RATE_SHIFT) | ((ns & Mask(TIME_BITS)) << TIME_SHIFT)
               | (((txBytes / BYTES_UNIT) & Mask(BYTES_BITS)) << BYTES_SHIFT)
               | (qlen << QLEN_SHIFT);
    return h;
}

IntHop
IntHop::FromWord(uint64_t word)
{
    IntHop h;
    h.m_word = word;
    return h;
}

uint64_t
IntHop::GetWord() const
{
    return m_word;
}

uint32_t
IntHop::GetRateCode() const
{
    return static_cast<uint32_t>(m_word >> RATE_SHIFT);
}

uint64_t
IntHop::GetLineRateBps() const
{
    return RATE_TABLE_MBPS[GetRateCode()] * 1000000;
}

uint32_t
IntHop::GetTimeNs() const
{
    return static_cast<uint32_t>((m_word >> TIME_SHIFT) & Mask(TIME_BITS));
}

uint32_t
IntHop::GetBytesField() const
{
    return static_cast<uint32_t>((m_word >> BYTES_SHIFT) & Mask(BYTES_BITS));
}

uint32_t
IntHop::GetQlenField() const
{
    return static_cast<uint32_t>((m_word >> QLEN_SHIFT) & Mask(QLEN_BITS));
}

uint64_t
IntHop::GetQlenBytes() const
{
    return GetQlenField() * QLEN_UNIT;
}

uint64_t
IntHop::GetTimeDeltaNs(const IntHop& earlier) const
{
    return (uint64_t{GetTimeNs()} - earlier.GetTimeNs()) & Mask(TIME_BITS);
}

uint64_t
IntHop::GetBytesDelta(const IntHop& earlier) const
{
    return ((uint64_t{GetBytesField()} - earlier.GetBytesField()) & Mask(BYTES_BITS)) * BYTES_UNIT;
}

// --------------------------------------------------------------------------- IntHeader

TypeId
IntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Dcon")
                            .AddConstructor<IntHeader>();
    return tid;
}

TypeId
IntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IntHeader::Print(std::ostream& os) const
{
    os << "INT " << +m_nHops << " hops";
    for (uint32_t i = 0; i < m_nHops; ++i)
    {
        const IntHop& h = m_hops[i];
        os << " [" << h.GetLineRateBps() / 1000000000.0 << "G t=" << h.GetTimeNs()
           << " tx=" << h.GetBytesField() << " q=" << h.GetQlenField() << "]";
    }
}

uint32_t
IntHeader::GetSerializedSize() const
{
    return BASE_BYTES + HOP_BYTES * m_nHops;
}

void
IntHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_nHops);
    i.WriteU8(0);
    i.WriteHtonU16(0);
    for (uint32_t k = 0; k < m_nHops; ++k)
    {
        i.WriteHtonU64(m_hops[k].GetWord());
    }
}

uint32_t
IntHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_nHops = 0;
    if (i.GetRemainingSize() < BASE_BYTES)
    {
        return 0;
    }
    uint8_t n = i.ReadU8();
    i.Next(3); // reserved
    if (n > MAX_HOPS || i.GetRemainingSize() < HOP_BYTES * n)
    {
        return 0;
    }
    for (uint32_t k = 0; k < n; ++k)
    {
        m_hops[k] = IntHop::FromWord(i.ReadNtohU64());
    }
    m_nHops = n;
    return i.GetDistanceFrom(start);
}

bool
IntHeader::Push(const IntHop& hop)
{
    if (m_nHops >= MAX_HOPS)
    {
        return false;
    }
    m_hops[m_nHops++] = hop;
    return true;
}

uint32_t
IntHeader::GetNHops() const
{
    return m_nHops;
}

const IntHop&
IntHeader::GetHop(uint32_t i) const
{
    return m_hops.at(i);
}

void
IntHeader::Clear()
{
    m_nHops = 0;
}

} // namespace ns3
