/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_REGISTRY_H
#define RDMA_QUEUE_REGISTRY_H

#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-switch
 * \brief What a switch egress queue discipline declares about itself: its short name (the
 * scenarios' --queue), which scenario option sets which of its attributes, which of its
 * attributes are its marking thresholds, and the feedback it gives the senders.
 *
 * Feedback names what a congestion control can react to (RdmaCcEntry::feedback): "ecn" (data
 * packets are marked CE, which the receivers echo and turn into CNPs) and "cnm" (congested flows
 * are reported to the switch's agent, which sends CNMs to their senders). A new queue may
 * declare a new kind; an algorithm that needs it then names it too.
 *
 * Each queue discipline's .cc file registers one entry with a static
 * RdmaQueueRegistry::Registration object. SwitchQueueSettings (the scenarios' queue options),
 * the refusal of --ns3:: attributes the scenarios set themselves, and dcon-bench's per-rate
 * thresholds read these entries instead of naming queue classes.
 */
struct RdmaQueueEntry
{
    /// An attribute of the queue and what sets it in the scenarios: "--option" (one option
    /// whose value is the attribute's), or a text saying how it is set.
    struct Setting
    {
        std::string attribute; //!< attribute name, e.g. "Kmin"
        std::string setter;    //!< e.g. "--kmin", or "--qcnm or --qcnmFraction (0: dynamic)"
    };

    std::string name;                    //!< short name for --queue (lower case), e.g. "red"
    std::string typeName;                //!< TypeId name, e.g. "ns3::RedEcnQueueDisc"
    std::vector<Setting> settings{};     //!< the attributes the scenarios set, in this order
    std::string lowThreshold{};          //!< attribute where ECN marking starts ("" = none)
    std::string highThreshold{};         //!< attribute of the upper marking threshold
    std::vector<std::string> feedback{}; //!< what it gives the senders: "ecn", "cnm", ...
    std::string summary{};               //!< one line: what the queue does (for --queue's help)

    /**
     * \brief The attribute that option \p option (without "--") sets alone.
     * \param option e.g. "kmin"
     * \return the attribute name, or "" if no setting is exactly "--option"
     */
    std::string GetAttribute(const std::string& option) const;

    /**
     * \brief The options (without "--") that set one attribute each, in declaration order.
     * \return e.g. {"kmin", "kmax", "pmax"}
     */
    std::vector<std::string> GetOptions() const;
};

/**
 * \ingroup dcon-switch
 * \brief The registry of switch egress queue disciplines (RdmaQueueEntry), ordered by short
 * name.
 */
class RdmaQueueRegistry
{
public:
    /// Registers one queue discipline when constructed (a static object in its .cc file).
    class Registration
    {
    public:
        /**
         * \brief Add \p entry to the registry.
         * \param entry the entry (name and TypeId name must be new)
         */
        explicit Registration(const RdmaQueueEntry& entry);
    };

    /**
     * \brief Every registered queue discipline, ordered by short name.
     * \return the entries
     */
    static std::vector<RdmaQueueEntry> GetAll();

    /**
     * \brief The entry of a TypeId name or short name; a queue discipline that registered no
     * entry (e.g. the plain ns3::RdmaEgressQueueDisc) gets an empty one with only its
     * typeName set.
     * \param name TypeId name or short name
     * \return the entry
     */
    static RdmaQueueEntry Lookup(const std::string& name);

    /**
     * \brief The short names, ordered.
     * \return e.g. {"dcon", "npecn", "red"}
     */
    static std::vector<std::string> GetNames();

    /**
     * \brief The feedback a queue discipline gives the senders: that of its entry, or of its
     * nearest registered parent (a subclass of RED-ECN marks as RED-ECN does).
     * \param queueDisc the queue discipline's TypeId
     * \return e.g. {"ecn"}; empty for a queue that signals nothing (or is not registered)
     */
    static std::vector<std::string> GetFeedback(TypeId queueDisc);
};

} // namespace ns3

#endif /* RDMA_QUEUE_REGISTRY_H */
