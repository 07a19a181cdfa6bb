/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// dcon-mpi-check: frames keep their bytes and their timing when they cross MPI ranks.
//
// Two nodes joined by one link (100 Gb/s, --delay, default 1 us). Node 0 sends a train of
// frames of many sizes and EtherTypes (patterned payload bytes) to node 1, node 1 sends data and
// PFC PAUSE/RESUME frames back; each side logs every frame it receives: arrival time in
// picoseconds, EtherType, size and an FNV-1a hash of the bytes. Run once sequentially and once
// with the two nodes on two ranks (mpirun -np 2): the logs (--out, written by rank 0) must be
// identical, byte for byte. On two ranks the link is cut by the partition, so every frame travels
// through MPI (a PfcRemoteChannel, as RdmaFabricHelper makes for cut links; a PfcChannel on one
// rank); the program also reports the frames each rank sent to the other.
//
//   build-mpi/bin/dcon-mpi-check --out=seq.txt
//   mpirun -np 2 build-mpi/bin/dcon-mpi-check --out=par.txt && cmp seq.txt par.txt
//
// It also times the pieces of a parallel run: --rounds=N, N synchronization rounds with one
// event per rank and round and no frame (the round cost of scripts/parallel_model.py), and
// --frames=N --log=false, N frames crossing ranks (against the same frames on one rank).
// --report=FILE writes the per-rank statistics (ParallelRun::RankReport) there.

#include "ns3/atomic-output-file.h"
#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/parallel-run.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-remote-channel.h"
#include "ns3/rank-transport.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// What one node received, one line per frame.
std::ostringstream g_log[2];

/// FNV-1a over a packet's bytes.
uint64_t
Hash(Ptr<const Packet> p)
{
    std::vector<uint8_t> b(p->GetSize());
    p->CopyData(b.data(), b.size());
    uint64_t h = 1469598103934665603ULL;
    for (uint8_t c : b)
    {
        h = (h ^ c) * 1099511628211ULL;
    }
    return h;
}

/// Log every frame (--log).
bool g_logFrames = true;
/// Frames received per node.
uint64_t g_received[2] = {0, 0};

/// One event of --rounds: the next one a period later.
void
Tick(uint32_t left, Time period)
{
    if (left > 1)
    {
        Simulator::Schedule(period, &Tick, left - 1, period);
    }
}

bool
Received(uint32_t node, Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&)
{
    g_received[node]++;
    if (!g_logFrames)
    {
        return true;
    }
    g_log[node] << "node " << node << " rx_ps " << Simulator::Now().GetPicoSeconds() << " type 0x"
                << std::hex << protocol << std::dec << " bytes " << p->GetSize() << " hash "
                << std::hex << Hash(p) << std::dec << "\n";
    return true;
}

void
PauseState(uint32_t node, uint8_t priority, bool paused)
{
    g_log[node] << "node " << node << " at_ps " << Simulator::Now().GetPicoSeconds() << " priority "
                << +priority << (paused ? " paused" : " resumed") << "\n";
}

/// A frame with patterned bytes.
Ptr<Packet>
Frame(uint32_t size, uint32_t seed)
{
    std::vector<uint8_t> b(size);
    for (uint32_t i = 0; i < size; ++i)
    {
        b[i] = static_cast<uint8_t>((i * 131u + seed * 17u) ^ (i >> 3));
    }
    return Create<Packet>(b.data(), b.size());
}

} // namespace

