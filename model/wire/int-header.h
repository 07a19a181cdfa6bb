/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INT_HEADER_H
#define INT_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief One in-band network telemetry (INT) hop record: what a switch egress port says about
 * itself as a packet leaves it (HPCC, Li et al., SIGCOMM 2019, Section 3.2).
 *
 * 8 bytes on the wire, one 64-bit word in network byte order (bit 63 first):
 * \verbatim
   bits 63-60  link rate code (4 bits; RATE_TABLE, 0 = none)
   bits 59-36  timestamp: the time the packet left, in ns, modulo 2^24 (16.78 ms)
   bits 35-16  txBytes: bytes the port sent before this packet (Ethernet frames with FCS,
               preamble and inter-frame gap when the device counts them), in units of
               BYTES_UNIT = 128 B, modulo 2^20 (134 MB)
   bits 15-0   qLen: bytes waiting in the port's egress queues (all priorities) when the
               packet left, in units of QLEN_UNIT = 128 B, saturating at 65535 (8.39 MB)
   \endverbatim
 * The widths are those of the HPCC simulator (alibaba-edu/High-Precision-Congestion-Control,
 * IntHop: 24-bit time, 20-bit bytes) with a 4-bit rate code (the simulator has 3 bits for five
 * rates) and a 16-bit queue length (the simulator: 17 bits of 80 B); the timestamp and byte
 * counter wrap, and differences between two records of the same port are taken modulo their
 * width (GetTimeDeltaNs, GetBytesDelta), so two records of one port must be less than 16.78 ms
 * and 2^20 x 128 B apart.
 */
class IntHop
{
public:
    static constexpr uint32_t RATE_BITS = 4;    //!< width of the rate code
    static constexpr uint32_t TIME_BITS = 24;   //!< width of the timestamp
    static constexpr uint32_t BYTES_BITS = 20;  //!< width of txBytes
    static constexpr uint32_t QLEN_BITS = 16;   //!< width of qLen
    static constexpr uint64_t BYTES_UNIT = 128; //!< bytes per txBytes unit
    static constexpr uint64_t QLEN_UNIT = 128;  //!< bytes per qLen unit
    /// Link rates the 4-bit code can carry, in Mb/s; index = code (0: no rate).
    static constexpr std::array<uint64_t, 16> RATE_TABLE_MBPS = {0,
                                                                 1000,
                                                                 2500,
                                                                 5000,
                                                                 10000,
                                                                 20000,
                                                                 25000,
                                                                 40000,
                                                                 50000,
                                                                 100000,
                                                                 200000,
                                                                 400000,
                                                                 800000,
                                                                 1600000,
                                                                 0,
                                                                 0};

    /// An all-zero record (rate code 0).
    IntHop() = default;

    /**
     * \brief A record from the port's values.
     * \throws std::invalid_argument naming the rate if \p rate is not in RATE_TABLE_MBPS
     * \param rate the port's link rate
     * \param now the time the packet leaves
     * \param txBytes bytes the port sent before the packet (any width: taken modulo)
     * \param qlenBytes bytes queued at the port (saturates)
     * \return the record
     */
    static IntHop Make(DataRate rate, Time now, uint64_t txBytes, uint64_t qlenBytes);

    /**
     * \brief A record from the port's values, with the rate code already looked up (RateCode;
     * a switch does it once per port).
     * \throws std::invalid_argument if \p rateCode is 0 (the port's rate has no code)
     * \param rateCode the code of the port's link rate
     * \param now the time the packet leaves
     * \param txBytes bytes the port sent before the packet (any width: taken modulo)
     * \param qlenBytes bytes queued at the port (saturates)
     * \return the record
     */
    static IntHop Make(uint32_t rateCode, Time now, uint64_t txBytes, uint64_t qlenBytes);

    /**
     * \brief The code of a link rate in RATE_TABLE_MBPS.
     * \param rate the rate
     * \return its code, 0 if it has none
     */
    static uint32_t RateCode(DataRate rate);

