/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-partition.h"

#include "ns3/input-file.h"
#include "text-input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Degree (number of link ends) of every node.
std::vector<uint64_t>
Degrees(const TopologySpec& topo)
{
    std::vector<uint64_t> d(topo.nNodes, 0);
    for (const auto& l : topo.links)
    {
        if (l.a < topo.nNodes && l.b < topo.nNodes)
        {
            d[l.a]++;
            d[l.b]++;
        }
    }
    return d;
}

/// Union-find root with path halving.
uint32_t
Find(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

} // namespace

std::vector<uint32_t>
RankPartition::Balanced(const TopologySpec& topo, uint32_t ranks)
{
    if (ranks == 0)
    {
        throw std::invalid_argument("partition: the number of ranks must be >= 1");
    }
    const uint32_t n = topo.nNodes;
    std::vector<uint32_t> rank(n, 0);
    if (ranks == 1 || n == 0)
    {
        return rank;
    }
    // Groups: a host joins the node it is linked to.
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (const auto& l : topo.links)
    {
        if (l.a >= n || l.b >= n)
        {
            continue;
        }
        if (!topo.isSwitch[l.a] || !topo.isSwitch[l.b])
        {
            uint32_t ra = Find(parent, l.a);
            uint32_t rb = Find(parent, l.b);
            if (ra != rb)
            {
                parent[std::max(ra, rb)] = std::min(ra, rb); // the lowest id names the group
            }
        }
    }
    const std::vector<uint64_t> degree = Degrees(topo);
    struct Group
    {
        uint32_t root;
        bool hasHost;
        uint64_t work;
        std::vector<uint32_t> members;
    };
    std::vector<Group> groups;
    std::vector<uint32_t> groupOf(n, UINT32_MAX);
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t r = Find(parent, i);
        if (groupOf[r] == UINT32_MAX)
        {
            groupOf[r] = groups.size();
            groups.push_back({r, false, 0, {}});
        }
        Group& g = groups[groupOf[r]];
        g.members.push_back(i);
        g.work += degree[i];
        g.hasHost = g.hasHost || !topo.isSwitch[i];
    }
    if (groups.size() < ranks)
    {
        throw std::invalid_argument("partition: " + std::to_string(ranks) + " ranks but only "
                                    + std::to_string(groups.size())
                                    + " groups of nodes (a host stays with its switch)");
    }
    // Breadth-first order of the nodes from node 0 (neighbours in link order): groups that
    // share switches (the leaves or ToRs of one pod) come out next to each other.
    std::vector<std::vector<uint32_t>> adj(n);
    for (const auto& l : topo.links)
    {
        if (l.a < n && l.b < n)
        {
            adj[l.a].push_back(l.b);
            adj[l.b].push_back(l.a);
        }
    }
    std::vector<uint32_t> bfsOrder;
    std::vector<bool> seen(n, false);
    for (uint32_t start = 0; start < n; ++start)
    {
        if (seen[start])
        {
            continue;
        }
        seen[start] = true;
        std::size_t head = bfsOrder.size();
        bfsOrder.push_back(start);
        while (head < bfsOrder.size())
        {
            uint32_t x = bfsOrder[head++];
            for (uint32_t y : adj[x])
            {
                if (!seen[y])
                {
                    seen[y] = true;
                    bfsOrder.push_back(y);
                }
            }
        }
    }
    // 1. Groups with hosts, in that order, cut into consecutive runs of equal work.
    std::vector<std::size_t> hostGroups;
    std::vector<bool> placed(groups.size(), false);
    uint64_t hostWork = 0;
    for (uint32_t x : bfsOrder)
    {
        std::size_t g = groupOf[Find(parent, x)];
        if (groups[g].hasHost && !placed[g])
        {
            placed[g] = true;
            hostGroups.push_back(g);
            hostWork += groups[g].work;
        }
    }
    std::vector<uint64_t> load(ranks, 0);
    std::vector<bool> assigned(n, false);
    uint64_t done = 0;
    for (std::size_t k = 0; k < hostGroups.size(); ++k)
    {
        const Group& g = groups[hostGroups[k]];
        // The rank whose share the middle of this group falls in, but never leaving a later
        // rank without a group.
        uint64_t mid = done + g.work / 2;
        auto r = static_cast<uint32_t>(hostWork ? (mid * ranks) / hostWork : 0);
        r = std::min<uint32_t>(r, ranks - 1);
        const std::size_t left = hostGroups.size() - k;
        if (left <= ranks - 1 - r)
        {
            r = ranks - static_cast<uint32_t>(left);
        }
        done += g.work;
        load[r] += g.work;
        for (uint32_t m : g.members)
        {
            rank[m] = r;
            assigned[m] = true;
        }
    }
    // 2. Switches without hosts, layer by layer (hop distance to the nearest host: spines or
    // aggregation, then cores), each layer spread evenly over the ranks (they carry the traffic
    // between the groups); within that, a switch goes where most of its placed neighbours are
    // (an aggregation switch stays with its pod), ties to the rank with fewest of the layer.
    std::vector<uint32_t> dist(n, UINT32_MAX);
    std::vector<uint32_t> queue;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!topo.isSwitch[i])
        {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    for (std::size_t head = 0; head < queue.size(); ++head)
    {
        for (uint32_t y : adj[queue[head]])
        {
            if (dist[y] == UINT32_MAX)
            {
                dist[y] = dist[queue[head]] + 1;
                queue.push_back(y);
            }
        }
    }
    std::vector<uint32_t> rest;
    for (uint32_t x : bfsOrder)
    {
        if (!assigned[x])
        {
            rest.push_back(x);
        }
    }
    std::stable_sort(rest.begin(),
                     rest.end(),
                     [&dist](uint32_t a, uint32_t b)
                     {
                         return dist[a] < dist[b];
                     });
    std::map<uint32_t, uint32_t> layerSize;
    for (uint32_t x : rest)
    {
        layerSize[dist[x]]++;
    }
    std::map<uint32_t, std::vector<uint32_t>> layerCount;
    for (uint32_t x : rest)
    {
        std::vector<uint32_t>& count = layerCount[dist[x]];
        count.resize(ranks, 0);
        const uint32_t share = (layerSize[dist[x]] + ranks - 1) / ranks;
        std::vector<uint64_t> links(ranks, 0);
        for (uint32_t y : adj[x])
        {
            if (assigned[y])
            {
                links[rank[y]]++;
            }
        }
        uint32_t best = UINT32_MAX;
        for (uint32_t r = 0; r < ranks; ++r)
        {
            if (count[r] >= share)
            {
                continue;
            }
            if (best == UINT32_MAX || links[r] > links[best]
                || (links[r] == links[best] && count[r] < count[best]))
            {
                best = r;
            }
        }
        rank[x] = best; // some rank is below its share: the layer is not full yet
        assigned[x] = true;
        count[best]++;
        load[best] += degree[x];
    }
    // Every rank needs a node: take one from the rank with the most work if some rank is
    // empty (only possible with more ranks than groups with hosts).
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (load[r] == 0 && std::find(rank.begin(), rank.end(), r) == rank.end())
        {
            for (auto it = bfsOrder.rbegin(); it != bfsOrder.rend(); ++it)
            {
                uint32_t from = rank[*it];
                if (topo.isSwitch[*it] && groups[groupOf[Find(parent, *it)]].members.size() == 1
                    && std::count(rank.begin(), rank.end(), from) > 1)
                {
                    load[from] -= degree[*it];
                    rank[*it] = r;
                    load[r] += degree[*it];
                    break;
                }
            }
        }
    }
    return rank;
}

