/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-flow-helper.h"

#include "ns3/bth-header.h"
#include "ns3/log.h"
#include "ns3/parallel-run.h"
#include "ns3/simulator.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowHelper");

namespace
{
/// The largest flow: its bits (x 8) and its wire bytes stay within 64 bits.
constexpr uint64_t MAX_FLOW_BYTES = uint64_t(1) << 60;
} // namespace

RdmaFlowHelper::RdmaFlowHelper(Ptr<RdmaFabric> fabric)
    : m_fabric(fabric)
{
    NS_LOG_FUNCTION(this << fabric);
    m_connected.assign(fabric->GetNNodes(), false);
    if (ParallelRun::IsEnabled())
    {
        // A rank whose hosts send nothing is done from the start (all flows are added before
        // the simulation runs).
        Simulator::Schedule(Time(0), &RdmaFlowHelper::CheckLocalDone, this);
    }
}

uint32_t
RdmaFlowHelper::Record(
    uint32_t src, uint32_t dst, uint64_t size, Time start, uint8_t priority, uint16_t sport)
{
    const bool triggered = start == Time::Max();
    uint32_t id = m_flows.size();
    std::string what = "flow " + std::to_string(id) + ": ";
    auto isHost = [this](uint32_t n)
    {
        return n < m_fabric->GetNNodes() && !m_fabric->IsSwitch(n);
    };
    if (!isHost(src))
    {
        throw std::invalid_argument(what + "source " + std::to_string(src) + " is not a host");
    }
    if (!isHost(dst))
    {
        throw std::invalid_argument(what + "destination " + std::to_string(dst) + " is not a host");
    }
    if (src == dst)
    {
        throw std::invalid_argument(what + "source and destination are both "
                                    + std::to_string(src));
    }
    if (size == 0)
    {
        throw std::invalid_argument(what + "size is 0");
    }
    if (!triggered && start < Simulator::Now())
    {
        throw std::invalid_argument(what + "start time " + std::to_string(start.GetSeconds())
                                    + " s is in the past");
    }
    // What the simulator can represent: times up to half of ns-3's range (the run's timers
    // must stay in it), and a flow whose bits and whose transmission at its line rate do too.
    const Time limit = Time::Max() / 2;
    if (!triggered && start > limit)
    {
        std::ostringstream oss;
        oss.precision(15);
        oss << what << "start time " << start.GetSeconds() << " s is beyond " << limit.GetSeconds()
            << " s, half of ns-3's time range (the run's timers must stay "
               "in it)";
        throw std::invalid_argument(oss.str());
    }
    const DataRate line = m_fabric->GetNic(src)->GetDevice()->GetDataRate();
    const long double seconds
        = static_cast<long double>(size) * 8 / static_cast<long double>(line.GetBitRate());
    if (size > MAX_FLOW_BYTES || seconds > static_cast<long double>(limit.GetSeconds()))
    {
        std::ostringstream oss;
        oss << what << "size " << size << " B takes " << static_cast<double>(seconds)
            << " s at the source's line rate of " << line.GetBitRate()
            << " bit/s; the simulator holds flows of at most " << MAX_FLOW_BYTES
            << " B that take at most " << limit.GetSeconds() << " s (half of ns-3's time range)";
        throw std::invalid_argument(oss.str());
    }
    if (priority > 7)
    {
        throw std::invalid_argument(what + "priority " + std::to_string(priority)
                                    + " is not in 0..7");
    }
    if (priority == m_fabric->GetNic(src)->GetControlPriority())
    {
        throw std::invalid_argument(what + "priority " + std::to_string(priority)
                                    + " is the NICs' ControlPriority (ACK, NAK, CNP); data needs "
                                      "another priority");
    }
    m_flows.push_back({src, dst, size, start, priority, sport, DataRate(0), {}});
    m_triggered.push_back(triggered);
    if (!m_fabric->IsLocal(src))
    {
        return id; // another rank starts it (a parallel run)
    }
    m_localFlows++;
    if (!m_connected[src])
    {
        m_connected[src] = true;
        m_fabric->GetNic(src)->TraceConnectWithoutContext(
            "FlowComplete", MakeCallback(&RdmaFlowHelper::Completed, this));
    }
    return id;
}

uint32_t
RdmaFlowHelper::AddFlow(
    uint32_t src, uint32_t dst, uint64_t size, Time start, uint8_t priority, uint16_t sport)
{
    if (start == Time::Max())
    {
        throw std::invalid_argument("flow " + std::to_string(m_flows.size())
                                    + ": the start time is Time::Max() (AddTriggeredFlow adds a "
                                      "flow that starts on demand)");
    }
    const uint32_t id = Record(src, dst, size, start, priority, sport);
    if (m_fabric->IsLocal(src))
    {
        Simulator::Schedule(start - Simulator::Now(), &RdmaFlowHelper::Start, this, id);
    }
    return id;
}

uint32_t
RdmaFlowHelper::AddTriggeredFlow(
    uint32_t src, uint32_t dst, uint64_t size, uint8_t priority, uint16_t sport)
{
    return Record(src, dst, size, Time::Max(), priority, sport);
}