int
main(int argc, char* argv[])
{
    ParallelRun::Init(&argc, &argv);
    Time::SetResolution(Time::PS);
    std::string out = "mpi-check.txt";
    Time delay = MicroSeconds(1);
    uint32_t frames = 200;
    uint32_t rounds = 0;
    bool log = true;
    std::string reportFile;
    CommandLine cmd(__FILE__);
    cmd.AddValue("out", "Where rank 0 writes the log of received frames", out);
    cmd.AddValue("delay", "Propagation delay of the link", delay);
    cmd.AddValue("frames", "Data frames node 0 sends", frames);
    cmd.AddValue("rounds",
                 "Instead: no frame, one event per node every --delay, this many times (the cost "
                 "of a synchronization round)",
                 rounds);
    cmd.AddValue("log", "Log every received frame (false: count them only)", log);
    cmd.AddValue("report", "Write the per-rank statistics (JSON) here", reportFile);
    cmd.Parse(argc, argv);
    try
    {
        ParallelRun::Start();
        const uint32_t ranks = ParallelRun::GetSize();
        if (ranks > 2)
        {
            throw std::invalid_argument("run on 1 or 2 ranks (got " + std::to_string(ranks) + ")");
        }
        Ptr<Node> n[2] = {CreateObject<Node>(0), CreateObject<Node>(ranks - 1)};
        // The link between the ranks carries frames to the other rank (as RdmaFabricHelper
        // makes it for the links its partition cuts).
        Ptr<PfcChannel> ch = ranks == 2 ? Ptr<PfcChannel>(CreateObject<PfcRemoteChannel>())
                                        : CreateObject<PfcChannel>();
        ch->SetAttribute("Delay", TimeValue(delay));
        Ptr<PfcNetDevice> d[2];
        for (uint32_t i = 0; i < 2; ++i)
        {
            d[i] = CreateObject<PfcNetDevice>();
            d[i]->SetAttribute("DataRate", DataRateValue(DataRate("100Gb/s")));
            d[i]->SetAddress(Mac48Address::Allocate());
            n[i]->AddDevice(d[i]);
            d[i]->Attach(ch);
            d[i]->SetReceiveCallback(MakeBoundCallback(&Received, i));
            d[i]->TraceConnectWithoutContext("PauseState", MakeBoundCallback(&PauseState, i));
        }
        if (ranks == 2)
        {
            if (!delay.IsStrictlyPositive())
            {
                throw std::invalid_argument("the link between the ranks needs a positive delay");
            }
            RankTransport::SetCutLinks({{0,
                                         n[0]->GetId(),
                                         d[0]->GetIfIndex(),
                                         1,
                                         n[1]->GetId(),
                                         d[1]->GetIfIndex(),
                                         delay}},
                                       {ParallelRun::GetRank() == 0 ? d[0] : d[1]});
        }
        g_logFrames = log;
        if (rounds > 0)
        {
            frames = 0;
            for (uint32_t i = 0; i < 2; ++i)
            {
                if (RankTransport::IsLocal(n[i]))
                {
                    Simulator::ScheduleWithContext(n[i]->GetId(), delay, &Tick, rounds, delay);
                }
            }
        }
        // Node 0: a back-to-back train of frames of every size class, several EtherTypes.
        static const uint16_t types[] = {0x0800, 0x86dd, 0x88b5, 0x8808 + 1};
        for (uint32_t k = 0; k < frames; ++k)
        {
            uint32_t size = 46 + (k * 97) % 1455; // 46..1500 bytes of payload
            Simulator::ScheduleWithContext(
                n[0]->GetId(),
                NanoSeconds(10 * k),
                [=]()
                {
                    if (RankTransport::IsLocal(n[0]))
                    {
                        d[0]->Send(Frame(size, k), d[1]->GetAddress(), types[k % 4]);
                    }
                });
        }
        // Node 1: pauses node 0's priority 0 and 3, resumes one, sends a few frames back.
        auto atNode1 = [&](Time t, std::function<void()> f)
        {
            Simulator::ScheduleWithContext(n[1]->GetId(),
                                           t,
                                           [=]()
                                           {
                                               if (RankTransport::IsLocal(n[1]))
                                               {
                                                   f();
                                               }
                                           });
        };
        if (rounds == 0)
        {
            atNode1(NanoSeconds(500),
                    [=]()
                    {
                        d[1]->SendPfc(0, 65535);
                    });
            atNode1(NanoSeconds(700),
                    [=]()
                    {
                        d[1]->SendPfc(3, 100);
                    });
            atNode1(NanoSeconds(1500),
                    [=]()
                    {
                        d[1]->SendPfc(0, 0);
                    });
        }
        for (uint32_t k = 0; rounds == 0 && k < 20; ++k)
        {
            atNode1(NanoSeconds(2000 + 37 * k),
                    [=]()
                    {
                        d[1]->Send(Frame(64 + 70 * k, 1000 + k), d[0]->GetAddress(), 0x0800);
                    });
        }
        // Long enough for every frame (at least 8 ns each at 100 Gb/s) or round.
        Simulator::Stop(MilliSeconds(1) + NanoSeconds(200) * frames + delay * rounds);
        auto t0 = std::chrono::steady_clock::now();
        Simulator::Run();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // Each rank logged what its node received; rank 0 writes both logs.
        std::string mine = g_log[0].str() + g_log[1].str();
        std::string report = ParallelRun::RankReport(wall);
        const uint64_t received = ParallelRun::SumAll(g_received[0] + g_received[1]);
        const uint64_t events = ParallelRun::SumAll(Simulator::GetEventCount());
        wall = ParallelRun::MaxAll(wall);
        std::vector<std::string> parts = ParallelRun::Gather(mine);
        auto traffic = RankTransport::GetTraffic();
        std::ostringstream who;
        who << ParallelRun::Who() << "sent " << traffic.framesSent << " frames ("
            << traffic.bytesSent << " bytes) to the other rank, received " << traffic.framesReceived
            << "\n";
        std::vector<std::string> lines = ParallelRun::Gather(who.str());
        if (ParallelRun::IsRoot())
        {
            std::string all;
            for (const auto& p : parts)
            {
                all += p;
            }
            WriteTextFile(out, all); // throws naming the file and the reason
            for (const auto& l : lines)
            {
                std::cout << (ranks > 1 ? l : "sequential: every frame on one rank\n");
            }
            std::cout << "frames received " << received << ", events " << events << ", run wall "
                      << wall << " s\nlog of received frames in " << out << "\n";
            if (!reportFile.empty())
            {
                WriteTextFile(reportFile, report);
            }
        }
    }
    catch (const std::exception& e)
    {
        return ParallelRun::Fail(e.what());
    }
    Simulator::Destroy();
    ParallelRun::Finish();
    return 0;
}
