/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PARALLEL_RUN_H
#define PARALLEL_RUN_H

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief A program's side of one simulation over several MPI ranks, on ns-3's distributed
 * engines: MPI's life cycle, the engine, collectives, the stop when every rank's flows are
 * done, the per-rank report, and errors that stop every rank.
 *
 * Every rank builds the whole fabric (ns-3's convention); a node belongs to the rank given by
 * its system id (RdmaFabricHelper's partition), and only that rank runs its events. Frames on
 * links between ranks travel through RankTransport (model/parallel/), which Start enables; the
 * monitors bring every rank's records to rank 0 with Gather, and rank 0 writes the outputs.
 *
 * The engine is ns3::DistributedSimulatorImpl (granted time windows) by default, or
 * ns3::NullMessageSimulatorImpl when --SimulatorImplementationType names it. MPI code is
 * compiled only when ns-3 has its mpi module (NS3_MPI); without it the run has one rank, and
 * asking for a parallel engine, or being started by mpirun with several ranks, is an error.
 *
 * Usage in a program: Init() before parsing the command line, Start() after it (chooses the
 * engine), ... run ..., Finish() before returning; Fail(what) reports the error that ends it.
 * Programs that never call Init() run sequentially.
 */
class ParallelRun
{
public:
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

    /// \return std::cout on rank 0 (and in a sequential run), a stream that discards what it
    /// is given on the other ranks: for progress that only rank 0 prints.
    static std::ostream& Log();

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
     * \brief This rank's flows are all complete: tell the other ranks, and stop every rank
     * at the same time once all are complete: the latest completion plus the larger of
     * \p drain and the time a message needs to reach every rank (GetGossipDelay).
     * \param drain the time the sequential run would keep running after the last flow
     */
    static void NotifyLocalDone(Time drain);

    /// \return the longest time a completion message takes to reach every rank.
    static Time GetGossipDelay();

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

private:
    /// Merge completion times heard from a neighbour rank and pass news on.
    static void ReceiveDone(Ptr<Packet> payload);
    /// Send this rank's knowledge of completion times to every neighbour rank.
    static void SendDone();
    /// Stop when every rank is known to be done.
    static void MaybeStop();
};

} // namespace ns3

#endif /* PARALLEL_RUN_H */
