/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-cnm-generator.h"

#include "dcon-queue-disc.h"
#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/cnm-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconCnmGenerator");
NS_OBJECT_ENSURE_REGISTERED(DconCnmGenerator);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::DconCnmGenerator::CnmSentTracedCallback);

TypeId
DconCnmGenerator::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DconCnmGenerator")
              .SetParent<RdmaSwitchAgent>()
              .SetGroupName("Dcon")
              .AddConstructor<DconCnmGenerator>()
              .AddAttribute("ControlStampsTlast",
                            "Whether ACK, NAK and CNP packets (the switch's ControlPriority) stamp "
                            "T_last of their ingress port like data packets of non-congested "
                            "flows. false (default): the paper's T_last is the arrival of 'the "
                            "last data packet of a non-congested flow'; true treats control "
                            "packets as any packet whose egress queue is not in burst congestion",
                            BooleanValue(false),
                            MakeBooleanAccessor(&DconCnmGenerator::m_controlStampsTlast),
                            MakeBooleanChecker())
              .AddAttribute("IngressTracker",
                            "DCON's per-ingress-port T_last tracker (created if not set)",
                            PointerValue(),
                            MakePointerAccessor(&DconCnmGenerator::m_tracker),
                            MakePointerChecker<DconIngressTracker>())
              .AddAttribute("CnmInterval",
                            "Minimum time between two CNMs for the same flow from this switch "
                            "(the sender ignores a CNM that does not lower its rate within 50 us "
                            "of the last one, and its rate change needs about one RTT to show in "
                            "the queue)",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&DconCnmGenerator::m_cnmInterval),
                            MakeTimeChecker(Time(0)))
              .AddTraceSource("CnmSent",
                              "A CNM was sent: congested egress port, the flow, N",
                              MakeTraceSourceAccessor(&DconCnmGenerator::m_cnmSentTrace),
                              "ns3::DconCnmGenerator::CnmSentTracedCallback");
    return tid;
}

DconCnmGenerator::DconCnmGenerator()
{
    NS_LOG_FUNCTION(this);
}

DconCnmGenerator::~DconCnmGenerator() {}

void
DconCnmGenerator::DoDispose()
{
    m_switch = nullptr;
    m_tracker = nullptr;
    m_dconQueues.clear();
    Object::DoDispose();
}

void
DconCnmGenerator::SetWindow(Time window)
{
    NS_LOG_FUNCTION(this << window);
    GetIngressTracker()->SetAttribute("Window", TimeValue(window));
    // T is also the window in which DCON's queues count the flows passing through (N).
    for (DconQueueDisc* q : m_dconQueues)
    {
        if (q)
        {
            q->SetAttribute("FlowWindow", TimeValue(window));
        }
    }
}

std::vector<std::pair<TypeId, std::string>>
DconCnmGenerator::GetWindowAttributes() const
{
    return {{DconIngressTracker::GetTypeId(), "Window"},
            {DconQueueDisc::GetTypeId(), "FlowWindow"}};
}

std::vector<TypeId>
DconCnmGenerator::GetCreatedTypes() const
{
    return {DconIngressTracker::GetTypeId()};
}

void
DconCnmGenerator::Install(Ptr<RdmaSwitch> sw)
{
    NS_LOG_FUNCTION(this << sw);
    if (m_switch)
    {
        throw std::logic_error("DconCnmGenerator: already installed on a switch");
    }
    m_switch = sw;
    Ptr<Node> node = sw->GetObject<Node>();
    m_nodeId = node ? node->GetId() : 0;
    m_controlPriority = sw->GetControlPriority();
    const uint32_t n = sw->GetNPorts();
    if (!m_tracker)
    {
        m_tracker = CreateObject<DconIngressTracker>();
    }
    m_tracker->SetNPorts(n);
    m_cnmsSentPerPort.assign(n, 0);
    m_dconQueues.assign(n * PfcNetDevice::NUM_PRIORITIES, nullptr);
    for (uint32_t port = 0; port < n; ++port)
    {
        for (uint8_t p = 0; p < PfcNetDevice::NUM_PRIORITIES; ++p)
        {
            Ptr<DconQueueDisc> q = DynamicCast<DconQueueDisc>(sw->GetQueueDisc(port, p));
            if (q)
            {
                m_dconQueues[port * PfcNetDevice::NUM_PRIORITIES + p] = PeekPointer(q);
                q->TraceConnectWithoutContext(
                    "CongestedFlow",
                    MakeCallback(&DconCnmGenerator::CongestedFlow, this).Bind(port));
            }
        }
    }
    sw->TraceConnectWithoutContext("PacketQueued",
                                   MakeCallback(&DconCnmGenerator::PacketQueued, this));
}

