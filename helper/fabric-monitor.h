/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_MONITOR_H
#define FABRIC_MONITOR_H

#include "congestion-spreading.h"
#include "fabric-monitor-extension.h"
#include "ns3/event-id.h"
#include "ns3/simple-ref-count.h"
#include "rdma-fabric-helper.h"
#include "rdma-flow-helper.h"

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief A value read from a run over a window of time: measured, or "not measured" with the
 * reason (the window is empty, or no sample lies in it). A reading that was not measured is
 * never taken for zero: a fact that depends on it is neither held nor failed, and the outputs
 * write it as null with its reason.
 */
struct Reading
{
    std::optional<double> value; //!< the value, when measured
    std::string reason;          //!< why it was not measured (empty when measured)

    /**
     * \brief A measured value.
     * \param v the value
     * \return the reading
     */
    static Reading Of(double v);

    /**
     * \brief A reading that was not measured.
     * \param why the reason, e.g. "no throughput sample lies in (0 s, 1 ms]"
     * \return the reading
     */
    static Reading NotMeasured(const std::string& why);

    /**
     * \brief Whether the value was measured.
     * \return true if it was
     */
    bool IsMeasured() const;

    /**
     * \brief The value as JSON: the number (std::setprecision(\p precision)) or null.
     * \param precision significant digits
     * \return the text
     */
    std::string ToJson(int precision = 6) const;

    /// What Json() returns: written to a stream, the value in the stream's own format, or null.
    struct JsonText
    {
        const Reading* reading; //!< the reading
    };

    /**
     * \brief The value for a JSON file being written: `out << r.Json()` writes the number as
     * the stream formats numbers, or null.
     * \return the proxy
     */
    JsonText Json() const;

    /**
     * \brief The value as text for a report: the number (\p precision significant digits) or
     * "not measured (REASON)".
     * \param precision significant digits
     * \return the text
     */
    std::string ToText(int precision = 6) const;
};

/**
 * \ingroup dcon-helper
 * \brief Write a reading as JSON (Reading::Json).
 * \param out the stream
 * \param j the reading
 * \return the stream
 */
std::ostream& operator<<(std::ostream& out, Reading::JsonText j);

/**
 * \ingroup dcon-helper
 * \brief Records what happens in a fabric and writes it as plain CSV files (a header line,
 * units in the column names) and a summary.json to an output directory.
 *
 * Files:
 * - flows.csv: flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown (completed
 *   flows; flows that did not complete are counted in summary.json)
 * - pfc.csv: time_s,node,port,peer,priority,event,quanta (every PFC frame sent; event is pause
 *   or resume)
 * - queues.csv: time_s,node,port,kind,bytes (kind egress = bytes queued for the port, all
 *   priorities; ingress = bytes held in the switch that arrived on the port, all priorities)
 * - throughput.csv: time_s,flow,gbps (acknowledged bytes per sample interval)
 * - drops.csv: node,reason,packets
 * - victims.csv, pause-trees.csv, pause-events.csv (with EnableCongestionSpreading)
 * - the files of the algorithms' FabricMonitorExtensions (DCON's DconRecorder: cnm.csv, every
 *   CNM sent and what its sender did with it, in fabrics with DCON queues)
 * - summary.json: totals (see doc/usage/output.rst), then what the extensions add (DCON:
 *   its queues' counters and time shares and the CNM totals)
 *
 * Nodes are named in outputs by SetNodeName (default "h<node>" for hosts, "s<node>" for
 * switches).
 */
