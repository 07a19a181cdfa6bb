/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-spreading.h"

#include "atomic-output-file.h"
#include "fabric-monitor.h"
#include "monitor-codec.h"
#include "ns3/log.h"
#include "ns3/parallel-run.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CongestionSpreading");

using monitor_codec::Seconds;

namespace
{
/// Flow-size buckets of the summary (1 KB = 1000 B, as scripts/fct_stats.py).
const std::pair<const char*, uint64_t> SIZE_BUCKETS[] = {{"<=10KB", 10000},
                                                         {"10KB-100KB", 100000},
                                                         {"100KB-1MB", 1000000},
                                                         {"1MB-10MB", 10000000},
                                                         {">10MB", UINT64_MAX}};
} // namespace

CongestionSpreading::CongestionSpreading(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows)
    : m_fabric(fabric)
    , m_flows(flows)
{
    NS_LOG_FUNCTION(this << fabric << flows);
}

void
CongestionSpreading::Start()
{
    NS_LOG_FUNCTION(this);
    if (ParallelRun::IsEnabled())
    {
        throw std::logic_error("congestion spreading is measured in sequential runs only (a "
                               "pause's root is known on the rank of the switch that sends it)");
    }
    // A pause's cause is the egress queue its ingress feeds most (GetIngressBytesTo).
    for (uint32_t sw : m_fabric->GetSwitches())
    {
        m_fabric->GetSwitch(sw)->EnableIngressAccounting();
    }
    const auto& links = m_fabric->GetLinks();
    for (const auto& l : links)
    {
        for (int end = 0; end < 2; ++end)
        {
            Transmitter t;
            t.node = end == 0 ? l.a : l.b;
            t.port = end == 0 ? l.portA : l.portB;
            t.peer = end == 0 ? l.b : l.a;
            t.isSwitch = m_fabric->IsSwitch(t.node);
            m_txOf[{t.node, t.port}] = m_tx.size();
            m_tx.push_back(t);
        }
    }
    for (std::size_t li = 0; li < links.size(); ++li)
    {
        const auto& l = links[li];
        for (int end = 0; end < 2; ++end)
        {
            const uint32_t tx = m_txOf.at({end == 0 ? l.a : l.b, end == 0 ? l.portA : l.portB});
            Ptr<PfcNetDevice> dev = end == 0 ? l.devA : l.devB;
            const Transmitter& t = m_tx[tx];
            dev->TraceConnectWithoutContext(
                "PauseState", MakeCallback(&CongestionSpreading::PauseState, this).Bind(tx));
            if (t.isSwitch)
            {
                dev->TraceConnectWithoutContext(
                    "PfcTx",
                    MakeCallback(&CongestionSpreading::PfcSent, this).Bind(t.node, t.port));
                // The queues' Enqueue and Dequeue traces are connected only while a pause
                // makes them matter (SyncQueueTraces): a packet's way costs nothing otherwise.
                Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(t.node);
                for (uint8_t c = 0; c < PfcNetDevice::NUM_PRIORITIES; ++c)
                {
                    if (c != sw->GetControlPriority())
                    {
                        m_tx[tx].held[c].queue = PeekPointer(sw->GetQueueDisc(t.port, c));
                    }
                }
            }
            else
            {
                m_fabric->GetNic(t.node)->TraceConnectWithoutContext(
                    "FlowStart", MakeCallback(&CongestionSpreading::FlowStarted, this).Bind(tx));
            }
        }
    }
}

uint32_t
CongestionSpreading::EventFor(const Root& root)
{
    auto it = m_openEvent.find(root);
    if (it != m_openEvent.end())
    {
        return it->second;
    }
    Event e;
    e.id = m_events.size();
    e.root = root;
    e.start = Simulator::Now();
    m_events.push_back(e);
    m_eventActive.push_back(0);
    m_openEvent[root] = e.id;
    return e.id;
}

