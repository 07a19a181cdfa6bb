/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-collectives.h"

#include "ns3/atomic-output-file.h"
#include "ns3/collective-job-file.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hpcc-format.h"
#include "ns3/parallel-run.h"
#include "ns3/poisson-flow-generator.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/value-text.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#ifndef DCON_DATA_DIR
#define DCON_DATA_DIR "data"
#endif

namespace ns3
{

namespace
{
/// First RNG stream of the workload (the fabric uses streams from 0 up).
constexpr int64_t WORKLOAD_STREAM = 1 << 20;
/// First RNG stream of the background generator.
constexpr int64_t BACKGROUND_STREAM = (1 << 20) + 16;
/// Hosts get 10.0.0.1 and up: at most 10.255.255.254.
constexpr uint64_t MAX_HOSTS = 0xFFFFFE;
/// The most samples buffer.csv may take.
constexpr double MAX_SAMPLES = 1e7;
/// Bytes a device's L3 MTU leaves for the headers above the payload (IPv4, UDP, BTH, ICRC and
/// HPCC's INT hop records).
constexpr uint32_t HEADER_ROOM = 256;

/// The leaf-spine of the settings, its counts checked in 64 bits first.
LeafSpineHelper
MakeTopology(const DconCollectivesConfig& c)
{
    const uint64_t hosts = uint64_t(c.leaves) * c.hostsPerLeaf;
    if (c.spines == 0 || c.leaves == 0 || c.hostsPerLeaf == 0)
    {
        throw std::invalid_argument("a leaf-spine needs >= 1 spine, leaf and host per leaf, got "
                                    + std::to_string(c.spines) + " x " + std::to_string(c.leaves)
                                    + " x " + std::to_string(c.hostsPerLeaf));
    }
    if (hosts > MAX_HOSTS)
    {
        throw std::invalid_argument(std::to_string(hosts) + " hosts: more than the "
                                    + std::to_string(MAX_HOSTS)
                                    + " addresses of 10.0.0.0/8 that hosts get");
    }
    return LeafSpineHelper(c.spines, c.leaves, c.hostsPerLeaf);
}
} // namespace

std::string
DconCollectives::ToJobLine(const CollectiveJob& job)
{
    return FormatCollectiveJob(job);
}

DconCollectives::DconCollectives(const DconCollectivesConfig& config)
    : m_config(config)
    , m_topo(MakeTopology(config))
{
    const auto& c = config;
    if (c.jobs.empty())
    {
        throw std::invalid_argument("no collective job to run");
    }
    if (c.mtu == 0 || c.mtu > 9000)
    {
        throw std::invalid_argument("MTU must be in [1, 9000] bytes, got " + std::to_string(c.mtu));
    }
    if (!c.maxTime.IsStrictlyPositive() || c.maxTime > Time::Max() / 2)
    {
        throw std::invalid_argument("safety stop (maxTime) must be in (0, "
                                    + FormatTime(Time::Max() / 2) + "], got "
                                    + FormatTime(c.maxTime));
    }
    if (c.drain.IsStrictlyNegative() || c.backgroundDuration.IsStrictlyNegative())
    {
        throw std::invalid_argument("the drain time and the background duration must be >= 0");
    }
    if (!c.sampleInterval.IsStrictlyPositive()
        || c.maxTime.GetSeconds() / c.sampleInterval.GetSeconds() > MAX_SAMPLES)
    {
        throw std::invalid_argument("sample interval " + FormatTime(c.sampleInterval)
                                    + " must be > 0 and give at most 10^7 samples until "
                                    + FormatTime(c.maxTime));
    }
    if (c.seed == 0)
    {
        throw std::invalid_argument("seed (run number) must be >= 1, got 0");
    }
    if (c.spreading && ParallelRun::IsEnabled())
    {
        throw std::invalid_argument("congestion spreading is measured in sequential runs only");
    }
    m_topo.SetHostLink(c.linkRate, c.linkDelay);
    m_topo.SetFabricLink(c.linkRate, c.linkDelay);

    RngSeedManager::SetRun(c.seed);
    RejectScenarioSetAttributes(c.attributeArgs);
    ApplyAttributeArguments(c.attributeArgs);
    RdmaFabricHelper fh;
    fh.SetCongestionControl(c.cc, ParameterSetFor(c.cc, c.dcqcnPreset));
    m_config.sw = c.sw.ForCc(c.cc, c.linkRate);
    m_config.sw.Apply(fh, c.cc, c.linkDelay, c.linkRate);
    fh.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    fh.SetDeviceAttribute("Mtu", UintegerValue(std::max<uint32_t>(1500, c.mtu + HEADER_ROOM)));
    fh.SetPartitionFile(c.partitionFile);
    m_fabric = m_config.sw.Build(fh, m_topo.GetTopology());
    m_fabric->SetSwitchAgentWindowInRtts(c.cnmWindowRtts);

    m_flows = Create<RdmaFlowHelper>(m_fabric);
    m_flows->SetStopWhenDone(false);
    m_workload = Create<CollectiveWorkload>(m_fabric, m_flows);
    for (const CollectiveJob& j : c.jobs)
    {
        m_workload->AddJob(j);
    }
    m_workload->AssignStreams(WORKLOAD_STREAM);
    m_workload->SetStopWhenDone(true, c.drain);
    m_workload->Install();

    if (!c.background.empty())
    {
        if (!(c.backgroundLoad > 0 && std::isfinite(c.backgroundLoad)))
        {
            throw std::invalid_argument("background load must be > 0, got "
                                        + FormatNumber(c.backgroundLoad));
        }
        if (m_topo.GetNHosts() < 2)
        {
            throw std::invalid_argument("a background needs at least 2 hosts");
        }
        if (c.backgroundLoadType == "core")
        {
            const double perHost = m_topo.GetCoreLoadPerHostLoad();
            if (m_topo.GetNLeaves() < 2 || perHost <= 0)
            {
                throw std::invalid_argument("a core load needs at least 2 leaves; use "
                                            "--backgroundLoadType=host");
            }
            m_hostLoad = c.backgroundLoad / perHost;
        }
        else if (c.backgroundLoadType == "host")
        {
            m_hostLoad = c.backgroundLoad;
        }
        else
        {
            throw std::invalid_argument("unknown background load type '" + c.backgroundLoadType
                                        + "' (expected core or host)");
        }
        if (m_hostLoad > 1)
        {
            throw std::invalid_argument("background load " + FormatNumber(c.backgroundLoad) + " ("
                                        + c.backgroundLoadType + ") needs a host-link load of "
                                        + FormatNumber(m_hostLoad) + " > 1");
        }
        Time window = c.backgroundDuration;
        if (window.IsZero())
        {
            // four times the span of the jobs run alone: the jobs end well within it
            Time span;
            for (uint32_t j = 0; j < c.jobs.size(); ++j)
            {
                const CollectiveJob& job = c.jobs[j];
                span = std::max(
                    span, job.start + (m_workload->GetIdealTime(j) + job.gap) * job.iterations);
            }
            window = std::min(span * 4, c.maxTime);
        }
        m_cdfPath = FlowSizeCdf::FindBuiltin(
            c.background, c.dataDir.empty() ? std::string(DCON_DATA_DIR) : c.dataDir);
        FlowSizeCdf cdf = FlowSizeCdf::ReadFile(m_cdfPath);
        PoissonFlowGenerator gen(m_topo.GetTopology().GetHostIds(), c.linkRate, cdf);
        gen.SetLoad(m_hostLoad);
        gen.SetArrivalWindow(Time(0), window);
        gen.AssignStreams(BACKGROUND_STREAM);
        m_background = gen.Generate();
        m_flows->AddFlows(m_background);
    }

    m_monitor = Create<FabricMonitor>(m_fabric, m_flows);
    for (uint32_t l = 0; l < m_topo.GetNLeaves(); ++l)
    {
        m_monitor->SetNodeName(m_topo.GetLeaf(l), "leaf" + std::to_string(l));
    }
    for (uint32_t s = 0; s < m_topo.GetNSpines(); ++s)
    {
        m_monitor->SetNodeName(m_topo.GetSpine(s), "spine" + std::to_string(s));
    }
    m_monitor->AddBufferSample();
    if (c.spreading)
    {
        m_monitor->EnableCongestionSpreading();
        m_workload->MeasureSpreading(m_monitor->GetCongestionSpreading());
    }
    m_monitor->Start(c.sampleInterval, c.maxTime);
}

double
DconCollectives::Run()
{
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(m_config.maxTime);
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    m_monitor->Collect();
    m_workload->Collect();
    return std::chrono::duration<double>(t1 - t0).count();
}

std::vector<std::string>
DconCollectives::GetOutputKinds()
{
    std::vector<std::string> kinds = FabricMonitor::GetOutputKinds();
    for (const std::string& k : CollectiveWorkload::GetOutputKinds())
    {
        kinds.push_back(k);
    }
    kinds.insert(kinds.end(), {"jobs.txt", "background.txt", "run.json", "parallel.json"});
    return kinds;
}

void
DconCollectives::Write(const std::string& dir,
                       double wallSeconds,
                       const std::string& runRecord) const
{
    if (!ParallelRun::IsRoot())
    {
        return;
    }
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    const auto& c = m_config;
    {
        AtomicOutputFile file(fs::path(dir) / "jobs.txt");
        for (const CollectiveJob& j : m_workload->GetJobs())
        {
            file.Stream() << ToJobLine(j) << "\n";
        }
        file.Commit();
    }
    if (!m_background.empty())
    {
        AtomicOutputFile file(fs::path(dir) / "background.txt");
        WriteFlowFile(file.Stream(), m_background);
        file.Commit();
    }
    {
        AtomicOutputFile file(fs::path(dir) / "run.json");
        std::ostream& out = file.Stream();
        out << std::setprecision(12);
        out << "{\n"
            << (runRecord.empty() ? "" : runRecord + ",\n") << "  \"cc\": " << JsonString(c.cc)
            << ",\n  \"dcqcn_preset\": " << JsonString(c.dcqcnPreset) << ",\n  \"seed\": " << c.seed
            << ",\n  \"spines\": " << c.spines << ",\n  \"leaves\": " << c.leaves
            << ",\n  \"hosts_per_leaf\": " << c.hostsPerLeaf
            << ",\n  \"link_rate_bps\": " << c.linkRate.GetBitRate()
            << ",\n  \"link_delay_s\": " << c.linkDelay.GetSeconds() << ",\n  \"mtu\": " << c.mtu
            << ",\n  \"buffer_bytes\": " << c.sw.bufferSize.GetValue()
            << ",\n  \"xoff_bytes\": " << c.sw.xoff.GetValue()
            << ",\n  \"xon_bytes\": " << c.sw.xon.GetValue()
            << ",\n  \"pfc_threshold\": " << JsonString(c.sw.pfcThreshold)
            << ",\n  \"background\": " << (c.background.empty() ? "null" : JsonString(c.background))
            << ",\n  \"cdf_file\": " << JsonString(m_cdfPath) << ",\n  \"background_load\": "
            << (c.background.empty() ? "null" : FormatNumber(c.backgroundLoad))
            << ",\n  \"background_load_type\": " << JsonString(c.backgroundLoadType)
            << ",\n  \"background_host_load\": " << FormatNumber(m_hostLoad)
            << ",\n  \"background_flows\": " << m_background.size() << ",\n  \"jobs\": [";
        const auto& jobs = m_workload->GetJobs();
        for (uint32_t j = 0; j < jobs.size(); ++j)
        {
            out << (j ? ", " : "") << "\n    {\"name\": " << JsonString(jobs[j].name)
                << ", \"line\": " << JsonString(ToJobLine(jobs[j]))
                << ", \"ideal_s\": " << m_workload->GetIdealTime(j).GetSeconds()
                << ", \"messages_per_iteration\": " << MakeCollectiveSchedule(jobs[j]).size()
                << "}";
        }
        out << "\n  ],\n  \"attributes\": [";
        for (std::size_t i = 0; i < c.attributeArgs.size(); ++i)
        {
            out << (i ? ", " : "") << JsonString(c.attributeArgs[i]);
        }
        out << "]\n}\n";
        file.Commit();
    }
    FabricMonitor& monitor = *m_monitor;
    m_workload->Write(
        dir,
        [&monitor](uint32_t n)
        {
            return monitor.GetNodeName(n);
        },
        c.steps);
    if (!m_workload->IsDoneEverywhere())
    {
        m_monitor->SetIncomplete("safety stop at " + FormatTime(Simulator::Now())
                                 + " (maxTime) with collective messages unfinished");
    }
    m_monitor->Write(dir, wallSeconds);
}

Ptr<CollectiveWorkload>
DconCollectives::GetWorkload() const
{
    return m_workload;
}

Ptr<FabricMonitor>
DconCollectives::GetMonitor() const
{
    return m_monitor;
}

Ptr<RdmaFabric>
DconCollectives::GetFabric() const
{
    return m_fabric;
}

const std::vector<FlowSpec>&
DconCollectives::GetBackground() const
{
    return m_background;
}

double
DconCollectives::GetBackgroundHostLoad() const
{
    return m_hostLoad;
}

} // namespace ns3