class FabricMonitor : public SimpleRefCount<FabricMonitor>
{
public:
    /// One completed flow, as flows.csv and victims.csv give it (units in the names).
    struct FlowResult
    {
        uint32_t flowId{0};        //!< the flow's id (RdmaFlowHelper's order of AddFlow)
        uint32_t src{0};           //!< sending host (topology node index)
        uint32_t dst{0};           //!< receiving host
        uint64_t sizeBytes{0};     //!< message size
        double startSeconds{0};    //!< when it started
        double fctSeconds{0};      //!< flow completion time: until the ACK of its last byte
        double idealFctSeconds{0}; //!< the same flow alone in the fabric (GetIdealFct)
        double slowdown{0};        //!< fctSeconds / idealFctSeconds (1 = as if alone)
        /// Time its data was held by PFC pauses of congestion it feeds (0 unless
        /// EnableCongestionSpreading was called).
        double culpritSeconds{0};
        /// Time its data was held by PFC pauses of congestion it does not feed: head-of-line
        /// blocking (0 unless EnableCongestionSpreading was called).
        double victimSeconds{0};
    };

    /// PAUSE frames on one link, both directions (refreshes included, RESUMEs not).
    struct LinkPauses
    {
        uint32_t a{0};               //!< one end (topology node index, as RdmaFabric::Link)
        uint32_t b{0};               //!< the other end
        uint64_t pauseFramesAToB{0}; //!< PAUSE frames a sent to b
        uint64_t pauseFramesBToA{0}; //!< PAUSE frames b sent to a
    };

    /// The run's totals, as summary.json gives them.
    struct Summary
    {
        uint32_t flowsTotal{0};           //!< flows added to the run
        uint32_t flowsCompleted{0};       //!< flows whose last byte was acknowledged
        uint64_t pauseFrames{0};          //!< PAUSE frames sent on every link (refreshes too)
        uint64_t resumeFrames{0};         //!< RESUME frames (PAUSE with time 0) sent
        uint64_t ecnMarks{0};             //!< packets the switch queues marked CE
        uint64_t cnpsSent{0};             //!< CNPs the receivers sent
        uint64_t cnmsReceived{0};         //!< DCON's switch CNMs that reached a sender
        uint64_t drops{0};                //!< packets dropped by the switches (any reason)
        uint64_t retransmittedPackets{0}; //!< data packets sent again (go-back-N)
        double meanSlowdown{0};           //!< mean of the completed flows' slowdowns
        double maxFctSeconds{0};          //!< the longest FCT of a completed flow
        double culpritSeconds{0};         //!< culprit time of every flow (with spreading)
        double victimSeconds{0};          //!< victim time of every flow (with spreading)
    };

    /**
     * \brief Create a monitor.
     * \param fabric the fabric to watch
     * \param flows the flows (for ideal FCTs and completion counts)
     */
    FabricMonitor(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows);

    /**
     * \brief Name a node in the outputs.
     * \param node node index
     * \param name the name (no commas)
     */
    void SetNodeName(uint32_t node, const std::string& name);

    /**
     * \brief The output name of a node.
     * \param node node index
     * \return the name
     */
    std::string GetNodeName(uint32_t node) const;

    /**
     * \brief Sample a switch port's queue every sample interval.
     * \param node switch node index
     * \param port port index
     * \param ingress true for the ingress (MMU) bytes, false for egress queue bytes
     */
    void AddQueueSample(uint32_t node, uint32_t port, bool ingress);

    /**
     * \brief Sample the bytes buffered in the whole fabric (the sum and the largest of the
     * switches' SwitchMmu::GetTotalUsed) every sample interval, written as buffer.csv: a
     * stationarity check for long runs.
     */
    void AddBufferSample();

    /**
     * \brief Sample a flow's throughput every sample interval.
     * \param flowId the flow
     */
    void AddThroughputFlow(uint32_t flowId);

    /**
     * \brief Start recording flows and PFC frames (connects traces) without sampling: what
     * GetFlowResults, GetPauseFramesPerLink, GetSummary and Write need. Throws
     * std::invalid_argument if samples were asked for (AddQueueSample, AddThroughputFlow,
     * AddBufferSample): those need Start(interval, stop).
     */
    void Start();

    /**
     * \brief Start recording (connects traces, starts sampling).
     * \param interval sampling interval for queues and throughput
     * \param stop no samples after this time
     */
    void Start(Time interval, Time stop);

