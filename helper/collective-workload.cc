/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-workload.h"

#include "atomic-output-file.h"
#include "monitor-codec.h"
#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/log.h"
#include "ns3/parallel-run.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveWorkload");

using monitor_codec::Seconds;

namespace
{
/// The UDP source ports the workload gives its messages: below the NICs' own 49152..65535.
constexpr uint32_t FIRST_PORT = 1024;
/// Number of ports in the range.
constexpr uint32_t PORT_RANGE = 49152 - FIRST_PORT;
/// The most messages a workload holds (flow ids are 32 bits; memory).
constexpr uint64_t MAX_MESSAGES = 200000000;
/// Iteration gate, arrival of what it forwards, connection order: what a message waits for.
constexpr uint8_t GATE = 1;

/// \return "job 'name': "
std::string
Who(const CollectiveJob& job)
{
    return "job '" + job.name + "': ";
}
} // namespace

CollectiveWorkload::CollectiveWorkload(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows)
    : m_fabric(fabric)
    , m_flows(flows)
{
    NS_LOG_FUNCTION(this << fabric << flows);
    m_placementRng = CreateObject<UniformRandomVariable>();
    m_portRng = CreateObject<UniformRandomVariable>();
}

uint32_t
CollectiveWorkload::AddJob(CollectiveJob job)
{
    if (m_installed)
    {
        throw std::logic_error("CollectiveWorkload::AddJob after Install");
    }
    if (job.name.empty())
    {
        job.name = "job" + std::to_string(m_jobs.size());
    }
    for (const CollectiveJob& j : m_jobs)
    {
        if (j.name == job.name)
        {
            throw std::invalid_argument("job name '" + job.name + "' is given twice");
        }
    }
    job.Check();
    if (job.sync == CollectiveSync::ALL && ParallelRun::IsEnabled())
    {
        throw std::invalid_argument(Who(job)
                                    + "sync all (a barrier over the job's ranks) needs "
                                      "a sequential run; use sync rank");
    }
    m_jobs.push_back(job);
    return m_jobs.size() - 1;
}

int64_t
CollectiveWorkload::AssignStreams(int64_t stream)
{
    m_placementRng->SetStream(stream);
    m_portRng->SetStream(stream + 1);
    return 2;
}

void
CollectiveWorkload::SetStopWhenDone(bool enable, Time drain)
{
    if (drain.IsStrictlyNegative())
    {
        throw std::invalid_argument("CollectiveWorkload::SetStopWhenDone: the drain time must "
                                    "be >= 0");
    }
    m_stopWhenDone = enable;
    m_drain = drain;
}

const std::vector<CollectiveJob>&
CollectiveWorkload::GetJobs() const
{
    return m_jobs;
}

const std::vector<uint32_t>&
CollectiveWorkload::GetHosts(uint32_t job) const
{
    return m_hosts.at(job);
}

const std::vector<CollectiveWorkload::Message>&
CollectiveWorkload::GetMessages() const
{
    return m_messages;
}

const std::vector<uint32_t>&
CollectiveWorkload::GetPathNodes(uint32_t path) const
{
    return m_paths.at(path);
}

uint32_t
CollectiveWorkload::GetJobOfFlow(uint32_t flowId) const
{
    if (flowId < m_firstFlow || flowId - m_firstFlow >= m_messages.size())
    {
        return UINT32_MAX;
    }
    return m_messages[flowId - m_firstFlow].job;
}

uint64_t
CollectiveWorkload::ReceiveKey(uint32_t src, uint32_t dst, uint16_t sport)
{
    return (uint64_t(src) << 40) ^ (uint64_t(dst) << 16) ^ sport;
}

// ----------------------------------------------------------------------------- placement

void
CollectiveWorkload::Place()
{
    const uint32_t nodes = m_fabric->GetNNodes();
    // a host's leaf: the switch at the other end of its link
    m_leafOf.assign(nodes, UINT32_MAX);
    std::vector<uint32_t> leafNode(nodes, UINT32_MAX);
    std::set<uint32_t> leaves;
    m_neighbour.assign(nodes, {});
    m_linkOf.assign(nodes, {});
    const auto& allLinks = m_fabric->GetLinks();
    for (uint32_t li = 0; li < allLinks.size(); ++li)
    {
        const RdmaFabric::Link& l = allLinks[li];
        for (int end = 0; end < 2; ++end)
        {
            const uint32_t node = end == 0 ? l.a : l.b;
            const uint32_t port = end == 0 ? l.portA : l.portB;
            const uint32_t peer = end == 0 ? l.b : l.a;
            auto& n = m_neighbour[node];
            if (n.size() <= port)
            {
                n.resize(port + 1, UINT32_MAX);
            }
            n[port] = peer;
            auto& lo = m_linkOf[node];
            if (lo.size() <= port)
            {
                lo.resize(port + 1, UINT32_MAX);
            }
            lo[port] = li;
            if (!m_fabric->IsSwitch(node) && m_fabric->IsSwitch(peer))
            {
                leafNode[node] = peer;
                leaves.insert(peer);
            }
        }
    }
    m_leaves.assign(leaves.begin(), leaves.end());
    m_spines.clear();
    for (uint32_t s : m_fabric->GetSwitches())
    {
        if (!leaves.count(s))
        {
            m_spines.push_back(s);
        }
    }
    m_hostsOfLeaf.assign(m_leaves.size(), {});
    for (uint32_t h : m_fabric->GetHosts())
    {
        auto it = std::lower_bound(m_leaves.begin(), m_leaves.end(), leafNode[h]);
        if (it == m_leaves.end() || *it != leafNode[h])
        {
            continue; // a host linked to a host (not in a switched fabric)
        }
        m_leafOf[h] = it - m_leaves.begin();
        m_hostsOfLeaf[m_leafOf[h]].push_back(h);
    }

    std::vector<bool> used(nodes, false);
    std::vector<uint32_t> owner(nodes, UINT32_MAX);
    m_hosts.assign(m_jobs.size(), {});
    // listed hosts first
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        if (job.placement != CollectivePlacement::LIST)
        {
            continue;
        }
        for (uint32_t h : job.hosts)
        {
            if (h >= nodes || m_fabric->IsSwitch(h))
            {
                throw std::invalid_argument(Who(job) + "node " + std::to_string(h)
                                            + (h >= nodes ? " does not exist (the fabric has "
                                                                + std::to_string(nodes) + " nodes)"
                                                          : " is a switch, not a host"));
            }
            if (used[h])
            {
                throw std::invalid_argument(Who(job) + "host " + std::to_string(h)
                                            + " is a rank of job '" + m_jobs[owner[h]].name
                                            + "' already (a host runs one rank)");
            }
            used[h] = true;
            owner[h] = j;
        }
        m_hosts[j] = job.hosts;
    }
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        if (m_jobs[j].placement != CollectivePlacement::LIST)
        {
            m_hosts[j] = PlaceJob(m_jobs[j], used);
        }
    }
}

