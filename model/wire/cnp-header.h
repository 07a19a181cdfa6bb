/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CNP_HEADER_H
#define CNP_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief The 16 bytes that follow the BTH in a RoCEv2 Congestion Notification Packet.
 *
 * In RoCEv2 (Annex A17) a CNP is a BTH with OpCode 0x81 (BthHeader::OPCODE_CNP) followed by
 * 16 reserved bytes. **dcon extension:** PCN needs the receiver to report whether the flow is
 * congested and its measured receive rate, so we use some of those reserved bytes:
 * \verbatim
   byte 0      bit 0 = congested (ECN) flag, bits 7-1 zero
   bytes 1-3   zero
   bytes 4-7   RecRate, uint32 in units of 1 Mb/s (0 = no rate carried)
   bytes 8-15  zero
   \endverbatim
 * A plain DCQCN CNP is this header with the congested flag set and RecRate 0, which are the
 * defaults. Reserved bytes are written as zero and ignored when read.
 */
class CnpHeader : public Header
{
public:
    static constexpr uint32_t SERIALIZED_SIZE = 16; //!< bytes on the wire

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
     * \brief Default header: congested, no receive rate.
     */
    CnpHeader();

    /**
     * \brief Set the congested (ECN) flag.
     * \param congested true if the flow saw ECN marks (a DCQCN CNP always is)
     */
    void SetCongested(bool congested);
    /**
     * \brief Get the congested (ECN) flag.
     * \return true if congested
     */
    bool IsCongested() const;

    /**
     * \brief Set the receive rate (PCN RecRate).
     *
     * Rounded to the nearest Mb/s (half up); rates above 0xFFFFFFFF Mb/s saturate at 0xFFFFFFFF.
     * \param rate the measured receive rate
     */
    void SetReceiveRate(DataRate rate);
    /**
     * \brief Get the receive rate.
     * \return the rate in whole Mb/s; 0 b/s means no rate is carried
     */
    DataRate GetReceiveRate() const;
    /**
     * \brief Get the raw RecRate field.
     * \return the rate in units of 1 Mb/s
     */
    uint32_t GetReceiveRateMbps() const;

private:
    bool m_congested;       //!< congested (ECN) flag
    uint32_t m_recRateMbps; //!< RecRate in Mb/s
};

} // namespace ns3

#endif /* CNP_HEADER_H */
