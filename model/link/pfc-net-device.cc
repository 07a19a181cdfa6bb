/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-net-device.h"

#include "ns3/boolean.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/uinteger.h"
#include "pfc-channel.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");
NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::PfcNetDevice::PauseStateTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::PfcNetDevice::PfcTracedCallback);

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::PfcNetDevice")
              .SetParent<NetDevice>()
              .SetGroupName("Dcon")
              .AddConstructor<PfcNetDevice>()
              .AddAttribute("DataRate",
                            "Line rate of the device",
                            DataRateValue(DataRate("40Gbps")),
                            MakeDataRateAccessor(&PfcNetDevice::m_rate),
                            MakeDataRateChecker())
              .AddAttribute("Mtu",
                            "Largest L3 packet (bytes after the Ethernet header)",
                            UintegerValue(1500),
                            MakeUintegerAccessor(&PfcNetDevice::SetMtu, &PfcNetDevice::GetMtu),
                            MakeUintegerChecker<uint16_t>(68))
              .AddAttribute("IncludePreambleAndIfg",
                            "Count the 8-byte preamble/SFD and the 12-byte inter-frame gap "
                            "toward serialization time",
                            BooleanValue(true),
                            MakeBooleanAccessor(&PfcNetDevice::m_includePreambleIfg),
                            MakeBooleanChecker())
              .AddTraceSource("Sniffer",
                              "Every Ethernet frame sent or received",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PromiscSniffer",
                              "Every Ethernet frame sent or received (used by pcap helpers)",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_promiscSnifferTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacTx",
                              "A frame starts serialization",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("MacRx",
                              "A frame was received",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace),
                              "ns3::Packet::TracedCallback")
              .AddTraceSource("PfcTx",
                              "A PFC frame was sent: priority, pause quanta (0 = resume)",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_pfcTxTrace),
                              "ns3::PfcNetDevice::PfcTracedCallback")
              .AddTraceSource("PfcRx",
                              "A PFC frame was received: priority, pause quanta (0 = resume)",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_pfcRxTrace),
                              "ns3::PfcNetDevice::PfcTracedCallback")
              .AddTraceSource("PauseState",
                              "A priority of this device became paused (true) or resumed (false), "
                              "by a PFC frame or by pause expiry",
                              MakeTraceSourceAccessor(&PfcNetDevice::m_pauseStateTrace),
                              "ns3::PfcNetDevice::PauseStateTracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
    : m_address(Mac48Address::Allocate())
{
    NS_LOG_FUNCTION(this);
    m_pendingPfc.fill(-1);
}

PfcNetDevice::~PfcNetDevice() {}

void
PfcNetDevice::DoDispose()
{
    for (auto& ev : m_pauseEvents)
    {
        ev.Cancel();
    }
    m_txCompleteEvent.Cancel();
    m_txCompletePending = false;
    m_node = nullptr;
    m_channel = nullptr;
    m_owner = nullptr;
    m_pull = MakeNullCallback<bool, uint8_t, PfcTxFrame&>();
    m_rxCallback
        = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&>();
    m_frameRxCallback = MakeNullCallback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint16_t>();
    m_sendQueue.clear();
    NetDevice::DoDispose();
}

void
PfcNetDevice::Attach(Ptr<PfcChannel> ch)
{
    m_channel = ch;
    ch->Attach(this);
}

void
PfcNetDevice::SetPullCallback(PullCallback cb)
{
    NS_LOG_FUNCTION(this << &cb);
    m_owner = nullptr;
    m_pull = cb;
}

void
PfcNetDevice::SetFrameReceiveCallback(FrameReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << &cb);
    m_owner = nullptr;
    m_frameRxCallback = cb;
}

void
PfcNetDevice::SetOwner(PfcDeviceOwner* owner, uint32_t port)
{
    NS_LOG_FUNCTION(this << owner << port);
    m_owner = owner;
    m_ownerPort = port;
    m_pull = MakeNullCallback<bool, uint8_t, PfcTxFrame&>();
    m_frameRxCallback = MakeNullCallback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint16_t>();
}

void
PfcNetDevice::NotifyTxReady()
{
    if (m_busy && Simulator::Now() >= m_busyUntil)
    {
        // The last frame has ended: its completion (if one is scheduled for now) is moot.
        if (m_txCompletePending)
        {
            m_txCompleteEvent.Cancel();
            m_txCompletePending = false;
        }
        m_busy = false;
    }
    if (!m_busy)
    {
        TryTransmit();
    }
    else if (!m_txCompletePending)
    {
        m_txCompletePending = true;
        m_txCompleteEvent = Simulator::Schedule(
            m_busyUntil - Simulator::Now(), &PfcNetDevice::TransmitComplete, this);
    }
}

