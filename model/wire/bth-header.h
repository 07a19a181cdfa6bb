/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BTH_HEADER_H
#define BTH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief InfiniBand Base Transport Header (BTH) as carried by RoCEv2 after IPv4/UDP (port 4791).
 *
 * 12 bytes, network byte order (InfiniBand Architecture Specification Vol. 1, 9.2):
 * \verbatim
   byte 0     OpCode
   byte 1     SE (bit 7) | MigReq (bit 6) | PadCount (bits 5-4) | TVer (bits 3-0)
   bytes 2-3  P_Key
   byte 4     FECN (bit 7) | BECN (bit 6) | INT (bit 5) | reserved (bits 4-0, zero)
   bytes 5-7  DestQP (24 bits)
   byte 8     AckReq (bit 7) | reserved (bits 6-0, zero)
   bytes 9-11 PSN (24 bits)
   \endverbatim
 * Reserved bits are written as zero and ignored when read. The INT bit is one of the
 * specification's reserved bits that this model uses: set, an IntHeader (in-band network
 * telemetry hop records, HPCC) follows the BTH of a data packet, or the AETH of an ACK.
 */
class BthHeader : public Header
{
public:
    static constexpr uint8_t OPCODE_RC_SEND_FIRST = 0x00;  //!< RC SEND First
    static constexpr uint8_t OPCODE_RC_SEND_MIDDLE = 0x01; //!< RC SEND Middle
    static constexpr uint8_t OPCODE_RC_SEND_LAST = 0x02;   //!< RC SEND Last
    static constexpr uint8_t OPCODE_RC_SEND_ONLY = 0x04;   //!< RC SEND Only
    static constexpr uint8_t OPCODE_RC_ACK = 0x11;         //!< RC Acknowledge (followed by AETH)
    static constexpr uint8_t OPCODE_CNP = 0x81;       //!< RoCEv2 Congestion Notification Packet
    static constexpr uint16_t ROCEV2_UDP_PORT = 4791; //!< IANA UDP destination port of RoCEv2
    static constexpr uint32_t MAX_24BIT = 0xFFFFFF;   //!< largest DestQP / PSN value
    static constexpr uint32_t SERIALIZED_SIZE = 12;   //!< bytes on the wire
    /// Byte of the BTH holding FECN, BECN and the INT bit
    static constexpr uint32_t FLAGS_BYTE = 4;
    /// Bit of FLAGS_BYTE that says an IntHeader follows (one of the specification's reserved
    /// bits; SetIntPresent)
    static constexpr uint8_t INT_BIT = 0x20;

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
     * \brief Default header: opcode RC SEND Only, P_Key 0xFFFF, every flag and number zero.
     */
    BthHeader();

    /**
     * \brief Set the opcode.
     * \param opcode the OpCode byte (see the OPCODE_ constants)
     */
    void SetOpcode(uint8_t opcode);
    /**
     * \brief Get the opcode.
     * \return the OpCode byte
     */
    uint8_t GetOpcode() const;

    /**
     * \brief Set the destination queue pair number.
     * \param qp the QP number; must fit in 24 bits
     * \throws std::invalid_argument if qp > 0xFFFFFF
     */
    void SetDestQp(uint32_t qp);
    /**
     * \brief Get the destination queue pair number.
     * \return the 24-bit QP number
     */
    uint32_t GetDestQp() const;

    /**
     * \brief Set the packet sequence number.
     *
     * The PSN is a 24-bit counter that wraps: the value is masked to its low 24 bits
     * (psn & 0xFFFFFF), so a sender may pass an ever-increasing 32-bit counter.
     * \param psn the sequence number (only the low 24 bits are kept)
     */
    void SetPsn(uint32_t psn);
    /**
     * \brief Get the packet sequence number.
     * \return the 24-bit PSN
     */
    uint32_t GetPsn() const;

    /**
     * \brief Set the AckReq bit (the responder should acknowledge this packet).
     * \param ackRequest the new value
     */
    void SetAckRequest(bool ackRequest);
    /**
     * \brief Get the AckReq bit.
     * \return true if an acknowledgement is requested
     */
    bool GetAckRequest() const;

    /**
     * \brief Set the Solicited Event bit.
     * \param se the new value
     */
    void SetSolicitedEvent(bool se);
    /**
     * \brief Get the Solicited Event bit.
     * \return the SE bit
     */
    bool GetSolicitedEvent() const;

    /**
     * \brief Set the MigReq bit (path migration state).
     * \param migReq the new value
     */
    void SetMigrationRequest(bool migReq);
    /**
     * \brief Get the MigReq bit.
     * \return the MigReq bit
     */
    bool GetMigrationRequest() const;

    /**
     * \brief Set the partition key.
     * \param pkey the P_Key (default 0xFFFF, the default full-member partition)
     */
    void SetPartitionKey(uint16_t pkey);
    /**
     * \brief Get the partition key.
     * \return the P_Key
     */
    uint16_t GetPartitionKey() const;

    /**
     * \brief Set the FECN bit (forward explicit congestion notification).
     * \param fecn the new value
     */
    void SetFecn(bool fecn);
    /**
     * \brief Get the FECN bit.
     * \return the FECN bit
     */
    bool GetFecn() const;

    /**
     * \brief Set the BECN bit (backward explicit congestion notification).
     * \param becn the new value
     */
    void SetBecn(bool becn);
    /**
     * \brief Get the BECN bit.
     * \return the BECN bit
     */
    bool GetBecn() const;

    /**
     * \brief Set the INT bit (byte 4, bit 5; reserved in the specification): an IntHeader
     * follows the BTH (data) or the AETH (ACK), and switches append hop records to data.
     * \param present the new value
     */
    void SetIntPresent(bool present);
    /**
     * \brief Get the INT bit.
     * \return true if an IntHeader follows
     */
    bool GetIntPresent() const;

    /**
     * \brief Set the pad count (bytes of padding that align the payload to 4 bytes).
     * \param padCount 0..3
     * \throws std::invalid_argument if padCount > 3
     */
    void SetPadCount(uint8_t padCount);
    /**
     * \brief Get the pad count.
     * \return 0..3
     */
    uint8_t GetPadCount() const;

    /**
     * \brief Set the transport header version (TVer, 0 for the current specification).
     * \param version 0..15
     * \throws std::invalid_argument if version > 15
     */
    void SetTransportVersion(uint8_t version);
    /**
     * \brief Get the transport header version.
     * \return 0..15
     */
    uint8_t GetTransportVersion() const;

private:
    uint8_t m_opcode;   //!< OpCode
    bool m_se;          //!< Solicited Event
    bool m_migReq;      //!< MigReq
    uint8_t m_padCount; //!< PadCount (2 bits)
    uint8_t m_tver;     //!< TVer (4 bits)
    uint16_t m_pkey;    //!< P_Key
    bool m_fecn;        //!< FECN
    bool m_becn;        //!< BECN
    bool m_int{false};  //!< INT bit (an IntHeader follows)
    uint32_t m_destQp;  //!< DestQP (24 bits)
    bool m_ackRequest;  //!< AckReq
    uint32_t m_psn;     //!< PSN (24 bits)
};

} // namespace ns3

#endif /* BTH_HEADER_H */