void
RdmaFlowHelper::StartTriggered(uint32_t flowId)
{
    NS_LOG_FUNCTION(this << flowId);
    if (flowId >= m_flows.size() || !m_triggered[flowId])
    {
        throw std::invalid_argument("StartTriggered: flow " + std::to_string(flowId)
                                    + (flowId >= m_flows.size()
                                           ? " does not exist"
                                           : " was not added by AddTriggeredFlow or has started"));
    }
    if (!m_fabric->IsLocal(m_flows[flowId].src))
    {
        throw std::invalid_argument("StartTriggered: flow " + std::to_string(flowId)
                                    + " starts at host " + std::to_string(m_flows[flowId].src)
                                    + ", which another rank runs");
    }
    m_triggered[flowId] = false;
    m_flows[flowId].start = Simulator::Now();
    Start(flowId);
}

void
RdmaFlowHelper::AddFlows(const std::vector<FlowSpec>& flows)
{
    for (const auto& f : flows)
    {
        if (f.priorityGroup > 7)
        {
            throw std::invalid_argument("flow " + std::to_string(m_flows.size())
                                        + ": priority group " + std::to_string(f.priorityGroup)
                                        + " is not a PFC priority (0..7)");
        }
        AddFlow(f.src, f.dst, f.sizeBytes, f.start, static_cast<uint8_t>(f.priorityGroup));
    }
}

void
RdmaFlowHelper::SetStartRate(uint32_t flowId, DataRate rate)
{
    NS_LOG_FUNCTION(this << flowId << rate);
    if (flowId >= m_flows.size())
    {
        throw std::invalid_argument("SetStartRate: no flow " + std::to_string(flowId));
    }
    Flow& f = m_flows[flowId];
    DataRate line = m_fabric->GetNic(f.src)->GetDevice()->GetDataRate();
    if (rate.GetBitRate() == 0 || rate > line)
    {
        throw std::invalid_argument("SetStartRate: flow " + std::to_string(flowId) + " start rate "
                                    + std::to_string(rate.GetBitRate())
                                    + " b/s must be > 0 and <= its line rate "
                                    + std::to_string(line.GetBitRate()) + " b/s");
    }
    if (f.start < Simulator::Now())
    {
        throw std::invalid_argument("SetStartRate: flow " + std::to_string(flowId)
                                    + " has started already");
    }
    f.startRate = rate;
}

void
RdmaFlowHelper::SetCcAttributes(uint32_t flowId,
                                const std::vector<std::pair<std::string, std::string>>& attributes)
{
    NS_LOG_FUNCTION(this << flowId << attributes.size());
    if (flowId >= m_flows.size())
    {
        throw std::invalid_argument("SetCcAttributes: no flow " + std::to_string(flowId));
    }
    Flow& f = m_flows[flowId];
    if (f.start < Simulator::Now())
    {
        throw std::invalid_argument("SetCcAttributes: flow " + std::to_string(flowId)
                                    + " has started already");
    }
    f.ccAttributes = attributes;
}

RdmaFiveTuple
RdmaFlowHelper::GetFiveTuple(uint32_t flowId) const
{
    const Flow& f = m_flows.at(flowId);
    if (f.sport == 0)
    {
        throw std::invalid_argument("flow " + std::to_string(flowId)
                                    + " has no fixed UDP source port");
    }
    RdmaFiveTuple t;
    t.src = m_fabric->GetAddress(f.src);
    t.dst = m_fabric->GetAddress(f.dst);
    t.sport = f.sport;
    t.dport = BthHeader::ROCEV2_UDP_PORT;
    t.protocol = 17;
    return t;
}

void
RdmaFlowHelper::SetStopWhenDone(bool enable, Time drain)
{
    NS_LOG_FUNCTION(this << enable << drain);
    if (drain.IsStrictlyNegative())
    {
        throw std::invalid_argument("SetStopWhenDone: the drain time must be >= 0");
    }
    m_stopWhenDone = enable;
    m_drain = drain;
}

const std::vector<RdmaFlowHelper::Flow>&
RdmaFlowHelper::GetFlows() const
{
    return m_flows;
}

uint32_t
RdmaFlowHelper::GetNCompleted() const
{
    return m_completed;
}

void
RdmaFlowHelper::Start(uint32_t id)
{
    const Flow& f = m_flows[id];
    RdmaFlowRequest req;
    req.flowId = id;
    req.dst = m_fabric->GetAddress(f.dst);
    req.size = f.size;
    req.priority = f.priority;
    req.baseRtt = m_fabric->GetBaseRtt(f.src, f.dst);
    req.hops = m_fabric->GetSwitchHops(f.src, f.dst);
    req.sport = f.sport;
    req.startRate = f.startRate;
    req.ccAttributes = f.ccAttributes;
    m_fabric->GetNic(f.src)->StartFlow(req);
}

void
RdmaFlowHelper::Completed(const RdmaFlowRecord& rec)
{
    m_completed++;
    if (ParallelRun::IsEnabled())
    {
        CheckLocalDone();
    }
    else if (m_stopWhenDone && m_completed == m_flows.size())
    {
        Simulator::Stop(m_drain);
    }
}

void
RdmaFlowHelper::CheckLocalDone()
{
    if (m_stopWhenDone && m_completed == m_localFlows)
    {
        ParallelRun::NotifyLocalDone(m_drain);
    }
}

} // namespace ns3
