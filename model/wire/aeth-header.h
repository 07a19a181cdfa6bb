/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AETH_HEADER_H
#define AETH_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief InfiniBand ACK Extended Transport Header (AETH), follows the BTH of an RC ACK/NAK.
 *
 * 4 bytes, network byte order: Syndrome (8 bits) | MSN (24 bits).
 * Syndrome bits 7-5 give the kind: 000 = ACK (bits 4-0: credit count),
 * 011 = NAK (bits 4-0: NAK code, 0 = PSN sequence error, which asks for go-back-N).
 */
class AethHeader : public Header
{
public:
    static constexpr uint8_t NAK_PSN_SEQUENCE_ERROR = 0; //!< NAK code: PSN sequence error
    static constexpr uint8_t CREDIT_INVALID = 0x1F;      //!< ACK credit count "invalid / unlimited"
    static constexpr uint32_t MAX_MSN = 0xFFFFFF;        //!< largest MSN (24 bits)
    static constexpr uint32_t SERIALIZED_SIZE = 4;       //!< bytes on the wire

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
     * \brief Default header: ACK with credit count 0x1F, MSN 0.
     */
    AethHeader();

    /**
     * \brief Make this an ACK.
     * \param credit the credit count, 0..31 (0x1F = invalid / not used)
     * \throws std::invalid_argument if credit > 31
     */
    void SetAck(uint8_t credit = CREDIT_INVALID);
    /**
     * \brief Make this a NAK.
     * \param code the NAK code, 0..31 (NAK_PSN_SEQUENCE_ERROR = 0)
     * \throws std::invalid_argument if code > 31
     */
    void SetNak(uint8_t code = NAK_PSN_SEQUENCE_ERROR);
    /**
     * \brief Whether the syndrome is an ACK (bits 7-5 = 000).
     * \return true for an ACK
     */
    bool IsAck() const;
    /**
     * \brief Whether the syndrome is a NAK (bits 7-5 = 011).
     * \return true for a NAK
     */
    bool IsNak() const;
    /**
     * \brief The NAK code (syndrome bits 4-0); meaningful only if IsNak().
     * \return 0..31
     */
    uint8_t GetNakCode() const;
    /**
     * \brief The ACK credit count (syndrome bits 4-0); meaningful only if IsAck().
     * \return 0..31
     */
    uint8_t GetCreditCount() const;
    /**
     * \brief The raw syndrome byte.
     * \return the syndrome
     */
    uint8_t GetSyndrome() const;

    /**
     * \brief Set the message sequence number; masked to its low 24 bits (msn & 0xFFFFFF).
     * \param msn the MSN
     */
    void SetMsn(uint32_t msn);
    /**
     * \brief Get the message sequence number.
     * \return the 24-bit MSN
     */
    uint32_t GetMsn() const;

private:
    uint8_t m_syndrome; //!< syndrome byte
    uint32_t m_msn;     //!< message sequence number (24 bits)
};

} // namespace ns3

#endif /* AETH_HEADER_H */