    /**
     * \brief In a parallel run (ParallelRun), bring every rank's records, PFC events, samples
     * and counters to rank 0, which then holds what a sequential run's monitor holds. A
     * collective call: every rank makes it once, after Simulator::Run and before any other
     * accessor. A sequential run does nothing.
     */
    void Collect();

    /**
     * \brief Write every file to \p dir (created if needed), summary.json last, with the wall
     * time since Start() as summary.json's wall_time_s. See the two-argument Write.
     * \param dir output directory
     */
    void Write(const std::string& dir) const;

    /**
     * \brief Write every file to \p dir (created if needed), summary.json last. Each file is
     * written under a temporary name and renamed when complete (AtomicOutputFile), so an
     * interrupted write leaves no truncated file. summary.json says whether the run is
     * complete (SetIncomplete) and what the switches still hold ("mmu_at_end"). Throws
     * std::runtime_error if a file cannot be written. pfc.csv is in time order, same-time
     * events by node, port and priority. In a parallel run only rank 0 writes (after
     * Collect), and summary.json holds the totals over all ranks.
     * \param dir output directory
     * \param wallSeconds the wall-clock time of the run, recorded as summary.json's
     * wall_time_s; a program that measured the run itself passes it here, Write(dir) measures
     * it from Start(). The same line of summary.json holds cpu_time_s (this process's CPU
     * time so far) and peak_rss_mib (its peak resident memory so far, ProcessPeakResidentBytes;
     * in a parallel run rank 0's): the one line that differs between two identical runs.
     */
    void Write(const std::string& dir, double wallSeconds) const;

    /**
     * \brief The completed flows with their FCT, ideal FCT and slowdown (and, with
     * EnableCongestionSpreading, their culprit and victim time), by flow id: flows.csv and
     * victims.csv without the files.
     * \return one entry per completed flow
     */
    std::vector<FlowResult> GetFlowResults() const;

    /**
     * \brief PAUSE frames per link, both directions, every link of the fabric in link order
     * (links without a PAUSE included): summary.json's pause_frames_per_link.
     * \return one entry per link
     */
    std::vector<LinkPauses> GetPauseFramesPerLink() const;

    /**
     * \brief The run's totals (summary.json's counters, over every rank after Collect).
     * \return the totals
     */
    Summary GetSummary() const;

    /**
     * \brief The names (and patterns) of every file Write, WriteFctFile (as "fct.txt") and
     * WriteNodeWork (as "node-work") may write, for ProgramFrame::PrepareOutputFolder.
     * \return e.g. {"flows.csv", ..., "summary.json"}
     */
    static std::vector<std::string> GetOutputKinds();

    /**
     * \brief Mark the run as incomplete (for example stopped by a safety limit with flows
     * unfinished): summary.json then says "complete": false and gives the reason. A run is
     * complete unless this is called.
     * \throws std::invalid_argument if the reason has quotes, backslashes or control characters
     * \param reason plain text
     */
    void SetIncomplete(const std::string& reason);

    /**
     * \brief Write the work of every node and link of this process (the input of
     * scripts/parallel_model.py): PREFIX-nodes.csv (node, kind, frames_sent, frames_received,
     * summed over the node's devices) and PREFIX-links.csv (a, b, delay_s, frames_a_to_b,
     * frames_b_to_a). Meant for a sequential run.
     * \param prefix path prefix of the two files
     */
    void WriteNodeWork(const std::string& prefix) const;

    /**
     * \brief Write the completed flows in the HPCC simulator's FCT format (its fct.txt), so that
     * analysis scripts written for it keep working: one line per flow, in flow-id order,
     * \verbatim
       sip dip sport dport size_bytes start_ns fct_ns ideal_fct_ns
       \endverbatim
     * with the IPv4 addresses as 8 hex digits (e.g. 0a000001 for 10.0.0.1), the UDP ports of
     * the wire (dport 4791) and times in whole nanoseconds (truncated). The ideal FCT is
     * RdmaFabric::GetIdealFct (HPCC's "standalone FCT"). Throws std::runtime_error if the
     * file cannot be written.
     * \param path the file
     */
    void WriteFctFile(const std::string& path) const;

