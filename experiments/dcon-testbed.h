/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_TESTBED_H
#define DCON_TESTBED_H

#include "ns3/data-rate.h"
#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "switch-queue-settings.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief Settings of the DCON paper's testbed burst scenario (paper Fig. 1, 2, 6).
 */
struct DconTestbedConfig
{
    std::string cc{"dcqcn"};          //!< congestion control (short or TypeId name)
    std::string dcqcnPreset{"paper"}; //!< DCQCN parameter set ("paper" or "cx4")
    /// Attribute defaults given by the user ("ns3::Type::Attr=value",
    /// ProgramFrame::GetAttributeArguments):
    /// applied after the preset, so they win over it.
    std::vector<std::string> attributeArgs;
    /// A parallel run's partition: a file of "node rank" lines (RankPartition::Read); empty:
    /// RankPartition::Balanced.
    std::string partitionFile;
    Time longFlowStart{Seconds(0)};    //!< when f0 and f1 start
    uint64_t longFlowSize{1000000000}; //!< f0/f1 bytes (long enough to outlast the run)
    /// f0 and f1 start at this rate (0 = line rate): the fair share, 20 Gb/s, so that both are
    /// at it before the burst whatever the scheme (the paper: "f0 and f1 have converged to the
    /// fair rate of 20 Gbps before the burst")
    DataRate longFlowStartRate{"20Gbps"};
    Time burstStart{MilliSeconds(30)};     //!< first burst flow
    uint32_t burstSenders{14};             //!< H2 .. H(1+burstSenders)
    uint32_t burstFlowsPerHost{35};        //!< burst flows per sender
    uint64_t burstFlowSize{64000};         //!< bytes per burst flow
    Time burstInterval{MicroSeconds(15)};  //!< spacing of one sender's flows (Fig. 7's default)
    Time stopTime{MilliSeconds(60)};       //!< end of the run (a limit if runToCompletion)
    bool runToCompletion{false};           //!< stop when every flow has completed
    Time sampleInterval{MicroSeconds(20)}; //!< queue/throughput sampling
    /// Buffer, PFC, ECN and queue settings: SwitchQueueSettings' defaults (the paper's testbed
    /// switches) with DCON's Q_ECN at 200 KB: Section 6.1.1 runs DCON "with the parameters of
    /// Section 3.1", whose only ECN value is "ECN marking threshold 200 KB" (the large-scale
    /// scenario keeps 5 KB: Fig. 11's fixed Q_CNM of 128 KB needs Q_ECN below it).
    SwitchQueueSettings sw{TestbedSwitchSettings()};

    /**
     * \brief The testbed's switch settings (SwitchQueueSettings with qecn 200 KB).
     * \return them
     */
    static SwitchQueueSettings TestbedSwitchSettings();
    double cnmWindowRtts{3};  //!< DCON T in RTTs
    bool burstViaS0{false};   //!< pin the burst through S0 (default: per-flow ECMP)
    bool burstStagger{false}; //!< offset sender k by k x burstInterval / senders
    bool pcap{false};         //!< write pcap of L2's ports
    bool spreading{false};    //!< measure congestion spreading (victims.csv, ...)
    std::string outdir;       //!< where pcap files go (if pcap)
};

/**
 * \ingroup dcon-experiments
 * \brief One expected fact of the paper's Fig. 2 or 6 and whether a run shows it. A fact that
 * compares a reading that was not measured (an empty window, no sample in it) is not judged:
 * neither held nor failed.
 */
struct DconTestbedFact
{
    std::string name;     //!< what the paper shows, e.g. "L2 pauses S1"
    bool holds;           //!< whether the run shows it: value relation threshold (false when
                          //!< not judged)
    Reading value;        //!< the reading compared, e.g. f0's Gb/s during the burst
    std::string relation; //!< how: "<", ">", ">=" or "=="
    Reading threshold;    //!< what it is compared with, e.g. half of f0's Gb/s before it
    bool judged{true};    //!< false: value or threshold was not measured
    std::string reason;   //!< why it was not judged (empty when judged)
};

