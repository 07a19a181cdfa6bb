/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATOMIC_OUTPUT_FILE_H
#define ATOMIC_OUTPUT_FILE_H

#include <filesystem>
#include <fstream>
#include <ostream>
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
 * file. The stream is in std::fixed notation. A write that fails (a full disk, a file size
 * limit, a folder that became read-only) is reported by Commit() with the system's reason
 * (strerror), e.g. "cannot write results/flows.csv: No space left on device".
 */
class AtomicOutputFile
{
public:
    /**
     * \brief Open "<path>.part" for writing.
     * \throws std::runtime_error naming the path and the system's reason if it cannot be
     * opened.
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
    std::ostream& Stream();

    /**
     * \brief Close the file and give it its final name (replacing an older file).
     * \throws std::runtime_error naming the path and the system's reason if writing or renaming
     * failed.
     */
    void Commit();

private:
    /// A file buffer that keeps the system's error (errno) of the first write that failed.
    class Buffer : public std::filebuf
    {
    public:
        int m_error{0}; //!< errno of the first failed write (0: none)

    protected:
        int_type overflow(int_type c) override;
        std::streamsize xsputn(const char_type* s, std::streamsize n) override;
        int sync() override;

    private:
        /// Keep errno if nothing was kept yet (0 stands for an unknown reason: EIO).
        void Keep();
    };

    /// "cannot write PATH: REASON" with the error kept (or \p fallback).
    std::string Failure(int fallback) const;

    std::filesystem::path m_path; //!< final path
    std::filesystem::path m_part; //!< the path while writing
    Buffer m_buffer;              //!< the file
    std::ostream m_out;           //!< the stream on m_buffer
    bool m_committed{false};      //!< Commit() succeeded
};

/**
 * \ingroup dcon-helper
 * \brief Write a whole file atomically (AtomicOutputFile).
 * \throws std::runtime_error naming the path and the system's reason if it cannot be written
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
