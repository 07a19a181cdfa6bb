/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CNM_HEADER_H
#define CNM_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/ipv4-address.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief DCON Congestion Notification Message (CNM), the payload of an Ethernet frame with
 * EtherType 0x22E7 (the IEEE 802.1Qau CNM EtherType).
 *
 * DCON reuses QCN's CNM and extends it so it can be routed back to the sender of an L3 flow.
 * **The byte layout is dcon's own.** The paper's Fig. 5 carries a 16-bit QCN field, 64 bits of
 * padding, an 8-bit congested flow id and an 8-bit N, while the flow id it describes is a 16-bit
 * CRC16, and it has no field for the capacity C of the congested link (all its links run at one
 * speed). This module widens the flow id and N to 16 bits, adds C (dcon extension, needed for
 * mixed link speeds) and, like QCN's encapsulated frame head, the identity of the congested
 * flow, so a NIC can find the QP without a flow table. 34 bytes, network byte order:
 * \verbatim
   bytes 0-1    version (bits 15-12, 0) | reserved (bits 11-6, zero) | QntzFb (bits 5-0)
   bytes 2-9    CPID: congestion point id, 64 bits, opaque (the switch puts node id and port in it)
   bytes 10-11  flow id: CRC16 of the flow 5-tuple (RdmaFlowCrc16), the paper's flow identifier
   bytes 12-13  N: number of congested flows at the congestion point
   bytes 14-17  C: capacity of the congested port, units of 1 Mb/s (dcon extension)
   --- identity of the congested flow, as QCN encapsulates the head of the offending frame:
   bytes 18-21  source IPv4 address
   bytes 22-25  destination IPv4 address
   bytes 26-27  UDP source port
   bytes 28-29  UDP destination port
   bytes 30-33  BTH DestQP (24 bits; the top 8 bits are zero)
   \endverbatim
 */
class CnmHeader : public Header
{
public:
    static constexpr uint16_t ETHERTYPE = 0x22E7;     //!< IEEE 802.1Qau CNM EtherType
    static constexpr uint32_t SERIALIZED_SIZE = 34;   //!< bytes on the wire
    static constexpr uint8_t MAX_QNTZ_FB = 0x3F;      //!< largest QntzFb (6 bits)
    static constexpr uint32_t MAX_DEST_QP = 0xFFFFFF; //!< largest DestQP (24 bits)

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
     * \return SERIALIZED_SIZE; 0 (nothing read, the header unchanged) if fewer bytes remain
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief Default header: version 0, every field zero.
     */
    CnmHeader();

    /**
     * \brief The version field (0; whatever was read by Deserialize).
     * \return 0..15
     */
    uint8_t GetVersion() const;

    /**
     * \brief Set the quantized feedback (QCN's Fb, 6 bits; DCON does not use it).
     * \param qntzFb 0..63
     * \throws std::invalid_argument if qntzFb > 63
     */
    void SetQntzFb(uint8_t qntzFb);
    /**
     * \brief Get the quantized feedback.
     * \return 0..63
     */
    uint8_t GetQntzFb() const;

    /**
     * \brief Set the congestion point id.
     * \param cpid opaque 64-bit id of the congested switch port
     */
    void SetCpid(uint64_t cpid);
    /**
     * \brief Get the congestion point id.
     * \return the CPID
     */
    uint64_t GetCpid() const;

    /**
     * \brief Set the flow identifier.
     * \param flowId CRC16 of the flow 5-tuple (see RdmaFlowCrc16)
     */
    void SetFlowId(uint16_t flowId);
    /**
     * \brief Get the flow identifier.
     * \return the 16-bit flow id
     */
    uint16_t GetFlowId() const;

    /**
     * \brief Set the number of congested flows N.
     * \param numFlows N
     */
    void SetNumFlows(uint16_t numFlows);
    /**
     * \brief Get the number of congested flows N.
     * \return N
     */
    uint16_t GetNumFlows() const;

    /**
     * \brief Set the capacity C of the congested port (dcon extension).
     *
     * Rounded to the nearest Mb/s (half up), saturating at 0xFFFFFFFF Mb/s.
     * \param capacity the port rate
     */
    void SetCapacity(DataRate capacity);
    /**
     * \brief Get the capacity C.
     * \return the capacity in whole Mb/s
     */
    DataRate GetCapacity() const;

    /**
     * \brief Set the source IPv4 address of the congested flow.
     * \param src the address
     */
    void SetSource(Ipv4Address src);
    /**
     * \brief Get the source IPv4 address of the congested flow.
     * \return the address
     */
    Ipv4Address GetSource() const;

    /**
     * \brief Set the destination IPv4 address of the congested flow.
     * \param dst the address
     */
    void SetDestination(Ipv4Address dst);
    /**
     * \brief Get the destination IPv4 address of the congested flow.
     * \return the address
     */
    Ipv4Address GetDestination() const;

    /**
     * \brief Set the UDP source port of the congested flow.
     * \param port the port
     */
    void SetSourcePort(uint16_t port);
    /**
     * \brief Get the UDP source port of the congested flow.
     * \return the port
     */
    uint16_t GetSourcePort() const;

    /**
     * \brief Set the UDP destination port of the congested flow.
     * \param port the port
     */
    void SetDestinationPort(uint16_t port);
    /**
     * \brief Get the UDP destination port of the congested flow.
     * \return the port
     */
    uint16_t GetDestinationPort() const;

    /**
     * \brief Set the BTH destination QP of the congested flow.
     * \param qp the QP number; must fit in 24 bits
     * \throws std::invalid_argument if qp > 0xFFFFFF
     */
    void SetDestQp(uint32_t qp);
    /**
     * \brief Get the BTH destination QP of the congested flow.
     * \return the 24-bit QP number
     */
    uint32_t GetDestQp() const;

private:
    uint8_t m_version;       //!< version (4 bits)
    uint8_t m_qntzFb;        //!< QntzFb (6 bits)
    uint64_t m_cpid;         //!< congestion point id
    uint16_t m_flowId;       //!< CRC16 flow id
    uint16_t m_numFlows;     //!< N
    uint32_t m_capacityMbps; //!< C in Mb/s
    Ipv4Address m_src;       //!< flow source address
    Ipv4Address m_dst;       //!< flow destination address
    uint16_t m_sport;        //!< flow UDP source port
    uint16_t m_dport;        //!< flow UDP destination port
    uint32_t m_destQp;       //!< flow BTH DestQP (24 bits)
};

} // namespace ns3

#endif /* CNM_HEADER_H */
