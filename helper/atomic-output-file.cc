/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-output-file.h"

#include <stdexcept>
#include <system_error>

namespace ns3
{

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& path)
    : m_path(path)
    , m_part(path.string() + ".part")
    , m_out(m_part)
{
    if (!m_out)
    {
        throw std::runtime_error("cannot write " + m_path.string());
    }
    m_out << std::fixed;
}

AtomicOutputFile::~AtomicOutputFile()
{
    if (!m_committed)
    {
        m_out.close();
        std::error_code ec;
        std::filesystem::remove(m_part, ec); // best effort: nothing to report from here
    }
}

std::ofstream&
AtomicOutputFile::Stream()
{
    return m_out;
}

void
AtomicOutputFile::Commit()
{
    m_out.close();
    if (!m_out)
    {
        throw std::runtime_error("cannot write " + m_path.string());
    }
    std::error_code ec;
    std::filesystem::rename(m_part, m_path, ec);
    if (ec)
    {
        throw std::runtime_error("cannot rename " + m_part.string() + " to " + m_path.string()
                                 + ": " + ec.message());
    }
    m_committed = true;
}

std::string
JsonString(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            out += '\\';
        }
        out += c;
    }
    return out + "\"";
}

} // namespace ns3
