/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-job.h"

#include "ns3/value-text.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{

/**
 * \brief Block \p i of \p total bytes cut in \p parts: total / parts, the first total mod parts
 * one byte larger.
 * \param total bytes
 * \param parts number of blocks
 * \param i the block
 * \return its bytes
 */
uint64_t
Block(uint64_t total, uint64_t parts, uint64_t i)
{
    return total / parts + (i < total % parts ? 1 : 0);
}

/// \return whether \p n is a power of two (n >= 1)
bool
IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/// \return log2 of a power of two
uint32_t
Log2(uint32_t n)
{
    uint32_t l = 0;
    while ((1u << l) < n)
    {
        ++l;
    }
    return l;
}

/**
 * \brief The ring schedule.
 * \param job the job
 * \return the transfers, index ((s k) + j) n + r
 */
std::vector<CollectiveTransfer>
RingSchedule(const CollectiveJob& job)
{
    const uint32_t n = job.ranks;
    const uint32_t k = job.chunks;
    const uint32_t steps = GetCollectiveSteps(job);
    std::vector<CollectiveTransfer> out;
    out.reserve(uint64_t(steps) * k * n);
    auto index = [n, k](uint32_t s, uint32_t j, uint32_t r) -> int64_t
    {
        return (int64_t(s) * k + j) * n + r;
    };
    for (uint32_t s = 0; s < steps; ++s)
    {
        for (uint32_t j = 0; j < k; ++j)
        {
            for (uint32_t r = 0; r < n; ++r)
            {
                // the block of S that rank r sends in step s
                uint64_t block;
                if (job.op == CollectiveOp::ALL_REDUCE && s >= n - 1)
                {
                    const uint32_t t = s - (n - 1); // all-gather step after the reduce-scatter
                    block = (uint64_t(r) + 1 + n - (t % n)) % n;
                }
                else
                {
                    block = (uint64_t(r) + n - (s % n)) % n;
                }
                CollectiveTransfer t;
                t.step = s;
                t.chunk = j;
                t.src = r;
                t.dst = (r + 1) % n;
                t.bytes = Block(Block(job.bytes, n, block), k, j);
                t.after = s == 0 ? -1 : index(s - 1, j, (r + n - 1) % n);
                t.connectionBefore
                    = j > 0 ? index(s, j - 1, r) : (s > 0 ? index(s - 1, k - 1, r) : -1);
                t.phase = 0;
                out.push_back(t);
            }
        }
    }
    return out;
}

/**
 * \brief The halving-doubling (Rabenseifner) all-reduce schedule.
 * \param job the job
 * \return the transfers, index i n + r
 */
std::vector<CollectiveTransfer>
HalvingDoublingSchedule(const CollectiveJob& job)
{
    const uint32_t n = job.ranks;
    const uint32_t levels = Log2(n);
    // segment of S each rank holds after each reduce-scatter step: seg[i][r] = [lo, hi)
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> seg(
        levels + 1, std::vector<std::pair<uint64_t, uint64_t>>(n, {0, job.bytes}));
    std::vector<CollectiveTransfer> out;
    out.reserve(uint64_t(2) * levels * n);
    auto partner = [n, levels](uint32_t step, uint32_t r) -> uint32_t
    {
        return step < levels ? r ^ (n >> (step + 1)) : r ^ (1u << (step - levels));
    };
    for (uint32_t i = 0; i < 2 * levels; ++i)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            CollectiveTransfer t;
            t.step = i;
            t.src = r;
            t.dst = partner(i, r);
            // reduce-scatter step i and all-gather step 2 L - 1 - i use the same pairs
            t.phase = i < levels ? i : 2 * levels - 1 - i;
            if (i < levels)
            {
                const uint32_t dist = n >> (i + 1);
                const auto [lo, hi] = seg[i][r];
                const uint64_t mid = lo + (hi - lo) / 2;
                // keep the half of this rank's bit, send the other half to the partner
                const bool upper = (r & dist) != 0;
                seg[i + 1][r] = upper ? std::make_pair(mid, hi) : std::make_pair(lo, mid);
                t.bytes = upper ? mid - lo : hi - mid;
            }
            else
            {
                // all-gather step j = i - levels undoes reduce-scatter step levels - 1 - j: the
                // rank sends the segment it holds, which it had after that step
                const uint32_t j = i - levels;
                const auto [lo, hi] = seg[levels - j][r];
                t.bytes = hi - lo;
                // the same connection carried reduce-scatter step levels - 1 - j
                t.connectionBefore = int64_t(levels - 1 - j) * n + r;
            }
            t.after = i == 0 ? -1 : int64_t(i - 1) * n + partner(i - 1, r);
            out.push_back(t);
        }
    }
    return out;
}

