/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-parallel.h"

#include "ns3/ethernet-header.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#ifdef NS3_MPI
// Open MPI's and MPICH's C++ bindings (deprecated, and noisy under -Wextra) are not used.
#define OMPI_SKIP_MPICXX  1
#define MPICH_SKIP_MPICXX 1
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricParallel");

namespace
{

/// IEEE 802 Local Experimental EtherType 1: dcon's completion messages between ranks. They go
/// to a group address no dcon device sends to (frames go to the peer or to PFC's address), so
/// no frame of a simulated link can be taken for one, whatever its EtherType.
constexpr uint16_t CONTROL_ETHERTYPE = 0x88B5;

#ifdef NS3_MPI
/// The largest message ns-3's MPI interfaces receive (MAX_MPI_MSG_SIZE and
/// NULL_MESSAGE_MAX_MPI_MSG_SIZE, both 2000 bytes, in ns-3.37 to 3.48).
constexpr uint32_t MPI_MESSAGE_LIMIT = 2000;
#endif

/// The control messages' destination address.
Mac48Address
ControlAddress()
{
    return Mac48Address("01:80:c2:00:00:0e");
}

/// Where a completion message for one neighbour rank goes.
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
    bool initCalled{false}; //!< Init was called
    bool weInitMpi{false};  //!< Init called MPI_Init (and Finish finalizes)
    bool enabled{false};    //!< a parallel engine runs the simulation
    uint32_t worldSize{1};  //!< ranks started by mpirun (before Start)
    uint32_t rank{0};       //!< this rank
    uint32_t size{1};       //!< ranks of the simulation
    FabricParallel::Traffic traffic;
    std::vector<Mailbox> neighbours;
    Time gossip;                     //!< longest completion-message path
    bool batch{false};               //!< frames go in one exchange per synchronization round
    bool exchanged{false};           //!< this round's exchange is done
    std::vector<std::string> outbox; //!< per destination rank: frames of this round
    std::unordered_map<uint64_t, PfcNetDevice*> devices; //!< (node << 32 | if) -> local device
    uint64_t batches{0};                                 //!< exchanges made
    double exchangeSeconds{0};   //!< wall seconds in the exchanges' collectives
    double syncSeconds{0};       //!< wall seconds blocked in synchronization
    uint64_t syncRounds{0};      //!< synchronization calls
    std::vector<int64_t> doneAt; //!< per rank: time its flows completed (ps), -1 unknown
    bool localDone{false};
    bool stopScheduled{false};
    Time drain;
};

State&
S()
{
    static State s;
    return s;
}

#ifndef NS3_MPI
/// Number of ranks mpirun (Open MPI, MPICH, Slurm) says it started, read from its environment.
uint32_t
LauncherSize()
{
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    {
        if (const char* v = std::getenv(var))
        {
            long n = std::strtol(v, nullptr, 10);
            if (n > 1)
            {
                return static_cast<uint32_t>(n);
            }
        }
    }
    return 1;
}
#endif

/// The engine SimulatorImplementationType names.
std::string
ChosenEngine()
{
    StringValue v;
    if (GlobalValue::GetValueByNameFailSafe("SimulatorImplementationType", v))
    {
        return v.Get();
    }
    return "";
}

bool
IsParallelEngine(const std::string& name)
{
    return name == "ns3::DistributedSimulatorImpl" || name == "ns3::NullMessageSimulatorImpl";
}

#ifdef NS3_MPI
/// Wall seconds since an arbitrary origin.
double
WallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
#endif

} // namespace

#ifdef NS3_MPI
// MPI's profiling interface: these definitions take the place of the MPI library's for the
// calls ns-3's engines block in, time them, and hand over to the library's PMPI_ versions.
extern "C" int
MPI_Allgather(const void* sendbuf,
              int sendcount,
              MPI_Datatype sendtype,
              void* recvbuf,
              int recvcount,
              MPI_Datatype recvtype,
              MPI_Comm comm)
{
    double t0 = WallSeconds();
    int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    S().syncSeconds += WallSeconds() - t0;
    S().syncRounds++;
    S().exchanged = false; // the round ends
    return rc;
}

extern "C" int
MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
    // ns3::DistributedSimulatorImpl polls for messages (GrantedTimeWindowMpiInterface::
    // ReceiveMessages) at the start of every synchronization round, before it computes its next
    // event time: the round's frames are exchanged then, and scheduled like received messages.
    State& s = S();
    if (s.batch && !s.exchanged)
    {
        s.exchanged = true;
        FabricParallel::ExchangeFrames();
    }
    return PMPI_Testany(count, requests, index, flag, status);
}

