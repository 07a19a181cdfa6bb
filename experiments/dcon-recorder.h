/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_RECORDER_H
#define DCON_RECORDER_H

#include "ns3/cnm-header.h"
#include "ns3/data-rate.h"
#include "ns3/fabric-monitor-extension.h"
#include "ns3/nstime.h"
#include "ns3/rdma-fabric-helper.h"

#include <array>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief What DCON did in a run: every CNM a switch sent and what its sender did with it, and
 * how the DCON queues spent their time (below Q_ECN, marking, latched off, burst).
 *
 * FabricMonitor creates one when the fabric has DCON queues and writes its outputs with its own:
 * - cnm.csv: one row per CNM sent, in send order (same-time sends by switch and port):
 *   time_s (sent), switch, port (the congested egress port), flow_id (empty if unknown: the
 *   flow ended before the CNM arrived and no other CNM named it), src, dst, sport, n,
 *   capacity_gbps (C), target_gbps (C/N with N = 0 read as 1), received_s (empty if still on
 *   its way at the end), rate_before_gbps (the flow's sending rate when the CNM arrived; empty
 *   if the flow had ended), applied (1 if the sender's congestion control applied it, 0 if it
 *   ignored it: not lowering, within the 50 us hold, or the flow had ended).
 *   A CNM is matched with its arrival by (switch, port, flow 5-tuple) in order: CNMs of one
 *   flow from one switch port travel one path in the control priority and arrive in order.
 * - the "dcon_queues" and "cnms" objects of summary.json (WriteSummary): the queues' counters,
 *   the share of queue-time in each phase over all DCON queues of the data priorities, the
 *   same per queue that left "below Q_ECN" at least once, and CNM totals (sent, received,
 *   applied, with C/N not below the rate when received: such a CNM raises the rate when
 *   applied).
 *
 * In a sequential run the CNM rows are streamed: a CNM is joined with its arrival when that
 * arrives, and the rows whose arrivals are in (and whose same-time group is complete) go in send
 * order to an anonymous temporary file (unlinked at once, in std::filesystem's temporary folder:
 * TMPDIR or /tmp), so the memory held is that of the CNMs in flight, not of every CNM of the run
 * (about a million in a 70 ms DCON run at load 0.8). Writing cnm.csv reads them back; the flow
 * ids of rows whose flow had ended are filled in then (from the last arrival that named the flow
 * open), as before. In a parallel run every rank keeps its records, Collect brings them to rank
 * 0, and the rows are joined there at the end: the same rows.
 */
class DconRecorder : public FabricMonitorExtension
{
public:
    /// One CNM sent.
    struct Cnm
    {
        Time sent;                   //!< when the switch sent it
        uint32_t sw{0};              //!< switch node
        uint32_t port{0};            //!< congested egress port
        uint32_t src{0};             //!< flow source address (host order)
        uint32_t dst{0};             //!< flow destination address
        uint16_t sport{0};           //!< flow UDP source port
        uint16_t n{0};               //!< N
        uint64_t capacityBps{0};     //!< C
        Time received{Time(-1)};     //!< arrival at the sender (negative: not arrived)
        uint32_t flowId{UINT32_MAX}; //!< the flow (UINT32_MAX: unknown)
        uint64_t rateBeforeBps{0};   //!< sending rate when it arrived
        bool flowOpen{false};        //!< the flow was open when it arrived
        bool applied{false};         //!< the sender applied it
    };

    /// One DCON queue's time in each phase (DconQueueDisc::Phase) and latched arrivals.
    struct QueueTimes
    {
        uint32_t sw{0};              //!< switch node
        uint32_t port{0};            //!< port
        uint8_t priority{0};         //!< priority
        std::array<int64_t, 4> ps{}; //!< picoseconds per phase
        uint64_t latchedArrivals{0}; //!< arrivals in the band with marking latched off
    };

    /**
     * \brief Create a recorder for a fabric.
     * \param fabric the fabric
     */
    explicit DconRecorder(Ptr<RdmaFabric> fabric);
    ~DconRecorder() override;

    DconRecorder(const DconRecorder&) = delete;
    DconRecorder& operator=(const DconRecorder&) = delete;

    /**
     * \brief Whether a fabric has DCON queues (then a recorder has something to record).
     * \param fabric the fabric
     * \return true if some switch port has a DconQueueDisc
     */
    static bool HasDconQueues(Ptr<RdmaFabric> fabric);

    /**
     * \brief Connect to every switch's DconCnmGenerator and every NIC (before the run).
     */
    void Start() override;

    /**
     * \brief In a parallel run, bring every rank's CNM records and queue times to rank 0 (a
     * collective call, after Simulator::Run). A sequential run does nothing.
     */
    void Collect() override;

    /**
     * \brief The CNMs sent, with their arrival matched (send order).
     * \return the records
     */
    std::vector<Cnm> GetCnms() const;

    /**
     * \brief Every DCON queue's time per phase up to now (after Collect: every rank's).
     * \return one entry per DCON queue, in switch, port, priority order
     */
    std::vector<QueueTimes> GetQueueTimes() const;

    /**
     * \brief Write cnm.csv.
     * \param path the file
     * \param name the output name of a node
     */
    void WriteCnmCsv(const std::string& path,
                     const std::function<std::string(uint32_t)>& name) const;

