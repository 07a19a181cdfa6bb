/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-monitor.h"

#include "atomic-output-file.h"
#include "monitor-codec.h"
#include "ns3/log.h"
#include "ns3/parallel-run.h"
#include "ns3/simulator.h"
#include "ns3/value-text.h"
#include "process-resources.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricMonitor");

using monitor_codec::Decoder;
using monitor_codec::Encoder;
using monitor_codec::Seconds;

std::map<std::string, uint64_t>
FabricMonitor::SumQueueCounters(Ptr<RdmaFabric> fabric, TypeId type)
{
    std::map<std::string, uint64_t> sum;
    for (uint32_t s : fabric->GetSwitches())
    {
        if (!fabric->IsLocal(s))
        {
            continue;
        }
        Ptr<RdmaSwitch> sw = fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                Ptr<RdmaEgressQueueDisc> q = sw->GetQueueDisc(p, prio);
                if (!q
                    || (type != TypeId() && q->GetInstanceTypeId() != type
                        && !q->GetInstanceTypeId().IsChildOf(type)))
                {
                    continue;
                }
                for (const auto& [name, value] : q->GetCounters())
                {
                    sum[name] += value;
                }
            }
        }
    }
    return sum;
}

FabricMonitor::FabricMonitor(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows)
    : m_fabric(fabric)
    , m_flows(flows)
{
    NS_LOG_FUNCTION(this << fabric << flows);
    m_extensions = FabricMonitorExtension::CreateAll(fabric);
}

void
FabricMonitor::EnableCongestionSpreading()
{
    if (!m_spreading)
    {
        m_spreading = Create<CongestionSpreading>(m_fabric, m_flows);
    }
}

Ptr<CongestionSpreading>
FabricMonitor::GetCongestionSpreading() const
{
    return m_spreading;
}

void
FabricMonitor::SetNodeName(uint32_t node, const std::string& name)
{
    NS_LOG_FUNCTION(this << node << name);
    if (name.find(',') != std::string::npos || name.find('"') != std::string::npos)
    {
        throw std::invalid_argument("node name '" + name + "' contains a comma or quote");
    }
    m_names[node] = name;
}

std::string
FabricMonitor::GetNodeName(uint32_t node) const
{
    auto it = m_names.find(node);
    if (it != m_names.end())
    {
        return it->second;
    }
    return (m_fabric->IsSwitch(node) ? "s" : "h") + std::to_string(node);
}

void
FabricMonitor::AddQueueSample(uint32_t node, uint32_t port, bool ingress)
{
    Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(node);
    if (port >= sw->GetNPorts())
    {
        throw std::invalid_argument("switch " + std::to_string(node) + " has no port "
                                    + std::to_string(port));
    }
    m_queues.push_back({node, port, ingress, {}});
}

void
FabricMonitor::AddBufferSample()
{
    m_bufferProbe = true;
}

void
FabricMonitor::AddThroughputFlow(uint32_t flowId)
{
    if (flowId >= m_flows->GetFlows().size())
    {
        throw std::invalid_argument("no flow " + std::to_string(flowId) + " to monitor");
    }
    m_flowProbes[flowId];
}

void
FabricMonitor::Start()
{
    if (!m_queues.empty() || !m_flowProbes.empty() || m_bufferProbe)
    {
        throw std::invalid_argument("FabricMonitor::Start(): queue, throughput or buffer "
                                    "samples need an interval: Start(interval, stop)");
    }
    Start(MicroSeconds(100), Time::Max());
}

void
FabricMonitor::Start(Time interval, Time stop)
{
    m_start = Simulator::Now();
    m_interval = interval;
    m_stop = stop;
    m_startWallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
              .count();
    for (uint32_t h : m_fabric->GetHosts())
    {
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        nic->TraceConnectWithoutContext("FlowStart",
                                        MakeCallback(&FabricMonitor::FlowStarted, this));
        nic->TraceConnectWithoutContext("FlowComplete",
                                        MakeCallback(&FabricMonitor::FlowCompleted, this));
    }
    const auto& links = m_fabric->GetLinks();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        links[l].devA->TraceConnectWithoutContext(
            "PfcTx", MakeCallback(&FabricMonitor::PfcSent, this).Bind(l, true));
        links[l].devB->TraceConnectWithoutContext(
            "PfcTx", MakeCallback(&FabricMonitor::PfcSent, this).Bind(l, false));
    }
    for (const Ptr<FabricMonitorExtension>& e : m_extensions)
    {
        e->Start();
    }
    if (m_spreading)
    {
        m_spreading->Start();
    }
    if (!m_queues.empty() || !m_flowProbes.empty() || m_bufferProbe)
    {
        Simulator::Schedule(Time(0), &FabricMonitor::Sample, this);
    }
}

