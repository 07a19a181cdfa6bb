/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_FABRIC_HELPER_H
#define RDMA_FABRIC_HELPER_H

#include "fabric-spec.h"
#include "ns3/attribute-text.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch-agent.h"
#include "ns3/rdma-switch.h"
#include "ns3/simple-ref-count.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief A built lossless fabric: nodes, switches, NICs, links and routes, indexed by the
 * node numbers of the TopologySpec it was built from.
 */
class RdmaFabric : public SimpleRefCount<RdmaFabric>
{
public:
    /// One link of the fabric.
    struct Link
    {
        uint32_t a;             //!< one end (topology node index)
        uint32_t b;             //!< other end
        uint32_t portA;         //!< port index at a (0 for a host)
        uint32_t portB;         //!< port index at b
        Ptr<PfcNetDevice> devA; //!< device at a
        Ptr<PfcNetDevice> devB; //!< device at b
        DataRate rate;          //!< line rate
        Time delay;             //!< propagation delay
    };

    /**
     * \brief Number of nodes.
     * \return the count
     */
    uint32_t GetNNodes() const;
    /**
     * \brief Whether a node is a switch.
     * \param node topology node index
     * \return true for a switch
     */
    bool IsSwitch(uint32_t node) const;
    /**
     * \brief The ns-3 node.
     * \param node topology node index
     * \return the node
     */
    Ptr<Node> GetNode(uint32_t node) const;
    /**
     * \brief The switch of a switch node.
     * \param node topology node index
     * \return the switch (throws std::invalid_argument for a host)
     */
    Ptr<RdmaSwitch> GetSwitch(uint32_t node) const;
    /**
     * \brief The switch agent of a switch node (installed where the switch has the queue disc
     * of a registered algorithm that declares one, e.g. DCON's CNM generator).
     * \param node topology node index
     * \return the agent, or nullptr if the switch has none (throws for a host)
     */
    Ptr<RdmaSwitchAgent> GetSwitchAgent(uint32_t node) const;
    /**
     * \brief The NIC of a host node.
     * \param node topology node index
     * \return the NIC (throws std::invalid_argument for a switch)
     */
    Ptr<RdmaNic> GetNic(uint32_t node) const;
    /**
     * \brief The address of a host.
     * \param node topology node index
     * \return the address
     */
    Ipv4Address GetAddress(uint32_t node) const;
    /**
     * \brief The host that has an address.
     * \param address the address
     * \return its node index, or UINT32_MAX if no host has it
     */
    uint32_t GetNodeByAddress(Ipv4Address address) const;
    /**
     * \brief Host node indices, ascending.
     * \return the hosts
     */
    const std::vector<uint32_t>& GetHosts() const;
    /**
     * \brief Switch node indices, ascending.
     * \return the switches
     */
    const std::vector<uint32_t>& GetSwitches() const;
    /**
     * \brief All links, in topology order.
     * \return the links
     */
    const std::vector<Link>& GetLinks() const;
    /**
     * \brief The port of \p node on its link to \p neighbor.
     * \param node a node
     * \param neighbor an adjacent node
     * \return the port index (throws std::invalid_argument if not adjacent)
     */
    uint32_t GetPort(uint32_t node, uint32_t neighbor) const;
    /**
     * \brief Number of switches on a shortest path between two hosts.
     * \param src source host
     * \param dst destination host
     * \return switch hops
     */
    uint32_t GetSwitchHops(uint32_t src, uint32_t dst) const;
    /**
     * \brief The links of one shortest path from \p src to \p dst (lowest-numbered neighbours).
     * \param src source host
     * \param dst destination host
     * \return link indices in order from src
     */
    std::vector<uint32_t> GetShortestPath(uint32_t src, uint32_t dst) const;
    /**
     * \brief Unloaded RTT: propagation both ways, one full data packet serialized per hop
     * forward and one ACK per hop back.
     * \param src source host
     * \param dst destination host
     * \return the base RTT
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst) const;
    /**
     * \brief Unloaded flow completion time of a message (sender sees the last ACK), with
     * store-and-forward switches and the sender pacing at its line rate.
     * \param src source host
     * \param dst destination host
     * \param size message bytes
     * \return the ideal FCT
     */
    Time GetIdealFct(uint32_t src, uint32_t dst, uint64_t size) const;
    /**
     * \brief The MPI rank that runs a node (0 in a sequential run).
     * \param node topology node index
     * \return its rank
     */
    uint32_t GetRank(uint32_t node) const;