extern "C" int
MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
    double t0 = WallSeconds();
    int rc = PMPI_Waitany(count, requests, index, status);
    S().syncSeconds += WallSeconds() - t0;
    S().syncRounds++;
    return rc;
}
#endif

void
FabricParallel::Init(int* argc, char*** argv)
{
    State& s = S();
    if (s.initCalled)
    {
        return;
    }
    s.initCalled = true;
    // Every way out of the program leaves MPI properly (an early return, an error before Start);
    // an explicit Finish makes this a no-op.
    static bool registered = false;
    if (!registered)
    {
        registered = true;
        std::atexit(
            []
            {
                FabricParallel::Finish();
            });
    }
#ifdef NS3_MPI
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag)
    {
        MPI_Init(argc, argv);
        s.weInitMpi = true;
    }
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    s.worldSize = static_cast<uint32_t>(n);
#else
    s.worldSize = LauncherSize();
#endif
}

void
FabricParallel::Start()
{
    State& s = S();
    const std::string engine = ChosenEngine();
    const bool asked = IsParallelEngine(engine);
#ifdef NS3_MPI
    if (!s.initCalled)
    {
        throw std::logic_error("FabricParallel::Start: call FabricParallel::Init first");
    }
    if (s.worldSize <= 1 && !asked)
    {
        return; // one rank, the sequential engine: exactly the standalone program
    }
    MpiInterface::Enable(MPI_COMM_WORLD);
    const std::string running = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
    if (!IsParallelEngine(running))
    {
        throw std::logic_error("FabricParallel::Start: the simulator (" + running
                               + ") was created before the parallel engine was chosen");
    }
    s.enabled = true;
    s.rank = MpiInterface::GetSystemId();
    s.size = MpiInterface::GetSize();
    // Granted time windows: frames between ranks travel once per round, all together. The
    // null-message engine has no rounds: each frame is its own message (MpiInterface).
    s.batch = running == "ns3::DistributedSimulatorImpl" && s.size > 1;
    s.outbox.assign(s.size, std::string());
    s.doneAt.assign(s.size, -1);
#else
    if (asked || s.worldSize > 1)
    {
        throw std::runtime_error(
            std::string("this build of dcon has no MPI (")
            + (asked ? "--SimulatorImplementationType=" + engine + " was asked for"
                     : "it was started on " + std::to_string(s.worldSize) + " ranks")
            + "): Debian's ns-3 has no mpi module; build the parallel programs with "
              "scripts/setup-mpi.sh and run build-mpi/bin/<program> under mpirun");
    }
#endif
}

void
FabricParallel::Finish()
{
    State& s = S();
#ifdef NS3_MPI
    if (s.enabled)
    {
        MpiInterface::Disable();
        s.enabled = false;
    }
    if (s.weInitMpi)
    {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized)
        {
            MPI_Finalize();
        }
        s.weInitMpi = false;
    }
#endif
    s.initCalled = false;
}

bool
FabricParallel::IsEnabled()
{
    return S().enabled;
}

bool
FabricParallel::HasMpi()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

uint32_t
FabricParallel::GetRank()
{
    return S().rank;
}

uint32_t
FabricParallel::GetSize()
{
    return S().size;
}

bool
FabricParallel::IsRoot()
{
    return S().rank == 0;
}

std::string
FabricParallel::Who()
{
    const State& s = S();
    if (!s.enabled)
    {
        return "";
    }
    return "rank " + std::to_string(s.rank) + " of " + std::to_string(s.size) + ": ";
}

bool
FabricParallel::IsLocal(Ptr<const Node> node)
{
    const State& s = S();
    return !s.enabled || node->GetSystemId() == s.rank;
}

