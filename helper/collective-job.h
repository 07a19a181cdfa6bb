/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_JOB_H
#define COLLECTIVE_JOB_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief The collective operation of a job (sizes as NCCL and nccl-tests count them).
 */
enum class CollectiveOp
{
    ALL_REDUCE,     //!< every rank has S bytes in and the reduced S bytes out
    ALL_GATHER,     //!< every rank contributes S / n and ends with all S bytes
    REDUCE_SCATTER, //!< every rank has S bytes in and ends with its reduced S / n share
    ALL_TO_ALL,     //!< every rank sends S / n to each rank (itself included)
};

/**
 * \ingroup dcon-helper
 * \brief How a collective moves its data.
 */
enum class CollectiveAlgorithm
{
    RING,             //!< ring: n - 1 steps (all-reduce: 2 (n - 1)), rank r sends to r + 1
    HALVING_DOUBLING, //!< Rabenseifner's all-reduce, n a power of two: 2 log2 n steps
    DIRECT,           //!< all-to-all: every rank sends to every other rank at once
};

/**
 * \ingroup dcon-helper
 * \brief Where a job's ranks run (CollectiveWorkload places them).
 */
enum class CollectivePlacement
{
    PACKED, //!< fill leaf by leaf (ring neighbours mostly under one leaf)
    SPREAD, //!< round robin over the leaves (every ring hop crosses the spines)
    RANDOM, //!< a seeded random choice and order of free hosts
    LIST,   //!< the hosts given (CollectiveJob::hosts), in rank order
    RAIL,   //!< rail-optimized: servers of g GPUs, GPU i of a server on leaf (rail) i
};

/**
 * \ingroup dcon-helper
 * \brief How a connection's path through the fabric is chosen.
 */
enum class CollectivePaths
{
    ECMP,   //!< the switches' hash of a random UDP source port (a queue pair's path)
    PINNED, //!< spines assigned so that the flows of a phase share no leaf-spine link
};

/**
 * \ingroup dcon-helper
 * \brief When a job's next iteration starts.
 */
enum class CollectiveSync
{
    RANK, //!< on each rank, the compute gap after its own completion of the collective
    ALL,  //!< on every rank, the gap after the last rank completed (a barrier)
};

/**
 * \ingroup dcon-helper
 * \brief One training job: a collective operation repeated over iterations on a set of ranks
 * (one host NIC each), with a fixed compute gap between iterations. See
 * doc/usage/collectives.rst.
 */
struct CollectiveJob
{
    std::string name;                                           //!< name in the outputs
    CollectiveOp op{CollectiveOp::ALL_REDUCE};                  //!< the operation
    CollectiveAlgorithm algorithm{CollectiveAlgorithm::RING};   //!< how it runs
    uint64_t bytes{0};                                          //!< S (see CollectiveOp)
    uint32_t ranks{0};                                          //!< n (>= 2)
    CollectivePlacement placement{CollectivePlacement::PACKED}; //!< where the ranks run
    std::vector<uint32_t> hosts; //!< LIST: host node indices in rank order
    uint32_t gpusPerServer{0};   //!< RAIL: g, GPUs (NICs) per server, one per rail
    uint32_t iterations{1};      //!< times the collective runs (>= 1)
    Time gap;                    //!< compute time between iterations (>= 0)
    Time start;                  //!< when the first iteration starts (>= 0)
    uint32_t chunks{1};          //!< ring: pipeline each step in this many pieces (>= 1)
    CollectiveSync sync{CollectiveSync::RANK};    //!< when the next iteration starts
    CollectivePaths paths{CollectivePaths::ECMP}; //!< how paths are chosen
    uint8_t priority{3};                          //!< PFC priority of the job's data

    /**
     * \brief Check the job on its own (the placement against a fabric is checked when it is
     * placed): at least 2 ranks (LIST: as many hosts as ranks, no host twice), halving-doubling
     * only for all-reduce and with a power-of-two rank count, direct only for all-to-all,
     * chunks > 1 only with a ring, at least one byte per message (S >= n x chunks), at least one
     * iteration, RAIL with gpusPerServer >= 1, a priority in 0..7, no negative time.
     * \throws std::invalid_argument naming the job, the field and the value
     */
    void Check() const;

