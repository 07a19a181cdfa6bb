/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FABRIC_PARALLEL_H
#define FABRIC_PARALLEL_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class Node;
class PfcNetDevice;

/**
 * \ingroup dcon-parallel
 * \brief One simulation over several MPI ranks, on ns-3's distributed engines.
 *
 * Every rank builds the whole fabric (ns-3's convention); a node belongs to the rank given by
 * its system id (RdmaFabricHelper's partition), and only that rank runs its events. A frame on a
 * link whose two ends are on different ranks leaves through MpiInterface::SendPacket as real
 * bytes (an Ethernet header, then the L3 packet) with its arrival time, computed at the sender
 * exactly as on a local link (serialization + propagation delay, FIFO on the wire); the far
 * device receives it through an MpiReceiver aggregated to it. ns-3's engines take their
 * lookahead from the Delay attribute of the channels cut by the partition.
 *
 * The engine is ns3::DistributedSimulatorImpl (granted time windows) by default, or
 * ns3::NullMessageSimulatorImpl when --SimulatorImplementationType names it. MPI code is
 * compiled only when ns-3 has its mpi module (NS3_MPI); without it the class reports one rank,
 * and asking for a parallel engine, or being started by mpirun with several ranks, is an error.
 *
 * Usage in a program: Init() before parsing the command line, Start() after it (chooses the
 * engine), ... run ..., Finish() before returning. Programs that never call Init() run
 * sequentially, as before.
 */
class FabricParallel
{
public:
    /// What crossed ranks from this rank (frames sent over cut links and control messages).
    struct Traffic
    {
        uint64_t framesSent{0};     //!< frames sent to other ranks
        uint64_t bytesSent{0};      //!< their bytes (Ethernet header + L3 packet)
        uint64_t mpiBytes{0};       //!< bytes handed to MPI for them (serialized form)
        uint64_t pfcSent{0};        //!< of the frames sent, PFC PAUSE/RESUME frames
        uint64_t framesReceived{0}; //!< frames received from other ranks
        uint64_t controlSent{0};    //!< completion messages sent
    };

    /// A link whose ends are on different ranks.
    struct CutLink
    {
        uint32_t rankA; //!< rank of one end
        uint32_t nodeA; //!< its node id
        uint32_t ifA;   //!< its device's interface index
        uint32_t rankB; //!< rank of the other end
        uint32_t nodeB; //!< its node id
        uint32_t ifB;   //!< its device's interface index
        Time delay;     //!< propagation delay
    };

    /**
     * \brief Initialize MPI (MPI builds; the arguments may be edited by MPI). Call once, first.
     * \param argc main's argc
     * \param argv main's argv
     */
    static void Init(int* argc, char*** argv);

    /**
     * \brief Choose the engine after the command line was parsed: the parallel engine when
     * the program runs on more than one rank or SimulatorImplementationType names a parallel
     * engine, the sequential one otherwise.
     * \throws std::runtime_error without the mpi module when a parallel run is asked for.
     */
    static void Start();

    /// Leave MPI (after the outputs are written). Safe to call when Init was not, and more
    /// than once; Init registers it to run at exit as well.
    static void Finish();

    /// \return true when the simulation runs on a parallel engine.
    static bool IsEnabled();

    /// \return true when this build has ns-3's mpi module.
    static bool HasMpi();

    /// \return this rank (0 when sequential).
    static uint32_t GetRank();

    /// \return the number of ranks (1 when sequential).
    static uint32_t GetSize();

    /// \return true on rank 0 (and in a sequential run): the rank that writes the outputs.
    static bool IsRoot();

    /// \return "rank R of N: " in a parallel run, "" otherwise (a prefix for messages).
    static std::string Who();

    /**
     * \brief Whether this rank runs \p node's events.
     * \param node the node
     * \return true in a sequential run, else node's system id == this rank
     */
    static bool IsLocal(Ptr<const Node> node);

    /**
     * \brief Collect one string from every rank at rank 0 (a collective call: every rank
     * must make it, in the same order).
     * \param mine this rank's string
     * \return on rank 0 the strings of ranks 0..N-1; on other ranks an empty vector. A
     * sequential run returns {mine}.
     */
    static std::vector<std::string> Gather(const std::string& mine);

