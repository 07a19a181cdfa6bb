/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// AI training collectives on a lossless leaf-spine (doc/experiments/collectives.rst).
//
//        spine0 ... spine7                 every leaf links to every spine
//   leaf0   leaf1   ...   leaf7            100 Gb/s, 1 us on every link (--linkRate, --linkDelay)
//   8 hosts on each leaf (64 hosts)        one NIC per host: a rank of a job
//
// Jobs run collective operations (all-reduce, all-gather, reduce-scatter, all-to-all) with
// their step dependencies, rank by rank as NCCL's ring runs them (a rank forwards what it has
// received), over iterations separated by a compute gap. One job from the options (--op,
// --algo, --size, --ranks, --placement, ...) or several from a job file (--jobs, one job per
// line, doc/usage/collectives.rst), optionally with Poisson background flows between all hosts
// (--background=websearch at --backgroundLoad of the core). The run ends when every job's last
// message is acknowledged (--maxTime is a safety stop).
//
// Output (--outdir, default results/collectives/<op or job file>-<cc>-s<seed>):
// collectives.csv (per job and iteration: time, algbw and busbw as nccl-tests define them, the
// ideal time of the analytic model, slowdown), steps.csv (per message: ranks, bytes, start,
// end at the receiver, ACK), ranks.csv (placement), jobs.csv (per job; with --spreading the
// time its flows were held by another job's PFC pauses), the fabric's files (flows.csv,
// pfc.csv, buffer.csv, ..., summary.json last), jobs.txt, run.json. scripts/plot_collectives.py
// draws the slowdowns and one iteration's steps. Every option is read whole and checked
// (doc/usage/command-line.rst). On MPI ranks (scripts/setup-mpi.sh): mpirun -np 2 ...

#include "ns3/dcon-collectives.h"