std::vector<std::string>
FabricParallel::Gather(const std::string& mine)
{
    const State& s = S();
    if (!s.enabled)
    {
        return {mine};
    }
#ifdef NS3_MPI
    MPI_Comm comm = MpiInterface::GetCommunicator();
    int len = static_cast<int>(mine.size());
    if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    {
        throw std::runtime_error(Who() + "Gather: more than 2 GiB to send");
    }
    std::vector<int> lens(s.size);
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(s.size, 0);
    std::string all;
    if (s.rank == 0)
    {
        long long total = 0;
        for (uint32_t r = 0; r < s.size; ++r)
        {
            offsets[r] = static_cast<int>(total);
            total += lens[r];
        }
        if (total > std::numeric_limits<int>::max())
        {
            throw std::runtime_error("Gather: more than 2 GiB to collect at rank 0");
        }
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(
        mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, comm);
    std::vector<std::string> out;
    if (s.rank == 0)
    {
        for (uint32_t r = 0; r < s.size; ++r)
        {
            out.push_back(all.substr(offsets[r], lens[r]));
        }
    }
    return out;
#else
    return {mine};
#endif
}

uint64_t
FabricParallel::SumAll(uint64_t mine)
{
#ifdef NS3_MPI
    if (S().enabled)
    {
        uint64_t sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
        return sum;
    }
#endif
    return mine;
}

double
FabricParallel::MaxAll(double mine)
{
#ifdef NS3_MPI
    if (S().enabled)
    {
        double most = 0;
        MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MpiInterface::GetCommunicator());
        return most;
    }
#endif
    return mine;
}

void
FabricParallel::SetCutLinks(const std::vector<CutLink>& links,
                            const std::vector<Ptr<PfcNetDevice>>& devices)
{
    NS_LOG_FUNCTION(links.size() << devices.size());
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
                MakeBoundCallback(&FabricParallel::ReceiveFromRank, PeekPointer(dev)));
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
    s.gossip = TimeStep(longest);
#endif
}

void
FabricParallel::SendFrame(const Ptr<Packet>& packet,
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
    MpiInterface::SendPacket(frame, arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
#else
    throw std::logic_error("FabricParallel::SendFrame: this build has no MPI");
#endif
}

void
FabricParallel::ExchangeFrames()
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
    PMPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm);
    std::vector<int> recvOffsets(n);
    long long total = 0;
    for (int r = 0; r < n; ++r)
    {
        recvOffsets[r] = static_cast<int>(total);
        total += recvCounts[r];
    }
    std::string in(static_cast<std::size_t>(total), '\0');
    PMPI_Alltoallv(out.data(),
                   sendCounts.data(),
                   sendOffsets.data(),
                   MPI_CHAR,
                   in.data(),
                   recvCounts.data(),
                   recvOffsets.data(),
                   MPI_CHAR,
                   comm);
    const double waited = WallSeconds() - t0;
    s.syncSeconds += waited;
    s.exchangeSeconds += waited;
    s.batches++;
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
            node, arrival - now, &FabricParallel::DeliverFrame, it->second, packet, type);
        p += 20 + len;
    }
#endif
}

void
FabricParallel::DeliverFrame(PfcNetDevice* dev, Ptr<Packet> packet, uint16_t protocol)
{
    S().traffic.framesReceived++;
    dev->ReceiveL3(packet, protocol);
}

void
FabricParallel::ReceiveFromRank(PfcNetDevice* dev, Ptr<Packet> frame)
{
    EthernetHeader eth(false);
    frame->RemoveHeader(eth);
    if (eth.GetDestination() == ControlAddress() && eth.GetLengthType() == CONTROL_ETHERTYPE)
    {
        ReceiveDone(frame);
        return;
    }
    S().traffic.framesReceived++;
    dev->ReceiveL3(frame, eth.GetLengthType());
}

void
FabricParallel::NotifyLocalDone(Time drain)
{
    State& s = S();
    if (!s.enabled)
    {
        throw std::logic_error("NotifyLocalDone: not a parallel run");
    }
    if (s.localDone)
    {
        return;
    }
    s.localDone = true;
    s.drain = drain;
    s.doneAt[s.rank] = Simulator::Now().GetTimeStep();
    NS_LOG_INFO(Who() << "local flows complete at " << Simulator::Now().As(Time::US));
    SendDone();
    MaybeStop();
}

void
FabricParallel::SendDone()
{
#ifdef NS3_MPI
    State& s = S();
    std::vector<uint8_t> bytes(s.doneAt.size() * 8);
    for (std::size_t r = 0; r < s.doneAt.size(); ++r)
    {
        auto v = static_cast<uint64_t>(s.doneAt[r]);
        for (int b = 0; b < 8; ++b)
        {
            bytes[r * 8 + b] = static_cast<uint8_t>(v >> (56 - 8 * b)); // network order
        }
    }
    for (const Mailbox& m : s.neighbours)
    {
        Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
        EthernetHeader eth(false);
        eth.SetSource(Mac48Address::ConvertFrom(
            NodeList::GetNode(m.local)->GetDevice(m.localDev)->GetAddress()));
        eth.SetDestination(ControlAddress());
        eth.SetLengthType(CONTROL_ETHERTYPE);
        p->AddHeader(eth);
        s.traffic.controlSent++;
        MpiInterface::SendPacket(p, Simulator::Now() + m.delay, m.node, m.dev);
    }
#endif
}