std::vector<uint32_t>
CollectiveWorkload::PlaceJob(const CollectiveJob& job, std::vector<bool>& used)
{
    const uint32_t n = job.ranks;
    std::vector<uint32_t> out;
    uint32_t free = 0;
    for (const auto& hs : m_hostsOfLeaf)
    {
        for (uint32_t h : hs)
        {
            free += !used[h];
        }
    }
    auto tooFew = [&job, n](uint32_t have, const std::string& what)
    {
        return std::invalid_argument(Who(job) + "needs " + std::to_string(n) + " hosts, "
                                     + std::to_string(have) + " " + what);
    };
    switch (job.placement)
    {
        case CollectivePlacement::PACKED:
            for (const auto& hs : m_hostsOfLeaf)
            {
                for (uint32_t h : hs)
                {
                    if (!used[h] && out.size() < n)
                    {
                        out.push_back(h);
                    }
                }
            }
            break;
        case CollectivePlacement::SPREAD:
        {
            std::vector<std::size_t> next(m_hostsOfLeaf.size(), 0);
            bool progress = true;
            while (out.size() < n && progress)
            {
                progress = false;
                for (std::size_t l = 0; l < m_hostsOfLeaf.size() && out.size() < n; ++l)
                {
                    const auto& hs = m_hostsOfLeaf[l];
                    while (next[l] < hs.size() && used[hs[next[l]]])
                    {
                        ++next[l];
                    }
                    if (next[l] < hs.size())
                    {
                        out.push_back(hs[next[l]++]);
                        progress = true;
                    }
                }
            }
            break;
        }
        case CollectivePlacement::RANDOM:
        {
            std::vector<uint32_t> pool;
            for (const auto& hs : m_hostsOfLeaf)
            {
                for (uint32_t h : hs)
                {
                    if (!used[h])
                    {
                        pool.push_back(h);
                    }
                }
            }
            std::sort(pool.begin(), pool.end());
            // Fisher-Yates on the ns-3 stream, the first n
            for (uint32_t i = 0; i < pool.size() && i < n; ++i)
            {
                const uint32_t k = m_placementRng->GetInteger(i, pool.size() - 1);
                std::swap(pool[i], pool[k]);
                out.push_back(pool[i]);
            }
            break;
        }
        case CollectivePlacement::RAIL:
        {
            const uint32_t g = job.gpusPerServer;
            if (m_leaves.size() % g != 0)
            {
                throw std::invalid_argument(Who(job) + "rail placement with " + std::to_string(g)
                                            + " GPUs per server needs the leaves in groups of "
                                            + std::to_string(g) + " (one rail each), but there are "
                                            + std::to_string(m_leaves.size()) + " leaves");
            }
            uint32_t servers = 0;
            for (uint32_t q = 0; q * g < m_leaves.size() && out.size() < n; ++q)
            {
                std::size_t depth = SIZE_MAX;
                for (uint32_t i = 0; i < g; ++i)
                {
                    depth = std::min(depth, m_hostsOfLeaf[q * g + i].size());
                }
                for (std::size_t s = 0; s < depth && out.size() < n; ++s)
                {
                    bool freeServer = true;
                    for (uint32_t i = 0; i < g; ++i)
                    {
                        freeServer = freeServer && !used[m_hostsOfLeaf[q * g + i][s]];
                    }
                    if (!freeServer)
                    {
                        continue;
                    }
                    ++servers;
                    for (uint32_t i = 0; i < g && out.size() < n; ++i)
                    {
                        out.push_back(m_hostsOfLeaf[q * g + i][s]);
                    }
                }
            }
            if (out.size() < n)
            {
                throw std::invalid_argument(Who(job) + "needs " + std::to_string((n + g - 1) / g)
                                            + " free servers of " + std::to_string(g)
                                            + " GPUs (one per rail), " + std::to_string(servers)
                                            + " are free");
            }
            break;
        }
        case CollectivePlacement::LIST:
            break;
    }
    if (out.size() < n)
    {
        throw tooFew(free, "are free");
    }
    for (uint32_t h : out)
    {
        used[h] = true;
    }
    return out;
}

// ----------------------------------------------------------------------------- paths

