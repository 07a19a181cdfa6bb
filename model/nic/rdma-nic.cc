/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "ns3/attribute-text.h"
#include "ns3/cnm-header.h"
#include "ns3/cnp-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "rdma-flow-id.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaNic::CnmReceivedTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaNic::FlowCompleteTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaNic::FlowStartTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaNic::FlowSentTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaNic::MessageReceivedTracedCallback);

namespace
{
/// PSNs are 24 bits.
constexpr uint32_t PSN_MASK = 0xFFFFFF;
} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaNic")
              .SetParent<Object>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaNic>()
              .AddAttribute("Mtu",
                            "Payload bytes per data packet",
                            UintegerValue(1000),
                            MakeUintegerAccessor(&RdmaNic::m_mtu),
                            MakeUintegerChecker<uint32_t>(1, 9000))
              .AddAttribute("CongestionControl",
                            "TypeId of the congestion control (an ns3::RdmaCongestionOps "
                            "subclass), one instance per queue pair",
                            TypeIdValue(TypeId::LookupByName("ns3::RdmaDcqcn")),
                            MakeTypeIdAccessor(&RdmaNic::SetCongestionControl),
                            MakeTypeIdChecker())
              .AddAttribute("AckInterval",
                            "The receiver ACKs every this many in-order packets (and always the "
                            "last packet of a message)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ControlPriority",
                            "PFC priority of ACK, NAK and CNP packets (served before data)",
                            UintegerValue(7),
                            MakeUintegerAccessor(&RdmaNic::m_controlPriority),
                            MakeUintegerChecker<uint8_t>(0, 7))
              .AddAttribute("RetransmitTimeout",
                            "Go back N when no ACK advanced for this long while data is "
                            "outstanding (covers lost tails when PFC is off)",
                            TimeValue(MilliSeconds(5)),
                            MakeTimeAccessor(&RdmaNic::m_rto),
                            MakeTimeChecker(MicroSeconds(1)))
              .AddAttribute("NakInterval",
                            "Minimum time between two NAKs for the same missing PSN",
                            TimeValue(MicroSeconds(100)),
                            MakeTimeAccessor(&RdmaNic::m_nakInterval),
                            MakeTimeChecker(Time(0)))
              .AddTraceSource("FlowComplete",
                              "The last byte of a flow was acknowledged",
                              MakeTraceSourceAccessor(&RdmaNic::m_flowCompleteTrace),
                              "ns3::RdmaNic::FlowCompleteTracedCallback")
              .AddTraceSource("FlowStart",
                              "A flow started: flow id, its state",
                              MakeTraceSourceAccessor(&RdmaNic::m_flowStartTrace),
                              "ns3::RdmaNic::FlowStartTracedCallback")
              .AddTraceSource("FlowSent",
                              "Every byte of a flow was sent once: its last packet left for the "
                              "first time (retransmissions may follow): flow id",
                              MakeTraceSourceAccessor(&RdmaNic::m_flowSentTrace),
                              "ns3::RdmaNic::FlowSentTracedCallback")
              .AddTraceSource("MessageReceived",
                              "The receiver got the last byte of a message in order (its "
                              "completion at the receiver): the sender's address, the UDP "
                              "source port, the queue pair number, the message's bytes",
                              MakeTraceSourceAccessor(&RdmaNic::m_messageReceivedTrace),
                              "ns3::RdmaNic::MessageReceivedTracedCallback")
              .AddTraceSource("CnmReceived",
                              "A CNM arrived: the CNM, the flow id (UINT32_MAX if its flow has "
                              "ended), the flow's rate before, whether it was applied",
                              MakeTraceSourceAccessor(&RdmaNic::m_cnmReceivedTrace),
                              "ns3::RdmaNic::CnmReceivedTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
{
    NS_LOG_FUNCTION(this);
}

RdmaNic::~RdmaNic() {}

void
RdmaNic::DoDispose()
{
    m_wake.Cancel();
    // Break the queue pairs' reference cycles (see Complete and ReceiveData) for the flows still
    // open at the end, or they outlive the simulation.
    for (auto& [qpn, qp] : m_qps)
    {
        qp->rtoEvent.Cancel();
        qp->rtoEvent = EventId();
        qp->rtoArmed = false;
        qp->cc->Stop();
        qp->cc->Dispose();
    }
    for (auto& [key, rx] : m_rxQps)
    {
        rx->cc->Stop();
        rx->cc->Dispose();
        rx->cc = nullptr;
    }
    m_active.clear();
    m_qps.clear();
    m_rxQps.clear();
    m_completedRx.clear();
    m_control.clear();
    m_device = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
RdmaNic::NotifyNewAggregate()
{
    if (!m_node)
    {
        m_node = GetObject<Node>();
    }
    Object::NotifyNewAggregate();
}

void
RdmaNic::Setup(Ptr<PfcNetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    m_device = device;
    m_address = address;
    m_addressValue = address.Get();
    device->SetOwner(this, 0);
}

void
RdmaNic::SetCongestionControl(TypeId tid)
{
    NS_LOG_FUNCTION(this << tid);
    if (!tid.IsChildOf(RdmaCongestionOps::GetTypeId()))
    {
        throw std::invalid_argument("RdmaNic: congestion control " + tid.GetName()
                                    + " is not an ns3::RdmaCongestionOps");
    }
    m_ccFactory.SetTypeId(tid);
}

TypeId
RdmaNic::GetCongestionControl() const
{
    return m_ccFactory.GetTypeId();
}

void
RdmaNic::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    const TypeId tid = m_ccFactory.GetTypeId();
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        throw std::invalid_argument("RdmaNic: congestion control " + tid.GetName()
                                    + " has no attribute '" + name + "'");
    }
    if (!info.checker->CreateValidValue(value))
    {
        throw std::invalid_argument("RdmaNic: invalid value for " + tid.GetName() + "::" + name);
    }
    m_ccFactory.Set(name, value);
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_address;
}

