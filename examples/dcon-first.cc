/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Your first dcon program: a leaf-spine fabric, a 4-to-1 incast and a background flow.
//
//         spine 0     spine 1          fabric links: 4 x the host rate, 1 us
//            |    \  /    |
//          leaf 0     leaf 1
//          h0..h3     h4..h7           host links: --rate (25 Gb/s), 1 us
//
// h5 sends h4 a 10 MB background flow from t = 0; at t = 100 us h0..h3 each start a 1 MB flow
// to h4 (a 4-to-1 incast through the spines). The program prints each flow's completion time
// (FCT) and slowdown (FCT / the FCT the flow would have alone), the incast's completion against
// a lone 1 MB flow, and the PFC PAUSE frames per link.
//
//   build/examples/dcon-first                      # DCQCN with its attribute defaults
//   build/examples/dcon-first --cc=hpcc
//   build/examples/dcon-first --cc=dcqcn --set=cx4 --rate=100Gbps
//   build/examples/dcon-bench --list-cc            # the algorithms: name, switch queue, summary

#include "ns3/core-module.h"
#include "ns3/dcon-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // a 64 B frame at 100 Gb/s lasts 5.12 ns
    std::string cc = "dcqcn";      // a name of the algorithm registry (RdmaCcRegistry)
    std::string set;               // one of its parameter sets; empty: its attribute defaults
    std::string rate = "25Gbps";   // host link rate
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control", cc);
    cmd.AddValue("set", "Parameter set of the congestion control (empty: defaults)", set);
    cmd.AddValue("rate", "Host link rate; the fabric links run at 4 x this", rate);
    cmd.Parse(argc, argv);
    try
    {
        // The topology: 2 spines, 2 leaves, 4 hosts per leaf.
        const DataRate hostRate = ReadDataRateText(rate, "--rate");
        LeafSpineHelper topo(2, 2, 4);
        topo.SetHostLink(hostRate, MicroSeconds(1));
        topo.SetFabricLink(DataRate(4 * hostRate.GetBitRate()), MicroSeconds(1));

        // The fabric: switches with PFC, and NICs that run the congestion control. The
        // algorithm brings its switch side along (its queue discipline and switch agent).
        RdmaFabricHelper fabricHelper;
        fabricHelper.SetCongestionControl(cc, set);
        Ptr<RdmaFabric> fabric = fabricHelper.Build(topo.GetTopology());

        // The flows: source and destination hosts, bytes, start time.
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);
        const uint32_t receiver = topo.GetHost(1, 0);
        flows->AddFlow(topo.GetHost(1, 1), receiver, 10000000, Seconds(0)); // background
        for (uint32_t i = 0; i < 4; ++i)
        {
            flows->AddFlow(topo.GetHost(0, i), receiver, 1000000, MicroSeconds(100)); // incast
        }

        // Record, run (until the last flow completes), read the results.
        Ptr<FabricMonitor> monitor = Create<FabricMonitor>(fabric, flows);
        monitor->Start();
        Simulator::Run();
        double incastEnd = 0; // when the last incast flow (ids 1 to 4) completed, in seconds
        for (const FabricMonitor::FlowResult& f : monitor->GetFlowResults())
        {
            std::cout << "flow " << f.flowId << ": " << f.sizeBytes << " B from "
                      << monitor->GetNodeName(f.src) << ", FCT " << f.fctSeconds * 1e6
                      << " us, slowdown " << f.slowdown << "\n";
            incastEnd = std::max(incastEnd, f.flowId > 0 ? f.startSeconds + f.fctSeconds : 0);
        }
        const Time lone = fabric->GetIdealFct(topo.GetHost(0, 0), receiver, 1000000);
        std::cout << "incast: done " << (incastEnd - 100e-6) * 1e6 << " us after it began, "
                  << (incastEnd - 100e-6) / lone.GetSeconds() << " x a lone 1 MB flow\n";
        for (const FabricMonitor::LinkPauses& l : monitor->GetPauseFramesPerLink())
        {
            if (l.pauseFramesAToB + l.pauseFramesBToA > 0)
            {
                std::cout << "PAUSE frames " << monitor->GetNodeName(l.a) << " <-> "
                          << monitor->GetNodeName(l.b) << ": " << l.pauseFramesAToB << " / "
                          << l.pauseFramesBToA << "\n";
            }
        }
        std::cout << "PAUSE frames in all: " << monitor->GetSummary().pauseFrames << "\n";
        Simulator::Destroy();
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
