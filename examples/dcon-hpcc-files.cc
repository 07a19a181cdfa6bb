/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A topology and flows from files: the HPCC simulator's text formats (doc/usage/hpcc-formats.rst),
// so that its inputs (mix/fat.txt, mix/flow.txt, ...) run unchanged. The run writes the
// monitor's files (flows.csv, pfc.csv, summary.json, ...) and the HPCC simulator's fct.txt to
// --outdir, and prints what the files hold in short.
//
//   build/examples/dcon-hpcc-files                         # the files of data/examples/
//   build/examples/dcon-hpcc-files --cc=dcon --outdir=results/hpcc-files-dcon
//   build/examples/dcon-hpcc-files --topo=data/bench/fat-tree-320.topo
//       --flows=data/bench/websearch-30pct-2ms.flows       # (one line) the benchmark's 1,131 flows
//
// Run it from the repository root (the default paths are relative to it), or give the paths.

#include "ns3/core-module.h"
#include "ns3/dcon-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string topoFile = "data/examples/leaf-spine-8.topo";
    std::string flowFile = "data/examples/mixed-8.flows";
    std::string cc = "dcqcn";
    std::string outdir = "results/hpcc-files";
    CommandLine cmd(__FILE__);
    cmd.AddValue("topo", "Topology file (HPCC format)", topoFile);
    cmd.AddValue("flows", "Flow file (HPCC format)", flowFile);
    cmd.AddValue("cc", "Congestion control", cc);
    cmd.AddValue("outdir", "Where to write the results", outdir);
    cmd.Parse(argc, argv);
    try
    {
        // The readers check every field and throw std::invalid_argument naming the file, the
        // line and the bad token. Flows are checked against the topology (hosts, not switches).
        const TopologySpec topo = ReadTopologyFile(topoFile);
        const std::vector<FlowSpec> specs = ReadFlowFile(flowFile, topo);

        RdmaFabricHelper fabricHelper;
        fabricHelper.SetCongestionControl(cc);
        Ptr<RdmaFabric> fabric = fabricHelper.Build(topo);
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);
        flows->AddFlows(specs); // flow ids follow the file's lines

        Ptr<FabricMonitor> monitor = Create<FabricMonitor>(fabric, flows);
        monitor->Start();
        Simulator::Run();

        // The files: flows.csv (one row per flow: FCT, ideal FCT, slowdown), pfc.csv (every PFC
        // frame), summary.json (the totals), ... and fct.txt, the HPCC simulator's FCT file.
        monitor->Write(outdir);
        monitor->WriteFctFile(outdir + "/fct.txt");

        // The same numbers in C++: the completed flows and the totals.
        const FabricMonitor::Summary s = monitor->GetSummary();
        std::cout << s.flowsCompleted << " of " << s.flowsTotal
                  << " flows completed, the longest FCT " << s.maxFctSeconds * 1e3
                  << " ms; mean slowdown " << s.meanSlowdown << "; " << s.pauseFrames
                  << " PAUSE frames, " << s.ecnMarks << " ECN marks, " << s.cnpsSent << " CNPs, "
                  << s.drops << " drops\n";
        for (const FabricMonitor::FlowResult& f : monitor->GetFlowResults())
        {
            if (f.slowdown > 2)
            {
                std::cout << "  flow " << f.flowId << " (" << f.sizeBytes << " B, host " << f.src
                          << " -> " << f.dst << "): slowdown " << f.slowdown << "\n";
            }
        }
        std::cout << "results in " << outdir << "\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e) // std::invalid_argument (input), std::runtime_error (files)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
