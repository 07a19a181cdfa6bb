/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "value-text.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconValueText");

namespace
{

/// A unit of a value text and its factor.
struct UnitFactor
{
    const char* name;   //!< the unit as written
    long double factor; //!< what one of it is (bit/s, bytes, packets)
    bool packets;       //!< QueueSize only: a packet count
};

/// ns-3.37's DataRate units (DataRate::DoParse), with their bit/s.
const UnitFactor RATE_UNITS[] = {
    {"bps", 1, false},
    {"b/s", 1, false},
    {"Bps", 8, false},
    {"B/s", 8, false},
    {"kbps", 1e3L, false},
    {"kb/s", 1e3L, false},
    {"Kbps", 1e3L, false},
    {"Kb/s", 1e3L, false},
    {"kBps", 8e3L, false},
    {"kB/s", 8e3L, false},
    {"KBps", 8e3L, false},
    {"KB/s", 8e3L, false},
    {"Kib/s", 1024, false},
    {"KiB/s", 8192, false},
    {"Mbps", 1e6L, false},
    {"Mb/s", 1e6L, false},
    {"MBps", 8e6L, false},
    {"MB/s", 8e6L, false},
    {"Mib/s", 1048576, false},
    {"MiB/s", 8388608, false},
    {"Gbps", 1e9L, false},
    {"Gb/s", 1e9L, false},
    {"GBps", 8e9L, false},
    {"GB/s", 8e9L, false},
    {"Gib/s", 1073741824, false},
    {"GiB/s", 8589934592.0L, false},
};

/// ns-3.37's QueueSize units (QueueSize::DoParse).
const UnitFactor SIZE_UNITS[] = {
    {"B", 1, false},
    {"kB", 1e3L, false},
    {"KB", 1e3L, false},
    {"KiB", 1024, false},
    {"MB", 1e6L, false},
    {"MiB", 1048576, false},
    {"p", 1, true},
    {"kp", 1e3L, true},
    {"Kp", 1e3L, true},
    {"Kip", 1024, true},
    {"Mp", 1e6L, true},
    {"Mip", 1048576, true},
};

/// ns-3's Time units (Time::Time(std::string)).
const std::pair<const char*, Time::Unit> TIME_UNITS[] = {
    {"s", Time::S},
    {"ms", Time::MS},
    {"us", Time::US},
    {"ns", Time::NS},
    {"ps", Time::PS},
    {"fs", Time::FS},
    {"min", Time::MIN},
    {"h", Time::H},
    {"d", Time::D},
    {"y", Time::Y},
};

/// The largest magnitude of a Time in resolution units that stays clear of int64 overflow.
constexpr long double TIME_LIMIT = 9223372036854775000.0L;

/// The largest double below 2^64 (ns-3 casts the rate, a double, to uint64_t).
constexpr long double RATE_LIMIT = 18446744073709549568.0L;

/// The largest QueueSize value of ns-3.37 (a uint32_t).
constexpr long double SIZE_LIMIT = 4294967295.0L;

/// Throw "<what>: got '<text>', <expected>".
[[noreturn]] void
Refuse(const std::string& what, const std::string& text, const std::string& expected)
{
    throw std::invalid_argument(what + ": got " + QuoteText(text) + ", " + expected);
}

/// Whether \p text is digits with at most one '.', and at least one digit.
bool
IsPlainDecimal(std::string_view text)
{
    bool digit = false;
    bool point = false;
    for (char c : text)
    {
        if (c >= '0' && c <= '9')
        {
            digit = true;
        }
        else if (c == '.' && !point)
        {
            point = true;
        }
        else
        {
            return false;
        }
    }
    return digit;
}

/// Whether a non-negative magnitude \p v is a whole number, up to the error of its decimal
/// reading (\p v is a decimal text times an exact unit factor).
bool
IsWhole(long double v)
{
    return std::fabs(v - std::round(v)) <= std::max(1e-9L, v * 1e-15L);
}

/// The printable form of one code point or byte, if it must be escaped.
bool
IsInvisible(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0xa0) || cp == 0xad || cp == 0x34f
           || cp == 0x61c || cp == 0x115f || cp == 0x1160 || cp == 0x1680 || cp == 0x180e
           || (cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f)
           || (cp >= 0x205f && cp <= 0x206f) || cp == 0x3000 || cp == 0x3164
           || (cp >= 0xfe00 && cp <= 0xfe0f) || cp == 0xfeff || cp == 0xffa0
           || (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0xe0000 && cp <= 0xe007f);
}

} // namespace

std::size_t
Utf8SequenceAt(std::string_view text, std::size_t i, uint32_t& codePoint)
{
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80)
    {
        codePoint = b;
        return 1;
    }
    const std::size_t len = (b & 0xe0) == 0xc0   ? 2
                            : (b & 0xf0) == 0xe0 ? 3
                            : (b & 0xf8) == 0xf0 ? 4
                                                 : 0;
    if (len == 0 || i + len > text.size())
    {
        return 0;
    }
    uint32_t cp = len == 2 ? (b & 0x1f) : len == 3 ? (b & 0x0f) : (b & 0x07);
    for (std::size_t k = 1; k < len; ++k)
    {
        const auto c = static_cast<unsigned char>(text[i + k]);
        if ((c & 0xc0) != 0x80)
        {
            return 0;
        }
        cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, surrogates and code points above U+10FFFF are not UTF-8.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)
        || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    {
        return 0;
    }
    codePoint = cp;
    return len;
}

