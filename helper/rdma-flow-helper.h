/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FLOW_HELPER_H
#define RDMA_FLOW_HELPER_H

#include "fabric-spec.h"
#include "ns3/simple-ref-count.h"
#include "rdma-fabric-helper.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Schedules flows (messages) on a fabric and keeps count of their completion.
 *
 * Flow ids are given in the order flows are added (0, 1, ...). Each flow starts at its start
 * time on the source host's NIC with the base RTT and hop count of its path. When
 * StopWhenDone is on (the default), the simulation stops as soon as the last flow completes.
 */
class RdmaFlowHelper : public SimpleRefCount<RdmaFlowHelper>
{
public:
    /// One scheduled flow.
    struct Flow
    {
        uint32_t src;          //!< source host (node index)
        uint32_t dst;          //!< destination host
        uint64_t size;         //!< bytes
        Time start;            //!< start time
        uint8_t priority;      //!< PFC priority
        uint16_t sport;        //!< UDP source port (0 = chosen by the NIC)
        DataRate startRate{0}; //!< rate the flow starts at (0 = line rate)
        /// Attribute values of the flow's congestion control (RdmaFlowRequest::ccAttributes)
        std::vector<std::pair<std::string, std::string>> ccAttributes;
    };

    /**
     * \brief Create a helper for a fabric.
     * \param fabric the fabric
     */
    explicit RdmaFlowHelper(Ptr<RdmaFabric> fabric);

    /**
     * \brief Add a flow. Throws std::invalid_argument naming the bad value if src or dst is
     * not a host, src == dst, size is 0, the start time is in the past or priority > 7.
     * \param src source host node index
     * \param dst destination host node index
     * \param size bytes
     * \param start start time (absolute)
     * \param priority PFC priority of the data
     * \param sport UDP source port (0 = chosen by the NIC), to make the 5-tuple known ahead
     * \return the flow id
     */
    uint32_t AddFlow(uint32_t src,
                     uint32_t dst,
                     uint64_t size,
                     Time start,
                     uint8_t priority = 3,
                     uint16_t sport = 0);

    /**
     * \brief Add a flow that starts when StartTriggered is called, not at a time given now: a
     * workload whose flows wait for one another (CollectiveWorkload). The same checks as
     * AddFlow but the start time; it counts toward StopWhenDone like every flow (so all of a
     * workload's flows are added before the run, also in a parallel run, where every rank adds
     * the same flows in the same order). Its Flow::start is Time::Max() until it starts.
     * \param src source host node index
     * \param dst destination host node index
     * \param size bytes
     * \param priority PFC priority of the data
     * \param sport UDP source port (0 = chosen by the NIC)
     * \return the flow id
     */
    uint32_t AddTriggeredFlow(
        uint32_t src, uint32_t dst, uint64_t size, uint8_t priority = 3, uint16_t sport = 0);

    /**
     * \brief Start a flow added with AddTriggeredFlow now (on the rank that runs its source).
     * \throws std::invalid_argument naming the flow if it was not added so, has started, or its
     * source is not on this rank
     * \param flowId the flow
     */
    void StartTriggered(uint32_t flowId);

    /**
     * \brief Add flows read from an HPCC-format flow file (priority group = PFC priority).
     * \param flows the flows
     */
    void AddFlows(const std::vector<FlowSpec>& flows);

    /**
     * \brief Start a flow at a rate below the line rate instead of at line rate (its
     * congestion control's rate and target rate, or Swift's first window = rate x base RTT).
     * \throws std::invalid_argument naming the flow and the rate if the flow does not exist,
     * has started already, or the rate is 0 or above its source's line rate.
     * \param flowId the flow
     * \param rate the start rate
     */
    void SetStartRate(uint32_t flowId, DataRate rate);

    /**
     * \brief Give a flow's congestion-control object attribute values of its own (per-QP
     * parameters, RdmaFlowRequest::ccAttributes), e.g. {{"CctiIncrease", "2"}} for InfiniBand CC.
     * The NIC refuses an unknown name or a bad value when the flow starts.
     * \throws std::invalid_argument naming the flow if it does not exist or has started.
     * \param flowId the flow
     * \param attributes name and value pairs (ns-3 string form), applied in order
     */
    void SetCcAttributes(uint32_t flowId,
                         const std::vector<std::pair<std::string, std::string>>& attributes);
    /**
     * \brief The 5-tuple a flow will use (needs an explicit sport).
     * \param flowId the flow
     * \return the tuple
     */
    RdmaFiveTuple GetFiveTuple(uint32_t flowId) const;

    /**
     * \brief Stop the simulator when the last flow completes (default true), or \p drain
     * after it (to let ACKs and CNPs still on the way leave the fabric). In a parallel run
     * (ParallelRun) every rank stops at the same time, once all ranks' flows are complete:
     * the last completion plus the larger of \p drain and ParallelRun::GetGossipDelay().
     * \param enable true to stop
     * \param drain how long after the last completion (>= 0)
     */
    void SetStopWhenDone(bool enable, Time drain = Time(0));

    /**
     * \brief The scheduled flows, by id.
     * \return the flows
     */
    const std::vector<Flow>& GetFlows() const;

    /**
     * \brief Number of flows completed so far (in a parallel run: of this rank's flows; the
     * monitor's records hold all of them after the run).
     * \return the count
     */
    uint32_t GetNCompleted() const;

private:
    /**
     * \brief Start a flow now.
     * \param id the flow id
     */
    void Start(uint32_t id);
    /**
     * \brief A flow completed.
     * \param rec its record
     */
    void Completed(const RdmaFlowRecord& rec);
    /**
     * \brief Check a flow's values and record it (AddFlow, AddTriggeredFlow).
     * \param src source host
     * \param dst destination host
     * \param size bytes
     * \param start start time, or Time::Max() for a triggered flow
     * \param priority PFC priority
     * \param sport UDP source port
     * \return the flow id
     */
    uint32_t Record(
        uint32_t src, uint32_t dst, uint64_t size, Time start, uint8_t priority, uint16_t sport);

    Ptr<RdmaFabric> m_fabric;
    std::vector<Flow> m_flows;
    /// In a parallel run: when every local flow is complete, tell the other ranks.
    void CheckLocalDone();

    uint32_t m_completed{0};  //!< flows completed (in a parallel run: of this rank's)
    uint32_t m_localFlows{0}; //!< flows this process starts (all of them when sequential)
    bool m_stopWhenDone{true};
    Time m_drain;                  //!< stop this long after the last completion
    std::vector<bool> m_connected; //!< per host: FlowComplete trace connected
    std::vector<bool> m_triggered; //!< per flow: added by AddTriggeredFlow, not yet started
};

} // namespace ns3

#endif /* RDMA_FLOW_HELPER_H */
