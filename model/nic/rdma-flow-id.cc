/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-id.h"

#include "ns3/log.h"

#include <boost/crc.hpp>

#include <cstring>
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
    return RdmaEcmpHash(t.src.Get(), t.dst.Get(), t.sport, t.dport, t.protocol, seed);
}

namespace
{
/// MurmurHash3_x86_32's block mix.
inline uint32_t
MurmurMix(uint32_t k)
{
    k *= 0xcc9e2d51;
    k = (k << 15) | (k >> 17);
    return k * 0x1b873593;
}

/// MurmurHash3_x86_32's step for one 4-byte block.
inline uint32_t
MurmurBlock(uint32_t h, const uint8_t* block)
{
    uint32_t k;
    std::memcpy(&k, block, 4); // as ns-3 reads blocks: in the machine's byte order
    h ^= MurmurMix(k);
    h = (h << 13) | (h >> 19);
    return h * 5 + 0xe6546b64;
}
} // namespace

uint32_t
RdmaEcmpHash(
    uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t protocol, uint32_t seed)
{
    // The 17 bytes ns3::Hash32 hashed: the seed, then RdmaFiveTupleBytes (network order).
    const uint8_t key[16] = {static_cast<uint8_t>(seed >> 24),
                             static_cast<uint8_t>(seed >> 16),
                             static_cast<uint8_t>(seed >> 8),
                             static_cast<uint8_t>(seed),
                             static_cast<uint8_t>(src >> 24),
                             static_cast<uint8_t>(src >> 16),
                             static_cast<uint8_t>(src >> 8),
                             static_cast<uint8_t>(src),
                             static_cast<uint8_t>(dst >> 24),
                             static_cast<uint8_t>(dst >> 16),
                             static_cast<uint8_t>(dst >> 8),
                             static_cast<uint8_t>(dst),
                             static_cast<uint8_t>(sport >> 8),
                             static_cast<uint8_t>(sport),
                             static_cast<uint8_t>(dport >> 8),
                             static_cast<uint8_t>(dport)};
    // ns3::Hash32 is murmur3 (MurmurHash3_x86_32) with ns-3's seed, over 17 bytes: four blocks
    // and a one-byte tail (the protocol); see ns-3's hash-murmur3.cc.
    constexpr uint32_t NS3_MURMUR3_SEED = 0x8BADF00D;
    uint32_t h = NS3_MURMUR3_SEED;
    for (int i = 0; i < 16; i += 4)
    {
        h = MurmurBlock(h, key + i);
    }
    h ^= MurmurMix(protocol);
    h ^= 17; // the length
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

} // namespace ns3