    /**
     * \brief Write the "dcon_queues" and "cnms" members of summary.json (each followed by
     * ",\n"), two spaces of indentation.
     * \param out the stream
     * \param name the output name of a node
     */
    void WriteSummary(std::ostream& out, const NodeNames& name) const override;

    /**
     * \brief Write cnm.csv into \p dir (WriteCnmCsv).
     * \param dir the output folder
     * \param name node names
     */
    void WriteFiles(const std::string& dir, const NodeNames& name) const override;

private:
    /// Tests feed CNM events directly (test/dcon-recorder-test.cc).
    friend class DconRecorderTestAccess;

    /// An arrival reported by a NIC.
    struct Receipt
    {
        Time time;              //!< when
        uint64_t cpid{0};       //!< the CNM's congestion point (switch << 16 | port)
        uint32_t src{0};        //!< flow source address
        uint32_t dst{0};        //!< flow destination address
        uint16_t sport{0};      //!< flow source port
        uint32_t flowId{0};     //!< the flow (UINT32_MAX: ended)
        uint64_t rateBefore{0}; //!< its rate before
        bool applied{false};    //!< applied
    };

    /// Counters of the DCON queues (summed).
    struct Counters
    {
        uint64_t arrivals{0};             //!< arrivals
        uint64_t atFloor{0};              //!< Q_CNM at its Q_ECN floor
        uint64_t unmarked{0};             //!< arrivals above Q_ECN not marked
        uint64_t latched{0};              //!< arrivals in the band, latched off
        uint64_t onsets{0};               //!< burst onsets
        uint64_t triggers{0};             //!< congested-flow reports
        uint64_t suppressedNoInnocent{0}; //!< reports without a non-congested flow on the ingress
        uint64_t rateLimited{0};          //!< reports within CnmInterval
    };

    void CnmSent(uint32_t sw, uint32_t port, const RdmaFiveTuple& flow, uint32_t n);
    void CnmReceived(const CnmHeader& cnm, uint32_t flowId, DataRate rateBefore, bool applied);
    /// A CNM was sent. \param c its record (not yet received)
    void Sent(const Cnm& c);
    /// A CNM arrived. \param r the arrival
    void Received(const Receipt& r);

    /// Every CNM row, in cnm.csv's order, with the flow ids of ended flows filled in.
    /// \param fn called for each row
    void ForEachCnm(const std::function<void(const Cnm&)>& fn) const;
    /// The rows joined at the end from every record kept (parallel runs).
    /// \return the rows, the flow ids of ended flows filled in
    std::vector<Cnm> JoinRecords() const;

    // ---- streaming (sequential runs)
    /// The key a CNM is matched with its arrival by: (switch << 16 | port, src, dst, sport).
    using Key = std::tuple<uint64_t, uint32_t, uint32_t, uint16_t>;
    /// A flow's 5-tuple as far as CNMs name it: (src, dst, sport).
    using FlowKey = std::tuple<uint32_t, uint32_t, uint16_t>;
    /// A CNM row not yet written to the spill file.
    struct Row
    {
        Cnm cnm;             //!< the row
        bool matched{false}; //!< its arrival is in
    };
    /// An arrival that came before any CNM it could match (kept in order per key).
    struct Orphan
    {
        Receipt receipt; //!< the arrival
        uint64_t seq{0}; //!< its place among arrivals
    };
    /// The flow id the last open arrival (in arrival order: time, congestion point, order)
    /// named for a flow.
    struct FlowIdOf
    {
        Time time;          //!< the arrival's time
        uint64_t cpid{0};   //!< its congestion point
        uint64_t seq{0};    //!< its place among arrivals
        uint32_t flowId{0}; //!< the flow id
    };
    /// Match the CNM of row \p seq with arrival \p r (number \p receiptSeq).
    void Match(uint64_t seq, const Receipt& r, uint64_t receiptSeq);
    /// Write the rows at the front of the window whose group is complete and matched.
    void Flush();
    /// Append rows to the spill file. \param rows the rows, in order
    void Spill(const std::vector<Cnm>& rows);

    bool m_streaming{true};   //!< join as CNMs arrive (sequential runs)
    std::deque<Row> m_window; //!< rows not yet spilled, in send order
    uint64_t m_windowBase{0}; //!< the number of the window's first row (rows are numbered)
    std::map<Key, std::deque<uint64_t>> m_unmatched; //!< per key: rows without their arrival
    std::map<Key, std::deque<Orphan>> m_orphans;     //!< per key: arrivals without their row
    std::map<FlowKey, FlowIdOf> m_flowIdOf;          //!< per flow: the id to fill in
    uint64_t m_receipts{0};                          //!< arrivals so far
    std::FILE* m_spill{nullptr};                     //!< the spilled rows (binary)
    uint64_t m_spilled{0};                           //!< rows in it
    Counters LocalCounters() const;
    std::vector<QueueTimes> LocalQueueTimes() const;

    Ptr<RdmaFabric> m_fabric;
    std::vector<Cnm> m_sent;           //!< parallel runs: CNMs sent (this rank; all after Collect)
    std::vector<Receipt> m_receiptLog; //!< parallel runs: arrivals (this rank; all after Collect)
    bool m_collected{false};
    Counters m_counters;                  //!< after Collect
    std::vector<QueueTimes> m_queueTimes; //!< after Collect
};

} // namespace ns3

#endif /* DCON_RECORDER_H */