    /**
     * \brief PFC pause frames (non-zero time) sent by \p from on its link to \p to (one
     * direction; GetPauseFramesPerLink gives every link, GetSummary the total).
     * \param from sender of the PAUSE frames
     * \param to its neighbour
     * \return frames
     */
    uint64_t GetPauseFrames(uint32_t from, uint32_t to) const;

    /**
     * \brief Completed flow records, in completion order.
     * \return the records
     */
    const std::vector<RdmaFlowRecord>& GetRecords() const;

    /**
     * \brief Completed flow records sorted by flow id (the order of the output files, which
     * then does not depend on how completions at the same time were ordered).
     * \return the records
     */
    std::vector<RdmaFlowRecord> GetRecordsById() const;

    /**
     * \brief Throughput samples of a flow as (time, Gb/s).
     * \param flowId the flow
     * \return samples
     */
    std::vector<std::pair<Time, double>> GetThroughput(uint32_t flowId) const;

    /**
     * \brief Mean throughput of a flow over the samples that lie in (from, to] (a sample at t
     * covers (t - interval, t]; the first one, taken when the monitor starts, covers no time
     * and never counts).
     * \param flowId the flow (must have been added with AddThroughputFlow)
     * \param from window start
     * \param to window end
     * \return Gb/s, or not measured when the window is empty or holds no sample (the reason
     * names the window)
     */
    Reading MeasureThroughput(uint32_t flowId, Time from, Time to) const;

    /**
     * \brief MeasureThroughput's value, for windows known to hold samples.
     * \param flowId the flow (must have been added with AddThroughputFlow)
     * \param from window start
     * \param to window end
     * \return Gb/s
     * \throws std::invalid_argument with MeasureThroughput's reason if it was not measured
     */
    double GetAverageThroughput(uint32_t flowId, Time from, Time to) const;

    /**
     * \brief Queue samples of a port as (time, bytes).
     * \param node switch node
     * \param port port
     * \param ingress ingress or egress
     * \return samples
     */
    std::vector<std::pair<Time, uint64_t>> GetQueueSamples(uint32_t node,
                                                           uint32_t port,
                                                           bool ingress) const;

    /**
     * \brief Measure congestion spreading too (CongestionSpreading: culprit and victim time per
     * flow, pause trees); Write then also writes victims.csv, pause-trees.csv, pause-events.csv
     * and summary.json's "spreading". Call before Start. Sequential runs only.
     */
    void EnableCongestionSpreading();

    /**
     * \brief The congestion-spreading measurement, when enabled.
     * \return it, or null
     */
    Ptr<CongestionSpreading> GetCongestionSpreading() const;

    /**
     * \brief The named counters of the egress queue discipline of every port and priority of
     * the fabric's switches on this rank (RdmaEgressQueueDisc::GetCounters), added up by name.
     * \param fabric the fabric
     * \param type if not empty, only queue discs of this TypeId (or a subclass)
     * \return name -> sum
     */
    static std::map<std::string, uint64_t> SumQueueCounters(Ptr<RdmaFabric> fabric,
                                                            TypeId type = TypeId());

