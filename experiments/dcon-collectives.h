/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_COLLECTIVES_H
#define DCON_COLLECTIVES_H

#include "ns3/collective-workload.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-spec.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "switch-queue-settings.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief Settings of the collectives scenario: training jobs (CollectiveJob) on a leaf-spine,
 * optionally with Poisson background flows.
 *
 * Defaults: 8 spines x 8 leaves x 8 hosts (64 hosts, non-blocking), 100 Gb/s and 1 us on every
 * link, the switch settings of the paper's scenarios (SwitchQueueSettings).
 */
struct DconCollectivesConfig
{
    std::string cc{"dcqcn"};          //!< congestion control (short or TypeId name)
    std::string dcqcnPreset{"paper"}; //!< DCQCN's (and DCON's) parameter set
    /// Attribute defaults given by the user ("ns3::Type::Attr=value"), applied after the preset
    std::vector<std::string> attributeArgs;
    std::string partitionFile; //!< a parallel run's partition ("node rank" lines); empty: balanced
    std::vector<CollectiveJob> jobs; //!< the jobs (at least one)
    uint32_t spines{8};              //!< spines
    uint32_t leaves{8};              //!< leaves
    uint32_t hostsPerLeaf{8};        //!< hosts per leaf
    DataRate linkRate{"100Gbps"};    //!< every link's rate
    Time linkDelay{MicroSeconds(1)}; //!< every link's delay
    uint32_t mtu{1000};              //!< payload bytes per packet (RdmaNic::Mtu)
    SwitchQueueSettings sw;          //!< buffer, PFC, ECN and queue settings
    double cnmWindowRtts{3};         //!< DCON T in RTTs
    std::string background;          //!< Poisson background: a CDF name or file ("" none)
    std::string dataDir;             //!< where built-in CDFs live (empty: the module's data/)
    double backgroundLoad{0.5};      //!< its load (see backgroundLoadType)
    std::string backgroundLoadType{"core"}; //!< "core" (leaf uplinks) or "host"
    /// Background arrival window from time 0; 0: four times the jobs' ideal span
    Time backgroundDuration{Seconds(0)};
    uint32_t seed{1};                       //!< run number (RngSeedManager::SetRun)
    Time maxTime{Seconds(1)};               //!< safety stop
    Time drain{Seconds(0)};                 //!< run on after the last collective message's ACK
    Time sampleInterval{MicroSeconds(100)}; //!< buffer.csv sampling
    bool spreading{false};                  //!< congestion spreading (victims.csv, jobs.csv)
    bool steps{true};                       //!< write steps.csv (a line per message)
};

/**
 * \ingroup dcon-experiments
 * \brief Builds and runs collective jobs on a leaf-spine (CollectiveWorkload), with optional
 * Poisson background flows between all hosts, until every job's last message is acknowledged
 * (or maxTime); background flows still running then are left unfinished (summary.json counts
 * them).
 */
class DconCollectives
{
public:
    /**
     * \brief Build the fabric, the jobs and the background (throws std::invalid_argument on bad
     * settings, naming them).
     * \param config the settings
     */
    explicit DconCollectives(const DconCollectivesConfig& config);

    /**
     * \brief Run until the jobs are done or maxTime.
     * \return wall-clock seconds of the run
     */
    double Run();

    /**
     * \brief Write the outputs: the monitor's files (flows.csv, pfc.csv, ..., summary.json
     * last), the workload's (collectives.csv, steps.csv, ranks.csv, jobs.csv), jobs.txt (the
     * jobs as a job file), background.txt (the background flows in HPCC format, when there is
     * a background) and run.json, into \p dir. Only rank 0 writes, in a parallel run.
     * \param dir the directory (created if needed)
     * \param wallSeconds wall time to record
     * \param runRecord JSON members written first in run.json (ProgramFrame::GetRunJsonMembers)
     */
    void Write(const std::string& dir, double wallSeconds, const std::string& runRecord = "") const;

    /// \return the files Write writes (for ProgramFrame::PrepareOutputFolder)
    static std::vector<std::string> GetOutputKinds();

    /// \return the workload
    Ptr<CollectiveWorkload> GetWorkload() const;
    /// \return the monitor
    Ptr<FabricMonitor> GetMonitor() const;
    /// \return the fabric
    Ptr<RdmaFabric> GetFabric() const;
    /// \return the background flows
    const std::vector<FlowSpec>& GetBackground() const;
    /// \return the host-link load of the background (0 without one)
    double GetBackgroundHostLoad() const;

    /**
     * \brief A job as a line of a job file (ReadCollectiveJobs reads it back to the same job).
     * \param job the job
     * \return the line
     */
    static std::string ToJobLine(const CollectiveJob& job);

private:
    DconCollectivesConfig m_config;
    LeafSpineHelper m_topo;
    double m_hostLoad{0};
    std::string m_cdfPath;
    std::vector<FlowSpec> m_background;
    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    Ptr<CollectiveWorkload> m_workload;
    Ptr<FabricMonitor> m_monitor;
};

} // namespace ns3

#endif /* DCON_COLLECTIVES_H */