void
DconCnmGenerator::PacketQueued(uint32_t inPort, uint32_t outPort, uint8_t priority)
{
    bool stamp; // T_last: a packet whose egress queue is not in burst congestion
    if (priority == m_controlPriority)
    {
        stamp = m_controlStampsTlast;
    }
    else
    {
        const DconQueueDisc* q = m_dconQueues[outPort * PfcNetDevice::NUM_PRIORITIES + priority];
        stamp = !(q && q->IsBurstCongested());
    }
    if (stamp)
    {
        m_tracker->RecordNonCongested(inPort, outPort);
    }
}

void
DconCnmGenerator::CongestedFlow(uint32_t port,
                                Ptr<const QueueDiscItem> queueItem,
                                uint32_t numFlows)
{
    Ptr<const RdmaQueueDiscItem> item = StaticCast<const RdmaQueueDiscItem>(queueItem);
    if (!m_tracker->HasRecentNonCongested(item->GetIngressPort(), port))
    {
        m_stats.noInnocentFlow++;
        return;
    }
    const RdmaFiveTuple& tuple = item->GetFiveTuple();
    Time now = Simulator::Now();
    auto [it, inserted] = m_lastCnm.emplace(tuple, now);
    if (!inserted)
    {
        if (now - it->second < m_cnmInterval)
        {
            m_stats.rateLimited++;
            return;
        }
        it->second = now;
    }
    uint32_t out = m_switch->RouteToHost(tuple.src);
    if (out == UINT32_MAX)
    {
        m_switch->CountForwardingDrop(RdmaSwitch::NO_ROUTE);
        return;
    }
    // The CNM carries the head of the offending packet (as QCN's encapsulated MSDU): parse its
    // BTH for the destination QP. Rare (at most once per flow per CnmInterval), so a copy is fine.
    uint32_t destQp = 0;
    if (tuple.protocol == UDP_PROTOCOL)
    {
        Ptr<Packet> copy = item->GetPacket()->Copy();
        Ipv4Header ip;
        copy->RemoveHeader(ip); // the item's packet keeps its IPv4 header
        UdpHeader udp;
        copy->RemoveHeader(udp);
        BthHeader bth;
        if (copy->GetSize() >= bth.GetSerializedSize())
        {
            copy->PeekHeader(bth);
            destQp = bth.GetDestQp();
        }
    }
    CnmHeader cnm;
    cnm.SetCpid((static_cast<uint64_t>(m_nodeId) << 16) | port);
    cnm.SetFlowId(RdmaFlowCrc16(tuple));
    cnm.SetNumFlows(static_cast<uint16_t>(std::min<uint32_t>(numFlows, UINT16_MAX)));
    cnm.SetCapacity(m_switch->GetDevice(port)->GetDataRate());
    cnm.SetSource(tuple.src);
    cnm.SetDestination(tuple.dst);
    cnm.SetSourcePort(tuple.sport);
    cnm.SetDestinationPort(tuple.dport);
    cnm.SetDestQp(destQp);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(cnm);
    m_stats.sent++;
    m_cnmsSentPerPort[port]++;
    m_cnmSentTrace(port, tuple, numFlows);
    m_switch->SendControlFrame(out, p, CnmHeader::ETHERTYPE);
}

const DconCnmGenerator::Stats&
DconCnmGenerator::GetStats() const
{
    return m_stats;
}

uint64_t
DconCnmGenerator::GetCnmsSent(uint32_t port) const
{
    return m_cnmsSentPerPort.at(port);
}

Ptr<DconIngressTracker>
DconCnmGenerator::GetIngressTracker() const
{
    return m_tracker;
}

} // namespace ns3
