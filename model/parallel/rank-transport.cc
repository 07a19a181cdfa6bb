/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rank-transport.h"

#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

#ifdef NS3_MPI
// Open MPI's and MPICH's C++ bindings (deprecated, and noisy under -Wextra) are not used.
#define OMPI_SKIP_MPICXX  1
#define MPICH_SKIP_MPICXX 1
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankTransport");

namespace
{

/// IEEE 802 Local Experimental EtherType 1: dcon's control messages between ranks. They go to
/// a group address no dcon device sends to (frames go to the peer or to PFC's address), so no
/// frame of a simulated link can be taken for one, whatever its EtherType.
constexpr uint16_t CONTROL_ETHERTYPE = 0x88B5;

#ifdef NS3_MPI
/// The largest message ns-3's MPI interfaces receive (MAX_MPI_MSG_SIZE and
/// NULL_MESSAGE_MAX_MPI_MSG_SIZE, both 2000 bytes, in ns-3.37 to 3.48).
constexpr uint32_t MPI_MESSAGE_LIMIT = 2000;

/// Wall seconds since an arbitrary origin.
double
WallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
#endif

/// The control messages' destination address.
Mac48Address
ControlAddress()
{
    return Mac48Address("01:80:c2:00:00:0e");
}

/// Where a control message for one neighbour rank goes.
struct Mailbox
{
    uint32_t rank;     //!< the neighbour rank
    uint32_t node;     //!< a node of it at the far end of a cut link
    uint32_t dev;      //!< that node's device on the link
    uint32_t local;    //!< this rank's node on the link
    uint32_t localDev; //!< its device
    Time delay;        //!< the link's delay (>= this rank's lookahead)
};

/// Process-wide state (one simulation per process, as ns-3's Simulator).
struct State
{
    bool enabled{false}; //!< frames may cross ranks
    uint32_t rank{0};    //!< this rank
    uint32_t size{1};    //!< ranks of the simulation
    RankTransport::Traffic traffic;
    RankTransport::Sync sync;
    std::vector<Mailbox> neighbours;
    Time relay;                      //!< longest control-message path
    bool batch{false};               //!< frames go in one exchange per synchronization round
    bool exchanged{false};           //!< this round's exchange is done
    std::vector<std::string> outbox; //!< per destination rank: frames of this round
    std::unordered_map<uint64_t, PfcNetDevice*> devices; //!< (node << 32 | if) -> local device
    Callback<void, Ptr<Packet>> control;                 //!< receives control messages
    bool nullMessage{false};        //!< the null-message engine runs (not batch, several ranks)
    int receivingFrom{-1};          //!< rank whose message was just received (-1: none)
    std::vector<uint64_t> fromRank; //!< per rank: messages received from it
    bool holding{false};            //!< HoldGuarantee's event is pending
};

State&
S()
{
    static State s;
    return s;
}

/// "rank R of N: " in a parallel run, "" otherwise (a prefix for messages).
std::string
Who()
{
    const State& s = S();
    if (!s.enabled)
    {
        return "";
    }
    return "rank " + std::to_string(s.rank) + " of " + std::to_string(s.size) + ": ";
}

} // namespace

void
RankTransport::Enable(uint32_t rank, uint32_t size, bool batch)
{
    State& s = S();
    if (size == 0 || rank >= size)
    {
        throw std::logic_error("RankTransport::Enable: rank " + std::to_string(rank) + " of "
                               + std::to_string(size));
    }
    s.enabled = true;
    s.rank = rank;
    s.size = size;
    s.batch = batch && size > 1;
    s.nullMessage = !batch && size > 1;
    s.exchanged = false;
    s.outbox.assign(size, std::string());
    s.receivingFrom = -1;
    s.fromRank.assign(size, 0);
    s.holding = false;
}

void
RankTransport::Disable()
{
    State& s = S();
    s.enabled = false; // (the rank stays known: a program that finished on rank 1 is no root)
    s.batch = false;
    s.nullMessage = false;
    s.receivingFrom = -1;
}

bool
RankTransport::IsEnabled()
{
    return S().enabled;
}

uint32_t
RankTransport::GetRank()
{
    return S().rank;
}

uint32_t
RankTransport::GetSize()
{
    return S().size;
}

bool
RankTransport::IsLocal(Ptr<const Node> node)
{
    const State& s = S();
    return !s.enabled || node->GetSystemId() == s.rank;
}