#include "ns3/atomic-output-file.h"
#include "ns3/collective-job-file.h"
#include "ns3/core-module.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/parallel-options.h"
#include "ns3/parallel-run.h"
#include "ns3/program-frame.h"
#include "ns3/rank-partition.h"
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
    ParallelRun::Init(&argc, &argv);
    Time::SetResolution(Time::PS);
    RdmaFabricHelper::UseFastScheduler();
    ProgramFrame frame("dcon-collectives", __FILE__);
    try
    {
        DconCollectivesConfig cfg;
        std::string jobsFile;
        std::string outdir;
        std::string background = "none";
        // the single job of the options
        CollectiveJob job;
        job.bytes = 16 << 20;
        std::string op = "allreduce";
        std::string algo = "auto";
        std::string placement = "packed";
        std::string sync = "rank";
        std::string paths = "ecmp";
        std::string hosts;
        uint32_t ranks = 0;
        const double inf = std::numeric_limits<double>::infinity();
        frame.AddCcOptions(cfg.cc);
        frame.AddChoice(
            "dcqcnPreset", "DCQCN parameter set: paper or cx4", cfg.dcqcnPreset, {"paper", "cx4"});
        frame.SetOptionTypes("dcqcnPreset", ParameterSetUsers("paper"));
        frame.AddString("jobs",
                        "Job file: one job per line (doc/usage/collectives.rst); replaces the "
                        "single job of --op, --size, --ranks, ...",
                        jobsFile);
        frame.AddChoice("op",
                        "The job's operation: allreduce, allgather, reducescatter or alltoall",
                        op,
                        {"allreduce", "allgather", "reducescatter", "alltoall"});
        frame.AddChoice("algo",
                        "Its algorithm: ring, hd (halving-doubling all-reduce) or direct "
                        "(all-to-all); auto: ring, direct for alltoall",
                        algo,
                        {"auto", "ring", "hd", "direct"});
        frame.AddOption(
            "size",
            "Its size S in bytes (B, KB, MB, GB, KiB, MiB, GiB), as nccl-tests counts it",
            [&job](const std::string& text)
            {
                std::optional<uint64_t> v = ReadByteSize(text);
                if (!v || *v == 0)
                {
                    throw std::invalid_argument(
                        "--size: got " + QuoteText(text)
                        + ", expected a number of bytes in [1, 2^50] with an optional unit B, "
                          "KB, MB, GB, KiB, MiB or GiB");
                }
                job.bytes = *v;
            },
            "16MiB");
        frame.AddUnsigned("ranks", "Its ranks (0: every host)", ranks, 0u, 1u << 20);
        frame.AddChoice("placement",
                        "Where its ranks run: packed, spread, random, rail (with --gpus)",
                        placement,
                        {"packed", "spread", "random", "rail"});
        frame.AddUnsigned("gpus", "GPUs per server of the rail placement", job.gpusPerServer);
        frame.AddString("hosts",
                        "Its hosts in rank order (node ids and ranges a-b, separated by commas), "
                        "instead of --ranks and --placement",
                        hosts);
        frame.AddUnsigned("iterations", "Its iterations", job.iterations, 1u, 1000000u);
        frame.AddTime("gap", "Compute time between its iterations", job.gap, Time(0));
        frame.AddTime("start", "When it starts", job.start, Time(0));
        frame.AddUnsigned("chunks", "Ring pipelining: pieces per step", job.chunks, 1u, 65536u);
        frame.AddChoice("sync",
                        "When its next iteration starts: rank (each rank after its own "
                        "completion and the gap) or all (after the last rank's)",
                        sync,
                        {"rank", "all"});
        frame.AddChoice("paths",
                        "Its paths: ecmp (a random port per connection) or pinned (spines "
                        "assigned so that no two connections share a link)",
                        paths,
                        {"ecmp", "pinned"});
        frame.AddUnsigned("spines", "Spines", cfg.spines, 1u);
        frame.AddUnsigned("leaves", "Leaves", cfg.leaves, 1u);
        frame.AddUnsigned("hostsPerLeaf", "Hosts per leaf", cfg.hostsPerLeaf, 1u);
        frame.AddDataRate("linkRate", "Every link's rate", cfg.linkRate, DataRate(1));
        frame.AddTime("linkDelay", "Every link's delay", cfg.linkDelay, Time(0));
        frame.AddUnsigned("mtu", "Payload bytes per packet", cfg.mtu, 1u, 9000u);
        cfg.sw.AddCommandLineOptions(frame);
        frame.AddDouble(
            "cnmWindowRtts", "DCON T in RTTs, in (0, 1000000]", cfg.cnmWindowRtts, 0, 1e6, true);
        frame.SetOptionTypes("cnmWindowRtts", SwitchAgentWindowQueues());
        frame.AddString("background",
                        "Poisson background between all hosts: none, websearch, datamining, "
                        "datamining-fine, fbhadoop or a CDF file",
                        background);
        frame.AddDouble("backgroundLoad",
                        "Its load, > 0 (see --backgroundLoadType)",
                        cfg.backgroundLoad,
                        0,
                        inf,
                        true);
        frame.AddChoice("backgroundLoadType",
                        "core (leaf uplinks) or host (host links)",
                        cfg.backgroundLoadType,
                        {"core", "host"});
        frame.AddTime("backgroundDuration",
                      "Its arrival window from 0 (0: four times the jobs' ideal span)",
                      cfg.backgroundDuration,
                      Time(0));
        frame.AddUnsigned("seed", "Run number (RngSeedManager::SetRun), >= 1", cfg.seed, 1u);
        frame.AddTime("maxTime",
                      "Safety stop, > 0 (jobs unfinished then: summary.json says \"complete\": "
                      "false)",
                      cfg.maxTime,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddTime("drain", "Run on this long after the last message's ACK", cfg.drain, Time(0));
        frame.AddTime("sampleInterval",
                      "Sampling interval of buffer.csv, > 0",
                      cfg.sampleInterval,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddFlag("spreading",
                      "Measure congestion spreading: per job in jobs.csv (time held by another "
                      "job's pauses), victims.csv, pause-trees.csv ... (sequential runs)",
                      cfg.spreading);
        frame.AddFlag("steps", "Write steps.csv (one line per message)", cfg.steps);
        frame.AddString(
            "outdir",
            "Output directory (default results/collectives/<op or job file>-<cc>-s<seed>)",
            outdir);
        ParallelOptions par;
        par.AddTo(frame, "leaf", false);
        frame.SetParallel(true);
        OwnScenarioAttributes(frame);
        frame.SetOwned("ns3::RdmaNic::Mtu", "use --mtu");
        frame.SetOwned("ns3::PfcNetDevice::Mtu", "use --mtu (the device takes it and headers)");
        frame.SetOwnedGlobal("RngRun", "use --seed (the run number)");
        frame.Parse(argc, argv);
        cfg.sw.explicitOptions = frame.GetGivenOptions();
        cfg.attributeArgs = frame.GetAttributeArguments();
        cfg.partitionFile = par.partitionFile;
        cfg.background = background == "none" ? "" : background;
        if (cfg.background.empty())
        {
            frame.RefuseGiven({"backgroundLoad", "backgroundLoadType", "backgroundDuration"},
                              "there is no background without --background");
        }
        const std::vector<std::string> single = {"op",
                                                 "algo",
                                                 "size",
                                                 "ranks",
                                                 "placement",
                                                 "gpus",
                                                 "hosts",
                                                 "iterations",
                                                 "gap",
                                                 "start",
                                                 "chunks",
                                                 "sync",
                                                 "paths"};
        if (!jobsFile.empty())
        {
            frame.RefuseGiven(single, "--jobs gives the jobs (each line has its own fields)");
            cfg.jobs = ReadCollectiveJobFile(jobsFile);
        }
        else
        {
            if (!hosts.empty())
            {
                frame.RefuseGiven({"placement", "gpus"}, "--hosts places the ranks itself");
                std::optional<std::vector<uint32_t>> list = ReadHostList(hosts);
                if (!list)
                {
                    throw std::invalid_argument("--hosts: got " + QuoteText(hosts)
                                                + ", expected node ids and ranges a-b (a <= b) "
                                                  "separated by commas");
                }
                job.hosts = *list;
                job.placement = CollectivePlacement::LIST;
                if (frame.IsGiven("ranks") && ranks != job.hosts.size())
                {
                    throw std::invalid_argument("--ranks=" + std::to_string(ranks)
                                                + " but --hosts lists "
                                                + std::to_string(job.hosts.size()) + " hosts");
                }
                ranks = job.hosts.size();
            }
            else
            {
                const std::vector<std::string> names
                    = {"packed", "spread", "random", "list", "rail"};
                job.placement = static_cast<CollectivePlacement>(
                    std::find(names.begin(), names.end(), placement) - names.begin());
                if (job.placement != CollectivePlacement::RAIL && frame.IsGiven("gpus"))
                {
                    throw std::invalid_argument("--gpus applies to --placement=rail only");
                }
            }
            const std::vector<std::string> ops
                = {"allreduce", "allgather", "reducescatter", "alltoall"};
            job.op = static_cast<CollectiveOp>(std::find(ops.begin(), ops.end(), op) - ops.begin());
            job.algorithm = algo == "auto"   ? CollectiveJob::DefaultAlgorithm(job.op)
                            : algo == "ring" ? CollectiveAlgorithm::RING
                            : algo == "hd"   ? CollectiveAlgorithm::HALVING_DOUBLING
                                             : CollectiveAlgorithm::DIRECT;
            job.sync = sync == "rank" ? CollectiveSync::RANK : CollectiveSync::ALL;
            job.paths = paths == "ecmp" ? CollectivePaths::ECMP : CollectivePaths::PINNED;
            job.ranks = ranks ? ranks : cfg.leaves * cfg.hostsPerLeaf;
            job.name = op;
            try
            {
                job.Check();
            }
            catch (const std::invalid_argument& e)
            {
                // name the options, not the job
                std::string what = e.what();
                const std::string head = "job '" + job.name + "': ";
                throw std::invalid_argument(
                    "the job of the options: "
                    + (what.rfind(head, 0) == 0 ? what.substr(head.size()) : what));
            }
            cfg.jobs = {job};
        }
        const std::string queue = cfg.sw.GetQueueDisc(cfg.cc);
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes(cfg.cc, queue),
                       "--cc=" + cfg.cc + " with " + queue);

        ParallelRun::Start();
        if (outdir.empty())
        {
            std::ostringstream o;
            o << "results/collectives/"
              << (jobsFile.empty() ? op : std::filesystem::path(jobsFile).stem().string()) << "-"
              << cfg.cc << "-s" << cfg.seed;
            outdir = o.str();
        }
        if (par.writePartition > 0)
        {
            LeafSpineHelper ls(cfg.spines, cfg.leaves, cfg.hostsPerLeaf);
            RankPartition::Write(std::cout,
                                 RankPartition::Balanced(ls.GetTopology(), par.writePartition));
            return 0;
        }
        DconCollectives run(cfg);
        if (ParallelRun::IsRoot())
        {
            frame.PrepareOutputFolder(outdir, DconCollectives::GetOutputKinds());
        }
        frame.ReadyToRun(std::to_string(run.GetWorkload()->GetJobs().size()) + " job(s), "
                         + std::to_string(run.GetWorkload()->GetMessages().size())
                         + " messages with --cc=" + cfg.cc);
        std::ostream& log = ParallelRun::Log();
        const auto& jobs = run.GetWorkload()->GetJobs();
        log << ParallelRun::Who() << "fabric " << cfg.spines << " spines x " << cfg.leaves
            << " leaves x " << cfg.hostsPerLeaf << " hosts, " << cfg.linkRate.GetBitRate() / 1e9
            << " Gb/s; " << jobs.size() << " job(s), " << run.GetWorkload()->GetMessages().size()
            << " messages";
        if (!cfg.background.empty())
        {
            log << "; background " << cfg.background << " at " << cfg.backgroundLoadType << " load "
                << cfg.backgroundLoad << " (host load " << std::setprecision(4)
                << run.GetBackgroundHostLoad() << "), " << run.GetBackground().size() << " flows";
        }
        log << std::endl;
        double wall = run.Run();
        std::string report = ParallelRun::RankReport(wall);
        wall = ParallelRun::MaxAll(wall);
        run.Write(outdir, wall, frame.GetRunJsonMembers());
        if (!report.empty())
        {
            WriteTextFile(outdir + "/parallel.json", report);
        }
        if (ParallelRun::IsRoot())
        {
            const auto its = run.GetWorkload()->GetIterations();
            for (uint32_t j = 0; j < jobs.size(); ++j)
            {
                const Time ideal = run.GetWorkload()->GetIdealTime(j);
                double sum = 0;
                uint32_t done = 0;
                for (const auto& x : its)
                {
                    if (x.job == j && !x.end.IsStrictlyNegative())
                    {
                        sum += (x.end - x.start).GetSeconds();
                        ++done;
                    }
                }
                log << "  " << jobs[j].name << ": " << CollectiveJob::ToString(jobs[j].op) << " "
                    << CollectiveJob::ToString(jobs[j].algorithm) << " of " << jobs[j].bytes
                    << " B on " << jobs[j].ranks << " ranks: " << done << "/" << jobs[j].iterations
                    << " iterations";
                if (done > 0)
                {
                    const double mean = sum / done;
                    log << ", mean " << std::setprecision(6) << mean * 1e6 << " us, ideal "
                        << ideal.GetMicroSeconds() << " us, slowdown " << std::setprecision(4)
                        << mean / ideal.GetSeconds() << ", busbw "
                        << jobs[j].bytes * 8.0 / mean / 1e9
                               * CollectiveJob::BusBandwidthFactor(jobs[j].op, jobs[j].ranks)
                        << " Gb/s";
                }
                log << "\n";
            }
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        log << "cc=" << cfg.cc << " done at " << Simulator::Now().As(Time::MS) << ", wall "
            << std::setprecision(4) << wall << " s, peak memory " << ru.ru_maxrss / 1024
            << " MiB\n  results in " << outdir << "\n";
    }
    catch (const std::exception& e)
    {
        return ProgramFrame::Fail(e);
    }
    Simulator::Destroy();
    ParallelRun::Finish();
    return 0;
}
