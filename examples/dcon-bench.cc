/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Speed benchmark on the HPCC simulator's inputs (data/bench/README.md).
//
// Topology: the HPCC simulator's 320-host fat-tree (mix/fat.txt): 20 ToR, 20 aggregation and
// 16 core switches, host links 100 Gb/s, switch links 400 Gb/s, 1 us each.
//
//        core  C0 ... C15                (400 Gb/s)
//        agg   A0 ... A19                (400 Gb/s)
//        ToR   T0 ... T19
//        hosts 16 per ToR, 320 in all    (100 Gb/s)
//
// Traffic: WebSearch flow sizes, 30% load per host, Poisson arrivals from t = 2.0 s
// (websearch-30pct-10ms.flows: 6,643 flows; websearch-30pct-2ms.flows: 1,131 flows).
//
// Settings of the reference runs (DCQCN, "CX4-style"): 1000-byte payload, an ACK per packet at
// high priority, 32 MiB switch buffer (the HPCC simulator's buffer_size x 1024 x 1024), dynamic
// PFC threshold with alpha 1/8, RED-ECN marked at dequeue with Kmin/Kmax 400/1600 KB on 100 Gb/s
// ports and 1600/6400 KB on 400 Gb/s ports (4 and 16 KB per Gb/s of the port), Pmax 0.2, DCQCN
// "cx4" preset at the host line rate (R_AI 20 Mb/s, R_HAI 200 Mb/s at 100 Gb/s) with a 1 Gb/s
// minimum rate, no window. Another --cc gets the switch queue its registration declares
// (RdmaCcRegistry, `--list-cc`); --cc=dctcp: the HPCC simulator's DCTCP settings (run.py), step
// marking at 3 KB per Gb/s of the port (300 KB at 100 Gb/s, 1,200 KB at 400 Gb/s), g = 1/16.
// --cc=hpcc: the HPCC simulator's HPCC settings (run.py, cc "hp" at 100 Gb/s): a FIFO without
// ECN, eta 0.95, mi 0 (MaxStage 0: every once-per-RTT update is multiplicative), W_AI from
// 40 Mb/s (10 Mb/s per 25 Gb/s of the host line), reaction to every ACK (FastReact), one T for
// every flow, the largest base RTT of the fabric (GLOBAL_T 1: the attribute HPCC's registration
// declares as baseRttAttribute), the window W = rate x T (HAS_WIN, VAR_WIN) and the same 1 Gb/s
// minimum rate (--minRate sets the attribute an algorithm declares as rateFloorAttribute).
//
// The run ends when the last flow completes (a safety stop 1 s after the last flow start).
// Printed: flows completed / total, time of the last completion after the first flow start,
// wall time of the simulation, events and events per wall-second, frames sent on links (all
// devices of all links) and data packets on links per wall-second, peak memory (ru_maxrss),
// PFC pause frames, drops. --outdir also writes fct.txt in the HPCC simulator's FCT format and
// the monitor's CSV files (flows.csv, pfc.csv,
// drops.csv, summary.json), flows.txt and run.json (the arrival window: every flow of the file),
// so that scripts/fct_stats.py reads a bench run like a dcon-large-scale run.
//
// Expected (the HPCC simulator's reference run of the 10 ms file): all 6,643 flows complete,
// the last about 17.9 ms after 2.0 s, and no PFC pause occurs. --validate checks completion,
// no pause and no drop, and exits 1 if one does not hold.
//
// Usage (from the repository root; scripts/bench.sh builds and runs it):
//   build/examples/dcon-bench --topo=data/bench/fat-tree-320.topo
//       --flows=data/bench/websearch-30pct-10ms.flows
// Profiling: --stopAt=2.0005s stops early. The event queue is ns-3's PriorityQueueScheduler
// (RdmaFabricHelper::UseFastScheduler); --SchedulerType=ns3::MapScheduler (or Heap, Calendar)
// changes it without changing any result.

#include "ns3/atomic-output-file.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-monitor.h"
#include "ns3/hpcc-format.h"
#include "ns3/log.h"
#include "ns3/parallel-options.h"
#include "ns3/parallel-run.h"
#include "ns3/program-frame.h"
#include "ns3/queue-size.h"
#include "ns3/rank-partition.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/value-text.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("DconBench");