void
FabricParallel::ReceiveDone(Ptr<Packet> payload)
{
    State& s = S();
    std::vector<uint8_t> bytes(payload->GetSize());
    payload->CopyData(bytes.data(), bytes.size());
    if (bytes.size() != s.doneAt.size() * 8)
    {
        throw std::runtime_error(Who() + "a completion message of " + std::to_string(bytes.size())
                                 + " bytes (expected " + std::to_string(s.doneAt.size() * 8) + ")");
    }
    bool news = false;
    for (std::size_t r = 0; r < s.doneAt.size(); ++r)
    {
        uint64_t v = 0;
        for (int b = 0; b < 8; ++b)
        {
            v = (v << 8) | bytes[r * 8 + b];
        }
        auto t = static_cast<int64_t>(v);
        if (t >= 0 && s.doneAt[r] < 0)
        {
            s.doneAt[r] = t;
            news = true;
        }
    }
    if (news)
    {
        SendDone();
        MaybeStop();
    }
}

void
FabricParallel::MaybeStop()
{
    State& s = S();
    if (s.stopScheduled || !s.localDone)
    {
        return;
    }
    int64_t last = 0;
    for (int64_t t : s.doneAt)
    {
        if (t < 0)
        {
            return;
        }
        last = std::max(last, t);
    }
    // Every rank computes the same time: the news of the last completion reaches every rank
    // within the gossip delay, so no rank has passed it yet.
    Time stop = TimeStep(last) + std::max(s.drain, s.gossip);
    s.stopScheduled = true;
    NS_LOG_INFO(Who() << "every rank complete; stopping at " << stop.As(Time::US));
    Simulator::Stop(std::max(Time(0), stop - Simulator::Now()));
}

Time
FabricParallel::GetGossipDelay()
{
    return S().gossip;
}

FabricParallel::Traffic
FabricParallel::GetTraffic()
{
    return S().traffic;
}

double
FabricParallel::GetSyncSeconds()
{
    return S().syncSeconds;
}

uint64_t
FabricParallel::GetSyncRounds()
{
    return S().syncRounds;
}

std::string
FabricParallel::RankReport(double runSeconds)
{
    const State& s = S();
    if (!s.enabled)
    {
        return "";
    }
    uint32_t nodes = 0;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        nodes += (*it)->GetSystemId() == s.rank;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::ostringstream o;
    o << "    {\"rank\": " << s.rank << ", \"nodes\": " << nodes
      << ", \"events_executed\": " << Simulator::GetEventCount()
      << ", \"frames_sent_to_other_ranks\": " << s.traffic.framesSent
      << ", \"bytes_sent_to_other_ranks\": " << s.traffic.bytesSent
      << ", \"mpi_bytes_sent\": " << s.traffic.mpiBytes
      << ", \"pfc_frames_sent_to_other_ranks\": " << s.traffic.pfcSent
      << ", \"frames_received_from_other_ranks\": " << s.traffic.framesReceived
      << ", \"completion_messages_sent\": " << s.traffic.controlSent
      << ", \"run_wall_s\": " << runSeconds << ", \"sync_wait_s\": " << s.syncSeconds
      << ", \"sync_calls\": " << s.syncRounds << ", \"frame_exchanges\": " << s.batches
      << ", \"exchange_wait_s\": " << s.exchangeSeconds
      << ", \"peak_memory_mib\": " << ru.ru_maxrss / 1024 << "}";
    std::vector<std::string> all = Gather(o.str());
    if (s.rank != 0)
    {
        return "";
    }
    StringValue engine;
    GlobalValue::GetValueByNameFailSafe("SimulatorImplementationType", engine);
    std::ostringstream doc;
    doc << "{\n  \"ranks\": " << s.size << ",\n  \"engine\": \"" << engine.Get()
        << "\",\n  \"completion_gossip_delay_s\": " << s.gossip.GetSeconds()
        << ",\n  \"per_rank\": [\n";
    for (std::size_t r = 0; r < all.size(); ++r)
    {
        doc << all[r] << (r + 1 < all.size() ? ",\n" : "\n");
    }
    doc << "  ]\n}\n";
    return doc.str();
}

int
FabricParallel::Fail(const std::string& what)
{
    std::cerr << "error: " << Who() << what << std::endl;
#ifdef NS3_MPI
    if (S().enabled)
    {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif
    return 2;
}

} // namespace ns3
