/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-switch.h"

#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/cnm-header.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"
#include "red-ecn-queue-disc.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaSwitch");

NS_OBJECT_ENSURE_REGISTERED(RdmaSwitch);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaSwitch::DropTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaSwitch::PacketQueuedTracedCallback);

namespace
{
/// An Ethernet payload long enough to need no padding (for the per-frame overhead).
constexpr uint32_t ETH_MTU = 1500;

/**
 * \brief Whether a type is RdmaEgressQueueDisc (a plain FIFO, e.g. for HPCC) or a subclass.
 * \param tid the type
 * \return true if the switch can use it
 */
bool
IsEgressQueueDisc(TypeId tid)
{
    return tid == RdmaEgressQueueDisc::GetTypeId()
           || tid.IsChildOf(RdmaEgressQueueDisc::GetTypeId());
}
} // namespace

TypeId
RdmaSwitch::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaSwitch")
              .SetParent<Object>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaSwitch>()
              .AddAttribute("EcmpSeed",
                            "Seed of this switch's ECMP hash (different switches should differ)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RdmaSwitch::m_ecmpSeed),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("PauseQuanta",
                            "Pause time put in PAUSE frames, in quanta of 512 bit times "
                            "(65535 = 0.84 ms at 40 Gb/s)",
                            UintegerValue(65535),
                            MakeUintegerAccessor(&RdmaSwitch::m_pauseQuanta),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("PauseRefreshRatio",
                            "While an ingress stays above its resume threshold the PAUSE is "
                            "re-sent every PauseRefreshRatio x pause time",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&RdmaSwitch::m_pauseRefreshRatio),
                            MakeDoubleChecker<double>(0.01, 1.0))
              .AddAttribute("ControlPriority",
                            "Priority of the NICs' ACK, NAK and CNP packets (must equal "
                            "RdmaNic::ControlPriority): served from a plain FIFO per port, "
                            "without queue disc (no ECN or CNM decision for control traffic)",
                            UintegerValue(7),
                            MakeUintegerAccessor(&RdmaSwitch::m_controlPriority),
                            MakeUintegerChecker<uint8_t>(0, 7))
              .AddAttribute("Mmu",
                            "The shared-buffer memory management unit",
                            PointerValue(),
                            MakePointerAccessor(&RdmaSwitch::m_mmu),
                            MakePointerChecker<SwitchMmu>())
              .AddTraceSource("PacketQueued",
                              "A packet joined an egress queue (after its queue disc saw it): "
                              "ingress port, egress port, priority",
                              MakeTraceSourceAccessor(&RdmaSwitch::m_packetQueuedTrace),
                              "ns3::RdmaSwitch::PacketQueuedTracedCallback")
              .AddTraceSource("Drop",
                              "A packet was dropped by forwarding (not by the MMU): packet, reason",
                              MakeTraceSourceAccessor(&RdmaSwitch::m_dropTrace),
                              "ns3::RdmaSwitch::DropTracedCallback");
    return tid;
}

RdmaSwitch::RdmaSwitch()
{
    NS_LOG_FUNCTION(this);
    m_queueFactory.SetTypeId(RedEcnQueueDisc::GetTypeId());
}

RdmaSwitch::~RdmaSwitch() {}

void
RdmaSwitch::DoDispose()
{
    for (auto& port : m_ports)
    {
        for (auto& ev : port.pauseRefresh)
        {
            ev.Cancel();
        }
        for (auto& q : port.queues)
        {
            q->SetIngressInfo(nullptr);
            q->Dispose();
        }
    }
    m_ports.clear();
    m_node = nullptr;
    m_mmu = nullptr;
    Object::DoDispose();
}

void
RdmaSwitch::NotifyNewAggregate()
{
    if (!m_node)
    {
        m_node = GetObject<Node>();
    }
    Object::NotifyNewAggregate();
}