    /**
     * \brief Whether this process runs a node's events (always true in a sequential run).
     * \param node topology node index
     * \return true if local
     */
    bool IsLocal(uint32_t node) const;

    /**
     * \brief Counters of all NICs added up.
     * \return the totals
     */
    RdmaNic::Stats GetNicTotals() const;
    /**
     * \brief Largest base RTT between any two hosts (the worst-case path).
     * \return the RTT
     */
    Time GetMaxBaseRtt() const;
    /**
     * \brief Set the window of every switch agent (RdmaSwitchAgent::SetWindow) to a multiple
     * of the largest base RTT. DCON: its window T (the paper's default is 3 RTT), the T_last
     * window of its ingress tracker and the window in which its queues count the flows N.
     * Refuses (std::invalid_argument) a default the user gave to an attribute it sets.
     * \param rtts the multiple (> 0)
     */
    void SetSwitchAgentWindowInRtts(double rtts);
    /**
     * \brief The design fan-out of a switch's ingress port: how many of the switch's egress
     * ports the packets that arrive on it can be forwarded to under the routing tables (all
     * shortest paths). A packet for host h arrives from neighbour u if u is a host other than h,
     * or a switch one hop farther from h; it may leave on every port toward h. Build configures
     * every switch with these (RdmaSwitch::SetIngressDesignFanOut; DCON's worst-case M, paper
     * Section 4.4). In a leaf-spine fabric: a leaf's spine port reaches the leaf's host ports,
     * a host port the uplinks and the other host ports, a spine port the other leaves.
     * \param sw switch node index
     * \param port the switch's port index
     * \return M (0 if no packet can arrive on the port)
     */
    uint32_t GetDesignFanOut(uint32_t sw, uint32_t port) const;
    /**
     * \brief Pin a flow to the path through the given node sequence (src host ... dst host).
     * \param tuple the flow's 5-tuple
     * \param path node indices along the path, starting at the source host
     */
    void PinPath(const RdmaFiveTuple& tuple, const std::vector<uint32_t>& path);
    /**
     * \brief Give every random variable of the fabric (the RED marking coins of the switches'
     * egress queues) a fixed stream, in switch, port, priority order.
     *
     * RdmaFabricHelper::Build already calls this with stream 0, so that building the same
     * fabric twice, even in one process, gives the same run (ns-3's automatic stream numbers
     * keep counting across Simulator::Destroy). Call it again to move the streams away from
     * streams the scenario assigns itself; vary RngRun for independent replications.
     * \param stream first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    friend class RdmaFabricHelper;
    NodeContainer m_nodes;
    std::vector<bool> m_isSwitch;
    std::vector<uint32_t> m_rank; //!< per node: the MPI rank that runs it
    std::vector<Ptr<RdmaSwitch>> m_switches;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ipv4Address> m_addresses;
    std::vector<uint32_t> m_hosts;
    std::vector<uint32_t> m_switchIds;
    std::vector<Link> m_links;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> m_adj; //!< (neighbor, link index)
    std::vector<uint32_t> m_hostIndex;                             //!< node -> index in m_hosts
    std::vector<std::vector<uint16_t>> m_distToHost;               //!< [host index][node]
};

/**
 * \ingroup dcon-helper
 * \brief Builds an RdmaFabric from a TopologySpec: PfcNetDevice/PfcChannel links, a RdmaSwitch
 * (with SwitchMmu and egress queue discs) on every switch node, an RdmaNic on every host, host
 * addresses 10.0.0.0 + index + 1, and all-shortest-path routes for per-flow ECMP.
 *
 * In a parallel run (ParallelRun) each node is given a rank (the partition, RankPartition), and
 * a link whose two ends are on different ranks is a PfcRemoteChannel, which carries its frames
 * to the other rank (RankTransport), as PointToPointHelper makes a PointToPointRemoteChannel.
 *
 * Like PointToPointHelper, attributes of each created object type are set on the helper before
 * Build(). Unless AutoHeadroom is off, each switch's PFC headroom is sized for its fastest,
 * longest link: 2 x delay x rate + 3 full frames (in flight both ways, the frame being sent when
 * the PAUSE arrives, the PAUSE frame itself).
 *
 * The congestion control decides the switch side: unless a queue was chosen (SetQueueDisc,
 * SetQueueDiscForRate), every switch port gets the queue discipline of the algorithm's registry
 * entry (RdmaCcEntry::queueDisc) with the attributes it declares for the port's rate, and every
 * switch the agent that goes with that queue (DCON: DconQueueDisc and DconCnmGenerator). A queue
 * chosen explicitly must give the feedback the algorithm needs (RdmaCcEntry::feedback): Build
 * refuses one that does not, naming the algorithm's own queue; one that does is used as chosen,
 * even if unusual (DCQCN over DCON's queue, which marks ECN).
 */
class RdmaFabricHelper
{
public:
    RdmaFabricHelper();