    /**
     * \brief Whether a link rate can be carried (is in RATE_TABLE_MBPS).
     * \param rate the rate
     * \return true if it has a code
     */
    static bool CanEncodeRate(DataRate rate);

    /**
     * \brief The record of a 64-bit word as on the wire (host order).
     * \param word the word
     * \return the record
     */
    static IntHop FromWord(uint64_t word);

    /**
     * \brief The record as one 64-bit word (host order; serialized in network order).
     * \return the word
     */
    uint64_t GetWord() const;

    /// \return the link rate code (0..15)
    uint32_t GetRateCode() const;
    /// \return the link rate in bit/s (0 for a code without rate)
    uint64_t GetLineRateBps() const;
    /// \return the timestamp field: ns modulo 2^24
    uint32_t GetTimeNs() const;
    /// \return the txBytes field in units of BYTES_UNIT (modulo 2^20)
    uint32_t GetBytesField() const;
    /// \return the qLen field in units of QLEN_UNIT
    uint32_t GetQlenField() const;
    /// \return the queue length in bytes (qLen x QLEN_UNIT)
    uint64_t GetQlenBytes() const;

    /**
     * \brief Time between an earlier record of the same port and this one.
     * \param earlier the earlier record
     * \return ns, modulo 2^24
     */
    uint64_t GetTimeDeltaNs(const IntHop& earlier) const;

    /**
     * \brief Bytes the port sent between an earlier record and this one.
     * \param earlier the earlier record
     * \return bytes (a multiple of BYTES_UNIT), modulo 2^20 units
     */
    uint64_t GetBytesDelta(const IntHop& earlier) const;

private:
    uint64_t m_word{0}; //!< the packed fields
};

/**
 * \ingroup dcon-wire
 * \brief The INT stack a RoCEv2 packet carries right after its BTH (data) or AETH (ACK) when
 * the BTH's INT bit is set (BthHeader::SetIntPresent): a hop count and one IntHop per switch
 * egress port the packet has left, in path order.
 *
 * Bytes on the wire (4 + 8 n, network byte order):
 * \verbatim
   byte 0      n: hop records that follow (0..MAX_HOPS)
   bytes 1-3   reserved, zero
   bytes 4..   n records of 8 bytes (IntHop), the first switch's first
   \endverbatim
 * A data packet leaves its NIC with n = 0 (4 bytes); each switch egress port appends one record
 * as the packet leaves (RdmaSwitch), so the frame grows by 8 bytes per hop; a port that finds
 * MAX_HOPS records appends nothing. The receiver NIC copies the stack into the ACK, where no
 * switch appends (the opcode is an ACK).
 */
class IntHeader : public Header
{
public:
    /// Most records a packet carries (the HPCC simulator's IntHeader::maxHop).
    static constexpr uint32_t MAX_HOPS = 5;
    /// Bytes before the records.
    static constexpr uint32_t BASE_BYTES = 4;
    /// Bytes per record.
    static constexpr uint32_t HOP_BYTES = 8;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    /// \return BASE_BYTES + HOP_BYTES x GetNHops()
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * \brief Read the stack.
     * \param start where it begins
     * \return bytes read; 0 (the stack left empty) if the count is above MAX_HOPS or the bytes
     * are too few
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief Append a record (a port leaving with MAX_HOPS records appends nothing).
     * \param hop the record
     * \return true if appended
     */
    bool Push(const IntHop& hop);

    /// \return records carried
    uint32_t GetNHops() const;

    /**
     * \brief One record.
     * \param i index, < GetNHops()
     * \return the record
     */
    const IntHop& GetHop(uint32_t i) const;

    /// Remove every record.
    void Clear();

private:
    uint8_t m_nHops{0};                    //!< records carried
    std::array<IntHop, MAX_HOPS> m_hops{}; //!< the records, path order
};

} // namespace ns3

#endif /* INT_HEADER_H */
