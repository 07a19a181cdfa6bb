/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atomic-output-file.h"

#include "ns3/log.h"
#include "ns3/value-text.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtomicOutputFile");

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& path)
    : m_path(path)
    , m_part(path.string() + ".part")
    , m_out(&m_buffer)
{
    NS_LOG_FUNCTION(this << path);
    errno = 0;
    if (!m_buffer.open(m_part, std::ios::out | std::ios::trunc))
    {
        const int err = errno ? errno : EIO;
        m_out.setstate(std::ios::badbit);
        throw std::runtime_error("cannot write " + m_path.string() + ": " + std::strerror(err));
    }
    m_out << std::fixed;
}

AtomicOutputFile::~AtomicOutputFile()
{
    if (!m_committed)
    {
        m_buffer.close();
        std::error_code ec;
        std::filesystem::remove(m_part, ec); // best effort: nothing to report from here
    }
}

std::ostream&
AtomicOutputFile::Stream()
{
    return m_out;
}

std::string
AtomicOutputFile::Failure(int fallback) const
{
    const int err = m_buffer.m_error ? m_buffer.m_error : fallback;
    return "cannot write " + m_path.string() + ": " + std::strerror(err);
}

void
AtomicOutputFile::Commit()
{
    m_out.flush();
    errno = 0;
    const bool closed = m_buffer.close() != nullptr;
    const int closeError = errno;
    if (!m_out || !closed)
    {
        throw std::runtime_error(Failure(closeError ? closeError : EIO));
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
AtomicOutputFile::Buffer::Keep()
{
    if (m_error == 0)
    {
        m_error = errno ? errno : EIO;
    }
}

AtomicOutputFile::Buffer::int_type
AtomicOutputFile::Buffer::overflow(int_type c)
{
    errno = 0;
    const int_type r = std::filebuf::overflow(c);
    if (traits_type::eq_int_type(r, traits_type::eof()))
    {
        Keep();
    }
    return r;
}

std::streamsize
AtomicOutputFile::Buffer::xsputn(const char_type* s, std::streamsize n)
{
    errno = 0;
    const std::streamsize r = std::filebuf::xsputn(s, n);
    if (r < n)
    {
        Keep();
    }
    return r;
}

int
AtomicOutputFile::Buffer::sync()
{
    errno = 0;
    const int r = std::filebuf::sync();
    if (r != 0)
    {
        Keep();
    }
    return r;
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