void
CongestionSpreading::JoinEvent(uint32_t tx, uint8_t priority)
{
    Held& h = m_tx[tx].held[priority];
    if (!m_events[h.event].end.IsStrictlyNegative())
    {
        h.event = EventFor(h.root); // its event ended before this pause took effect
    }
    Event& e = m_events[h.event];
    m_eventActive[h.event]++;
    e.transmitters.push_back(tx);
    h.eventSince = Simulator::Now();
}

void
CongestionSpreading::LeaveEvent(uint32_t tx, uint8_t priority)
{
    Held& h = m_tx[tx].held[priority];
    Event& e = m_events[h.event];
    const Time now = Simulator::Now();
    e.pausedTime += now - h.eventSince;
    if (--m_eventActive[h.event] == 0 && !m_finished)
    {
        e.end = now;
        auto it = m_openEvent.find(e.root);
        if (it != m_openEvent.end() && it->second == h.event)
        {
            m_openEvent.erase(it);
        }
    }
}

void
CongestionSpreading::SyncQueueTraces(uint32_t tx, uint8_t priority)
{
    Held& h = m_tx[tx].held[priority];
    if (!h.queue)
    {
        return;
    }
    const bool queued = h.paused;                 // Queued acts only then
    const bool dequeued = h.carries && !h.paused; // Dequeued acts only then
    if (queued != h.queuedOn)
    {
        auto cb = MakeCallback(&CongestionSpreading::Queued, this).Bind(tx);
        queued ? h.queue->TraceConnectWithoutContext("Enqueue", cb)
               : h.queue->TraceDisconnectWithoutContext("Enqueue", cb);
        h.queuedOn = queued;
    }
    if (dequeued != h.dequeuedOn)
    {
        auto cb = MakeCallback(&CongestionSpreading::Dequeued, this).Bind(tx);
        dequeued ? h.queue->TraceConnectWithoutContext("Dequeue", cb)
                 : h.queue->TraceDisconnectWithoutContext("Dequeue", cb);
        h.dequeuedOn = dequeued;
    }
}

void
CongestionSpreading::DropDrainedTraces()
{
    for (const auto& [tx, priority] : m_drained)
    {
        SyncQueueTraces(tx, priority);
    }
    m_drained.clear();
}

void
CongestionSpreading::PfcSent(uint32_t sw, uint32_t port, uint8_t priority, uint16_t quanta)
{
    DropDrainedTraces();
    if (quanta == 0)
    {
        return; // a RESUME
    }
    Ptr<RdmaSwitch> s = m_fabric->GetSwitch(sw);
    // The egress queue that holds most of the ingress port's bytes.
    uint32_t best = UINT32_MAX;
    uint64_t bestBytes = 0;
    for (uint32_t out = 0; out < s->GetNPorts(); ++out)
    {
        const uint64_t b = s->GetIngressBytesTo(port, out, priority);
        if (b > bestBytes)
        {
            best = out;
            bestBytes = b;
        }
    }
    PauseFrame f;
    f.time = Simulator::Now();
    f.sw = sw;
    f.port = port;
    f.peer = m_tx[m_txOf.at({sw, port})].peer;
    f.priority = priority;
    f.depth = 1;
    f.root = Root(sw, best, priority);
    if (best != UINT32_MAX)
    {
        const Held& down = m_tx[m_txOf.at({sw, best})].held[priority];
        if ((down.paused || down.carries) && down.labelled)
        {
            // paused there, or still holding what a pause there left: the same tree, one hop
            // farther
            f.root = down.root;
            f.depth = down.depth + 1;
        }
    }
    f.event = EventFor(f.root);
    const uint32_t cause = m_groups > 0 ? CauseOf(f.root) : NO_GROUP;
    Event& e = m_events[f.event];
    e.pauseFrames++;
    e.maxDepth = std::max(e.maxDepth, f.depth);
    m_frames.push_back(f);
    // The transmitter it stops: the port (or NIC) at the other end of the ingress port's link.
    const uint32_t up = m_txOf.at({f.peer, m_fabric->GetPort(f.peer, sw)});
    Held& h = m_tx[up].held[priority];
    const bool rootChanges = h.paused && h.labelled && h.root != f.root;
    std::vector<RdmaFiveTuple> rehold;
    if (h.paused && (rootChanges || !h.labelled))
    {
        rehold = CloseAll(up, priority); // the time so far counts under the old root
        if (h.labelled)
        {
            LeaveEvent(up, priority);
        }
    }
    const bool wasLabelled = h.labelled;
    h.labelled = true;
    h.root = f.root;
    h.depth = f.depth;
    h.cause = cause;
    if (!h.paused || !rootChanges)
    {
        h.event = f.event;
    }
    if (h.paused && (rootChanges || !wasLabelled))
    {
        h.event = f.event;
        JoinEvent(up, priority);
        for (const auto& flow : rehold)
        {
            StartHold(up, h, flow);
        }
    }
}

