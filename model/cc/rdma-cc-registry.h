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
 * \brief What one congestion-control algorithm declares about itself: the one place that
 * names it and says which switch egress queue discipline it needs.
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

    /**
     * \brief The queue attributes the algorithm needs on a port of \p portRate (empty when it
     * declares none: the scenario's own settings of that queue discipline apply).
     * \param portRate the egress port's rate
     * \return attribute name and value pairs
     */
    std::vector<QueueAttribute> GetQueueAttributes(DataRate portRate) const;
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
