/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HPCC_FORMAT_H
#define HPCC_FORMAT_H

#include "fabric-spec.h"

#include <iostream>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup dcon-helper
 * \brief Readers and a writer for the HPCC simulator's topology and flow text formats.
 *
 * Free functions (no Object) between the files and the vocabulary of fabric-spec.h: a scenario
 * reads a TopologySpec and a list of FlowSpec, then builds nodes, links and applications from
 * them.
 *
 * Topology file (HPCC's \c mix/fat.txt):
 * \verbatim
   nodes switches links
   <switch ids, all on one line>
   a b rate delay error_rate          (one line per link)
   \endverbatim
 * Flow file (HPCC's \c mix/flow.txt):
 * \verbatim
   N
   src dst priority_group dport size_bytes start_s   (N lines)
   \endverbatim
 *
 * Parsing rules (see doc/usage/hpcc-formats.rst):
 * - Fields are separated by spaces or tabs; blank lines, trailing whitespace and CR line ends
 *   are ignored everywhere. Any extra field on a line is an error.
 * - Rates are a decimal number followed by a unit: bps, b/s, Bps or B/s, optionally prefixed
 *   by k, K, M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers of 1024), e.g. \c 100Gbps.
 *   The result must be a whole, positive number of bit/s.
 * - Delays and start times are decimal numbers (no exponent), delays followed by a unit
 *   (s, ms, us, ns, ps), start times in seconds without a unit. They are converted exactly,
 *   through integer picoseconds, never through a double: "2.000000962" is exactly
 *   2,000,000,962,000 ps. A value finer than 1 ps is an error. If the Time resolution is
 *   coarser than picoseconds the value is truncated to that resolution.
 * - The error rate must be 0: dcon links are lossless (PFC), so a non-zero error rate is
 *   rejected.
 * - ns-3's own DataRate/Time string parsers abort the process on bad input, so they are never
 *   called; all tokens are validated here.
 *
 * Every error throws std::invalid_argument with the message
 * "<name>:<line>: <what is wrong>, got '<token>'" (line 0 when the file cannot be opened).
 */

namespace ns3
{

/**
 * \brief Print a flow as one line of the flow format (start in seconds, 12 decimals).
 * \param os the output stream
 * \param flow the flow
 * \return the output stream
 */
std::ostream& operator<<(std::ostream& os, const FlowSpec& flow);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC topology.
 * \param in the stream to read
 * \param name the name used in error messages (usually the file name)
 * \return the topology
 * \throws std::invalid_argument on any malformed or inconsistent line
 */
TopologySpec ReadTopologyFile(std::istream& in, const std::string& name);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC topology file.
 * \param path the file to read (also used as the name in error messages)
 * \return the topology
 * \throws std::invalid_argument if the file cannot be opened or is malformed
 */
TopologySpec ReadTopologyFile(const std::string& path);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC flow list, without a topology to check node ids against.
 *
 * Checks everything that needs no topology (src != dst, size > 0, start >= 0, dport fits 16
 * bits, the count on line 1). Use ValidateFlows, or the overload taking a TopologySpec, to
 * check that src and dst are hosts.
 * \param in the stream to read
 * \param name the name used in error messages (usually the file name)
 * \return the flows in file order (not sorted by start time)
 * \throws std::invalid_argument on any malformed line
 */
std::vector<FlowSpec> ReadFlowFile(std::istream& in, const std::string& name);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC flow file, without a topology to check node ids against.
 * \param path the file to read (also used as the name in error messages)
 * \return the flows in file order
 * \throws std::invalid_argument if the file cannot be opened or is malformed
 */
std::vector<FlowSpec> ReadFlowFile(const std::string& path);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC flow list and check every src and dst is a host of \p topology.
 *
 * Same as ReadFlowFile(std::istream&, const std::string&), but a node id that does not exist
 * or is a switch is reported with its exact line number.
 * \param in the stream to read
 * \param name the name used in error messages
 * \param topology the topology the flows run on
 * \return the flows in file order
 * \throws std::invalid_argument on any malformed line or bad node id
 */
std::vector<FlowSpec> ReadFlowFile(std::istream& in,
                                   const std::string& name,
                                   const TopologySpec& topology);

/**
 * \ingroup dcon-helper
 * \brief Read an HPCC flow file and check every src and dst is a host of \p topology.
 * \param path the file to read (also used as the name in error messages)
 * \param topology the topology the flows run on
 * \return the flows in file order
 * \throws std::invalid_argument if the file cannot be opened, is malformed or names a bad node
 */
std::vector<FlowSpec> ReadFlowFile(const std::string& path, const TopologySpec& topology);

/**
 * \ingroup dcon-helper
 * \brief Check flows (from a file or built in memory) against a topology.
 *
 * Checks src and dst exist and are hosts, src != dst, size > 0, start >= 0. Flows in memory
 * have no line number, so the message names the flow by index instead:
 * "flows[<index>]: <what is wrong>, got '<value>'".
 * \param flows the flows
 * \param topology the topology they run on
 * \throws std::invalid_argument on the first bad flow
 */
void ValidateFlows(const std::vector<FlowSpec>& flows, const TopologySpec& topology);

/**
 * \ingroup dcon-helper
 * \brief Write flows in the HPCC flow format.
 *
 * Start times are written in seconds with 12 decimals (1 ps, ns-3's finest usual resolution),
 * e.g. "2.000000962000", so that ReadFlowFile gives back exactly the same Time when the Time
 * resolution is picoseconds or coarser. (HPCC itself writes 9 decimals, i.e. 1 ns, which would
 * lose sub-nanosecond starts.)
 * \param out the stream to write
 * \param flows the flows, written in order
 * \throws std::invalid_argument if a start time is negative (it could not be read back)
 */
void WriteFlowFile(std::ostream& out, const std::vector<FlowSpec>& flows);

} // namespace ns3

#endif /* HPCC_FORMAT_H */