std::vector<uint32_t>
RankPartition::Read(const std::string& path, const TopologySpec& topo)
{
    if (IsNonRegularPath(path))
    {
        throw std::invalid_argument("partition file '" + path + "' is " + DescribePath(path)
                                    + ", not a file to read");
    }
    errno = 0;
    std::ifstream in(path);
    if (!in)
    {
        const int err = errno ? errno : EIO;
        throw std::invalid_argument("partition file '" + path + "' cannot be read ("
                                    + std::strerror(err) + ")");
    }
    std::vector<uint32_t> rank(topo.nNodes, UINT32_MAX);
    std::string line;
    uint64_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::string_view body(line);
        if (auto hash = body.find('#'); hash != std::string_view::npos)
        {
            body = body.substr(0, hash);
        }
        auto fields = textinput::SplitFields(body);
        if (fields.empty())
        {
            continue;
        }
        if (fields.size() != 2)
        {
            textinput::Fail(path, lineNo, "expected 'node rank'", body);
        }
        auto node = textinput::ParseUnsigned(fields[0], UINT32_MAX);
        if (!node || *node >= topo.nNodes)
        {
            textinput::Fail(path,
                            lineNo,
                            "node must be an integer in [0, " + std::to_string(topo.nNodes) + ")",
                            fields[0]);
        }
        auto r = textinput::ParseUnsigned(fields[1], UINT32_MAX - 1);
        if (!r)
        {
            textinput::Fail(path, lineNo, "rank must be a non-negative integer", fields[1]);
        }
        if (rank[*node] != UINT32_MAX)
        {
            textinput::Fail(path, lineNo, "node given twice", fields[0]);
        }
        rank[*node] = static_cast<uint32_t>(*r);
    }
    for (uint32_t i = 0; i < topo.nNodes; ++i)
    {
        if (rank[i] == UINT32_MAX)
        {
            throw std::invalid_argument("partition file '" + path + "' gives no rank for node "
                                        + std::to_string(i));
        }
    }
    return rank;
}

