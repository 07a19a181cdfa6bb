/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-fabric-helper.h"

#include "fabric-monitor-extension.h"
#include "ns3/abort.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-remote-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rank-transport.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/red-ecn-queue-disc.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"
#include "rank-partition.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFabricHelper");

namespace
{
constexpr uint16_t UNREACHABLE = UINT16_MAX;

/// Hosts get 10.0.0.1 and up: at most 10.255.255.254.
constexpr uint64_t MAX_HOSTS = 0xFFFFFE;

/**
 * \brief Serialization time of any number of bytes.
 *
 * DataRate::CalculateBytesTxTime takes a uint32_t and multiplies by 8 in 32 bits, so it wraps
 * above 512 MiB; this is the same computation (bits / rate, in int64x64_t) in 64 bits.
 * \param rate the rate
 * \param bytes the bytes
 * \return the time
 */
Time
BytesTxTime(DataRate rate, uint64_t bytes)
{
    return Seconds(int64x64_t(bytes * 8) / int64x64_t(rate.GetBitRate()));
}
} // namespace

// ------------------------------------------------------------------------------ RdmaFabric

uint32_t
RdmaFabric::GetNNodes() const
{
    return m_isSwitch.size();
}

bool
RdmaFabric::IsSwitch(uint32_t node) const
{
    return m_isSwitch.at(node);
}

Ptr<RdmaSwitchAgent>
RdmaFabric::GetSwitchAgent(uint32_t node) const
{
    return GetSwitch(node)->GetObject<RdmaSwitchAgent>();
}

Ptr<Node>
RdmaFabric::GetNode(uint32_t node) const
{
    return m_nodes.Get(node);
}

Ptr<RdmaSwitch>
RdmaFabric::GetSwitch(uint32_t node) const
{
    if (node >= m_isSwitch.size() || !m_isSwitch[node])
    {
        throw std::invalid_argument("node " + std::to_string(node) + " is not a switch");
    }
    return m_switches[node];
}

Ptr<RdmaNic>
RdmaFabric::GetNic(uint32_t node) const
{
    if (node >= m_isSwitch.size() || m_isSwitch[node])
    {
        throw std::invalid_argument("node " + std::to_string(node) + " is not a host");
    }
    return m_nics[node];
}

Ipv4Address
RdmaFabric::GetAddress(uint32_t node) const
{
    return GetNic(node)->GetAddress();
}

uint32_t
RdmaFabric::GetNodeByAddress(Ipv4Address address) const
{
    // Build gives host index i the address 10.0.0.0 + i + 1.
    const uint32_t a = address.Get();
    if (a <= 0x0A000000u || a - 0x0A000001u >= m_hosts.size())
    {
        return UINT32_MAX;
    }
    const uint32_t node = m_hosts[a - 0x0A000001u];
    return GetAddress(node) == address ? node : UINT32_MAX;
}

const std::vector<uint32_t>&
RdmaFabric::GetHosts() const
{
    return m_hosts;
}

const std::vector<uint32_t>&
RdmaFabric::GetSwitches() const
{
    return m_switchIds;
}

const std::vector<RdmaFabric::Link>&
RdmaFabric::GetLinks() const
{
    return m_links;
}

uint32_t
RdmaFabric::GetPort(uint32_t node, uint32_t neighbor) const
{
    for (const auto& [n, l] : m_adj.at(node))
    {
        if (n == neighbor)
        {
            return m_links[l].a == node ? m_links[l].portA : m_links[l].portB;
        }
    }
    throw std::invalid_argument("nodes " + std::to_string(node) + " and " + std::to_string(neighbor)
                                + " are not adjacent");
}

uint32_t
RdmaFabric::GetSwitchHops(uint32_t src, uint32_t dst) const
{
    uint16_t d = m_distToHost.at(m_hostIndex.at(dst)).at(src);
    return d == 0 ? 0 : d - 1;
}

std::vector<uint32_t>
RdmaFabric::GetShortestPath(uint32_t src, uint32_t dst) const
{
    GetNic(src);
    GetNic(dst);
    const auto& dist = m_distToHost[m_hostIndex[dst]];
    std::vector<uint32_t> path;
    uint32_t cur = src;
    while (cur != dst)
    {
        uint32_t next = UINT32_MAX;
        uint32_t link = 0;
        for (const auto& [n, l] : m_adj[cur])
        {
            if (dist[n] + 1 == dist[cur] && (n == dst || m_isSwitch[n]) && n < next)
            {
                next = n;
                link = l;
            }
        }
        NS_ABORT_MSG_IF(next == UINT32_MAX, "no path");
        path.push_back(link);
        cur = next;
    }
    return path;
}

Time
RdmaFabric::GetBaseRtt(uint32_t src, uint32_t dst) const
{
    Ptr<RdmaNic> nic = GetNic(src);
    Time rtt;
    uint32_t full = nic->GetDataWireBytes(nic->GetMtu());
    uint32_t ack = nic->GetAckWireBytes();
    for (uint32_t l : GetShortestPath(src, dst))
    {
        const Link& link = m_links[l];
        rtt += link.delay * 2 + link.rate.CalculateBytesTxTime(full)
               + link.rate.CalculateBytesTxTime(ack);
    }
    return rtt;
}

