/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RANK_TRANSPORT_H
#define RANK_TRANSPORT_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class Node;
class PfcNetDevice;

/**
 * \ingroup dcon-parallel
 * \brief Frames between MPI ranks: the part of a parallel run that the simulated links use.
 *
 * In a parallel run every rank builds the whole fabric (ns-3's convention); a node belongs to
 * the rank given by its system id (RdmaFabricHelper's partition), and only that rank runs its
 * events. A link whose two ends are on different ranks is a PfcRemoteChannel: it computes a
 * frame's arrival exactly as on a local link (serialization + propagation delay, FIFO on the
 * wire) and hands the frame to SendFrame, which sends it as real bytes (an Ethernet header,
 * then the L3 packet) to the far end's rank; there the frame is delivered to its device at its
 * arrival. Under ns3::DistributedSimulatorImpl (granted time windows) the frames of one
 * synchronization round travel together (ExchangeFrames, at the start of the next round, started
 * by the hooks on MPI calls in mpi-hooks.cc); under ns3::NullMessageSimulatorImpl each frame is
 * one MpiInterface::SendPacket, received through an MpiReceiver aggregated to the device.
 * ns-3's engines take their lookahead from the Delay attribute of the cut channels.
 *
 * The transport also carries small control messages from a rank to its neighbour ranks
 * (SendToNeighbours; ParallelRun's completion messages) and counts what crossed ranks and the
 * time spent waiting in the engines' synchronization.
 *
 * The program's side of a parallel run (MPI's life cycle, choosing the engine, collectives, the
 * per-rank report) is ParallelRun (helper/parallel-run.h), which enables the transport. MPI code
 * is compiled only when ns-3 has its mpi module (NS3_MPI); without it the transport is never
 * enabled: every node is local.
 */
class RankTransport
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
        uint64_t controlSent{0};    //!< control messages sent
    };

    /// Time spent in the engines' synchronization (measured by the hooks on MPI calls).
    struct Sync
    {
        double waitSeconds{0};     //!< wall seconds blocked in synchronization
        uint64_t calls{0};         //!< synchronization calls
        uint64_t exchanges{0};     //!< frame exchanges made (granted time windows)
        double exchangeSeconds{0}; //!< of waitSeconds, those in the exchanges' collectives
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
     * \brief Carry frames between ranks from now on (ParallelRun::Start, once MPI and the
     * parallel engine run).
     * \param rank this rank
     * \param size the number of ranks
     * \param batch true under granted time windows: the frames of a round go in one exchange
     */
    static void Enable(uint32_t rank, uint32_t size, bool batch);

    /// Stop carrying frames (ParallelRun::Finish): every node is local again (GetRank and
    /// GetSize still tell this rank's place in the run that ended).
    static void Disable();

    /// \return true when frames may cross ranks (a parallel run).
    static bool IsEnabled();

    /// \return this rank (0 when no parallel run was enabled).
    static uint32_t GetRank();

    /// \return the number of ranks (1 when no parallel run was enabled).
    static uint32_t GetSize();

    /**
     * \brief Whether this rank runs \p node's events.
     * \param node the node
     * \return true in a sequential run, else node's system id == this rank
     */
    static bool IsLocal(Ptr<const Node> node);

    /**
     * \brief Prepare the cut links of a partitioned fabric: remember this rank's end of each
     * (where frames from other ranks are delivered) and, per neighbour rank, where control
     * messages go.
     * \param links every cut link (the same list on every rank)
     * \param devices for each link, this rank's device (nullptr when neither end is local)
     */
    static void SetCutLinks(const std::vector<CutLink>& links,
                            const std::vector<Ptr<PfcNetDevice>>& devices);

    /**
     * \brief Send a frame to the far end of a cut link (called by PfcRemoteChannel).
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
     * \brief Send a control message to every neighbour rank (a rank joined to this one by a cut
     * link, over the cut link of the smallest delay), to arrive that delay from now.
     * \param payload the message
     */
    static void SendToNeighbours(const std::vector<uint8_t>& payload);

    /**
     * \brief Where control messages from other ranks go.
     * \param receiver called with each message's payload
     */
    static void SetControlReceiver(Callback<void, Ptr<Packet>> receiver);

    /**
     * \return the longest time a control message passed on from neighbour to neighbour takes
     * to reach every rank (the longest shortest path of cut-link delays between two ranks).
     */
    static Time GetRelayDelay();

    /// \return what crossed ranks from this rank so far.
    static Traffic GetTraffic();

    /// \return the time spent in synchronization so far.
    static Sync GetSync();

    // The hooks on MPI calls (mpi-hooks.cc) report here.

    /**
     * \brief The granted-time-window engine polls for messages at the start of a round: the
     * round's frames are exchanged, once a round.
     */
    static void EnginePolls();

    /**
     * \brief The null-message engine received a message from rank \p source (the hooks on
     * MPI_Testany and MPI_Waitany): the event it inserts next, if any (a frame, a control
     * message; a null message inserts none), is that message's (TakeRemoteInsert).
     * \param source the sending rank
     */
    static void MessageReceived(int source);

    /// The engine polled and found no message.
    static void NoMessage();

    /**
     * \brief Whether the event being inserted is the delivery of a message from another rank
     * (RemoteFirstScheduler), with the sending rank and the message's place in what that rank
     * sent (MPI keeps a sender's messages in order). Answers once per message.
     * \param[out] source the sending rank
     * \param[out] sequence the message's number among those received from \p source
     * \return true for a message's event
     */
    static bool TakeRemoteInsert(uint32_t* source, uint64_t* sequence);

    /// The engine asked for its next event: no message's event is to be inserted any more.
    static void EngineSteps();

    /**
     * \brief The engine waited in a synchronization call.
     * \param seconds wall seconds it was blocked
     * \param roundEnds true when the call ends a granted-time-window round
     */
    static void SyncWaited(double seconds, bool roundEnds);

private:
    /// Send this round's frames to the other ranks and schedule the frames they sent (a
    /// collective call).
    static void ExchangeFrames();
    /// Hand a frame from another rank to its device (the event at its arrival).
    static void DeliverFrame(PfcNetDevice* dev, Ptr<Packet> packet, uint16_t protocol);
    /// Under the null-message engine, before a message to another rank: keep an event pending
    /// now, so that the guarantee the engine sends with it (the earliest of its next event and
    /// its safe time, plus the lookahead) is now + lookahead, below the arrival of any later
    /// message of this rank (an event scheduled after the send, within the lookahead, could
    /// otherwise send a frame the other rank already ran past).
    static void HoldGuarantee();
    /// Deliver a frame or control message that arrived from another rank (MpiReceiver).
    static void ReceiveFromRank(PfcNetDevice* dev, Ptr<Packet> frame);
};

} // namespace ns3

#endif /* RANK_TRANSPORT_H */