/**
 * \brief The direct all-to-all schedule.
 * \param job the job
 * \return the transfers, rank by rank, each to the others in rank order
 */
std::vector<CollectiveTransfer>
AllToAllSchedule(const CollectiveJob& job)
{
    const uint32_t n = job.ranks;
    std::vector<CollectiveTransfer> out;
    out.reserve(uint64_t(n) * (n - 1));
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint32_t q = 0; q < n; ++q)
        {
            if (q == r)
            {
                continue; // the block for itself stays in place
            }
            CollectiveTransfer t;
            t.src = r;
            t.dst = q;
            t.bytes = Block(job.bytes, n, q);
            out.push_back(t);
        }
    }
    return out;
}

} // namespace

void
CollectiveJob::Check() const
{
    const std::string who = "job '" + name + "': ";
    if (ranks < 2)
    {
        throw std::invalid_argument(who + "a collective needs at least 2 ranks, got "
                                    + std::to_string(ranks));
    }
    if (placement == CollectivePlacement::LIST)
    {
        if (hosts.size() != ranks)
        {
            throw std::invalid_argument(who + std::to_string(hosts.size()) + " hosts listed for "
                                        + std::to_string(ranks) + " ranks");
        }
        std::vector<uint32_t> sorted(hosts);
        std::sort(sorted.begin(), sorted.end());
        auto twice = std::adjacent_find(sorted.begin(), sorted.end());
        if (twice != sorted.end())
        {
            throw std::invalid_argument(who + "host " + std::to_string(*twice)
                                        + " is listed twice (a host is one rank)");
        }
    }
    else if (!hosts.empty())
    {
        throw std::invalid_argument(who + "hosts are listed, but the placement is "
                                    + ToString(placement) + ", not list");
    }
    if (placement == CollectivePlacement::RAIL && gpusPerServer == 0)
    {
        throw std::invalid_argument(who + "the rail placement needs the GPUs per server (>= 1)");
    }
    if (placement != CollectivePlacement::RAIL && gpusPerServer != 0)
    {
        throw std::invalid_argument(who + "GPUs per server are given, but the placement is "
                                    + ToString(placement) + ", not rail");
    }
    if (algorithm == CollectiveAlgorithm::HALVING_DOUBLING)
    {
        if (op != CollectiveOp::ALL_REDUCE)
        {
            throw std::invalid_argument(who + "halving-doubling runs all-reduce only, not "
                                        + ToString(op));
        }
        if (!IsPowerOfTwo(ranks))
        {
            throw std::invalid_argument(who
                                        + "halving-doubling needs a power-of-two number of "
                                          "ranks, got "
                                        + std::to_string(ranks));
        }
    }
    if ((algorithm == CollectiveAlgorithm::DIRECT) != (op == CollectiveOp::ALL_TO_ALL))
    {
        throw std::invalid_argument(who + ToString(op) + " does not run with the "
                                    + ToString(algorithm)
                                    + " algorithm (all-to-all runs "
                                      "direct; the others ring or, for all-reduce, hd)");
    }
    if (chunks == 0)
    {
        throw std::invalid_argument(who + "chunks must be >= 1, got 0");
    }
    if (chunks > 1 && algorithm != CollectiveAlgorithm::RING)
    {
        throw std::invalid_argument(who + "pipelining in " + std::to_string(chunks)
                                    + " chunks applies to ring algorithms only, not "
                                    + ToString(algorithm));
    }
    if (bytes / ranks < chunks)
    {
        throw std::invalid_argument(who + "size " + std::to_string(bytes)
                                    + " B gives less than "
                                      "one byte per message with "
                                    + std::to_string(ranks) + " ranks x " + std::to_string(chunks)
                                    + " chunks");
    }
    if (iterations == 0)
    {
        throw std::invalid_argument(who + "iterations must be >= 1, got 0");
    }
    if (gap.IsStrictlyNegative() || start.IsStrictlyNegative())
    {
        throw std::invalid_argument(who + "the gap and the start time must be >= 0, got gap "
                                    + FormatTime(gap) + " and start " + FormatTime(start));
    }
    if (priority > 7)
    {
        throw std::invalid_argument(who + "priority " + std::to_string(priority)
                                    + " is not in 0..7");
    }
}