void
CongestionSpreading::PauseState(uint32_t tx, uint8_t priority, bool paused)
{
    DropDrainedTraces();
    Transmitter& t = m_tx[tx];
    Held& h = t.held[priority];
    const Time now = Simulator::Now();
    if (paused)
    {
        h.paused = true;
        h.carries = t.isSwitch;
        h.since = now;
        SyncQueueTraces(tx, priority);
        if (h.labelled)
        {
            JoinEvent(tx, priority);
        }
        if (t.isSwitch)
        {
            m_fabric->GetSwitch(t.node)
                ->GetQueueDisc(t.port, priority)
                ->ForEachItem(
                    [this, tx, &h](const RdmaQueueDiscItem& item)
                    {
                        StartHold(tx, h, item.GetFiveTuple());
                    });
        }
        else
        {
            m_fabric->GetNic(t.node)->ForEachFlowWithData(
                priority,
                [this, tx, &h](uint32_t id, const RdmaFiveTuple& flow)
                {
                    m_flowOf[flow] = id;
                    StartHold(tx, h, flow);
                });
        }
        return;
    }
    if (!h.paused)
    {
        return;
    }
    CloseAll(tx, priority);
    if (h.labelled)
    {
        LeaveEvent(tx, priority);
    }
    h.paused = false;
    SyncQueueTraces(tx, priority);
}

void
CongestionSpreading::Queued(uint32_t tx, Ptr<const QueueDiscItem> item)
{
    const auto& rdma = static_cast<const RdmaQueueDiscItem&>(*item);
    Held& h = m_tx[tx].held[rdma.GetPriority()];
    if (h.paused)
    {
        StartHold(tx, h, rdma.GetFiveTuple());
    }
}

void
CongestionSpreading::Dequeued(uint32_t tx, Ptr<const QueueDiscItem> item)
{
    const auto& rdma = static_cast<const RdmaQueueDiscItem&>(*item);
    Held& h = m_tx[tx].held[rdma.GetPriority()];
    if (h.carries && !h.paused
        && m_fabric->GetSwitch(m_tx[tx].node)
                   ->GetQueueDisc(m_tx[tx].port, rdma.GetPriority())
                   ->GetNBytes()
               == 0)
    {
        h.carries = false;                              // the backlog the pause left has drained
        m_drained.emplace_back(tx, rdma.GetPriority()); // disconnected at the next device event
    }
}

void
CongestionSpreading::FlowStarted(uint32_t nicTx, uint32_t flowId, Ptr<RdmaFlowState> /* state */)
{
    RdmaFiveTuple flow;
    if (!m_fabric->GetNic(m_tx[nicTx].node)->GetFlowTuple(flowId, flow))
    {
        return;
    }
    m_flowOf[flow] = flowId;
    Held& h = m_tx[nicTx].held[m_flows->GetFlows().at(flowId).priority];
    if (h.paused)
    {
        StartHold(nicTx, h, flow);
    }
}

bool
CongestionSpreading::HeadsTo(const RdmaFiveTuple& flow, uint32_t tx, const Root& root) const
{
    uint32_t node = m_tx[tx].peer;
    for (int hop = 0; hop < 64; ++hop)
    {
        if (!m_fabric->IsSwitch(node))
        {
            return false; // reached a host
        }
        Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(node);
        const uint32_t out = sw->Route(flow);
        if (out == UINT32_MAX)
        {
            return false;
        }
        if (node == std::get<0>(root) && out == std::get<1>(root))
        {
            return true;
        }
        node = m_tx[m_txOf.at({node, out})].peer;
    }
    return false;
}