    /**
     * \brief The extension of type \p T (e.g. DconRecorder), if the fabric has one.
     * \return it, or null
     */
    template <typename T>
    Ptr<T>
    GetExtension() const
    {
        for (const Ptr<FabricMonitorExtension>& e : m_extensions)
        {
            if (Ptr<T> t = DynamicCast<T>(e))
            {
                return t;
            }
        }
        return nullptr;
    }

private:
    /// A sampled port.
    struct QueueProbe
    {
        uint32_t node;                                  //!< switch node
        uint32_t port;                                  //!< port
        bool ingress;                                   //!< which counter
        std::vector<std::pair<Time, uint64_t>> samples; //!< (time, bytes)
    };
    /// A sampled flow.
    struct FlowProbe
    {
        Ptr<RdmaFlowState> state;                     //!< set when the flow starts
        uint64_t lastAcked{0};                        //!< acked bytes at the previous sample
        std::vector<std::pair<Time, double>> samples; //!< (time, Gb/s)
    };
    /// One PFC frame sent.
    struct PfcEvent
    {
        Time time;        //!< when
        uint32_t node;    //!< sender
        uint32_t port;    //!< its port
        uint32_t peer;    //!< neighbour it pauses
        uint8_t priority; //!< priority
        uint16_t quanta;  //!< pause time (0 = resume)
    };

    /// Take one sample of everything.
    /// Counters summed over the fabric (over every rank after Collect).
    struct Totals
    {
        std::vector<uint64_t> pauseSent;                    //!< per link end (2 * link + end)
        std::vector<uint64_t> resumeSent;                   //!< per link end
        std::vector<uint64_t> txFrames;                     //!< per link end
        std::vector<std::map<std::string, uint64_t>> drops; //!< per switch (GetSwitches order)
        uint64_t marks{0};                                  //!< ECN marks
        uint64_t mmuTotal{0};                               //!< buffer in use at the end
        uint64_t mmuShared{0};                              //!< shared part
        uint64_t mmuHeadroom{0};                            //!< headroom part
        uint64_t ingress{0};                                //!< ingress bytes counted
        uint64_t egress{0};                                 //!< egress bytes queued
        uint64_t paused{0};                                 //!< paused (port, priority) pairs
        RdmaNic::Stats nic;                                 //!< NIC counters
        uint64_t events{0};                                 //!< events executed
        Time now;                                           //!< simulated time at the end
    };

    /// \return this process's counters.
    Totals LocalTotals() const;

    /**
     * \brief Every counter of \p t that adds up over ranks, in one fixed order (exchanged and
     * summed by Collect).
     * \param t the totals
     * \return pointers into \p t
     */
    static std::vector<uint64_t*> Counters(Totals& t);

    void Sample();
    /**
     * \brief A PFC frame was sent.
     * \param link link index
     * \param fromA true if sent by end a
     * \param priority priority
     * \param quanta time
     */
    void PfcSent(uint32_t link, bool fromA, uint8_t priority, uint16_t quanta);
    /**
     * \brief A flow started.
     * \param flowId flow
     * \param state its state
     */
    void FlowStarted(uint32_t flowId, Ptr<RdmaFlowState> state);
    /**
     * \brief A flow completed.
     * \param rec its record
     */
    void FlowCompleted(const RdmaFlowRecord& rec);

    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    std::map<uint32_t, std::string> m_names;
    std::vector<QueueProbe> m_queues;
    std::map<uint32_t, FlowProbe> m_flowProbes;
    bool m_bufferProbe{false}; //!< AddBufferSample was called
    /// (time, bytes buffered in all switches, bytes in the fullest switch)
    std::vector<std::tuple<Time, uint64_t, uint64_t>> m_bufferSamples;
    std::vector<PfcEvent> m_pfc;
    std::vector<RdmaFlowRecord> m_records;
    Time m_interval;
    Time m_stop;
    Time m_start;                 //!< when Start was called (its first sample covers no time)
    double m_startWallSeconds{0}; //!< steady clock at Start (for Write(dir))
    std::string m_incomplete;     //!< why the run is incomplete (empty: it is complete)
    bool m_collected{false};      //!< Collect ran in a parallel run
    Totals m_totals;              //!< over every rank (valid when m_collected)
    std::vector<Ptr<FabricMonitorExtension>> m_extensions; //!< the algorithms' outputs
    Ptr<CongestionSpreading> m_spreading;                  //!< congestion spreading, when enabled
};

} // namespace ns3

#endif /* FABRIC_MONITOR_H */
