/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_TIMELINE_H
#define DCON_TIMELINE_H

#include "ns3/event-id.h"
#include "ns3/fabric-monitor-extension.h"
#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-id.h"
#include "ns3/rdma-flow-state.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class CnmHeader;
struct RdmaFlowRecord;

/**
 * \ingroup dcon-experiments
 * \brief What DCON's queues and senders did in each interval of a run: a time series that shows
 * when and where a fabric changes regime (which tier of queues sits in which of DCON's states,
 * whether ECN marks still flow, what the senders' rates do meanwhile).
 *
 * Off by default. With Interval > 0 (e.g. `--ns3::DconTimeline::Interval=1ms`) on a fabric with
 * DCON queues, FabricMonitor writes two files:
 * - dcon-timeline.csv: one row per interval and tier of egress queues (the data priorities'
 *   DCON queues): `tor-host` (a switch with hosts, towards a host), `tor-up` (a switch with
 *   hosts, towards a switch), `core` (a switch without hosts). Columns: time_s (the interval's
 *   end), tier, queues (those that have received a packet so far), bytes (queued at time_s,
 * summed), max_queue_bytes, queues_below, queues_marking, queues_latched, queues_burst (queues in
 * each phase at time_s), then over the interval: queue_s_marking, queue_s_latched, queue_s_burst
 * (queue-seconds in each phase), arrivals, arrivals_qcnm_at_qecn, ecn_marks, unmarked_above_qecn,
 * latched_arrivals, burst_onsets, cnm_triggers, cnms_sent.
 * - dcon-senders.csv: one row per interval: time_s, active_flows (open sending flows at
 *   time_s), mean_rate_gbps, mean_target_gbps, flows_at_line (rate >= 95% of the line rate),
 *   flows_below_tenth (rate < 10% of it), then over the interval: cnps_received, cnps_marked
 *   (with the congestion bit), cnms_received, cnms_applied.
 *
 * In a parallel run every rank samples its own nodes and Collect adds the ranks' rows up
 * (max_queue_bytes: the largest).
 */
class DconTimeline
    : public FabricMonitorExtension
    , public ObjectBase
{
public:
    /**
     * \brief Get the type ID (the Interval attribute).
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /**
     * \brief A timeline of a fabric; reads the attribute defaults (Config::SetDefault).
     * \param fabric the fabric
     */
    explicit DconTimeline(Ptr<RdmaFabric> fabric);

    /// The tiers of egress queues, in output order.
    enum Tier
    {
        TOR_HOST = 0, //!< a switch with hosts, port towards a host
        TOR_UP = 1,   //!< a switch with hosts, port towards a switch
        CORE = 2,     //!< a switch without hosts
        NUM_TIERS = 3 //!< count
    };

    /**
     * \brief The tier name in the output.
     * \param tier the tier
     * \return e.g. "tor-host"
     */
    static const char* TierName(Tier tier);

    /**
     * \brief The sampling interval (0: off).
     * \return the interval
     */
    Time GetInterval() const;

    void Start() override;
    void Collect() override;
    void WriteFiles(const std::string& dir, const NodeNames& name) const override;
    void WriteSummary(std::ostream& out, const NodeNames& name) const override;

private:
    /// Additive values of one tier in one interval (columns of dcon-timeline.csv).
    enum QueueField
    {
        Q_QUEUES,
        Q_BYTES,
        Q_MAX_BYTES,
        Q_BELOW,
        Q_MARKING,
        Q_LATCHED,
        Q_BURST,
        Q_PS_MARKING,
        Q_PS_LATCHED,
        Q_PS_BURST,
        Q_ARRIVALS,
        Q_AT_FLOOR,
        Q_MARKS,
        Q_UNMARKED,
        Q_LATCHED_ARRIVALS,
        Q_ONSETS,
        Q_TRIGGERS,
        Q_CNMS_SENT,
        Q_NUM_FIELDS
    };

    /// Additive values of the senders in one interval (columns of dcon-senders.csv).
    enum SenderField
    {
        S_ACTIVE,
        S_RATE_BPS,
        S_TARGET_BPS,
        S_AT_LINE,
        S_BELOW_TENTH,
        S_CNPS,
        S_CNPS_MARKED,
        S_CNMS,
        S_CNMS_APPLIED,
        S_NUM_FIELDS
    };

    /// One DCON queue's cumulative counters at the previous sample.
    struct QueueState
    {
        uint32_t sw{0};                  //!< switch node
        uint32_t port{0};                //!< port
        uint8_t priority{0};             //!< priority
        Tier tier{TOR_HOST};             //!< its tier
        std::array<uint64_t, 7> last{};  //!< arrivals, floor, marks, unmarked, latched, ...
        std::array<int64_t, 4> lastPs{}; //!< picoseconds per phase
    };

    /// One interval's row.
    struct Row
    {
        Time time;                                                         //!< its end
        std::array<std::array<int64_t, Q_NUM_FIELDS>, NUM_TIERS> queues{}; //!< per tier
        std::array<int64_t, S_NUM_FIELDS> senders{};                       //!< senders
    };

    void Sample();
    void FlowStarted(uint32_t flowId, Ptr<RdmaFlowState> state);
    void FlowCompleted(const RdmaFlowRecord& record);
    void CnmReceived(const CnmHeader& cnm, uint32_t flowId, DataRate rateBefore, bool applied);
    void CnmSent(uint32_t sw, uint32_t port, const RdmaFiveTuple& flow, uint32_t n);

    Ptr<RdmaFabric> m_fabric;
    Time m_interval;                                //!< the Interval attribute
    EventId m_event;                                //!< the next sample
    std::vector<QueueState> m_queues;               //!< the local DCON queues
    std::map<uint64_t, Tier> m_tierOfPort;          //!< (switch << 32 | port) -> tier
    std::map<uint64_t, Ptr<RdmaFlowState>> m_flows; //!< open flows ((host << 32) | id)
    std::array<int64_t, NUM_TIERS> m_cnmsSent{};    //!< CNMs sent in this interval
    int64_t m_cnms{0};                              //!< CNMs received in this interval
    int64_t m_cnmsApplied{0};                       //!< of which applied
    uint64_t m_lastCnps{0};                         //!< CNPs received up to the last sample
    uint64_t m_lastCnpsMarked{0};                   //!< marked CNPs up to the last sample
    std::vector<Row> m_rows;                        //!< the samples
};

} // namespace ns3

#endif /* DCON_TIMELINE_H */