std::vector<uint32_t>
CollectiveWorkload::Walk(uint32_t src, uint32_t dst, uint16_t sport) const
{
    RdmaFiveTuple t;
    t.src = m_fabric->GetAddress(src);
    t.dst = m_fabric->GetAddress(dst);
    t.sport = sport;
    t.dport = BthHeader::ROCEV2_UDP_PORT;
    t.protocol = 17;
    std::vector<uint32_t> path;
    uint32_t node = m_neighbour[src].at(0);
    for (uint32_t hop = 0; hop < 64 && node != dst; ++hop)
    {
        if (!m_fabric->IsSwitch(node))
        {
            break;
        }
        path.push_back(node);
        const uint32_t port = m_fabric->GetSwitch(node)->Route(t);
        if (port == UINT32_MAX || port >= m_neighbour[node].size())
        {
            break;
        }
        node = m_neighbour[node][port];
    }
    if (node != dst)
    {
        throw std::logic_error("CollectiveWorkload: no route from node " + std::to_string(src)
                               + " to " + std::to_string(dst));
    }
    return path;
}

uint32_t
CollectiveWorkload::PathIndex(const std::vector<uint32_t>& nodes)
{
    auto it = m_pathIndex.find(nodes);
    if (it != m_pathIndex.end())
    {
        return it->second;
    }
    m_paths.push_back(nodes);
    m_pathIndex.emplace(nodes, m_paths.size() - 1);
    return m_paths.size() - 1;
}

std::vector<uint32_t>
CollectiveWorkload::ColourSpines(const std::vector<std::pair<uint32_t, uint32_t>>& edges) const
{
    // Bipartite edge colouring (source leaves | destination leaves) with as many colours as the
    // largest degree (Koenig): each edge takes a colour free at both ends, after swapping two
    // colours along an alternating path when needed.
    const std::size_t nl = m_leaves.size();
    std::vector<uint32_t> degL(nl, 0);
    std::vector<uint32_t> degR(nl, 0);
    for (const auto& [u, v] : edges)
    {
        ++degL[u];
        ++degR[v];
    }
    uint32_t colours = 1;
    for (std::size_t i = 0; i < nl; ++i)
    {
        colours = std::max({colours, degL[i], degR[i]});
    }
    std::vector<std::vector<int64_t>> atL(nl, std::vector<int64_t>(colours, -1));
    std::vector<std::vector<int64_t>> atR(nl, std::vector<int64_t>(colours, -1));
    std::vector<uint32_t> colour(edges.size(), 0);
    auto freeAt = [colours](const std::vector<int64_t>& slots)
    {
        for (uint32_t c = 0; c < colours; ++c)
        {
            if (slots[c] < 0)
            {
                return c;
            }
        }
        return colours; // cannot happen: degree <= colours
    };
    for (std::size_t e = 0; e < edges.size(); ++e)
    {
        const auto [u, v] = edges[e];
        const uint32_t a = freeAt(atL[u]);
        if (atR[v][a] >= 0)
        {
            // a is used at v: swap a and b on the path from v that alternates a, b, ...
            const uint32_t b = freeAt(atR[v]);
            std::vector<std::size_t> path;
            uint32_t x = v;
            bool right = true;
            uint32_t want = a;
            while (true)
            {
                const int64_t f = right ? atR[x][want] : atL[x][want];
                if (f < 0)
                {
                    break;
                }
                path.push_back(f);
                x = right ? edges[f].first : edges[f].second;
                right = !right;
                want = want == a ? b : a;
            }
            for (std::size_t f : path)
            {
                atL[edges[f].first][colour[f]] = -1;
                atR[edges[f].second][colour[f]] = -1;
            }
            for (std::size_t f : path)
            {
                colour[f] = colour[f] == a ? b : a;
                atL[edges[f].first][colour[f]] = f;
                atR[edges[f].second][colour[f]] = f;
            }
        }
        colour[e] = a;
        atL[u][a] = e;
        atR[v][a] = e;
    }
    std::vector<uint32_t> spine(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e)
    {
        spine[e] = colour[e] % m_spines.size();
    }
    return spine;
}

void
CollectiveWorkload::ChoosePorts()
{
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        const JobLayout& lay = m_layout[j];
        const auto& hosts = m_hosts[j];
        // the job's connections in the order they first appear: (src rank, dst rank) -> phase
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> phaseOf;
        std::vector<std::pair<uint32_t, uint32_t>> order;
        for (const CollectiveTransfer& tr : lay.schedule)
        {
            if (phaseOf.emplace(std::make_pair(tr.src, tr.dst), tr.phase).second)
            {
                order.emplace_back(tr.src, tr.dst);
            }
        }
        // the spine of each cross-leaf connection (pinned paths): colour each phase
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> spineOf;
        if (job.paths == CollectivePaths::PINNED)
        {
            if (m_spines.empty())
            {
                throw std::invalid_argument(Who(job)
                                            + "pinned paths need spines (a two-tier "
                                              "leaf-spine)");
            }
            for (uint32_t leaf : m_leaves)
            {
                for (uint32_t s : m_spines)
                {
                    if (std::find(m_neighbour[leaf].begin(), m_neighbour[leaf].end(), s)
                        == m_neighbour[leaf].end())
                    {
                        throw std::invalid_argument(
                            Who(job)
                            + "pinned paths need a two-tier leaf-spine (every leaf "
                              "linked to every spine), but switch "
                            + std::to_string(leaf) + " has no link to switch " + std::to_string(s));
                    }
                }
            }
            std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> phases;
            for (const auto& c : order)
            {
                if (m_leafOf[hosts[c.first]] != m_leafOf[hosts[c.second]])
                {
                    phases[phaseOf.at(c)].push_back(c);
                }
            }
            for (const auto& [phase, conns] : phases)
            {
                std::vector<std::pair<uint32_t, uint32_t>> edges;
                for (const auto& c : conns)
                {
                    edges.emplace_back(m_leafOf[hosts[c.first]], m_leafOf[hosts[c.second]]);
                }
                const std::vector<uint32_t> spines = ColourSpines(edges);
                for (std::size_t i = 0; i < conns.size(); ++i)
                {
                    spineOf[conns[i]] = m_spines[spines[i]];
                }
            }
        }
        // each connection's port: a queue pair's random one (ECMP), or one whose data and ACKs
        // both cross the connection's spine (pinned)
        std::map<std::pair<uint32_t, uint32_t>, std::pair<uint16_t, uint32_t>> portOf;
        for (const auto& c : order)
        {
            const uint32_t a = hosts[c.first];
            const uint32_t b = hosts[c.second];
            uint32_t offset = m_portRng->GetInteger(0, PORT_RANGE - 1);
            auto spine = spineOf.find(c);
            bool found = false;
            for (uint32_t tries = 0; tries < PORT_RANGE && !found; ++tries)
            {
                const auto port = static_cast<uint16_t>(FIRST_PORT + offset);
                offset = (offset + 1) % PORT_RANGE;
                const std::vector<uint32_t> path = Walk(a, b, port);
                bool match = true;
                if (spine != spineOf.end())
                {
                    match = path.size() == 3 && path[1] == spine->second;
                    if (match)
                    {
                        const std::vector<uint32_t> back = Walk(b, a, port);
                        match = back.size() == 3 && back[1] == spine->second;
                    }
                }
                if (match)
                {
                    portOf[c] = {port, PathIndex(path)};
                    found = true;
                }
            }
            if (!found)
            {
                throw std::invalid_argument(
                    Who(job) + "no UDP source port in " + std::to_string(FIRST_PORT) + ".."
                    + std::to_string(FIRST_PORT + PORT_RANGE - 1) + " takes host "
                    + std::to_string(a) + " to host " + std::to_string(b) + " and back through "
                    + "switch " + std::to_string(spine->second));
            }
        }
        for (uint64_t i = lay.first; i < lay.first + lay.perIteration * job.iterations; ++i)
        {
            Message& m = m_messages[i];
            const auto& [port, path] = portOf.at({m.srcRank, m.dstRank});
            m.sport = port;
            m.path = path;
        }
    }
}

