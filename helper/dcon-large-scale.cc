/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-large-scale.h"

#include "atomic-output-file.h"
#include "flow-size-cdf.h"
#include "hpcc-format.h"
#include "ns3/dcon-parallel.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "poisson-flow-generator.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

#ifndef DCON_DATA_DIR
#define DCON_DATA_DIR "data"
#endif

namespace ns3
{

namespace
{
/// First RNG stream of the workload generator (the fabric uses streams from 0 up).
constexpr int64_t WORKLOAD_STREAM = 1 << 20;

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
    , m_topo(config.spines, config.leaves, config.hostsPerLeaf)
{
    if (!(config.load > 0))
    {
        throw std::invalid_argument("load must be > 0, got " + std::to_string(config.load));
    }
    if (config.duration.IsStrictlyNegative() || config.duration.IsZero())
    {
        throw std::invalid_argument("arrival window (duration) must be > 0, got "
                                    + std::to_string(config.duration.GetSeconds()) + " s");
    }
    if (config.warmup.IsStrictlyNegative() || config.cooldown.IsStrictlyNegative()
        || config.warmup + config.cooldown >= config.duration)
    {
        throw std::invalid_argument(
            "warm-up and cool-down must be >= 0 and leave part of the arrival window ("
            + std::to_string(config.duration.GetSeconds()) + " s) to measure, got warm-up "
            + std::to_string(config.warmup.GetSeconds()) + " s and cool-down "
            + std::to_string(config.cooldown.GetSeconds()) + " s");
    }
    if (config.drain.IsStrictlyNegative())
    {
        throw std::invalid_argument("drain time must be >= 0");
    }
    if (!config.sampleInterval.IsStrictlyPositive())
    {
        throw std::invalid_argument("sample interval must be > 0");
    }
    if (config.seed == 0)
    {
        throw std::invalid_argument("seed (run number) must be >= 1, got 0");
    }
    if (config.spines * config.leaves * config.hostsPerLeaf == 0 || config.leaves < 2)
    {
        throw std::invalid_argument(
            "a leaf-spine needs >= 1 spine, >= 2 leaves and >= 1 host per leaf, got "
            + std::to_string(config.spines) + " x " + std::to_string(config.leaves) + " x "
            + std::to_string(config.hostsPerLeaf));
    }
    m_topo.SetHostLink(config.linkRate, config.linkDelay);
    m_topo.SetFabricLink(config.linkRate, config.linkDelay);
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
        throw std::invalid_argument("load " + std::to_string(config.load) + " (" + config.loadType
                                    + ") needs a host-link load of " + std::to_string(m_hostLoad)
                                    + " > 1");
    }

    RngSeedManager::SetRun(config.seed);
    RejectScenarioSetAttributes(config.attributeArgs);
    ApplyCcPreset(config.cc, config.dcqcnPreset, config.linkRate, config.attributeArgs);
    RdmaFabricHelper fh;
    fh.SetCongestionControl(config.cc);
    // The queue attributes the algorithm declares, so that summary.json shows what runs.
    m_config.sw = config.sw.ForCc(config.cc, config.linkRate);
    m_qcnm = m_config.sw.Apply(fh, config.cc, config.linkDelay, config.linkRate);
    fh.SetPartitionFile(config.partitionFile);
    m_fabric = fh.Build(m_topo.GetTopology());
    m_fabric->SetCnmWindowInRtts(config.cnmWindowRtts);

    std::vector<uint32_t> hosts = m_topo.GetTopology().GetHostIds();
    if (!config.flowFile.empty())
    {
        m_cdfPath.clear();
        m_specs = ReadHpccFlows(config.flowFile, m_topo.GetTopology());
    }
    else
    {
        m_cdfPath = FlowSizeCdf::FindBuiltin(
            config.workload, config.dataDir.empty() ? std::string(DCON_DATA_DIR) : config.dataDir);
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
    }
    if (m_specs.empty())
    {
        throw std::invalid_argument("the workload has no flow: raise the load or the duration");
    }

    m_flows = Create<RdmaFlowHelper>(m_fabric);
    m_flows->SetStopWhenDone(true, config.drain);
    m_flows->AddFlows(m_specs);

    m_monitor = Create<DconMonitor>(m_fabric, m_flows);
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
    m_monitor->Start(config.sampleInterval,
                     std::min(config.maxTime, config.arrivalStart + config.duration));
}

double
DconLargeScale::Run()
{
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(m_config.maxTime);
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    m_monitor->Collect(); // a parallel run: rank 0 gets every rank's results
    return std::chrono::duration<double>(t1 - t0).count();
}

void
DconLargeScale::Write(const std::string& dir, double wallSeconds) const
{
    if (!DconParallel::IsRoot())
    {
        return; // rank 0 writes every file of a parallel run
    }
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    {
        AtomicOutputFile file(fs::path(dir) / "flows.txt");
        WriteHpccFlows(file.Stream(), m_specs);
        file.Commit();
    }
    {
        const auto& c = m_config;
        AtomicOutputFile file(fs::path(dir) / "run.json");
        std::ofstream& out = file.Stream();
        out.unsetf(std::ios::floatfield);
        out << std::setprecision(12);
        out << "{\n  \"cc\": " << JsonString(c.cc)
            << ",\n  \"workload\": " << JsonString(c.flowFile.empty() ? c.workload : c.flowFile)
            << ",\n  \"cdf_file\": " << JsonString(m_cdfPath) << ",\n  \"load\": " << c.load
            << ",\n  \"load_type\": " << JsonString(c.loadType)
            << ",\n  \"host_load\": " << m_hostLoad
            << ",\n  \"arrival_start_s\": " << c.arrivalStart.GetSeconds()
            << ",\n  \"arrival_duration_s\": " << c.duration.GetSeconds()
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
            << ",\n  \"cnm_window_rtts\": " << c.cnmWindowRtts
            << ",\n  \"incast_share\": " << c.incastShare
            << ",\n  \"dcqcn_preset\": " << JsonString(c.dcqcnPreset) << ",\n  \"attributes\": [";
        for (std::size_t i = 0; i < c.attributeArgs.size(); ++i)
        {
            out << (i ? ", " : "") << JsonString(c.attributeArgs[i]);
        }
        out << "],\n  \"flows_generated\": " << m_specs.size() << "\n}\n";
        file.Commit();
    }
    m_monitor->WriteHpccFct((fs::path(dir) / "fct.txt").string());
    const std::size_t done = m_monitor->GetRecords().size();
    if (done < m_specs.size())
    {
        m_monitor->SetIncomplete("safety stop at " + std::to_string(Simulator::Now().GetSeconds())
                                 + " s (maxTime) with " + std::to_string(m_specs.size() - done)
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

Ptr<DconMonitor>
DconLargeScale::GetMonitor() const
{
    return m_monitor;
}

Ptr<RdmaFabric>
DconLargeScale::GetFabric() const
{
    return m_fabric;
}

QueueSize
DconLargeScale::GetQcnm() const
{
    return m_qcnm;
}

} // namespace ns3