    /**
     * \brief Set an attribute of every RdmaSwitch.
     * \param name attribute name
     * \param value value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every switch agent (Build installs the agent an algorithm's
     * registry entry declares on each switch with that algorithm's queue disc, e.g. DCON's
     * CNM generator). Build throws if an installed agent has no such attribute.
     * \param name attribute name
     * \param value value
     */
    void SetSwitchAgentAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every SwitchMmu.
     * \param name attribute name
     * \param value value
     */
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every PfcNetDevice (DataRate comes from the topology).
     * \param name attribute name
     * \param value value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set an attribute of every RdmaNic. (Build() gives every RdmaSwitch the NICs'
     * ControlPriority, the priority of their ACK, NAK and CNP.)
     * \param name attribute name
     * \param value value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Choose the egress queue disc of the switches, instead of the one the congestion
     * control declares (see the class description). Build refuses a queue that lacks feedback
     * the congestion control needs.
     * \param type TypeId name of an RdmaEgressQueueDisc subclass
     * \param args attribute name/value pairs
     */
    template <typename... Args>
    void SetQueueDisc(const std::string& type, Args&&... args);
    /**
     * \brief Use a different egress queue disc (or settings) on switch ports of one line rate,
     * e.g. ECN thresholds that scale with the port speed.
     * \param rate the port line rate this applies to
     * \param type TypeId name of an RdmaEgressQueueDisc subclass
     * \param args attribute name/value pairs
     */
    template <typename... Args>
    void SetQueueDiscForRate(DataRate rate, const std::string& type, Args&&... args);
    /**
     * \brief Set one more attribute of the egress queue disc: the one chosen by SetQueueDisc,
     * or, without SetQueueDisc, the one the congestion control declares (checked when Build
     * runs, after the algorithm's own attributes of the queue, which it replaces).
     * \param name attribute name
     * \param value value
     */
    void SetQueueDiscAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief Set one more attribute of the egress queue disc of ports of one rate (after
     * SetQueueDiscForRate for that rate).
     * \param rate the port line rate
     * \param name attribute name
     * \param value value
     */
    void SetQueueDiscAttributeForRate(DataRate rate,
                                      const std::string& name,
                                      const AttributeValue& value);
    /**
     * \brief Choose the congestion control of every NIC, and optionally one of its parameter
     * sets (RdmaCcEntry::parameterSets), applied to each NIC's congestion-control factory at
     * the NIC's line rate when Build runs. An attribute of the set that the user gave on the
     * command line (SetUserAttributePaths) keeps the user's value. Without a queue chosen by
     * SetQueueDisc, the switches get the algorithm's own queue discipline and agent (see the
     * class description). Without this call, the NICs' CongestionControl attribute decides
     * (default DCQCN).
     * \param name short name ("dcqcn", "none", ...) or TypeId name; throws
     * std::invalid_argument if unknown
     * \param parameterSet a parameter set of the algorithm, or "" for its attribute defaults;
     * throws std::invalid_argument naming an unknown set and the known ones
     */
    void SetCongestionControl(const std::string& name, const std::string& parameterSet = "");
    /**
     * \brief Set an attribute of every NIC's congestion control (after the parameter set of
     * SetCongestionControl): a program's own setting, e.g. a rate floor from its option.
     * Throws std::invalid_argument if the congestion control has no such attribute, the value
     * is not valid, or the user gave a default for it.
     * \param name attribute name (of the congestion control's TypeId)
     * \param value value
     */
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    /**
     * \brief The queue discipline Build gives switch ports of a rate: SetQueueDiscForRate's for
     * that rate, else SetQueueDisc's, else the congestion control's (RdmaCcEntry::queueDisc).
     * \param portRate the port's line rate
     * \return its TypeId name
     */
    std::string GetQueueDisc(DataRate portRate) const;

