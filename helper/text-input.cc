/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-input.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace textinput
{

void
Fail(const std::string& name, uint64_t line, const std::string& what, std::string_view token)
{
    std::ostringstream oss;
    oss << name << ":" << line << ": " << what << ", got '" << token << "'";
    throw std::invalid_argument(oss.str());
}

} // namespace textinput
} // namespace ns3