// ----------------------------------------------------------------------------- install

void
CollectiveWorkload::Install()
{
    NS_LOG_FUNCTION(this);
    if (m_installed)
    {
        throw std::logic_error("CollectiveWorkload::Install called twice");
    }
    m_installed = true;
    // A connection's messages arrive in the order they were sent only on a lossless fabric (a
    // retransmission could let a later message complete first): without PFC the next message of
    // a connection waits for the previous one's last ACK.
    for (uint32_t sw : m_fabric->GetSwitches())
    {
        BooleanValue pfc;
        m_fabric->GetSwitch(sw)->GetMmu()->GetAttribute("PfcEnabled", pfc);
        m_orderOnAck = m_orderOnAck || !pfc.Get();
    }
    Place();
    // the messages of every job and iteration
    uint64_t total = 0;
    m_layout.assign(m_jobs.size(), {});
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        JobLayout& lay = m_layout[j];
        lay.schedule = MakeCollectiveSchedule(job);
        lay.first = total;
        lay.perIteration = lay.schedule.size();
        if (lay.perIteration * job.iterations > MAX_MESSAGES - total)
        {
            throw std::invalid_argument(
                Who(job) + std::to_string(lay.perIteration) + " messages per iteration x "
                + std::to_string(job.iterations) + " iterations: more than the "
                + std::to_string(MAX_MESSAGES) + " messages (flows) a workload holds");
        }
        total += lay.perIteration * job.iterations;
        lay.sendsOf.assign(job.ranks, {});
        lay.receives.assign(job.ranks, 0);
        for (uint32_t t = 0; t < lay.schedule.size(); ++t)
        {
            lay.sendsOf[lay.schedule[t].src].push_back(t);
            ++lay.receives[lay.schedule[t].dst];
        }
    }
    m_messages.resize(total);
    m_state.resize(total);
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        const JobLayout& lay = m_layout[j];
        for (uint32_t it = 0; it < job.iterations; ++it)
        {
            const uint64_t base = lay.first + it * lay.perIteration;
            for (uint64_t t = 0; t < lay.perIteration; ++t)
            {
                const CollectiveTransfer& tr = lay.schedule[t];
                Message& m = m_messages[base + t];
                m.job = j;
                m.iteration = it;
                m.step = tr.step;
                m.chunk = tr.chunk;
                m.srcRank = tr.src;
                m.dstRank = tr.dst;
                m.src = m_hosts[j][tr.src];
                m.dst = m_hosts[j][tr.dst];
                m.bytes = tr.bytes;
                State& s = m_state[base + t];
                s.waiting = GATE + (tr.after >= 0) + (tr.connectionBefore >= 0);
                if (tr.after >= 0)
                {
                    NS_ASSERT(m_state[base + tr.after].enables < 0);
                    m_state[base + tr.after].enables = base + t;
                }
                if (tr.connectionBefore >= 0)
                {
                    NS_ASSERT(m_state[base + tr.connectionBefore].connectionNext < 0);
                    m_state[base + tr.connectionBefore].connectionNext = base + t;
                }
            }
        }
    }
    ChoosePorts();
    // the flows, and where each message is recognized when it arrives
    std::unordered_map<uint64_t, uint64_t> tail;
    m_sameKeyNext.assign(total, -1);
    for (uint64_t i = 0; i < total; ++i)
    {
        Message& m = m_messages[i];
        m.flowId
            = m_flows->AddTriggeredFlow(m.src, m.dst, m.bytes, m_jobs[m.job].priority, m.sport);
        if (i == 0)
        {
            m_firstFlow = m.flowId;
        }
        NS_ASSERT(m.flowId == m_firstFlow + i);
        const uint64_t key = ReceiveKey(m.src, m.dst, m.sport);
        auto t = tail.find(key);
        if (t == tail.end())
        {
            m_receiveHead[key] = i;
        }
        else
        {
            m_sameKeyNext[t->second] = i;
        }
        tail[key] = i;
        m_localPending += m_fabric->IsLocal(m.src);
    }
    // per job and iteration: what each rank still has to receive and have acknowledged
    m_remaining.assign(m_jobs.size(), {});
    m_rankStart.assign(m_jobs.size(), {});
    m_rankEnd.assign(m_jobs.size(), {});
    m_ranksDone.assign(m_jobs.size(), {});
    std::set<uint32_t> members;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        const JobLayout& lay = m_layout[j];
        m_remaining[j].resize(uint64_t(job.iterations) * job.ranks);
        for (uint32_t it = 0; it < job.iterations; ++it)
        {
            for (uint32_t r = 0; r < job.ranks; ++r)
            {
                m_remaining[j][it * job.ranks + r] = lay.sendsOf[r].size() + lay.receives[r];
            }
        }
        m_rankStart[j].assign(uint64_t(job.iterations) * job.ranks, Time(-1));
        m_rankEnd[j].assign(uint64_t(job.iterations) * job.ranks, Time(-1));
        m_ranksDone[j].assign(job.iterations, 0);
        for (uint32_t r = 0; r < job.ranks; ++r)
        {
            const uint32_t h = m_hosts[j][r];
            members.insert(h);
            if (m_fabric->IsLocal(h))
            {
                Simulator::Schedule(job.start - Simulator::Now(),
                                    &CollectiveWorkload::StartIteration,
                                    this,
                                    j,
                                    0,
                                    r);
            }
        }
    }
    for (uint32_t h : members)
    {
        if (!m_fabric->IsLocal(h))
        {
            continue;
        }
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        nic->TraceConnectWithoutContext("FlowSent",
                                        MakeCallback(&CollectiveWorkload::FlowSent, this));
        nic->TraceConnectWithoutContext("FlowComplete",
                                        MakeCallback(&CollectiveWorkload::FlowAcked, this));
        nic->TraceConnectWithoutContext(
            "MessageReceived", MakeCallback(&CollectiveWorkload::MessageReceived, this).Bind(h));
    }
    if (m_stopWhenDone && m_localPending == 0)
    {
        Simulator::Schedule(Time(0), &CollectiveWorkload::CheckDone, this);
    }
}