    /**
     * \brief Whether to size PFC headroom from the links (default true).
     * \param enable true to size automatically
     */
    void SetAutoHeadroom(bool enable);

    /**
     * \brief Give the partition of a parallel run explicitly (one rank per topology node)
     * instead of RankPartition::Balanced.
     * \param rank one rank per node
     */
    void SetPartition(const std::vector<uint32_t>& rank);

    /**
     * \brief Read the partition from a file ("node rank" lines, RankPartition::Read) when the
     * fabric is built; empty: the default partition.
     * \param path the file
     */
    void SetPartitionFile(const std::string& path);

    /**
     * \brief Build the fabric. Throws std::invalid_argument if the topology cannot be built
     * (a host with no link or more than one, a host unreachable from another host).
     * Random variables get fixed streams from 0 (see RdmaFabric::AssignStreams).
     * \param topo the topology
     * \return the fabric
     */
    Ptr<RdmaFabric> Build(const TopologySpec& topo) const;

    /**
     * \brief Make ns3::PriorityQueueScheduler (a binary heap in one vector) the default event
     * scheduler, by binding the "SchedulerType" global value.
     *
     * Every ns-3 scheduler orders events by time and then by insertion order, so the choice
     * does not change any result; the heap avoids MapScheduler's one tree-node allocation per
     * event and makes fabric runs about 15% faster here (doc/performance.rst). Call it
     * before CommandLine::Parse so that --SchedulerType still overrides it, and before the
     * first event is scheduled.
     */
    static void UseFastScheduler();

    /**
     * \brief The types of the objects a fabric built with congestion control \p cc and switch
     * queue \p queueDisc creates (nodes, switches, MMUs, devices, channels, NICs, queue pairs,
     * the queue discipline and its queues, the algorithm; DCON's CNM generator and ingress
     * tracker with a DCON queue; RED's random variable): ProgramFrame::CheckUse refuses options
     * and attributes of other types.
     * \param cc the congestion control (short or TypeId name; throws if unknown)
     * \param queueDisc the switch queue's TypeId name
     * \return the types
     */
    static std::vector<TypeId> GetCreatedTypes(const std::string& cc, const std::string& queueDisc);

private:
    ObjectFactory m_switchFactory;
    /// Attributes of the switch agents (SetSwitchAgentAttribute), in the order given.
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_agentAttributes;
    TypeId m_ccTypeId;            //!< congestion control of SetCongestionControl (or none)
    std::string m_ccParameterSet; //!< parameter set of the congestion control ("" = none)
    /// Attributes of the NICs' congestion control (SetCongestionControlAttribute).
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_ccAttributes;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;       //!< links within a rank (PfcChannel)
    ObjectFactory m_remoteChannelFactory; //!< links between ranks (PfcRemoteChannel)
    ObjectFactory m_nicFactory;
    ObjectFactory m_queueFactory; //!< SetQueueDisc's (when m_queueChosen)
    bool m_queueChosen{false};    //!< SetQueueDisc was called
    /// SetQueueDiscAttribute's values without SetQueueDisc: for the algorithm's own queue.
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_ccQueueAttributes;
    std::map<uint64_t, ObjectFactory> m_queueFactoryByRate; //!< bit/s -> factory
    bool m_autoHeadroom{true};
    std::vector<uint32_t> m_partition; //!< explicit partition (empty: none)
    std::string m_partitionFile;       //!< partition file (empty: none)