void
PfcNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    if (priority >= NUM_PRIORITIES)
    {
        throw std::invalid_argument("PfcNetDevice::SendPfc: priority " + std::to_string(priority)
                                    + " is not in 0..7");
    }
    const uint8_t bit = static_cast<uint8_t>(1u << priority);
    if (quanta == 0 && m_pendingPfc[priority] > 0 && !(m_pausedUpstreamMask & bit))
    {
        // A RESUME before the PAUSE it answers went out: the upstream was never paused, so
        // neither frame is sent (a lone RESUME would answer no PAUSE).
        m_pendingPfc[priority] = -1;
        m_pendingPfcMask &= static_cast<uint8_t>(~bit);
        return;
    }
    m_pendingPfc[priority] = quanta;
    m_pendingPfcMask |= bit;
    NotifyTxReady();
}

bool
PfcNetDevice::IsPaused(uint8_t priority) const
{
    return (m_pausedMask >> priority) & 1u;
}

uint8_t
PfcNetDevice::GetPausedMask() const
{
    return m_pausedMask;
}

bool
PfcNetDevice::IsBusy() const
{
    return m_busy && Simulator::Now() < m_busyUntil;
}

uint32_t
PfcNetDevice::GetWireBytes(uint32_t l3Bytes) const
{
    uint32_t frame = std::max(ETH_HEADER_BYTES + l3Bytes, ETH_MIN_FRAME_BYTES);
    return frame + ETH_FCS_BYTES + (m_includePreambleIfg ? ETH_PREAMBLE_IFG_BYTES : 0);
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_rate;
}

const PfcNetDevice::Stats&
PfcNetDevice::GetStats() const
{
    return m_stats;
}

void
PfcNetDevice::TryTransmit()
{
    NS_ASSERT(!m_busy);
    if (!m_channel)
    {
        return;
    }
    if (m_pendingPfcMask)
    {
        // One PFC frame carries every pending priority's time.
        PfcHeader pfc;
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            if (m_pendingPfc[p] >= 0)
            {
                uint16_t quanta = static_cast<uint16_t>(m_pendingPfc[p]);
                pfc.SetPauseTime(p, quanta);
                m_pfcTxTrace(p, quanta);
                if (quanta)
                {
                    m_stats.pauseSent++;
                    m_pausedUpstreamMask |= static_cast<uint8_t>(1u << p);
                }
                else
                {
                    m_stats.resumeSent++;
                    m_pausedUpstreamMask &= static_cast<uint8_t>(~(1u << p));
                }
                m_pendingPfc[p] = -1;
            }
        }
        m_pendingPfcMask = 0;
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(pfc);
        StartTransmission(p, PfcHeader::ETHERTYPE, true);
        return;
    }
    if (!m_sendQueue.empty())
    {
        PfcTxFrame f = m_sendQueue.front();
        m_sendQueue.pop_front();
        StartTransmission(f.packet, f.protocol, true);
        return;
    }
    PfcTxFrame frame;
    bool pulled = m_owner ? m_owner->PullFrame(m_ownerPort, m_pausedMask, frame)
                          : !m_pull.IsNull() && m_pull(m_pausedMask, frame);
    if (pulled)
    {
        NS_ASSERT_MSG(!IsPaused(frame.priority), "owner returned a frame of a paused priority");
        StartTransmission(frame.packet, frame.protocol, frame.more);
    }
}

void
PfcNetDevice::StartTransmission(const Ptr<Packet>& packet, uint16_t protocol, bool more)
{
    uint32_t l3 = packet->GetSize();
    if (ETH_HEADER_BYTES + l3 < ETH_MIN_FRAME_BYTES)
    {
        // The padding stays in the packet, as on a real wire (receivers see it).
        packet->AddPaddingAtEnd(ETH_MIN_FRAME_BYTES - ETH_HEADER_BYTES - l3);
    }
    uint32_t frameBytes = ETH_HEADER_BYTES + packet->GetSize();
    Time now = Simulator::Now();
    NS_ASSERT_MSG(now >= m_busyUntil, "overlapping transmissions");
    m_busy = true;
    Time txTime
        = TxTime(frameBytes + ETH_FCS_BYTES + (m_includePreambleIfg ? ETH_PREAMBLE_IFG_BYTES : 0));
    m_stats.txFrames++;
    m_stats.txBytes += frameBytes;
    if (!m_macTxTrace.IsEmpty() || !m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty())
    {
        Mac48Address dst = protocol == PfcHeader::ETHERTYPE ? PfcHeader::GetMulticastDestination()
                                                            : PeerAddress();
        Ptr<Packet> frame = MakeFrame(packet, protocol, m_address, dst);
        m_macTxTrace(frame);
        m_snifferTrace(frame);
        m_promiscSnifferTrace(frame);
    }
    m_busyUntil = now + txTime;
    if (more || m_pendingPfcMask || !m_sendQueue.empty())
    {
        m_txCompleteEvent = Simulator::Schedule(txTime, &PfcNetDevice::TransmitComplete, this);
        m_txCompletePending = true;
    }
    m_channel->TransmitStart(packet, protocol, this, now, txTime);
}

