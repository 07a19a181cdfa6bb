/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_VALUE_TEXT_H
#define DCON_VALUE_TEXT_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/**
 * \file
 * \ingroup dcon-util
 * \brief Strict readers of the value texts that ns-3 parses itself (Time, DataRate, QueueSize,
 * numbers), for command-line options, attribute arguments and input files.
 *
 * ns-3.37's own parsers abort the process on a text they cannot read (Time("2msx"),
 * DataRate("-1Gbps"), a double attribute "nan"), read only a prefix ("10 Gbps" is 10 bit/s,
 * "1.2.3KB" is 1200 B), wrap (QueueSize("5000000000B") is 705,032,704 B) or overflow (a time
 * of 1e999 ms). Each reader here accepts exactly the texts ns-3 reads correctly, returns what
 * ns-3 makes of them (the value is built by ns-3's own parser, so it is identical), and
 * otherwise throws std::invalid_argument naming \p what, the text (QuoteText) and what was
 * expected.
 */

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief Quote a text for an error message: '...' with every character that would not show
 * escaped: control characters as \\xNN, invisible or space-like Unicode characters (a byte-order
 * mark, a non-breaking space, zero-width and other space characters, line separators) as
 * \\uXXXX, bytes that are not UTF-8 as \\xNN; "'" and "\\" escaped with a backslash.
 * \param text the text
 * \return e.g. "'\\ufeff3'" for a byte-order mark before "3"
 */
std::string QuoteText(std::string_view text);

/**
 * \ingroup dcon-util
 * \brief The length of the UTF-8 sequence that starts at \p i of \p text (1 for ASCII), or 0 if
 * the bytes there are not UTF-8 (a stray continuation byte, a truncated or overlong sequence, a
 * surrogate, a code point above U+10FFFF).
 * \param text the text
 * \param i the position (< text.size())
 * \param[out] codePoint the code point (when the result is not 0)
 * \return the sequence's length in bytes, or 0
 */
std::size_t Utf8SequenceAt(std::string_view text, std::size_t i, uint32_t& codePoint);

/**
 * \ingroup dcon-util
 * \brief Read a non-negative decimal integer: digits only (no sign, no space), at most \p max.
 * \param text the text
 * \param max the largest value accepted
 * \return the value, or nothing if \p text is empty, holds another character or exceeds \p max
 */
std::optional<uint64_t> ReadDecimalUnsigned(std::string_view text, uint64_t max);

/**
 * \ingroup dcon-util
 * \brief A number for a message: up to 12 significant digits, without trailing zeros
 * (std::ostream's default notation: "0.8", "1e+300", "4294967296").
 * \param v the number
 * \return its text
 */
std::string FormatNumber(double v);

/**
 * \ingroup dcon-util
 * \brief Read a decimal number: an optional sign, digits with an optional point, an optional
 * exponent ("0.8", "-1.5e-3", ".5"); no space, no hexadecimal, no "inf" or "nan", and finite.
 * \param text the text
 * \return the value, or nothing
 */
std::optional<double> ReadDecimalNumber(std::string_view text);

/**
 * \ingroup dcon-util
 * \brief Read a time as ns-3 does (a decimal number, optionally followed by one of the units
 * s, ms, us, ns, ps, fs, min, h, d, y; no unit is seconds) at the current Time resolution.
 * \throws std::invalid_argument if the text is malformed, if the time is beyond ns-3's range
 * at the current resolution (about +-106 days at 1 ps), or if a non-zero time is finer than
 * the resolution (it would be 0).
 * \param text the text
 * \param what who reads it, for the message (e.g. "--stopTime")
 * \return the time
 */
Time ReadTimeText(const std::string& text, const std::string& what);

/**
 * \ingroup dcon-util
 * \brief Read a data rate as ns-3 does: a non-negative decimal number (no sign, no exponent)
 * and one of ns-3's units (bps, b/s, Bps, B/s, kbps, Kbps, kb/s, Kb/s, kBps, KBps, kB/s, KB/s,
 * Kib/s, KiB/s, Mbps, Mb/s, MBps, MB/s, Mib/s, MiB/s, Gbps, Gb/s, GBps, GB/s, Gib/s, GiB/s), or
 * digits alone (bit/s).
 * \throws std::invalid_argument if the text is malformed, the rate is not a whole number of
 * bit/s, or it exceeds 2^64 - 1 bit/s
 * \param text the text
 * \param what who reads it, for the message
 * \return the rate
 */
DataRate ReadDataRateText(const std::string& text, const std::string& what);

/**
 * \ingroup dcon-util
 * \brief Read a queue size as ns-3 does: a non-negative decimal number (no sign, no exponent)
 * and one of ns-3's units (B, kB, KB, KiB, MB, MiB; p, kp, Kp, Kip, Mp, Mip for packets).
 * \throws std::invalid_argument if the text is malformed, the size is not a whole number of
 * bytes (packets), or it exceeds 4294967295, the largest value of ns-3.37's QueueSize
 * \param text the text
 * \param what who reads it, for the message
 * \return the size
 */
QueueSize ReadQueueSizeText(const std::string& text, const std::string& what);

/**
 * \ingroup dcon-util
 * \brief Read a boolean as ns-3's command line does: true, false, 1, 0, t, f (an empty text,
 * a bare "--flag", is true).
 * \throws std::invalid_argument otherwise
 * \param text the text
 * \param what who reads it, for the message
 * \return the value
 */
bool ReadBoolText(const std::string& text, const std::string& what);

/**
 * \ingroup dcon-util
 * \brief A time for a message: seconds with up to 12 significant digits, e.g. "0.06 s",
 * "1e-12 s".
 * \param t the time
 * \return the text
 */
std::string FormatTime(Time t);

/**
 * \ingroup dcon-util
 * \brief A time exactly, as a whole number of the simulator's resolution unit and that unit,
 * e.g. "2000000ps" at ps resolution, "2000ns" at ns: text that ReadTimeText reads back to the
 * same Time. Unlike Time::GetPicoSeconds, which overflows beyond 106 days at a coarser
 * resolution, it holds every Time.
 * \param t the time
 * \return the text
 */
std::string FormatTimeSteps(Time t);

/**
 * \ingroup dcon-util
 * \brief The seconds of one unit of a Time resolution (Time::S: 1, Time::PS: 1e-12, ...).
 * \param unit the unit
 * \return the seconds
 */
long double SecondsPerTimeUnit(Time::Unit unit);

} // namespace ns3

#endif /* DCON_VALUE_TEXT_H */
