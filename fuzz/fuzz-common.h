/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_FUZZ_COMMON_H
#define DCON_FUZZ_COMMON_H

/**
 * \file
 * Shared pieces of dcon's libFuzzer targets (fuzz/<target>.cc).
 *
 * A target gets arbitrary bytes. The parsers' contract: malformed input throws
 * std::invalid_argument (text readers) or is refused by the return value (frame headers).
 * Anything else (a crash, a sanitizer report, a failed FUZZ_CHECK, another exception type
 * escaping, which libFuzzer reports as a deadly signal) is a bug.
 */

#include "ns3/packet.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

/// Abort (a crash libFuzzer records) when an invariant of the parsed value does not hold.
#define FUZZ_CHECK(cond)                                                                           \
    do                                                                                             \
    {                                                                                              \
        if (!(cond))                                                                               \
        {                                                                                          \
            std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            std::abort();                                                                          \
        }                                                                                          \
    } while (false)

namespace dconfuzz
{

/**
 * \brief The input as text.
 * \param data the bytes
 * \param size their number
 * \return the same bytes as a string
 */
inline std::string
AsText(const uint8_t* data, size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/**
 * \brief A header's Print() output.
 * \param h the header
 * \return the text
 */
template <typename H>
std::string
Printed(const H& h)
{
    std::ostringstream oss;
    h.Print(oss);
    return oss.str();
}

/**
 * \brief Deserialize a header from the start of arbitrary bytes, as a receiver does
 * (Packet::PeekHeader), and check the result.
 *
 * Checks: never more bytes consumed than there are; a header that was read (non-zero size)
 * is exactly GetSerializedSize() bytes, and serializing it and reading it back gives the same
 * header (same Print() output).
 * \param data the bytes
 * \param size their number
 * \param[out] h the header read
 * \return the bytes consumed (0: the bytes are not such a header)
 */
template <typename H>
uint32_t
DeserializeAndCheck(const uint8_t* data, size_t size, H& h)
{
    ns3::Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(data, static_cast<uint32_t>(size));
    const uint32_t n = p->PeekHeader(h);
    FUZZ_CHECK(n <= size);
    if (n == 0)
    {
        return 0;
    }
    FUZZ_CHECK(n == h.GetSerializedSize());
    ns3::Ptr<ns3::Packet> q = ns3::Create<ns3::Packet>();
    q->AddHeader(h);
    FUZZ_CHECK(q->GetSize() == n);
    H again;
    FUZZ_CHECK(q->PeekHeader(again) == n);
    FUZZ_CHECK(Printed(again) == Printed(h));
    return n;
}

/**
 * \brief DeserializeAndCheck for a header of fixed size H::SERIALIZED_SIZE: it is read unless
 * the bytes are too few.
 * \param data the bytes
 * \param size their number
 * \param[out] h the header read
 * \return whether a header was read
 */
template <typename H>
bool
ReadFixedSize(const uint8_t* data, size_t size, H& h)
{
    const bool read = DeserializeAndCheck(data, size, h) != 0;
    FUZZ_CHECK(read == (size >= H::SERIALIZED_SIZE));
    return read;
}

} // namespace dconfuzz

#endif /* DCON_FUZZ_COMMON_H */