namespace
{

/// The parameter set of the HPCC simulator's settings (RdmaCcEntry::parameterSets).
constexpr const char* REFERENCE_SET = "hpcc-sim";

/**
 * \brief Whether a type has an attribute (its own or inherited).
 * \param type TypeId name
 * \param attribute attribute name
 * \return true if it has
 */
bool
HasAttribute(const std::string& type, const std::string& attribute)
{
    TypeId owner;
    return FindAttributeOwner(TypeId::LookupByName(type), attribute, &owner);
}

/// Payload bytes per data packet (the HPCC simulator's 1000).
constexpr uint32_t PAYLOAD = 1000;

/// What the run produced.
struct BenchResult
{
    uint32_t flowsTotal{0};        //!< flows in the flow file
    uint32_t flowsCompleted{0};    //!< flows whose last byte was acknowledged
    Time firstStart;               //!< earliest flow start
    Time lastCompletion;           //!< latest completion (absolute)
    double setupSeconds{0};        //!< wall time to read the files and build the fabric
    double runSeconds{0};          //!< wall time of Simulator::Run
    double runCpuSeconds{0};       //!< CPU time (user + system) of Simulator::Run
    uint64_t events{0};            //!< events executed
    uint64_t linkFrames{0};        //!< frames sent by all devices of all links
    uint64_t linkDataPackets{0};   //!< data packets sent on links (NICs and switch ports)
    uint64_t dataPacketsSent{0};   //!< data packets sent by NICs (incl. retransmissions)
    uint64_t dataPacketsNeeded{0}; //!< data packets of the flows without retransmission
    uint64_t retransmitted{0};     //!< data packets sent again
    uint64_t timeouts{0};          //!< retransmission timeouts
    uint64_t naks{0};              //!< NAKs sent
    uint64_t cnps{0};              //!< CNPs sent
    uint64_t pauseFrames{0};       //!< PFC frames with a non-zero time
    uint64_t resumeFrames{0};      //!< PFC frames with zero time
    uint64_t drops{0};             //!< packets dropped by switches (MMU and forwarding)
    std::map<std::string, uint64_t> dropsByReason; //!< drops per reason
    uint64_t maxBufferBytes{0};                    //!< largest switch buffer occupancy seen
    long maxRssKb{0};                              //!< peak resident set size, KiB
};

/**
 * \brief Whether a run meets the reference facts: every flow completed, no PFC pause, no drop.
 * \param r the result
 * \param why filled with the first fact that does not hold
 * \return true if all hold
 */
bool
MeetsReference(const BenchResult& r, std::string& why)
{
    if (r.flowsCompleted != r.flowsTotal)
    {
        why = std::to_string(r.flowsTotal - r.flowsCompleted) + " flows did not complete";
        return false;
    }
    if (r.pauseFrames != 0)
    {
        why = std::to_string(r.pauseFrames) + " PFC pause frames were sent";
        return false;
    }
    if (r.drops != 0)
    {
        why = std::to_string(r.drops) + " packets were dropped";
        return false;
    }
    why.clear();
    return true;
}

/**
 * \brief The line rate of the hosts (all host links must have the same rate).
 * \param topo the topology
 * \return the rate
 */
DataRate
HostLineRate(const TopologySpec& topo)
{
    uint64_t rate = 0;
    for (const auto& l : topo.links)
    {
        for (uint32_t n : {l.a, l.b})
        {
            if (topo.isSwitch.at(n))
            {
                continue;
            }
            if (rate != 0 && rate != l.rate.GetBitRate())
            {
                throw std::invalid_argument("host links have different rates ("
                                            + std::to_string(rate) + " and "
                                            + std::to_string(l.rate.GetBitRate())
                                            + " bit/s): the DCQCN preset needs one line rate");
            }
            rate = l.rate.GetBitRate();
        }
    }
    if (rate == 0)
    {
        throw std::invalid_argument("topology has no host link");
    }
    return DataRate(rate);
}

/**
 * \brief ECN threshold for a port rate: \p bytesPerGbps bytes per Gb/s of the port.
 * \param rate port rate
 * \param bytesPerGbps bytes per Gb/s (4000 for Kmin, 16000 for Kmax)
 * \return the threshold in bytes
 */
QueueSize
EcnThreshold(DataRate rate, uint64_t bytesPerGbps)
{
    // bit/s / 1e9 x bytesPerGbps, in an order that stays exact for rates in kb/s.
    uint64_t bytes = rate.GetBitRate() / 1000 * bytesPerGbps / 1000000;
    if (bytes == 0 || bytes > UINT32_MAX)
    {
        throw std::invalid_argument("no ECN threshold for a port of "
                                    + std::to_string(rate.GetBitRate()) + " bit/s");
    }
    return QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(bytes));
}

