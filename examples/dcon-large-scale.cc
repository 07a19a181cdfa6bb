/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The DCON paper's large-scale experiments (paper Fig. 8-12; dcon.md 3.3-3.4).
//
//        spine0 ... spine7                 every leaf links to every spine
//   leaf0   leaf1   ...   leaf9            40 Gb/s, 5 us on every link
//   24 hosts on each leaf (240 hosts)      3:1 oversubscribed at the leaves
//
// Flows between random host pairs with Poisson arrivals during --duration, sizes from a
// datacenter CDF (--workload: websearch, datamining, datamining-fine, fbhadoop or a CDF file),
// at --load of the core layer (the leaf uplinks; --loadType=host loads the host links instead;
// the conversion is printed and documented in doc/dcon.rst). Every flow runs to completion
// (--maxTime is a safety stop; flows still running then are reported in summary.json).
// --scale=small (4 x 4 x 12) and --scale=tiny (2 x 4 x 4) give quick runs.
//
// Switches (the paper gives these only for its testbed, reused here): 22 MB shared buffer,
// static PFC threshold 320 KB per ingress port and priority (resume at 300 KB;
// --pfcThreshold=dynamic for alpha x the free shared buffer), DCQCN's RED 5/200 KB, 1%;
// DCON: Q_ECN 5 KB and the dynamic Q_CNM of the live fan-out (--qcnmFraction for a fixed one,
// --qcnmFanOut / --qcnmFanOutMode for M), T = 3 RTT.
//
// Output (--outdir, default results/large/<workload>-<cc>-load<load>-s<seed>): flows.csv,
// pfc.csv, drops.csv, flows.txt (the flows in HPCC format, replayable with --flowFile), with DCON
// cnm.csv (every CNM and what its sender did), run.json, summary.json (written last). scripts/fct_stats.py computes FCT statistics and the
// pause rate; scripts/large_sweep.py runs whole figures.

#include "ns3/dcon-large-scale.h"

#include "ns3/checked-options.h"
#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/dcon-parallel.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/parallel-options.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/scenario-attributes.h"

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{
/// A stream that discards what it is given (progress of ranks other than 0).
std::ostream&
Nowhere()
{
    static std::ostream none(nullptr);
    return none;
}
} // namespace

