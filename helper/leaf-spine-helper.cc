/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "leaf-spine-helper.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeafSpineHelper");

namespace
{
/// The hosts per leaf of a uniform leaf-spine, after checking in 64 bits that its node ids fit
/// in 32 (before a vector of \p leaves entries is allocated).
std::vector<uint32_t>
UniformHostsPerLeaf(uint32_t spines, uint32_t leaves, uint32_t hostsPerLeaf)
{
    const uint64_t nodes = uint64_t(spines) + leaves + uint64_t(leaves) * hostsPerLeaf;
    if (nodes > UINT32_MAX)
    {
        throw std::invalid_argument("leaf-spine: " + std::to_string(spines) + " spines + "
                                    + std::to_string(leaves) + " leaves x (1 + "
                                    + std::to_string(hostsPerLeaf)
                                    + " hosts) = " + std::to_string(nodes) + " nodes, more than "
                                    + std::to_string(UINT32_MAX) + " (node ids are 32-bit)");
    }
    return std::vector<uint32_t>(leaves, hostsPerLeaf);
}
} // namespace

LeafSpineHelper::LeafSpineHelper(uint32_t spines, uint32_t leaves, uint32_t hostsPerLeaf)
    : LeafSpineHelper(spines, UniformHostsPerLeaf(spines, leaves, hostsPerLeaf))
{
    NS_LOG_FUNCTION(this << spines << leaves << hostsPerLeaf);
    if (leaves == 0 || hostsPerLeaf == 0)
    {
        throw std::invalid_argument("leaf-spine: need at least one leaf and one host per leaf, "
                                    "got leaves="
                                    + std::to_string(leaves)
                                    + " hostsPerLeaf=" + std::to_string(hostsPerLeaf));
    }
}

LeafSpineHelper::LeafSpineHelper(uint32_t spines, const std::vector<uint32_t>& hostsPerLeaf)
    : m_spines(spines)
    , m_hostsPerLeaf(hostsPerLeaf)
{
    NS_LOG_FUNCTION(this << spines << hostsPerLeaf.size());
    if (spines == 0)
    {
        throw std::invalid_argument("leaf-spine: need at least one spine, got 0");
    }
    if (hostsPerLeaf.empty())
    {
        throw std::invalid_argument("leaf-spine: need at least one leaf, got 0");
    }
    // Counted in 64 bits: node ids (hosts, then leaves, then spines) must fit in 32.
    uint64_t nodes = uint64_t(spines) + hostsPerLeaf.size();
    for (uint32_t h : hostsPerLeaf)
    {
        m_firstHost.push_back(m_nHosts);
        nodes += h;
        if (nodes > UINT32_MAX)
        {
            throw std::invalid_argument(
                "leaf-spine: " + std::to_string(spines) + " spines, "
                + std::to_string(hostsPerLeaf.size()) + " leaves and their hosts are more than "
                + std::to_string(UINT32_MAX) + " nodes (node ids are 32-bit)");
        }
        m_nHosts += h;
    }
    if (m_nHosts == 0)
    {
        throw std::invalid_argument("leaf-spine: no hosts");
    }
}

void
LeafSpineHelper::SetHostLink(DataRate rate, Time delay)
{
    NS_LOG_FUNCTION(this << rate << delay);
    m_hostRate = rate;
    m_hostDelay = delay;
}

void
LeafSpineHelper::SetFabricLink(DataRate rate, Time delay)
{
    NS_LOG_FUNCTION(this << rate << delay);
    m_fabricRate = rate;
    m_fabricDelay = delay;
}

DataRate
LeafSpineHelper::GetFabricLinkRate() const
{
    return m_fabricRate;
}

Time
LeafSpineHelper::GetFabricLinkDelay() const
{
    return m_fabricDelay;
}

uint32_t
LeafSpineHelper::GetHost(uint32_t leaf, uint32_t i) const
{
    if (leaf >= m_hostsPerLeaf.size() || i >= m_hostsPerLeaf[leaf])
    {
        throw std::invalid_argument("leaf-spine: no host " + std::to_string(i) + " on leaf "
                                    + std::to_string(leaf));
    }
    return m_firstHost[leaf] + i;
}

uint32_t
LeafSpineHelper::GetLeaf(uint32_t leaf) const
{
    if (leaf >= m_hostsPerLeaf.size())
    {
        throw std::invalid_argument("leaf-spine: no leaf " + std::to_string(leaf));
    }
    return m_nHosts + leaf;
}

uint32_t
LeafSpineHelper::GetSpine(uint32_t spine) const
{
    if (spine >= m_spines)
    {
        throw std::invalid_argument("leaf-spine: no spine " + std::to_string(spine));
    }
    return m_nHosts + m_hostsPerLeaf.size() + spine;
}

uint32_t
LeafSpineHelper::GetNHosts() const
{
    return m_nHosts;
}

uint32_t
LeafSpineHelper::GetNLeaves() const
{
    return m_hostsPerLeaf.size();
}

uint32_t
LeafSpineHelper::GetNSpines() const
{
    return m_spines;
}

uint32_t
LeafSpineHelper::GetNHostsOnLeaf(uint32_t leaf) const
{
    if (leaf >= m_hostsPerLeaf.size())
    {
        throw std::invalid_argument("leaf-spine: no leaf " + std::to_string(leaf));
    }
    return m_hostsPerLeaf[leaf];
}

double
LeafSpineHelper::GetCoreLoadPerHostLoad() const
{
    const double n = m_nHosts;
    if (m_nHosts < 2)
    {
        return 0;
    }
    double interLeafPairs = 0;
    for (uint32_t h : m_hostsPerLeaf)
    {
        interLeafPairs += h * (n - h);
    }
    double f = interLeafPairs / (n * (n - 1));
    double uplinks = static_cast<double>(m_hostsPerLeaf.size()) * m_spines;
    return n * static_cast<double>(m_hostRate.GetBitRate()) * f
           / (uplinks * static_cast<double>(m_fabricRate.GetBitRate()));
}

TopologySpec
LeafSpineHelper::GetTopology() const
{
    TopologySpec t;
    uint32_t leaves = m_hostsPerLeaf.size();
    t.nNodes = m_nHosts + leaves + m_spines;
    t.isSwitch.assign(t.nNodes, true);
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        t.isSwitch[h] = false;
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t i = 0; i < m_hostsPerLeaf[l]; ++i)
        {
            t.links.push_back({GetHost(l, i), GetLeaf(l), m_hostRate, m_hostDelay});
        }
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < m_spines; ++s)
        {
            t.links.push_back({GetLeaf(l), GetSpine(s), m_fabricRate, m_fabricDelay});
        }
    }
    return t;
}

LeafSpineHelper
LeafSpineHelper::DconTestbed()
{
    LeafSpineHelper h(2, std::vector<uint32_t>{8, 8, 2});
    h.SetHostLink(DataRate("40Gbps"), MicroSeconds(5));
    h.SetFabricLink(DataRate("40Gbps"), MicroSeconds(5));
    return h;
}

} // namespace ns3