/**
 * \brief CPU time (user + system) used by the process so far.
 * \return seconds
 */
double
CpuSeconds()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
           + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/// Records completions (count and the latest time) without keeping per-flow records.
class CompletionCounter
{
public:
    /**
     * \brief A flow completed.
     * \param rec its record
     */
    void
    Completed(const RdmaFlowRecord& rec)
    {
        m_count++;
        m_last = std::max(m_last, rec.end);
    }

    uint32_t m_count{0}; //!< completed flows
    Time m_last;         //!< latest completion
};

/**
 * \brief Print the results.
 * \param r the result
 */
void
Print(const BenchResult& r)
{
    auto perSec = [&r](double n)
    {
        return r.runSeconds > 0 ? n / r.runSeconds : 0.0;
    };
    std::cout << std::fixed;
    std::cout << "flows completed        " << r.flowsCompleted << " / " << r.flowsTotal << "\n";
    if (r.flowsCompleted == 0)
    {
        std::cout << "last completion        none (no flow completed)\n";
    }
    else
    {
        std::cout << "last completion        " << std::setprecision(6)
                  << (r.lastCompletion - r.firstStart).GetSeconds() * 1e3 << " ms after "
                  << r.firstStart.GetSeconds() << " s (t = " << std::setprecision(9)
                  << r.lastCompletion.GetSeconds() << " s)\n";
    }
    std::cout << std::setprecision(3);
    std::cout << "setup wall time        " << r.setupSeconds << " s\n";
    std::cout << "run wall time          " << r.runSeconds << " s (CPU " << r.runCpuSeconds
              << " s)\n";
    std::cout << "events                 " << r.events << " (" << std::setprecision(3)
              << perSec(r.events) / 1e6 << " M/s)\n";
    std::cout << "link frames            " << r.linkFrames << " (" << perSec(r.linkFrames) / 1e6
              << " M/s)\n";
    std::cout << "link data packets      " << r.linkDataPackets << " ("
              << perSec(r.linkDataPackets) / 1e6 << " M/s, " << std::setprecision(2)
              << (r.dataPacketsSent ? static_cast<double>(r.linkDataPackets)
                                          / static_cast<double>(r.dataPacketsSent)
                                    : 0.0)
              << " links per packet)\n"
              << std::setprecision(3);
    std::cout << "link control frames    "
              << r.linkFrames - r.linkDataPackets - r.pauseFrames - r.resumeFrames
              << " (ACKs, NAKs, CNPs)\n";
    std::cout << "NIC data packets       " << r.dataPacketsSent << " (flows need "
              << r.dataPacketsNeeded << ", retransmitted " << r.retransmitted << ", timeouts "
              << r.timeouts << ", NAKs " << r.naks << ")\n";
    std::cout << "CNPs sent              " << r.cnps << "\n";
    std::cout << "PFC pause frames       " << r.pauseFrames << " (resume frames " << r.resumeFrames
              << ")\n";
    std::cout << "drops                  " << r.drops;
    for (const auto& [reason, n] : r.dropsByReason)
    {
        std::cout << " " << reason << "=" << n;
    }
    std::cout << "\n";
    std::cout << "max switch buffer      " << r.maxBufferBytes << " B\n";
    std::cout << "peak memory (maxrss)   " << std::setprecision(1) << r.maxRssKb / 1024.0
              << " MiB\n";
}

/**
 * \brief Write run.json and flows.txt next to the monitor's files, so that
 * scripts/fct_stats.py takes a bench run as it takes a dcon-large-scale run: the arrival window
 * covers every flow of the file (from the first start to just after the last), without warm-up
 * or cool-down.
 * \param dir the output folder
 * \param frame the program's command line (its record comes first: ProgramFrame)
 * \param cc the --cc name
 * \param topoPath the topology file
 * \param flowsPath the flow file
 * \param specs the flows, as read
 */
