/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "aeth-header.h"
#include "bth-header.h"
#include "int-header.h"
#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief The RoCEv2 encapsulation of one packet as a single ns-3 header: IPv4 (20 bytes, no
 * options) + UDP (destination port 4791) + InfiniBand BTH, the AETH when the BTH opcode is
 * an RC acknowledgement (ACK or NAK), and the IntHeader (INT hop records) after those when the
 * BTH's INT bit is set (BthHeader::SetIntPresent).
 *
 * The bytes are exactly those of an ns3::Ipv4Header, ns3::UdpHeader, BthHeader and (for
 * OPCODE_RC_ACK) AethHeader added one after the other, with the checksums ns-3 writes by
 * default: IPv4 header checksum 0 (ns-3 computes it only after Ipv4Header::EnableChecksum) and
 * UDP checksum 0 (RoCEv2 does not use it). Carrying them as one header costs one
 * Packet::AddHeader/RemoveHeader per packet instead of three or four, and reading or writing
 * the IPv4 and UDP fields here avoids the library's per-call overhead: this was the largest part
 * of the NIC's per-packet work. RdmaNic builds and parses every RoCE packet this way; anything
 * after the BTH other than the AETH (the CNP's 16 bytes) stays in the payload.
 *
 * Removing and adding the header again gives the same bytes (unlike ns3::UdpHeader, whose
 * length field loses 8 on such a round trip). Lengths: SetPayloadBytes sets the IPv4 total
 * length and the UDP length from the bytes that follow the header.
 *
 * A packet's metadata (Packet::EnablePrinting) lists one ns3::RoceHeader for these bytes;
 * remove it as a whole, or peek at the IPv4 part with PeekHeader(Ipv4Header).
 */
class RoceHeader : public Header
{
public:
    static constexpr uint32_t IPV4_BYTES = 20; //!< IPv4 header without options
    static constexpr uint32_t UDP_BYTES = 8;   //!< UDP header
    /// IPv4 + UDP + BTH: the bytes of every RoCEv2 packet before its payload
    static constexpr uint32_t BASE_BYTES = IPV4_BYTES + UDP_BYTES + BthHeader::SERIALIZED_SIZE;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the header.
     * \param start where it begins
     * \return bytes read; 0 (protocol left 0, other fields unspecified) if the first byte is
     * not IPv4 with a 20-byte header, or if the bytes are too few for IPv4 + UDP + BTH (+ AETH
     * for an ACK opcode, + a valid IntHeader with the INT bit)
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief A RoCEv2 header with TTL 64, protocol UDP, Don't Fragment set, UDP destination
     * port 4791, addresses 0.0.0.0, TOS 0, no payload.
     */
    RoceHeader();

    /// \param src IPv4 source address
    void SetSource(Ipv4Address src);
    /// \return IPv4 source address
    Ipv4Address GetSource() const;
    /// \param dst IPv4 destination address
    void SetDestination(Ipv4Address dst);
    /// \return IPv4 destination address
    Ipv4Address GetDestination() const;

    /// \param src IPv4 source address as a 32-bit value (host order; as Ipv4Address::Get)
    void
    SetSourceValue(uint32_t src)
    {
        m_source = src;
    }

    /// \return IPv4 source address as a 32-bit value (host order)
    uint32_t
    GetSourceValue() const
    {
        return m_source;
    }

    /// \param dst IPv4 destination address as a 32-bit value (host order)
    void
    SetDestinationValue(uint32_t dst)
    {
        m_destination = dst;
    }

    /// \return IPv4 destination address as a 32-bit value (host order)
    uint32_t
    GetDestinationValue() const
    {
        return m_destination;
    }
    /// \param tos the IPv4 TOS byte (DSCP << 2 | ECN)
    void SetTos(uint8_t tos);
    /// \return the IPv4 TOS byte
    uint8_t GetTos() const;
    /// \param dscp the DSCP (upper six bits of the TOS byte), as Ipv4Header::SetDscp
    void SetDscp(Ipv4Header::DscpType dscp);
    /// \param ecn the ECN codepoint (lower two bits of the TOS byte), as Ipv4Header::SetEcn
    void SetEcn(Ipv4Header::EcnType ecn);
    /// \return the ECN codepoint (the low two bits of the TOS byte)
    Ipv4Header::EcnType GetEcn() const;
    /// \param ttl IPv4 time to live
    void SetTtl(uint8_t ttl);
    /// \return IPv4 time to live
    uint8_t GetTtl() const;
    /// \return IPv4 protocol (17 for RoCEv2; 0 after reading something that is not IPv4)
    uint8_t GetProtocol() const;
    /// \return IPv4 payload bytes (UDP header and everything after it)
    uint16_t GetIpPayloadSize() const;
    /// \param port UDP source port
    void SetSourcePort(uint16_t port);
    /// \return UDP source port
    uint16_t GetSourcePort() const;
    /// \param port UDP destination port
    void SetDestinationPort(uint16_t port);
    /// \return UDP destination port
    uint16_t GetDestinationPort() const;
    /// \return the UDP length field (UDP header included)
    uint16_t GetUdpLength() const;

    /// \return the BTH part
    BthHeader&
    Bth()
    {
        return m_bth;
    }

    /// \return the BTH part
    const BthHeader&
    Bth() const
    {
        return m_bth;
    }

    /// \return the AETH part (on the wire only when HasAeth())
    AethHeader&
    Aeth()
    {
        return m_aeth;
    }

    /// \return the AETH part (on the wire only when HasAeth())
    const AethHeader&
    Aeth() const
    {
        return m_aeth;
    }

    /**
     * \return whether an AETH follows the BTH (BTH opcode OPCODE_RC_ACK)
     */
    bool HasAeth() const;

    /// \return the INT part (on the wire only when HasInt())
    IntHeader&
    Int()
    {
        return m_int;
    }

    /// \return the INT part (on the wire only when HasInt())
    const IntHeader&
    Int() const
    {
        return m_int;
    }

    /**
     * \return whether an IntHeader follows the BTH (or the AETH): the BTH's INT bit
     */
    bool HasInt() const;

    /**
     * \brief Fill in the lengths for a packet whose payload (what follows this header) has the
     * given size: the IPv4 total length and the UDP length.
     * \param payloadBytes bytes after the BTH (or AETH, or IntHeader), ICRC included
     */
    void SetPayloadBytes(uint32_t payloadBytes);

    /**
     * \brief The inverse of SetPayloadBytes, from the IPv4 total length (not the packet's size:
     * a short packet is padded to the minimum Ethernet frame).
     * \return bytes after the BTH (or AETH, or IntHeader), ICRC included; 0 if the length is
     * too short
     */
    uint32_t GetPayloadBytes() const;

private:
    uint8_t m_tos{0};                                       //!< IPv4 TOS (DSCP and ECN)
    uint16_t m_ipPayload{0};                                //!< IPv4 total length - 20
    uint16_t m_identification{0};                           //!< IPv4 identification
    uint16_t m_flagsFragment{0x4000};                       //!< IPv4 flags and fragment offset (DF)
    uint8_t m_ttl{64};                                      //!< IPv4 TTL
    uint8_t m_protocol{17};                                 //!< IPv4 protocol (UDP)
    uint32_t m_source{0};                                   //!< IPv4 source address
    uint32_t m_destination{0};                              //!< IPv4 destination address
    uint16_t m_sourcePort{0};                               //!< UDP source port
    uint16_t m_destinationPort{BthHeader::ROCEV2_UDP_PORT}; //!< UDP destination port
    uint16_t m_udpLength{UDP_BYTES};                        //!< UDP length field
    uint16_t m_udpChecksum{0};                              //!< UDP checksum field (0: not used)
    BthHeader m_bth;                                        //!< InfiniBand base transport header
    AethHeader m_aeth; //!< ACK extended transport header (ACK/NAK only)
    IntHeader m_int;   //!< INT hop records (only with the BTH's INT bit)
};

} // namespace ns3

#endif // ROCE_HEADER_H
