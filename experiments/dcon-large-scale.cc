/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-large-scale.h"

#include "ns3/atomic-output-file.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/hpcc-format.h"
#include "ns3/parallel-run.h"
#include "ns3/poisson-flow-generator.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/value-text.h"
#include "run-progress.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// First RNG stream of the workload generator (the fabric uses streams from 0 up).
constexpr int64_t WORKLOAD_STREAM = 1 << 20;

/// The most samples buffer.csv may take (sampleInterval against the arrival window).
constexpr double MAX_SAMPLES = 1e7;

/// Hosts get 10.0.0.1 and up (RdmaFabricHelper): at most 10.255.255.254.
constexpr uint64_t MAX_HOSTS = 0xFFFFFE;

/**
 * \brief The leaf-spine of the settings, after checking its counts in 64 bits (before anything
 * is allocated per leaf or host).
 * \param c the settings
 * \return the topology helper
 */
LeafSpineHelper
MakeTopology(const DconLargeScaleConfig& c)
{
    const uint64_t hosts = uint64_t(c.leaves) * c.hostsPerLeaf;
    if (c.spines == 0 || c.leaves < 2 || c.hostsPerLeaf == 0)
    {
        throw std::invalid_argument(
            "a leaf-spine needs >= 1 spine, >= 2 leaves and >= 1 host per leaf, got "
            + std::to_string(c.spines) + " x " + std::to_string(c.leaves) + " x "
            + std::to_string(c.hostsPerLeaf));
    }
    if (hosts > MAX_HOSTS)
    {
        throw std::invalid_argument(
            std::to_string(c.leaves) + " leaves x " + std::to_string(c.hostsPerLeaf)
            + " hosts per leaf = " + std::to_string(hosts) + " hosts, more than the "
            + std::to_string(MAX_HOSTS) + " addresses of 10.0.0.0/8 that hosts get");
    }
    return LeafSpineHelper(c.spines, c.leaves, c.hostsPerLeaf);
}

} // namespace

void
DconLargeScaleConfig::SetScale(const std::string& scale)
{
    if (scale == "full")
    {
        spines = 8;
        leaves = 10;
        hostsPerLeaf = 24;
    }
    else if (scale == "small")
    {
        spines = 4;
        leaves = 4;
        hostsPerLeaf = 12;
    }
    else if (scale == "tiny")
    {
        spines = 2;
        leaves = 4;
        hostsPerLeaf = 4;
    }
    else
    {
        throw std::invalid_argument("unknown scale '" + scale + "' (expected full, small or tiny)");
    }
}

