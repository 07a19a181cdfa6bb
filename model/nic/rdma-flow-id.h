/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_ID_H
#define RDMA_FLOW_ID_H

#include "ns3/ipv4-address.h"

#include <array>
#include <cstdint>
#include <ostream>

namespace ns3
{

/// IP protocol number of UDP, RoCEv2's transport.
constexpr uint8_t UDP_PROTOCOL = 17;

/**
 * \ingroup dcon-nic
 * \brief The 5-tuple that identifies a RoCEv2 flow (IPv4 + UDP).
 */
struct RdmaFiveTuple
{
    Ipv4Address src;       //!< source IPv4 address
    Ipv4Address dst;       //!< destination IPv4 address
    uint16_t sport{0};     //!< UDP source port
    uint16_t dport{0};     //!< UDP destination port (4791 for RoCEv2)
    uint8_t protocol = 17; //!< IP protocol number (17 = UDP)

    /**
     * \brief Field-by-field equality.
     * \param other the other tuple
     * \return true if every field is equal
     */
    bool operator==(const RdmaFiveTuple& other) const;
    /**
     * \brief Inequality.
     * \param other the other tuple
     * \return true if any field differs
     */
    bool operator!=(const RdmaFiveTuple& other) const;
    /**
     * \brief Lexicographic order on (src, dst, sport, dport, protocol), for use as a map key.
     * \param other the other tuple
     * \return true if this tuple sorts before other
     */
    bool operator<(const RdmaFiveTuple& other) const;
};

/**
 * \brief Print a tuple as "src:sport->dst:dport/protocol".
 * \param os the output stream
 * \param t the tuple
 * \return os
 */
std::ostream& operator<<(std::ostream& os, const RdmaFiveTuple& t);

/**
 * \ingroup dcon-nic
 * \brief The 13 bytes that flow hashes read: src (4), dst (4), sport (2), dport (2),
 * protocol (1), all in network byte order.
 * \param t the tuple
 * \return the key bytes
 */
std::array<uint8_t, 13> RdmaFiveTupleBytes(const RdmaFiveTuple& t);

/**
 * \ingroup dcon-nic
 * \brief DCON's 16-bit flow identifier: CRC-16/ARC of the 5-tuple.
 *
 * CRC-16/ARC (poly 0x8005 reflected, init 0, no final xor; boost::crc_16_type) over the 13
 * bytes of RdmaFiveTupleBytes. Switches put it in the CNM (CnmHeader::SetFlowId).
 * \param t the tuple
 * \return the flow id
 */
uint16_t RdmaFlowCrc16(const RdmaFiveTuple& t);

/**
 * \ingroup dcon-nic
 * \brief Per-switch ECMP hash of a flow.
 *
 * ns3::Hash32 (murmur3) over 17 bytes: the seed (4 bytes, network order) followed by the 13
 * bytes of RdmaFiveTupleBytes.
 *
 * Why the seed is hashed together with the key: every switch must make its own, independent
 * choice among its equal-cost ports. If all switches used the same function, the flows a leaf
 * sends to one spine would all hash alike again at the next hop and crowd onto a subset of its
 * ports (ECMP polarization). Seeding a CRC does not help, whether the seed is xored into the
 * key, prefixed to it or used as the initial value: a CRC is affine over GF(2) in the key, e.g.
 * crc(seed || key) = crc(key) ^ f(seed), so the seed only xors every hash with one constant;
 * with a power-of-two port count, two flows that share a bucket at one switch share one at
 * every switch. Hashing the seed with the key through a non-linear hash (murmur3) gives
 * independent choices.
 * \param t the tuple
 * \param seed the switch's hash seed
 * \return the 32-bit hash (take it modulo the number of equal-cost ports)
 */
uint32_t RdmaEcmpHash(const RdmaFiveTuple& t, uint32_t seed);

/**
 * \ingroup dcon-nic
 * \brief RdmaEcmpHash of a 5-tuple given as its fields (what a switch reads from the packet's
 * bytes), with the same result: murmur3 computed here, without ns3::Hash32's objects.
 * \param src source address (host order)
 * \param dst destination address (host order)
 * \param sport source port
 * \param dport destination port
 * \param protocol IP protocol number
 * \param seed the switch's hash seed
 * \return the 32-bit hash
 */
uint32_t RdmaEcmpHash(
    uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint8_t protocol, uint32_t seed);

/**
 * \ingroup dcon-nic
 * \brief Hash functor so that RdmaFiveTuple can key an unordered container: the fields packed
 * into two 64-bit words and mixed with the splitmix64 finalizer. Cheap (it runs on every packet
 * a DCON queue takes in and lets out) and good enough for buckets; it is not the ECMP hash
 * (RdmaEcmpHash), and containers keyed with it are never iterated where order matters.
 */
struct RdmaFiveTupleHash
{
    /**
     * \brief splitmix64's finalizer (Steele et al., 2014): a bijective 64-bit mix.
     * \param x the input
     * \return the mixed value
     */
    static uint64_t
    Mix(uint64_t x)
    {
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    /**
     * \brief Hash a tuple.
     * \param t the tuple
     * \return the hash
     */
    std::size_t
    operator()(const RdmaFiveTuple& t) const
    {
        uint64_t addrs = (static_cast<uint64_t>(t.src.Get()) << 32) | t.dst.Get();
        uint64_t rest = (static_cast<uint64_t>(t.sport) << 24)
                        | (static_cast<uint64_t>(t.dport) << 8) | t.protocol;
        return static_cast<std::size_t>(Mix(addrs ^ Mix(rest)));
    }
};

} // namespace ns3

#endif /* RDMA_FLOW_ID_H */
