/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CONGESTION_SPREADING_H
#define CONGESTION_SPREADING_H

#include "ns3/nstime.h"
#include "ns3/rdma-flow-id.h"
#include "ns3/simple-ref-count.h"
#include "rdma-fabric-helper.h"
#include "rdma-flow-helper.h"

#include <array>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class QueueDiscItem;
class RdmaEgressQueueDisc;

/**
 * \ingroup dcon-helper
 * \brief Congestion spreading measured directly: which flows were held by PFC pauses, as culprit
 * or as victim, and how far each congestion event's pauses spread (doc/model/spreading.rst).
 *
 * \par Pause trees
 * Every PAUSE frame (refreshes included) that switch S sends for ingress port p and priority c is
 * attributed to a root: the egress queue of S, priority c, that holds most of the bytes that
 * arrived on p (RdmaSwitch::GetIngressBytesTo; ties to the lowest port). If that egress port is
 * paused by its downstream neighbour, or was paused since its queue was last empty (its backlog
 * is what the pause left), the PAUSE continues that pause's tree: same root, depth one more;
 * otherwise the egress queue is the root and the depth is 1 (the root switch's own PAUSE). The
 * transmitter the PAUSE stops (the peer's port or NIC) carries that root and depth until the next
 * PAUSE frame for it or its resume. A congestion event is a maximal interval in which some
 * transmitter is paused under one root; it counts the transmitters it paused, their summed pause
 * time and its deepest spread.
 *
 * \par Culprit and victim time
 * A flow waits at a transmitter while the transmitter is paused for the flow's priority and the
 * flow has a packet queued there (a switch egress queue) or unsent data (a NIC). Each such
 * interval counts for the flow as culprit time if the flow's own path from that transmitter runs
 * through the root egress queue of the pause (the pause traces back to congestion the flow feeds),
 * and as victim time otherwise (it is held by congestion it does not cause: head-of-line
 * blocking). A flow's victim (culprit) time is the time during which at least one transmitter
 * held it as a victim (culprit); the sums over transmitters (a flow held at two hops at once
 * counts twice) are reported too.
 *
 * \par Outputs (Write)
 * victims.csv (per flow: culprit and victim seconds), pause-trees.csv (every PAUSE frame with its
 * root, depth and event), pause-events.csv (per congestion event) and the "spreading" object of
 * summary.json (WriteSummary).
 *
 * Sequential runs only (a pause's root is known on the rank of the switch that sends it).
 * Off unless enabled (FabricMonitor::EnableCongestionSpreading): it adds two callbacks per packet
 * through a switch (queued, dequeued).
 */
class CongestionSpreading : public SimpleRefCount<CongestionSpreading>
{
public:
    /// A root egress queue: (switch node, port, priority).
    using Root = std::tuple<uint32_t, uint32_t, uint8_t>;

    /// One PAUSE frame a switch sent.
    struct PauseFrame
    {
        Time time;           //!< when it was sent
        uint32_t sw{0};      //!< the switch
        uint32_t port{0};    //!< the ingress port it pauses
        uint32_t peer{0};    //!< the node it pauses
        uint8_t priority{0}; //!< priority
        Root root;           //!< root egress queue
        uint32_t depth{0};   //!< hops upstream of the root (1: the root switch's own PAUSE)
        uint32_t event{0};   //!< congestion event id
    };

    /// One congestion event (a root's pause tree while it lasts).
    struct Event
    {
        uint32_t id{0};                     //!< event id (in order of start)
        Root root;                          //!< the root egress queue
        Time start;                         //!< first pause of the tree
        Time end{Time(-1)};                 //!< last resume (negative: still paused at the end)
        uint32_t maxDepth{0};               //!< deepest PAUSE frame
        uint64_t pauseFrames{0};            //!< PAUSE frames of the tree
        std::vector<uint32_t> transmitters; //!< transmitters paused (ids, sorted, distinct)
        Time pausedTime;                    //!< paused time summed over them
        Time culpritTime;                   //!< flow-time held as culprits
        Time victimTime;                    //!< flow-time held as victims
    };

    /// Per flow.
    struct FlowTimes
    {
        Time culprit;     //!< time held somewhere by pauses of congestion it feeds
        Time victim;      //!< time held somewhere by pauses of congestion it does not feed
        Time culpritHold; //!< culprit time summed over the transmitters holding it
        Time victimHold;  //!< victim time summed over the transmitters holding it
    };

