/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_ATTRIBUTES_H
#define SCENARIO_ATTRIBUTES_H

#include "ns3/data-rate.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class ProgramFrame;

/**
 * \ingroup dcon-experiments
 * \brief Apply a DCQCN parameter set (RdmaDcqcn::SetPreset) if the congestion control runs
 * DCQCN's attributes (DCQCN itself and DCON, a subclass), and then the user's attribute
 * arguments again, so that a preset never overrides a value the user gave.
 * \throws std::invalid_argument naming the argument if it has no "=value", names an unknown
 * attribute or a value ReadValueText refuses (malformed, out of the attribute's range), or
 * naming the preset or cc if they are unknown.
 * \param cc the congestion control (short or TypeId name)
 * \param preset "paper" or "cx4"
 * \param lineRate the NICs' line rate (scales the "cx4" steps)
 * \param attributeArgs what ProgramFrame::GetAttributeArguments returned
 */
void ApplyCcPreset(const std::string& cc,
                   const std::string& preset,
                   DataRate lineRate,
                   const std::vector<std::string>& attributeArgs);

/**
 * \ingroup dcon-experiments
 * \brief The attributes the testbed and large-scale scenarios set themselves, each with the
 * option that sets it ("--xoff" for ns3::SwitchMmu::XOff, "--cc" for
 * ns3::RdmaNic::CongestionControl, ...) or, for those no option sets, why ("none: ...").
 * \return (attribute, option) pairs
 */
std::vector<std::pair<std::string, std::string>> GetScenarioOwnedAttributes();

/**
 * \ingroup dcon-experiments
 * \brief Declare the attributes of GetScenarioOwnedAttributes as set by the program
 * (ProgramFrame::SetOwned): "use --option" when the program has that option; with no option,
 * the reason; an attribute whose option the program lacks is declared with \p fallback, or
 * not at all if \p fallback is empty (the program does not set it).
 * \param frame the program's command line (its options added)
 * \param fallback why the program sets the attributes it has no option for ("" if it does not)
 */
void OwnScenarioAttributes(ProgramFrame& frame, const std::string& fallback = "");

/**
 * \ingroup dcon-experiments
 * \brief Reject attribute arguments that the testbed and large-scale scenarios would overwrite
 * without a word.
 *
 * The scenarios set the MMU's and the queue disciplines' attributes on their factories
 * (SwitchQueueSettings::Apply) and the CNM window on the built switches
 * (RdmaFabric::SetCnmWindowInRtts), which wins over a default the user gave as
 * "--ns3::Type::Attribute=value". Each of these attributes has an option of its own (--xoff
 * for ns3::SwitchMmu::XOff, --qcnm for ns3::DconQueueDisc::QCnm, --cnmWindowRtts for
 * ns3::DconIngressTracker::Window, ...), so an argument naming one of them is an error that
 * names the argument and the option to use instead.
 * \param attributeArgs what ProgramFrame::GetAttributeArguments returned
 * ("ns3::Type::Attribute=value")
 * \throws std::invalid_argument on the first such argument
 */
void RejectScenarioSetAttributes(const std::vector<std::string>& attributeArgs);

} // namespace ns3

#endif /* SCENARIO_ATTRIBUTES_H */