void
FabricMonitor::Sample()
{
    Time now = Simulator::Now();
    for (auto& q : m_queues)
    {
        Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(q.node);
        uint64_t bytes = 0;
        if (q.ingress)
        {
            for (uint8_t p = 0; p < PfcNetDevice::NUM_PRIORITIES; ++p)
            {
                bytes += sw->GetMmu()->GetIngressBytes(q.port, p);
            }
        }
        else
        {
            bytes = sw->GetEgressBytes(q.port);
        }
        q.samples.emplace_back(now, bytes);
    }
    if (m_bufferProbe)
    {
        uint64_t total = 0;
        uint64_t most = 0;
        for (uint32_t s : m_fabric->GetSwitches())
        {
            uint64_t used = m_fabric->GetSwitch(s)->GetMmu()->GetTotalUsed();
            total += used;
            most = std::max(most, used);
        }
        m_bufferSamples.emplace_back(now, total, most);
    }
    for (auto& [id, f] : m_flowProbes)
    {
        uint64_t acked = f.state ? f.state->m_sndUna : 0;
        double gbps
            = static_cast<double>(acked - f.lastAcked) * 8.0 / m_interval.GetSeconds() / 1e9;
        f.lastAcked = acked;
        f.samples.emplace_back(now, gbps);
    }
    if (now + m_interval <= m_stop)
    {
        Simulator::Schedule(m_interval, &FabricMonitor::Sample, this);
    }
}

void
FabricMonitor::PfcSent(uint32_t link, bool fromA, uint8_t priority, uint16_t quanta)
{
    const auto& l = m_fabric->GetLinks()[link];
    PfcEvent e;
    e.time = Simulator::Now();
    e.node = fromA ? l.a : l.b;
    e.port = fromA ? l.portA : l.portB;
    e.peer = fromA ? l.b : l.a;
    e.priority = priority;
    e.quanta = quanta;
    m_pfc.push_back(e);
}

void
FabricMonitor::FlowStarted(uint32_t flowId, Ptr<RdmaFlowState> state)
{
    auto it = m_flowProbes.find(flowId);
    if (it != m_flowProbes.end())
    {
        it->second.state = state;
    }
}

void
FabricMonitor::FlowCompleted(const RdmaFlowRecord& rec)
{
    m_records.push_back(rec);
}

uint64_t
FabricMonitor::GetPauseFrames(uint32_t from, uint32_t to) const
{
    uint64_t n = 0;
    for (const auto& e : m_pfc)
    {
        if (e.node == from && e.peer == to && e.quanta != 0)
        {
            n++;
        }
    }
    return n;
}

std::vector<FabricMonitor::FlowResult>
FabricMonitor::GetFlowResults() const
{
    if (m_spreading)
    {
        m_spreading->Finish();
    }
    std::vector<FlowResult> out;
    for (const RdmaFlowRecord& r : GetRecordsById())
    {
        const RdmaFlowHelper::Flow& flow = m_flows->GetFlows()[r.flowId];
        const Time fct = r.end - r.start;
        const Time ideal = m_fabric->GetIdealFct(flow.src, flow.dst, r.size);
        FlowResult f;
        f.flowId = r.flowId;
        f.src = flow.src;
        f.dst = flow.dst;
        f.sizeBytes = r.size;
        f.startSeconds = r.start.GetSeconds();
        f.fctSeconds = fct.GetSeconds();
        f.idealFctSeconds = ideal.GetSeconds();
        f.slowdown = fct.GetSeconds() / ideal.GetSeconds();
        if (m_spreading)
        {
            const CongestionSpreading::FlowTimes held = m_spreading->GetFlowTimes(r.flowId);
            f.culpritSeconds = held.culprit.GetSeconds();
            f.victimSeconds = held.victim.GetSeconds();
        }
        out.push_back(f);
    }
    return out;
}