    /**
     * \brief Factory of an RdmaEgressQueueDisc subclass, or throw naming \p type.
     * \param type TypeId name
     * \return a factory of that type
     */
    static ObjectFactory QueueDiscFactory(const std::string& type);
    /**
     * \brief The attributes Build sets on the congestion control of a NIC of \p lineRate: the
     * parameter set's values (user-given attributes left alone), then the
     * SetCongestionControlAttribute values.
     * \param cc the congestion control's TypeId
     * \param lineRate the NIC's line rate
     * \return attribute name and value pairs, in the order to set them
     */
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> GetCcAttributes(
        TypeId cc, DataRate lineRate) const;
    /**
     * \brief Set the attributes SetQueueDiscAttribute recorded before SetQueueDisc on the chosen
     * queue's factory (each checked: SetCheckedAttribute), then forget them.
     */
    void AdoptQueueAttributes();

    /**
     * \brief Set an attribute on a factory, or throw std::invalid_argument naming it if the
     * factory's type has no such attribute (its own or inherited) or the value is not valid for
     * it (ObjectFactory::Set would abort instead).
     * \param factory the factory
     * \param name attribute name
     * \param value value
     * \param what what the factory makes, for the message (e.g. "switch queue")
     */
    static void SetCheckedAttribute(ObjectFactory& factory,
                                    const std::string& name,
                                    const AttributeValue& value,
                                    const std::string& what);

    /**
     * \brief The congestion control Build gives the NICs: SetCongestionControl's, else the NIC
     * factory's CongestionControl attribute.
     * \return its TypeId
     */
    TypeId GetCcTypeId() const;

    /**
     * \brief The queue factory for switch ports of \p rate (see GetQueueDisc), with the
     * attributes the algorithm declares for that rate when it is the algorithm's own queue.
     * \param rate the port's line rate
     * \param explicitChoice set to whether SetQueueDisc or SetQueueDiscForRate chose it
     * \return the factory
     */
    ObjectFactory GetPortQueueFactory(DataRate rate, bool* explicitChoice) const;

    /**
     * \brief The factory of switch agents of \p type with the SetSwitchAgentAttribute values;
     * throws std::invalid_argument naming an attribute the type lacks or one the user gave.
     * \param type TypeId name of an RdmaSwitchAgent subclass
     * \return the factory
     */
    ObjectFactory GetSwitchAgentFactory(const std::string& type) const;

    /// Refuse attribute name/value pairs of a factory of \p tid that the user gave
    /// (RefuseOverwritingUserAttribute); the end of the recursion.
    static void CheckFactoryPairs(TypeId tid);

    /**
     * \brief Refuse attribute name/value pairs of a factory of \p tid that the user gave.
     * \param tid the factory's type
     * \param name the first attribute's name
     * \param value its value
     * \param rest more pairs
     */
    template <typename... Rest>
    static void CheckFactoryPairs(TypeId tid,
                                  const std::string& name,
                                  const AttributeValue& value,
                                  Rest&&... rest);
};

template <typename... Rest>
void
RdmaFabricHelper::CheckFactoryPairs(TypeId tid,
                                    const std::string& name,
                                    const AttributeValue& value,
                                    Rest&&... rest)
{
    RefuseOverwritingUserAttribute(tid, name, "the program (on every switch queue)");
    CheckFactoryPairs(tid, std::forward<Rest>(rest)...);
}

template <typename... Args>
void
RdmaFabricHelper::SetQueueDisc(const std::string& type, Args&&... args)
{
    ObjectFactory f = QueueDiscFactory(type);
    CheckFactoryPairs(f.GetTypeId(), args...);
    m_queueFactory = f;
    m_queueChosen = true;
    // Attributes given before the choice (SetQueueDiscAttribute) go to the chosen queue, then
    // this call's.
    AdoptQueueAttributes();
    m_queueFactory.Set(std::forward<Args>(args)...);
}

template <typename... Args>
void
RdmaFabricHelper::SetQueueDiscForRate(DataRate rate, const std::string& type, Args&&... args)
{
    ObjectFactory f = QueueDiscFactory(type);
    CheckFactoryPairs(f.GetTypeId(), args...);
    f.Set(std::forward<Args>(args)...);
    m_queueFactoryByRate[rate.GetBitRate()] = f;
}

} // namespace ns3

#endif /* RDMA_FABRIC_HELPER_H */