void
WriteRunFiles(const std::string& dir,
              const ProgramFrame& frame,
              const std::string& cc,
              const std::string& topoPath,
              const std::string& flowsPath,
              const std::vector<FlowSpec>& specs)
{
    Time first = Time::Max();
    Time last = Time(0);
    for (const FlowSpec& f : specs)
    {
        first = std::min(first, f.start);
        last = std::max(last, f.start);
    }
    {
        AtomicOutputFile file(std::filesystem::path(dir) / "flows.txt");
        WriteFlowFile(file.Stream(), specs);
        file.Commit();
    }
    AtomicOutputFile file(std::filesystem::path(dir) / "run.json");
    std::ofstream& out = file.Stream();
    out.unsetf(std::ios::floatfield);
    out << std::setprecision(12);
    // [first, last + 1 ns): the last flow's start is inside the half-open window.
    out << "{\n"
        << frame.GetRunJsonMembers() << ",\n  \"cc\": " << JsonString(cc)
        << ",\n  \"topology\": " << JsonString(topoPath)
        << ",\n  \"workload\": " << JsonString(flowsPath)
        << ",\n  \"arrival_start_s\": " << first.GetSeconds()
        << ",\n  \"arrival_duration_s\": " << (last - first + NanoSeconds(1)).GetSeconds()
        << ",\n  \"warmup_s\": 0,\n  \"cooldown_s\": 0\n}\n";
    file.Commit();
}

} // namespace