void
RankTransport::SetCutLinks(const std::vector<CutLink>& links,
                           const std::vector<Ptr<PfcNetDevice>>& devices)
{
    State& s = S();
    if (links.size() != devices.size())
    {
        throw std::logic_error("SetCutLinks: one device (or nullptr) per link");
    }
    if (!s.enabled)
    {
        if (!links.empty())
        {
            throw std::logic_error("SetCutLinks: links between ranks in a sequential run");
        }
        return;
    }
#ifdef NS3_MPI
    const uint32_t n = s.size;
    const int64_t inf = std::numeric_limits<int64_t>::max() / 4;
    std::vector<int64_t> dist(static_cast<std::size_t>(n) * n, inf);
    s.neighbours.clear();
    for (std::size_t i = 0; i < links.size(); ++i)
    {
        const CutLink& l = links[i];
        if (l.rankA >= n || l.rankB >= n || l.rankA == l.rankB)
        {
            throw std::logic_error("SetCutLinks: bad ranks on a cut link");
        }
        int64_t d = l.delay.GetTimeStep();
        int64_t& ab = dist[l.rankA * n + l.rankB];
        int64_t& ba = dist[l.rankB * n + l.rankA];
        ab = std::min(ab, d);
        ba = std::min(ba, d);
        if (l.rankA != s.rank && l.rankB != s.rank)
        {
            continue;
        }
        Ptr<PfcNetDevice> dev = devices[i];
        if (!dev)
        {
            throw std::logic_error("SetCutLinks: no local device on a link of this rank");
        }
        const bool aIsMe = l.rankA == s.rank;
        s.devices[(uint64_t(aIsMe ? l.nodeA : l.nodeB) << 32) | (aIsMe ? l.ifA : l.ifB)]
            = PeekPointer(dev);
        Ptr<MpiReceiver> rx = dev->GetObject<MpiReceiver>();
        if (!rx)
        {
            rx = CreateObject<MpiReceiver>();
            rx->SetReceiveCallback(
                MakeBoundCallback(&RankTransport::ReceiveFromRank, PeekPointer(dev)));
            dev->AggregateObject(rx);
        }
        Mailbox m{aIsMe ? l.rankB : l.rankA,
                  aIsMe ? l.nodeB : l.nodeA,
                  aIsMe ? l.ifB : l.ifA,
                  aIsMe ? l.nodeA : l.nodeB,
                  aIsMe ? l.ifA : l.ifB,
                  l.delay};
        auto it = std::find_if(s.neighbours.begin(),
                               s.neighbours.end(),
                               [&m](const Mailbox& x)
                               {
                                   return x.rank == m.rank;
                               });
        if (it == s.neighbours.end())
        {
            s.neighbours.push_back(m);
        }
        else if (m.delay < it->delay)
        {
            *it = m;
        }
    }
    std::sort(s.neighbours.begin(),
              s.neighbours.end(),
              [](const Mailbox& a, const Mailbox& b)
              {
                  return a.rank < b.rank;
              });
    // The longest shortest path between two ranks (Floyd-Warshall over the rank graph).
    for (uint32_t r = 0; r < n; ++r)
    {
        dist[r * n + r] = 0;
    }
    for (uint32_t k = 0; k < n; ++k)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                dist[i * n + j] = std::min(dist[i * n + j], dist[i * n + k] + dist[k * n + j]);
            }
        }
    }
    int64_t longest = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            if (dist[i * n + j] >= inf)
            {
                throw std::runtime_error("partition: rank " + std::to_string(i)
                                         + " has no path of links to rank " + std::to_string(j)
                                         + " (every rank needs a link to another rank)");
            }
            longest = std::max(longest, dist[i * n + j]);
        }
    }
    s.relay = TimeStep(longest);
#endif
}