Ptr<Packet>
PfcNetDevice::MakeFrame(Ptr<const Packet> packet,
                        uint16_t protocol,
                        Mac48Address src,
                        Mac48Address dst) const
{
    Ptr<Packet> frame = packet->Copy(); // already padded by StartTransmission
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(protocol);
    frame->AddHeader(eth);
    return frame;
}

Mac48Address
PfcNetDevice::PeerAddress()
{
    if (!m_peerAddressValid)
    {
        m_peerAddress = Mac48Address::ConvertFrom(m_channel->GetPeer(this)->GetAddress());
        m_peerAddressValid = true;
    }
    return m_peerAddress;
}

Time
PfcNetDevice::TxTime(uint32_t wireBytes)
{
    return m_txTimes.Get(m_rate, wireBytes);
}

void
PfcNetDevice::TransmitComplete()
{
    NS_ASSERT(Simulator::Now() >= m_busyUntil);
    m_txCompletePending = false;
    m_busy = false;
    TryTransmit();
}

void
PfcNetDevice::ReceiveL3(const Ptr<Packet>& packet, uint16_t protocol)
{
    m_stats.rxFrames++;
    if (!m_macRxTrace.IsEmpty() || !m_snifferTrace.IsEmpty() || !m_promiscSnifferTrace.IsEmpty())
    {
        // A PFC frame was sent to the PFC multicast address, anything else to this device.
        Mac48Address dst
            = protocol == PfcHeader::ETHERTYPE ? PfcHeader::GetMulticastDestination() : m_address;
        Ptr<Packet> frame = MakeFrame(packet, protocol, PeerAddress(), dst);
        m_snifferTrace(frame);
        m_promiscSnifferTrace(frame);
        m_macRxTrace(frame);
    }
    Deliver(packet, protocol);
}

void
PfcNetDevice::Deliver(const Ptr<Packet>& frame, uint16_t protocol)
{
    if (protocol == PfcHeader::ETHERTYPE)
    {
        ReceivePfc(frame);
        return;
    }
    if (m_owner)
    {
        m_owner->ReceiveFrame(m_ownerPort, frame, protocol);
    }
    else if (!m_frameRxCallback.IsNull())
    {
        m_frameRxCallback(this, frame, protocol);
    }
    else if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, frame, protocol, PeerAddress());
    }
}

void
PfcNetDevice::ReceivePfc(Ptr<Packet> frame)
{
    PfcHeader pfc;
    if (frame->RemoveHeader(pfc) == 0)
    {
        NS_LOG_WARN("ignoring a truncated MAC control frame of " << frame->GetSize() << " bytes");
        return;
    }
    if (pfc.GetOpcode() != PfcHeader::OPCODE_PFC)
    {
        NS_LOG_WARN("ignoring MAC control frame with opcode " << pfc.GetOpcode());
        return;
    }
    bool resumed = false;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        uint16_t quanta = pfc.GetPauseTime(p);
        m_pfcRxTrace(p, quanta);
        m_pauseEvents[p].Cancel();
        bool wasPaused = IsPaused(p);
        if (quanta == 0)
        {
            m_stats.resumeReceived++;
            m_pausedMask &= ~(1u << p);
            if (wasPaused)
            {
                resumed = true;
                m_pauseStateTrace(p, false);
            }
        }
        else
        {
            m_stats.pauseReceived++;
            Time duration = PfcHeader::QuantaToTime(quanta, m_rate);
            m_pausedMask |= (1u << p);
            m_pauseEvents[p] = Simulator::Schedule(duration, &PfcNetDevice::PauseExpired, this, p);
            if (!wasPaused)
            {
                m_pauseStateTrace(p, true);
            }
        }
    }
    if (resumed)
    {
        NotifyTxReady();
    }
}

void
PfcNetDevice::PauseExpired(uint8_t priority)
{
    m_pausedMask &= ~(1u << priority);
    m_pauseStateTrace(priority, false);
    NotifyTxReady();
}

// ------------------------------------------------------------------------------ NetDevice

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    NS_LOG_FUNCTION(this << address);
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    NS_LOG_FUNCTION(this << mtu);
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
PfcNetDevice::IsBroadcast() const
{
    return false;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return false;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    m_sendQueue.push_back(PfcTxFrame{packet, protocolNumber, 0});
    NotifyTxReady();
    return true;
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    NS_LOG_FUNCTION(this << node);
    m_node = node;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << &cb);
    m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << &cb);
    m_promiscCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