Time
RdmaFabric::GetIdealFct(uint32_t src, uint32_t dst, uint64_t size) const
{
    Ptr<RdmaNic> nic = GetNic(src);
    uint64_t mtu = nic->GetMtu();
    uint64_t nFull = size / mtu;
    uint64_t rest = size % mtu;
    uint64_t firstWire = nic->GetDataWireBytes(static_cast<uint32_t>(std::min(size, mtu)));
    uint64_t totalWire
        = nFull * nic->GetDataWireBytes(mtu) + (rest ? nic->GetDataWireBytes(rest) : 0);
    uint32_t ack = nic->GetAckWireBytes();
    Time t;
    std::vector<uint32_t> path = GetShortestPath(src, dst);
    DataRate bottleneck = m_links[path.front()].rate;
    for (uint32_t l : path)
    {
        const Link& link = m_links[l];
        bottleneck = std::min(bottleneck, link.rate);
        // first packet store-and-forward, the ACK back
        t += link.delay * 2 + link.rate.CalculateBytesTxTime(firstWire)
             + link.rate.CalculateBytesTxTime(ack);
    }
    // the rest of the message streams behind the first packet at the bottleneck rate
    t += BytesTxTime(bottleneck, totalWire - firstWire);
    return t;
}

uint32_t
RdmaFabric::GetRank(uint32_t node) const
{
    return m_rank.at(node);
}

bool
RdmaFabric::IsLocal(uint32_t node) const
{
    return RankTransport::IsLocal(m_nodes.Get(node));
}

RdmaNic::Stats
RdmaFabric::GetNicTotals() const
{
    RdmaNic::Stats t;
    for (uint32_t h : m_hosts)
    {
        const RdmaNic::Stats& s = m_nics[h]->GetStats();
        t.dataPacketsSent += s.dataPacketsSent;
        t.retransmittedPackets += s.retransmittedPackets;
        t.acksSent += s.acksSent;
        t.naksSent += s.naksSent;
        t.naksReceived += s.naksReceived;
        t.cnpsSent += s.cnpsSent;
        t.cnpsReceived += s.cnpsReceived;
        t.cnpsCongestedReceived += s.cnpsCongestedReceived;
        t.cnmsReceived += s.cnmsReceived;
        t.timeouts += s.timeouts;
        t.flowsCompleted += s.flowsCompleted;
    }
    return t;
}

Time
RdmaFabric::GetMaxBaseRtt() const
{
    // The base RTT of a pair is the same both ways (data one way, ACK back on the same links),
    // so every unordered pair once.
    Time best;
    for (std::size_t i = 0; i < m_hosts.size(); ++i)
    {
        for (std::size_t j = i + 1; j < m_hosts.size(); ++j)
        {
            best = std::max(best, GetBaseRtt(m_hosts[i], m_hosts[j]));
        }
    }
    return best;
}

void
RdmaFabric::SetSwitchAgentWindowInRtts(double rtts)
{
    NS_LOG_FUNCTION(this << rtts);
    if (!(rtts > 0) || !std::isfinite(rtts))
    {
        throw std::invalid_argument("CNM window must be a positive number of RTTs, got "
                                    + std::to_string(rtts));
    }
    const Time rtt = GetMaxBaseRtt();
    if (rtt.GetSeconds() * rtts > (Time::Max() / 2).GetSeconds())
    {
        std::ostringstream oss;
        oss << "CNM window " << rtts << " RTTs x the base RTT " << rtt.As(Time::US)
            << " is beyond ns-3's time range (half of it: " << (Time::Max() / 2).GetSeconds()
            << " s)";
        throw std::invalid_argument(oss.str());
    }
    Time w = rtt * rtts;
    for (uint32_t s : m_switchIds)
    {
        if (Ptr<RdmaSwitchAgent> agent = m_switches[s]->GetObject<RdmaSwitchAgent>())
        {
            for (const auto& [tid, attribute] : agent->GetWindowAttributes())
            {
                RefuseOverwritingUserAttribute(
                    tid, attribute, "the program (the switch agents' window in base RTTs)");
            }
            agent->SetWindow(w);
        }
    }
}

uint32_t
RdmaFabric::GetDesignFanOut(uint32_t sw, uint32_t port) const
{
    if (!m_isSwitch.at(sw))
    {
        throw std::invalid_argument("GetDesignFanOut: node " + std::to_string(sw)
                                    + " is not a switch");
    }
    const auto& adj = m_adj[sw];
    uint32_t u = UINT32_MAX; // the neighbour on that port
    for (const auto& [v, l] : adj)
    {
        if (GetPort(sw, v) == port)
        {
            u = v;
        }
    }
    if (u == UINT32_MAX)
    {
        throw std::invalid_argument("GetDesignFanOut: switch " + std::to_string(sw)
                                    + " has no port " + std::to_string(port));
    }
    std::vector<bool> reached(adj.size(), false);
    for (std::size_t hi = 0; hi < m_hosts.size(); ++hi)
    {
        const uint32_t h = m_hosts[hi];
        const auto& dist = m_distToHost[hi];
        const bool arrives = m_isSwitch[u] ? dist[u] == dist[sw] + 1 : u != h;
        if (!arrives || dist[sw] == UNREACHABLE)
        {
            continue;
        }
        for (std::size_t k = 0; k < adj.size(); ++k)
        {
            const uint32_t v = adj[k].first;
            if (v != u && dist[v] + 1 == dist[sw] && (v == h || m_isSwitch[v]))
            {
                reached[k] = true;
            }
        }
    }
    return static_cast<uint32_t>(std::count(reached.begin(), reached.end(), true));
}

