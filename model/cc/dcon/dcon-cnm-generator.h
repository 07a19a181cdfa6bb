/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_CNM_GENERATOR_H
#define DCON_CNM_GENERATOR_H

#include "dcon-ingress-tracker.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-flow-id.h"
#include "ns3/rdma-queue-disc-item.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/traced-callback.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

class RdmaSwitch;
class DconQueueDisc;

/**
 * \ingroup dcon-cc-dcon
 * \brief DCON's switch side (Hu et al. 2023, Section 4.2): T_last per ingress port and the
 * direct congestion notification of congested flows. Aggregated to a switch node that has
 * DconQueueDiscs (RdmaFabricHelper::Build installs it).
 *
 * It listens to the switch's PacketQueued trace: every packet queued at an egress port whose
 * queue is not in burst congestion (a DconQueueDisc in BURST) stamps T_last of its (ingress,
 * egress) pair (DconIngressTracker); packets of the switch's control priority only with
 * ControlStampsTlast.
 * It listens to the CongestedFlow trace of every DconQueueDisc of the switch: for a congested
 * flow it sends a CNM (CnmHeader, EtherType 0x22E7) with the flow's identity, N and the egress
 * link's capacity C toward the flow's sender, ahead of data (RdmaSwitch::SendControlFrame), if
 * the flow's ingress port carried a non-congested packet to another egress port within the
 * tracker's window (DconIngressTracker::Scope) and no CNM
 * for that flow was sent from this switch in the last CnmInterval.
 */
class DconCnmGenerator : public RdmaSwitchAgent
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DconCnmGenerator();
    ~DconCnmGenerator() override;

    /**
     * \brief Connect to a switch (after RdmaSwitch::Finalize: its ports and queue discs exist):
     * its PacketQueued trace and the CongestedFlow trace of each of its DconQueueDiscs.
     * \param sw the switch (its node should hold this object as an aggregate)
     */
    void Install(Ptr<RdmaSwitch> sw) override;

    /**
     * \brief Set DCON's window T: the T_last window of the ingress tracker and the FlowWindow
     * in which this switch's DconQueueDiscs count N (the paper's default is 3 base RTTs).
     * \param window T (> 0)
     */
    void SetWindow(Time window) override;

    /**
     * \brief The attributes SetWindow sets: DconIngressTracker::Window and
     * DconQueueDisc::FlowWindow.
     * \return the (TypeId, attribute) pairs
     */
    std::vector<std::pair<TypeId, std::string>> GetWindowAttributes() const override;

    /**
     * \brief The types this agent creates: its DconIngressTracker.
     * \return the TypeIds
     */
    std::vector<TypeId> GetCreatedTypes() const override;

    /// Counters.
    struct Stats
    {
        uint64_t sent{0};           //!< CNMs sent
        uint64_t noInnocentFlow{0}; //!< congested-flow reports whose ingress had no recent
                                    //!< non-congested packet
        uint64_t rateLimited{0};    //!< reports suppressed by CnmInterval
    };

    /**
     * \brief The counters.
     * \return them
     */
    const Stats& GetStats() const;

    /**
     * \brief CNMs sent for flows congested at a port (the congested egress port).
     * \param port the port
     * \return count
     */
    uint64_t GetCnmsSent(uint32_t port) const;

    /**
     * \brief The T_last tracker.
     * \return the tracker
     */
    Ptr<DconIngressTracker> GetIngressTracker() const;

    /// Signature of the CnmSent trace: congested egress port, the flow, N.
    typedef void (*CnmSentTracedCallback)(uint32_t port, const RdmaFiveTuple& flow, uint32_t n);

protected:
    void DoDispose() override;

private:
    /**
     * \brief The switch queued a packet: stamp T_last of its ingress port unless its queue is
     * in burst congestion.
     * \param inPort ingress port
     * \param outPort egress port
     * \param priority priority
     */
    void PacketQueued(uint32_t inPort, uint32_t outPort, uint8_t priority);

    /**
     * \brief A DconQueueDisc reports a congested flow: maybe send a CNM to its sender.
     * \param port the congested egress port
     * \param item the packet of the flow that arrived (an RdmaQueueDiscItem)
     * \param numFlows N
     */
    void CongestedFlow(uint32_t port, Ptr<const QueueDiscItem> item, uint32_t numFlows);

    Ptr<RdmaSwitch> m_switch;
    Ptr<DconIngressTracker> m_tracker;
    Time m_cnmInterval;
    bool m_controlStampsTlast;
    uint8_t m_controlPriority{7};
    uint32_t m_nodeId{0};
    /// Per (port, priority): the DconQueueDisc there, or null (owned by the switch).
    std::vector<DconQueueDisc*> m_dconQueues;
    std::unordered_map<RdmaFiveTuple, Time, RdmaFiveTupleHash> m_lastCnm; //!< per flow
    std::vector<uint64_t> m_cnmsSentPerPort;
    Stats m_stats;
    TracedCallback<uint32_t, const RdmaFiveTuple&, uint32_t> m_cnmSentTrace; //!< CNM sent
};

} // namespace ns3

#endif /* DCON_CNM_GENERATOR_H */