    /**
     * \brief The algorithm a job of \p op runs unless told otherwise: ring, or direct for
     * all-to-all.
     * \param op the operation
     * \return the algorithm
     */
    static CollectiveAlgorithm DefaultAlgorithm(CollectiveOp op);

    /**
     * \brief nccl-tests' bus-bandwidth factor: busbw = algbw x factor, with algbw = S / t.
     * \param op the operation
     * \param n the rank count
     * \return 2 (n - 1) / n for all-reduce, (n - 1) / n otherwise
     */
    static double BusBandwidthFactor(CollectiveOp op, uint32_t n);

    /// \return the operation's name in job files and outputs (allreduce, allgather, ...)
    static std::string ToString(CollectiveOp op);
    /// \return the algorithm's name (ring, hd, direct)
    static std::string ToString(CollectiveAlgorithm algorithm);
    /// \return the placement's name (packed, spread, random, list, rail)
    static std::string ToString(CollectivePlacement placement);
    /// \return the path choice's name (ecmp, pinned)
    static std::string ToString(CollectivePaths paths);
    /// \return the iteration sync's name (rank, all)
    static std::string ToString(CollectiveSync sync);
};

/**
 * \ingroup dcon-helper
 * \brief One message of one iteration of a collective: rank \p src sends \p bytes to rank
 * \p dst in step \p step, pipeline piece \p chunk.
 */
struct CollectiveTransfer
{
    uint32_t step{0};  //!< algorithm step (0-based)
    uint32_t chunk{0}; //!< pipeline piece of the step (0-based; 0 without pipelining)
    uint32_t src{0};   //!< sending rank
    uint32_t dst{0};   //!< receiving rank
    uint64_t bytes{0}; //!< message size
    /// The transfer (index in the schedule) whose arrival at \p src this one waits for: the
    /// data it forwards or reduces (ring: src's receive of the previous step, same piece;
    /// halving-doubling: its receive from the previous step's partner); -1 for none.
    int64_t after{-1};
    /// The previous transfer on the same connection (src -> dst) in this iteration, whose last
    /// packet must have left before this one starts (a queue pair sends in order); -1 for none.
    int64_t connectionBefore{-1};
    /// The phase (a set of connections used at once) for path pinning: ring and all-to-all
    /// have one, halving-doubling one per partner distance (a reduce-scatter step and the
    /// all-gather step that undoes it).
    uint32_t phase{0};
};

/**
 * \ingroup dcon-helper
 * \brief The messages of one iteration of a job, in an order where every transfer comes after
 * the ones it waits for (CollectiveTransfer::after, connectionBefore).
 *
 * Ring (n ranks, k = chunks): rank r sends to r + 1 (mod n) in every step; reduce-scatter and
 * all-gather have n - 1 steps, all-reduce 2 (n - 1) (reduce-scatter, then all-gather). Step s
 * carries one of the n blocks of S (block sizes S / n, the first S mod n one byte larger), split
 * into k pieces the same way: reduce-scatter step s sends block (r - s) mod n, all-gather step t
 * block (r + 1 - t) mod n after a reduce-scatter (its fully reduced block), (r - t) mod n alone.
 * Piece j of step s waits for the rank's receive of piece j of step s - 1.
 *
 * Halving-doubling (n = 2^L): reduce-scatter steps i = 0 .. L - 1 with the partner r XOR
 * (n >> (i + 1)): each rank halves its segment of S (keeping the half of its bit, sending the
 * other: S/2, S/4, ..., S/n); all-gather steps with partners at distance 1, 2, ..., n/2 send the
 * segment held (S/n, ..., S/2). Step i waits for the receive from step i - 1's partner.
 *
 * Direct all-to-all: step 0 only; rank r sends block q of S (sizes as above) to every rank
 * q != r, all at once; nothing waits.
 * \param job the job (Check()ed)
 * \return the transfers
 */
std::vector<CollectiveTransfer> MakeCollectiveSchedule(const CollectiveJob& job);

/**
 * \ingroup dcon-helper
 * \brief The number of algorithm steps of one iteration.
 * \param job the job
 * \return ring: n - 1 (all-reduce 2 (n - 1)); halving-doubling 2 log2 n; direct 1
 */
uint32_t GetCollectiveSteps(const CollectiveJob& job);

} // namespace ns3

#endif /* COLLECTIVE_JOB_H */
