/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Reading the congestion-spreading measurement (doc/model/spreading.rst): which flows PFC pauses
// held, whether as culprits (the pause comes from congestion they feed) or as victims
// (head-of-line blocking), and how far each pause tree spread.
//
//                 spine (s10)                  links: 25 Gb/s to hosts, 100 Gb/s leaf-spine
//                /           \                 PFC: static, pause at 100 KB per ingress port
//        leaf 0 (s8)        leaf 1 (s9)
//        h0 h1 h2 h3        h4 h5 h6 h7
//
// h0, h1 and h2 each send 2 MB to h4 (a 3-to-1 incast: 75 Gb/s into a 25 Gb/s port) and h3
// sends 2 MB to h5, whose port is free. Leaf 1's queue to h4 is the root of the pauses: leaf 1
// pauses the spine, the spine pauses leaf 0, leaf 0 pauses the NICs. h3's flow waits behind
// them without feeding that queue: it is a victim.
//
//   build/examples/dcon-spreading                 # no congestion control: PFC alone
//   build/examples/dcon-spreading --cc=dcqcn      # DCQCN reacts, fewer pauses, less victim time

#include "ns3/core-module.h"
#include "ns3/dcon-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string cc = "none";
    std::string outdir = "results/spreading";
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control", cc);
    cmd.AddValue(
        "outdir", "Where to write victims.csv, pause-trees.csv, pause-events.csv, ...", outdir);
    cmd.Parse(argc, argv);
    try
    {
        LeafSpineHelper topo(1, 2, 4);
        topo.SetHostLink(DataRate("25Gbps"), MicroSeconds(1));
        topo.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
        RdmaFabricHelper fabricHelper;
        fabricHelper.SetCongestionControl(cc);
        // Static PFC thresholds (the helpers' default is dynamic, Alpha x the free buffer).
        fabricHelper.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
        fabricHelper.SetMmuAttribute("XOff", QueueSizeValue(QueueSize("100KB")));
        fabricHelper.SetMmuAttribute("XOn", QueueSizeValue(QueueSize("80KB")));
        Ptr<RdmaFabric> fabric = fabricHelper.Build(topo.GetTopology());

        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);
        for (uint32_t i = 0; i < 3; ++i)
        {
            flows->AddFlow(topo.GetHost(0, i), topo.GetHost(1, 0), 2000000, Seconds(0));
        }
        flows->AddFlow(topo.GetHost(0, 3), topo.GetHost(1, 1), 2000000, Seconds(0)); // bystander

        // The measurement is off by default (it costs two callbacks per packet and hop).
        Ptr<FabricMonitor> monitor = Create<FabricMonitor>(fabric, flows);
        monitor->EnableCongestionSpreading();
        monitor->Start();
        Simulator::Run();

        // Per flow: the time its data sat at a paused transmitter, split by cause.
        for (const FabricMonitor::FlowResult& f : monitor->GetFlowResults())
        {
            std::cout << "flow " << f.flowId << " " << monitor->GetNodeName(f.src) << " -> "
                      << monitor->GetNodeName(f.dst) << ": FCT " << f.fctSeconds * 1e6
                      << " us, held as culprit " << f.culpritSeconds * 1e6 << " us, as victim "
                      << f.victimSeconds * 1e6 << " us\n";
        }
        // Per congestion event: the root egress queue, how far its pauses spread upstream.
        Ptr<CongestionSpreading> spreading = monitor->GetCongestionSpreading();
        for (const CongestionSpreading::Event& e : spreading->GetEvents())
        {
            const auto& [sw, port, priority] = e.root;
            std::cout << "event " << e.id << ": root " << monitor->GetNodeName(sw) << " port "
                      << port << " (priority " << +priority << "), " << e.pauseFrames
                      << " PAUSE frames, depth " << e.maxDepth << ", " << e.transmitters.size()
                      << " transmitters paused for " << e.pausedTime.GetMicroSeconds()
                      << " us in all\n";
        }
        const FabricMonitor::Summary s = monitor->GetSummary();
        std::cout << "victim time " << s.victimSeconds * 1e6 << " us, culprit time "
                  << s.culpritSeconds * 1e6 << " us, " << s.pauseFrames << " PAUSE frames\n";
        monitor->Write(outdir); // the same, per PAUSE frame and per flow, as CSV files
        std::cout << "files in " << outdir << " (/usr/bin/python3 -m scripts.plot_spreading "
                  << outdir << " draws them)\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