void
CongestionSpreading::StartHold(uint32_t tx, Held& h, const RdmaFiveTuple& flow)
{
    Hold hold;
    hold.since = Simulator::Now();
    hold.known = h.labelled;
    hold.culprit = h.labelled && HeadsTo(flow, tx, h.root);
    if (m_groups > 0)
    {
        hold.group = GroupOf(flow);
        hold.cause = h.cause;
    }
    if (!h.waiting.emplace(flow, hold).second || !hold.known)
    {
        return; // held already, or not attributable
    }
    if (m_groups > 0 && hold.cause != NO_GROUP && hold.cause != hold.group
        && m_groupForeignHolds[hold.group]++ == 0)
    {
        m_groupForeignSince[hold.group] = hold.since;
    }
    FlowState& fs = m_flowState[flow];
    if (hold.culprit ? fs.culpritHolds++ == 0 : fs.victimHolds++ == 0)
    {
        (hold.culprit ? fs.culpritSince : fs.victimSince) = hold.since;
    }
}

void
CongestionSpreading::EndHold(const Held& h, const RdmaFiveTuple& flow, const Hold& hold)
{
    const Time now = Simulator::Now();
    const Time dt = now - hold.since;
    if (!hold.known)
    {
        m_unattributed += dt;
        return;
    }
    if (m_groups > 0)
    {
        GroupTimes& g = m_groupTimes[hold.group];
        if (hold.cause == NO_GROUP)
        {
            g.unknownHold += dt;
        }
        else if (hold.cause == hold.group)
        {
            g.ownHold += dt;
        }
        else
        {
            g.victimOthersHold += dt;
            if (--m_groupForeignHolds[hold.group] == 0)
            {
                g.victimOthers += now - m_groupForeignSince[hold.group];
            }
        }
    }
    FlowState& fs = m_flowState[flow];
    Event& e = m_events[h.event];
    if (hold.culprit)
    {
        fs.times.culpritHold += dt;
        e.culpritTime += dt;
        if (--fs.culpritHolds == 0)
        {
            fs.times.culprit += now - fs.culpritSince;
        }
    }
    else
    {
        fs.times.victimHold += dt;
        e.victimTime += dt;
        if (--fs.victimHolds == 0)
        {
            fs.times.victim += now - fs.victimSince;
        }
    }
}

std::vector<RdmaFiveTuple>
CongestionSpreading::CloseAll(uint32_t tx, uint8_t priority)
{
    Held& h = m_tx[tx].held[priority];
    std::map<RdmaFiveTuple, Hold> held;
    held.swap(h.waiting);
    std::vector<RdmaFiveTuple> flows;
    for (const auto& [flow, hold] : held)
    {
        EndHold(h, flow, hold);
        flows.push_back(flow);
    }
    return flows;
}

void
CongestionSpreading::SetFlowGroups(std::function<uint32_t(uint32_t)> groupOf, uint32_t groups)
{
    m_groupOf = std::move(groupOf);
    m_groups = groups;
    m_groupTimes.assign(groups + 1, GroupTimes());
    m_groupForeignHolds.assign(groups + 1, 0);
    m_groupForeignSince.assign(groups + 1, Time(0));
}

CongestionSpreading::GroupTimes
CongestionSpreading::GetGroupTimes(uint32_t group) const
{
    return group < m_groupTimes.size() ? m_groupTimes[group] : GroupTimes();
}

uint32_t
CongestionSpreading::GroupOf(const RdmaFiveTuple& flow) const
{
    auto it = m_flowOf.find(flow);
    const uint32_t g = it == m_flowOf.end() ? NO_GROUP : m_groupOf(it->second);
    return g < m_groups ? g : m_groups;
}