void
RankTransport::SendFrame(const Ptr<Packet>& packet,
                         uint16_t protocol,
                         const PfcNetDevice* src,
                         const PfcNetDevice* dst,
                         Time arrival)
{
#ifdef NS3_MPI
    State& s = S();
    if (s.batch)
    {
        // Record: arrival (ps), node, interface, length, then the frame: its Ethernet header
        // (destination, source, EtherType) and the L3 packet in ns-3's serialized form
        // (Packet::Serialize: its bytes, payload that was never written kept as a length).
        const uint32_t l3 = packet->GetSerializedSize();
        const uint32_t len = 14 + l3;
        std::string& box = s.outbox[dst->GetNode()->GetSystemId()];
        const std::size_t at = box.size();
        box.resize(at + 20 + len);
        auto* p = reinterpret_cast<uint8_t*>(box.data() + at);
        int64_t ts = arrival.GetTimeStep();
        uint32_t node = dst->GetNode()->GetId();
        uint32_t ifIndex = dst->GetIfIndex();
        std::memcpy(p, &ts, 8);
        std::memcpy(p + 8, &node, 4);
        std::memcpy(p + 12, &ifIndex, 4);
        std::memcpy(p + 16, &len, 4);
        uint8_t* eth = p + 20;
        (protocol == PfcHeader::ETHERTYPE ? PfcHeader::GetMulticastDestination()
                                          : Mac48Address::ConvertFrom(dst->GetAddress()))
            .CopyTo(eth);
        Mac48Address::ConvertFrom(src->GetAddress()).CopyTo(eth + 6);
        eth[12] = static_cast<uint8_t>(protocol >> 8);
        eth[13] = static_cast<uint8_t>(protocol);
        packet->Serialize(eth + 14, l3);
        s.traffic.framesSent++;
        s.traffic.pfcSent += protocol == PfcHeader::ETHERTYPE;
        s.traffic.bytesSent += 14 + packet->GetSize();
        s.traffic.mpiBytes += 20 + len;
        return;
    }
    Ptr<Packet> frame = packet->Copy();
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(src->GetAddress()));
    eth.SetDestination(protocol == PfcHeader::ETHERTYPE
                           ? PfcHeader::GetMulticastDestination()
                           : Mac48Address::ConvertFrom(dst->GetAddress()));
    eth.SetLengthType(protocol);
    frame->AddHeader(eth);
    s.traffic.framesSent++;
    s.traffic.pfcSent += protocol == PfcHeader::ETHERTYPE;
    s.traffic.bytesSent += frame->GetSize();
    const uint32_t bytes = frame->GetSerializedSize() + 16;
    if (bytes > MPI_MESSAGE_LIMIT)
    {
        // ns-3's MPI interfaces receive into buffers of 2000 bytes; a larger message would be
        // cut short by MPI.
        throw std::runtime_error(Who() + "a frame of " + std::to_string(frame->GetSize())
                                 + " bytes (" + std::to_string(bytes)
                                 + " serialized) is larger than ns-3's MPI messages ("
                                 + std::to_string(MPI_MESSAGE_LIMIT)
                                 + " bytes): use ns3::DistributedSimulatorImpl, which sends "
                                   "frames in dcon's own exchange");
    }
    s.traffic.mpiBytes += bytes;
    HoldGuarantee();
    MpiInterface::SendPacket(frame, arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
#else
    throw std::logic_error("RankTransport::SendFrame: this build has no MPI");
#endif
}

void
RankTransport::EnginePolls()
{
    State& s = S();
    if (s.batch && !s.exchanged)
    {
        s.exchanged = true;
        ExchangeFrames();
    }
}

void
RankTransport::SyncWaited(double seconds, bool roundEnds)
{
    State& s = S();
    s.sync.waitSeconds += seconds;
    s.sync.calls++;
    if (roundEnds)
    {
        s.exchanged = false;
    }
}

void
RankTransport::ExchangeFrames()
{
#ifdef NS3_MPI
    State& s = S();
    MPI_Comm comm = MpiInterface::GetCommunicator();
    const int n = static_cast<int>(s.size);
    std::vector<int> sendCounts(n);
    std::vector<int> sendOffsets(n);
    std::string out;
    for (int r = 0; r < n; ++r)
    {
        if (s.outbox[r].size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 2))
        {
            throw std::runtime_error(Who() + "more than 1 GiB of frames in one round");
        }
        sendOffsets[r] = static_cast<int>(out.size());
        sendCounts[r] = static_cast<int>(s.outbox[r].size());
        out += s.outbox[r];
        s.outbox[r].clear();
    }
    std::vector<int> recvCounts(n);
    const double t0 = WallSeconds();
    MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm);
    std::vector<int> recvOffsets(n);
    long long total = 0;
    for (int r = 0; r < n; ++r)
    {
        recvOffsets[r] = static_cast<int>(total);
        total += recvCounts[r];
    }
    std::string in(static_cast<std::size_t>(total), '\0');
    MPI_Alltoallv(out.data(),
                  sendCounts.data(),
                  sendOffsets.data(),
                  MPI_CHAR,
                  in.data(),
                  recvCounts.data(),
                  recvOffsets.data(),
                  MPI_CHAR,
                  comm);
    const double waited = WallSeconds() - t0;
    s.sync.waitSeconds += waited;
    s.sync.exchangeSeconds += waited;
    s.sync.exchanges++;
    // Every frame is scheduled at its arrival, at its device, in the order it was sent (per
    // sending rank, ranks in order).
    const Time now = Simulator::Now();
    const auto* p = reinterpret_cast<const uint8_t*>(in.data());
    const auto* end = p + in.size();
    while (p < end)
    {
        if (end - p < 20)
        {
            throw std::runtime_error(Who() + "a truncated frame record from another rank");
        }
        int64_t ts;
        uint32_t node;
        uint32_t ifIndex;
        uint32_t len;
        std::memcpy(&ts, p, 8);
        std::memcpy(&node, p + 8, 4);
        std::memcpy(&ifIndex, p + 12, 4);
        std::memcpy(&len, p + 16, 4);
        if (len < 14 || static_cast<uint64_t>(end - p - 20) < len)
        {
            throw std::runtime_error(Who() + "a frame record of a bad length from another rank");
        }
        auto it = s.devices.find((uint64_t(node) << 32) | ifIndex);
        if (it == s.devices.end())
        {
            throw std::runtime_error(Who() + "a frame for node " + std::to_string(node) + " device "
                                     + std::to_string(ifIndex)
                                     + ", not a local end of a link between ranks");
        }
        const uint8_t* eth = p + 20;
        const uint16_t type = static_cast<uint16_t>((eth[12] << 8) | eth[13]);
        Ptr<Packet> packet = Create<Packet>(eth + 14, len - 14, true);
        const Time arrival = TimeStep(ts);
        if (arrival < now)
        {
            throw std::logic_error(Who() + "a frame from another rank arrives in the past");
        }
        Simulator::ScheduleWithContext(
            node, arrival - now, &RankTransport::DeliverFrame, it->second, packet, type);
        p += 20 + len;
    }