DconLargeScale::DconLargeScale(const DconLargeScaleConfig& config)
    : m_config(config)
    , m_topo(MakeTopology(config))
{
    const bool replay = !config.flowFile.empty();
    if (!replay && !(config.load > 0 && std::isfinite(config.load)))
    {
        throw std::invalid_argument("load must be > 0, got " + FormatNumber(config.load));
    }
    if (!replay && !config.duration.IsStrictlyPositive())
    {
        throw std::invalid_argument("arrival window (duration) must be > 0, got "
                                    + FormatTime(config.duration));
    }
    if (config.warmup.IsStrictlyNegative() || config.cooldown.IsStrictlyNegative()
        || (!replay && config.warmup + config.cooldown >= config.duration))
    {
        throw std::invalid_argument(
            "warm-up and cool-down must be >= 0 and leave part of the arrival window ("
            + FormatTime(config.duration) + ") to measure, got warm-up " + FormatTime(config.warmup)
            + " and cool-down " + FormatTime(config.cooldown));
    }
    if (config.drain.IsStrictlyNegative())
    {
        throw std::invalid_argument("drain time must be >= 0, got " + FormatTime(config.drain));
    }
    if (!config.maxTime.IsStrictlyPositive() || config.maxTime > Time::Max() / 2)
    {
        throw std::invalid_argument("safety stop (maxTime) must be in (0, "
                                    + FormatTime(Time::Max() / 2) + "], got "
                                    + FormatTime(config.maxTime));
    }
    if (!config.sampleInterval.IsStrictlyPositive())
    {
        throw std::invalid_argument("sample interval must be > 0, got "
                                    + FormatTime(config.sampleInterval));
    }
    if (config.seed == 0)
    {
        throw std::invalid_argument("seed (run number) must be >= 1, got 0");
    }
    m_topo.SetHostLink(config.linkRate, config.linkDelay);
    m_topo.SetFabricLink(config.linkRate, config.linkDelay);
    if (!replay)
    {
        double perHost = m_topo.GetCoreLoadPerHostLoad();
        if (config.loadType == "core")
        {
            m_hostLoad = config.load / perHost;
        }
        else if (config.loadType == "host")
        {
            m_hostLoad = config.load;
        }
        else
        {
            throw std::invalid_argument("unknown load type '" + config.loadType
                                        + "' (expected core or host)");
        }
        if (m_hostLoad > 1)
        {
            // (a core load of perHost fills the host links)
            throw std::invalid_argument(
                "--load: got '" + FormatNumber(config.load) + "', expected at most "
                + FormatNumber(config.loadType == "core" ? perHost : 1.0)
                + " with --loadType=" + config.loadType + ": it needs a host-link load of "
                + FormatNumber(m_hostLoad) + " > 1 on this fabric");
        }
    }

    RngSeedManager::SetRun(config.seed);
    RejectScenarioSetAttributes(config.attributeArgs);
    ApplyAttributeArguments(config.attributeArgs);
    RdmaFabricHelper fh;
    fh.SetCongestionControl(config.cc, ParameterSetFor(config.cc, config.dcqcnPreset));
    // The queue attributes the algorithm declares, so that summary.json shows what runs.
    m_config.sw = config.sw.ForCc(config.cc, config.linkRate);
    m_qcnm = m_config.sw.Apply(fh, config.cc, config.linkDelay, config.linkRate);
    fh.SetPartitionFile(config.partitionFile);
    m_fabric = m_config.sw.Build(fh, m_topo.GetTopology());
    m_fabric->SetSwitchAgentWindowInRtts(config.cnmWindowRtts);

    std::vector<uint32_t> hosts = m_topo.GetTopology().GetHostIds();
    if (replay)
    {
        m_cdfPath.clear();
        m_specs = ReadFlowFile(config.flowFile, m_topo.GetTopology());
        if (m_specs.empty())
        {
            throw std::invalid_argument(config.flowFile + ": the flow file has no flow");
        }
        // The window the flows arrive in: every flow of the file, as dcon-bench records it.
        Time first = Time::Max();
        Time last = Time(0);
        for (const FlowSpec& f : m_specs)
        {
            first = std::min(first, f.start);
            last = std::max(last, f.start);
        }
        m_arrivalStart = first;
        m_arrivalDuration = last - first + NanoSeconds(1);
        if (config.warmup + config.cooldown >= m_arrivalDuration)
        {
            throw std::invalid_argument("warm-up " + FormatTime(config.warmup) + " and cool-down "
                                        + FormatTime(config.cooldown)
                                        + " leave nothing of the flow file's arrival window ("
                                        + FormatTime(m_arrivalDuration) + ") to measure");
        }
    }
    else
    {
        m_arrivalStart = config.arrivalStart;
        m_arrivalDuration = config.duration;
        m_cdfPath = FlowSizeCdf::FindBuiltin(
            config.workload, config.dataDir.empty() ? FlowSizeCdf::GetDataDir() : config.dataDir);
        FlowSizeCdf cdf = FlowSizeCdf::ReadFile(m_cdfPath);
        PoissonFlowGenerator gen(hosts, config.linkRate, cdf);
        gen.SetLoad(m_hostLoad);
        gen.SetArrivalWindow(config.arrivalStart, config.duration);
        if (config.incastShare > 0)
        {
            gen.SetIncast(config.incastShare, config.incastSenders, config.incastBytes);
        }
        gen.AssignStreams(WORKLOAD_STREAM);
        m_specs = gen.Generate();
        if (m_specs.empty())
        {
            throw std::invalid_argument(
                "the workload has no flow: load " + FormatNumber(config.load) + " ("
                + config.loadType + ", host-link load " + FormatNumber(m_hostLoad)
                + ") gives none in the arrival " + "window of " + FormatTime(config.duration)
                + ": raise the load or the duration");
        }
    }
    const Time sampleEnd = std::min(config.maxTime, m_arrivalStart + m_arrivalDuration);
    if (sampleEnd.GetSeconds() / config.sampleInterval.GetSeconds() > MAX_SAMPLES)
    {
        throw std::invalid_argument("sample interval " + FormatTime(config.sampleInterval)
                                    + " gives more than "
                                    + std::to_string(static_cast<uint64_t>(MAX_SAMPLES))
                                    + " samples of buffer.csv until " + FormatTime(sampleEnd));
    }

    m_flows = Create<RdmaFlowHelper>(m_fabric);
    m_flows->SetStopWhenDone(true, config.drain);
    m_flows->AddFlows(m_specs);

    m_monitor = Create<FabricMonitor>(m_fabric, m_flows);
    for (uint32_t l = 0; l < config.leaves; ++l)
    {
        m_monitor->SetNodeName(m_topo.GetLeaf(l), "leaf" + std::to_string(l));
    }
    for (uint32_t s = 0; s < config.spines; ++s)
    {
        m_monitor->SetNodeName(m_topo.GetSpine(s), "spine" + std::to_string(s));
    }
    m_monitor->AddBufferSample();
    if (config.spreading)
    {
        m_monitor->EnableCongestionSpreading();
    }
    // buffer.csv covers the arrival window (its use: is the measured part stationary?)
    m_monitor->Start(config.sampleInterval, sampleEnd);
}