// ----------------------------------------------------------------------------- the run

void
CollectiveWorkload::StartIteration(uint32_t job, uint32_t iteration, uint32_t rank)
{
    const JobLayout& lay = m_layout[job];
    m_rankStart[job][uint64_t(iteration) * m_jobs[job].ranks + rank] = Simulator::Now();
    const uint64_t base = lay.first + iteration * lay.perIteration;
    for (uint32_t t : lay.sendsOf[rank])
    {
        Release(base + t);
    }
}

void
CollectiveWorkload::Release(uint64_t msg)
{
    State& s = m_state[msg];
    NS_ASSERT(s.waiting > 0);
    if (--s.waiting == 0)
    {
        // started by an event of its own: a NIC's trace may have called this in the middle of
        // its work
        Simulator::ScheduleNow(&CollectiveWorkload::StartMessage, this, msg);
    }
}

void
CollectiveWorkload::StartMessage(uint64_t msg)
{
    Message& m = m_messages[msg];
    m.start = Simulator::Now();
    m_flows->StartTriggered(m.flowId);
}

void
CollectiveWorkload::FlowSent(uint32_t flowId)
{
    if (flowId < m_firstFlow || flowId - m_firstFlow >= m_messages.size())
    {
        return;
    }
    const uint64_t msg = flowId - m_firstFlow;
    m_messages[msg].sent = Simulator::Now();
    if (!m_orderOnAck && m_state[msg].connectionNext >= 0)
    {
        Release(m_state[msg].connectionNext);
    }
}

void
CollectiveWorkload::FlowAcked(const RdmaFlowRecord& rec)
{
    if (rec.flowId < m_firstFlow || rec.flowId - m_firstFlow >= m_messages.size())
    {
        return;
    }
    const uint64_t msg = rec.flowId - m_firstFlow;
    m_messages[msg].acked = rec.end;
    if (m_orderOnAck && m_state[msg].connectionNext >= 0)
    {
        Release(m_state[msg].connectionNext);
    }
    RankProgress(msg, m_messages[msg].srcRank);
    --m_localPending;
    CheckDone();
}

void
CollectiveWorkload::MessageReceived(
    uint32_t host, Ipv4Address src, uint16_t sport, uint32_t /* qpn */, uint64_t bytes)
{
    const uint32_t from = m_fabric->GetNodeByAddress(src);
    if (from == UINT32_MAX)
    {
        return;
    }
    auto head = m_receiveHead.find(ReceiveKey(from, host, sport));
    if (head == m_receiveHead.end())
    {
        return; // not the workload's
    }
    const uint64_t msg = head->second;
    Message& m = m_messages[msg];
    if (m.src != from || m.dst != host || m.bytes != bytes)
    {
        throw std::logic_error("CollectiveWorkload: host " + std::to_string(host) + " received "
                               + std::to_string(bytes) + " B from host " + std::to_string(from)
                               + " port " + std::to_string(sport) + ", expected "
                               + std::to_string(m.bytes) + " B of job '" + m_jobs[m.job].name
                               + "' from host " + std::to_string(m.src));
    }
    if (m_sameKeyNext[msg] < 0)
    {
        m_receiveHead.erase(head);
    }
    else
    {
        head->second = m_sameKeyNext[msg];
    }
    m.received = Simulator::Now();
    if (m_state[msg].enables >= 0)
    {
        Release(m_state[msg].enables);
    }
    RankProgress(msg, m.dstRank);
}

