/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "aeth-header.h"
#include "bth-header.h"

#include "ns3/header.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief The RoCEv2 encapsulation of one packet as a single ns-3 header: IPv4 + UDP + BTH, and
 * the AETH when the BTH opcode is an RC acknowledgement (ACK or NAK).
 *
 * On the wire these are exactly the bytes of an Ipv4Header, a UdpHeader, a BthHeader and (for
 * OPCODE_RC_ACK) an AethHeader added one after the other: each part serializes itself, in that
 * order, and a packet built either way gives the same pcap. Carrying them as one header costs
 * one Packet::AddHeader/RemoveHeader per packet instead of three or four, which was the largest
 * part of the NIC's per-packet work. RdmaNic builds and parses every RoCE packet this way;
 * anything after the BTH other than the AETH (the CNP's 16 bytes) stays in the payload.
 *
 * Lengths: SetPayloadBytes sets the IPv4 payload size and the UDP length from the bytes that
 * follow the header. (A lone UdpHeader takes its length from the buffer it is written into,
 * which inside this header would count the IPv4 bytes too.)
 *
 * A packet's metadata (Packet::EnablePrinting) lists one ns3::RoceHeader for these bytes;
 * remove it as a whole, or peek at the parts with PeekHeader (Ipv4Header, or RoceHeader).
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
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// \return the IPv4 part
    Ipv4Header& Ip() { return m_ip; }

    /// \return the IPv4 part
    const Ipv4Header& Ip() const { return m_ip; }

    /// \return the UDP part
    UdpHeader& Udp() { return m_udp; }

    /// \return the UDP part
    const UdpHeader& Udp() const { return m_udp; }

    /// \return the BTH part
    BthHeader& Bth() { return m_bth; }

    /// \return the BTH part
    const BthHeader& Bth() const { return m_bth; }

    /// \return the AETH part (on the wire only when HasAeth())
    AethHeader& Aeth() { return m_aeth; }

    /// \return the AETH part (on the wire only when HasAeth())
    const AethHeader& Aeth() const { return m_aeth; }

    /**
     * \return whether an AETH follows the BTH (BTH opcode OPCODE_RC_ACK)
     */
    bool HasAeth() const;

    /**
     * \brief Fill in the lengths for a packet whose payload (what follows this header) has the
     * given size: the IPv4 payload size and the UDP length.
     * \param payloadBytes bytes after the BTH (or AETH), ICRC included
     */
    void SetPayloadBytes(uint32_t payloadBytes);

  private:
    Ipv4Header m_ip;    //!< IPv4
    UdpHeader m_udp;    //!< UDP (destination port 4791)
    BthHeader m_bth;    //!< InfiniBand base transport header
    AethHeader m_aeth;  //!< ACK extended transport header (ACK/NAK only)
};

} // namespace ns3

#endif // ROCE_HEADER_H