uint8_t
RdmaNic::GetControlPriority() const
{
    return m_controlPriority;
}

Ptr<PfcNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

uint32_t
RdmaNic::GetDataWireBytes(uint32_t payload) const
{
    return m_device->GetWireBytes(RoceHeader::BASE_BYTES + payload + ICRC_BYTES);
}

uint32_t
RdmaNic::GetAckWireBytes() const
{
    return m_device->GetWireBytes(RoceHeader::BASE_BYTES + AethHeader::SERIALIZED_SIZE
                                  + ICRC_BYTES);
}

uint32_t
RdmaNic::GetNReceivingFlows() const
{
    return m_rxQps.size();
}

uint32_t
RdmaNic::GetNActiveFlows() const
{
    return m_active.size();
}

Ptr<RdmaCongestionOps>
RdmaNic::GetSenderCongestionOps(uint32_t flowId) const
{
    for (const auto& qp : m_active)
    {
        if (qp->request.flowId == flowId)
        {
            return qp->cc;
        }
    }
    return nullptr;
}

RdmaFiveTuple
RdmaNic::TupleOf(const RdmaQueuePair& qp) const
{
    RdmaFiveTuple t;
    t.src = m_address;
    t.dst = qp.request.dst;
    t.sport = qp.sport;
    t.dport = BthHeader::ROCEV2_UDP_PORT;
    t.protocol = 17; // UDP
    return t;
}

bool
RdmaNic::GetFlowTuple(uint32_t flowId, RdmaFiveTuple& tuple) const
{
    for (const auto& qp : m_active)
    {
        if (qp->request.flowId == flowId)
        {
            tuple = TupleOf(*qp);
            return true;
        }
    }
    return false;
}

void
RdmaNic::ForEachFlowWithData(uint8_t priority,
                             const std::function<void(uint32_t, const RdmaFiveTuple&)>& fn) const
{
    std::vector<std::pair<uint32_t, RdmaFiveTuple>> flows;
    for (const auto& qp : m_active)
    {
        if (qp->request.priority == priority && qp->state->m_sndNxt < qp->state->m_size)
        {
            flows.emplace_back(qp->request.flowId, TupleOf(*qp));
        }
    }
    std::sort(flows.begin(),
              flows.end(),
              [](const auto& a, const auto& b)
              {
                  return a.first < b.first;
              });
    for (const auto& [id, t] : flows)
    {
        fn(id, t);
    }
}

