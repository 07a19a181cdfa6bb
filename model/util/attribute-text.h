/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_ATTRIBUTE_TEXT_H
#define DCON_ATTRIBUTE_TEXT_H

#include "ns3/attribute.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief Refuse the text of a numeric attribute value that ns-3 cannot read.
 *
 * ns-3 reads a UintegerValue, IntegerValue or DoubleValue from text with an std::istringstream
 * and aborts the process (NS_ABORT_MSG_UNLESS) when the text is not one number to its end
 * ("2x", "many", "inf" or "0x1p3" for a double), and reads "-1" into an unsigned attribute as
 * its largest value. This check reads the text the same way first, so that such a value is an
 * error naming it instead. Texts of other value types, and unknown attributes, pass (ns-3's
 * fail-safe setters refuse those). CheckAttributeText checks every value type.
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

/**
 * \ingroup dcon-util
 * \brief Read the text of a value for \p checker strictly (ValueText's readers for numbers,
 * times, rates and sizes; the checker's names for an enum; an existing TypeId name) and check
 * it against the checker's range, before ns-3's own parser sees it (which aborts, wraps or
 * reads a prefix on malformed text).
 * \throws std::invalid_argument "<what>: got '<text>', expected ..." for malformed text, a
 * value outside the checker's range or a value type that cannot be given as text (pointers)
 * \param checker the attribute's (or global value's) checker
 * \param text the text
 * \param what who gives it, e.g. "--ns3::RdmaDcqcn::G"
 * \return the value, valid for \p checker
 */
Ptr<AttributeValue> ReadValueText(Ptr<const AttributeChecker> checker,
                                  const std::string& text,
                                  const std::string& what);

/**
 * \ingroup dcon-util
 * \brief ReadValueText for the attribute \p name of \p tid (its own or a parent's).
 * \throws std::invalid_argument naming \p what if \p tid has no such attribute or the text is
 * refused by ReadValueText
 * \param tid the type
 * \param name the attribute's name
 * \param value the text
 * \param what who gives it (for the message)
 */
void CheckAttributeText(TypeId tid,
                        const std::string& name,
                        const std::string& value,
                        const std::string& what);

/**
 * \ingroup dcon-util
 * \brief The type that defines attribute \p name of \p tid: \p tid itself or the ancestor it
 * inherits the attribute from.
 * \param tid the type
 * \param name the attribute's name
 * \param[out] owner the defining type
 * \return false if neither \p tid nor an ancestor has the attribute
 */
bool FindAttributeOwner(TypeId tid, const std::string& name, TypeId* owner);

/**
 * \ingroup dcon-util
 * \brief Record the attribute defaults the user gave on the command line ("ns3::Type::Name",
 * the type that defines the attribute), so that code setting one of them on a factory or an
 * object (which would overwrite the user's value without a word) refuses to
 * (RefuseOverwritingUserAttribute). ProgramFrame::Parse records them.
 * \param paths the attributes, e.g. {"ns3::SwitchMmu::Headroom"}
 */
void SetUserAttributePaths(const std::vector<std::string>& paths);

/**
 * \ingroup dcon-util
 * \brief Refuse to set attribute \p name of \p tid on a factory or an object when the user gave
 * a default for it (SetUserAttributePaths): the user's value would be overwritten.
 * \throws std::invalid_argument naming the user's argument and \p setter
 * \param tid the type of the factory or object
 * \param name the attribute
 * \param setter who sets it and from what, e.g. "RdmaFabricHelper (every switch's MMU)"
 */
void RefuseOverwritingUserAttribute(TypeId tid, const std::string& name, const std::string& setter);

/**
 * \ingroup dcon-util
 * \brief Record one more attribute the user gave (see SetUserAttributePaths), e.g. from a
 * scenario configuration's attribute arguments.
 * \param path the attribute as "ns3::Type::Name" of the type that defines it
 */
void AddUserAttributePath(const std::string& path);

/**
 * \ingroup dcon-util
 * \brief Whether the user gave a default for attribute \p name of \p tid on the command line
 * (SetUserAttributePaths; the attribute as defined by \p tid or the ancestor it inherits it
 * from): a parameter set applied to a factory leaves such an attribute alone.
 * \param tid the type
 * \param name the attribute
 * \return true if the user gave it
 */
bool IsUserAttribute(TypeId tid, const std::string& name);

} // namespace ns3

#endif /* DCON_ATTRIBUTE_TEXT_H */