void
RdmaFabric::PinPath(const RdmaFiveTuple& tuple, const std::vector<uint32_t>& path)
{
    if (path.size() < 3 || m_isSwitch.at(path.front()) || m_isSwitch.at(path.back()))
    {
        throw std::invalid_argument("PinPath: a path runs from a host through switches to a host");
    }
    for (std::size_t i = 1; i + 1 < path.size(); ++i)
    {
        GetSwitch(path[i])->PinFlow(tuple, GetPort(path[i], path[i + 1]));
    }
}

int64_t
RdmaFabric::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t s : m_switchIds)
    {
        Ptr<RdmaSwitch> sw = m_switches[s];
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                Ptr<RedEcnQueueDisc> red = DynamicCast<RedEcnQueueDisc>(sw->GetQueueDisc(p, prio));
                if (red)
                {
                    used += red->AssignStreams(stream + used);
                }
            }
        }
    }
    return used;
}

// ------------------------------------------------------------------------ RdmaFabricHelper

RdmaFabricHelper::RdmaFabricHelper()
{
    NS_LOG_FUNCTION(this);
    m_switchFactory.SetTypeId(RdmaSwitch::GetTypeId());
    m_mmuFactory.SetTypeId(SwitchMmu::GetTypeId());
    m_deviceFactory.SetTypeId(PfcNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(PfcChannel::GetTypeId());
    m_remoteChannelFactory.SetTypeId(PfcRemoteChannel::GetTypeId());
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
    m_queueFactory.SetTypeId(RedEcnQueueDisc::GetTypeId());
}

void
RdmaFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    RefuseOverwritingUserAttribute(
        m_switchFactory.GetTypeId(), name, "the program (on every switch)");
    m_switchFactory.Set(name, value);
}

void
RdmaFabricHelper::SetSwitchAgentAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    m_agentAttributes.emplace_back(name, value.Copy());
}

void
RdmaFabricHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    RefuseOverwritingUserAttribute(
        m_mmuFactory.GetTypeId(), name, "the program (on every switch MMU)");
    m_mmuFactory.Set(name, value);
}

void
RdmaFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    RefuseOverwritingUserAttribute(
        m_deviceFactory.GetTypeId(), name, "the program (on every device)");
    m_deviceFactory.Set(name, value);
}

void
RdmaFabricHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    RefuseOverwritingUserAttribute(m_nicFactory.GetTypeId(), name, "the program (on every NIC)");
    m_nicFactory.Set(name, value);
}

void
RdmaFabricHelper::UseFastScheduler()
{
    GlobalValue::Bind("SchedulerType", StringValue("ns3::BucketScheduler"));
}

std::vector<TypeId>
RdmaFabricHelper::GetCreatedTypes(const std::string& cc, const std::string& queueDisc)
{
    ObjectFactory queue = QueueDiscFactory(queueDisc);
    std::vector<TypeId> types{TypeId::LookupByName("ns3::Node"),
                              RdmaSwitch::GetTypeId(),
                              SwitchMmu::GetTypeId(),
                              PfcNetDevice::GetTypeId(),
                              PfcChannel::GetTypeId(),
                              RdmaNic::GetTypeId(),
                              TypeId::LookupByName("ns3::RdmaFlowState"),
                              TypeId::LookupByName("ns3::RdmaRxFlowState"),
                              TypeId::LookupByName("ns3::RdmaFifoQueue"),
                              queue.GetTypeId(),
                              RdmaCongestionOps::LookupTypeId(cc)};
    const std::string agent = RdmaCcRegistry::GetSwitchAgentFor(queue.GetTypeId());
    if (!agent.empty())
    {
        ObjectFactory f;
        f.SetTypeId(agent);
        types.push_back(f.GetTypeId());
        for (TypeId t : f.Create<RdmaSwitchAgent>()->GetCreatedTypes())
        {
            types.push_back(t);
        }
    }
    if (queue.GetTypeId() == RedEcnQueueDisc::GetTypeId()
        || queue.GetTypeId().IsChildOf(RedEcnQueueDisc::GetTypeId()))
    {
        types.push_back(TypeId::LookupByName("ns3::UniformRandomVariable"));
    }
    for (TypeId t : FabricMonitorExtension::GetCreatedTypes(types))
    {
        types.push_back(t);
    }
    return types;
}

void
RdmaFabricHelper::CheckFactoryPairs(TypeId tid)
{
}

ObjectFactory
RdmaFabricHelper::QueueDiscFactory(const std::string& type)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid)
        || !(tid == RdmaEgressQueueDisc::GetTypeId()
             || tid.IsChildOf(RdmaEgressQueueDisc::GetTypeId())))
    {
        throw std::invalid_argument("unknown switch queue disc '" + type
                                    + "' (expected an ns3::RdmaEgressQueueDisc subclass such as "
                                      "ns3::RedEcnQueueDisc)");
    }
    ObjectFactory f;
    f.SetTypeId(tid);
    return f;
}