int
main(int argc, char* argv[])
{
    ParallelRun::Init(&argc, &argv); // MPI builds: mpirun -np N runs one simulation on N ranks
    Time::SetResolution(Time::PS);
    RdmaFabricHelper::UseFastScheduler(); // before Parse: --SchedulerType overrides
    ProgramFrame frame("dcon-bench", __FILE__);
    BenchResult r;
    bool validate = false;
    bool spreading = false;
    try
    {
        std::string topoPath;
        ParallelOptions par;
        std::string flowsPath;
        std::string outdir;
        std::string cc = "dcqcn";
        QueueSize bufferSize("32MiB");
        double alpha = 0.125;
        double pmax = 0.2;
        DataRate minRate("1Gb/s");
        Time safety = Seconds(1);
        Time stopAt;
        frame.AddString("topo", "HPCC-format topology file (required)", topoPath);
        frame.AddString("flows", "HPCC-format flow file (required)", flowsPath);
        frame.AddCcOptions(cc,
                           " (RED-ECN: Kmin/Kmax of the reference; DCON's queue: Q_ECN = Kmin, "
                           "Q_CNM = Kmax; then the algorithm's own queue attributes)");
        frame.AddString("outdir",
                        "If set, write the monitor's CSV files, run.json and summary.json here",
                        outdir);
        frame.AddFlag("spreading",
                      "Measure congestion spreading (needs --outdir): victims.csv, "
                      "pause-trees.csv, pause-events.csv and summary.json's spreading "
                      "(sequential runs)",
                      spreading);
        frame.AddQueueSize(
            "buffer", "Switch buffer size (bytes: 32MiB = 33,554,432 B)", bufferSize, 1);
        frame.AddDouble(
            "alpha", "Dynamic PFC threshold factor, in (0, 1000]", alpha, 0, 1000, true);
        frame.AddDouble("pmax", "ECN marking probability at Kmax, in [0, 1]", pmax, 0, 1);
        std::vector<std::string> pmaxTypes;
        for (const RdmaQueueEntry& q : RdmaQueueRegistry::GetAll())
        {
            if (!q.GetAttribute("pmax").empty())
            {
                pmaxTypes.push_back(q.typeName);
            }
        }
        frame.SetOptionTypes("pmax", pmaxTypes);
        frame.AddDataRate("minRate",
                          "Rate floor of the congestion control: the attribute its registration "
                          "declares as its rate floor (RdmaCcEntry::rateFloorAttribute, e.g. "
                          "MinRate; the reference parameter set's is 1 Gb/s), > 0",
                          minRate,
                          DataRate(1));
        // The algorithms that declare a rate floor.
        std::vector<std::string> floorTypes;
        for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
        {
            if (!e.rateFloorAttribute.empty())
            {
                floorTypes.push_back(e.typeId().GetName());
            }
        }
        frame.SetOptionTypes("minRate", floorTypes);
        frame.AddTime("safetyStop",
                      "Stop this long after the last flow start at the latest (>= 0)",
                      safety,
                      Time(0));
        frame.AddTime("stopAt",
                      "If non-zero, stop at this simulation time even if flows remain (profiling)",
                      stopAt,
                      Time(0));
        frame.AddFlag(
            "validate", "Exit 1 unless every flow completed without PFC pause or drop", validate);
        par.AddTo(frame, "ToR", true);
        frame.SetParallel(true);
        // What the program sets on its factories: from an option, or the reference's settings.
        for (const RdmaCcEntry& e : RdmaCcRegistry::GetAll())
        {
            for (const auto& [name, value] : e.GetQueueAttributes(DataRate("100Gbps")))
            {
                frame.SetOwned(e.queueDisc + "::" + name,
                               "--cc=" + e.name + " sets it per port rate (its registration)");
            }
        }
        const std::string perRate = "the reference's settings, per port rate (4 and 16 KB per "
                                    "Gb/s of the port)";
        frame.SetOwned("ns3::RdmaNic::CongestionControl", "use --cc");
        frame.SetOwned("ns3::SwitchMmu::BufferSize", "use --buffer");
        frame.SetOwned("ns3::SwitchMmu::Alpha", "use --alpha");
        frame.SetOwned("ns3::SwitchMmu::Headroom",
                       "each switch's PFC headroom is sized from the delay and rate of its links");
        // The queue attributes the reference's per-rate settings feed (each queue discipline's
        // registry entry names its thresholds and its --pmax attribute).
        for (const RdmaQueueEntry& q : RdmaQueueRegistry::GetAll())
        {
            if (!q.lowThreshold.empty())
            {
                frame.SetOwned(q.typeName + "::" + q.lowThreshold,
                               "the lower marking threshold: " + perRate);
                frame.SetOwned(q.typeName + "::" + q.highThreshold,
                               "the upper marking threshold: " + perRate);
            }
            if (!q.GetAttribute("pmax").empty())
            {
                frame.SetOwned(q.typeName + "::" + q.GetAttribute("pmax"), "use --pmax");
            }
            if (HasAttribute(q.typeName, "MarkOnDequeue"))
            {
                frame.SetOwned(q.typeName + "::MarkOnDequeue",
                               "the reference marks at dequeue, per port rate");
            }
        }
        frame.Parse(argc, argv);

        ParallelRun::Start();
        if (spreading && outdir.empty())
        {
            throw std::invalid_argument("--spreading writes its results as files: give --outdir");
        }
        if (topoPath.empty() || flowsPath.empty())
        {
            throw std::invalid_argument("--topo and --flows are required (e.g. "
                                        "--topo=data/bench/fat-tree-320.topo "
                                        "--flows=data/bench/websearch-30pct-2ms.flows)");
        }
        // The queue discipline the algorithm declares (RdmaCcRegistry), as in the scenarios.
        const RdmaCcEntry ccEntry = RdmaCcRegistry::Lookup(cc);
        const std::string& queue = ccEntry.queueDisc;
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes(cc, queue),
                       "--cc=" + cc + " with " + queue);
        if (par.nodeWork && (outdir.empty() || ParallelRun::IsEnabled()))
        {
            throw std::invalid_argument("--nodeWork: needs --outdir and a sequential run");
        }

        auto t0 = std::chrono::steady_clock::now();
        TopologySpec topo = ReadTopologyFile(topoPath);
        std::vector<FlowSpec> specs = ReadFlowFile(flowsPath, topo);
        if (specs.empty())
        {
            throw std::invalid_argument(flowsPath + ": no flows");
        }

        if (par.writePartition > 0)
        {
            RankPartition::Write(std::cout, RankPartition::Balanced(topo, par.writePartition));
            return 0;
        }
        Time lastStart;
        r.firstStart = Time::Max();
        for (const auto& f : specs)
        {
            r.firstStart = std::min(r.firstStart, f.start);
            lastStart = std::max(lastStart, f.start);
        }
        // The stop must stay within the times the run can represent (the reader keeps starts
        // below half of ns-3's range, --safetyStop too, so the sum cannot wrap).
        if (lastStart + safety > ProgramFrame::GetMaxRunTime())
        {
            throw std::invalid_argument("--safetyStop: the last flow start " + FormatTime(lastStart)
                                        + " + " + FormatTime(safety) + " is beyond "
                                        + FormatTime(ProgramFrame::GetMaxRunTime())
                                        + ", half of ns-3's time range");
        }
        // The reference's NIC and switch settings, as defaults: an attribute the user gives wins.
        frame.SetDefault("ns3::RdmaNic::Mtu", UintegerValue(PAYLOAD));
        frame.SetDefault("ns3::RdmaNic::AckInterval", UintegerValue(1));
        frame.SetDefault("ns3::SwitchMmu::PfcEnabled", BooleanValue(true));
        frame.SetDefault("ns3::SwitchMmu::ThresholdMode", EnumValue(SwitchMmu::DYNAMIC));

        // The algorithm as the HPCC simulator runs it: its reference parameter set if it has
        // one (DCQCN and DCON: ConnectX-4's settings; HPCC: mi = 0), applied to the NICs at
        // their line rate; a --ns3:: attribute the user gives wins, --minRate replaces the
        // set's floor.
        RdmaFabricHelper fh;
        const std::vector<std::string> sets = ccEntry.GetParameterSetNames();
        fh.SetCongestionControl(
            cc,
            std::find(sets.begin(), sets.end(), REFERENCE_SET) != sets.end() ? REFERENCE_SET : "");
        if (frame.IsGiven("minRate"))
        {
            // (CheckUse refused --minRate for an algorithm that declares no rate floor)
            const std::string& floor = ccEntry.rateFloorAttribute;
            if (IsUserAttribute(ccEntry.typeId(), floor))
            {
                TypeId owner;
                FindAttributeOwner(ccEntry.typeId(), floor, &owner);
                throw std::invalid_argument("--minRate and --" + owner.GetName() + "::" + floor
                                            + " set the same thing: give one of them");
            }
            fh.SetCongestionControlAttribute(floor, DataRateValue(minRate));
        }
        fh.SetMmuAttribute("BufferSize", QueueSizeValue(bufferSize));
        fh.SetMmuAttribute("Alpha", DoubleValue(alpha));
        // ECN thresholds scale with the port speed: 4 KB / 16 KB per Gb/s, i.e. 400/1600 KB at
        // 100 Gb/s and 1600/6400 KB at 400 Gb/s.
        std::set<uint64_t> portRates;
        for (const auto& l : topo.links)
        {
            portRates.insert(l.rate.GetBitRate());
        }
        // Every link rate of the topology gets its own setting (so no default is needed).
        for (uint64_t bps : portRates)
        {
            DataRate rate(bps);
            QueueSizeValue kmin(EcnThreshold(rate, 4000));
            QueueSizeValue kmax(EcnThreshold(rate, 16000));
            fh.SetQueueDiscForRate(rate, queue);
            // The reference's marking thresholds, on the attributes the queue discipline
            // declares for them (RED: Kmin and Kmax; DCON: Q_ECN and Q_CNM), and RED's Pmax and
            // marking at dequeue where the queue has them.
            const RdmaQueueEntry& qe = RdmaQueueRegistry::Lookup(queue);
            if (!qe.lowThreshold.empty())
            {
                fh.SetQueueDiscAttributeForRate(rate, qe.lowThreshold, kmin);
                fh.SetQueueDiscAttributeForRate(rate, qe.highThreshold, kmax);
            }
            if (!qe.GetAttribute("pmax").empty())
            {
                fh.SetQueueDiscAttributeForRate(rate, qe.GetAttribute("pmax"), DoubleValue(pmax));
            }
            if (HasAttribute(queue, "MarkOnDequeue"))
            {
                fh.SetQueueDiscAttributeForRate(rate, "MarkOnDequeue", BooleanValue(true));
            }
            // What the algorithm itself asks of the queue (e.g. DCTCP's step threshold K, 3 KB
            // per Gb/s as in the HPCC simulator's run.py); an explicit --pmax wins.
            for (const auto& [name, value] : ccEntry.GetQueueAttributes(rate))
            {
                if (!(name == "Pmax" && frame.IsGiven("pmax")))
                {
                    fh.SetQueueDiscAttributeForRate(rate, name, StringValue(value));
                }
            }
        }
        fh.SetPartitionFile(par.partitionFile);
        Ptr<RdmaFabric> fabric = fh.Build(topo);
        if (const std::string& baseRtt = ccEntry.baseRttAttribute; !baseRtt.empty())
        {
            // An algorithm that declares one T for every flow (HPCC) gets the largest base RTT
            // (run.py's GLOBAL_T 1), unless the user gave it.
            if (!IsUserAttribute(ccEntry.typeId(), baseRtt))
            {
                const TimeValue t(fabric->GetMaxBaseRtt());
                for (uint32_t h : fabric->GetHosts())
                {
                    fabric->GetNic(h)->SetCongestionControlAttribute(baseRtt, t);
                }
            }
        }
        const Ptr<RdmaNic> firstNic = fabric->GetNic(fabric->GetHosts().front());
        const uint8_t controlPriority = firstNic->GetControlPriority();
        const uint64_t payload = firstNic->GetMtu();
        for (const auto& f : specs)
        {
            r.dataPacketsNeeded += f.sizeBytes / payload + (f.sizeBytes % payload != 0);
        }

        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(fabric);
        flows->SetStopWhenDone(true);
        flows->AddFlows(specs);

        CompletionCounter done;
        for (uint32_t h : fabric->GetHosts())
        {
            fabric->GetNic(h)->TraceConnectWithoutContext(
                "FlowComplete", MakeCallback(&CompletionCounter::Completed, &done));
        }

        Ptr<FabricMonitor> monitor;
        if (!outdir.empty())
        {
            monitor = Create<FabricMonitor>(fabric, flows);
            if (spreading)
            {
                monitor->EnableCongestionSpreading();
            }
            monitor->Start(MicroSeconds(100), lastStart + safety);
            // (no queue or throughput probes are added, so the monitor schedules nothing)
        }
        // The output folder, ready and writable before the run (and not made for a run refused
        // while it was set up).
        if (!outdir.empty() && ParallelRun::IsRoot())
        {
            std::vector<std::string> kinds = FabricMonitor::GetOutputKinds();
            kinds.insert(kinds.end(), {"flows.txt", "run.json", "parallel.json"});
            frame.PrepareOutputFolder(outdir, kinds);
        }
        Time stop = lastStart + safety;
        if (stopAt.IsStrictlyPositive())
        {
            stop = std::min(stop, stopAt);
        }
        Simulator::Stop(stop);

        auto t1 = std::chrono::steady_clock::now();
        double cpu1 = CpuSeconds();
        Simulator::Run();
        r.runCpuSeconds = CpuSeconds() - cpu1;
        auto t2 = std::chrono::steady_clock::now();
        r.setupSeconds = std::chrono::duration<double>(t1 - t0).count();
        r.runSeconds = std::chrono::duration<double>(t2 - t1).count();
        r.events = Simulator::GetEventCount();

        r.flowsTotal = specs.size();
        r.flowsCompleted = done.m_count;
        r.lastCompletion = done.m_last;
        for (const auto& l : fabric->GetLinks())
        {
            for (const auto& dev : {l.devA, l.devB})
            {
                const PfcNetDevice::Stats& s = dev->GetStats();
                r.linkFrames += s.txFrames;
                r.pauseFrames += s.pauseSent;
                r.resumeFrames += s.resumeSent;
            }
        }
        for (uint32_t h : fabric->GetHosts())
        {
            const RdmaNic::Stats& s = fabric->GetNic(h)->GetStats();
            r.dataPacketsSent += s.dataPacketsSent;
            r.linkDataPackets += s.dataPacketsSent; // first link
            r.retransmitted += s.retransmittedPackets;
            r.timeouts += s.timeouts;
            r.naks += s.naksSent;
            r.cnps += s.cnpsSent;
        }
        for (uint32_t sw : fabric->GetSwitches())
        {
            Ptr<RdmaSwitch> s = fabric->GetSwitch(sw);
            for (const auto& [reason, n] : s->GetMmu()->GetDropCounts())
            {
                r.dropsByReason[reason] += n;
                r.drops += n;
            }
            for (const auto& [reason, n] : s->GetForwardingDrops())
            {
                r.dropsByReason[reason] += n;
                r.drops += n;
            }
            r.maxBufferBytes = std::max(r.maxBufferBytes, s->GetMmu()->GetMaxTotalUsed());
            // Data travels in every priority but the control one (ACK, NAK, CNP).
            for (uint32_t port = 0; port < s->GetNPorts(); ++port)
            {
                for (uint8_t p = 0; p < PfcNetDevice::NUM_PRIORITIES; ++p)
                {
                    if (p != controlPriority)
                    {
                        r.linkDataPackets
                            += s->GetQueueDisc(port, p)->GetStats().nTotalDequeuedPackets;
                    }
                }
            }
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        r.maxRssKb = ru.ru_maxrss;
        std::string report;
        if (ParallelRun::IsEnabled())
        {
            // Totals over the ranks (each counted only what its own nodes did); the times and
            // memory are the largest rank's. Collective calls, in the same order on every rank.
            if (monitor)
            {
                monitor->Collect();
            }
            report = ParallelRun::RankReport(r.runSeconds);
            for (uint64_t* x : {&r.events,
                                &r.linkFrames,
                                &r.pauseFrames,
                                &r.resumeFrames,
                                &r.dataPacketsSent,
                                &r.linkDataPackets,
                                &r.retransmitted,
                                &r.timeouts,
                                &r.naks,
                                &r.cnps,
                                &r.drops})
            {
                *x = ParallelRun::SumAll(*x);
            }
            r.flowsCompleted = ParallelRun::SumAll(r.flowsCompleted);
            r.lastCompletion = PicoSeconds(static_cast<int64_t>(
                ParallelRun::MaxAll(static_cast<double>(r.lastCompletion.GetPicoSeconds()))));
            r.maxBufferBytes
                = static_cast<uint64_t>(ParallelRun::MaxAll(static_cast<double>(r.maxBufferBytes)));
            r.maxRssKb = static_cast<long>(ParallelRun::MaxAll(static_cast<double>(r.maxRssKb)));
            r.runSeconds = ParallelRun::MaxAll(r.runSeconds);
            r.runCpuSeconds = ParallelRun::MaxAll(r.runCpuSeconds);
            std::string mine;
            for (const auto& [reason, n] : r.dropsByReason)
            {
                mine += reason + " " + std::to_string(n) + "\n";
            }
            std::map<std::string, uint64_t> byReason;
            for (const std::string& part : ParallelRun::Gather(mine))
            {
                std::istringstream in(part);
                std::string reason;
                uint64_t n = 0;
                while (in >> reason >> n)
                {
                    byReason[reason] += n;
                }
            }
            r.dropsByReason = byReason;
            if (!ParallelRun::IsRoot())
            {
                Simulator::Destroy();
                ParallelRun::Finish();
                return 0; // rank 0 reports
            }
            std::cout << "ranks                  " << ParallelRun::GetSize() << " (per rank: "
                      << (outdir.empty() ? std::string("--outdir") : outdir + "/parallel.json")
                      << ")\n";
        }

        std::cout << "topology               " << topoPath << " (" << topo.nNodes << " nodes, "
                  << topo.links.size() << " links, host line rate "
                  << HostLineRate(topo).GetBitRate() / 1e9 << " Gb/s)\n";
        std::cout << "flow file              " << flowsPath << "\n";
        Print(r);
        if (monitor)
        {
            if (r.flowsCompleted < r.flowsTotal)
            {
                std::ostringstream why;
                why << (stop == stopAt ? "stopped at --stopAt " : "safety stop at ")
                    << FormatTime(stop) << " with " << r.flowsTotal - r.flowsCompleted << " of "
                    << r.flowsTotal << " flows unfinished";
                monitor->SetIncomplete(why.str());
            }
            if (!report.empty())
            {
                WriteTextFile(outdir + "/parallel.json", report);
            }
            monitor->WriteFctFile(outdir + "/fct.txt");
            WriteRunFiles(outdir, frame, cc, topoPath, flowsPath, specs);
            if (par.nodeWork) // a sequential run's counts (the model's input)
            {
                monitor->WriteNodeWork(outdir + "/node-work");
            }
            monitor->Write(outdir, r.runSeconds); // summary.json last: the run is complete
            std::cout << "results in             " << outdir << "\n";
        }
    }
    catch (const std::exception& e)
    {
        Simulator::Destroy();
        return ProgramFrame::Fail(e);
    }
    Simulator::Destroy();
    ParallelRun::Finish();
    if (validate)
    {
        std::string why;
        bool ok = MeetsReference(r, why);
        std::cout << (ok ? "VALIDATION PASSED" : "VALIDATION FAILED: " + why) << "\n";
        return ok ? 0 : 1;
    }
    return 0;
}