std::string
QuoteText(std::string_view text)
{
    static const char HEX[] = "0123456789abcdef";
    std::string out = "'";
    std::size_t i = 0;
    while (i < text.size())
    {
        uint32_t cp = 0;
        const std::size_t len = Utf8SequenceAt(text, i, cp);
        if (len == 0 || cp < 0x20 || cp == 0x7f)
        {
            // a control character, or a byte that is not UTF-8
            const auto b = static_cast<unsigned char>(text[i]);
            out += "\\x";
            out += HEX[b >> 4];
            out += HEX[b & 0xf];
            ++i;
            continue;
        }
        if (IsInvisible(cp))
        {
            std::ostringstream oss;
            oss << (cp > 0xffff ? "\\U" : "\\u") << std::hex;
            oss.width(cp > 0xffff ? 8 : 4);
            oss.fill('0');
            oss << cp;
            out += oss.str();
        }
        else
        {
            if (cp == '\'' || cp == '\\')
            {
                out += '\\';
            }
            out.append(text.substr(i, len));
        }
        i += len;
    }
    return out + "'";
}

std::optional<uint64_t>
ReadDecimalUnsigned(std::string_view text, uint64_t max)
{
    if (text.empty())
    {
        return std::nullopt;
    }
    uint64_t value = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return std::nullopt;
        }
        const uint64_t digit = c - '0';
        if (digit > max || value > (max - digit) / 10)
        {
            return std::nullopt; // value * 10 + digit > max (max - digit must not wrap)
        }
        value = value * 10 + digit;
    }
    return value;
}

namespace
{
/// What ReadDecimal found.
enum class DecimalRead
{
    OK,        //!< a finite number
    MALFORMED, //!< not the grammar of a decimal number
    TOO_LARGE  //!< the grammar, but beyond a double's range
};

/// Read a decimal number into \p v (see ReadDecimalNumber).
DecimalRead
ReadDecimal(std::string_view text, double& v)
{
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
    {
        ++i;
    }
    std::size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
    {
        ++i;
        ++digits;
    }
    if (i < text.size() && text[i] == '.')
    {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return DecimalRead::MALFORMED;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E'))
    {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        {
            ++i;
        }
        std::size_t expDigits = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        {
            ++i;
            ++expDigits;
        }
        if (expDigits == 0)
        {
            return DecimalRead::MALFORMED;
        }
    }
    if (i != text.size())
    {
        return DecimalRead::MALFORMED;
    }
    const std::string copy(text);
    errno = 0;
    char* end = nullptr;
    v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
    {
        return DecimalRead::MALFORMED;
    }
    if (!std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1.0))
    {
        return DecimalRead::TOO_LARGE; // (underflow to 0 or a subnormal is the number it is)
    }
    return DecimalRead::OK;
}
} // namespace

std::optional<double>
ReadDecimalNumber(std::string_view text)
{
    double v = 0;
    if (ReadDecimal(text, v) != DecimalRead::OK)
    {
        return std::nullopt;
    }
    return v;
}

long double
SecondsPerTimeUnit(Time::Unit unit)
{
    switch (unit)
    {
        case Time::Y:
            return 365.0L * 24 * 3600;
        case Time::D:
            return 24.0L * 3600;
        case Time::H:
            return 3600.0L;
        case Time::MIN:
            return 60.0L;
        case Time::S:
            return 1.0L;
        case Time::MS:
            return 1e-3L;
        case Time::US:
            return 1e-6L;
        case Time::NS:
            return 1e-9L;
        case Time::PS:
            return 1e-12L;
        case Time::FS:
            return 1e-15L;
        default:
            return 1.0L;
    }
}

std::string
FormatTime(Time t)
{
    std::ostringstream oss;
    oss.precision(12);
    // From the time steps, exactly: Time::GetSeconds goes through a binary fraction, which
    // shows 1 ps as 9.99999996004e-13 s.
    const int64_t perSecond = Seconds(1).GetTimeStep();
    if (perSecond > 0)
    {
        oss << static_cast<long double>(t.GetTimeStep()) / static_cast<long double>(perSecond);
    }
    else
    {
        oss << t.GetSeconds();
    }
    oss << " s";
    return oss.str();
}

std::string
FormatTimeSteps(Time t)
{
    const Time::Unit res = Time::GetResolution();
    for (const auto& [name, u] : TIME_UNITS)
    {
        if (u == res)
        {
            return std::to_string(t.GetTimeStep()) + name;
        }
    }
    NS_FATAL_ERROR("FormatTimeSteps: the time resolution " << static_cast<int>(res)
                                                           << " has no unit name");
}

