/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_TWO_FLOW_SCENARIO_H
#define DCON_TWO_FLOW_SCENARIO_H

// Shared by the convergence tests: a fabric for one algorithm; two long flows on one bottleneck.

#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/switch-queue-settings.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{
namespace test
{

/**
 * \brief Build a leaf-spine fabric for \p cc with every link at \p rate and 1 us.
 * \param ls the topology (links set here)
 * \param cc the --cc name
 * \param rate every link's rate
 * \param setQueue sets the switch queue on the fabric helper; empty: SwitchQueueSettings'
 * choice for \p cc (its registration) at \p rate
 * \return the built fabric
 */
inline Ptr<RdmaFabric>
BuildFabric(LeafSpineHelper& ls,
            const std::string& cc,
            DataRate rate,
            const std::function<void(RdmaFabricHelper&)>& setQueue = {})
{
    ls.SetHostLink(rate, MicroSeconds(1));
    ls.SetFabricLink(rate, MicroSeconds(1));
    RdmaFabricHelper fh;
    fh.SetCongestionControl(cc);
    if (setQueue)
    {
        setQueue(fh);
    }
    else
    {
        SwitchQueueSettings sw;
        sw.Apply(fh, cc, MicroSeconds(1), rate);
    }
    return fh.Build(ls.GetTopology());
}

/**
 * \brief Two long flows into host (0, 2) of a one-switch fabric (three hosts on one leaf, every
 * link \p rate and 1 us): A from host (0, 0) at time 0, B from host (0, 1) at \p bStart. The
 * monitor records both flows' throughput; the caller adds samples, starts the monitor and runs.
 */
struct TwoFlowScenario
{
    Ptr<RdmaFabric> fabric;     //!< the built fabric
    Ptr<RdmaFlowHelper> flows;  //!< the flows (SetStopWhenDone(false))
    Ptr<FabricMonitor> monitor; //!< throughput of A and B recorded, not started
    uint32_t a{0};              //!< flow A
    uint32_t b{0};              //!< flow B
    uint32_t leaf{0};           //!< the switch
    uint32_t bottleneckPort{0}; //!< the switch's port to the receiver

    /**
     * \brief Build the scenario.
     * \param cc the --cc name
     * \param rate every link's rate
     * \param bytes each flow's size
     * \param bStart when B starts
     * \param setQueue as for BuildFabric
     */
    TwoFlowScenario(const std::string& cc,
                    DataRate rate,
                    uint64_t bytes,
                    Time bStart,
                    const std::function<void(RdmaFabricHelper&)>& setQueue = {})
    {
        LeafSpineHelper ls(1, 1, 3);
        fabric = BuildFabric(ls, cc, rate, setQueue);
        flows = Create<RdmaFlowHelper>(fabric);
        flows->SetStopWhenDone(false);
        a = flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(0, 2), bytes, Time(0));
        b = flows->AddFlow(ls.GetHost(0, 1), ls.GetHost(0, 2), bytes, bStart);
        monitor = Create<FabricMonitor>(fabric, flows);
        monitor->AddThroughputFlow(a);
        monitor->AddThroughputFlow(b);
        leaf = ls.GetLeaf(0);
        bottleneckPort = fabric->GetPort(leaf, ls.GetHost(0, 2));
    }
};

} // namespace test
} // namespace ns3

#endif /* DCON_TWO_FLOW_SCENARIO_H */