void
CollectiveWorkload::RankProgress(uint64_t msg, uint32_t rank)
{
    const Message& m = m_messages[msg];
    const CollectiveJob& job = m_jobs[m.job];
    const uint64_t idx = uint64_t(m.iteration) * job.ranks + rank;
    if (--m_remaining[m.job][idx] > 0)
    {
        return;
    }
    m_rankEnd[m.job][idx] = Simulator::Now();
    const uint32_t next = m.iteration + 1;
    if (next >= job.iterations)
    {
        return;
    }
    if (job.sync == CollectiveSync::RANK)
    {
        Simulator::Schedule(job.gap, &CollectiveWorkload::StartIteration, this, m.job, next, rank);
    }
    else if (++m_ranksDone[m.job][m.iteration] == job.ranks)
    {
        for (uint32_t r = 0; r < job.ranks; ++r)
        {
            Simulator::Schedule(job.gap, &CollectiveWorkload::StartIteration, this, m.job, next, r);
        }
    }
}

void
CollectiveWorkload::CheckDone()
{
    if (!m_stopWhenDone || m_localPending > 0)
    {
        return;
    }
    if (ParallelRun::IsEnabled())
    {
        if (!m_notified)
        {
            m_notified = true;
            ParallelRun::NotifyLocalDone(m_drain);
        }
    }
    else
    {
        Simulator::Stop(m_drain);
    }
}

bool
CollectiveWorkload::IsDone() const
{
    return m_installed && m_localPending == 0;
}

bool
CollectiveWorkload::IsDoneEverywhere() const
{
    for (const Message& m : m_messages)
    {
        if (m.acked.IsStrictlyNegative())
        {
            return false;
        }
    }
    return m_installed;
}

// ----------------------------------------------------------------------------- results

void
CollectiveWorkload::Collect()
{
    if (!ParallelRun::IsEnabled())
    {
        return;
    }
    monitor_codec::Encoder e;
    for (uint64_t i = 0; i < m_messages.size(); ++i)
    {
        const Message& m = m_messages[i];
        const bool src = m_fabric->IsLocal(m.src);
        const bool dst = m_fabric->IsLocal(m.dst);
        if (src || dst)
        {
            e.Put<uint64_t>(i);
            e.Put<uint8_t>(uint8_t(src) | uint8_t(dst) << 1);
        }
        if (src)
        {
            e.PutTime(m.start);
            e.PutTime(m.sent);
            e.PutTime(m.acked);
        }
        if (dst)
        {
            e.PutTime(m.received);
        }
    }
    e.Put<uint64_t>(UINT64_MAX);
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        for (uint64_t idx = 0; idx < m_rankStart[j].size(); ++idx)
        {
            if (m_fabric->IsLocal(m_hosts[j][idx % m_jobs[j].ranks]))
            {
                e.PutTime(m_rankStart[j][idx]);
                e.PutTime(m_rankEnd[j][idx]);
            }
        }
    }
    const std::vector<std::string> all = ParallelRun::Gather(e.buf);
    if (!ParallelRun::IsRoot())
    {
        return;
    }
    for (uint32_t r = 0; r < all.size(); ++r)
    {
        if (r == ParallelRun::GetRank())
        {
            continue;
        }
        monitor_codec::Decoder d(all[r]);
        for (auto i = d.Get<uint64_t>(); i != UINT64_MAX; i = d.Get<uint64_t>())
        {
            Message& m = m_messages.at(i);
            const auto what = d.Get<uint8_t>();
            if (what & 1)
            {
                m.start = d.GetTime();
                m.sent = d.GetTime();
                m.acked = d.GetTime();
            }
            if (what & 2)
            {
                m.received = d.GetTime();
            }
        }
        for (uint32_t j = 0; j < m_jobs.size(); ++j)
        {
            for (uint64_t idx = 0; idx < m_rankStart[j].size(); ++idx)
            {
                if (m_fabric->GetRank(m_hosts[j][idx % m_jobs[j].ranks]) == r)
                {
                    m_rankStart[j][idx] = d.GetTime();
                    m_rankEnd[j][idx] = d.GetTime();
                }
            }
        }
    }
}

std::vector<CollectiveWorkload::Iteration>
CollectiveWorkload::GetIterations() const
{
    std::vector<Iteration> out;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const uint32_t n = m_jobs[j].ranks;
        for (uint32_t it = 0; it < m_jobs[j].iterations; ++it)
        {
            Iteration x;
            x.job = j;
            x.iteration = it;
            bool complete = true;
            for (uint32_t r = 0; r < n; ++r)
            {
                const Time s = m_rankStart[j][uint64_t(it) * n + r];
                const Time e = m_rankEnd[j][uint64_t(it) * n + r];
                if (!s.IsStrictlyNegative() && (x.start.IsStrictlyNegative() || s < x.start))
                {
                    x.start = s;
                }
                complete = complete && !e.IsStrictlyNegative();
                x.end = std::max(x.end, e);
            }
            if (!complete)
            {
                x.end = Time(-1);
            }
            out.push_back(x);
        }
    }
    return out;
}

double
CollectiveWorkload::GetGoodput(uint32_t host, DataRate rate) const
{
    Ptr<RdmaNic> nic = m_fabric->GetNic(host);
    UintegerValue ackInterval;
    nic->GetAttribute("AckInterval", ackInterval);
    const double wire
        = nic->GetDataWireBytes(nic->GetMtu()) + double(nic->GetAckWireBytes()) / ackInterval.Get();
    return rate.GetBitRate() / 8.0 * nic->GetMtu() / wire;
}

Time
CollectiveWorkload::GetIdealTime(uint32_t job) const
{
    if (m_ideal.size() != m_jobs.size())
    {
        m_ideal.assign(m_jobs.size(), Time(-1));
    }
    if (m_ideal.at(job).IsStrictlyNegative())
    {
        m_ideal[job] = ComputeIdealTime(job);
    }
    return m_ideal[job];
}

