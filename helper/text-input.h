/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TEXT_INPUT_H
#define TEXT_INPUT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * \file
 * \ingroup dcon-helper
 * \brief Small pieces shared by dcon's text-file readers (HPCC formats, flow-size CDFs): the
 * common error format and the field separators.
 */

namespace ns3
{
namespace textinput
{

/**
 * \brief Throw std::invalid_argument formatted as "<name>:<line>: <what>, got '<token>'".
 *
 * The token is quoted with QuoteText: control characters (NUL, ESC, ...) are written as
 * \\xNN and invisible Unicode characters (a byte-order mark, a non-breaking space) as \\uXXXX,
 * so the message shows the whole token: a NUL would otherwise end what() early.
 * \param name the input's name (usually the file name)
 * \param line the 1-based line number (0 if the input could not be opened)
 * \param what what is wrong
 * \param token the offending text
 */
[[noreturn]] void Fail(const std::string& name,
                       uint64_t line,
                       const std::string& what,
                       std::string_view token);

/**
 * \brief Whether a character separates fields (CR counts, so CRLF files read fine).
 * \param c the character
 * \return true for space, tab, CR, VT, FF
 */
inline bool
IsSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/**
 * \brief Split a line into its fields (runs of non-separator characters).
 * \param line the line
 * \return views into \p line, in order (empty for a blank line)
 */
std::vector<std::string_view> SplitFields(std::string_view line);

/**
 * \brief Parse a non-negative decimal integer: digits only (no sign, no spaces), at most
 * \p max.
 * \param token the text
 * \param max the largest allowed value
 * \return the value, or nothing if \p token is empty, has another character, or exceeds \p max
 */
std::optional<uint64_t> ParseUnsigned(std::string_view token, uint64_t max);

} // namespace textinput
} // namespace ns3

#endif /* TEXT_INPUT_H */