/**
 * \ingroup dcon-experiments
 * \brief What a testbed run shows, in the terms of the paper's Fig. 2 and 6. The throughput
 * readings are over windows of the run (DconTestbed::GetFacts) and are "not measured" when
 * their window is empty or holds no throughput sample.
 */
struct DconTestbedFacts
{
    uint64_t pausesL2S1{0}; //!< PAUSE frames L2 sent to S1
    uint64_t pausesS1L0{0}; //!< PAUSE frames S1 sent to L0
    uint64_t pausesS1L1{0}; //!< PAUSE frames S1 sent to L1
    Reading f0Before;       //!< f0 Gb/s in the 2 ms before the burst (from t = 0 at the earliest)
    Reading f0During;       //!< f0 Gb/s during the burst (its start to its last flow's end)
    Reading f0After;        //!< f0 Gb/s in the last 3 ms of the run after the burst
    Reading f1Before;       //!< f1 Gb/s in the 2 ms before the burst
    Reading f1During;       //!< f1 Gb/s during the burst
    Time burstEnd;          //!< when the last burst flow completed (the stop time if one did not)
    bool burst{true};       //!< the run has burst flows (false: burstEnd is not measured)
    uint64_t cnmsF0{0};     //!< CNMs sent to f0's sender for f0 (DCON queues; 0 otherwise)
    uint64_t cnmsF1{0};     //!< CNMs sent for f1
    uint64_t cnmsBurst{0};  //!< CNMs sent for burst flows
    uint64_t cnmsAppliedF1{0}; //!< of f1's, applied by its sender
    /// Congestion spreading (DconTestbedConfig::spreading; negative when not measured): the
    /// time f0 and f1 were held by PFC pauses as victims (congestion they do not feed) and as
    /// culprits, in seconds
    double f0VictimS{-1};
    double f0CulpritS{-1}; //!< see f0VictimS
    double f1VictimS{-1};  //!< see f0VictimS
    double f1CulpritS{-1}; //!< see f0VictimS
    uint32_t maxDepth{0};  //!< deepest PAUSE of any pause tree (spreading only)

    /**
     * \brief The paper's Fig. 2 (DCQCN): L2 pauses S1, S1 pauses L0 and L1, f0 and f1 fall
     * below half of their pre-burst throughput during the burst, f0 gets back above half of it
     * at the end of the run.
     * \return the facts, in this order
     */
    std::vector<DconTestbedFact> CongestionSpreadingFacts() const;

    /**
     * \brief The paper's Fig. 6 (DCON): L2 never pauses S1; f1 is throttled (below half of its
     * pre-burst throughput during the burst); f0 is less hurt (keeps at least half of it: "f0
     * sees no head-of-line blocking").
     * \return the facts, in this order
     */
    std::vector<DconTestbedFact> DirectNotificationFacts() const;

    /**
     * \brief The facts the paper shows for a congestion control: Fig. 2's for DCQCN, Fig. 6's
     * for DCON, none for the others (the paper shows no testbed run of them).
     * \param cc the congestion control (short or TypeId name)
     * \return the facts
     */
    std::vector<DconTestbedFact> ExpectedFacts(const std::string& cc) const;

    /**
     * \brief Write facts.json: the readings above, every fact of Fig. 2 and Fig. 6 with
     * whether it holds, its value, relation and threshold, and whether the paper shows it for
     * \p cc ("expected"), and the verdict over the expected facts ("PASS", "FAIL", or "none"
     * when the paper shows no testbed run of \p cc), so that the scripts
     * (testbed_readings.py, plot_testbed.py) read the facts instead of computing them again.
     * \param path the file
     * \param cc the congestion control of the run
     */
    void WriteJson(const std::string& path, const std::string& cc) const;

    /**
     * \brief Whether every fact of ExpectedFacts(cc) holds.
     * \param cc the congestion control
     * \return true if all hold (or there are none); false if one fails or is not judged
     */
    bool ShowsPaperFacts(const std::string& cc) const;