void
RdmaSwitch::SetQueueDiscFactory(const ObjectFactory& factory)
{
    NS_LOG_FUNCTION(this << factory);
    if (!IsEgressQueueDisc(factory.GetTypeId()))
    {
        throw std::invalid_argument("RdmaSwitch: queue disc type " + factory.GetTypeId().GetName()
                                    + " is not an ns3::RdmaEgressQueueDisc");
    }
    m_queueFactory = factory;
}

uint32_t
RdmaSwitch::AddPort(Ptr<PfcNetDevice> device)
{
    return AddPort(device, m_queueFactory);
}

uint32_t
RdmaSwitch::AddPort(Ptr<PfcNetDevice> device, const ObjectFactory& queueFactory)
{
    if (!IsEgressQueueDisc(queueFactory.GetTypeId()))
    {
        throw std::invalid_argument("RdmaSwitch: queue disc type "
                                    + queueFactory.GetTypeId().GetName()
                                    + " is not an ns3::RdmaEgressQueueDisc");
    }
    uint32_t index = m_ports.size();
    Port port;
    port.device = device;
    port.intRateCode = IntHop::RateCode(device->GetDataRate());
    // The device counts frames without FCS (and preamble and gap): what a frame carries besides.
    port.frameOverhead = device->GetWireBytes(ETH_MTU) - ETH_MTU - PfcNetDevice::ETH_HEADER_BYTES;
    for (uint8_t p = 0; p < PfcNetDevice::NUM_PRIORITIES; ++p)
    {
        Ptr<RdmaEgressQueueDisc> q = queueFactory.Create<RdmaEgressQueueDisc>();
        q->SetLinkRate(device->GetDataRate());
        q->SetIngressInfo(this);
        q->Initialize();
        port.queues[p] = q;
    }
    m_ports.push_back(port);
    device->SetOwner(this, index);
    device->TraceConnectWithoutContext(
        "PauseState", MakeCallback(&RdmaSwitch::PauseStateChanged, this).Bind(index));
    return index;
}

void
RdmaSwitch::Finalize()
{
    if (!m_mmu)
    {
        m_mmu = CreateObject<SwitchMmu>();
    }
    m_mmu->Configure(m_ports.size(), PfcNetDevice::NUM_PRIORITIES);
    const std::size_t n = m_ports.size();
    m_fanBytes.assign(n * n * PfcNetDevice::NUM_PRIORITIES, 0);
    m_fanOut.assign(n * PfcNetDevice::NUM_PRIORITIES, 0);
    m_designFanOut.assign(n, 0);
    // Thresholds no packet can reach before PFC pauses its ingress are configuration errors.
    const uint64_t pfc = m_mmu->GetIngressPauseThresholdAtEmpty();
    for (uint32_t p = 0; p < n; ++p)
    {
        for (const auto& q : m_ports[p].queues)
        {
            m_ingressAccounting = m_ingressAccounting || (q && q->UsesIngressFanOut());
            try
            {
                q->CheckPfcThreshold(pfc);
            }
            catch (const std::invalid_argument& e)
            {
                throw std::invalid_argument("switch " + std::to_string(m_node ? m_node->GetId() : 0)
                                            + " port " + std::to_string(p) + ": " + e.what());
            }
        }
    }
}

void
RdmaSwitch::EnableIngressAccounting()
{
    NS_LOG_FUNCTION(this);
    if (m_ingressAccounting)
    {
        return;
    }
    for (const Port& port : m_ports)
    {
        for (const auto& q : port.queues)
        {
            if (q && q->GetNPackets() > 0)
            {
                throw std::logic_error("RdmaSwitch::EnableIngressAccounting: the switch holds "
                                       "packets already; enable it before the run");
            }
        }
    }
    m_ingressAccounting = true;
}

bool
RdmaSwitch::IsIngressAccountingEnabled() const
{
    return m_ingressAccounting;
}

