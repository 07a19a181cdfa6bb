/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CHECKED_OPTIONS_H
#define CHECKED_OPTIONS_H

#include "ns3/callback.h"
#include "ns3/command-line.h"
#include "text-input.h"

#include <iostream>
#include <limits>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief Add an unsigned integer option that accepts only a decimal integer in
 * [\p minValue, the type's maximum].
 *
 * ns-3's CommandLine reads an unsigned variable with operator>>, which turns "-1" into
 * 4294967295 without a word. With this option a sign, any other character or an out-of-range
 * value prints "error: --NAME=VALUE is not an integer in [MIN, MAX]" and CommandLine then
 * stops the program with its usage message (exit status 1).
 * \tparam T an unsigned integer type
 * \param cmd the command line
 * \param name the option name (without "--")
 * \param help its help text
 * \param value the variable (must outlive the parse); its value is the default shown
 * \param minValue the smallest accepted value
 */
template <typename T>
void
AddUnsignedValue(
    CommandLine& cmd, const std::string& name, const std::string& help, T& value, T minValue = 0)
{
    static_assert(std::is_unsigned_v<T>, "AddUnsignedValue is for unsigned integer types");
    cmd.AddValue(
        name,
        help,
        // A lambda, converted by CommandLine's own Callback type: ns-3.37 takes
        // Callback<bool, std::string>, ns-3.48 Callback<bool, const std::string&>.
        // (Wrapping it in one of them and letting ns-3 convert to the other casts
        // between unrelated CallbackImpl types: UBSan reports it.)
        [&value, name, minValue](const std::string& text)
        {
            constexpr uint64_t maxValue = std::numeric_limits<T>::max();
            std::optional<uint64_t> v = textinput::ParseUnsigned(text, maxValue);
            if (!v || *v < minValue)
            {
                std::cerr << "error: --" << name << "=" << text << " is not an integer in ["
                          << uint64_t(minValue) << ", " << maxValue << "]\n";
                return false;
            }
            value = static_cast<T>(*v);
            return true;
        },
        std::to_string(value));
}

} // namespace ns3

#endif /* CHECKED_OPTIONS_H */
