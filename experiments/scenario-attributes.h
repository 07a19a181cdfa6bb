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
 * \brief Set the user's attribute arguments as defaults (Config::SetDefault) and record them
 * as given by the user (AddUserAttributePath), so that a parameter set applied to a factory
 * (RdmaFabricHelper::SetCongestionControl) leaves them alone.
 * \throws std::invalid_argument naming the argument if it has no "=value", names an unknown
 * attribute or a value ReadValueText refuses (malformed, out of the attribute's range).
 * \param attributeArgs what ProgramFrame::GetAttributeArguments returned
 */
void ApplyAttributeArguments(const std::vector<std::string>& attributeArgs);

/**
 * \ingroup dcon-experiments
 * \brief The parameter set of \p cc that the scenarios' --dcqcnPreset option names: \p set if
 * the algorithm's registry entry has a set of that name (DCQCN and DCON: "paper", "cx4"), else
 * "" (its attribute defaults).
 * \throws std::invalid_argument naming \p set if no registered algorithm has a set of that
 * name.
 * \param cc the congestion control (short or TypeId name)
 * \param set the set's name
 * \return the set to apply, or ""
 */
std::string ParameterSetFor(const std::string& cc, const std::string& set);

/**
 * \ingroup dcon-experiments
 * \brief Refuse a parameter set chosen on the command line that changes nothing in the run: of
 * the values the algorithm's sets give, the algorithm in its mode (GetUnreadAttributes, with
 * the set applied) reads only ones that every other set among \p choices gives alike (DCON's
 * default Sender=Paper with --dcqcnPreset=cx4: the sets differ only in DCQCN's timers, which
 * Sender=Dcqcn reads). Attributes the user gave are left out (the user's values win).
 * \throws std::invalid_argument "--OPTION=SET does not apply: ..." naming what the mode reads
 * and the mode that reads the rest
 * \param option the option's name, e.g. "dcqcnPreset"
 * \param cc the congestion control (short or TypeId name)
 * \param set the set chosen
 * \param choices the option's values
 * \param lineRate the hosts' line rate (the sets' values depend on it)
 */
void RefuseUnreadParameterSet(const std::string& option,
                              const std::string& cc,
                              const std::string& set,
                              const std::vector<std::string>& choices,
                              DataRate lineRate);

/**
 * \ingroup dcon-experiments
 * \brief The algorithms that have a parameter set of a name (for ProgramFrame::SetOptionTypes
 * of an option that chooses it).
 * \param set the set's name, e.g. "paper"
 * \return their TypeId names (DCQCN and DCON for "paper")
 */
std::vector<std::string> ParameterSetUsers(const std::string& set);

/**
 * \ingroup dcon-experiments
 * \brief The queue disciplines whose switch agent has a window in base RTTs (DCON's, set by
 * the scenarios' --cnmWindowRtts), for ProgramFrame::SetOptionTypes.
 * \return their TypeId names
 */
std::vector<std::string> SwitchAgentWindowQueues();

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
 * (RdmaFabric::SetSwitchAgentWindowInRtts), which wins over a default the user gave as
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