    /// A flow in no group (SetFlowGroups).
    static constexpr uint32_t NO_GROUP = UINT32_MAX;

    /// Per group of flows (SetFlowGroups): how long its flows were held, by the pause's cause.
    struct GroupTimes
    {
        Time victimOthers;     //!< time at least one of its flows was held by another's pause
        Time victimOthersHold; //!< held by another group's pauses, summed over transmitters
        Time ownHold;          //!< held by its own group's pauses, summed over transmitters
        Time unknownHold;      //!< held by pauses of unknown cause, summed over transmitters
    };

    /**
     * \brief Create the measurement for a fabric and its flows.
     * \param fabric the fabric
     * \param flows its flows
     */
    CongestionSpreading(Ptr<RdmaFabric> fabric, Ptr<RdmaFlowHelper> flows);

    /**
     * \brief Connect to every device's PFC traces, every switch egress queue and every NIC
     * (before the run). Throws std::logic_error in a parallel run.
     */
    void Start();

    /**
     * \brief Count holds per group of flows too (e.g. the jobs of a CollectiveWorkload). Each
     * PAUSE frame gets a cause: the group with the most bytes queued in its root egress queue
     * when it is sent (flows in no group count together as group \p groups, "others"; unknown
     * if the queue is empty). A flow held under that frame's root is then held by its own
     * group's pause or by another's. Call before Start.
     * \param groupOf the group of a flow id (< \p groups), or NO_GROUP
     * \param groups the number of groups
     */
    void SetFlowGroups(std::function<uint32_t(uint32_t)> groupOf, uint32_t groups);

    /**
     * \brief A group's hold times (after Finish).
     * \param group the group (\p groups of SetFlowGroups: the flows in no group)
     * \return its times (zeros without SetFlowGroups)
     */
    GroupTimes GetGroupTimes(uint32_t group) const;

    /**
     * \brief Close the intervals still open (call after the run, before reading).
     */
    void Finish();

    /**
     * \brief Culprit and victim time of a flow (zeros if it was never held).
     * \param flowId the flow
     * \return its times
     */
    FlowTimes GetFlowTimes(uint32_t flowId) const;

    /**
     * \brief Every PAUSE frame switches sent, in time order.
     * \return the frames
     */
    const std::vector<PauseFrame>& GetPauseFrames() const;

    /**
     * \brief The congestion events, in order of start.
     * \return the events
     */
    const std::vector<Event>& GetEvents() const;

    /**
     * \brief Write victims.csv, pause-trees.csv and pause-events.csv to \p dir.
     * \param dir the folder (exists)
     * \param name the output name of a node
     */
    void Write(const std::string& dir, const std::function<std::string(uint32_t)>& name) const;

    /**
     * \brief Write the "spreading" member of summary.json (followed by ",\n").
     * \param out the stream
     */
    void WriteSummary(std::ostream& out) const;

private:
    /// One flow held at one transmitter.
    struct Hold
    {
        Time since;               //!< since when (under the transmitter's current root)
        bool known{false};        //!< the transmitter's pause has a root
        bool culprit{false};      //!< the flow's path runs through that root
        uint32_t group{NO_GROUP}; //!< the flow's group (SetFlowGroups)
        uint32_t cause{NO_GROUP}; //!< the group that caused the pause (NO_GROUP: unknown)
    };

    /// A flow's running state: how many transmitters hold it now, and since when at least one.
    struct FlowState
    {
        FlowTimes times;          //!< accumulated
        uint32_t victimHolds{0};  //!< transmitters holding it as a victim now
        uint32_t culpritHolds{0}; //!< ... as a culprit
        Time victimSince;         //!< when victimHolds became > 0
        Time culpritSince;        //!< when culpritHolds became > 0
    };

    /// The pause state of one transmitter and priority.
    struct Held
    {
        bool paused{false};       //!< paused now
        bool carries{false};      //!< paused since its queue was last empty (switch port)
        Time since;               //!< when the current pause began
        bool labelled{false};     //!< a PAUSE frame named its root
        Root root;                //!< the root of the last PAUSE frame for it
        uint32_t depth{0};        //!< its depth
        uint32_t event{0};        //!< its event
        uint32_t cause{NO_GROUP}; //!< the group that caused the last PAUSE frame (groups only)
        Time eventSince;          //!< since when it counts in that event
        std::map<RdmaFiveTuple, Hold> waiting; //!< flows held now (this root)
        /// The switch port's egress queue of this priority (nullptr: a NIC, or the control
        /// priority): its Enqueue trace is connected (Queued) only while paused, its Dequeue
        /// trace (Dequeued) only while it carries a pause's backlog and is not paused.
        RdmaEgressQueueDisc* queue{nullptr}; // the switch's (not owned)
        bool queuedOn{false};                //!< Queued is connected
        bool dequeuedOn{false};              //!< Dequeued is connected
    };