uint32_t
CongestionSpreading::CauseOf(const Root& root) const
{
    if (std::get<1>(root) == UINT32_MAX)
    {
        return NO_GROUP;
    }
    std::vector<uint64_t> bytes(m_groups + 1, 0);
    m_fabric->GetSwitch(std::get<0>(root))
        ->GetQueueDisc(std::get<1>(root), std::get<2>(root))
        ->ForEachItem(
            [this, &bytes](const RdmaQueueDiscItem& item)
            {
                bytes[GroupOf(item.GetFiveTuple())] += item.GetSize();
            });
    uint32_t best = NO_GROUP;
    for (uint32_t g = 0; g <= m_groups; ++g)
    {
        if (bytes[g] > 0 && (best == NO_GROUP || bytes[g] > bytes[best]))
        {
            best = g;
        }
    }
    return best;
}

void
CongestionSpreading::Finish()
{
    if (m_finished)
    {
        return;
    }
    DropDrainedTraces();
    for (uint32_t tx = 0; tx < m_tx.size(); ++tx)
    {
        for (uint8_t c = 0; c < PfcNetDevice::NUM_PRIORITIES; ++c)
        {
            Held& h = m_tx[tx].held[c];
            if (h.paused)
            {
                CloseAll(tx, c);
                if (h.labelled)
                {
                    Event& e = m_events[h.event];
                    e.pausedTime += Simulator::Now() - h.eventSince;
                    h.eventSince = Simulator::Now();
                }
            }
        }
    }
    for (Event& e : m_events)
    {
        std::sort(e.transmitters.begin(), e.transmitters.end());
        e.transmitters.erase(std::unique(e.transmitters.begin(), e.transmitters.end()),
                             e.transmitters.end());
    }
    m_finished = true;
}

CongestionSpreading::FlowTimes
CongestionSpreading::GetFlowTimes(uint32_t flowId) const
{
    for (const auto& [flow, id] : m_flowOf)
    {
        if (id == flowId)
        {
            auto it = m_flowState.find(flow);
            return it == m_flowState.end() ? FlowTimes() : it->second.times;
        }
    }
    return FlowTimes();
}

const std::vector<CongestionSpreading::PauseFrame>&
CongestionSpreading::GetPauseFrames() const
{
    return m_frames;
}

const std::vector<CongestionSpreading::Event>&
CongestionSpreading::GetEvents() const
{
    return m_events;
}