const RdmaNic::Stats&
RdmaNic::GetStats() const
{
    return m_stats;
}

Ptr<RdmaFlowState>
RdmaNic::StartFlow(const RdmaFlowRequest& request)
{
    if (!m_device)
    {
        throw std::logic_error("RdmaNic::StartFlow: NIC has no device (call Setup first)");
    }
    if (request.size == 0)
    {
        throw std::invalid_argument("RdmaNic::StartFlow: flow " + std::to_string(request.flowId)
                                    + " has size 0");
    }
    if (request.priority >= PfcNetDevice::NUM_PRIORITIES)
    {
        throw std::invalid_argument("RdmaNic::StartFlow: flow " + std::to_string(request.flowId)
                                    + " has priority " + std::to_string(request.priority)
                                    + ", not in 0..7");
    }
    if (request.priority == m_controlPriority)
    {
        // Switches serve the control priority without ECN marking (RdmaSwitch::ControlPriority).
        throw std::invalid_argument("RdmaNic::StartFlow: flow " + std::to_string(request.flowId)
                                    + " has priority " + std::to_string(request.priority)
                                    + ", the ControlPriority of ACK, NAK and CNP");
    }
    if (request.startRate > m_device->GetDataRate())
    {
        throw std::invalid_argument(
            "RdmaNic::StartFlow: flow " + std::to_string(request.flowId) + " has start rate "
            + std::to_string(request.startRate.GetBitRate()) + " b/s, above the line rate "
            + std::to_string(m_device->GetDataRate().GetBitRate()) + " b/s");
    }
    Ptr<RdmaQueuePair> qp = Create<RdmaQueuePair>();
    qp->request = request;
    qp->dstValue = request.dst.Get();
    qp->qpn = m_nextQpn;
    m_nextQpn = (m_nextQpn + 1) & PSN_MASK;
    if (m_nextQpn == 0)
    {
        m_nextQpn = 1;
    }
    // RoCEv2 uses the UDP source port as ECMP entropy: one per QP, from the dynamic range.
    qp->sport = request.sport ? request.sport : static_cast<uint16_t>(49152 + (qp->qpn % 16384));
    Ptr<RdmaFlowState> s = CreateObject<RdmaFlowState>();
    s->m_flowId = request.flowId;
    s->m_mtu = m_mtu;
    s->m_size = request.size;
    s->m_lineRate = m_device->GetDataRate();
    s->m_startRate = request.startRate.GetBitRate() == 0 ? s->m_lineRate : request.startRate;
    s->m_baseRtt = request.baseRtt;
    s->m_hops = request.hops;
    s->m_startTime = Simulator::Now();
    qp->state = s;
    qp->cc = m_ccFactory.Create<RdmaCongestionOps>();
    for (const auto& [name, value] : request.ccAttributes)
    {
        // per-QP parameters of the flow's congestion control (ns-3 aborts on a number it
        // cannot read: numbers are checked here first)
        const std::string who = "RdmaNic::StartFlow: flow " + std::to_string(request.flowId);
        CheckAttributeNumberText(qp->cc->GetInstanceTypeId(), name, value, who);
        if (!qp->cc->SetAttributeFailSafe(name, StringValue(value)))
        {
            throw std::invalid_argument(
                who + ": congestion control " + qp->cc->GetInstanceTypeId().GetName()
                + " has no attribute '" + name + "' taking the value '" + value + "'");
        }
    }
    qp->cc->Init(s);
    qp->rttSamples = qp->cc->WantsRttSamples();
    qp->hopRecords = qp->cc->WantsHopRecords();
    qp->nextAvail = Simulator::Now();
    qp->lastProgress = Simulator::Now();
    m_qps[qp->qpn] = qp;
    m_active.push_back(qp);
    m_flowStartTrace(request.flowId, s);
    m_device->NotifyTxReady();
    return s;
}