std::vector<FabricMonitor::LinkPauses>
FabricMonitor::GetPauseFramesPerLink() const
{
    const Totals t = m_collected ? m_totals : LocalTotals();
    const auto& links = m_fabric->GetLinks();
    std::vector<LinkPauses> out;
    for (std::size_t l = 0; l < links.size(); ++l)
    {
        LinkPauses p;
        p.a = links[l].a;
        p.b = links[l].b;
        p.pauseFramesAToB = t.pauseSent[2 * l];
        p.pauseFramesBToA = t.pauseSent[2 * l + 1];
        out.push_back(p);
    }
    return out;
}

FabricMonitor::Summary
FabricMonitor::GetSummary() const
{
    const Totals t = m_collected ? m_totals : LocalTotals();
    Summary s;
    s.flowsTotal = m_flows->GetFlows().size();
    s.flowsCompleted = m_records.size();
    for (std::size_t k = 0; k < t.pauseSent.size(); ++k)
    {
        s.pauseFrames += t.pauseSent[k];
        s.resumeFrames += t.resumeSent[k];
    }
    for (const auto& perSwitch : t.drops)
    {
        for (const auto& [reason, n] : perSwitch)
        {
            s.drops += n;
        }
    }
    s.ecnMarks = t.marks;
    s.cnpsSent = t.nic.cnpsSent;
    s.cnmsReceived = t.nic.cnmsReceived;
    s.retransmittedPackets = t.nic.retransmittedPackets;
    const std::vector<FlowResult> flows = GetFlowResults();
    for (const FlowResult& f : flows)
    {
        s.meanSlowdown += f.slowdown / flows.size();
        s.maxFctSeconds = std::max(s.maxFctSeconds, f.fctSeconds);
    }
    if (m_spreading)
    {
        for (uint32_t id = 0; id < m_flows->GetFlows().size(); ++id)
        {
            const CongestionSpreading::FlowTimes held = m_spreading->GetFlowTimes(id);
            s.culpritSeconds += held.culprit.GetSeconds();
            s.victimSeconds += held.victim.GetSeconds();
        }
    }
    return s;
}

const std::vector<RdmaFlowRecord>&
FabricMonitor::GetRecords() const
{
    return m_records;
}

std::vector<std::pair<Time, double>>
FabricMonitor::GetThroughput(uint32_t flowId) const
{
    return m_flowProbes.at(flowId).samples;
}

Reading
FabricMonitor::MeasureThroughput(uint32_t flowId, Time from, Time to) const
{
    auto window = [&from, &to]()
    {
        return "(" + FormatTime(from) + ", " + FormatTime(to) + "]";
    };
    if (to <= from)
    {
        return Reading::NotMeasured("the window " + window() + " is empty");
    }
    double sum = 0;
    uint32_t n = 0;
    for (const auto& [t, g] : m_flowProbes.at(flowId).samples)
    {
        // (a sample covers (t - interval, t]; the first, at the start, covers no time)
        if (t - m_interval >= from && t <= to && t - m_interval >= m_start)
        {
            sum += g;
            n++;
        }
    }
    if (n == 0)
    {
        return Reading::NotMeasured("no throughput sample of " + FormatTime(m_interval)
                                    + " lies in " + window());
    }
    return Reading::Of(sum / n);
}

double
FabricMonitor::GetAverageThroughput(uint32_t flowId, Time from, Time to) const
{
    const Reading r = MeasureThroughput(flowId, from, to);
    if (!r.IsMeasured())
    {
        throw std::invalid_argument("flow " + std::to_string(flowId)
                                    + "'s throughput was not measured: " + r.reason);
    }
    return *r.value;
}

Reading
Reading::Of(double v)
{
    return Reading{v, ""};
}

Reading
Reading::NotMeasured(const std::string& why)
{
    return Reading{std::nullopt, why};
}

bool
Reading::IsMeasured() const
{
    return value.has_value();
}

std::string
Reading::ToJson(int precision) const
{
    if (!value)
    {
        return "null";
    }
    std::ostringstream os;
    os << std::setprecision(precision) << *value;
    return os.str();
}

Reading::JsonText
Reading::Json() const
{
    return JsonText{this};
}

std::ostream&
operator<<(std::ostream& out, Reading::JsonText j)
{
    if (j.reading->value)
    {
        out << *j.reading->value;
    }
    else
    {
        out << "null";
    }
    return out;
}