void
CongestionSpreading::Write(const std::string& dir,
                           const std::function<std::string(uint32_t)>& name) const
{
    if (!m_finished)
    {
        throw std::logic_error("CongestionSpreading::Write before Finish");
    }
    const auto& flows = m_flows->GetFlows();
    std::vector<FlowTimes> byId(flows.size());
    for (const auto& [flow, id] : m_flowOf)
    {
        auto it = m_flowState.find(flow);
        if (it != m_flowState.end() && id < byId.size())
        {
            byId[id] = it->second.times;
        }
    }
    {
        AtomicOutputFile file(dir + "/victims.csv");
        std::ostream& out = file.Stream();
        out << "flow_id,src,dst,size_bytes,culprit_s,victim_s,culprit_hold_s,victim_hold_s\n";
        for (std::size_t id = 0; id < flows.size(); ++id)
        {
            out << id << "," << name(flows[id].src) << "," << name(flows[id].dst) << ","
                << flows[id].size << "," << Seconds(byId[id].culprit) << ","
                << Seconds(byId[id].victim) << "," << Seconds(byId[id].culpritHold) << ","
                << Seconds(byId[id].victimHold) << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(dir + "/pause-trees.csv");
        std::ostream& out = file.Stream();
        out << "time_s,switch,port,peer,priority,root_switch,root_port,depth,event\n";
        for (const PauseFrame& f : m_frames)
        {
            out << Seconds(f.time) << "," << name(f.sw) << "," << f.port << "," << name(f.peer)
                << "," << +f.priority << "," << name(std::get<0>(f.root)) << ",";
            if (std::get<1>(f.root) != UINT32_MAX)
            {
                out << std::get<1>(f.root);
            }
            out << "," << f.depth << "," << f.event << "\n";
        }
        file.Commit();
    }
    AtomicOutputFile file(dir + "/pause-events.csv");
    std::ostream& out = file.Stream();
    out << "event,root_switch,root_port,priority,start_s,end_s,max_depth,pause_frames,"
           "transmitters_paused,paused_s,culprit_s,victim_s\n";
    for (const Event& e : m_events)
    {
        out << e.id << "," << name(std::get<0>(e.root)) << ",";
        if (std::get<1>(e.root) != UINT32_MAX)
        {
            out << std::get<1>(e.root);
        }
        out << "," << +std::get<2>(e.root) << "," << Seconds(e.start) << ",";
        if (!e.end.IsStrictlyNegative())
        {
            out << Seconds(e.end);
        }
        out << "," << e.maxDepth << "," << e.pauseFrames << "," << e.transmitters.size() << ","
            << Seconds(e.pausedTime) << "," << Seconds(e.culpritTime) << ","
            << Seconds(e.victimTime) << "\n";
    }
    file.Commit();
}

void
CongestionSpreading::WriteSummary(std::ostream& out) const
{
    const auto& flows = m_flows->GetFlows();
    Time culprit;
    Time victim;
    Time culpritHold;
    Time victimHold;
    uint64_t held = 0;
    uint64_t victims = 0;
    std::vector<Time> bySize(std::size(SIZE_BUCKETS));
    for (const auto& [flow, fs] : m_flowState)
    {
        const FlowTimes& t = fs.times;
        culprit += t.culprit;
        victim += t.victim;
        culpritHold += t.culpritHold;
        victimHold += t.victimHold;
        held += (t.culprit + t.victim).IsStrictlyPositive();
        victims += t.victim.IsStrictlyPositive();
        auto id = m_flowOf.find(flow);
        if (id != m_flowOf.end() && id->second < flows.size())
        {
            const uint64_t size = flows[id->second].size;
            std::size_t b = 0;
            while (size > SIZE_BUCKETS[b].second)
            {
                ++b;
            }
            bySize[b] += t.victim;
        }
    }
    uint32_t maxDepth = 0;
    const Event* largest = nullptr;
    Time paused;
    for (const Event& e : m_events)
    {
        maxDepth = std::max(maxDepth, e.maxDepth);
        paused += e.pausedTime;
        if (!largest || e.pausedTime > largest->pausedTime)
        {
            largest = &e;
        }
    }
    const double total = (culprit + victim).GetSeconds();
    out << "  \"spreading\": {\"culprit_s\": " << Seconds(culprit) << ", \"victim_s\": "
        << Seconds(victim)
        // (a share of no held time is not measured: null)
        << ", \"victim_share\": "
        << (total > 0 ? Reading::Of(victim.GetSeconds() / total) : Reading::NotMeasured("")).Json()
        << ", \"culprit_hold_s\": " << Seconds(culpritHold)
        << ", \"victim_hold_s\": " << Seconds(victimHold)
        << ", \"unattributed_s\": " << Seconds(m_unattributed) << ", \"flows_held\": " << held
        << ", \"flows_victims\": " << victims << ",\n    \"victim_s_by_size\": {";
    for (std::size_t b = 0; b < bySize.size(); ++b)
    {
        out << (b ? ", " : "") << "\"" << SIZE_BUCKETS[b].first << "\": " << Seconds(bySize[b]);
    }
    out << "},\n    \"pause_frames\": " << m_frames.size() << ", \"events\": " << m_events.size()
        << ", \"paused_s\": " << Seconds(paused) << ", \"max_depth\": " << maxDepth;
    if (largest)
    {
        out << ", \"largest_event\": {\"event\": " << largest->id
            << ", \"transmitters_paused\": " << largest->transmitters.size()
            << ", \"paused_s\": " << Seconds(largest->pausedTime)
            << ", \"max_depth\": " << largest->maxDepth << "}";
    }
    out << "},\n";
}

} // namespace ns3
