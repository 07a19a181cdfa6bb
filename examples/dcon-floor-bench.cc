/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How fast can an ns-3 packet-level simulator go on this machine, before any model logic?
//
// This program runs only the ns-3 machinery every packet-level fabric simulator built on ns-3
// (dcon, and the HPCC simulator alike) pays per frame and hop, with no switch, NIC, PFC or
// congestion-control logic at all:
//   - one scheduled event per frame and hop that carries the Ptr<Packet> (as ns-3's
//     PointToPointChannel delivers frames), plus one more event every 4 hops (transmission
//     ends, timers);
//   - 24 header bytes copied out of the packet at every hop (to read the addresses);
//   - for half the frames (data; the other half are ACKs) an enqueue and dequeue through an
//     ns-3 QueueDisc (FifoQueueDisc, the simplest, over dcon's lean RdmaFifoQueue) with a
//     queue-disc item allocated per hop (an item that keeps its size, as dcon's
//     RdmaQueueDiscItem does, so that the many size queries inside QueueDisc cost nothing);
//   - every 5 hops (a packet's path) the packet is freed and a new one is created with its
//     40-byte RoCE header.
// It reports frame-hops per wall-second: an upper bound for any such simulator here. Compare
// with dcon-bench's "link frames per wall-second" (the same unit) and with the HPCC simulator's
// ~0.5 M/s on the 10 ms WebSearch benchmark (README, Speed).
//
// Usage: build/examples/dcon-floor-bench [--frameHops=5000000] [--inFlight=20000] [--nodes=1000]
// [--outdir=DIR: run.json and summary.json] (scripts/bench.sh --floor builds and runs it). The run
// stops at exactly --frameHops frame-hops (frames still in flight then are dropped).

#include "ns3/atomic-output-file.h"
#include "ns3/fabric-monitor.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/program-frame.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-item.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-fifo-queue.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The leanest queue-disc item: the packet and its size.
class FloorItem : public QueueDiscItem
{
public:
    /// \param p the packet
    explicit FloorItem(Ptr<Packet> p)
        : QueueDiscItem(p, Address(), 0x0800)
        , m_size(p->GetSize())
    {
    }

    uint32_t
    GetSize() const override
    {
        return m_size;
    }

    void
    AddHeader() override
    {
    }

    bool
    Mark() override
    {
        return false;
    }

private:
    uint32_t m_size; //!< packet bytes
};

/// One hop: receives a frame, reads its header bytes, queues it (data only), sends it on.
class Hop
{
public:
    Hop(uint32_t id, Ptr<QueueDisc> qd)
        : m_id(id)
        , m_qd(qd)
    {
    }

    /// The shared state of the run.
    struct Run
    {
        std::vector<Hop*> hops; //!< every hop
        uint64_t frameHops{0};  //!< frames received so far
        uint64_t limit{0};      //!< stop after this many
    };

    static Run s_run; //!< the run

    /// A frame arrives. \param p the packet \param isData whether it goes through the queue disc
    void
    Receive(Ptr<Packet> p, bool isData)
    {
        if (s_run.frameHops >= s_run.limit)
        {
            return; // (not reached: the run stops at the limit)
        }
        uint8_t b[24];
        p->CopyData(b, sizeof(b));
        if (++s_run.frameHops == s_run.limit)
        {
            Simulator::Stop(); // exactly the frame-hops asked for; frames in flight are dropped
            return;
        }
        if (++m_received % 5 == 0)
        {
            p = NewPacket(isData);
        }
        if (isData)
        {
            m_qd->Enqueue(Create<FloorItem>(p));
            p = m_qd->Dequeue()->GetPacket();
        }
        // A fixed pseudo-random next hop and a 1.000-1.012 us hop time: frames spread over all
        // nodes and arrive at varied times, so the event queue holds every frame in flight in
        // mixed order, as in a fabric run.
        Hop* next = s_run.hops[(m_id * 7 + 3) % s_run.hops.size()];
        Simulator::ScheduleWithContext(
            next->m_id, NanoSeconds(1000 + m_id % 13), &Hop::Receive, next, p, isData);
        if (m_received % 4 == 0)
        {
            Simulator::Schedule(NanoSeconds(200), &Hop::TxDone, this);
        }
    }

