/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "pfc-net-device.h"

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

PfcChannel::PfcChannel() {}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    if (m_nDevices >= 2)
    {
        throw std::logic_error("PfcChannel: a point-to-point link joins exactly two devices");
    }
    m_devices[m_nDevices++] = device;
}

void
PfcChannel::TransmitStart(const Ptr<Packet>& packet,
                          uint16_t protocol,
                          const PfcNetDevice* src,
                          Time txTime)
{
    const Ptr<PfcNetDevice>& dst = (PeekPointer(m_devices[0]) == src) ? m_devices[1] : m_devices[0];
    Simulator::ScheduleWithContext(
        dst->GetNode()->GetId(), txTime + m_delay, &PfcNetDevice::ReceiveL3, dst, packet, protocol);
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