void
RdmaFabricHelper::SetCheckedAttribute(ObjectFactory& factory,
                                      const std::string& name,
                                      const AttributeValue& value,
                                      const std::string& what)
{
    const TypeId tid = factory.GetTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument(what + " " + tid.GetName() + " has no attribute '" + name
                                    + "'");
    }
    Ptr<AttributeValue> checked = info.checker->CreateValidValue(value);
    if (!checked)
    {
        throw std::invalid_argument("invalid value for " + tid.GetName() + "::" + name + " (" + what
                                    + ")");
    }
    factory.Set(name, *checked);
}

void
RdmaFabricHelper::SetQueueDiscAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name << &value);
    if (!m_queueChosen)
    {
        // For the congestion control's own queue, which Build knows (checked there).
        m_ccQueueAttributes.emplace_back(name, value.Copy());
        return;
    }
    RefuseOverwritingUserAttribute(
        m_queueFactory.GetTypeId(), name, "the program (on every switch queue)");
    SetCheckedAttribute(m_queueFactory, name, value, "switch queue");
}

void
RdmaFabricHelper::AdoptQueueAttributes()
{
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> pending;
    pending.swap(m_ccQueueAttributes);
    for (const auto& [name, value] : pending)
    {
        SetQueueDiscAttribute(name, *value);
    }
}

TypeId
RdmaFabricHelper::GetCcTypeId() const
{
    if (m_ccTypeId != TypeId())
    {
        return m_ccTypeId;
    }
    // The NIC factory's value (its attribute default, or SetNicAttribute's).
    Ptr<RdmaNic> probe = m_nicFactory.Create<RdmaNic>();
    const TypeId cc = probe->GetCongestionControl();
    probe->Dispose();
    return cc;
}

ObjectFactory
RdmaFabricHelper::GetPortQueueFactory(DataRate rate, bool* explicitChoice) const
{
    auto byRate = m_queueFactoryByRate.find(rate.GetBitRate());
    if (byRate != m_queueFactoryByRate.end() || m_queueChosen)
    {
        *explicitChoice = true;
        return byRate != m_queueFactoryByRate.end() ? byRate->second : m_queueFactory;
    }
    *explicitChoice = false;
    // The congestion control's own queue with the attributes it declares for this rate (a
    // value the user gave as a default wins), then the program's (SetQueueDiscAttribute).
    std::optional<RdmaCcEntry> entry;
    try
    {
        entry = RdmaCcRegistry::Lookup(GetCcTypeId().GetName());
    }
    catch (const std::invalid_argument&)
    {
        // an algorithm outside the registry: RED-ECN, the queue before the registry
    }
    ObjectFactory f = QueueDiscFactory(entry ? entry->queueDisc : "ns3::RedEcnQueueDisc");
    if (entry)
    {
        for (const auto& [name, value] : entry->GetQueueAttributes(rate))
        {
            if (!IsUserAttribute(f.GetTypeId(), name))
            {
                SetCheckedAttribute(f,
                                    name,
                                    StringValue(value),
                                    "the queue congestion control '" + entry->name + "' declares:");
            }
        }
    }
    for (const auto& [name, value] : m_ccQueueAttributes)
    {
        RefuseOverwritingUserAttribute(f.GetTypeId(), name, "the program (on every switch queue)");
        SetCheckedAttribute(f, name, *value, "switch queue");
    }
    return f;
}

std::string
RdmaFabricHelper::GetQueueDisc(DataRate portRate) const
{
    bool explicitChoice = false;
    return GetPortQueueFactory(portRate, &explicitChoice).GetTypeId().GetName();
}

void
RdmaFabricHelper::SetQueueDiscAttributeForRate(DataRate rate,
                                               const std::string& name,
                                               const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << rate << name << &value);
    auto it = m_queueFactoryByRate.find(rate.GetBitRate());
    if (it == m_queueFactoryByRate.end())
    {
        throw std::invalid_argument("SetQueueDiscAttributeForRate: no queue disc set for ports of "
                                    + std::to_string(rate.GetBitRate())
                                    + " bit/s (call SetQueueDiscForRate first)");
    }
    RefuseOverwritingUserAttribute(
        it->second.GetTypeId(), name, "the program (on the switch queues of one port rate)");
    SetCheckedAttribute(it->second, name, value, "switch queue");
}

void
RdmaFabricHelper::SetCongestionControl(const std::string& name, const std::string& parameterSet)
{
    NS_LOG_FUNCTION(this << name);
    RefuseOverwritingUserAttribute(
        m_nicFactory.GetTypeId(), "CongestionControl", "the program (from --cc, on every NIC)");
    TypeId tid = RdmaCongestionOps::LookupTypeId(name);
    if (!parameterSet.empty())
    {
        RdmaCcRegistry::Lookup(tid.GetName()).GetParameterSet(parameterSet); // throws if unknown
    }
    m_nicFactory.Set("CongestionControl", TypeIdValue(tid));
    m_ccTypeId = tid;
    m_ccParameterSet = parameterSet;
}

