/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-id.h"

#include "ns3/hash.h"
#include "ns3/log.h"

#include <boost/crc.hpp>

#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowId");

bool
RdmaFiveTuple::operator==(const RdmaFiveTuple& other) const
{
    return src == other.src && dst == other.dst && sport == other.sport && dport == other.dport
           && protocol == other.protocol;
}

bool
RdmaFiveTuple::operator!=(const RdmaFiveTuple& other) const
{
    return !(*this == other);
}

bool
RdmaFiveTuple::operator<(const RdmaFiveTuple& other) const
{
    return std::make_tuple(src.Get(), dst.Get(), sport, dport, protocol) < std::make_tuple(
               other.src.Get(), other.dst.Get(), other.sport, other.dport, other.protocol);
}

std::ostream&
operator<<(std::ostream& os, const RdmaFiveTuple& t)
{
    os << t.src << ":" << t.sport << "->" << t.dst << ":" << t.dport << "/" << +t.protocol;
    return os;
}

std::array<uint8_t, 13>
RdmaFiveTupleBytes(const RdmaFiveTuple& t)
{
    std::array<uint8_t, 13> b{};
    t.src.Serialize(&b[0]); // network byte order
    t.dst.Serialize(&b[4]);
    b[8] = static_cast<uint8_t>(t.sport >> 8);
    b[9] = static_cast<uint8_t>(t.sport & 0xFF);
    b[10] = static_cast<uint8_t>(t.dport >> 8);
    b[11] = static_cast<uint8_t>(t.dport & 0xFF);
    b[12] = t.protocol;
    return b;
}

uint16_t
RdmaFlowCrc16(const RdmaFiveTuple& t)
{
    std::array<uint8_t, 13> b = RdmaFiveTupleBytes(t);
    boost::crc_16_type crc;
    crc.process_bytes(b.data(), b.size());
    return static_cast<uint16_t>(crc.checksum());
}

uint32_t
RdmaEcmpHash(const RdmaFiveTuple& t, uint32_t seed)
{
    std::array<uint8_t, 13> key = RdmaFiveTupleBytes(t);
    std::array<char, 17> buf{};
    buf[0] = static_cast<char>(seed >> 24);
    buf[1] = static_cast<char>((seed >> 16) & 0xFF);
    buf[2] = static_cast<char>((seed >> 8) & 0xFF);
    buf[3] = static_cast<char>(seed & 0xFF);
    for (size_t i = 0; i < key.size(); ++i)
    {
        buf[4 + i] = static_cast<char>(key[i]);
    }
    return Hash32(buf.data(), buf.size());
}

} // namespace ns3