void
RdmaSwitch::RequireIngressAccounting(const char* what) const
{
    if (!m_ingressAccounting)
    {
        throw std::logic_error(std::string("RdmaSwitch::") + what
                               + ": the ingress accounting is off (no queue disc asked for it: "
                                 "RdmaEgressQueueDisc::UsesIngressFanOut, "
                                 "EnableIngressAccounting)");
    }
}

uint32_t
RdmaSwitch::GetIngressFanOut(uint32_t inPort, uint8_t priority) const
{
    RequireIngressAccounting("GetIngressFanOut");
    return m_fanOut.at(inPort * PfcNetDevice::NUM_PRIORITIES + priority);
}

uint64_t
RdmaSwitch::GetIngressPauseThreshold(uint32_t /* inPort */, uint8_t /* priority */) const
{
    return m_mmu->IsPfcEnabled() ? m_mmu->GetPauseThreshold() : 0;
}

uint32_t
RdmaSwitch::GetIngressFanOutAbove(uint32_t inPort,
                                  uint8_t priority,
                                  uint64_t minQueueBytes,
                                  const RdmaEgressQueueDisc* self) const
{
    RequireIngressAccounting("GetIngressFanOutAbove");
    const std::size_t n = m_ports.size();
    uint32_t m = 1;
    for (std::size_t out = 0; out < n; ++out)
    {
        const Ptr<RdmaEgressQueueDisc>& q = m_ports[out].queues[priority];
        if (q && PeekPointer(q) != self
            && m_fanBytes[(inPort * n + out) * PfcNetDevice::NUM_PRIORITIES + priority] > 0
            && q->GetNBytes() >= minQueueBytes)
        {
            m++;
        }
    }
    return m;
}

uint64_t
RdmaSwitch::GetIngressBytesTo(uint32_t inPort, uint32_t outPort, uint8_t priority) const
{
    RequireIngressAccounting("GetIngressBytesTo");
    const std::size_t n = m_ports.size();
    if (inPort >= n || outPort >= n || priority >= PfcNetDevice::NUM_PRIORITIES)
    {
        throw std::out_of_range("RdmaSwitch::GetIngressBytesTo: no port " + std::to_string(inPort)
                                + " / " + std::to_string(outPort) + " or priority "
                                + std::to_string(priority));
    }
    return m_fanBytes[(inPort * n + outPort) * PfcNetDevice::NUM_PRIORITIES + priority];
}

uint32_t
RdmaSwitch::GetIngressDesignFanOut(uint32_t inPort) const
{
    return m_designFanOut.at(inPort);
}

void
RdmaSwitch::SetIngressDesignFanOut(uint32_t inPort, uint32_t m)
{
    NS_LOG_FUNCTION(this << inPort << m);
    if (inPort >= m_designFanOut.size())
    {
        throw std::invalid_argument("RdmaSwitch::SetIngressDesignFanOut: port "
                                    + std::to_string(inPort) + " does not exist (switch has "
                                    + std::to_string(m_designFanOut.size())
                                    + " ports; call after Finalize)");
    }
    m_designFanOut[inPort] = m;
}

void
RdmaSwitch::AccountFanOut(
    uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes, bool joining)
{
    const std::size_t n = m_ports.size();
    uint64_t& b = m_fanBytes[(inPort * n + outPort) * PfcNetDevice::NUM_PRIORITIES + priority];
    uint32_t& m = m_fanOut[inPort * PfcNetDevice::NUM_PRIORITIES + priority];
    if (joining)
    {
        m += b == 0;
        b += bytes;
    }
    else
    {
        b -= bytes;
        m -= b == 0;
    }
}

