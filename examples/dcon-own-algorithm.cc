/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// An algorithm of one's own (doc/usage/own-algorithm.rst): "ecn-aimd", defined and registered
// in examples/rdma-ecn-aimd.{h,cc}, runs in the first program's scenario (a 4-to-1 incast of
// 1 MB into h4 with a 10 MB background flow, 25 Gb/s hosts) like any algorithm of the library.
// Its trace source RateCut is connected on every flow as the flow starts, to count its cuts.
//
//   build/examples/dcon-own-algorithm                     # ecn-aimd, attribute defaults
//   build/examples/dcon-own-algorithm --set=gentle        # its parameter set
//   build/examples/dcon-own-algorithm --cc=dcqcn          # any other algorithm, to compare

#include "ns3/core-module.h"
#include "ns3/dcon-module.h"
#include "rdma-ecn-aimd.h"

#include <iostream>
#include <map>

using namespace ns3;

namespace
{
/// Rate cuts per flow id (the RateCut trace of each flow's RdmaEcnAimd).
std::map<uint32_t, uint32_t> g_cuts;

/// A flow started at \p nic: connect to its congestion control's RateCut, if it has one.
/// The NIC is bound as a plain pointer: a Ptr<RdmaNic> held by a callback in the NIC's own
/// trace source would be a reference cycle, and the NIC would never be freed.
void
FlowStarted(RdmaNic* nic, uint32_t flowId, Ptr<RdmaFlowState> state)
{
    Ptr<RdmaCongestionOps> cc = nic->GetSenderCongestionOps(flowId);
    if (cc->GetInstanceTypeId() == RdmaEcnAimd::GetTypeId())
    {
        cc->TraceConnectWithoutContext("RateCut",
                                       MakeCallback(+[](uint32_t id, DataRate, DataRate)
                                                    {
                                                        ++g_cuts[id];
                                                    })
                                           .Bind(flowId));
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    std::string cc = "ecn-aimd";
    std::string set;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control", cc);
    cmd.AddValue("set", "Parameter set of the congestion control (empty: defaults)", set);
    cmd.Parse(argc, argv);
    try
    {
        // The registration made it a congestion control like the others.
        const RdmaCcEntry entry = RdmaCcRegistry::Lookup(cc);
        std::cout << entry.name << ": " << entry.summary << "; switch queue " << entry.queueDisc
                  << "\n";

        LeafSpineHelper topo(2, 2, 4);
        topo.SetHostLink(DataRate("25Gbps"), MicroSeconds(1));
        topo.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
        RdmaFabricHelper fabricHelper;
        fabricHelper.SetCongestionControl(cc, set);
        Ptr<RdmaFabric> fabric = fabricHelper.Build(topo.GetTopology());
        for (uint32_t host : fabric->GetHosts())
        {
            Ptr<RdmaNic> nic = fabric->GetNic(host);
            nic->TraceConnectWithoutContext("FlowStart",
                                            MakeBoundCallback(&FlowStarted, PeekPointer(nic)));
        }

        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);
        const uint32_t receiver = topo.GetHost(1, 0);
        flows->AddFlow(topo.GetHost(1, 1), receiver, 10000000, Seconds(0));
        for (uint32_t i = 0; i < 4; ++i)
        {
            flows->AddFlow(topo.GetHost(0, i), receiver, 1000000, MicroSeconds(100));
        }
        Ptr<FabricMonitor> monitor = Create<FabricMonitor>(fabric, flows);
        monitor->Start();
        Simulator::Run();

        for (const FabricMonitor::FlowResult& f : monitor->GetFlowResults())
        {
            std::cout << "flow " << f.flowId << ": " << f.sizeBytes << " B, FCT "
                      << f.fctSeconds * 1e6 << " us, slowdown " << f.slowdown << ", "
                      << g_cuts[f.flowId] << " rate cuts\n";
        }
        const FabricMonitor::Summary s = monitor->GetSummary();
        std::cout << "ECN marks " << s.ecnMarks << ", PAUSE frames " << s.pauseFrames << "\n";
        Simulator::Destroy();
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