bool
RdmaNic::PullFrame(uint32_t /* port */, uint8_t pausedMask, PfcTxFrame& frame)
{
    if (!m_control.empty() && !((pausedMask >> m_controlPriority) & 1u))
    {
        frame.packet = m_control.front();
        frame.protocol = 0x0800;
        frame.priority = m_controlPriority;
        m_control.pop_front();
        return true;
    }
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    uint32_t n = m_active.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t idx = (m_rr + i) % n;
        const Ptr<RdmaQueuePair>& qp = m_active[idx];
        if ((pausedMask >> qp->request.priority) & 1u)
        {
            continue;
        }
        if (!qp->CanSend())
        {
            continue;
        }
        if (qp->nextAvail > now)
        {
            earliest = std::min(earliest, qp->nextAvail);
            continue;
        }
        m_rr = (idx + 1) % n;
        frame.packet = BuildDataPacket(qp, now);
        frame.protocol = 0x0800;
        frame.priority = qp->request.priority;
        return true;
    }
    if (earliest != Time::Max())
    {
        ScheduleWake(earliest);
    }
    return false;
}

void
RdmaNic::ScheduleWake(Time when)
{
    if (!m_wake.IsExpired())
    {
        if (Simulator::GetDelayLeft(m_wake) + Simulator::Now() <= when)
        {
            return;
        }
        m_wake.Cancel();
    }
    m_wake = Simulator::Schedule(when - Simulator::Now(), &RdmaNic::Wake, this);
}

void
RdmaNic::Wake()
{
    m_device->NotifyTxReady();
}

namespace
{
/// A RoceHeader as constructed: what the scratch headers are reset to.
const RoceHeader&
DefaultRoceHeader()
{
    static const RoceHeader roce;
    return roce;
}
} // namespace

Ptr<Packet>
RdmaNic::BuildDataPacket(const Ptr<RdmaQueuePair>& qp, Time now)
{
    RdmaFlowState* s = PeekPointer(qp->state);
    uint64_t offset = s->m_sndNxt;
    uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, s->m_size - offset));
    uint64_t index = offset / m_mtu;
    uint64_t lastIndex = (s->m_size - 1) / m_mtu;
    bool last = index == lastIndex;
    uint8_t opcode;
    if (lastIndex == 0)
    {
        opcode = BthHeader::OPCODE_RC_SEND_ONLY;
    }
    else if (index == 0)
    {
        opcode = BthHeader::OPCODE_RC_SEND_FIRST;
    }
    else
    {
        opcode = last ? BthHeader::OPCODE_RC_SEND_LAST : BthHeader::OPCODE_RC_SEND_MIDDLE;
    }
    Ptr<Packet> p = Create<Packet>(payload + ICRC_BYTES);
    RoceHeader& roce = m_dataHeader;
    roce = DefaultRoceHeader();
    BthHeader& bth = roce.Bth();
    bth.SetOpcode(opcode);
    bth.SetDestQp(qp->qpn);
    bth.SetPsn(static_cast<uint32_t>(index & PSN_MASK));
    bth.SetAckRequest(last);
    bth.SetIntPresent(qp->hopRecords); // an empty INT stack: switches append to it
    AddRoceHeader(p, roce, qp->dstValue, qp->sport, qp->request.priority, true);

    bool firstSendOfLast = false; // FlowSent: every byte sent once
    if (offset + payload > s->m_sentHighWater)
    {
        s->m_sentHighWater = offset + payload;
        if (qp->rttSamples)
        {
            // only first transmissions give RTT samples (Karn's rule)
            qp->sendTimes.emplace_back(index, now);
        }
        firstSendOfLast = last;
    }
    else
    {
        m_stats.retransmittedPackets++;
    }
    s->m_sndNxt = offset + payload;
    m_stats.dataPacketsSent++;
    uint32_t wire = m_device->GetWireBytes(p->GetSize());
    qp->nextAvail = now + qp->txTimes.Get(s->m_rate.Get(), wire);
    if (!qp->rtoArmed)
    {
        qp->lastProgress = now;
        qp->rtoEvent = Simulator::Schedule(m_rto, &RdmaNic::CheckRto, this, qp);
        qp->rtoArmed = true;
    }
    qp->cc->OnSent(s, payload);
    // The algorithm may hold the next packet back (RdmaFlowState::m_holdUntil, set by OnSent):
    // folded in once per packet sent, not per pull.
    qp->nextAvail = std::max(qp->nextAvail, s->m_holdUntil);
    if (firstSendOfLast)
    {
        m_flowSentTrace(qp->request.flowId);
    }
    return p;
}