void
RankPartition::Write(std::ostream& out, const std::vector<uint32_t>& rank)
{
    for (std::size_t i = 0; i < rank.size(); ++i)
    {
        out << i << " " << rank[i] << "\n";
    }
}

void
RankPartition::Validate(const std::vector<uint32_t>& rank, const TopologySpec& topo, uint32_t ranks)
{
    if (rank.size() != topo.nNodes)
    {
        throw std::invalid_argument("partition: " + std::to_string(rank.size())
                                    + " ranks given for " + std::to_string(topo.nNodes) + " nodes");
    }
    std::vector<bool> used(ranks, false);
    for (uint32_t i = 0; i < topo.nNodes; ++i)
    {
        if (rank[i] >= ranks)
        {
            throw std::invalid_argument("partition: node " + std::to_string(i) + " is on rank "
                                        + std::to_string(rank[i]) + ", but the run has "
                                        + std::to_string(ranks) + " rank(s) (0.."
                                        + std::to_string(ranks - 1) + ")");
        }
        used[rank[i]] = true;
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (!used[r])
        {
            throw std::invalid_argument("partition: rank " + std::to_string(r)
                                        + " has no node (every rank needs at least one)");
        }
    }
    for (const auto& l : topo.links)
    {
        if (l.a < topo.nNodes && l.b < topo.nNodes && rank[l.a] != rank[l.b]
            && !l.delay.IsStrictlyPositive())
        {
            throw std::invalid_argument(
                "partition: link " + std::to_string(l.a) + " - " + std::to_string(l.b)
                + " joins rank " + std::to_string(rank[l.a]) + " and rank "
                + std::to_string(rank[l.b]) + " with a delay of "
                + std::to_string(l.delay.GetPicoSeconds())
                + " ps: ns-3's parallel engines need a positive delay on links between ranks "
                  "(their lookahead); keep both ends on one rank");
        }
    }
}

std::vector<uint64_t>
RankPartition::Work(const std::vector<uint32_t>& rank, const TopologySpec& topo, uint32_t ranks)
{
    std::vector<uint64_t> work(ranks, 0);
    const std::vector<uint64_t> degree = Degrees(topo);
    for (uint32_t i = 0; i < topo.nNodes && i < rank.size(); ++i)
    {
        if (rank[i] < ranks)
        {
            work[rank[i]] += degree[i];
        }
    }
    return work;
}

} // namespace ns3