void
RdmaSwitch::AddRoute(Ipv4Address dst, uint32_t port)
{
    if (port >= m_ports.size())
    {
        throw std::invalid_argument("RdmaSwitch::AddRoute: port " + std::to_string(port)
                                    + " does not exist (switch has "
                                    + std::to_string(m_ports.size()) + " ports)");
    }
    m_routeDenseValid = false;
    auto [it, inserted] = m_routeIndex.emplace(dst.Get(), m_routes.size());
    if (inserted)
    {
        m_routes.emplace_back();
    }
    auto& ports = m_routes[it->second];
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
    }
}

void
RdmaSwitch::PinFlow(const RdmaFiveTuple& tuple, uint32_t port)
{
    if (port >= m_ports.size())
    {
        throw std::invalid_argument("RdmaSwitch::PinFlow: port " + std::to_string(port)
                                    + " does not exist");
    }
    m_pinned[tuple] = port;
}

uint32_t
RdmaSwitch::Route(const RdmaFiveTuple& tuple) const
{
    if (!m_pinned.empty())
    {
        auto pin = m_pinned.find(tuple);
        if (pin != m_pinned.end())
        {
            return pin->second;
        }
    }
    uint32_t ri = RouteIndex(tuple.dst.Get());
    if (ri == UINT32_MAX)
    {
        return UINT32_MAX;
    }
    const auto& ports = m_routes[ri];
    if (ports.size() == 1)
    {
        return ports[0];
    }
    return ports[RdmaEcmpHash(tuple, m_ecmpSeed) % ports.size()];
}

uint32_t
RdmaSwitch::RouteIndex(uint32_t dst) const
{
    if (!m_routeDenseValid)
    {
        m_routeDense.clear();
        if (!m_routeIndex.empty())
        {
            uint32_t lo = UINT32_MAX;
            uint32_t hi = 0;
            for (const auto& [a, i] : m_routeIndex)
            {
                lo = std::min(lo, a);
                hi = std::max(hi, a);
            }
            // Dense only if the addresses are compact (fabric hosts are numbered 10.0.0.1, ...).
            if (static_cast<uint64_t>(hi) - lo < 4 * m_routeIndex.size() + 1024)
            {
                m_routeBase = lo;
                m_routeDense.assign(hi - lo + 1, 0);
                for (const auto& [a, i] : m_routeIndex)
                {
                    m_routeDense[a - lo] = i + 1;
                }
            }
        }
        m_routeDenseValid = true;
    }
    if (!m_routeDense.empty())
    {
        uint32_t off = dst - m_routeBase;
        return off < m_routeDense.size() ? m_routeDense[off] - 1 : UINT32_MAX;
    }
    auto it = m_routeIndex.find(dst);
    return it == m_routeIndex.end() ? UINT32_MAX : it->second;
}

uint32_t
RdmaSwitch::RouteToHost(Ipv4Address dst) const
{
    auto it = m_routeIndex.find(dst.Get());
    if (it == m_routeIndex.end())
    {
        return UINT32_MAX;
    }
    const auto& ports = m_routes[it->second];
    return ports[(dst.Get() ^ m_ecmpSeed) % ports.size()];
}

uint32_t
RdmaSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<PfcNetDevice>
RdmaSwitch::GetDevice(uint32_t port) const
{
    return m_ports.at(port).device;
}

Ptr<RdmaEgressQueueDisc>
RdmaSwitch::GetQueueDisc(uint32_t port, uint8_t priority) const
{
    return m_ports.at(port).queues.at(priority);
}

uint64_t
RdmaSwitch::GetEgressBytes(uint32_t port) const
{
    const Port& p = m_ports.at(port);
    uint64_t bytes = p.controlIpBytes;
    for (const auto& q : p.queues)
    {
        bytes += q->GetNBytes();
    }
    return bytes;
}

Ptr<SwitchMmu>
RdmaSwitch::GetMmu() const
{
    return m_mmu;
}

const std::map<std::string, uint64_t>&
RdmaSwitch::GetForwardingDrops() const
{
    return m_drops;
}

uint8_t
RdmaSwitch::DscpToPriority(uint8_t dscp)
{
    return dscp >> 3;
}

