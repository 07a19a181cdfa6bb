/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CC_REGISTRY_H
#define RDMA_CC_REGISTRY_H

#include "ns3/data-rate.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-cc
 * \brief A named parameter set of a congestion-control algorithm: attribute values of the
 * algorithm's TypeId as a function of the host line rate (e.g. DCQCN's "paper" and "cx4").
 *
 * RdmaFabricHelper::SetCongestionControl applies a set to every NIC's congestion-control
 * factory (not to ns-3's global defaults); an attribute the user gave on the command line
 * (SetUserAttributePaths) keeps the user's value.
 */
struct RdmaCcParameterSet
{
    /// Attribute name (of the algorithm's TypeId) and value in ns-3's string form.
    typedef std::pair<std::string, std::string> Value;
    /// The set's values at a host line rate (throws std::invalid_argument on a bad rate).
    typedef std::vector<Value> (*ValuesFunction)(DataRate lineRate);

    std::string name;      //!< short name, e.g. "paper" (lower case, no spaces)
    std::string summary;   //!< one line: where the values come from
    ValuesFunction values; //!< the values at a line rate
};

/**
 * \ingroup dcon-cc
 * \brief What one congestion-control algorithm declares about itself: the one place that
 * names it and says what it needs besides its sender and receiver: the switch egress queue
 * discipline, the queue's attribute values, an optional per-switch agent, named parameter
 * sets, the feedback it needs from a switch queue, and which of its attributes take the
 * fabric's base RTT and a rate floor.
 *
 * Each algorithm's .cc file registers one entry with a static RdmaCcRegistry::Registration
 * object. Examples, helpers, the benchmark and (through the examples' `--list-cc`) the Python
 * scripts read the registry instead of keeping lists of their own.
 */
struct RdmaCcEntry
{
    /// An attribute of the switch queue discipline: name and value in ns-3's string form.
    typedef std::pair<std::string, std::string> QueueAttribute;
    /// The queue attributes an algorithm needs on an egress port of a given rate.
    typedef std::vector<QueueAttribute> (*QueueAttributesFunction)(DataRate portRate);

    std::string name;      //!< short name, as given to --cc (lower case, no spaces)
    TypeId (*typeId)();    //!< the algorithm's GetTypeId
    std::string summary;   //!< one line: the algorithm and its source (for help texts)
    std::string queueDisc; //!< TypeId name of the switch egress queue discipline it needs
    QueueAttributesFunction queueAttributes{nullptr}; //!< attribute values it needs (or null)
    /// TypeId name of an RdmaSwitchAgent subclass that RdmaFabricHelper installs on every
    /// switch with a queue disc of type queueDisc (empty: none). DCON: its CNM generator.
    std::string switchAgent{};
    /// Named parameter sets (empty: none); the first is the default of the programs' option.
    std::vector<RdmaCcParameterSet> parameterSets{};
    /// The feedback it needs from the switch egress queue (RdmaQueueEntry::feedback), e.g.
    /// {"ecn"} (DCQCN) or {"ecn", "cnm"} (DCON); empty: it works over any queue (delay- or
    /// INT-based algorithms). RdmaFabricHelper refuses a queue that lacks one (GetQueueProblem).
    std::vector<std::string> feedback{};
    /// The attribute (a Time) that gives every flow one base RTT instead of its own, if the
    /// algorithm has one: a program that runs it as the HPCC simulator does sets it to the
    /// fabric's largest base RTT (dcon-bench; HPCC's BaseRtt). Empty: none.
    std::string baseRttAttribute{};
    /// The attribute (a DataRate) that is the algorithm's lowest sending rate, if it has one:
    /// what a program's rate-floor option sets (dcon-bench's --minRate). Empty: none.
    std::string rateFloorAttribute{};

    /**
     * \brief The parameter set of a name.
     * \param set the set's name
     * \return the set
     * \throws std::invalid_argument naming \p set and the known sets
     */
    const RdmaCcParameterSet& GetParameterSet(const std::string& set) const;

    /**
     * \brief The names of the parameter sets, in declaration order.
     * \return e.g. {"paper", "cx4"}
     */
    std::vector<std::string> GetParameterSetNames() const;

    /**
     * \brief A parameter set's values at \p lineRate, each checked against the algorithm's
     * TypeId (attribute exists, value readable).
     * \param set the set's name
     * \param lineRate the host line rate
     * \return attribute name and value pairs
     * \throws std::invalid_argument naming the set and the bad attribute or value
     */
    std::vector<RdmaCcParameterSet::Value> GetParameterValues(const std::string& set,
                                                              DataRate lineRate) const;

    /**
     * \brief The queue attributes the algorithm needs on a port of \p portRate (empty when it
     * declares none: the scenario's own settings of that queue discipline apply).
     * \param portRate the egress port's rate
     * \return attribute name and value pairs
     */
    std::vector<QueueAttribute> GetQueueAttributes(DataRate portRate) const;

    /**
     * \brief Why the algorithm cannot work over a switch egress queue discipline: the queue
     * (or its nearest registered parent, RdmaQueueRegistry::GetFeedback) lacks a kind of
     * feedback the algorithm needs (feedback).
     * \param queue the queue discipline's TypeId
     * \return "" if it can; else a sentence naming the algorithm, the queue, what is missing
     * and the algorithm's own queue (queueDisc)
     */
    std::string GetQueueProblem(TypeId queue) const;
};

/**
 * \ingroup dcon-cc
 * \brief The registry of congestion-control algorithms: short names (--cc), their TypeIds
 * and the switch queue discipline each needs.
 *
 * Entries are listed in the order of their names (std::string comparison), whatever the order
 * in which the library's static objects were constructed.
 */
class RdmaCcRegistry
{
public:
    /**
     * \brief Registers one algorithm when constructed (one static object per algorithm, in
     * the algorithm's .cc file).
     */
    class Registration
    {
    public:
        /**
         * \brief Add \p entry to the registry.
         * \param entry the algorithm's entry (name must be new)
         */
        explicit Registration(const RdmaCcEntry& entry);
    };

    /**
     * \brief Add an entry. Aborts (NS_FATAL_ERROR) on an empty or duplicate name: that is a
     * programming error found when the library loads.
     * \param entry the entry
     */
    static void Add(const RdmaCcEntry& entry);

    /**
     * \brief Every registered algorithm, ordered by name.
     * \return the entries
     */
    static std::vector<RdmaCcEntry> GetAll();

    /**
     * \brief The short names of every registered algorithm, ordered.
     * \return e.g. {"dcon", "dcqcn", ...}
     */
    static std::vector<std::string> GetNames();

    /**
     * \brief The names joined by ", " (for help and error texts).
     * \return e.g. "dcon, dcqcn, none"
     */
    static std::string GetNameList();

    /**
     * \brief The entry of a short name, or of a TypeId name: the entry of that TypeId or of
     * its nearest registered parent (a subclass of a registered algorithm needs what its parent
     * needs).
     * \throws std::invalid_argument naming \p name and listing the known names if no entry
     * matches.
     * \param name short name or TypeId name
     * \return the entry
     */
    static RdmaCcEntry Lookup(const std::string& name);

    /**
     * \brief The switch agent of the algorithm whose queue disc is \p queueDisc (or one of its
     * parents): the first such entry, by name, that declares an agent.
     * \param queueDisc the TypeId of a switch egress queue disc
     * \return the agent's TypeId name, or "" if no algorithm with that queue declares one
     */
    static std::string GetSwitchAgentFor(TypeId queueDisc);

    /**
     * \brief The help text of a --cc option: the known names and how the queue follows.
     * \return one line
     */
    static std::string GetCommandLineHelp();

    /**
     * \brief The text `--list-cc` prints: one line per algorithm, "name<TAB>queue disc
     * TypeId<TAB>summary". Scripts read the first column.
     * \return the text, each line ending in a newline
     */
    static std::string GetListing();
};

} // namespace ns3

#endif /* RDMA_CC_REGISTRY_H */