void
RdmaFabricHelper::SetCongestionControlAttribute(const std::string& name,
                                                const AttributeValue& value)
{
    if (m_ccTypeId == TypeId())
    {
        throw std::invalid_argument(
            "RdmaFabricHelper: SetCongestionControlAttribute before SetCongestionControl");
    }
    const TypeId tid = m_ccTypeId;
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("congestion control " + tid.GetName() + " has no attribute '"
                                    + name + "'");
    }
    Ptr<AttributeValue> checked = info.checker->CreateValidValue(value);
    if (!checked)
    {
        throw std::invalid_argument("invalid value for " + tid.GetName() + "::" + name);
    }
    RefuseOverwritingUserAttribute(tid, name, "the program (on every NIC's congestion control)");
    m_ccAttributes.emplace_back(name, checked);
}

std::vector<std::pair<std::string, Ptr<AttributeValue>>>
RdmaFabricHelper::GetCcAttributes(TypeId cc, DataRate lineRate) const
{
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> out;
    if (!m_ccParameterSet.empty())
    {
        const RdmaCcEntry entry = RdmaCcRegistry::Lookup(cc.GetName());
        for (const auto& [name, value] : entry.GetParameterValues(m_ccParameterSet, lineRate))
        {
            if (!IsUserAttribute(cc, name)) // the user's value wins
            {
                out.emplace_back(name, Create<StringValue>(value));
            }
        }
    }
    out.insert(out.end(), m_ccAttributes.begin(), m_ccAttributes.end());
    return out;
}

ObjectFactory
RdmaFabricHelper::GetSwitchAgentFactory(const std::string& type) const
{
    ObjectFactory factory;
    factory.SetTypeId(type);
    for (const auto& [name, value] : m_agentAttributes)
    {
        TypeId::AttributeInformation info;
        if (!factory.GetTypeId().LookupAttributeByName(name, &info))
        {
            throw std::invalid_argument("switch agent " + type + " has no attribute '" + name
                                        + "'");
        }
        RefuseOverwritingUserAttribute(
            factory.GetTypeId(), name, "the program (on every switch agent)");
        factory.Set(name, *value);
    }
    return factory;
}

void
RdmaFabricHelper::SetAutoHeadroom(bool enable)
{
    NS_LOG_FUNCTION(this << enable);
    m_autoHeadroom = enable;
}

void
RdmaFabricHelper::SetPartition(const std::vector<uint32_t>& rank)
{
    NS_LOG_FUNCTION(this << rank.size());
    m_partition = rank;
}

void
RdmaFabricHelper::SetPartitionFile(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    m_partitionFile = path;
}