double
DconLargeScale::Run()
{
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(m_config.maxTime);
    std::unique_ptr<RunProgress> progress;
    if (m_config.progress.IsStrictlyPositive() && ParallelRun::IsRoot())
    {
        // every simulated millisecond the clock is checked (the run stops by Simulator::Stop:
        // when the flows are done, or at maxTime)
        const Time arrivalsEnd = m_arrivalStart + m_arrivalDuration;
        progress = std::make_unique<RunProgress>(
            m_config.progress,
            MilliSeconds(1),
            [this, arrivalsEnd]()
            {
                std::ostringstream s;
                const uint32_t done = m_flows->GetNCompleted();
                if (ParallelRun::IsEnabled())
                {
                    s << done << " of rank 0's flows done";
                }
                else
                {
                    s << done << " of " << m_specs.size() << " flows done ("
                      << std::fixed << std::setprecision(1)
                      << 100.0 * done / std::max<std::size_t>(m_specs.size(), 1) << "%)";
                }
                s << std::fixed << std::setprecision(0) << ", arrivals end at +"
                  << arrivalsEnd.GetSeconds() * 1e3 << " ms";
                return s.str();
            },
            ParallelRun::Log());
        progress->Start();
    }
    Simulator::Run();
    progress.reset();
    auto t1 = std::chrono::steady_clock::now();
    m_monitor->Collect(); // a parallel run: rank 0 gets every rank's results
    return std::chrono::duration<double>(t1 - t0).count();
}

