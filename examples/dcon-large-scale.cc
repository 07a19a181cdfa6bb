/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The DCON paper's large-scale experiments (paper Fig. 8-12).
//
//        spine0 ... spine7                 every leaf links to every spine
//   leaf0   leaf1   ...   leaf9            40 Gb/s, 5 us on every link
//   24 hosts on each leaf (240 hosts)      3:1 oversubscribed at the leaves
//
// Flows between random host pairs with Poisson arrivals during --duration, sizes from a
// datacenter CDF (--workload: websearch, datamining, datamining-fine, fbhadoop or a CDF file),
// at --load of the core layer (the leaf uplinks; --loadType=host loads the host links instead;
// the conversion is printed and documented in doc/usage/workloads.rst). Every flow runs to
// completion (--maxTime is a safety stop; flows still running then are reported in
// summary.json).
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
// cnm.csv (every CNM and what its sender did), run.json (the settings, the command line, the
// ns-3 version and the seeds applied), summary.json (written last); the files of an earlier run
// in the folder are removed first. scripts/fct_stats.py computes FCT statistics and the pause
// rate; scripts/large_sweep.py runs whole figures. Every option is read whole and checked
// (doc/usage/command-line.rst).

#include "ns3/dcon-large-scale.h"

#include "ns3/atomic-output-file.h"
#include "ns3/core-module.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/parallel-options.h"
#include "ns3/parallel-run.h"
#include "ns3/program-frame.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/scenario-attributes.h"