void
RdmaSwitch::CountForwardingDrop(const char* reason)
{
    m_drops[reason]++;
}

uint8_t
RdmaSwitch::GetControlPriority() const
{
    return m_controlPriority;
}

void
RdmaSwitch::ReceiveFrame(uint32_t port, const Ptr<Packet>& packet, uint16_t protocol)
{
    if (protocol == 0x0800)
    {
        ForwardIpv4(port, packet);
    }
    else if (protocol == CnmHeader::ETHERTYPE)
    {
        // A CNM travels hop by hop toward the sender of the congested flow.
        CnmHeader cnm;
        packet->PeekHeader(cnm);
        uint32_t out = RouteToHost(cnm.GetSource());
        if (out == UINT32_MAX)
        {
            CountForwardingDrop(NO_ROUTE);
            m_dropTrace(packet, NO_ROUTE);
            return;
        }
        m_cnmsForwarded++;
        SendControlFrame(out, packet, protocol);
    }
    else
    {
        NS_LOG_WARN("switch " << m_node->GetId() << " ignores EtherType " << protocol);
    }
}

void
RdmaSwitch::ForwardIpv4(uint32_t inPort, const Ptr<Packet>& packet)
{
    // Read the fields from the bytes; the header stays on the packet (RdmaQueueDiscItem).
    RdmaQueueDiscItem::Ipv4Fields f;
    if (!RdmaQueueDiscItem::ParseIpv4(packet, f))
    {
        CountForwardingDrop(MALFORMED);
        m_dropTrace(packet, MALFORMED);
        return;
    }
    uint32_t out = Route(f.tuple);
    if (out == UINT32_MAX)
    {
        CountForwardingDrop(NO_ROUTE);
        m_dropTrace(packet, NO_ROUTE);
        return;
    }
    uint8_t prio = DscpToPriority(f.tos >> 2);
    uint32_t size = packet->GetSize(); // the IP packet, as the MMU and the queue discs count it
    SwitchMmu::AdmitResult res = m_mmu->Admit(inPort, prio, size);
    if (!res.admitted)
    {
        m_dropTrace(packet, res.dropReason);
        return;
    }
    if (res.sendPause)
    {
        SendPause(inPort, prio);
    }
    Port& port = m_ports[out];
    port.nonEmpty |= static_cast<uint8_t>(1u << prio);
    if (prio == m_controlPriority)
    {
        port.controlIp.push_back({packet, inPort, size});
        port.controlIpBytes += size;
    }
    else
    {
        if (m_ingressAccounting)
        {
            AccountFanOut(inPort, out, prio, size, true); // before: the queue may ask for M
        }
        Ptr<RdmaQueueDiscItem> item
            = Create<RdmaQueueDiscItem>(packet, f.tos, f.tuple, inPort, prio);
        item->SetCollectsHops(f.collectsHops);
        port.queues[prio]->Enqueue(item);
    }
    // Before the device may pull it: listeners see the queue as the packet left it.
    m_packetQueuedTrace(inPort, out, prio);
    port.device->NotifyTxReady();
}

uint64_t
RdmaSwitch::GetCnmsForwarded() const
{
    return m_cnmsForwarded;
}

void
RdmaSwitch::SendControlFrame(uint32_t port, Ptr<Packet> frame, uint16_t protocol)
{
    m_ports.at(port).control.emplace_back(frame, protocol);
    m_ports[port].device->NotifyTxReady();
}