CollectiveAlgorithm
CollectiveJob::DefaultAlgorithm(CollectiveOp op)
{
    return op == CollectiveOp::ALL_TO_ALL ? CollectiveAlgorithm::DIRECT : CollectiveAlgorithm::RING;
}

double
CollectiveJob::BusBandwidthFactor(CollectiveOp op, uint32_t n)
{
    const double f = double(n - 1) / n;
    return op == CollectiveOp::ALL_REDUCE ? 2 * f : f;
}

std::string
CollectiveJob::ToString(CollectiveOp op)
{
    switch (op)
    {
        case CollectiveOp::ALL_REDUCE:
            return "allreduce";
        case CollectiveOp::ALL_GATHER:
            return "allgather";
        case CollectiveOp::REDUCE_SCATTER:
            return "reducescatter";
        case CollectiveOp::ALL_TO_ALL:
            return "alltoall";
    }
    return "?";
}

std::string
CollectiveJob::ToString(CollectiveAlgorithm algorithm)
{
    switch (algorithm)
    {
        case CollectiveAlgorithm::RING:
            return "ring";
        case CollectiveAlgorithm::HALVING_DOUBLING:
            return "hd";
        case CollectiveAlgorithm::DIRECT:
            return "direct";
    }
    return "?";
}

std::string
CollectiveJob::ToString(CollectivePlacement placement)
{
    switch (placement)
    {
        case CollectivePlacement::PACKED:
            return "packed";
        case CollectivePlacement::SPREAD:
            return "spread";
        case CollectivePlacement::RANDOM:
            return "random";
        case CollectivePlacement::LIST:
            return "list";
        case CollectivePlacement::RAIL:
            return "rail";
    }
    return "?";
}

std::string
CollectiveJob::ToString(CollectivePaths paths)
{
    return paths == CollectivePaths::ECMP ? "ecmp" : "pinned";
}

std::string
CollectiveJob::ToString(CollectiveSync sync)
{
    return sync == CollectiveSync::RANK ? "rank" : "all";
}

uint32_t
GetCollectiveSteps(const CollectiveJob& job)
{
    switch (job.algorithm)
    {
        case CollectiveAlgorithm::RING:
            return job.op == CollectiveOp::ALL_REDUCE ? 2 * (job.ranks - 1) : job.ranks - 1;
        case CollectiveAlgorithm::HALVING_DOUBLING:
            return 2 * Log2(job.ranks);
        case CollectiveAlgorithm::DIRECT:
            return 1;
    }
    return 0;
}

std::vector<CollectiveTransfer>
MakeCollectiveSchedule(const CollectiveJob& job)
{
    job.Check();
    switch (job.algorithm)
    {
        case CollectiveAlgorithm::RING:
            return RingSchedule(job);
        case CollectiveAlgorithm::HALVING_DOUBLING:
            return HalvingDoublingSchedule(job);
        case CollectiveAlgorithm::DIRECT:
            return AllToAllSchedule(job);
    }
    return {};
}

} // namespace ns3
