/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_ATTRIBUTE_TEXT_H
#define DCON_ATTRIBUTE_TEXT_H

#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief Refuse the text of a numeric attribute value that ns-3 cannot read.
 *
 * ns-3 reads a UintegerValue, IntegerValue or DoubleValue from text with an std::istringstream
 * and aborts the process (NS_ABORT_MSG_UNLESS) when the text is not one number to its end
 * ("2x", "many", "inf" or "0x1p3" for a double), and reads "-1" into an unsigned attribute as
 * its largest value. This check reads the text the same way first, so that such a value is an
 * error naming it instead. Texts of other value types, and unknown attributes, pass (ns-3's
 * fail-safe setters refuse those).
 * \throws std::invalid_argument naming \p what, the attribute, its type and the text
 * \param tid the type that has the attribute
 * \param name the attribute's name
 * \param value the text
 * \param what who asks (for the message), e.g. "RdmaNic::StartFlow: flow 3"
 */
void CheckAttributeNumberText(TypeId tid,
                              const std::string& name,
                              const std::string& value,
                              const std::string& what);

} // namespace ns3

#endif /* DCON_ATTRIBUTE_TEXT_H */