#include <sys/resource.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ParallelRun::Init(&argc, &argv); // MPI builds: mpirun -np N runs one simulation on N ranks
    Time::SetResolution(Time::PS);
    RdmaFabricHelper::UseFastScheduler(); // before Parse: --SchedulerType overrides
    ProgramFrame frame("dcon-large-scale", __FILE__);
    try
    {
        DconLargeScaleConfig cfg;
        std::string scale = "full";
        std::string outdir;
        uint32_t spines = 0;
        uint32_t leaves = 0;
        uint32_t hostsPerLeaf = 0;
        const double inf = std::numeric_limits<double>::infinity();
        frame.AddCcOptions(cfg.cc);
        frame.AddChoice(
            "dcqcnPreset", "DCQCN parameter set: paper or cx4", cfg.dcqcnPreset, {"paper", "cx4"});
        frame.SetOptionTypes("dcqcnPreset", ParameterSetUsers("paper"));
        frame.AddString(
            "workload",
            "Flow sizes: websearch, datamining, datamining-fine, fbhadoop or a CDF file",
            cfg.workload);
        frame.AddString("flowFile",
                        "Replay an HPCC-format flow file instead of generating (the generator's "
                        "options then do not apply)",
                        cfg.flowFile);
        frame.AddDouble("load", "Offered load, > 0 (see --loadType)", cfg.load, 0, inf, true);
        frame.AddChoice("loadType",
                        "core (leaf uplinks, the paper's) or host (host links)",
                        cfg.loadType,
                        {"core", "host"});
        frame.AddTime("duration",
                      "Arrival window (warm-up included), > 0",
                      cfg.duration,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddTime("warmup",
                      "Leading part of the arrival window left out of the statistics (run.json)",
                      cfg.warmup,
                      Time(0));
        frame.AddTime("cooldown",
                      "Trailing part of the arrival window left out of the statistics (run.json)",
                      cfg.cooldown,
                      Time(0));
        frame.AddTime("sampleInterval",
                      "Sampling interval of buffer.csv, > 0",
                      cfg.sampleInterval,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddTime("maxTime",
                      "Safety stop, > 0 (flows unfinished then: summary.json says \"complete\": "
                      "false)",
                      cfg.maxTime,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddTime("progress",
                      "Wall-clock time between two progress lines on the log while the run goes "
                      "on (simulated time, flows done, wall time), 0 = none",
                      cfg.progress,
                      Time(0));
        frame.AddTime("drain",
                      "Run this long after the last flow completed, until the fabric is empty",
                      cfg.drain,
                      Time(0));
        frame.AddUnsigned("seed", "Run number (RngSeedManager::SetRun), >= 1", cfg.seed, 1u);
        frame.AddChoice("scale",
                        "Fabric: full (8x10x24), small (4x4x12), tiny (2x4x4)",
                        scale,
                        {"full", "small", "tiny"});
        frame.AddUnsigned("spines", "Spines (non-zero overrides --scale)", spines);
        frame.AddUnsigned("leaves", "Leaves (non-zero overrides --scale)", leaves);
        frame.AddUnsigned(
            "hostsPerLeaf", "Hosts per leaf (non-zero overrides --scale)", hostsPerLeaf);
        cfg.sw.AddCommandLineOptions(frame);
        frame.AddDouble(
            "cnmWindowRtts", "DCON T in RTTs, in (0, 1000000]", cfg.cnmWindowRtts, 0, 1e6, true);
        frame.SetOptionTypes("cnmWindowRtts", SwitchAgentWindowQueues());
        frame.AddDouble("incastShare",
                        "Share of the load sent as Poisson incast events, in [0, 1)",
                        cfg.incastShare,
                        0,
                        1);
        frame.AddUnsigned("incastSenders", "Senders per incast event", cfg.incastSenders, 1u);
        frame.AddUnsigned("incastBytes", "Bytes per incast sender", cfg.incastBytes, uint64_t(1));
        frame.AddString(
            "outdir",
            "Output directory (default results/large/<workload>-<cc>-load<load>-s<seed>)",
            outdir);
        frame.AddFlag("spreading",
                      "Measure congestion spreading: victims.csv, pause-trees.csv, "
                      "pause-events.csv and summary.json's spreading (sequential runs)",
                      cfg.spreading);
        ParallelOptions par;
        par.AddTo(frame, "leaf", true);
        frame.SetParallel(true);
        OwnScenarioAttributes(frame);
        frame.SetOwnedGlobal("RngRun", "use --seed (the run number)");
        frame.Parse(argc, argv);
        cfg.sw.explicitOptions = frame.GetGivenOptions();
        cfg.attributeArgs = frame.GetAttributeArguments();
        cfg.partitionFile = par.partitionFile;
        if (!cfg.flowFile.empty())
        {
            frame.RefuseGiven({"workload",
                               "load",
                               "loadType",
                               "duration",
                               "incastShare",
                               "incastSenders",
                               "incastBytes"},
                              "--flowFile replays the file's flows, so the flow generator's "
                              "settings are not used");
        }
        else if (cfg.incastShare == 0)
        {
            frame.RefuseGiven({"incastSenders", "incastBytes"},
                              "no incast events without --incastShare > 0");
        }
        const std::string queue = cfg.sw.GetQueueDisc(cfg.cc);
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes(cfg.cc, queue),
                       "--cc=" + cfg.cc + " with " + queue);
        if (frame.IsGiven("dcqcnPreset"))
        {
            RefuseUnreadParameterSet(
                "dcqcnPreset", cfg.cc, cfg.dcqcnPreset, {"paper", "cx4"}, cfg.linkRate);
        }

        ParallelRun::Start();
        cfg.SetScale(scale);
        cfg.spines = spines ? spines : cfg.spines;
        cfg.leaves = leaves ? leaves : cfg.leaves;
        cfg.hostsPerLeaf = hostsPerLeaf ? hostsPerLeaf : cfg.hostsPerLeaf;
        if (outdir.empty())
        {
            std::ostringstream o;
            o << "results/large/"
              << std::filesystem::path(cfg.flowFile.empty() ? cfg.workload : cfg.flowFile)
                     .stem()
                     .string()
              << "-" << cfg.cc << "-load" << cfg.load << "-s" << cfg.seed;
            outdir = o.str();
        }
        if (par.writePartition > 0)
        {
            LeafSpineHelper ls(cfg.spines, cfg.leaves, cfg.hostsPerLeaf);
            TopologySpec topo = ls.GetTopology();
            RankPartition::Write(std::cout, RankPartition::Balanced(topo, par.writePartition));
            return 0;
        }
        if (par.nodeWork && ParallelRun::IsEnabled())
        {
            throw std::invalid_argument("--nodeWork: the node and link counts are written by "
                                        "sequential runs only");
        }
        DconLargeScale run(cfg);
        if (ParallelRun::IsRoot())
        {
            std::vector<std::string> kinds = FabricMonitor::GetOutputKinds();
            kinds.insert(kinds.end(), {"flows.txt", "run.json", "parallel.json"});
            frame.PrepareOutputFolder(outdir, kinds);
        }
        frame.ReadyToRun(std::to_string(run.GetFlowSpecs().size()) + " flows with --cc=" + cfg.cc);
        std::ostream& log = ParallelRun::Log();
        const auto [arrivalStart, arrivalDuration] = run.GetArrivalWindow();
        log << ParallelRun::Who() << "fabric " << cfg.spines << " spines x " << cfg.leaves
            << " leaves x " << cfg.hostsPerLeaf << " hosts; ";
        if (cfg.flowFile.empty())
        {
            log << cfg.loadType << " load " << cfg.load << " = host-link load "
                << std::setprecision(4) << run.GetHostLoad() << "; ";
        }
        else
        {
            log << "flows of " << cfg.flowFile << "; ";
        }
        log << run.GetFlowSpecs().size() << " flows in " << arrivalDuration.As(Time::MS)
            << std::endl;
        double wall = run.Run();
        std::string report = ParallelRun::RankReport(wall);
        wall = ParallelRun::MaxAll(wall);
        run.Write(outdir, wall, frame.GetRunJsonMembers());
        if (par.nodeWork)
        {
            run.GetMonitor()->WriteNodeWork(outdir + "/node-work");
        }
        if (!report.empty())
        {
            WriteTextFile(outdir + "/parallel.json", report);
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
        return ProgramFrame::Fail(e);
    }
    Simulator::Destroy();
    ParallelRun::Finish();
    return 0;
}
