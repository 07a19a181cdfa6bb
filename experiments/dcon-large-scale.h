/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_LARGE_SCALE_H
#define DCON_LARGE_SCALE_H

#include "ns3/data-rate.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-spec.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "switch-queue-settings.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief Settings of the DCON paper's large-scale experiments (paper Fig. 8-12).
 *
 * Defaults are the paper's fabric: 8 spines, 10 leaves, 24 hosts per leaf (240 hosts), 40 Gb/s
 * and 5 us on every link. The paper gives switch settings only for its testbed (22 MB buffer,
 * PFC threshold 320 KB, ECN at 200 KB), so the same SwitchQueueSettings are used here; see
 * doc/experiments/large-scale.rst for why they suit a 32-port 40 Gb/s leaf.
 */
struct DconLargeScaleConfig
{
    std::string cc{"dcon"};           //!< congestion control (short or TypeId name)
    std::string dcqcnPreset{"paper"}; //!< DCQCN parameter set ("paper" or "cx4")
    /// Attribute defaults given by the user ("ns3::Type::Attr=value",
    /// ProgramFrame::GetAttributeArguments):
    /// applied after the preset, so they win over it.
    std::vector<std::string> attributeArgs;
    /// A parallel run's partition: a file of "node rank" lines (RankPartition::Read); empty:
    /// RankPartition::Balanced.
    std::string partitionFile;
    std::string workload{"websearch"}; //!< built-in CDF name or a CDF file path
    std::string dataDir;          //!< where built-in CDFs live (empty: FlowSizeCdf::GetDataDir)
    double load{0.8};             //!< offered load, see loadType
    std::string loadType{"core"}; //!< "core" (leaf uplinks, the paper's) or "host"
    Time arrivalStart{MicroSeconds(10)}; //!< first possible flow arrival
    Time duration{MilliSeconds(5)};      //!< arrival window (warm-up included)
    /// Start of the arrival window that the statistics leave out (flows arriving in
    /// [arrivalStart, arrivalStart + warmup) run but are not measured; pause rates count from
    /// arrivalStart + warmup); recorded in run.json for scripts/fct_stats.py
    Time warmup{Seconds(0)};
    /// End of the arrival window that the statistics leave out as well (flows arriving in
    /// [arrivalStart + duration - cooldown, arrivalStart + duration) are not measured: they
    /// see a network whose arrivals stop); recorded in run.json
    Time cooldown{Seconds(0)};
    Time sampleInterval{MicroSeconds(100)}; //!< buffer.csv sampling
    /// Run on this long after the last flow completed (ACKs and CNPs still on the way leave
    /// the switches), so that summary.json's mmu_at_end shows an empty fabric; 0 stops at once
    Time drain{Seconds(0)};
    Time maxTime{Seconds(2)};        //!< safety stop (flows unfinished by then are reported)
    /// Wall-clock time between two progress lines on the log during Run (RunProgress: the
    /// simulated time, the flows done, the wall time); 0 writes none
    Time progress{Seconds(0)};
    uint32_t seed{1};                //!< run number (ns-3 RngSeedManager::SetRun)
    uint32_t spines{8};              //!< spines
    uint32_t leaves{10};             //!< leaves
    uint32_t hostsPerLeaf{24};       //!< hosts per leaf
    DataRate linkRate{"40Gbps"};     //!< every link's rate
    Time linkDelay{MicroSeconds(5)}; //!< every link's delay
    SwitchQueueSettings sw;          //!< buffer, PFC, ECN and queue settings
    double cnmWindowRtts{3};         //!< DCON T in RTTs
    double incastShare{0};           //!< share of the load sent as Poisson incast events
    uint32_t incastSenders{16};      //!< senders per incast event
    uint64_t incastBytes{64000};     //!< bytes per incast sender
    std::string flowFile;            //!< replay this HPCC flow file instead of generating
    bool spreading{false};           //!< measure congestion spreading (victims.csv, ...)

    /**
     * \brief Set the fabric size from a scale name: "full" (8 x 10 x 24, the paper's), "small"
     * (4 spines x 4 leaves x 12 hosts, 48 hosts, same 3:1 oversubscription) or "tiny" (2 x 4 x
     * 4). Throws std::invalid_argument for any other name.
     * \param scale the name
     */
    void SetScale(const std::string& scale);
};

/**
 * \ingroup dcon-experiments
 * \brief Builds and runs the large-scale leaf-spine experiment: Poisson flows with a
 * datacenter flow-size CDF between random host pairs, run until every flow has completed (or
 * maxTime).
 *
 * Load conversion (documented in doc/usage/workloads.rst): with N hosts on L leaves, S spines, host
 * rate R_h, fabric rate R_f and uniform random destinations, a fraction f = sum_l h_l (N - h_l) /
 * (N (N - 1)) of the bytes leaves its leaf, so core load = host load x N R_h f / (L S R_f)
 * (LeafSpineHelper::GetCoreLoadPerHostLoad). For the paper's fabric (24 hosts at 40 Gb/s against 8
 * uplinks at 40 Gb/s per leaf, 3:1 oversubscribed), core load 0.8 is host load 0.295.
 */
class DconLargeScale
{
public:
    /**
     * \brief Build the fabric and the flows (throws std::invalid_argument on bad settings).
     * \param config the settings
     */
    explicit DconLargeScale(const DconLargeScaleConfig& config);

    /**
     * \brief Run until every flow has completed or maxTime.
     * \return wall-clock seconds of the run
     */
    double Run();

    /**
     * \brief Write flows.csv, pfc.csv, drops.csv, buffer.csv, flows.txt (the flows in HPCC
     * format), fct.txt
     * (the completed flows in the HPCC simulator's FCT format),
     * run.json (the settings) and, last, summary.json into a directory.
     * \param dir the directory (created if needed)
     * \param wallSeconds wall time to record
     * \param runRecord JSON members written first in run.json (ProgramFrame::GetRunJsonMembers:
     * the command line, the ns-3 version, the seeds applied, the options given); "" for none
     */
    void Write(const std::string& dir, double wallSeconds, const std::string& runRecord = "") const;

    /**
     * \brief Host-link load the given load stands for.
     * \return host load in (0, 1] (0 when the flows come from a flow file)
     */
    double GetHostLoad() const;

    /**
     * \brief The flows of the run.
     * \return flows in start order
     */
    const std::vector<FlowSpec>& GetFlowSpecs() const;

    /**
     * \brief The monitor.
     * \return the monitor
     */
    Ptr<FabricMonitor> GetMonitor() const;

    /**
     * \brief The fabric.
     * \return the fabric
     */
    Ptr<RdmaFabric> GetFabric() const;

    /**
     * \brief The Q_CNM in use (DCON queues only, else 0).
     * \return Q_CNM
     */
    QueueSize GetQcnm() const;

    /**
     * \brief The arrival window the statistics use: the generator's [arrivalStart, arrivalStart
     * + duration), or with a flow file [first start, last start + 1 ns).
     * \return (start, duration)
     */
    std::pair<Time, Time> GetArrivalWindow() const;

private:
    DconLargeScaleConfig m_config;
    LeafSpineHelper m_topo;
    double m_hostLoad{0};
    QueueSize m_qcnm;
    Time m_arrivalStart;    //!< see GetArrivalWindow
    Time m_arrivalDuration; //!< see GetArrivalWindow
    std::string m_cdfPath;
    std::vector<FlowSpec> m_specs;
    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    Ptr<FabricMonitor> m_monitor;
};

} // namespace ns3

#endif /* DCON_LARGE_SCALE_H */
