/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_PARTITION_H
#define RANK_PARTITION_H

#include "fabric-spec.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Which MPI rank runs each node of a topology (a parallel run's partition).
 *
 * A partition is a vector with one rank per topology node. Balanced() is the default: a host
 * stays with the node it is linked to (its leaf or ToR), and these groups, then the switches
 * without hosts (spines, aggregation, cores), are spread so that each rank gets a similar
 * share of port work (sum of node degrees), largest group first onto the least loaded rank.
 * Read() takes an explicit map from a text file. Validate() refuses what ns-3's engines
 * cannot run: a rank out of range, a rank without a node, a zero-delay link between ranks.
 */
class RankPartition
{
public:
    /**
     * \brief The default partition.
     * \param topo the topology
     * \param ranks number of ranks (>= 1)
     * \return one rank per node
     * \throws std::invalid_argument when there are fewer node groups than ranks
     */
    static std::vector<uint32_t> Balanced(const TopologySpec& topo, uint32_t ranks);

    /**
     * \brief Read an explicit partition: one "node rank" pair per line ('#' starts a comment),
     * every node of the topology exactly once.
     * \param path the file
     * \param topo the topology (for its node count)
     * \return one rank per node
     * \throws std::invalid_argument naming the file, line and bad token
     */
    static std::vector<uint32_t> Read(const std::string& path, const TopologySpec& topo);

    /**
     * \brief Write a partition in Read's format ("node rank" lines).
     * \param out the stream
     * \param rank one rank per node
     */
    static void Write(std::ostream& out, const std::vector<uint32_t>& rank);

    /**
     * \brief Check a partition against a topology and a rank count.
     * \param rank one rank per node
     * \param topo the topology
     * \param ranks the number of ranks of the run
     * \throws std::invalid_argument naming the node, rank or link at fault
     */
    static void Validate(const std::vector<uint32_t>& rank,
                         const TopologySpec& topo,
                         uint32_t ranks);

    /**
     * \brief Port work per rank: the sum of the degrees of its nodes.
     * \param rank one rank per node
     * \param topo the topology
     * \param ranks the number of ranks
     * \return the work of each rank
     */
    static std::vector<uint64_t> Work(const std::vector<uint32_t>& rank,
                                      const TopologySpec& topo,
                                      uint32_t ranks);
};

} // namespace ns3

#endif /* RANK_PARTITION_H */