    /**
     * \brief Sum a counter over the ranks, at every rank (collective).
     * \param mine this rank's value
     * \return the sum
     */
    static uint64_t SumAll(uint64_t mine);

    /**
     * \brief Largest value over the ranks, at every rank (collective).
     * \param mine this rank's value
     * \return the maximum
     */
    static double MaxAll(double mine);

    /**
     * \brief Prepare the cut links of a partitioned fabric: aggregate an MpiReceiver to each
     * local end and remember, per neighbour rank, where completion messages go.
     * \param links every cut link (the same list on every rank)
     * \param devices for each link, this rank's device (nullptr when neither end is local)
     */
    static void SetCutLinks(const std::vector<CutLink>& links,
                            const std::vector<Ptr<PfcNetDevice>>& devices);

    /**
     * \brief Send a frame to the far end of a cut link (called by PfcChannel).
     * \param packet the L3 packet
     * \param protocol its EtherType
     * \param src the sending device
     * \param dst the receiving device (on another rank)
     * \param arrival when its last bit reaches dst (absolute time)
     */
    static void SendFrame(const Ptr<Packet>& packet,
                          uint16_t protocol,
                          const PfcNetDevice* src,
                          const PfcNetDevice* dst,
                          Time arrival);

    /**
     * \brief This rank's flows are all complete: tell the other ranks, and stop every rank
     * at the same time once all are complete: the latest completion plus the larger of
     * \p drain and the time a message needs to reach every rank (GetGossipDelay).
     * \param drain the time the sequential run would keep running after the last flow
     */
    static void NotifyLocalDone(Time drain);

    /// \return the longest time a completion message takes to reach every rank.
    static Time GetGossipDelay();

    /// \return what crossed ranks from this rank so far.
    static Traffic GetTraffic();

    /**
     * \brief Wall seconds this rank spent blocked in the engines' synchronization (MPI_Allgather
     * of the granted-time window engine and the collectives of ExchangeFrames, MPI_Waitany of
     * the null-message engine), measured through MPI's profiling interface.
     * \return the seconds (0 when sequential)
     */
    static double GetSyncSeconds();

    /// \return the number of synchronization calls counted by GetSyncSeconds.
    static uint64_t GetSyncRounds();

    /**
     * \brief Per-rank statistics of a parallel run as JSON, at rank 0 (a collective call):
     * nodes, events executed, frames and bytes sent to other ranks, frames received, wall
     * seconds of Simulator::Run, seconds waiting in synchronization, peak memory.
     * \param runSeconds this rank's wall seconds in Simulator::Run
     * \return the JSON document on rank 0, "" elsewhere and in a sequential run
     */
    static std::string RankReport(double runSeconds);

    /**
     * \brief Report a fatal error of a program: print "error: " + Who() + \p what to stderr and,
     * in a parallel run, stop every rank (MPI_Abort with status 2), so that no rank waits
     * forever for one that failed.
     * \param what the message
     * \return the exit status 2 (in a sequential run, where it returns)
     */
    static int Fail(const std::string& what);

    /**
     * \brief Send this round's frames to the other ranks and schedule the frames they sent
     * (ns3::DistributedSimulatorImpl only; called at the start of each synchronization round,
     * before the engine computes its next event time). A collective call.
     */
    static void ExchangeFrames();

private:
    /// Hand a frame from another rank to its device (the event at its arrival).
    static void DeliverFrame(PfcNetDevice* dev, Ptr<Packet> packet, uint16_t protocol);
    /// Deliver a frame that arrived from another rank.
    static void ReceiveFromRank(PfcNetDevice* dev, Ptr<Packet> frame);
    /// Merge completion times heard from a neighbour and pass news on.
    static void ReceiveDone(Ptr<Packet> payload);
    /// Send this rank's knowledge of completion times to every neighbour rank.
    static void SendDone();
    /// Stop when every rank is known to be done.
    static void MaybeStop();
};

} // namespace ns3

#endif /* FABRIC_PARALLEL_H */