#endif
}

void
RankTransport::DeliverFrame(PfcNetDevice* dev, Ptr<Packet> packet, uint16_t protocol)
{
    S().traffic.framesReceived++;
    dev->ReceiveL3(packet, protocol);
}

void
RankTransport::ReceiveFromRank(PfcNetDevice* dev, Ptr<Packet> frame)
{
    EthernetHeader eth(false);
    frame->RemoveHeader(eth);
    if (eth.GetDestination() == ControlAddress() && eth.GetLengthType() == CONTROL_ETHERTYPE)
    {
        State& s = S();
        if (s.control.IsNull())
        {
            throw std::logic_error(Who()
                                   + "a control message from another rank, and no "
                                     "receiver for it");
        }
        s.control(frame);
        return;
    }
    S().traffic.framesReceived++;
    dev->ReceiveL3(frame, eth.GetLengthType());
}

void
RankTransport::SendToNeighbours(const std::vector<uint8_t>& payload)
{
#ifdef NS3_MPI
    State& s = S();
    for (const Mailbox& m : s.neighbours)
    {
        Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
        EthernetHeader eth(false);
        eth.SetSource(Mac48Address::ConvertFrom(
            NodeList::GetNode(m.local)->GetDevice(m.localDev)->GetAddress()));
        eth.SetDestination(ControlAddress());
        eth.SetLengthType(CONTROL_ETHERTYPE);
        p->AddHeader(eth);
        s.traffic.controlSent++;
        // Under null messages a control message arrives one time step after the lookahead, so
        // that it too comes after the guarantee sent with it (HoldGuarantee), whose time the
        // other rank may already run.
        HoldGuarantee();
        MpiInterface::SendPacket(
            p, Simulator::Now() + m.delay + (s.nullMessage ? TimeStep(1) : Time(0)), m.node, m.dev);
    }
#endif
}

void
RankTransport::SetControlReceiver(Callback<void, Ptr<Packet>> receiver)
{
    S().control = receiver;
}

Time
RankTransport::GetRelayDelay()
{
    const State& s = S();
    // (under null messages each hop takes one time step more: SendToNeighbours)
    return s.relay + (s.nullMessage ? TimeStep(s.size) : Time(0));
}

void
RankTransport::HoldGuarantee()
{
    State& s = S();
    if (!s.nullMessage || s.holding)
    {
        return;
    }
    s.holding = true;
    Simulator::ScheduleNow(+[]()
                           {
                               S().holding = false;
                           });
}

void
RankTransport::MessageReceived(int source)
{
    State& s = S();
    if (!s.nullMessage || source < 0 || static_cast<std::size_t>(source) >= s.fromRank.size())
    {
        return;
    }
    s.receivingFrom = source;
    s.fromRank[source]++;
}

void
RankTransport::NoMessage()
{
    S().receivingFrom = -1;
}

bool
RankTransport::TakeRemoteInsert(uint32_t* source, uint64_t* sequence)
{
    State& s = S();
    if (s.receivingFrom < 0)
    {
        return false;
    }
    *source = static_cast<uint32_t>(s.receivingFrom);
    *sequence = s.fromRank[s.receivingFrom];
    s.receivingFrom = -1;
    return true;
}

void
RankTransport::EngineSteps()
{
    S().receivingFrom = -1;
}

RankTransport::Traffic
RankTransport::GetTraffic()
{
    return S().traffic;
}

RankTransport::Sync
RankTransport::GetSync()
{
    return S().sync;
}

} // namespace ns3
