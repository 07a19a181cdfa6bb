/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Hooks on the MPI calls of ns-3's parallel engines, through MPI's profiling interface: the
// only place where dcon stands between ns-3 and MPI. They do two things for RankTransport:
//
//  * under ns3::DistributedSimulatorImpl (granted time windows), exchange the frames of a
//    synchronization round (RankTransport::EnginePolls) when the engine polls for messages at
//    the start of the next round, before it computes its next event time: frames between ranks
//    then travel in one collective per round instead of one MPI message each;
//  * under both engines, measure the wall time a rank spends blocked in synchronization
//    (RankTransport::SyncWaited; parallel.json's sync_wait_s and sync_calls).
//
// What they rely on (checked by test/mpi-tests.sh, case hooks, on both engines):
//
//  1. The MPI standard's profiling interface: every MPI_X function is also callable as PMPI_X,
//     and a program may define MPI_X itself; calls to MPI_X then reach that definition, which
//     hands over to PMPI_X. Open MPI and MPICH provide it.
//  2. Dynamic symbol lookup: ns-3's mpi library calls MPI_Allgather, MPI_Testany and
//     MPI_Waitany through the process's global symbol scope, where libdcon (which the
//     programs link directly, before the MPI library that ns-3's mpi module brings in) comes
//     before libmpi, so these definitions take the place of the library's.
//  3. What ns-3's engines call, in ns-3.37 to 3.48:
//     - DistributedSimulatorImpl ends each round with one MPI_Allgather of the ranks' LBTS
//       messages (the round's blocking synchronization), and starts each round with
//       GrantedTimeWindowMpiInterface::ReceiveMessages, which polls with MPI_Testany before
//       the engine computes its next event time (a frame scheduled then counts for the round);
//     - NullMessageSimulatorImpl blocks in MPI_Waitany (NullMessageMpiInterface::
//       ReceiveMessages(blocking)) when it has no safe event; its MPI_Testany polls are not
//       rounds, and the transport does not batch under it (RankTransport::Enable).
//     Another version of ns-3 that calls other functions would leave the granted-time-window
//     engine's frames unsent (the frames case of test/mpi-tests.sh then fails) or the wait
//     times at zero (the hooks case fails).
//
// dcon's own collectives (ParallelRun::Gather, SumAll, MaxAll; the frame exchange's
// MPI_Alltoall and MPI_Alltoallv) use other MPI functions, so they are not counted as the
// engines' synchronization, except the frame exchange, which RankTransport counts itself.
// Compiled only with ns-3's mpi module (NS3_MPI); without it there is nothing to hook.

#ifdef NS3_MPI

#include "ns3/rank-transport.h"

// Open MPI's and MPICH's C++ bindings (deprecated, and noisy under -Wextra) are not used.
#define OMPI_SKIP_MPICXX  1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>

namespace
{

/// Wall seconds since an arbitrary origin.
double
WallSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

extern "C" int
MPI_Allgather(const void* sendbuf,
              int sendcount,
              MPI_Datatype sendtype,
              void* recvbuf,
              int recvcount,
              MPI_Datatype recvtype,
              MPI_Comm comm)
{
    // The granted-time-window engine's synchronization: the round ends.
    double t0 = WallSeconds();
    int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    ns3::RankTransport::SyncWaited(WallSeconds() - t0, true);
    return rc;
}

extern "C" int
MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
    // The granted-time-window engine polls for messages at the start of a round: the round's
    // frames are exchanged then (once a round), and scheduled like received messages.
    ns3::RankTransport::EnginePolls();
    int rc = PMPI_Testany(count, requests, index, flag, status);
    // The null-message engine inserts the event of a message it receives right after this call
    // (RankTransport::TakeRemoteInsert, RemoteFirstScheduler).
    if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && status != MPI_STATUS_IGNORE)
    {
        ns3::RankTransport::MessageReceived(status->MPI_SOURCE);
    }
    else
    {
        ns3::RankTransport::NoMessage();
    }
    return rc;
}

extern "C" int
MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
    // The null-message engine waits for a message from a neighbour rank.
    double t0 = WallSeconds();
    int rc = PMPI_Waitany(count, requests, index, status);
    ns3::RankTransport::SyncWaited(WallSeconds() - t0, false);
    if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED && status != MPI_STATUS_IGNORE)
    {
        ns3::RankTransport::MessageReceived(status->MPI_SOURCE);
    }
    else
    {
        ns3::RankTransport::NoMessage();
    }
    return rc;
}

#endif // NS3_MPI
