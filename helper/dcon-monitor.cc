/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-monitor.h"

#include "atomic-output-file.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace ns3
{

namespace
{

/**
 * \brief Seconds with picosecond digits.
 * \param t the time
 * \return e.g. "0.000012345678"
 */
std::string
Seconds(Time t)
{
    std::ostringstream os;
    int64_t ps = t.GetPicoSeconds();
    os << ps / 1000000000000LL << "." << std::setw(12) << std::setfill('0') << ps % 1000000000000LL;
    return os.str();
}
} // namespace

DconMonitor::DconMonitor(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows)
    : m_fabric(fabric)
    , m_flows(flows)
{
}

void
DconMonitor::SetNodeName(uint32_t node, const std::string& name)
{
    if (name.find(',') != std::string::npos || name.find('"') != std::string::npos)
    {
        throw std::invalid_argument("node name '" + name + "' contains a comma or quote");
    }
    m_names[node] = name;
}

std::string
DconMonitor::GetNodeName(uint32_t node) const
{
    auto it = m_names.find(node);
    if (it != m_names.end())
    {
        return it->second;
    }
    return (m_fabric->IsSwitch(node) ? "s" : "h") + std::to_string(node);
}

void
DconMonitor::AddQueueSample(uint32_t node, uint32_t port, bool ingress)
{
    Ptr<DconSwitch> sw = m_fabric->GetSwitch(node);
    if (port >= sw->GetNPorts())
    {
        throw std::invalid_argument("switch " + std::to_string(node) + " has no port "
                                    + std::to_string(port));
    }
    m_queues.push_back({node, port, ingress, {}});
}

void
DconMonitor::AddBufferSample()
{
    m_bufferProbe = true;
}

void
DconMonitor::AddThroughputFlow(uint32_t flowId)
{
    if (flowId >= m_flows->GetFlows().size())
    {
        throw std::invalid_argument("no flow " + std::to_string(flowId) + " to monitor");
    }
    m_flowProbes[flowId];
}

void
DconMonitor::Start(Time interval, Time stop)
{
    m_interval = interval;
    m_stop = stop;
    for (uint32_t h : m_fabric->GetHosts())
    {
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        nic->TraceConnectWithoutContext("FlowStart", MakeCallback(&DconMonitor::FlowStarted, this));
        nic->TraceConnectWithoutContext("FlowComplete",
                                        MakeCallback(&DconMonitor::FlowCompleted, this));
    }
    const auto& links = m_fabric->GetLinks();
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        links[l].devA->TraceConnectWithoutContext(
            "PfcTx", MakeCallback(&DconMonitor::PfcSent, this).Bind(l, true));
        links[l].devB->TraceConnectWithoutContext(
            "PfcTx", MakeCallback(&DconMonitor::PfcSent, this).Bind(l, false));
    }
    if (!m_queues.empty() || !m_flowProbes.empty() || m_bufferProbe)
    {
        Simulator::Schedule(Time(0), &DconMonitor::Sample, this);
    }
}

void
DconMonitor::Sample()
{
    Time now = Simulator::Now();
    for (auto& q : m_queues)
    {
        Ptr<DconSwitch> sw = m_fabric->GetSwitch(q.node);
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
        Simulator::Schedule(m_interval, &DconMonitor::Sample, this);
    }
}

void
DconMonitor::PfcSent(uint32_t link, bool fromA, uint8_t priority, uint16_t quanta)
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
DconMonitor::FlowStarted(uint32_t flowId, Ptr<RdmaFlowState> state)
{
    auto it = m_flowProbes.find(flowId);
    if (it != m_flowProbes.end())
    {
        it->second.state = state;
    }
}

void
DconMonitor::FlowCompleted(const RdmaFlowRecord& rec)
{
    m_records.push_back(rec);
}

uint64_t
DconMonitor::GetPauseFrames(uint32_t from, uint32_t to) const
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

