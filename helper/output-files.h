/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OUTPUT_FILES_H
#define OUTPUT_FILES_H

#include "ns3/input-file.h"

#include <string>
#include <vector>

/**
 * \file
 * \ingroup dcon-helper
 * \brief Checks of the files and folders a program writes: an output file must not be a folder,
 * a device such as /dev/null or a FIFO (which would block), an output folder must be a
 * writable folder and hold no file of an earlier run. (Inputs: input-file.h.)
 */

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Refuse an output file path that exists and is not a regular file (a folder, /dev/null,
 * a FIFO), or whose folder does not exist or cannot be written.
 * \throws std::invalid_argument naming \p what, the path and the problem
 * \param path the path
 * \param what who gives it, e.g. "--rttTrace"
 */
void CheckOutputFile(const std::string& path, const std::string& what);

/**
 * \ingroup dcon-helper
 * \brief What PrepareOutputFolderFor found.
 */
struct OutputFolderReport
{
    std::vector<std::string> removed; //!< files of an earlier run removed (names; with dryRun:
                                      //!< those that would be)
    std::vector<std::string> foreign; //!< other entries, left as they are (names)
    bool created{false};              //!< the folder did not exist (with dryRun: would be made)
};

/**
 * \ingroup dcon-helper
 * \brief Make an output folder ready before a run: create it (and its parents), check that it
 * is a folder and writable (by writing and removing a file), then remove the files of the
 * program's kinds (names, or patterns with one '*', e.g. "node-work-*.csv") and the ".part"
 * files of interrupted writes of them. With \p dryRun nothing is changed: a folder that does
 * not exist must be one that can be made (its nearest existing parent a writable folder), and
 * the report lists what would be removed.
 * \throws std::invalid_argument naming the folder if it is not a folder, cannot be created or
 * is not writable, or a file cannot be removed
 * \param dir the folder
 * \param kinds the names and patterns of the files the program writes there
 * \param dryRun only check, change nothing
 * \return what was removed and what was left
 */
OutputFolderReport PrepareOutputFolderFor(const std::string& dir,
                                          const std::vector<std::string>& kinds,
                                          bool dryRun = false);

/**
 * \ingroup dcon-helper
 * \brief The files of a folder that PrepareOutputFolderFor would remove (of \p kinds, and their
 * ".part" files), without removing them.
 * \param dir the folder (none if it does not exist)
 * \param kinds the names and patterns of the files
 * \return their paths, sorted
 */
std::vector<std::string> FindOutputFiles(const std::string& dir,
                                         const std::vector<std::string>& kinds);

/**
 * \ingroup dcon-helper
 * \brief Whether a file name matches a pattern with at most one '*' (any run of characters).
 * \param name the name
 * \param pattern the pattern
 * \return true if it matches
 */
bool MatchesKind(const std::string& name, const std::string& pattern);

} // namespace ns3

#endif /* OUTPUT_FILES_H */
