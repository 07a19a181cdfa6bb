/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-output-file.h"

#include "ns3/log.h"
#include "ns3/value-text.h"

#include <stdexcept>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtomicOutputFile");

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& path)
    : m_path(path)
    , m_part(path.string() + ".part")
    , m_out(m_part)
{
    NS_LOG_FUNCTION(this << path);
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

void
WriteTextFile(const std::filesystem::path& path, const std::string& text)
{
    AtomicOutputFile file(path);
    file.Stream() << text;
    file.Commit();
}

std::string
JsonString(const std::string& s)
{
    static const char HEX[] = "0123456789abcdef";
    std::string out = "\"";
    std::size_t i = 0;
    while (i < s.size())
    {
        const char c = s[i];
        const auto u = static_cast<unsigned char>(c);
        uint32_t cp = 0;
        const std::size_t len = Utf8SequenceAt(s, i, cp);
        if (c == '"' || c == '\\')
        {
            out += '\\';
            out += c;
        }
        else if (u < 0x20 || len == 0)
        {
            // a control character, or a byte that is not UTF-8 (as the code point of its value,
            // so that the file stays valid JSON)
            out += "\\u00";
            out += HEX[u >> 4];
            out += HEX[u & 0xf];
        }
        else
        {
            out.append(s, i, len);
            i += len;
            continue;
        }
        ++i;
    }
    return out + "\"";
}

} // namespace ns3