std::string
Reading::ToText(int precision) const
{
    if (!value)
    {
        return "not measured (" + reason + ")";
    }
    std::ostringstream os;
    os << std::setprecision(precision) << *value;
    return os.str();
}

std::vector<std::pair<Time, uint64_t>>
FabricMonitor::GetQueueSamples(uint32_t node, uint32_t port, bool ingress) const
{
    for (const auto& q : m_queues)
    {
        if (q.node == node && q.port == port && q.ingress == ingress)
        {
            return q.samples;
        }
    }
    throw std::invalid_argument("port not sampled");
}

std::vector<RdmaFlowRecord>
FabricMonitor::GetRecordsById() const
{
    std::vector<RdmaFlowRecord> recs = m_records;
    std::sort(recs.begin(),
              recs.end(),
              [](const auto& a, const auto& b)
              {
                  return a.flowId < b.flowId;
              });
    return recs;
}

void
FabricMonitor::SetIncomplete(const std::string& reason)
{
    NS_LOG_FUNCTION(this << reason);
    for (char c : reason)
    {
        if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
        {
            throw std::invalid_argument("SetIncomplete: the reason must be plain text");
        }
    }
    m_incomplete = reason;
}

void
FabricMonitor::WriteFctFile(const std::string& path) const
{
    std::vector<RdmaFlowRecord> recs = GetRecordsById();
    AtomicOutputFile file(path);
    std::ostream& out = file.Stream();
    for (const auto& r : recs)
    {
        const RdmaFlowHelper::Flow& flow = m_flows->GetFlows()[r.flowId];
        Time ideal = m_fabric->GetIdealFct(flow.src, flow.dst, r.size);
        char line[160];
        std::snprintf(line,
                      sizeof(line),
                      "%08x %08x %u %u %llu %lld %lld %lld\n",
                      m_fabric->GetAddress(flow.src).Get(),
                      m_fabric->GetAddress(flow.dst).Get(),
                      static_cast<unsigned>(r.sport),
                      4791u,
                      static_cast<unsigned long long>(r.size),
                      static_cast<long long>(r.start.GetNanoSeconds()),
                      static_cast<long long>((r.end - r.start).GetNanoSeconds()),
                      static_cast<long long>(ideal.GetNanoSeconds()));
        out << line;
    }
    file.Commit();
}

std::vector<std::string>
FabricMonitor::GetOutputKinds()
{
    std::vector<std::string> kinds{
        "flows.csv", "pfc.csv", "queues.csv", "buffer.csv", "throughput.csv", "drops.csv"};
    for (const std::string& k : FabricMonitorExtension::GetAllOutputKinds())
    {
        kinds.push_back(k);
    }
    for (const char* k : {"summary.json",
                          "fct.txt",
                          "node-work-nodes.csv",
                          "node-work-links.csv",
                          "victims.csv",
                          "pause-trees.csv",
                          "pause-events.csv"})
    {
        kinds.push_back(k);
    }
    return kinds;
}

void
FabricMonitor::Write(const std::string& dir) const
{
    const double now
        = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
              .count();
    Write(dir, m_startWallSeconds > 0 ? now - m_startWallSeconds : 0.0);
}