    /**
     * \brief The verdict over ExpectedFacts(cc): "PASS" (every fact holds), "FAIL" (one
     * fails), "NOT JUDGED" (none fails, but one depends on a reading that was not measured),
     * "none" (the paper shows no testbed run of \p cc).
     * \param cc the congestion control
     * \return the verdict
     */
    std::string Verdict(const std::string& cc) const;
};

/**
 * \ingroup dcon-experiments
 * \brief Builds and runs the DCON paper's testbed scenario.
 *
 * Topology (every link 40 Gb/s, 5 us):
 * \verbatim
 *                 S0            S1          (every leaf links to every spine)
 *           L0          L1          L2
 *   H0 H2 .. H14   H1 H3 .. H15    R0  R1
 * \endverbatim
 * The paper does not give the host placement; its text fixes these facts, which this placement
 * reproduces: f0 = H0 -> R0 and f1 = H1 -> R1 both enter L2 through its port from S1 (P1/L2),
 * and when L2 pauses S1, S1 pauses both L0 and L1, so f0 and f1 come from different leaves.
 * So H0 and the even senders sit on L0, H1 and the odd ones on L1; f0 and f1 are pinned through
 * S1; the burst (H2..H15, each burstFlowsPerHost flows of burstFlowSize to R1, burstInterval
 * apart) is spread over S0 and S1 by per-flow ECMP, or pinned through S0 with burstViaS0 (then
 * P1/L2 carries no congested flow but f1, the paper's "identify the congested flow f1 passing
 * P1"; see doc/validation/testbed.rst for what each placement shows). The burst
 * congests L2's port to R1 (P2/L2) together with f1. Paper port names: P2/L2 = L2's port to R1,
 * P1/L2 = L2's port from S1, P0/S1 = S1's port to L2.
 */
class DconTestbed
{
public:
    /**
     * \brief Build the scenario (throws std::invalid_argument on bad settings).
     * \param config the settings
     */
    explicit DconTestbed(const DconTestbedConfig& config);

    /**
     * \brief Run until the stop time.
     * \return wall-clock seconds the run took
     */
    double Run();

    /**
     * \brief The monitor with queue, PFC and throughput records.
     * \return the monitor
     */
    Ptr<FabricMonitor> GetMonitor() const;

    /**
     * \brief The fabric.
     * \return the fabric
     */
    Ptr<RdmaFabric> GetFabric() const;

    /**
     * \brief Average throughput of a flow over [from, to) from the samples
     * (FabricMonitor::MeasureThroughput).
     * \param flowId flow (0 = f0, 1 = f1)
     * \param from start
     * \param to end
     * \return Gb/s, or not measured (an empty window, no sample in it)
     */
    Reading AverageThroughput(uint32_t flowId, Time from, Time to) const;

    /**
     * \brief The facts of the run (after Run()). The windows: before the burst [burstStart - 2
     * ms, burstStart) (from 0 at the earliest), during it [burstStart, the last burst flow's
     * completion or the stop time), after it the last 3 ms of the run that follow the burst; a
     * window that is empty (no burst, a burst at 0, a burst that lasts to the stop time) or
     * holds no throughput sample gives a reading that is not measured, with the reason.
     * \return the facts
     */
    DconTestbedFacts GetFacts() const;

    /**
     * \brief Number of flows of the scenario (f0, f1 and the burst).
     * \return the count
     */
    uint32_t GetFlowCount() const;

    /**
     * \brief The Q_CNM in use (DCON queues only).
     * \return Q_CNM
     */
    QueueSize GetQcnm() const;

    /// Node index of a sender H\<i\>.
    uint32_t H(uint32_t i) const;
    /// Node index of a receiver R\<i\>.
    uint32_t R(uint32_t i) const;
    /// Node index of leaf L\<i\>.
    uint32_t L(uint32_t i) const;
    /// Node index of spine S\<i\>.
    uint32_t S(uint32_t i) const;

private:
    DconTestbedConfig m_config;
    QueueSize m_qcnm;
    LeafSpineHelper m_topo;
    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    Ptr<FabricMonitor> m_monitor;
};

} // namespace ns3

#endif /* DCON_TESTBED_H */