    /// A transmitter: a switch port or a NIC.
    struct Transmitter
    {
        uint32_t node{0};         //!< its node
        uint32_t port{0};         //!< switch port (NICs: 0)
        bool isSwitch{false};     //!< a switch port
        uint32_t peer{0};         //!< the node at the other end of its link
        std::array<Held, 8> held; //!< per priority
    };

    void PfcSent(uint32_t sw, uint32_t port, uint8_t priority, uint16_t quanta);
    void PauseState(uint32_t tx, uint8_t priority, bool paused);
    void Queued(uint32_t tx, Ptr<const QueueDiscItem> item);
    void Dequeued(uint32_t tx, Ptr<const QueueDiscItem> item);
    void FlowStarted(uint32_t nicTx, uint32_t flowId, Ptr<RdmaFlowState> state);
    /// A transmitter begins to hold a flow now (if it does not hold it already).
    void StartHold(uint32_t tx, Held& h, const RdmaFiveTuple& flow);
    /// A hold ends now: credit its time.
    void EndHold(const Held& h, const RdmaFiveTuple& flow, const Hold& hold);
    /// End every hold of (tx, priority) now; returns the flows that were held.
    std::vector<RdmaFiveTuple> CloseAll(uint32_t tx, uint8_t priority);
    /// Whether a flow's path from a transmitter runs through a root egress queue.
    bool HeadsTo(const RdmaFiveTuple& flow, uint32_t tx, const Root& root) const;
    /// The event of a root now (a new one if none is open).
    uint32_t EventFor(const Root& root);
    /// A transmitter's pause with a root began (event membership).
    void JoinEvent(uint32_t tx, uint8_t priority);
    /// It ended (or its root changed).
    void LeaveEvent(uint32_t tx, uint8_t priority);
    /**
     * \brief Connect or disconnect the queue's traces of (tx, priority) as its state asks: the
     * per-packet callbacks run only while they can change something.
     * \param tx the transmitter
     * \param priority the priority
     */
    void SyncQueueTraces(uint32_t tx, uint8_t priority);
    /// Disconnect the Dequeue traces whose backlog drained (Dequeued cannot disconnect itself:
    /// the queue is calling its callbacks). Called from the devices' callbacks.
    void DropDrainedTraces();

    Ptr<RdmaFabric> m_fabric;
    Ptr<RdmaFlowHelper> m_flows;
    std::vector<Transmitter> m_tx;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_txOf; //!< (node, port) -> transmitter
    std::map<RdmaFiveTuple, uint32_t> m_flowOf;               //!< 5-tuple -> flow id
    std::map<RdmaFiveTuple, FlowState> m_flowState;           //!< per flow
    std::vector<PauseFrame> m_frames;
    std::vector<Event> m_events;
    std::map<Root, uint32_t> m_openEvent;                //!< root -> open event id
    std::vector<uint32_t> m_eventActive;                 //!< per event: transmitters paused now
    std::vector<std::pair<uint32_t, uint8_t>> m_drained; //!< (tx, priority): Dequeued to drop
    Time m_unattributed;                                 //!< flow-time held without a known root
    bool m_finished{false};
    /// SetFlowGroups: a flow id's group
    std::function<uint32_t(uint32_t)> m_groupOf;
    uint32_t m_groups{0}; //!< number of groups (0: not counted per group)
    /// per group (and the flows in none): times and the holds by others open now
    std::vector<GroupTimes> m_groupTimes;
    std::vector<uint32_t> m_groupForeignHolds; //!< per group: holds by others' pauses now
    std::vector<Time> m_groupForeignSince;     //!< per group: since when some
    /**
     * \brief The group with the most bytes in a root egress queue now.
     * \param root the root
     * \return the group (m_groups for flows in none), or NO_GROUP if it is empty
     */
    uint32_t CauseOf(const Root& root) const;
    /**
     * \brief A flow's group.
     * \param flow its 5-tuple
     * \return the group, m_groups for a flow in none
     */
    uint32_t GroupOf(const RdmaFiveTuple& flow) const;
};

} // namespace ns3

#endif /* CONGESTION_SPREADING_H */