Ptr<RdmaFabric>
RdmaFabricHelper::Build(const TopologySpec& topo) const
{
    NS_LOG_FUNCTION(this << topo.nNodes);
    uint32_t n = topo.nNodes;
    if (topo.isSwitch.size() != n)
    {
        throw std::invalid_argument("topology: isSwitch has " + std::to_string(topo.isSwitch.size())
                                    + " entries for " + std::to_string(n) + " nodes");
    }
    // Counts first, before anything is allocated per node: every node needs a link (a switch
    // without a port has no MMU to configure, a host without one cannot send), so a topology
    // that declares more nodes than its links connect is refused here rather than after
    // creating a node per id.
    if (n == 0)
    {
        throw std::invalid_argument("topology has no nodes");
    }
    if (n / 2 > topo.links.size())
    {
        throw std::invalid_argument(
            "topology: " + std::to_string(n) + " nodes but only "
            + std::to_string(topo.links.size()) + " links, which connect at most "
            + std::to_string(2 * topo.links.size()) + " nodes (every node needs a link)");
    }
    const uint64_t nHosts = std::count(topo.isSwitch.begin(), topo.isSwitch.end(), false);
    if (nHosts == 0)
    {
        throw std::invalid_argument("topology has no hosts");
    }
    if (nHosts > MAX_HOSTS)
    {
        throw std::invalid_argument("topology: " + std::to_string(nHosts) + " hosts, more than the "
                                    + std::to_string(MAX_HOSTS)
                                    + " addresses of 10.0.0.0/8 that hosts get");
    }
    {
        // The routing table (a distance per host and node) is the largest allocation: refuse a
        // fabric whose table would not fit in half of this machine's memory, rather than be
        // killed for the lack of it.
        const long double tableBytes
            = static_cast<long double>(nHosts) * n * sizeof(uint16_t) + n * 4096.0L;
        const long double memory
            = static_cast<long double>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
        if (memory > 0 && tableBytes > memory / 2)
        {
            std::ostringstream oss;
            oss << "topology: " << nHosts << " hosts and " << n << " nodes need about "
                << static_cast<double>(tableBytes / 1e9)
                << " GB for the routing table alone, more than half of this machine's "
                << static_cast<double>(memory / 1e9) << " GB";
            throw std::invalid_argument(oss.str());
        }
    }
    {
        std::vector<uint32_t> degree(n, 0);
        for (const auto& spec : topo.links)
        {
            if (spec.a >= n || spec.b >= n || spec.a == spec.b)
            {
                throw std::invalid_argument("topology: bad link " + std::to_string(spec.a) + " - "
                                            + std::to_string(spec.b));
            }
            ++degree[spec.a];
            ++degree[spec.b];
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            if (degree[i] == 0)
            {
                throw std::invalid_argument(std::string("topology: ")
                                            + (topo.isSwitch[i] ? "switch " : "host ")
                                            + std::to_string(i) + " has no link");
            }
        }
    }
    // Attributes this function sets itself on every object (the user's defaults for them would
    // be overwritten).
    RefuseOverwritingUserAttribute(
        RdmaSwitch::GetTypeId(), "EcmpSeed", "RdmaFabricHelper (a fixed function of the node id)");
    RefuseOverwritingUserAttribute(RdmaSwitch::GetTypeId(),
                                   "ControlPriority",
                                   "RdmaFabricHelper (the NICs' ns3::RdmaNic::ControlPriority)");
    RefuseOverwritingUserAttribute(PfcNetDevice::GetTypeId(),
                                   "DataRate",
                                   "RdmaFabricHelper (each link's rate, from the topology)");
    RefuseOverwritingUserAttribute(PfcChannel::GetTypeId(),
                                   "Delay",
                                   "RdmaFabricHelper (each link's delay, from the topology)");
    if (m_autoHeadroom)
    {
        RefuseOverwritingUserAttribute(SwitchMmu::GetTypeId(),
                                       "Headroom",
                                       "RdmaFabricHelper (each switch's PFC headroom, from the "
                                       "delay and rate of its links)");
    }
    // The switch ports' queue discipline, once per line rate: the congestion control's own, or
    // one chosen explicitly, which must give the feedback the algorithm needs.
    std::optional<RdmaCcEntry> ccEntry;
    try
    {
        ccEntry = RdmaCcRegistry::Lookup(GetCcTypeId().GetName());
    }
    catch (const std::invalid_argument&)
    {
        // an algorithm outside the registry: nothing to check
    }
    std::map<uint64_t, ObjectFactory> portQueues;
    bool ccQueueUsed = false;
    auto portQueue = [&](DataRate rate) -> const ObjectFactory&
    {
        auto it = portQueues.find(rate.GetBitRate());
        if (it == portQueues.end())
        {
            bool explicitChoice = false;
            ObjectFactory q = GetPortQueueFactory(rate, &explicitChoice);
            ccQueueUsed = ccQueueUsed || !explicitChoice;
            if (explicitChoice && ccEntry)
            {
                const std::string problem = ccEntry->GetQueueProblem(q.GetTypeId());
                if (!problem.empty())
                {
                    throw std::invalid_argument(problem);
                }
            }
            it = portQueues.emplace(rate.GetBitRate(), q).first;
        }
        return it->second;
    };
    Ptr<RdmaFabric> f = Create<RdmaFabric>();
    f->m_isSwitch = topo.isSwitch;
    // The partition: every rank builds every node; a node's system id is the rank that runs it.
    const uint32_t ranks = RankTransport::GetSize();
    f->m_rank.assign(n, 0);
    if (!m_partitionFile.empty())
    {
        f->m_rank = RankPartition::Read(m_partitionFile, topo);
    }
    else if (!m_partition.empty())
    {
        f->m_rank = m_partition;
    }
    else if (ranks > 1)
    {
        f->m_rank = RankPartition::Balanced(topo, ranks);
    }
    RankPartition::Validate(f->m_rank, topo, ranks);
    for (uint32_t i = 0; i < n; ++i)
    {
        f->m_nodes.Add(CreateObject<Node>(f->m_rank[i]));
    }
    f->m_switches.resize(n);
    f->m_nics.resize(n);
    f->m_adj.resize(n);
    f->m_hostIndex.assign(n, UINT32_MAX);
    std::vector<Ptr<PfcNetDevice>> hostDevice(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (topo.isSwitch[i])
        {
            Ptr<RdmaSwitch> sw = m_switchFactory.Create<RdmaSwitch>();
            sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<SwitchMmu>()));
            // Independent ECMP choices per switch (a fixed function of the node index).
            sw->SetAttribute("EcmpSeed", UintegerValue((i + 1) * 2654435761u));
            sw->SetQueueDiscFactory(m_queueFactory);
            f->m_nodes.Get(i)->AggregateObject(sw);
            f->m_switches[i] = sw;
            f->m_switchIds.push_back(i);
        }
        else
        {
            f->m_hostIndex[i] = f->m_hosts.size();
            f->m_hosts.push_back(i);
        }
    }
    if (f->m_hosts.empty())
    {
        throw std::invalid_argument("topology has no hosts");
    }
    for (const auto& spec : topo.links)
    {
        if (spec.a >= n || spec.b >= n || spec.a == spec.b)
        {
            throw std::invalid_argument("topology: bad link " + std::to_string(spec.a) + " - "
                                        + std::to_string(spec.b));
        }
        if (spec.rate.GetBitRate() == 0)
        {
            throw std::invalid_argument("topology: link " + std::to_string(spec.a) + " - "
                                        + std::to_string(spec.b) + " has rate 0");
        }
        RdmaFabric::Link link;
        link.a = spec.a;
        link.b = spec.b;
        link.rate = spec.rate;
        link.delay = spec.delay;
        // A link between ranks carries its frames to the other rank (as PointToPointHelper
        // makes a PointToPointRemoteChannel).
        Ptr<PfcChannel> ch = f->m_rank[spec.a] == f->m_rank[spec.b]
                                 ? m_channelFactory.Create<PfcChannel>()
                                 : m_remoteChannelFactory.Create<PfcChannel>();
        ch->SetAttribute("Delay", TimeValue(spec.delay));
        auto attach = [&](uint32_t node, uint32_t& port, Ptr<PfcNetDevice>& dev)
        {
            dev = m_deviceFactory.Create<PfcNetDevice>();
            dev->SetAttribute("DataRate", DataRateValue(spec.rate));
            f->m_nodes.Get(node)->AddDevice(dev);
            dev->Attach(ch);
            if (topo.isSwitch[node])
            {
                port = f->m_switches[node]->AddPort(dev, portQueue(spec.rate));
            }
            else
            {
                if (hostDevice[node])
                {
                    throw std::invalid_argument("topology: host " + std::to_string(node)
                                                + " has more than one link (multi-homed hosts "
                                                  "are not supported)");
                }
                hostDevice[node] = dev;
                port = 0;
            }
        };
        attach(spec.a, link.portA, link.devA);
        attach(spec.b, link.portB, link.devB);
        f->m_adj[spec.a].emplace_back(spec.b, f->m_links.size());
        f->m_adj[spec.b].emplace_back(spec.a, f->m_links.size());
        f->m_links.push_back(link);
    }
    if (!m_ccQueueAttributes.empty() && !ccQueueUsed && !f->m_switchIds.empty())
    {
        throw std::invalid_argument("SetQueueDiscAttribute(" + m_ccQueueAttributes.front().first
                                    + "): no switch port has the congestion control's queue (every "
                                      "port rate has its own SetQueueDiscForRate)");
    }
    if (RankTransport::IsEnabled())
    {
        // Links between ranks: frames cross them through MPI (PfcRemoteChannel, RankTransport).
        std::vector<RankTransport::CutLink> cut;
        std::vector<Ptr<PfcNetDevice>> local;
        for (const auto& l : f->m_links)
        {
            if (f->m_rank[l.a] == f->m_rank[l.b])
            {
                continue;
            }
            cut.push_back({f->m_rank[l.a],
                           f->m_nodes.Get(l.a)->GetId(),
                           l.devA->GetIfIndex(),
                           f->m_rank[l.b],
                           f->m_nodes.Get(l.b)->GetId(),
                           l.devB->GetIfIndex(),
                           l.delay});
            local.push_back(f->IsLocal(l.a) ? l.devA : (f->IsLocal(l.b) ? l.devB : nullptr));
        }
        RankTransport::SetCutLinks(cut, local);
    }
    // The congestion control's attributes (its parameter set and the program's own), once per
    // line rate of the hosts.
    std::map<uint64_t, std::vector<std::pair<std::string, Ptr<AttributeValue>>>> ccByRate;
    for (uint32_t h : f->m_hosts)
    {
        if (!hostDevice[h])
        {
            throw std::invalid_argument("topology: host " + std::to_string(h) + " has no link");
        }
        Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
        f->m_nodes.Get(h)->AggregateObject(nic);
        nic->Setup(hostDevice[h], Ipv4Address(0x0A000000u + f->m_hostIndex[h] + 1));
        const DataRate rate = hostDevice[h]->GetDataRate();
        auto cc = ccByRate.find(rate.GetBitRate());
        if (cc == ccByRate.end())
        {
            cc = ccByRate
                     .emplace(rate.GetBitRate(), GetCcAttributes(nic->GetCongestionControl(), rate))
                     .first;
            // An attribute the user gave that the algorithm, in the mode these settings choose,
            // does not read is refused before the run (it would change nothing).
            ObjectFactory probe;
            probe.SetTypeId(nic->GetCongestionControl());
            for (const auto& [name, value] : cc->second)
            {
                probe.Set(name, *value);
            }
            probe.Create<RdmaCongestionOps>()->RefuseUnreadUserAttributes();
        }
        for (const auto& [name, value] : cc->second)
        {
            nic->SetCongestionControlAttribute(name, *value);
        }
        f->m_nics[h] = nic;
    }
    // The switches serve the NICs' control priority (ACK, NAK, CNP) from a plain FIFO: take it
    // from the NICs, however it was set (helper, Config::SetDefault).
    if (!f->m_hosts.empty())
    {
        UintegerValue ctrl(f->m_nics[f->m_hosts.front()]->GetControlPriority());
        for (uint32_t s : f->m_switchIds)
        {
            f->m_switches[s]->SetAttribute("ControlPriority", ctrl);
        }
    }
    // Routes: breadth-first search from every host; a switch forwards toward host h on every
    // port whose neighbour is one hop closer to h (all shortest paths, for per-flow ECMP).
    f->m_distToHost.assign(f->m_hosts.size(), std::vector<uint16_t>(n, UNREACHABLE));
    for (uint32_t hi = 0; hi < f->m_hosts.size(); ++hi)
    {
        uint32_t h = f->m_hosts[hi];
        auto& dist = f->m_distToHost[hi];
        dist[h] = 0;
        std::deque<uint32_t> queue{h};
        while (!queue.empty())
        {
            uint32_t u = queue.front();
            queue.pop_front();
            if (u != h && !topo.isSwitch[u])
            {
                continue; // hosts do not forward
            }
            for (const auto& [v, l] : f->m_adj[u])
            {
                if (dist[v] == UNREACHABLE)
                {
                    if (dist[u] + 1 >= UNREACHABLE)
                    {
                        throw std::invalid_argument("topology: a path of more than "
                                                    + std::to_string(UNREACHABLE - 1)
                                                    + " hops from host " + std::to_string(h));
                    }
                    dist[v] = dist[u] + 1;
                    queue.push_back(v);
                }
            }
        }
        Ipv4Address addr = f->GetAddress(h);
        for (uint32_t s : f->m_switchIds)
        {
            if (dist[s] == UNREACHABLE)
            {
                continue;
            }
            for (const auto& [v, l] : f->m_adj[s])
            {
                if (dist[v] + 1 == dist[s] && (v == h || topo.isSwitch[v]))
                {
                    f->m_switches[s]->AddRoute(addr, f->GetPort(s, v));
                }
            }
        }
        for (uint32_t other : f->m_hosts)
        {
            if (dist[other] == UNREACHABLE)
            {
                throw std::invalid_argument("topology: host " + std::to_string(other)
                                            + " cannot reach host " + std::to_string(h));
            }
        }
    }
    std::map<uint32_t, std::string> agentOfQueue;        // queue disc TypeId uid -> agent
    std::map<std::string, ObjectFactory> agentFactories; // agent TypeId name -> factory
    for (uint32_t s : f->m_switchIds)
    {
        Ptr<RdmaSwitch> sw = f->m_switches[s];
        if (m_autoHeadroom)
        {
            uint64_t headroom = 0;
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                Ptr<PfcNetDevice> dev = sw->GetDevice(p);
                Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(dev->GetChannel());
                uint64_t frame = dev->GetWireBytes(dev->GetMtu());
                double inFlight = 2.0 * ch->GetDelay().GetSeconds()
                                  * static_cast<double>(dev->GetDataRate().GetBitRate()) / 8.0;
                if (!(inFlight + 3.0 * frame <= static_cast<double>(UINT32_MAX)))
                {
                    std::ostringstream oss;
                    oss << "switch " << s << ": the PFC headroom of its port " << p << " (2 x "
                        << ch->GetDelay().As(Time::AUTO) << " x " << dev->GetDataRate().GetBitRate()
                        << " bit/s + 3 frames = " << static_cast<uint64_t>(inFlight) + 3 * frame
                        << " B) is above 4294967295 B, the largest size ns-3.37's QueueSize holds";
                    throw std::invalid_argument(oss.str());
                }
                headroom
                    = std::max<uint64_t>(headroom, static_cast<uint64_t>(inFlight) + 3 * frame);
            }
            sw->GetMmu()->SetAttribute(
                "Headroom",
                QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(headroom))));
        }
        try
        {
            sw->Finalize();
        }
        catch (const BufferTooSmallError& e) // keeps its type (SwitchQueueSettings::Build)
        {
            throw BufferTooSmallError("switch " + std::to_string(s) + ": " + e.what());
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument("switch " + std::to_string(s) + ": " + e.what());
        }
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            sw->SetIngressDesignFanOut(p, f->GetDesignFanOut(s, p));
        }
        // The switch side of the algorithm whose queue disc the switch uses, if it has one
        // (DCON: the CNM generator, to which its queues report congested flows).
        std::string agent;
        for (uint32_t p = 0; p < sw->GetNPorts() && agent.empty(); ++p)
        {
            for (uint8_t c = 0; c < PfcNetDevice::NUM_PRIORITIES && agent.empty(); ++c)
            {
                if (Ptr<QueueDisc> q = sw->GetQueueDisc(p, c))
                {
                    const TypeId tid = q->GetInstanceTypeId();
                    auto known = agentOfQueue.find(tid.GetUid());
                    if (known == agentOfQueue.end())
                    {
                        known = agentOfQueue
                                    .emplace(tid.GetUid(), RdmaCcRegistry::GetSwitchAgentFor(tid))
                                    .first;
                    }
                    agent = known->second;
                }
            }
        }
        if (!agent.empty())
        {
            auto factory = agentFactories.find(agent);
            if (factory == agentFactories.end())
            {
                factory = agentFactories.emplace(agent, GetSwitchAgentFactory(agent)).first;
            }
            Ptr<RdmaSwitchAgent> a = factory->second.Create<RdmaSwitchAgent>();
            sw->GetObject<Node>()->AggregateObject(a);
            a->Install(sw);
        }
    }
    if (!m_agentAttributes.empty() && agentFactories.empty())
    {
        throw std::invalid_argument("SetSwitchAgentAttribute(" + m_agentAttributes.front().first
                                    + "): no switch has an agent (no switch queue disc belongs "
                                      "to an algorithm that declares one)");
    }
    // Fixed streams: the same fabric built twice in one process behaves the same.
    f->AssignStreams(0);
    return f;
}

} // namespace ns3
