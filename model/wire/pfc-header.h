/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-wire
 * \brief IEEE 802.1Qbb priority-based flow control (PFC) MAC Control PDU.
 *
 * What follows the 14-byte Ethernet II header (EtherType 0x8808, destination
 * 01:80:C2:00:00:01) of a PFC frame; 46 bytes, network byte order:
 * \verbatim
   bytes 0-1    MAC Control opcode = 0x0101 (PFC)
   bytes 2-3    priority-enable vector (bit i = priority i, bits 8-15 zero)
   bytes 4-19   time[0] .. time[7], 16 bits each, in pause quanta of 512 bit times
   bytes 20-45  reserved, zero (pads the MAC Control payload to the 46-byte minimum)
   \endverbatim
 * A time of 0 with the enable bit set means "resume" (XON) for that priority.
 * Deserialize accepts any opcode; callers must check GetOpcode() == OPCODE_PFC
 * (802.3x PAUSE, for example, uses 0x0001).
 */
class PfcHeader : public Header
{
public:
    static constexpr uint16_t ETHERTYPE = 0x8808;   //!< MAC Control EtherType
    static constexpr uint16_t OPCODE_PFC = 0x0101;  //!< PFC opcode
    static constexpr uint32_t QUANTUM_BITS = 512;   //!< one pause quantum, in bit times
    static constexpr uint8_t NUM_PRIORITIES = 8;    //!< number of priorities (classes)
    static constexpr uint32_t SERIALIZED_SIZE = 46; //!< bytes on the wire
    static constexpr uint16_t MAX_QUANTA = 0xFFFF;  //!< largest pause time

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
     * \brief Default header: opcode 0x0101, no priority enabled, all times zero.
     */
    PfcHeader();

    /**
     * \brief Set the pause time of one priority and its enable bit.
     * \param priority 0..7
     * \param quanta pause time in quanta of 512 bit times (0 = resume)
     * \throws std::invalid_argument if priority >= 8
     */
    void SetPauseTime(uint8_t priority, uint16_t quanta);
    /**
     * \brief Get the pause time of one priority.
     * \param priority 0..7
     * \return the time field in quanta (whether or not the priority is enabled)
     * \throws std::invalid_argument if priority >= 8
     */
    uint16_t GetPauseTime(uint8_t priority) const;
    /**
     * \brief Whether the enable bit of one priority is set.
     * \param priority 0..7
     * \return true if the frame carries a time for this priority
     * \throws std::invalid_argument if priority >= 8
     */
    bool IsEnabled(uint8_t priority) const;
    /**
     * \brief The priority-enable vector.
     * \return the 16-bit vector (bit i = priority i)
     */
    uint16_t GetPriorityEnableVector() const;
    /**
     * \brief The MAC Control opcode (OPCODE_PFC unless deserialized from another frame).
     * \return the opcode
     */
    uint16_t GetOpcode() const;

    /**
     * \brief The reserved multicast destination address of MAC Control frames.
     * \return 01:80:c2:00:00:01
     */
    static Mac48Address GetMulticastDestination();
    /**
     * \brief Duration of a number of pause quanta at a link rate.
     *
     * quanta x 512 bits / rate, computed with DataRate::CalculateBitsTxTime.
     * \param quanta number of quanta
     * \param rate link rate
     * \return the pause duration
     * \throws std::invalid_argument if rate is 0
     */
    static Time QuantaToTime(uint16_t quanta, DataRate rate);
    /**
     * \brief Number of pause quanta that cover a duration at a link rate.
     *
     * The smallest q with QuantaToTime(q, rate) >= t (so rounded up, and consistent with
     * QuantaToTime), saturating at 65535.
     * \param t the duration (0 gives 0)
     * \param rate link rate
     * \return quanta, 0..65535
     * \throws std::invalid_argument if rate is 0 or t is negative
     */
    static uint16_t TimeToQuanta(Time t, DataRate rate);

private:
    /**
     * \brief Throw std::invalid_argument if priority >= NUM_PRIORITIES.
     * \param priority the priority to check
     * \param where the calling function, for the message
     */
    static void CheckPriority(uint8_t priority, const char* where);

    uint16_t m_opcode;                           //!< MAC Control opcode
    uint16_t m_enableVector;                     //!< priority-enable vector
    std::array<uint16_t, NUM_PRIORITIES> m_time; //!< pause time per priority, in quanta
};

} // namespace ns3

#endif /* PFC_HEADER_H */
