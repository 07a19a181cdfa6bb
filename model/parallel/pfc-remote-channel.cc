/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pfc-remote-channel.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rank-transport.h"
#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcRemoteChannel");
NS_OBJECT_ENSURE_REGISTERED(PfcRemoteChannel);

TypeId
PfcRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcRemoteChannel")
                            .SetParent<PfcChannel>()
                            .SetGroupName("Dcon")
                            .AddConstructor<PfcRemoteChannel>();
    return tid;
}

PfcRemoteChannel::PfcRemoteChannel() = default;

void
PfcRemoteChannel::TransmitStart(
    const Ptr<Packet>& packet, uint16_t protocol, const PfcNetDevice* src, Time now, Time txTime)
{
    const std::size_t to = Toward(src);
    PfcNetDevice* dst = GetReceiver(to);
    if (m_far[to] == Far::UNKNOWN)
    {
        if (!dst || !dst->GetNode())
        {
            throw std::logic_error("PfcRemoteChannel: a frame was sent on a link whose other end "
                                   "has no device or no node");
        }
        m_far[to] = RankTransport::IsLocal(dst->GetNode()) ? Far::LOCAL : Far::REMOTE;
    }
    if (m_far[to] == Far::LOCAL)
    {
        PfcChannel::TransmitStart(packet, protocol, src, now, txTime);
        return;
    }
    NS_ASSERT(now == Simulator::Now());
    // The far end runs on another rank: the frame's bytes travel there through MPI, to arrive
    // at the same time as on a local link.
    RankTransport::SendFrame(packet, protocol, src, dst, ReserveArrival(to, now, txTime));
}

} // namespace ns3