    /// A packet with a RoCE header. \param isData data (1000-byte payload) or ACK
    static Ptr<Packet>
    NewPacket(bool isData)
    {
        Ptr<Packet> p = Create<Packet>(isData ? 1004 : 8);
        RoceHeader h;
        h.SetPayloadBytes(p->GetSize());
        p->AddHeader(h);
        return p;
    }

private:
    /// The transmission-complete event: nothing to do.
    void
    TxDone()
    {
    }

    uint32_t m_id;          //!< node id (event context)
    Ptr<QueueDisc> m_qd;    //!< the egress queue disc
    uint64_t m_received{0}; //!< frames received
};

Hop::Run Hop::s_run;

} // namespace

int
main(int argc, char* argv[])
{
    RdmaFabricHelper::UseFastScheduler();
    ProgramFrame frame("dcon-floor-bench", __FILE__);
    try
    {
        uint64_t frameHops = 5000000;
        uint32_t inFlight = 20000;
        uint32_t nodes = 1000;
        std::string outdir;
        frame.AddUnsigned("frameHops",
                          "Frame-hops to simulate, 1..10^12",
                          frameHops,
                          uint64_t(1),
                          uint64_t(1000000000000));
        frame.AddUnsigned("inFlight", "Frames in flight at once, 1..10^6", inFlight, 1u, 1000000u);
        frame.AddUnsigned(
            "nodes", "Hops (nodes) the frames travel among, 1..10^6", nodes, 1u, 1000000u);
        frame.AddString("outdir", "If set, write run.json and summary.json here", outdir);
        frame.Parse(argc, argv);
        frame.CheckUse({TypeId::LookupByName("ns3::FifoQueueDisc"),
                        TypeId::LookupByName("ns3::RdmaFifoQueue")},
                       "ns3::FifoQueueDisc over ns3::RdmaFifoQueue, no fabric");
        if (!outdir.empty())
        {
            frame.PrepareOutputFolder(outdir, {"run.json", "summary.json"});
        }
        Hop::s_run.limit = frameHops;
        ObjectFactory qdFactory("ns3::FifoQueueDisc");
        std::vector<Hop> hops;
        hops.reserve(nodes);
        for (uint32_t i = 0; i < nodes; ++i)
        {
            Ptr<QueueDisc> qd = qdFactory.Create<QueueDisc>();
            qd->AddInternalQueue(CreateObject<RdmaFifoQueue>());
            qd->Initialize();
            hops.emplace_back(i, qd);
        }
        for (auto& h : hops)
        {
            Hop::s_run.hops.push_back(&h);
        }
        for (uint32_t k = 0; k < inFlight; ++k)
        {
            Hop* h = Hop::s_run.hops[k % nodes];
            Simulator::Schedule(NanoSeconds(k), &Hop::Receive, h, Hop::NewPacket(k % 2), k % 2);
        }
        frame.ReadyToRun(std::to_string(frameHops) + " frame-hops");
        auto t0 = std::chrono::steady_clock::now();
        Simulator::Run();
        double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        uint64_t done = Hop::s_run.frameHops;
        // The rate over no measurable wall time is not measured (not 0).
        std::printf("frame-hops: %lu\nwall time: %.2f s\n", static_cast<unsigned long>(done), wall);
        if (wall > 0)
        {
            std::printf("frame-hops per wall-second: %.3f M\n", done / wall / 1e6);
        }
        else
        {
            std::printf("frame-hops per wall-second: not measured (the run took no measurable "
                        "wall time)\n");
        }
        Simulator::Destroy();
        if (!outdir.empty())
        {
            std::ostringstream json;
            json << "{\n  \"frame_hops\": " << done << ",\n  \"in_flight\": " << inFlight
                 << ",\n  \"nodes\": " << nodes << ",\n  \"wall_time_s\": " << wall
                 << ",\n  \"frame_hops_per_wall_second\": "
                 << (wall > 0 ? Reading::Of(done / wall).ToJson(6) : std::string("null"))
                 << "\n}\n";
            frame.WriteRunJson(outdir, "");
            WriteTextFile(outdir + "/summary.json", json.str());
            std::printf("results in %s\n", outdir.c_str());
        }
    }
    catch (const std::exception& e)
    {
        return ProgramFrame::Fail(e);
    }
    return 0;
}
