/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_INPUT_FILE_H
#define DCON_INPUT_FILE_H

#include <string>

/**
 * \file
 * \ingroup dcon-util
 * \brief The check of an input file before it is opened: a folder (which opens and reads as
 * empty), a device such as /dev/null or a FIFO (which blocks until a writer comes) is named as
 * such instead.
 */

namespace ns3
{

/**
 * \ingroup dcon-util
 * \brief What a path names, for messages: "a folder", "a FIFO", "a character device", "a
 * socket", "a block device", "a regular file", "nothing (no such file)".
 * \param path the path
 * \return the description
 */
std::string DescribePath(const std::string& path);

/**
 * \ingroup dcon-util
 * \brief Whether a path names a regular file (following symbolic links).
 * \param path the path
 * \return true for a regular file
 */
bool IsRegularFile(const std::string& path);

/**
 * \ingroup dcon-util
 * \brief Whether a path exists and is not a regular file (a folder, a device, a FIFO, ...).
 * \param path the path
 * \return true if opening it as an input file would be wrong
 */
bool IsNonRegularPath(const std::string& path);

/**
 * \ingroup dcon-util
 * \brief Refuse an input path that is not a readable regular file, naming what it is.
 * \throws std::invalid_argument "<what>: '<path>' is a folder, not a file" (or a FIFO, a
 * device, missing, unreadable)
 * \param path the path
 * \param what who gives it, e.g. "--flowFile"
 */
void CheckInputFile(const std::string& path, const std::string& what);

} // namespace ns3

#endif /* DCON_INPUT_FILE_H */
