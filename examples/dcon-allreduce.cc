/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A collective of a training job (doc/usage/collectives.rst): an all-reduce of 8 MiB over the
// 16 hosts of a leaf-spine, run step by step as NCCL runs it (a rank sends a step when it has
// received what that step forwards), its time against the analytic model, and nccl-tests'
// algorithm and bus bandwidths.
//
//     spine0 ... spine3                      100 Gb/s, 1 us on every link (non-blocking)
//   leaf0  leaf1  leaf2  leaf3                 the ranks spread round robin over the leaves:
//   4 hosts on each leaf                       every ring hop crosses a spine
//
//   build/examples/dcon-allreduce                       # ring, ECMP paths
//   build/examples/dcon-allreduce --paths=pinned        # no two ring hops share an uplink
//   build/examples/dcon-allreduce --algo=hd             # halving-doubling (Rabenseifner)

#include "ns3/core-module.h"
#include "ns3/dcon-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string cc = "dcqcn";
    std::string algo = "ring";
    std::string paths = "ecmp";
    std::string outdir = "results/allreduce";
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control", cc);
    cmd.AddValue("algo", "ring or hd (halving-doubling)", algo);
    cmd.AddValue("paths", "ecmp (a random port per connection) or pinned", paths);
    cmd.AddValue("outdir", "Where to write collectives.csv, steps.csv, ...", outdir);
    cmd.Parse(argc, argv);
    try
    {
        LeafSpineHelper topo(4, 4, 4);
        topo.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
        topo.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
        RdmaFabricHelper fabricHelper;
        fabricHelper.SetCongestionControl(cc);
        Ptr<RdmaFabric> fabric = fabricHelper.Build(topo.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);

        // The job: the operation, its size as nccl-tests counts it, where its ranks run.
        CollectiveJob job;
        job.name = "ar";
        job.op = CollectiveOp::ALL_REDUCE;
        job.algorithm
            = algo == "hd" ? CollectiveAlgorithm::HALVING_DOUBLING : CollectiveAlgorithm::RING;
        job.bytes = 8 << 20;
        job.ranks = 16;
        job.placement = CollectivePlacement::SPREAD;
        job.paths = paths == "pinned" ? CollectivePaths::PINNED : CollectivePaths::ECMP;
        job.iterations = 2;
        job.gap = MicroSeconds(50); // compute between the iterations
        Ptr<CollectiveWorkload> collectives = Create<CollectiveWorkload>(fabric, flows);
        collectives->AddJob(job);
        collectives->Install(); // places the ranks, makes every message a flow
        Simulator::Run();       // until the last message is acknowledged

        const Time ideal = collectives->GetIdealTime(0);
        for (const CollectiveWorkload::Iteration& it : collectives->GetIterations())
        {
            const double t = (it.end - it.start).GetSeconds();
            const double algbw = job.bytes * 8 / t / 1e9; // Gb/s
            std::cout << "iteration " << it.iteration << ": " << t * 1e6 << " us, ideal "
                      << ideal.GetSeconds() * 1e6 << " us (slowdown " << t / ideal.GetSeconds()
                      << "), algbw " << algbw << " Gb/s, busbw "
                      << algbw * CollectiveJob::BusBandwidthFactor(job.op, job.ranks) << " Gb/s\n";
        }
        // Each rank's steps: when it started them and when its peer had the data.
        Ptr<FabricMonitor> monitor = Create<FabricMonitor>(fabric, flows);
        collectives->Write(outdir,
                           [monitor](uint32_t n)
                           {
                               return monitor->GetNodeName(n);
                           });
        std::cout << collectives->GetMessages().size() << " messages; files in " << outdir
                  << " (/usr/bin/python3 -m scripts.plot_collectives " << outdir
                  << " draws them)\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
