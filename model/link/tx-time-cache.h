/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TX_TIME_CACHE_H
#define TX_TIME_CACHE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>
#include <utility>

namespace ns3
{

/**
 * \ingroup dcon-link
 * \brief Remembers DataRate::CalculateBytesTxTime for the last few sizes at one rate.
 *
 * CalculateBytesTxTime goes through floating point and 128-bit time arithmetic, several hundred
 * instructions a call. A link or a paced queue pair sends a handful of sizes (full packets,
 * ACKs, PFC frames) at a rate that changes far less often than once per packet, so almost every
 * call is answered here. The answers are the library's own, so results do not change; a new
 * rate empties the cache.
 */
class TxTimeCache
{
public:
    /**
     * \param rate the rate
     * \param bytes bytes to serialize
     * \return rate.CalculateBytesTxTime(bytes)
     */
    Time
    Get(const DataRate& rate, uint32_t bytes)
    {
        return Get(rate.GetBitRate(), rate, bytes);
    }

    /**
     * \brief Serialization time of a frame, the rate's bit/s given by the caller.
     * \param bps rate.GetBitRate()
     * \param rate the rate
     * \param bytes the frame's bytes
     * \return its serialization time
     */
    Time
    Get(uint64_t bps, const DataRate& rate, uint32_t bytes)
    {
        if (bps != m_bps)
        {
            m_entries.fill({0, Time(0)});
            m_bps = bps;
        }
        for (const auto& [b, t] : m_entries)
        {
            if (b == bytes)
            {
                return t;
            }
        }
        Time t = rate.CalculateBytesTxTime(bytes);
        m_entries[m_next] = {bytes, t};
        m_next = (m_next + 1) % m_entries.size();
        return t;
    }

private:
    std::array<std::pair<uint32_t, Time>, 4> m_entries{}; //!< (bytes, time); 0 bytes take 0 s
    uint32_t m_next{0};                                   //!< next entry to replace
    uint64_t m_bps{0};                                    //!< rate the entries are for
};

} // namespace ns3

#endif // TX_TIME_CACHE_H