int
main(int argc, char* argv[])
{
    DconParallel::Init(&argc, &argv); // MPI builds: mpirun -np N runs one simulation on N ranks
    Time::SetResolution(Time::PS);
    DconLargeScaleConfig cfg;
    std::string scale = "full";
    std::string outdir;
    RdmaFabricHelper::UseFastScheduler(); // before Parse: --SchedulerType overrides
    CommandLine cmd(__FILE__);
    bool listCc = false;
    cmd.AddValue("cc", RdmaCcRegistry::GetCommandLineHelp(), cfg.cc);
    cmd.AddValue("list-cc",
                 "Print the congestion controls (name, switch queue, summary; one a line) and exit",
                 listCc);
    cmd.AddValue("dcqcnPreset", "DCQCN parameter set: paper or cx4", cfg.dcqcnPreset);
    cmd.AddValue("workload",
                 "Flow sizes: websearch, datamining, datamining-fine, fbhadoop or a CDF file",
                 cfg.workload);
    cmd.AddValue("flowFile", "Replay an HPCC-format flow file instead of generating", cfg.flowFile);
    cmd.AddValue("load", "Offered load (see --loadType)", cfg.load);
    cmd.AddValue("loadType", "core (leaf uplinks, the paper's) or host (host links)", cfg.loadType);
    cmd.AddValue("duration", "Arrival window (warm-up included)", cfg.duration);
    cmd.AddValue("warmup",
                 "Leading part of the arrival window left out of the statistics (run.json)",
                 cfg.warmup);
    cmd.AddValue("cooldown",
                 "Trailing part of the arrival window left out of the statistics (run.json)",
                 cfg.cooldown);
    cmd.AddValue("sampleInterval", "Sampling interval of buffer.csv", cfg.sampleInterval);
    cmd.AddValue("maxTime",
                 "Safety stop (flows unfinished then: summary.json says \"complete\": false)",
                 cfg.maxTime);
    cmd.AddValue("drain",
                 "Run this long after the last flow completed, until the fabric is empty",
                 cfg.drain);
    AddUnsignedValue(cmd, "seed", "Run number (RngSeedManager::SetRun), >= 1", cfg.seed, 1u);
    cmd.AddValue("scale", "Fabric: full (8x10x24), small (4x4x12), tiny (2x4x4)", scale);
    uint32_t spines = 0;
    uint32_t leaves = 0;
    uint32_t hostsPerLeaf = 0;
    AddUnsignedValue(cmd, "spines", "Spines (non-zero overrides --scale)", spines);
    AddUnsignedValue(cmd, "leaves", "Leaves (non-zero overrides --scale)", leaves);
    AddUnsignedValue(
        cmd, "hostsPerLeaf", "Hosts per leaf (non-zero overrides --scale)", hostsPerLeaf);
    cfg.sw.AddCommandLineOptions(cmd);
    cmd.AddValue("cnmWindowRtts", "DCON T in RTTs", cfg.cnmWindowRtts);
    cmd.AddValue("incastShare", "Share of the load sent as Poisson incast events", cfg.incastShare);
    AddUnsignedValue(cmd, "incastSenders", "Senders per incast event", cfg.incastSenders);
    AddUnsignedValue(cmd, "incastBytes", "Bytes per incast sender", cfg.incastBytes);
    cmd.AddValue("outdir", "Output directory", outdir);
    cmd.AddValue("spreading",
                 "Measure congestion spreading: victims.csv, pause-trees.csv, pause-events.csv "
                 "and summary.json's spreading (sequential runs)",
                 cfg.spreading);
    ParallelOptions par;
    par.AddTo(cmd, "leaf", true);
    cmd.Parse(argc, argv);
    if (listCc)
    {
        std::cout << RdmaCcRegistry::GetListing();
        return 0;
    }
    cfg.sw.explicitOptions = GetGivenOptions(argc, argv);
    cfg.attributeArgs = GetAttributeArguments(argc, argv);
    cfg.partitionFile = par.partitionFile;
    try
    {
        DconParallel::Start();
        cfg.SetScale(scale);
        cfg.spines = spines ? spines : cfg.spines;
        cfg.leaves = leaves ? leaves : cfg.leaves;
        cfg.hostsPerLeaf = hostsPerLeaf ? hostsPerLeaf : cfg.hostsPerLeaf;
        if (outdir.empty())
        {
            std::ostringstream o;
            o << "results/large/" << std::filesystem::path(cfg.workload).stem().string() << "-"
              << cfg.cc << "-load" << cfg.load << "-s" << cfg.seed;
            outdir = o.str();
        }
        if (par.writePartition > 0)
        {
            LeafSpineHelper ls(cfg.spines, cfg.leaves, cfg.hostsPerLeaf);
            TopologySpec topo = ls.GetTopology();
            RankPartition::Write(std::cout, RankPartition::Balanced(topo, par.writePartition));
            return 0;
        }
        DconLargeScale run(cfg);
        std::ostream& log = DconParallel::IsRoot() ? std::cout : Nowhere();
        log << DconParallel::Who() << "fabric " << cfg.spines << " spines x " << cfg.leaves
            << " leaves x " << cfg.hostsPerLeaf << " hosts; " << cfg.loadType << " load "
            << cfg.load << " = host-link load " << std::setprecision(4) << run.GetHostLoad() << "; "
            << run.GetFlowSpecs().size() << " flows in " << cfg.duration.As(Time::MS) << std::endl;
        double wall = run.Run();
        std::string report = DconParallel::RankReport(wall);
        wall = DconParallel::MaxAll(wall);
        run.Write(outdir, wall);
        if (par.nodeWork && !DconParallel::IsEnabled())
        {
            run.GetMonitor()->WriteNodeWork(outdir + "/node-work");
        }
        if (!report.empty())
        {
            std::ofstream(outdir + "/parallel.json") << report;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        uint32_t done = run.GetMonitor()->GetRecords().size();
        log << "cc=" << cfg.cc << " flows completed " << done << "/" << run.GetFlowSpecs().size()
            << " by " << Simulator::Now().As(Time::MS) << ", wall " << std::setprecision(4) << wall
            << " s, peak memory " << ru.ru_maxrss / 1024 << " MiB\n  results in " << outdir << "\n";
    }
    catch (const std::exception& e)
    {
        return DconParallel::Fail(e.what());
    }
    Simulator::Destroy();
    DconParallel::Finish();
    return 0;
}