Time
CollectiveWorkload::ComputeIdealTime(uint32_t job) const
{
    const CollectiveJob& jb = m_jobs.at(job);
    const JobLayout& lay = m_layout.at(job);
    const uint32_t n = jb.ranks;
    auto seconds = [](double wireBytes, DataRate rate)
    {
        return wireBytes * 8 / double(rate.GetBitRate());
    };
    // what the NIC of a host puts on the wire (its settings, read once per host)
    struct NicInfo
    {
        uint64_t mtu;
        uint64_t ackInterval;
        double fullWire;
        double ackWire;
        Ptr<RdmaNic> nic;
    };
    std::unordered_map<uint32_t, NicInfo> nics;
    auto nicOf = [this, &nics](uint32_t host) -> const NicInfo&
    {
        auto it = nics.find(host);
        if (it == nics.end())
        {
            Ptr<RdmaNic> nic = m_fabric->GetNic(host);
            UintegerValue ackInterval;
            nic->GetAttribute("AckInterval", ackInterval);
            it = nics.emplace(host,
                              NicInfo{nic->GetMtu(),
                                      ackInterval.Get(),
                                      double(nic->GetDataWireBytes(nic->GetMtu())),
                                      double(nic->GetAckWireBytes()),
                                      nic})
                     .first;
        }
        return it->second;
    };
    std::vector<double> nicFree(n, 0);
    std::vector<double> recv(lay.perIteration, 0);
    std::vector<double> trig(lay.perIteration, 0);
    std::vector<double> done(n, 0);
    std::vector<const RdmaFabric::Link*> links;
    for (uint64_t t = 0; t < lay.perIteration; ++t)
    {
        const CollectiveTransfer& tr = lay.schedule[t];
        const Message& m = m_messages[lay.first + t];
        const NicInfo& ni = nicOf(m.src);
        const uint64_t packets = (m.bytes + ni.mtu - 1) / ni.mtu;
        const uint64_t last = m.bytes - (packets - 1) * ni.mtu;
        const double lastWire = ni.nic->GetDataWireBytes(last);
        const double dataWire = (packets - 1) * ni.fullWire + lastWire;
        const uint64_t acks = (packets + ni.ackInterval - 1) / ni.ackInterval;
        // the links along the path: host, the switches, host
        links.clear();
        uint32_t node = m.src;
        for (uint32_t sw : m_paths[m.path])
        {
            links.push_back(&LinkBetween(node, sw));
            node = sw;
        }
        links.push_back(&LinkBetween(node, m.dst));
        const DataRate hostRate = links.front()->rate;
        DataRate slowest = hostRate;
        double latency = 0;    // last packet: delays and store-and-forward after the NIC
        double ackLatency = 0; // the ACK back: its serialization and delay on every link
        for (std::size_t i = 0; i < links.size(); ++i)
        {
            const RdmaFabric::Link& l = *links[i];
            slowest = std::min(slowest, l.rate);
            latency += l.delay.GetSeconds() + (i > 0 ? seconds(lastWire, l.rate) : 0);
            ackLatency += l.delay.GetSeconds() + seconds(ni.ackWire, l.rate);
        }
        // the NIC also sends the ACKs of what it receives meanwhile (as much as it sends)
        const double ser
            = std::max(seconds(dataWire + acks * ni.ackWire, hostRate), seconds(dataWire, slowest));
        double ready = 0;
        if (tr.after >= 0)
        {
            ready = std::max(ready, recv[tr.after]);
        }
        if (tr.connectionBefore >= 0)
        {
            ready = std::max(ready, trig[tr.connectionBefore]);
        }
        const double begin = std::max(ready, nicFree[tr.src]);
        nicFree[tr.src] = begin + ser;
        trig[t] = begin + ser - seconds(lastWire + ni.ackWire, hostRate);
        recv[t] = begin + ser + latency;
        done[tr.dst] = std::max(done[tr.dst], recv[t]);
        done[tr.src] = std::max(done[tr.src], recv[t] + ackLatency);
    }
    return Seconds(*std::max_element(done.begin(), done.end()));
}

const RdmaFabric::Link&
CollectiveWorkload::LinkBetween(uint32_t a, uint32_t b) const
{
    const auto& ports = m_neighbour.at(a);
    for (uint32_t p = 0; p < ports.size(); ++p)
    {
        if (ports[p] == b)
        {
            return m_fabric->GetLinks().at(m_linkOf[a][p]);
        }
    }
    throw std::logic_error("CollectiveWorkload: no link between nodes " + std::to_string(a)
                           + " and " + std::to_string(b));
}

// ----------------------------------------------------------------------------- spreading

void
CollectiveWorkload::MeasureSpreading(Ptr<CongestionSpreading> spreading)
{
    m_spreading = spreading;
    spreading->SetFlowGroups(
        [this](uint32_t flowId)
        {
            const uint32_t j = GetJobOfFlow(flowId);
            return j == UINT32_MAX ? CongestionSpreading::NO_GROUP : j;
        },
        m_jobs.size());
}

CollectiveWorkload::JobSpreading
CollectiveWorkload::GetJobSpreading(uint32_t job) const
{
    JobSpreading s;
    if (m_spreading)
    {
        CongestionSpreading::GroupTimes g = m_spreading->GetGroupTimes(job);
        s.victimOthers = g.victimOthers;
        s.victimOthersFlow = g.victimOthersHold;
        s.heldOwnFlow = g.ownHold;
        s.heldUnknownFlow = g.unknownHold;
    }
    return s;
}

// ----------------------------------------------------------------------------- output

std::vector<std::string>
CollectiveWorkload::GetOutputKinds()
{
    return {"collectives.csv", "steps.csv", "ranks.csv", "jobs.csv"};
}