void
DconLargeScale::Write(const std::string& dir,
                      double wallSeconds,
                      const std::string& runRecord) const
{
    if (!ParallelRun::IsRoot())
    {
        return; // rank 0 writes every file of a parallel run
    }
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    {
        AtomicOutputFile file(fs::path(dir) / "flows.txt");
        WriteFlowFile(file.Stream(), m_specs);
        file.Commit();
    }
    {
        const auto& c = m_config;
        AtomicOutputFile file(fs::path(dir) / "run.json");
        std::ostream& out = file.Stream();
        out.unsetf(std::ios::floatfield);
        out << std::setprecision(12);
        // (with a flow file the generator's settings are not applied: null)
        const bool replay = !c.flowFile.empty();
        auto generated = [replay](const std::string& json)
        {
            return replay ? "null" : json;
        };
        out << "{\n"
            << (runRecord.empty() ? "" : runRecord + ",\n") << "  \"cc\": " << JsonString(c.cc)
            << ",\n  \"workload\": " << JsonString(replay ? c.flowFile : c.workload)
            << ",\n  \"cdf_file\": " << JsonString(m_cdfPath)
            << ",\n  \"load\": " << generated(FormatNumber(c.load))
            << ",\n  \"load_type\": " << generated(JsonString(c.loadType))
            << ",\n  \"host_load\": " << generated(FormatNumber(m_hostLoad))
            << ",\n  \"arrival_start_s\": " << m_arrivalStart.GetSeconds()
            << ",\n  \"arrival_duration_s\": " << m_arrivalDuration.GetSeconds()
            << ",\n  \"warmup_s\": " << c.warmup.GetSeconds()
            << ",\n  \"cooldown_s\": " << c.cooldown.GetSeconds() << ",\n  \"seed\": " << c.seed
            << ",\n  \"spines\": " << c.spines << ",\n  \"leaves\": " << c.leaves
            << ",\n  \"hosts_per_leaf\": " << c.hostsPerLeaf
            << ",\n  \"link_rate_bps\": " << c.linkRate.GetBitRate()
            << ",\n  \"link_delay_s\": " << c.linkDelay.GetSeconds()
            << ",\n  \"buffer_bytes\": " << c.sw.bufferSize.GetValue()
            << ",\n  \"xoff_bytes\": " << c.sw.xoff.GetValue()
            << ",\n  \"xon_bytes\": " << c.sw.xon.GetValue()
            << ",\n  \"kmin_bytes\": " << c.sw.kmin.GetValue()
            << ",\n  \"kmax_bytes\": " << c.sw.kmax.GetValue() << ",\n  \"pmax\": " << c.sw.pmax
            << ",\n  \"qecn_bytes\": " << c.sw.qecn.GetValue()
            << ",\n  \"pfc_threshold\": " << JsonString(c.sw.pfcThreshold)
            << ",\n  \"pfc_alpha\": " << c.sw.pfcAlpha
            << ",\n  \"qcnm_fanout\": " << c.sw.qcnmFanOut
            << ",\n  \"qcnm_fanout_mode\": " << JsonString(c.sw.qcnmFanOutMode)
            << ",\n  \"qcnm_fraction\": " << c.sw.qcnmFraction
            << ",\n  \"qcnm_bytes\": " << m_qcnm.GetValue()
            << ",\n  \"cnm_window_rtts\": " << c.cnmWindowRtts << ",\n  \"incast_share\": "
            << generated(FormatNumber(c.incastShare))
            // (null when the algorithm has no such parameter set: none was applied)
            << ",\n  \"dcqcn_preset\": "
            << (ParameterSetFor(c.cc, c.dcqcnPreset).empty() ? std::string("null")
                                                             : JsonString(c.dcqcnPreset))
            << ",\n  \"attributes\": [";
        for (std::size_t i = 0; i < c.attributeArgs.size(); ++i)
        {
            out << (i ? ", " : "") << JsonString(c.attributeArgs[i]);
        }
        out << "],\n  \"flows_generated\": " << m_specs.size() << "\n}\n";
        file.Commit();
    }
    m_monitor->WriteFctFile((fs::path(dir) / "fct.txt").string());
    const std::size_t done = m_monitor->GetRecords().size();
    if (done < m_specs.size())
    {
        m_monitor->SetIncomplete("safety stop at " + FormatTime(Simulator::Now())
                                 + " (maxTime) with " + std::to_string(m_specs.size() - done)
                                 + " of " + std::to_string(m_specs.size()) + " flows unfinished");
    }
    // Last: the monitor's files, summary.json being the very last one written.
    m_monitor->Write(dir, wallSeconds);
}

double
DconLargeScale::GetHostLoad() const
{
    return m_hostLoad;
}

const std::vector<FlowSpec>&
DconLargeScale::GetFlowSpecs() const
{
    return m_specs;
}

Ptr<FabricMonitor>
DconLargeScale::GetMonitor() const
{
    return m_monitor;
}

Ptr<RdmaFabric>
DconLargeScale::GetFabric() const
{
    return m_fabric;
}

std::pair<Time, Time>
DconLargeScale::GetArrivalWindow() const
{
    return {m_arrivalStart, m_arrivalDuration};
}

QueueSize
DconLargeScale::GetQcnm() const
{
    return m_qcnm;
}

} // namespace ns3
