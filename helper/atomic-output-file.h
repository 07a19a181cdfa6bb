/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATOMIC_OUTPUT_FILE_H
#define ATOMIC_OUTPUT_FILE_H

#include <filesystem>
#include <fstream>
#include <string>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief An output file that is either complete or absent: it is written as "<path>.part" and
 * renamed to its path by Commit().
 *
 * A run that stops while writing (an error, Ctrl-C) leaves at most a ".part" file, never a
 * truncated file under the real name; destroying the object without Commit() removes the part
 * file. The stream is in std::fixed notation.
 */
class AtomicOutputFile
{
public:
    /**
     * \brief Open "<path>.part" for writing.
     * \throws std::runtime_error naming the path if it cannot be opened.
     * \param path the final path
     */
    explicit AtomicOutputFile(const std::filesystem::path& path);

    /// Removes the part file unless Commit() succeeded.
    ~AtomicOutputFile();

    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    /**
     * \brief The stream to write to.
     * \return the stream
     */
    std::ofstream& Stream();

    /**
     * \brief Close the file and give it its final name (replacing an older file).
     * \throws std::runtime_error naming the path if writing or renaming failed.
     */
    void Commit();

private:
    std::filesystem::path m_path; //!< final path
    std::filesystem::path m_part; //!< the path while writing
    std::ofstream m_out;          //!< the stream
    bool m_committed{false};      //!< Commit() succeeded
};

/**
 * \ingroup dcon-helper
 * \brief Write a whole file atomically (AtomicOutputFile).
 * \throws std::runtime_error naming the path if it cannot be written
 * \param path the file
 * \param text its content
 */
void WriteTextFile(const std::filesystem::path& path, const std::string& text);

/**
 * \ingroup dcon-helper
 * \brief Quote a string for a JSON file (run.json, summary.json): '"' and '\\' escaped,
 * control characters and bytes that are not UTF-8 written as \\u00XX.
 * \param s the string
 * \return the quoted, escaped string
 */
std::string JsonString(const std::string& s);

} // namespace ns3

#endif /* ATOMIC_OUTPUT_FILE_H */
