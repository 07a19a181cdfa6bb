/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parallel-run.h"

#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/rank-transport.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/type-id.h"

#ifdef NS3_MPI
// Open MPI's and MPICH's C++ bindings (deprecated, and noisy under -Wextra) are not used.
#define OMPI_SKIP_MPICXX  1
#define MPICH_SKIP_MPICXX 1
#include "ns3/mpi-interface.h"

#include <mpi.h>
#endif

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParallelRun");

namespace
{

/// Process-wide state (one simulation per process, as ns-3's Simulator).
struct State
{
    bool initCalled{false};      //!< Init was called
    bool weInitMpi{false};       //!< Init called MPI_Init (and Finish finalizes)
    uint32_t worldSize{1};       //!< ranks started by mpirun (before Start)
    std::vector<int64_t> doneAt; //!< per rank: time its flows completed (ps), -1 unknown
    bool localDone{false};       //!< this rank's flows are complete
    bool stopScheduled{false};   //!< the common stop time is known
    Time drain;                  //!< NotifyLocalDone's drain
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

} // namespace

void
ParallelRun::Init(int* argc, char*** argv)
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
                ParallelRun::Finish();
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
ParallelRun::Start()
{
    State& s = S();
    const std::string engine = ChosenEngine();
    const bool asked = IsParallelEngine(engine);
#ifdef NS3_MPI
    if (!s.initCalled)
    {
        throw std::logic_error("ParallelRun::Start: call ParallelRun::Init first");
    }
    if (s.worldSize <= 1 && !asked)
    {
        return; // one rank, the sequential engine: exactly the standalone program
    }
    if (engine == "ns3::NullMessageSimulatorImpl")
    {
        // The null-message engine inserts a message from another rank when MPI hands it over:
        // its queue then orders same-time events by when messages arrived. RemoteFirstScheduler
        // orders them the same way on every run (the rank's own events keep the scheduler the
        // program chose, as its inner queue).
        StringValue inner;
        GlobalValue::GetValueByName("SchedulerType", inner);
        Config::SetDefault("ns3::RemoteFirstScheduler::Inner",
                           TypeIdValue(TypeId::LookupByName(inner.Get())));
        GlobalValue::Bind("SchedulerType", StringValue("ns3::RemoteFirstScheduler"));
    }
    MpiInterface::Enable(MPI_COMM_WORLD);
    const std::string running = Simulator::GetImplementation()->GetInstanceTypeId().GetName();
    if (!IsParallelEngine(running))
    {
        throw std::logic_error("ParallelRun::Start: the simulator (" + running
                               + ") was created before the parallel engine was chosen");
    }
    const uint32_t size = MpiInterface::GetSize();
    // Granted time windows: frames between ranks travel once per round, all together. The
    // null-message engine has no rounds: each frame is its own message (MpiInterface).
    RankTransport::Enable(
        MpiInterface::GetSystemId(), size, running == "ns3::DistributedSimulatorImpl");
    RankTransport::SetControlReceiver(MakeCallback(&ParallelRun::ReceiveDone));
    s.doneAt.assign(size, -1);
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
ParallelRun::Finish()
{
    State& s = S();
#ifdef NS3_MPI
    if (RankTransport::IsEnabled())
    {
        MpiInterface::Disable();
        RankTransport::Disable();
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
ParallelRun::IsEnabled()
{
    return RankTransport::IsEnabled();
}

bool
ParallelRun::HasMpi()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

uint32_t
ParallelRun::GetRank()
{
    return RankTransport::GetRank();
}

uint32_t
ParallelRun::GetSize()
{
    return RankTransport::GetSize();
}

bool
ParallelRun::IsRoot()
{
    return RankTransport::GetRank() == 0;
}

std::ostream&
ParallelRun::Log()
{
    static std::ostream none(nullptr); // a stream without a buffer discards its output
    return IsRoot() ? std::cout : none;
}

std::string
ParallelRun::Who()
{
    if (!RankTransport::IsEnabled())
    {
        return "";
    }
    return "rank " + std::to_string(GetRank()) + " of " + std::to_string(GetSize()) + ": ";
}

std::vector<std::string>
ParallelRun::Gather(const std::string& mine)
{
    if (!IsEnabled())
    {
        return {mine};
    }
#ifdef NS3_MPI
    const uint32_t rank = GetRank();
    const uint32_t size = GetSize();
    MPI_Comm comm = MpiInterface::GetCommunicator();
    int len = static_cast<int>(mine.size());
    if (mine.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    {
        throw std::runtime_error(Who() + "Gather: more than 2 GiB to send");
    }
    std::vector<int> lens(size);
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
    std::vector<int> offsets(size, 0);
    std::string all;
    if (rank == 0)
    {
        long long total = 0;
        for (uint32_t r = 0; r < size; ++r)
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
    if (rank == 0)
    {
        for (uint32_t r = 0; r < size; ++r)
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
ParallelRun::SumAll(uint64_t mine)
{
#ifdef NS3_MPI
    if (IsEnabled())
    {
        uint64_t sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
        return sum;
    }
#endif
    return mine;
}

double
ParallelRun::MaxAll(double mine)
{
#ifdef NS3_MPI
    if (IsEnabled())
    {
        double most = 0;
        MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, MpiInterface::GetCommunicator());
        return most;
    }
#endif
    return mine;
}

void
ParallelRun::NotifyLocalDone(Time drain)
{
    State& s = S();
    if (!IsEnabled())
    {
        throw std::logic_error("NotifyLocalDone: not a parallel run");
    }
    if (s.localDone)
    {
        return;
    }
    s.localDone = true;
    s.drain = drain;
    s.doneAt[GetRank()] = Simulator::Now().GetTimeStep();
    NS_LOG_INFO(Who() << "local flows complete at " << Simulator::Now().As(Time::US));
    SendDone();
    MaybeStop();
}

void
ParallelRun::SendDone()
{
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
    RankTransport::SendToNeighbours(bytes);
}

void
ParallelRun::ReceiveDone(Ptr<Packet> payload)
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
ParallelRun::MaybeStop()
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
    Time stop = TimeStep(last) + std::max(s.drain, GetGossipDelay());
    s.stopScheduled = true;
    NS_LOG_INFO(Who() << "every rank complete; stopping at " << stop.As(Time::US));
    Simulator::Stop(std::max(Time(0), stop - Simulator::Now()));
}

Time
ParallelRun::GetGossipDelay()
{
    return RankTransport::GetRelayDelay();
}

std::string
ParallelRun::RankReport(double runSeconds)
{
    if (!IsEnabled())
    {
        return "";
    }
    const uint32_t rank = GetRank();
    uint32_t nodes = 0;
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        nodes += (*it)->GetSystemId() == rank;
    }
    const RankTransport::Traffic traffic = RankTransport::GetTraffic();
    const RankTransport::Sync sync = RankTransport::GetSync();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::ostringstream o;
    o << "    {\"rank\": " << rank << ", \"nodes\": " << nodes
      << ", \"events_executed\": " << Simulator::GetEventCount()
      << ", \"frames_sent_to_other_ranks\": " << traffic.framesSent
      << ", \"bytes_sent_to_other_ranks\": " << traffic.bytesSent
      << ", \"mpi_bytes_sent\": " << traffic.mpiBytes
      << ", \"pfc_frames_sent_to_other_ranks\": " << traffic.pfcSent
      << ", \"frames_received_from_other_ranks\": " << traffic.framesReceived
      << ", \"completion_messages_sent\": " << traffic.controlSent
      << ", \"run_wall_s\": " << runSeconds << ", \"sync_wait_s\": " << sync.waitSeconds
      << ", \"sync_calls\": " << sync.calls << ", \"frame_exchanges\": " << sync.exchanges
      << ", \"exchange_wait_s\": " << sync.exchangeSeconds
      << ", \"peak_memory_mib\": " << ru.ru_maxrss / 1024 << "}";
    std::vector<std::string> all = Gather(o.str());
    if (rank != 0)
    {
        return "";
    }
    StringValue engine;
    GlobalValue::GetValueByNameFailSafe("SimulatorImplementationType", engine);
    std::ostringstream doc;
    doc << "{\n  \"ranks\": " << GetSize() << ",\n  \"engine\": \"" << engine.Get()
        << "\",\n  \"completion_gossip_delay_s\": " << GetGossipDelay().GetSeconds()
        << ",\n  \"per_rank\": [\n";
    for (std::size_t r = 0; r < all.size(); ++r)
    {
        doc << all[r] << (r + 1 < all.size() ? ",\n" : "\n");
    }
    doc << "  ]\n}\n";
    return doc.str();
}

int
ParallelRun::Fail(const std::string& what)
{
    std::cerr << "error: " << Who() << what << std::endl;
#ifdef NS3_MPI
    if (IsEnabled())
    {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
#endif
    return 2;
}

} // namespace ns3