Time
ReadTimeText(const std::string& text, const std::string& what)
{
    const std::string::size_type n = text.find_first_not_of("+-0123456789.eE");
    const std::string number = text.substr(0, n);
    const std::string unitText = n == std::string::npos ? "" : text.substr(n);
    const char* expected
        = "expected a decimal number and a unit (s, ms, us, ns, ps, fs, min, h, d, "
          "y), e.g. 2ms";
    Time::Unit unit = Time::S;
    bool known = unitText.empty();
    for (const auto& [name, u] : TIME_UNITS)
    {
        if (unitText == name)
        {
            unit = u;
            known = true;
        }
    }
    double r = 0;
    const DecimalRead read = ReadDecimal(number, r);
    if (!known || read == DecimalRead::MALFORMED)
    {
        Refuse(what, text, expected);
    }
    const Time::Unit res = Time::GetResolution();
    const long double units
        = static_cast<long double>(r) * SecondsPerTimeUnit(unit) / SecondsPerTimeUnit(res);
    if (read == DecimalRead::TOO_LARGE || std::fabs(units) > TIME_LIMIT)
    {
        std::ostringstream oss;
        oss << "beyond ns-3's time range (+-" << Time::Max().GetSeconds()
            << " s at its resolution)";
        Refuse(what, text, oss.str());
    }
    if (r != 0 && std::fabs(units) < 0.5L)
    {
        std::ostringstream oss;
        oss << "finer than the simulator's time resolution (" << Time(1).As(res)
            << "): it would be 0";
        Refuse(what, text, oss.str());
    }
    return Time(text);
}

DataRate
ReadDataRateText(const std::string& text, const std::string& what)
{
    const std::string::size_type n = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, n);
    const std::string unitText = n == std::string::npos ? "" : text.substr(n);
    const char* expected = "expected a non-negative number and a unit (bps, Kbps, Mbps, Gbps, Bps, "
                           "KBps, MBps, GBps, kb/s, Mb/s, Gb/s, Kib/s, Mib/s, Gib/s, KiB/s, MiB/s, "
                           "GiB/s, ...), e.g. 40Gbps";
    if (!text.empty() && text[0] == '-')
    {
        Refuse(what, text, "a rate cannot be negative");
    }
    if (unitText.empty())
    {
        if (!ReadDecimalUnsigned(number, UINT64_MAX))
        {
            Refuse(what, text, expected);
        }
        return DataRate(text);
    }
    long double factor = 0;
    for (const UnitFactor& u : RATE_UNITS)
    {
        if (unitText == u.name)
        {
            factor = u.factor;
        }
    }
    if (factor == 0 || !IsPlainDecimal(number))
    {
        Refuse(what, text, expected);
    }
    const long double bps = std::strtold(number.c_str(), nullptr) * factor;
    if (bps > RATE_LIMIT)
    {
        Refuse(what, text, "above the largest rate ns-3 holds (2^64 - 1 bit/s)");
    }
    if (!IsWhole(bps))
    {
        Refuse(what, text, "not a whole number of bit/s");
    }
    return DataRate(text);
}

QueueSize
ReadQueueSizeText(const std::string& text, const std::string& what)
{
    const std::string::size_type n = text.find_first_not_of("0123456789.");
    const std::string number = text.substr(0, n);
    const std::string unitText = n == std::string::npos ? "" : text.substr(n);
    if (!text.empty() && text[0] == '-')
    {
        Refuse(what, text, "a size cannot be negative");
    }
    const UnitFactor* unit = nullptr;
    for (const UnitFactor& u : SIZE_UNITS)
    {
        if (unitText == u.name)
        {
            unit = &u;
        }
    }
    if (!unit || !IsPlainDecimal(number))
    {
        Refuse(what,
               text,
               "expected a non-negative number and a unit (B, kB, KB, KiB, MB, MiB; p, kp, Kip, "
               "Mp, Mip for packets), e.g. 200KB");
    }
    const long double value = std::strtold(number.c_str(), nullptr) * unit->factor;
    const char* of = unit->packets ? " packets" : " B";
    if (value > SIZE_LIMIT)
    {
        std::ostringstream oss;
        oss.precision(20);
        oss << "that is " << value << of << ", above 4294967295" << of
            << ", the largest size ns-3.37's QueueSize holds (a 32-bit count)";
        Refuse(what, text, oss.str());
    }
    if (!IsWhole(value))
    {
        Refuse(what,
               text,
               unit->packets ? "not a whole number of packets" : "not a whole number of bytes");
    }
    return QueueSize(text);
}

bool
ReadBoolText(const std::string& text, const std::string& what)
{
    std::string lower;
    for (char c : text)
    {
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower.empty() || lower == "true" || lower == "t" || lower == "1")
    {
        return true;
    }
    if (lower == "false" || lower == "f" || lower == "0")
    {
        return false;
    }
    Refuse(what, text, "expected true or false (or 1, 0)");
}

std::string
FormatNumber(double v)
{
    std::ostringstream oss;
    oss.precision(12);
    oss << v;
    return oss.str();
}

} // namespace ns3