const std::vector<RdmaFlowRecord>&
DconMonitor::GetRecords() const
{
    return m_records;
}

std::vector<std::pair<Time, double>>
DconMonitor::GetThroughput(uint32_t flowId) const
{
    return m_flowProbes.at(flowId).samples;
}

double
DconMonitor::GetAverageThroughput(uint32_t flowId, Time from, Time to) const
{
    double sum = 0;
    uint32_t n = 0;
    for (const auto& [t, g] : m_flowProbes.at(flowId).samples)
    {
        if (t - m_interval >= from && t <= to)
        {
            sum += g;
            n++;
        }
    }
    return n ? sum / n : 0.0;
}

std::vector<std::pair<Time, uint64_t>>
DconMonitor::GetQueueSamples(uint32_t node, uint32_t port, bool ingress) const
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
DconMonitor::GetRecordsById() const
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
DconMonitor::SetIncomplete(const std::string& reason)
{
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
DconMonitor::WriteHpccFct(const std::string& path) const
{
    std::vector<RdmaFlowRecord> recs = GetRecordsById();
    AtomicOutputFile file(path);
    std::ofstream& out = file.Stream();
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

void
DconMonitor::Write(const std::string& dir, double wallSeconds) const
{
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    fs::path d(dir);

    // flows.csv, sorted by flow id so the file does not depend on completion order ties
    std::vector<RdmaFlowRecord> recs = GetRecordsById();
    {
        AtomicOutputFile file(d / "flows.csv");
        std::ofstream& out = file.Stream();
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
        std::ofstream& out = file.Stream();
        out << "time_s,node,port,peer,priority,event,quanta\n";
        for (const auto& e : m_pfc)
        {
            out << Seconds(e.time) << "," << GetNodeName(e.node) << "," << e.port << ","
                << GetNodeName(e.peer) << "," << +e.priority << ","
                << (e.quanta ? "pause" : "resume") << "," << e.quanta << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(d / "queues.csv");
        std::ofstream& out = file.Stream();
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
        std::ofstream& out = file.Stream();
        out << "time_s,total_bytes,max_switch_bytes\n";
        for (const auto& [t, total, most] : m_bufferSamples)
        {
            out << Seconds(t) << "," << total << "," << most << "\n";
        }
        file.Commit();
    }
    {
        AtomicOutputFile file(d / "throughput.csv");
        std::ofstream& out = file.Stream();
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
        std::ofstream& out = file.Stream();
        out << "node,reason,packets\n";
        for (uint32_t s : m_fabric->GetSwitches())
        {
            Ptr<DconSwitch> sw = m_fabric->GetSwitch(s);
            std::map<std::string, uint64_t> all = sw->GetMmu()->GetDropCounts();
            for (const auto& [reason, n] : sw->GetForwardingDrops())
            {
                all[reason] += n;
            }
            for (const auto& [reason, n] : all)
            {
                out << GetNodeName(s) << "," << reason << "," << n << "\n";
                drops[reason] += n;
            }
        }
        file.Commit();
    }
    // summary.json
    uint64_t pauses = 0;
    uint64_t resumes = 0;
    uint64_t linkFrames = 0;
    std::ostringstream perLink;
    const auto& links = m_fabric->GetLinks();
    bool first = true;
    for (const auto& l : links)
    {
        for (int end = 0; end < 2; ++end)
        {
            Ptr<PfcNetDevice> dev = end == 0 ? l.devA : l.devB;
            const auto& st = dev->GetStats();
            pauses += st.pauseSent;
            resumes += st.resumeSent;
            linkFrames += st.txFrames;
            if (st.pauseSent)
            {
                perLink << (first ? "" : ", ") << "\"" << GetNodeName(end == 0 ? l.a : l.b) << "->"
                        << GetNodeName(end == 0 ? l.b : l.a) << "\": " << st.pauseSent;
                first = false;
            }
        }
    }
    uint64_t marks = 0;
    bool dconQueues = false; // DCON's queue statistics, summed over every DconQueueDisc
    uint64_t dconArrivals = 0;
    uint64_t dconAtFloor = 0;
    uint64_t dconUnmarked = 0;
    uint64_t dconOnsets = 0;
    uint64_t dconTriggers = 0;
    for (uint32_t s : m_fabric->GetSwitches())
    {
        Ptr<DconSwitch> sw = m_fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                Ptr<RdmaEgressQueueDisc> q = sw->GetQueueDisc(p, prio);
                marks += q->GetStats().nTotalMarkedPackets;
                if (Ptr<DconQueueDisc> dq = DynamicCast<DconQueueDisc>(q))
                {
                    dconQueues = true;
                    dconArrivals += dq->GetStats().nTotalEnqueuedPackets;
                    dconAtFloor += dq->GetArrivalsAtQecnFloor();
                    dconUnmarked += dq->GetUnmarkedAboveQecn();
                    dconOnsets += dq->GetBurstOnsets();
                    dconTriggers += dq->GetCnmTriggers();
                }
            }
        }
    }
    // What the switches still hold: all zero once the fabric has drained.
    uint64_t mmuTotal = 0;
    uint64_t mmuShared = 0;
    uint64_t mmuHeadroom = 0;
    uint64_t ingress = 0;
    uint64_t egress = 0;
    uint64_t paused = 0;
    for (uint32_t s : m_fabric->GetSwitches())
    {
        Ptr<DconSwitch> sw = m_fabric->GetSwitch(s);
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        mmuTotal += mmu->GetTotalUsed();
        mmuShared += mmu->GetSharedUsed();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            mmuHeadroom += mmu->GetPortHeadroomBytes(p);
            egress += sw->GetEgressBytes(p);
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                ingress += mmu->GetIngressBytes(p, prio);
                paused += mmu->IsPaused(p, prio);
            }
        }
    }
    RdmaNic::Stats nic = m_fabric->GetNicTotals();
    AtomicOutputFile file(d / "summary.json");
    std::ofstream& out = file.Stream();
    out << std::setprecision(6);
    out << "{\n";
    out << "  \"complete\": " << (m_incomplete.empty() ? "true" : "false") << ",\n";
    if (!m_incomplete.empty())
    {
        out << "  \"incomplete_reason\": \"" << m_incomplete << "\",\n";
    }
    out << "  \"simulated_time_s\": " << Seconds(Simulator::Now()) << ",\n";
    out << "  \"wall_time_s\": " << wallSeconds << ",\n";
    out << "  \"events_executed\": " << Simulator::GetEventCount() << ",\n";
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
    out << "  \"ecn_marks\": " << marks << ",\n";
    out << "  \"cnps_sent\": " << nic.cnpsSent << ",\n";
    out << "  \"cnps_received\": " << nic.cnpsReceived << ",\n";
    out << "  \"cnms_received\": " << nic.cnmsReceived << ",\n";
    out << "  \"naks_sent\": " << nic.naksSent << ",\n";
    if (dconQueues)
    {
        out << "  \"dcon_queues\": {\"arrivals\": " << dconArrivals
            << ", \"arrivals_qcnm_at_qecn\": " << dconAtFloor
            << ", \"unmarked_above_qecn\": " << dconUnmarked << ", \"burst_onsets\": " << dconOnsets
            << ", \"cnm_triggers\": " << dconTriggers << "},\n";
    }
    out << "  \"mmu_at_end\": {\"total_bytes\": " << mmuTotal << ", \"shared_bytes\": " << mmuShared
        << ", \"headroom_bytes\": " << mmuHeadroom << ", \"ingress_bytes\": " << ingress
        << ", \"egress_bytes\": " << egress << ", \"paused_port_priorities\": " << paused << "}\n";
    out << "}\n";
    file.Commit();
}

} // namespace ns3