void
CollectiveWorkload::Write(const std::string& dir,
                          const std::function<std::string(uint32_t)>& name,
                          bool steps) const
{
    std::filesystem::create_directories(dir);
    const std::vector<Iteration> its = GetIterations();
    std::vector<Time> ideal;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        ideal.push_back(GetIdealTime(j));
    }
    auto rate = [](double v)
    {
        std::ostringstream o;
        o << std::setprecision(9) << v;
        return o.str();
    };
    {
        AtomicOutputFile file(dir + "/collectives.csv");
        std::ostream& out = file.Stream();
        out << "job,name,iteration,op,algorithm,chunks,bytes,ranks,start_s,end_s,time_s,"
               "algbw_gbps,busbw_gbps,ideal_s,slowdown\n";
        for (const Iteration& x : its)
        {
            const CollectiveJob& job = m_jobs[x.job];
            out << x.job << "," << job.name << "," << x.iteration << ","
                << CollectiveJob::ToString(job.op) << "," << CollectiveJob::ToString(job.algorithm)
                << "," << job.chunks << "," << job.bytes << "," << job.ranks << ",";
            out << (x.start.IsStrictlyNegative() ? "" : Seconds(x.start)) << ",";
            if (x.start.IsStrictlyNegative() || x.end.IsStrictlyNegative())
            {
                out << ",,,," << Seconds(ideal[x.job]) << ",\n";
                continue;
            }
            const Time t = x.end - x.start;
            const double algbw = job.bytes * 8.0 / t.GetSeconds() / 1e9;
            out << Seconds(x.end) << "," << Seconds(t) << "," << rate(algbw) << ","
                << rate(algbw * CollectiveJob::BusBandwidthFactor(job.op, job.ranks)) << ","
                << Seconds(ideal[x.job]) << "," << rate(t.GetSeconds() / ideal[x.job].GetSeconds())
                << "\n";
        }
        file.Commit();
    }
    if (steps)
    {
        AtomicOutputFile file(dir + "/steps.csv");
        std::ostream& out = file.Stream();
        out << "job,iteration,step,chunk,src_rank,dst_rank,src,dst,bytes,flow_id,sport,path,"
               "start_s,sent_s,end_s,acked_s\n";
        auto time = [](Time t)
        {
            return t.IsStrictlyNegative() ? std::string() : Seconds(t);
        };
        std::vector<std::string> pathText(m_paths.size());
        for (std::size_t p = 0; p < m_paths.size(); ++p)
        {
            for (std::size_t i = 0; i < m_paths[p].size(); ++i)
            {
                pathText[p] += (i ? ">" : "") + name(m_paths[p][i]);
            }
        }
        for (const Message& m : m_messages)
        {
            out << m.job << "," << m.iteration << "," << m.step << "," << m.chunk << ","
                << m.srcRank << "," << m.dstRank << "," << name(m.src) << "," << name(m.dst) << ","
                << m.bytes << "," << m.flowId << "," << m.sport << "," << pathText[m.path] << ","
                << time(m.start) << "," << time(m.sent) << "," << time(m.received) << ","
                << time(m.acked) << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(dir + "/ranks.csv");
        std::ostream& out = file.Stream();
        out << "job,name,rank,host,leaf\n";
        for (uint32_t j = 0; j < m_jobs.size(); ++j)
        {
            for (uint32_t r = 0; r < m_hosts[j].size(); ++r)
            {
                const uint32_t h = m_hosts[j][r];
                out << j << "," << m_jobs[j].name << "," << r << "," << name(h) << ","
                    << (m_leafOf[h] == UINT32_MAX ? std::string() : name(m_leaves[m_leafOf[h]]))
                    << "\n";
            }
        }
        file.Commit();
    }
    AtomicOutputFile file(dir + "/jobs.csv");
    std::ostream& out = file.Stream();
    out << "job,name,op,algorithm,ranks,bytes,chunks,iterations,placement,paths,completed,"
           "ideal_s,mean_time_s,max_time_s,mean_slowdown,max_slowdown,mean_busbw_gbps,"
           "victim_others_s,victim_others_hold_s,own_hold_s,unknown_hold_s\n";
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        const CollectiveJob& job = m_jobs[j];
        uint32_t done = 0;
        double sum = 0;
        double max = 0;
        for (const Iteration& x : its)
        {
            if (x.job == j && !x.start.IsStrictlyNegative() && !x.end.IsStrictlyNegative())
            {
                const double t = (x.end - x.start).GetSeconds();
                ++done;
                sum += t;
                max = std::max(max, t);
            }
        }
        out << j << "," << job.name << "," << CollectiveJob::ToString(job.op) << ","
            << CollectiveJob::ToString(job.algorithm) << "," << job.ranks << "," << job.bytes << ","
            << job.chunks << "," << job.iterations << "," << CollectiveJob::ToString(job.placement)
            << "," << CollectiveJob::ToString(job.paths) << "," << done << "," << Seconds(ideal[j])
            << ",";
        if (done > 0)
        {
            const double mean = sum / done;
            out << rate(mean) << "," << rate(max) << "," << rate(mean / ideal[j].GetSeconds())
                << "," << rate(max / ideal[j].GetSeconds()) << ","
                << rate(job.bytes * 8.0 / mean / 1e9
                        * CollectiveJob::BusBandwidthFactor(job.op, job.ranks));
        }
        else
        {
            out << ",,,,";
        }
        if (m_spreading)
        {
            const JobSpreading s = GetJobSpreading(j);
            out << "," << Seconds(s.victimOthers) << "," << Seconds(s.victimOthersFlow) << ","
                << Seconds(s.heldOwnFlow) << "," << Seconds(s.heldUnknownFlow) << "\n";
        }
        else
        {
            out << ",,,,\n";
        }
    }
    file.Commit();
}

} // namespace ns3
