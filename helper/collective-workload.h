/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_WORKLOAD_H
#define COLLECTIVE_WORKLOAD_H

#include "collective-job.h"
#include "congestion-spreading.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simple-ref-count.h"
#include "rdma-fabric-helper.h"
#include "rdma-flow-helper.h"

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Collective communication of training jobs on a fabric: each job's messages become
 * flows of an RdmaFlowHelper (RdmaFlowHelper::AddTriggeredFlow), started when what they wait
 * for has happened, rank by rank as NCCL runs them (no global barrier).
 *
 * \par Messages, queue pairs and paths
 * A message (one step of one rank, or one pipeline piece of it) is one flow of the NIC (its own
 * queue pair number: the NIC's unit of completion), started when (a) the rank's iteration has
 * started, (b) the rank has received the message it forwards or reduces
 * (CollectiveTransfer::after; the receiver's completion, RdmaNic's MessageReceived trace), and
 * (c) the previous message on the same connection (same job, same pair of ranks) has sent its
 * last packet (RdmaNic's FlowSent trace): a connection's messages leave in order and back to
 * back, as the work requests of one queue pair do. All messages of a connection carry the
 * connection's UDP source port (in 1024..49151, below the NICs' own range), so they, and their
 * ACKs, take the connection's paths, as a persistent queue pair's would; the receiver knows a
 * message by its sender, its port and its place in the connection's order (on a lossless fabric
 * a connection's messages complete in the order sent; on a fabric without PFC, where a
 * retransmission could reorder them, (c) waits for the previous message's last ACK instead).
 * With ECMP paths a connection's port is random (a seeded stream); with pinned paths the spines
 * of each phase (a ring's connections, a halving-doubling distance, an all-to-all) are assigned
 * by an edge colouring of the leaf-to-leaf multigraph, so that no two of them share a leaf
 * uplink or a spine downlink while there are enough spines, and the port is one whose data and
 * ACKs both cross that spine. What a message does not keep from its predecessor is its
 * congestion control's state: each starts afresh, as a new queue pair (doc/usage/collectives.rst).
 *
 * \par Iterations
 * A rank completes an iteration when it has received every message sent to it and every message
 * it sent has been acknowledged; its next iteration starts the job's gap later (sync "rank"), or
 * the gap after the last rank of the job completed (sync "all"; sequential runs only).
 *
 * \par Placement
 * Leaves are the switches hosts hang from, in node order, and their hosts in node order. Jobs
 * with a host list are placed first; then, in the order added, each job takes free hosts: packed
 * (leaf by leaf), spread (one per leaf, round robin), random (a seeded permutation of the free
 * hosts), rail (servers of g GPUs: leaves in groups of g, rails; server j of a group is the j-th
 * host of each of its leaves, and rank r runs on GPU r mod g of server r / g). A host runs at most
 * one job's rank.
 *
 * \par Ideal time
 * GetIdealTime evaluates one iteration on an otherwise idle fabric in which only the NIC links
 * limit (no two flows share a switch link): a message's packets leave its NIC back to back
 * behind the sender's earlier messages, at the line rate less the ACKs that NIC sends for what it
 * receives at the same rate (every operation sends and receives alike), and each later link adds
 * its delay and the last packet's store-and-forward time; a message starts when what it waits for
 * (above) has happened; the ACK of the last byte returns over the same links. It reproduces the
 * closed forms of the reference (ring all-reduce 2 (n - 1) (alpha + S / (n B)), halving-doubling
 * 2 log2(n) alpha + 2 (n - 1) / n x S / B, direct all-to-all alpha + (n - 1) / n x S / B) with
 * alpha and B of the path, and their pipelined variants.
 *
 * In a parallel run every rank adds the same jobs and gets the same flows; each rank starts its
 * hosts' messages, and Collect brings the results to rank 0.
 */
class CollectiveWorkload : public SimpleRefCount<CollectiveWorkload>
{
public:
    /// One message of one iteration of a job, with what happened to it.
    struct Message
    {
        uint32_t job{0};       //!< the job
        uint32_t iteration{0}; //!< the iteration
        uint32_t step{0};      //!< the algorithm step
        uint32_t chunk{0};     //!< the pipeline piece
        uint32_t srcRank{0};   //!< sending rank
        uint32_t dstRank{0};   //!< receiving rank
        uint32_t src{0};       //!< sending host (node index)
        uint32_t dst{0};       //!< receiving host
        uint64_t bytes{0};     //!< size
        uint32_t flowId{0};    //!< its flow in the RdmaFlowHelper
        uint16_t sport{0};     //!< its UDP source port
        uint32_t path{0};      //!< its path (GetPathNodes)
        Time start{-1};        //!< when it started (negative: never)
        Time sent{-1};         //!< when its last packet left the sender the first time
        Time received{-1};     //!< when the receiver had its last byte
        Time acked{-1};        //!< when the sender had the ACK of its last byte
    };

    /// One iteration of one job.
    struct Iteration
    {
        uint32_t job{0};       //!< the job
        uint32_t iteration{0}; //!< the iteration
        Time start{-1};        //!< the first rank's start (negative: never started)
        Time end{-1};          //!< the last rank's completion (negative: incomplete)
    };

    /// Per job: its flows' times held by PFC pauses (CongestionSpreading groups).
    struct JobSpreading
    {
        Time victimOthers;     //!< time at least one of its flows was held by another's pause
        Time victimOthersFlow; //!< the same summed over its flows (flow-seconds)
        Time heldOwnFlow;      //!< flow-seconds held by pauses its own job's bytes caused
        Time heldUnknownFlow;  //!< flow-seconds held by pauses of unknown cause
    };

    /**
     * \brief A workload on a fabric, adding its flows to \p flows.
     * \param fabric the fabric
     * \param flows the flow helper (other flows, e.g. background, may share it)
     */
    CollectiveWorkload(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows);

    /**
     * \brief Add a job (before Install).
     * \throws std::invalid_argument naming the job and the value (CollectiveJob::Check; a name
     * given twice; a job with sync "all" in a parallel run)
     * \param job the job (an empty name becomes "job<index>")
     * \return its index
     */
    uint32_t AddJob(CollectiveJob job);

    /**
     * \brief Give the random placements and the ECMP paths' ports fixed random streams.
     * \param stream the first stream
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Stop the simulation when every message of every job has been acknowledged (default
     * true), \p drain after that (in a parallel run every rank stops at the same time,
     * ParallelRun::NotifyLocalDone). Flows of the flow helper that are not the workload's (a
     * background) do not hold the stop: turn the flow helper's own stop off.
     * \param enable whether to stop
     * \param drain how long after the last acknowledgement
     */
    void SetStopWhenDone(bool enable, Time drain = Time(0));

    /**
     * \brief Place the jobs, create their messages (all iterations) as triggered flows, choose
     * their paths and schedule the jobs' starts. Call once, after the jobs were added and before
     * the simulation runs.
     * \throws std::invalid_argument naming the job: a host in two jobs, a listed node that is not
     * a host, not enough free hosts, rail placement on a fabric whose leaves do not group by g,
     * pinned paths on a fabric that is not a two-tier leaf-spine
     */
    void Install();

    /**
     * \brief In a parallel run, bring every rank's message times and rank completions to rank 0
     * (a collective call, after Simulator::Run). A sequential run does nothing.
     */
    void Collect();

    /// \return the jobs
    const std::vector<CollectiveJob>& GetJobs() const;

    /**
     * \brief The hosts of a job, by rank (after Install).
     * \param job the job
     * \return host node indices
     */
    const std::vector<uint32_t>& GetHosts(uint32_t job) const;

    /// \return every message, job by job, iteration by iteration, in schedule order
    const std::vector<Message>& GetMessages() const;

    /// \return every iteration of every job, job by job
    std::vector<Iteration> GetIterations() const;

    /**
     * \brief The job a flow of the flow helper belongs to.
     * \param flowId the flow
     * \return the job, or UINT32_MAX for a flow that is not the workload's
     */
    uint32_t GetJobOfFlow(uint32_t flowId) const;

    /**
     * \brief The switches a path goes through (Message::path).
     * \param path the path's index
     * \return switch node indices, from the sender's side
     */
    const std::vector<uint32_t>& GetPathNodes(uint32_t path) const;

    /**
     * \brief The time of one iteration of a job alone on an idle fabric (see the class
     * description), from the first rank's start to the last rank's completion.
     * \param job the job
     * \return the ideal time
     */
    Time GetIdealTime(uint32_t job) const;

    /**
     * \brief The bytes per second that a NIC's data gets from a link of \p rate when the NIC
     * also acknowledges as much data as it sends (full MTU packets): rate x MTU / (data frame +
     * ACK frames per data packet), all on the wire (headers, ICRC, Ethernet framing).
     * \param host a host (its NIC's MTU, framing and AckInterval)
     * \param rate the link rate
     * \return B, bytes per second
     */
    double GetGoodput(uint32_t host, DataRate rate) const;

    /**
     * \brief Whether every message of every job has been acknowledged (on this rank: every
     * message its hosts sent).
     * \return true when done
     */
    bool IsDone() const;

    /**
     * \brief Whether every message of every job was acknowledged, on any rank (after Collect in
     * a parallel run; on rank 0).
     * \return true when all were
     */
    bool IsDoneEverywhere() const;

    /**
     * \brief Count congestion spreading per job: each PAUSE's cause is the group (job, or the
     * flows that are not the workload's, "other") with the most bytes in the pause's root queue
     * (CongestionSpreading::SetFlowGroups). Call before CongestionSpreading::Start.
     * \param spreading the measurement
     */
    void MeasureSpreading(Ptr<CongestionSpreading> spreading);

    /**
     * \brief A job's pause times (after CongestionSpreading::Finish).
     * \param job the job
     * \return the times (zeros without MeasureSpreading)
     */
    JobSpreading GetJobSpreading(uint32_t job) const;

    /**
     * \brief Write collectives.csv (per iteration), steps.csv (per message), ranks.csv (the
     * placement) and jobs.csv (per job, with congestion spreading when measured) to \p dir
     * (created if needed). Each file is written under a temporary name and renamed when complete.
     * \param dir the folder
     * \param name the output name of a node (e.g. FabricMonitor::GetNodeName)
     * \param steps whether to write steps.csv (a line per message: large for large jobs)
     */
    void Write(const std::string& dir,
               const std::function<std::string(uint32_t)>& name,
               bool steps = true) const;

    /// \return the files Write writes (for ProgramFrame::PrepareOutputFolder)
    static std::vector<std::string> GetOutputKinds();

private:
    /// Runtime state of a message.
    struct State
    {
        int64_t enables{-1};        //!< the message its arrival lets start (same iteration)
        int64_t connectionNext{-1}; //!< the next message on its connection (same iteration)
        uint8_t waiting{0};         //!< what it still waits for (iteration, after, connection)
    };

    /// Per job: its layout in m_messages and its schedule.
    struct JobLayout
    {
        uint64_t first{0};                          //!< index of its first message
        uint64_t perIteration{0};                   //!< messages per iteration
        std::vector<CollectiveTransfer> schedule;   //!< one iteration
        std::vector<std::vector<uint32_t>> sendsOf; //!< per rank: its transfers (schedule order)
        std::vector<uint32_t> receives;             //!< per rank: transfers it receives
        std::vector<uint32_t> rankOfHost;           //!< host node -> rank (UINT32_MAX: none)
    };

    /// Place every job's ranks (Install).
    void Place();
    /**
     * \brief The ideal time of a job (GetIdealTime, computed).
     * \param job the job
     * \return the time
     */
    Time ComputeIdealTime(uint32_t job) const;
    /**
     * \brief The link between two adjacent nodes (the first, if there are several).
     * \param a a node
     * \param b its neighbour
     * \return the link
     */
    const RdmaFabric::Link& LinkBetween(uint32_t a, uint32_t b) const;
    /**
     * \brief Take \p n free hosts for a job.
     * \param job the job
     * \param used per node: taken already
     * \return hosts in rank order
     */
    std::vector<uint32_t> PlaceJob(const CollectiveJob& job, std::vector<bool>& used);
    /// Choose every message's UDP source port (Install).
    void ChoosePorts();
    /**
     * \brief The switches a flow goes through under the switches' routing.
     * \param src source host
     * \param dst destination host
     * \param sport UDP source port
     * \return switch node indices
     */
    std::vector<uint32_t> Walk(uint32_t src, uint32_t dst, uint16_t sport) const;
    /**
     * \brief The index of a path in m_paths (added if new).
     * \param nodes the switches
     * \return the index
     */
    uint32_t PathIndex(const std::vector<uint32_t>& nodes);
    /**
     * \brief Spines for a phase's cross-leaf transfers, by edge colouring (pinned paths).
     * \param edges (source leaf index, destination leaf index) per transfer
     * \return the spine index of each
     */
    std::vector<uint32_t> ColourSpines(
        const std::vector<std::pair<uint32_t, uint32_t>>& edges) const;

    /**
     * \brief Start rank \p rank's iteration \p iteration of job \p job now.
     * \param job the job
     * \param iteration the iteration
     * \param rank the rank
     */
    void StartIteration(uint32_t job, uint32_t iteration, uint32_t rank);
    /**
     * \brief One thing a message waited for happened; start it if it was the last.
     * \param msg the message
     */
    void Release(uint64_t msg);
    /**
     * \brief Start a message (scheduled for now by Release).
     * \param msg the message
     */
    void StartMessage(uint64_t msg);
    /**
     * \brief A NIC sent the last packet of a flow.
     * \param flowId the flow
     */
    void FlowSent(uint32_t flowId);
    /**
     * \brief A NIC had the ACK of a flow's last byte.
     * \param rec the flow's record
     */
    void FlowAcked(const RdmaFlowRecord& rec);
    /**
     * \brief A NIC received a message.
     * \param host the receiving host
     * \param src the sender's address
     * \param sport the UDP source port
     * \param qpn the queue pair number
     * \param bytes the message's bytes
     */
    void MessageReceived(
        uint32_t host, Ipv4Address src, uint16_t sport, uint32_t qpn, uint64_t bytes);
    /**
     * \brief One of a rank's transfers of an iteration completed (received or acknowledged).
     * \param msg the message
     * \param rank the rank it counts for
     */
    void RankProgress(uint64_t msg, uint32_t rank);
    /// This rank's messages may all be done: stop if so.
    void CheckDone();
    /**
     * \brief The key of a message at its receiver.
     * \param src source host
     * \param dst destination host
     * \param sport UDP source port
     * \return the key
     */
    static uint64_t ReceiveKey(uint32_t src, uint32_t dst, uint16_t sport);

    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    std::vector<CollectiveJob> m_jobs;
    std::vector<std::vector<uint32_t>> m_hosts; //!< per job: hosts by rank
    std::vector<JobLayout> m_layout;
    std::vector<Message> m_messages;
    std::vector<State> m_state;
    uint32_t m_firstFlow{0}; //!< flow id of message 0
    /// (src, dst, sport) -> the first message not yet received with that key
    std::unordered_map<uint64_t, uint64_t> m_receiveHead;
    std::vector<int64_t> m_sameKeyNext;               //!< per message: the next with its key
    std::vector<std::vector<uint32_t>> m_paths;       //!< switch sequences
    std::vector<std::vector<uint32_t>> m_remaining;   //!< per job: [iteration x n + rank] to do
    std::vector<std::vector<Time>> m_rankStart;       //!< per job: [iteration x n + rank]
    std::vector<std::vector<Time>> m_rankEnd;         //!< per job: [iteration x n + rank]
    std::vector<std::vector<uint32_t>> m_ranksDone;   //!< per job, iteration: ranks done (sync all)
    std::vector<uint32_t> m_leafOf;                   //!< per node: its leaf's index (hosts)
    std::vector<uint32_t> m_leaves;                   //!< leaf switch nodes
    std::vector<uint32_t> m_spines;                   //!< switches that are not leaves
    std::vector<std::vector<uint32_t>> m_hostsOfLeaf; //!< per leaf: its hosts
    std::vector<std::vector<uint32_t>> m_neighbour;   //!< per node and port: the neighbour
    std::vector<std::vector<uint32_t>> m_linkOf;      //!< per node and port: the link's index
    mutable std::vector<Time> m_ideal;                //!< per job: GetIdealTime (once computed)
    std::map<std::vector<uint32_t>, uint32_t> m_pathIndex; //!< switch sequence -> path
    Ptr<UniformRandomVariable> m_placementRng;             //!< random placements
    Ptr<UniformRandomVariable> m_portRng;                  //!< ECMP paths' first ports
    bool m_installed{false};
    bool m_orderOnAck{false}; //!< a lossy fabric: a connection's next message waits for the ACK
    bool m_stopWhenDone{true};
    Time m_drain;
    uint64_t m_localPending{0}; //!< messages this rank sends that are not acknowledged
    bool m_notified{false};     //!< NotifyLocalDone was called
    Ptr<CongestionSpreading> m_spreading;
};

} // namespace ns3

#endif /* COLLECTIVE_WORKLOAD_H */
