/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "pfc-net-device.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");
NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Dcon")
                            .AddConstructor<PfcChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&PfcChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

PfcChannel::PfcChannel()
{
    NS_LOG_FUNCTION(this);
    m_toward[0] = Create<Direction>();
    m_toward[1] = Create<Direction>();
}

void
PfcChannel::DoDispose()
{
    for (auto& dir : m_toward)
    {
        // Deliveries still scheduled keep the object alive until the simulator drops them;
        // they then find nothing to deliver.
        dir->wire.clear();
        dir->dst = nullptr;
    }
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    Channel::DoDispose();
}

void
PfcChannel::Direction::Notify()
{
    if (wire.empty() || !dst)
    {
        return;
    }
    Frame f = std::move(wire.front());
    wire.pop_front();
    dst->ReceiveL3(f.packet, f.protocol);
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    if (m_nDevices >= 2)
    {
        throw std::logic_error("PfcChannel: a point-to-point link joins exactly two devices");
    }
    m_toward[m_nDevices]->dst = PeekPointer(device);
    m_devices[m_nDevices++] = device;
}

Time
PfcChannel::ReserveArrival(std::size_t to, Time now, Time txTime)
{
    Direction& dir = *m_toward[to];
    Time arrival = std::max(now + txTime + m_delay, dir.lastArrival);
    dir.lastArrival = arrival;
    return arrival;
}

void
PfcChannel::TransmitStart(
    const Ptr<Packet>& packet, uint16_t protocol, const PfcNetDevice* src, Time now, Time txTime)
{
    Direction& dir = *m_toward[Toward(src)];
    if (!dir.contextKnown)
    {
        if (!dir.dst || !dir.dst->GetNode())
        {
            throw std::logic_error("PfcChannel: a frame was sent on a link whose other end has "
                                   "no device or no node");
        }
        dir.context = dir.dst->GetNode()->GetId();
        dir.contextKnown = true;
    }
    NS_ASSERT(now == Simulator::Now());
    Time arrival = std::max(now + txTime + m_delay, dir.lastArrival);
    dir.lastArrival = arrival;
    dir.wire.push_back({packet, protocol});
    dir.Ref(); // the simulator releases one reference after each delivery
    Simulator::ScheduleWithContext(dir.context, arrival - now, &dir);
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> dev) const
{
    return (m_devices[0] == dev) ? m_devices[1] : m_devices[0];
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return m_devices[i];
}

} // namespace ns3