void
FabricMonitor::Write(const std::string& dir, double wallSeconds) const
{
    if (ParallelRun::IsEnabled())
    {
        if (!m_collected)
        {
            throw std::logic_error("FabricMonitor::Write: call Collect() on every rank after "
                                   "Simulator::Run in a parallel run");
        }
        if (!ParallelRun::IsRoot())
        {
            return; // rank 0 writes every file
        }
    }
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    fs::path d(dir);
    const Totals t = m_collected ? m_totals : LocalTotals();
    const auto name = [this](uint32_t node)
    {
        return GetNodeName(node);
    };
    for (const Ptr<FabricMonitorExtension>& e : m_extensions)
    {
        e->WriteFiles(d.string(), name);
    }
    if (m_spreading)
    {
        m_spreading->Finish();
        m_spreading->Write(d.string(), name);
    }

    // flows.csv, sorted by flow id so the file does not depend on completion order ties
    std::vector<RdmaFlowRecord> recs = GetRecordsById();
    {
        AtomicOutputFile file(d / "flows.csv");
        std::ostream& out = file.Stream();
        out << "flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\n";
        for (const auto& r : recs)
        {
            Time fct = r.end - r.start;
            const RdmaFlowHelper::Flow& flow = m_flows->GetFlows()[r.flowId];
            Time ideal = m_fabric->GetIdealFct(flow.src, flow.dst, r.size);
            out << r.flowId << "," << GetNodeName(flow.src) << "," << GetNodeName(flow.dst) << ","
                << r.size << "," << Seconds(r.start) << "," << Seconds(r.end) << "," << Seconds(fct)
                << "," << Seconds(ideal) << "," << std::setprecision(6)
                << fct.GetSeconds() / ideal.GetSeconds() << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(d / "pfc.csv");
        std::ostream& out = file.Stream();
        out << "time_s,node,port,peer,priority,event,quanta\n";
        // One order whatever engine ran: by time, same-time events by node, port, priority.
        std::vector<PfcEvent> pfc = m_pfc;
        std::stable_sort(pfc.begin(),
                         pfc.end(),
                         [](const PfcEvent& a, const PfcEvent& b)
                         {
                             return std::tie(a.time, a.node, a.port, a.priority)
                                    < std::tie(b.time, b.node, b.port, b.priority);
                         });
        for (const auto& e : pfc)
        {
            out << Seconds(e.time) << "," << GetNodeName(e.node) << "," << e.port << ","
                << GetNodeName(e.peer) << "," << +e.priority << ","
                << (e.quanta ? "pause" : "resume") << "," << e.quanta << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(d / "queues.csv");
        std::ostream& out = file.Stream();
        out << "time_s,node,port,kind,bytes\n";
        for (const auto& q : m_queues)
        {
            for (const auto& [t, b] : q.samples)
            {
                out << Seconds(t) << "," << GetNodeName(q.node) << "," << q.port << ","
                    << (q.ingress ? "ingress" : "egress") << "," << b << "\n";
            }
        }
        file.Commit();
    }
    if (m_bufferProbe)
    {
        AtomicOutputFile file(d / "buffer.csv");
        std::ostream& out = file.Stream();
        out << "time_s,total_bytes,max_switch_bytes\n";
        for (const auto& [t, total, most] : m_bufferSamples)
        {
            out << Seconds(t) << "," << total << "," << most << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(d / "throughput.csv");
        std::ostream& out = file.Stream();
        out << "time_s,flow,gbps\n";
        for (const auto& [id, f] : m_flowProbes)
        {
            for (const auto& [t, g] : f.samples)
            {
                out << Seconds(t) << "," << id << "," << std::setprecision(6) << g << "\n";
            }
        }
        file.Commit();
    }
    std::map<std::string, uint64_t> drops;
    {
        AtomicOutputFile file(d / "drops.csv");
        std::ostream& out = file.Stream();
        out << "node,reason,packets\n";
        const auto& switches = m_fabric->GetSwitches();
        for (std::size_t k = 0; k < switches.size(); ++k)
        {
            for (const auto& [reason, n] : t.drops[k])
            {
                out << GetNodeName(switches[k]) << "," << reason << "," << n << "\n";
                drops[reason] += n;
            }
        }
        file.Commit();
    }
    uint64_t pauses = 0;
    uint64_t resumes = 0;
    uint64_t linkFrames = 0;
    std::ostringstream perLink;
    const auto& links = m_fabric->GetLinks();
    bool first = true;
    for (std::size_t l = 0; l < links.size(); ++l)
    {
        for (int end = 0; end < 2; ++end)
        {
            const std::size_t k = 2 * l + end;
            pauses += t.pauseSent[k];
            resumes += t.resumeSent[k];
            linkFrames += t.txFrames[k];
            if (t.pauseSent[k])
            {
                perLink << (first ? "" : ", ") << "\""
                        << GetNodeName(end == 0 ? links[l].a : links[l].b) << "->"
                        << GetNodeName(end == 0 ? links[l].b : links[l].a)
                        << "\": " << t.pauseSent[k];
                first = false;
            }
        }
    }
    const RdmaNic::Stats& nic = t.nic;
    AtomicOutputFile file(d / "summary.json");
    std::ostream& out = file.Stream();
    out << std::setprecision(6);
    out << "{\n";
    out << "  \"complete\": " << (m_incomplete.empty() ? "true" : "false") << ",\n";
    if (!m_incomplete.empty())
    {
        out << "  \"incomplete_reason\": \"" << m_incomplete << "\",\n";
    }
    out << "  \"simulated_time_s\": " << Seconds(t.now) << ",\n";
    // What differs between two identical runs stays on this one line (see Write's doc).
    const std::optional<double> peak = ProcessPeakResidentBytes();
    out << "  \"wall_time_s\": " << wallSeconds << ", \"cpu_time_s\": " << ProcessCpuSeconds()
        << ", \"peak_rss_mib\": ";
    if (peak)
    {
        std::ostringstream mib; // MiB with one decimal (the kernel counts kB)
        mib << std::fixed << std::setprecision(1) << *peak / (1024.0 * 1024.0);
        out << mib.str();
    }
    else
    {
        out << "null";
    }
    out << ",\n";
    out << "  \"events_executed\": " << t.events << ",\n";
    out << "  \"flows_total\": " << m_flows->GetFlows().size() << ",\n";
    out << "  \"flows_completed\": " << m_records.size() << ",\n";
    out << "  \"link_frames_sent\": " << linkFrames << ",\n";
    out << "  \"data_packets_sent\": " << nic.dataPacketsSent << ",\n";
    out << "  \"retransmitted_packets\": " << nic.retransmittedPackets << ",\n";
    out << "  \"timeouts\": " << nic.timeouts << ",\n";
    out << "  \"pause_frames_sent\": " << pauses << ",\n";
    out << "  \"resume_frames_sent\": " << resumes << ",\n";
    out << "  \"pause_frames_per_link\": {" << perLink.str() << "},\n";
    out << "  \"drops\": {";
    first = true;
    for (const auto& [reason, n] : drops)
    {
        out << (first ? "" : ", ") << "\"" << reason << "\": " << n;
        first = false;
    }
    out << "},\n";
    out << "  \"ecn_marks\": " << t.marks << ",\n";
    out << "  \"cnps_sent\": " << nic.cnpsSent << ",\n";
    out << "  \"cnps_received\": " << nic.cnpsReceived << ",\n";
    out << "  \"cnms_received\": " << nic.cnmsReceived << ",\n";
    out << "  \"naks_sent\": " << nic.naksSent << ",\n";
    for (const Ptr<FabricMonitorExtension>& e : m_extensions)
    {
        e->WriteSummary(out, name);
    }
    if (m_spreading)
    {
        m_spreading->WriteSummary(out);
    }
    out << "  \"mmu_at_end\": {\"total_bytes\": " << t.mmuTotal
        << ", \"shared_bytes\": " << t.mmuShared << ", \"headroom_bytes\": " << t.mmuHeadroom
        << ", \"ingress_bytes\": " << t.ingress << ", \"egress_bytes\": " << t.egress
        << ", \"paused_port_priorities\": " << t.paused << "}\n";
    out << "}\n";
    file.Commit();
}

void
FabricMonitor::WriteNodeWork(const std::string& prefix) const
{
    const auto& links = m_fabric->GetLinks();
    std::vector<uint64_t> sent(m_fabric->GetNNodes(), 0);
    std::vector<uint64_t> received(m_fabric->GetNNodes(), 0);
    {
        AtomicOutputFile file(prefix + "-links.csv");
        std::ostream& out = file.Stream();
        out << "a,b,delay_s,frames_a_to_b,frames_b_to_a\n";
        for (const auto& l : links)
        {
            const auto& sa = l.devA->GetStats();
            const auto& sb = l.devB->GetStats();
            sent[l.a] += sa.txFrames;
            sent[l.b] += sb.txFrames;
            received[l.a] += sa.rxFrames;
            received[l.b] += sb.rxFrames;
            out << l.a << "," << l.b << "," << Seconds(l.delay) << "," << sa.txFrames << ","
                << sb.txFrames << "\n";
        }
        file.Commit();
    }
    AtomicOutputFile file(prefix + "-nodes.csv");
    std::ostream& out = file.Stream();
    out << "node,kind,frames_sent,frames_received\n";
    for (uint32_t i = 0; i < m_fabric->GetNNodes(); ++i)
    {
        out << i << "," << (m_fabric->IsSwitch(i) ? "switch" : "host") << "," << sent[i] << ","
            << received[i] << "\n";
    }
    file.Commit();
}

FabricMonitor::Totals
FabricMonitor::LocalTotals() const
{
    Totals t;
    const auto& links = m_fabric->GetLinks();
    t.pauseSent.assign(2 * links.size(), 0);
    t.resumeSent.assign(2 * links.size(), 0);
    t.txFrames.assign(2 * links.size(), 0);
    for (std::size_t l = 0; l < links.size(); ++l)
    {
        for (int end = 0; end < 2; ++end)
        {
            const auto& st = (end == 0 ? links[l].devA : links[l].devB)->GetStats();
            t.pauseSent[2 * l + end] = st.pauseSent;
            t.resumeSent[2 * l + end] = st.resumeSent;
            t.txFrames[2 * l + end] = st.txFrames;
        }
    }
    for (uint32_t s : m_fabric->GetSwitches())
    {
        Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(s);
        std::map<std::string, uint64_t> all = sw->GetMmu()->GetDropCounts();
        for (const auto& [reason, n] : sw->GetForwardingDrops())
        {
            all[reason] += n;
        }
        t.drops.push_back(std::move(all));
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        t.mmuTotal += mmu->GetTotalUsed();
        t.mmuShared += mmu->GetSharedUsed();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            t.mmuHeadroom += mmu->GetPortHeadroomBytes(p);
            t.egress += sw->GetEgressBytes(p);
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                t.ingress += mmu->GetIngressBytes(p, prio);
                t.paused += mmu->IsPaused(p, prio);
                Ptr<RdmaEgressQueueDisc> q = sw->GetQueueDisc(p, prio);
                t.marks += q->GetStats().nTotalMarkedPackets;
            }
        }
    }
    t.nic = m_fabric->GetNicTotals();
    t.events = Simulator::GetEventCount();
    t.now = Simulator::Now();
    return t;
}

std::vector<uint64_t*>
FabricMonitor::Counters(Totals& t)
{
    std::vector<uint64_t*> c;
    for (auto* v : {&t.pauseSent, &t.resumeSent, &t.txFrames})
    {
        for (uint64_t& x : *v)
        {
            c.push_back(&x);
        }
    }
    for (uint64_t* x : {&t.marks,
                        &t.mmuTotal,
                        &t.mmuShared,
                        &t.mmuHeadroom,
                        &t.ingress,
                        &t.egress,
                        &t.paused,
                        &t.nic.dataPacketsSent,
                        &t.nic.retransmittedPackets,
                        &t.nic.acksSent,
                        &t.nic.naksSent,
                        &t.nic.naksReceived,
                        &t.nic.cnpsSent,
                        &t.nic.cnpsReceived,
                        &t.nic.cnpsCongestedReceived,
                        &t.nic.cnmsReceived,
                        &t.nic.timeouts,
                        &t.nic.flowsCompleted,
                        &t.events})
    {
        c.push_back(x);
    }
    return c;
}

void
FabricMonitor::Collect()
{
    if (!ParallelRun::IsEnabled() || m_collected)
    {
        return;
    }
    for (const Ptr<FabricMonitorExtension>& e : m_extensions)
    {
        e->Collect();
    }
    // Each rank's part. A node's objects on another rank hold zeros (they never run), so the
    // totals add up; samples of a port or flow are taken from the rank that runs it.
    const uint32_t me = ParallelRun::GetRank();
    Encoder e;
    e.Put<uint64_t>(m_records.size());
    for (const auto& r : m_records)
    {
        e.Put(r.flowId);
        e.Put(r.size);
        e.Put(r.priority);
        e.Put(r.sport);
        e.PutTime(r.start);
        e.PutTime(r.end);
    }
    e.Put<uint64_t>(m_pfc.size());
    for (const auto& p : m_pfc)
    {
        e.PutTime(p.time);
        e.Put(p.node);
        e.Put(p.port);
        e.Put(p.peer);
        e.Put(p.priority);
        e.Put(p.quanta);
    }
    for (const auto& q : m_queues)
    {
        e.PutSamples(q.samples, m_fabric->GetRank(q.node) == me);
    }
    e.Put<uint64_t>(m_bufferSamples.size());
    for (const auto& [t, total, most] : m_bufferSamples)
    {
        e.PutTime(t);
        e.Put(total);
        e.Put(most);
    }
    for (const auto& [id, f] : m_flowProbes)
    {
        e.PutSamples(f.samples, m_fabric->GetRank(m_flows->GetFlows()[id].src) == me);
    }
    Totals mineTotals = LocalTotals();
    for (const uint64_t* x : Counters(mineTotals))
    {
        e.Put(*x);
    }
    for (const auto& m : mineTotals.drops)
    {
        e.Put<uint64_t>(m.size());
        for (const auto& [reason, n] : m)
        {
            e.PutString(reason);
            e.Put(n);
        }
    }
    e.PutTime(mineTotals.now);

    std::vector<std::string> parts = ParallelRun::Gather(e.buf);
    m_collected = true;
    if (!ParallelRun::IsRoot())
    {
        return;
    }
    // Rank 0: the union of every rank's part.
    m_records.clear();
    m_pfc.clear();
    m_bufferSamples.clear();
    Totals sum = mineTotals;
    for (std::size_t r = 0; r < parts.size(); ++r)
    {
        Decoder d(parts[r]);
        for (auto n = d.Get<uint64_t>(); n > 0; --n)
        {
            RdmaFlowRecord rec;
            rec.flowId = d.Get<uint32_t>();
            rec.size = d.Get<uint64_t>();
            rec.priority = d.Get<uint8_t>();
            rec.sport = d.Get<uint16_t>();
            rec.start = d.GetTime();
            rec.end = d.GetTime();
            m_records.push_back(rec);
        }
        for (auto n = d.Get<uint64_t>(); n > 0; --n)
        {
            PfcEvent p;
            p.time = d.GetTime();
            p.node = d.Get<uint32_t>();
            p.port = d.Get<uint32_t>();
            p.peer = d.Get<uint32_t>();
            p.priority = d.Get<uint8_t>();
            p.quanta = d.Get<uint16_t>();
            m_pfc.push_back(p);
        }
        for (auto& q : m_queues)
        {
            d.GetSamples(q.samples, m_fabric->GetRank(q.node) == r);
        }
        auto nb = d.Get<uint64_t>();
        if (r > 0 && nb != m_bufferSamples.size())
        {
            throw std::runtime_error("FabricMonitor::Collect: rank " + std::to_string(r) + " took "
                                     + std::to_string(nb) + " buffer samples, rank 0 "
                                     + std::to_string(m_bufferSamples.size()));
        }
        for (std::size_t i = 0; i < nb; ++i)
        {
            Time t = d.GetTime();
            auto total = d.Get<uint64_t>();
            auto most = d.Get<uint64_t>();
            if (r == 0)
            {
                m_bufferSamples.emplace_back(t, total, most);
            }
            else
            {
                std::get<1>(m_bufferSamples[i]) += total;
                std::get<2>(m_bufferSamples[i]) = std::max(std::get<2>(m_bufferSamples[i]), most);
            }
        }
        for (auto& [id, f] : m_flowProbes)
        {
            d.GetSamples(f.samples, m_fabric->GetRank(m_flows->GetFlows()[id].src) == r);
        }
        Totals t;
        for (auto* v : {&t.pauseSent, &t.resumeSent, &t.txFrames})
        {
            v->resize(mineTotals.pauseSent.size());
        }
        for (uint64_t* x : Counters(t))
        {
            *x = d.Get<uint64_t>();
        }
        t.drops.resize(mineTotals.drops.size());
        for (auto& m : t.drops)
        {
            for (auto n = d.Get<uint64_t>(); n > 0; --n)
            {
                std::string reason = d.GetString();
                m[reason] = d.Get<uint64_t>();
            }
        }
        t.now = d.GetTime();
        if (!d.AtEnd())
        {
            throw std::runtime_error("FabricMonitor::Collect: rank " + std::to_string(r)
                                     + " sent more than expected");
        }
        if (r == 0)
        {
            continue; // sum starts as rank 0's own totals
        }
        std::vector<uint64_t*> to = Counters(sum);
        std::vector<uint64_t*> from = Counters(t);
        for (std::size_t k = 0; k < to.size(); ++k)
        {
            *to[k] += *from[k];
        }
        for (std::size_t k = 0; k < sum.drops.size(); ++k)
        {
            for (const auto& [reason, n] : t.drops[k])
            {
                sum.drops[k][reason] += n;
            }
        }
        sum.now = std::max(sum.now, t.now);
    }
    // Completion order, as a sequential run records them (same-time completions by flow id).
    std::stable_sort(m_records.begin(),
                     m_records.end(),
                     [](const RdmaFlowRecord& a, const RdmaFlowRecord& b)
                     {
                         return std::tie(a.end, a.flowId) < std::tie(b.end, b.flowId);
                     });
    m_totals = std::move(sum);
}

} // namespace ns3
