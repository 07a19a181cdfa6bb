/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RATE_FIELD_H
#define RATE_FIELD_H

#include "ns3/data-rate.h"

#include <cstdint>
#include <limits>

namespace ns3
{

/// Unit of the 32-bit rate fields of CNP (RecRate) and CNM (capacity): 1 Mb/s.
constexpr uint64_t RATE_FIELD_UNIT_BPS = 1000000;

/**
 * \ingroup dcon-wire
 * \brief Encode a rate as a 32-bit header field in units of 1 Mb/s (CNP RecRate, CNM capacity):
 * rounded half up, saturating at 0xFFFFFFFF.
 * \param rate the rate
 * \return the field value
 */
inline uint32_t
RateToMbpsField(DataRate rate)
{
    constexpr uint64_t unit = RATE_FIELD_UNIT_BPS;
    constexpr uint64_t maxField = std::numeric_limits<uint32_t>::max();
    uint64_t bps = rate.GetBitRate();
    uint64_t mbps = bps / unit + ((bps % unit) >= unit / 2 ? 1 : 0);
    return static_cast<uint32_t>(mbps > maxField ? maxField : mbps);
}

/**
 * \ingroup dcon-wire
 * \brief Decode a 32-bit rate field in units of 1 Mb/s.
 * \param field the field value
 * \return the rate
 */
inline DataRate
MbpsFieldToRate(uint32_t field)
{
    return DataRate(static_cast<uint64_t>(field) * RATE_FIELD_UNIT_BPS);
}

} // namespace ns3

#endif /* RATE_FIELD_H */
