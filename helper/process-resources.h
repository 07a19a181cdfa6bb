/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROCESS_RESOURCES_H
#define PROCESS_RESOURCES_H

#include <istream>
#include <optional>

/**
 * \file
 * \ingroup dcon-helper
 * \brief What the running process has cost so far: CPU time and peak resident memory, as
 * summary.json records them next to the wall time.
 */

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief The CPU time (user + system) this process has used so far, in seconds
 * (getrusage(RUSAGE_SELF)); 0 if it cannot be read.
 * \return seconds of CPU
 */
double ProcessCpuSeconds();

/**
 * \ingroup dcon-helper
 * \brief The peak resident memory of this process so far, in bytes: VmHWM of
 * /proc/self/status, the high-water mark of the program's own address space. Not
 * getrusage's ru_maxrss: on Linux that also counts the memory of the process that started
 * this one, as it was before exec (a simulator started by a 150 MiB Python sweep would never
 * read below 150 MiB). Where /proc is missing, ru_maxrss is the fallback.
 * \return bytes, or std::nullopt if neither can be read
 */
std::optional<double> ProcessPeakResidentBytes();

/**
 * \ingroup dcon-helper
 * \brief The VmHWM line of a /proc/PID/status text, in bytes (its value is in kB).
 * \param status the text
 * \return bytes, or std::nullopt if there is no well-formed VmHWM line
 */
std::optional<double> ParseVmHwmBytes(std::istream& status);

} // namespace ns3

#endif /* PROCESS_RESOURCES_H */
