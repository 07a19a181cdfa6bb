/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LEAF_SPINE_HELPER_H
#define LEAF_SPINE_HELPER_H

#include "fabric-spec.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Describes a two-tier leaf-spine (folded Clos) topology: every leaf links to every
 * spine, and each leaf has its own hosts.
 *
 * Node numbering of the TopologySpec: hosts first, leaf by leaf (host i of leaf l), then the
 * leaves, then the spines. Links: host links first (in host order), then leaf l to spine s in
 * (l, s) order, so leaf l's port to spine s is hostsOnLeaf(l) + s and spine s's port to leaf l
 * is l.
 */
class LeafSpineHelper
{
public:
    /**
     * \brief A leaf-spine with the same number of hosts on every leaf.
     * \param spines number of spines (>= 1)
     * \param leaves number of leaves (>= 1)
     * \param hostsPerLeaf hosts per leaf (>= 1)
     */
    LeafSpineHelper(uint32_t spines, uint32_t leaves, uint32_t hostsPerLeaf);

    /**
     * \brief A leaf-spine with a given number of hosts on each leaf.
     * \param spines number of spines (>= 1)
     * \param hostsPerLeaf hosts of each leaf (each >= 0, at least one host in all)
     */
    LeafSpineHelper(uint32_t spines, const std::vector<uint32_t>& hostsPerLeaf);

    /**
     * \brief Rate and delay of host-leaf links.
     * \param rate line rate
     * \param delay propagation delay
     */
    void SetHostLink(DataRate rate, Time delay);

    /**
     * \brief Rate and delay of leaf-spine links.
     * \param rate line rate
     * \param delay propagation delay
     */
    void SetFabricLink(DataRate rate, Time delay);

    /**
     * \brief Line rate of leaf-spine links.
     * \return the rate
     */
    DataRate GetFabricLinkRate() const;

    /**
     * \brief Propagation delay of leaf-spine links.
     * \return the delay
     */
    Time GetFabricLinkDelay() const;

    /**
     * \brief The topology.
     * \return the spec, for RdmaFabricHelper::Build
     */
    TopologySpec GetTopology() const;

    /**
     * \brief Node index of a host.
     * \param leaf the leaf
     * \param i host number on that leaf
     * \return the node index
     */
    uint32_t GetHost(uint32_t leaf, uint32_t i) const;
    /**
     * \brief Node index of a leaf.
     * \param leaf the leaf
     * \return the node index
     */
    uint32_t GetLeaf(uint32_t leaf) const;
    /**
     * \brief Node index of a spine.
     * \param spine the spine
     * \return the node index
     */
    uint32_t GetSpine(uint32_t spine) const;
    /**
     * \brief Total hosts.
     * \return the count
     */
    uint32_t GetNHosts() const;
    /**
     * \brief Number of leaves.
     * \return the count
     */
    uint32_t GetNLeaves() const;
    /**
     * \brief Number of spines.
     * \return the count
     */
    uint32_t GetNSpines() const;
    /**
     * \brief Hosts on one leaf.
     * \param leaf the leaf
     * \return the count
     */
    uint32_t GetNHostsOnLeaf(uint32_t leaf) const;

    /**
     * \brief Core (leaf-uplink) load per unit of host-link load, with uniform random
     * destinations: N R_h f / (L S R_f), where f = sum_l h_l (N - h_l) / (N (N - 1)) is the
     * fraction of host pairs (hence of bytes) on different leaves, each crossing one uplink.
     * \return the factor (0 with fewer than 2 hosts)
     */
    double GetCoreLoadPerHostLoad() const;

    /**
     * \brief The DCON paper's testbed topology (its Fig. 1, 2, 6): spines S0, S1; leaves L0 and L1
     * with 8 hosts each and L2 with 2 (R0, R1); 40 Gb/s and 5 us on every link. DconTestbed
     * says which sender sits where.
     * \return the helper
     */
    static LeafSpineHelper DconTestbed();

private:
    uint32_t m_spines;
    std::vector<uint32_t> m_hostsPerLeaf;
    std::vector<uint32_t> m_firstHost;
    uint32_t m_nHosts{0};
    DataRate m_hostRate{"40Gbps"};
    Time m_hostDelay{MicroSeconds(5)};
    DataRate m_fabricRate{"40Gbps"};
    Time m_fabricDelay{MicroSeconds(5)};
};

} // namespace ns3

#endif /* LEAF_SPINE_HELPER_H */