void
RdmaNic::AddRoceHeader(const Ptr<Packet>& packet,
                       RoceHeader& roce,
                       uint32_t dst,
                       uint16_t sport,
                       uint8_t priority,
                       bool ect)
{
    // RoceHeader's defaults: TTL 64, UDP, Don't Fragment, destination port 4791.
    roce.SetSourcePort(sport);
    roce.SetSourceValue(m_addressValue);
    roce.SetDestinationValue(dst);
    roce.SetDscp(static_cast<Ipv4Header::DscpType>(priority << 3)); // class selector
    roce.SetEcn(ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    roce.SetPayloadBytes(packet->GetSize());
    packet->AddHeader(roce);
}

void
RdmaNic::SendControl(const Ptr<Packet>& packet, RoceHeader& roce, uint32_t dst, uint16_t sport)
{
    AddRoceHeader(packet, roce, dst, sport, m_controlPriority, false);
    m_control.push_back(packet);
    m_device->NotifyTxReady();
}

void
RdmaNic::ReceiveFrame(uint32_t /* port */, const Ptr<Packet>& packet, uint16_t protocol)
{
    if (protocol == CnmHeader::ETHERTYPE)
    {
        CnmHeader cnm;
        if (packet->RemoveHeader(cnm) == 0)
        {
            NS_LOG_WARN("NIC " << m_address << " ignores a truncated CNM");
            return;
        }
        m_stats.cnmsReceived++;
        Ptr<RdmaQueuePair> qp = FindQp(cnm.GetDestQp());
        if (qp)
        {
            RdmaCnmInfo info;
            info.numFlows = cnm.GetNumFlows();
            info.capacity = cnm.GetCapacity();
            const DataRate before = qp->state->m_rate.Get();
            const bool applied = qp->cc->OnCnm(qp->state, info);
            m_cnmReceivedTrace(cnm, qp->state->m_flowId, before, applied);
        }
        else
        {
            m_cnmReceivedTrace(cnm, UINT32_MAX, DataRate(0), false);
        }
        return;
    }
    if (protocol != 0x0800)
    {
        return;
    }
    if (packet->GetSize() < RoceHeader::BASE_BYTES + ICRC_BYTES)
    {
        NS_LOG_WARN("NIC " << m_address << " ignores a " << packet->GetSize() << "-byte packet");
        return;
    }
    RoceHeader& roce = m_rxHeader;
    roce = DefaultRoceHeader();
    packet->RemoveHeader(roce);
    if (roce.GetDestinationValue() != m_addressValue || roce.GetProtocol() != UDP_PROTOCOL)
    {
        NS_LOG_WARN("NIC " << m_address << " got a packet for " << roce.GetDestination());
        return;
    }
    const BthHeader& bth = roce.Bth();
    switch (bth.GetOpcode())
    {
        case BthHeader::OPCODE_RC_SEND_FIRST:
        case BthHeader::OPCODE_RC_SEND_MIDDLE:
        case BthHeader::OPCODE_RC_SEND_LAST:
        case BthHeader::OPCODE_RC_SEND_ONLY:
            ReceiveData(roce);
            break;
        case BthHeader::OPCODE_RC_ACK:
            ReceiveAck(bth, roce.Aeth(), roce.HasInt() ? &roce.Int() : nullptr);
            break;
        case BthHeader::OPCODE_CNP:
        {
            CnpHeader cnp;
            if (packet->RemoveHeader(cnp) == 0)
            {
                NS_LOG_WARN("NIC " << m_address << " ignores a truncated CNP");
                break;
            }
            m_stats.cnpsReceived++;
            m_stats.cnpsCongestedReceived += cnp.IsCongested() ? 1 : 0;
            Ptr<RdmaQueuePair> qp = FindQp(bth.GetDestQp());
            if (qp)
            {
                RdmaCnpInfo info;
                info.congested = cnp.IsCongested();
                info.recRate = cnp.GetReceiveRate();
                qp->cc->OnCnp(qp->state, info);
            }
            break;
        }
        default:
            NS_LOG_WARN("NIC " << m_address << " ignores BTH opcode " << +bth.GetOpcode());
    }
}

void
RdmaNic::ReceiveData(const RoceHeader& roce)
{
    const BthHeader& bth = roce.Bth();
    const uint32_t srcValue = roce.GetSourceValue();
    uint16_t sport = roce.GetSourcePort();
    uint64_t key = (static_cast<uint64_t>(srcValue) << 32) | bth.GetDestQp();
    auto it = m_rxQps.find(key);
    Ptr<RdmaRxQueuePair> rx;
    if (it == m_rxQps.end())
    {
        auto done = m_completedRx.find(key);
        if (done != m_completedRx.end())
        {
            // A late retransmission of a message received in full (the sender missed the last
            // ACK): acknowledge the last packet again.
            SendAckTo(srcValue, bth.GetDestQp(), sport, done->second, false, false, nullptr);
            return;
        }
        rx = Create<RdmaRxQueuePair>();
        rx->src = Ipv4Address(srcValue);
        rx->srcValue = srcValue;
        rx->qpn = bth.GetDestQp();
        rx->sport = sport;
        rx->state = CreateObject<RdmaRxFlowState>();
        rx->cc = m_ccFactory.Create<RdmaCongestionOps>();
        rx->cc->InitReceiver(rx->state, MakeCallback(&RdmaNic::SendCnp, this).Bind(rx));
        m_rxQps.emplace(key, rx);
    }
    else
    {
        rx = it->second;
    }
    RdmaRxPacketInfo info;
    // From the IPv4 length, not the packet size: a tiny message is padded to the minimum frame.
    info.payloadBytes = roce.GetPayloadBytes() - ICRC_BYTES;
    info.ce = roce.GetEcn() == Ipv4Header::ECN_CE;
    uint32_t psn = bth.GetPsn();
    uint32_t diff = (psn - rx->expectedPsn) & PSN_MASK;
    info.inOrder = diff == 0;
    rx->cc->OnDataReceived(rx->state, info);
    if (diff == 0)
    {
        rx->expectedPsn = (rx->expectedPsn + 1) & PSN_MASK;
        rx->state->m_bytesReceived += info.payloadBytes;
        rx->sinceAck++;
        rx->ceSinceAck = rx->ceSinceAck || info.ce;
        if (rx->sinceAck >= m_ackInterval || bth.GetAckRequest())
        {
            rx->sinceAck = 0;
            // The ACK echoes the hop records of the packet that triggered it.
            SendAck(rx, psn, false, roce.HasInt() ? &roce.Int() : nullptr);
        }
        uint8_t opcode = bth.GetOpcode();
        if (opcode == BthHeader::OPCODE_RC_SEND_LAST || opcode == BthHeader::OPCODE_RC_SEND_ONLY)
        {
            // The whole message is in: keep only what late retransmissions need. The receiver's
            // CC holds a CNP callback bound to rx (a cycle): dispose of it so both are freed.
            rx->cc->Stop();
            rx->cc->Dispose();
            rx->cc = nullptr;
            m_completedRx[key] = psn;
            m_rxQps.erase(key);
            m_messageReceivedTrace(rx->src, sport, rx->qpn, rx->state->m_bytesReceived);
        }
    }
    else if (diff < (PSN_MASK + 1) / 2)
    {
        // A gap: drop and ask for the missing PSN (go-back-N).
        Time now = Simulator::Now();
        if (rx->lastNakPsn != rx->expectedPsn || now - rx->lastNakTime >= m_nakInterval)
        {
            rx->lastNakPsn = rx->expectedPsn;
            rx->lastNakTime = now;
            SendAck(rx, rx->expectedPsn, true, nullptr);
        }
    }
    else
    {
        // A duplicate of something already received: acknowledge again (no ECN echo: the
        // ACK acknowledges nothing new; a pending echo waits for the next in-order ACK).
        SendAckTo(rx->srcValue,
                  rx->qpn,
                  rx->sport,
                  (rx->expectedPsn - 1) & PSN_MASK,
                  false,
                  false,
                  nullptr);
    }
}

void
RdmaNic::SendAck(Ptr<RdmaRxQueuePair> rx, uint32_t psn, bool nak, const IntHeader* hops)
{
    // ECN echo for every algorithm that may read it (RdmaAckInfo::ecnEcho): an ACK carries
    // BECN if a packet it newly acknowledges arrived with CE.
    bool echo = !nak && rx->ceSinceAck;
    if (!nak)
    {
        rx->ceSinceAck = false;
    }
    SendAckTo(rx->srcValue, rx->qpn, rx->sport, psn, nak, echo, hops);
}

void
RdmaNic::SendAckTo(uint32_t src,
                   uint32_t qpn,
                   uint16_t sport,
                   uint32_t psn,
                   bool nak,
                   bool ecnEcho,
                   const IntHeader* hops)
{
    Ptr<Packet> p = Create<Packet>(ICRC_BYTES);
    RoceHeader& roce = m_controlHeader;
    roce = DefaultRoceHeader();
    AethHeader& aeth = roce.Aeth();
    if (nak)
    {
        aeth.SetNak(AethHeader::NAK_PSN_SEQUENCE_ERROR);
        m_stats.naksSent++;
    }
    else
    {
        aeth.SetAck();
        m_stats.acksSent++;
    }
    BthHeader& bth = roce.Bth();
    bth.SetOpcode(BthHeader::OPCODE_RC_ACK);
    bth.SetDestQp(qpn);
    bth.SetPsn(psn);
    bth.SetBecn(ecnEcho);
    if (hops)
    {
        // INT echo for every algorithm that may read it (RdmaAckInfo::hops): the records follow
        // the AETH, as bytes of the ACK.
        bth.SetIntPresent(true);
        roce.Int() = *hops;
    }
    SendControl(p, roce, src, sport);
}

void
RdmaNic::SendCnp(Ptr<RdmaRxQueuePair> rx, const RdmaCnpInfo& info)
{
    Ptr<Packet> p = Create<Packet>(ICRC_BYTES);
    CnpHeader cnp;
    cnp.SetCongested(info.congested);
    cnp.SetReceiveRate(info.recRate);
    p->AddHeader(cnp);
    RoceHeader& roce = m_controlHeader;
    roce = DefaultRoceHeader();
    BthHeader& bth = roce.Bth();
    bth.SetOpcode(BthHeader::OPCODE_CNP);
    bth.SetDestQp(rx->qpn);
    m_stats.cnpsSent++;
    SendControl(p, roce, rx->srcValue, rx->sport);
}

Ptr<RdmaQueuePair>
RdmaNic::FindQp(uint32_t qpn) const
{
    auto it = m_qps.find(qpn);
    return it == m_qps.end() ? nullptr : it->second;
}

void
RdmaNic::ReceiveAck(const BthHeader& bth, const AethHeader& aeth, const IntHeader* hops)
{
    Ptr<RdmaQueuePair> qp = FindQp(bth.GetDestQp());
    if (!qp)
    {
        return; // late ACK of a completed flow
    }
    Ptr<RdmaFlowState> s = qp->state;
    uint64_t unaPsn = s->m_sndUna / m_mtu;
    uint64_t nxtPsn = (s->m_sndNxt + m_mtu - 1) / m_mtu;
    uint64_t psn = bth.GetPsn();
    // Expand the 24-bit PSN relative to the first unacknowledged packet.
    uint64_t ahead = (psn - unaPsn) & PSN_MASK;
    if (aeth.IsNak())
    {
        m_stats.naksReceived++;
        if (ahead > nxtPsn - unaPsn)
        {
            return; // stale NAK
        }
        uint64_t resend = std::min<uint64_t>((unaPsn + ahead) * m_mtu, s->m_size);
        uint64_t acked = resend - s->m_sndUna;
        s->m_sndUna = resend;
        s->m_sndNxt = resend;
        ForgetSendTimesFrom(qp, resend / m_mtu);
        qp->lastProgress = Simulator::Now();
        if (acked > 0)
        {
            RdmaAckInfo info;
            info.newlyAckedBytes = acked;
            info.ackedOffset = s->m_sndUna;
            qp->cc->OnAck(s, info);
        }
        qp->cc->OnNack(s);
        m_device->NotifyTxReady();
        return;
    }
    // An ACK of PSN p acknowledges every packet up to and including p.
    if (ahead + 1 > nxtPsn - unaPsn)
    {
        return; // duplicate or stale ACK
    }
    uint64_t newUna = std::min<uint64_t>((unaPsn + ahead + 1) * m_mtu, s->m_size);
    RdmaAckInfo info;
    info.ecnEcho = bth.GetBecn();
    if (hops)
    {
        info.hops = *hops;
    }
    info.newlyAckedBytes = newUna - s->m_sndUna;
    s->m_sndUna = newUna;
    info.ackedOffset = newUna;
    if (s->m_sndNxt < newUna)
    {
        s->m_sndNxt = newUna;
    }
    qp->lastProgress = Simulator::Now();
    // RTT sample: the newest first-transmission packet this ACK covers (ACK of PSN p covers
    // every packet up to and including p).
    uint64_t lastCovered = unaPsn + ahead;
    while (!qp->sendTimes.empty() && qp->sendTimes.front().first <= lastCovered)
    {
        if (qp->sendTimes.front().first == lastCovered)
        {
            info.rtt = Simulator::Now() - qp->sendTimes.front().second;
            s->m_lastRtt = info.rtt;
            s->m_rttSample(info.rtt);
        }
        qp->sendTimes.pop_front();
    }
    qp->cc->OnAck(s, info);
    if (s->m_sndUna >= s->m_size)
    {
        Complete(qp);
        return;
    }
    if (s->m_cwnd.Get() != 0)
    {
        m_device->NotifyTxReady();
    }
}

void
RdmaNic::ForgetSendTimesFrom(Ptr<RdmaQueuePair> qp, uint64_t index)
{
    // Packets from index on will be sent again: an ACK of them says nothing about the RTT of
    // their first transmission (Karn's rule).
    while (!qp->sendTimes.empty() && qp->sendTimes.back().first >= index)
    {
        qp->sendTimes.pop_back();
    }
}

void
RdmaNic::CheckRto(Ptr<RdmaQueuePair> qp)
{
    qp->rtoArmed = false;
    Ptr<RdmaFlowState> s = qp->state;
    if (s->m_sndUna >= s->m_size || s->m_sndUna >= s->m_sndNxt)
    {
        return; // nothing outstanding; the next send re-arms the timer
    }
    Time now = Simulator::Now();
    if (now - qp->lastProgress >= m_rto)
    {
        NS_LOG_INFO("flow " << qp->request.flowId << " timeout at " << now.As(Time::US));
        qp->timeouts++;
        m_stats.timeouts++;
        s->m_sndNxt = s->m_sndUna;
        ForgetSendTimesFrom(qp, s->m_sndUna / m_mtu);
        qp->lastProgress = now;
        m_device->NotifyTxReady();
    }
    qp->rtoEvent
        = Simulator::Schedule(qp->lastProgress + m_rto - now, &RdmaNic::CheckRto, this, qp);
    qp->rtoArmed = true;
}

void
RdmaNic::Complete(Ptr<RdmaQueuePair> qp)
{
    qp->rtoEvent.Cancel();
    qp->rtoEvent = EventId(); // its event holds qp (CheckRto's argument): a reference cycle
    qp->rtoArmed = false;
    qp->cc->Stop();
    RdmaFlowRecord rec;
    rec.flowId = qp->request.flowId;
    rec.size = qp->request.size;
    rec.priority = qp->request.priority;
    rec.sport = qp->sport;
    rec.start = qp->state->m_startTime;
    rec.end = Simulator::Now();
    m_stats.flowsCompleted++;
    m_qps.erase(qp->qpn);
    auto it = std::find(m_active.begin(), m_active.end(), qp);
    if (it != m_active.end())
    {
        uint32_t idx = it - m_active.begin();
        m_active.erase(it);
        if (m_rr > idx)
        {
            m_rr--;
        }
        if (m_rr >= m_active.size())
        {
            m_rr = 0;
        }
    }
    m_flowCompleteTrace(rec);
}

} // namespace ns3
