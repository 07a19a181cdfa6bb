/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_SPEC_H
#define FABRIC_SPEC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup dcon-helper
 * \brief The vocabulary of fabrics and flows: TopologySpec, TopologyLinkSpec and FlowSpec.
 *
 * Plain structs that topology builders (LeafSpineHelper), flow generators
 * (PoissonFlowGenerator), the fabric and flow helpers and the HPCC-format reader and writer
 * (hpcc-format.h) share, so that none of them depends on a file format it does not read.
 */

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief One link of a topology: nodes \c a and \c b, its rate and one-way delay.
 */
struct TopologyLinkSpec
{
    uint32_t a;    //!< \brief One end (node id).
    uint32_t b;    //!< \brief The other end (node id), never equal to \c a.
    DataRate rate; //!< \brief Link rate, both directions.
    Time delay;    //!< \brief One-way propagation delay.
};

/**
 * \ingroup dcon-helper
 * \brief A topology: hosts, switches and the links between them (read from an HPCC topology
 * file, or built by LeafSpineHelper).
 *
 * Node ids are 0 .. nNodes-1; isSwitch[i] tells whether node i is a switch (otherwise a host).
 */
struct TopologySpec
{
    uint32_t nNodes{0};                  //!< \brief Number of nodes (hosts + switches).
    std::vector<bool> isSwitch;          //!< \brief Per node id: true for a switch.
    std::vector<TopologyLinkSpec> links; //!< \brief Links in file order.

    /**
     * \brief Ids of the hosts (nodes that are not switches).
     * \return host ids in ascending order
     */
    std::vector<uint32_t> GetHostIds() const;

    /**
     * \brief Ids of the switches.
     * \return switch ids in ascending order
     */
    std::vector<uint32_t> GetSwitchIds() const;
};

/**
 * \ingroup dcon-helper
 * \brief One flow: endpoints, priority, port, size and start (a line of an HPCC flow file, or
 * drawn by PoissonFlowGenerator).
 */
struct FlowSpec
{
    uint32_t src;           //!< \brief Sending host id.
    uint32_t dst;           //!< \brief Receiving host id, never equal to \c src.
    uint32_t priorityGroup; //!< \brief Priority group (HPCC's "pg"; 3 in its files).
    uint16_t dport;         //!< \brief Destination port.
    uint64_t sizeBytes;     //!< \brief Flow size in bytes, > 0.
    Time start;             //!< \brief Start time (absolute simulation time), >= 0.
};

/**
 * \brief Compare every field of two flows.
 * \param a first flow
 * \param b second flow
 * \return true if all fields are equal
 */
bool operator==(const FlowSpec& a, const FlowSpec& b);

/**
 * \brief Compare two flows.
 * \param a first flow
 * \param b second flow
 * \return true if any field differs
 */
bool operator!=(const FlowSpec& a, const FlowSpec& b);

} // namespace ns3

#endif /* FABRIC_SPEC_H */
