/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COLLECTIVE_JOB_FILE_H
#define COLLECTIVE_JOB_FILE_H

#include "collective-job.h"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Read a collective job file: one job per line, its fields as key=value words separated
 * by spaces or tabs; '#' starts a comment, blank lines are skipped. Example:
 * \verbatim
   # name        operation     size        ranks     where
   name=ar op=allreduce size=64MiB ranks=32 placement=packed iterations=3 gap=100us
   name=moe op=alltoall size=8MiB ranks=32 placement=spread start=50us
   name=tp op=allgather algo=ring size=4MB hosts=0-3,8-11 chunks=4
   \endverbatim
 *
 * Keys (each at most once per line): op (allreduce, allgather, reducescatter, alltoall;
 * required), size (bytes S, an integer with an optional unit B, KB, MB, GB (powers of 1000) or
 * KiB, MiB, GiB (powers of 1024); required), ranks (>= 2; required unless hosts is given),
 * name (letters, digits, '_', '-', '.'; default job<N>, N counting jobs from 0), algo (ring,
 * hd, direct; default ring, direct for alltoall), placement (packed, spread, random, rail,
 * list; default packed, list with hosts), hosts (node ids and ranges a-b separated by commas,
 * in rank order), gpus (GPUs per server, for rail), iterations (>= 1, default 1), gap and
 * start (ns-3 times such as 100us; default 0), chunks (ring pipelining, >= 1, default 1), sync
 * (rank or all, default rank), paths (ecmp or pinned, default ecmp), priority (0..7, default 3).
 * Each job is then checked (CollectiveJob::Check).
 *
 * \throws std::invalid_argument "<name>:<line>: <what is wrong, what was expected>, got
 * '<text>'" for the first bad line (no job at all is an error too)
 * \param in the input
 * \param name its name in messages (usually the file's path)
 * \return the jobs in file order
 */
std::vector<CollectiveJob> ReadCollectiveJobs(std::istream& in, const std::string& name);

/**
 * \ingroup dcon-helper
 * \brief ReadCollectiveJobs on a file (refused, naming it, if it is not a readable regular
 * file: CheckInputFile).
 * \param path the file
 * \return the jobs
 */
std::vector<CollectiveJob> ReadCollectiveJobFile(const std::string& path);

/**
 * \ingroup dcon-helper
 * \brief A job as a line of a job file, every key written (times exactly, in whole units of the
 * simulator's time resolution: picoseconds in dcon's programs; see FormatTimeSteps):
 * ReadCollectiveJobs reads it back to the same job.
 * \param job the job
 * \return the line (no newline)
 */
std::string FormatCollectiveJob(const CollectiveJob& job);

/**
 * \ingroup dcon-helper
 * \brief Read a size in bytes: digits with an optional unit B, KB, MB, GB, KiB, MiB or GiB
 * (no space, no sign, no fraction), at most 2^50 bytes.
 * \param text the text
 * \return the bytes, or nothing if the text is not such a size
 */
std::optional<uint64_t> ReadByteSize(std::string_view text);

/**
 * \ingroup dcon-helper
 * \brief Read a host list: node ids and ranges a-b (a <= b) separated by commas, e.g.
 * "0-3,8,10-11" (at most 2^20 hosts in all).
 * \param text the text
 * \return the ids in order, or nothing if the text is not such a list
 */
std::optional<std::vector<uint32_t>> ReadHostList(std::string_view text);

} // namespace ns3

#endif /* COLLECTIVE_JOB_FILE_H */