bool
RdmaSwitch::PullFrame(uint32_t portIndex, uint8_t pausedMask, PfcTxFrame& frame)
{
    Port& port = m_ports[portIndex];
    if (!port.control.empty())
    {
        frame.packet = port.control.front().first;
        frame.protocol = port.control.front().second;
        frame.priority = PfcNetDevice::NUM_PRIORITIES - 1;
        port.control.pop_front();
        frame.more = true;
        return true;
    }
    uint8_t eligible = port.nonEmpty & ~pausedMask;
    while (eligible)
    {
        int p = 31 - __builtin_clz(eligible); // highest eligible priority
        eligible &= static_cast<uint8_t>(~(1u << p));
        QueuedPacket next; // the packet leaving, its ingress port and size
        if (p == m_controlPriority)
        {
            next = std::move(port.controlIp.front());
            port.controlIp.pop_front();
            port.controlIpBytes -= next.size;
            if (port.controlIp.empty())
            {
                port.nonEmpty &= static_cast<uint8_t>(~(1u << p));
            }
        }
        else
        {
            const Ptr<RdmaEgressQueueDisc>& q = port.queues[p];
            if (q->GetNPackets() == 0)
            {
                port.nonEmpty &= static_cast<uint8_t>(~(1u << p));
                continue;
            }
            Ptr<RdmaQueueDiscItem> item = StaticCast<RdmaQueueDiscItem>(q->Dequeue());
            if (q->GetNPackets() == 0)
            {
                port.nonEmpty &= static_cast<uint8_t>(~(1u << p));
            }
            if (item->CollectsHops())
            {
                item->AddIntHop(MakeIntHop(portIndex)); // writes the TOS byte too
            }
            else
            {
                item->AddHeader();
            }
            next = {item->GetPacket(), item->GetIngressPort(), item->GetSize()};
            if (m_ingressAccounting)
            {
                AccountFanOut(next.inPort, portIndex, p, next.size, false);
            }
        }
        if (m_mmu->Release(next.inPort, p, next.size))
        {
            SendResume(next.inPort, p);
        }
        frame.packet = next.packet;
        frame.protocol = 0x0800;
        frame.priority = p;
        // Another frame may be ready when this one ends: a queue that is not paused holds
        // packets. (Paused queues are served after the resume, which calls NotifyTxReady.)
        frame.more = !port.control.empty() || (port.nonEmpty & ~pausedMask) != 0;
        return true;
    }
    return false;
}

IntHop
RdmaSwitch::MakeIntHop(uint32_t portIndex) const
{
    const Port& port = m_ports[portIndex];
    const PfcNetDevice::Stats& st = port.device->GetStats();
    if (port.intRateCode == 0)
    {
        IntHop::Make(port.device->GetDataRate(), Time(0), 0, 0); // throws, naming the rate
    }
    // Bytes on the wire: the device's count plus each frame's overhead.
    return IntHop::Make(port.intRateCode,
                        Simulator::Now(),
                        st.txBytes + st.txFrames * port.frameOverhead,
                        GetEgressBytes(portIndex));
}

void
RdmaSwitch::SendPause(uint32_t port, uint8_t priority)
{
    Port& p = m_ports[port];
    p.device->SendPfc(priority, m_pauseQuanta);
    Time refresh
        = PfcHeader::QuantaToTime(m_pauseQuanta, p.device->GetDataRate()) * m_pauseRefreshRatio;
    p.pauseRefresh[priority].Cancel();
    p.pauseRefresh[priority] = Simulator::Schedule(refresh,
                                                   [this, port, priority]()
                                                   {
                                                       if (m_mmu->IsPaused(port, priority))
                                                       {
                                                           SendPause(port, priority);
                                                       }
                                                   });
}

void
RdmaSwitch::SendResume(uint32_t port, uint8_t priority)
{
    Port& p = m_ports[port];
    p.pauseRefresh[priority].Cancel();
    p.device->SendPfc(priority, 0);
}

void
RdmaSwitch::PauseStateChanged(uint32_t port, uint8_t priority, bool paused)
{
    if (paused)
    {
        m_ports[port].queues[priority]->NotifyPaused();
    }
    else
    {
        m_ports[port].queues[priority]->NotifyResumed();
    }
}

} // namespace ns3
