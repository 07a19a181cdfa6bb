/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-format.h"

#include "ns3/input-file.h"
#include "ns3/log.h"
#include "text-input.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyFlowFiles");

namespace
{

/// Unsigned 128-bit integer for overflow-free decimal scaling.
__extension__ using Uint128 = unsigned __int128;

/// Picoseconds per second.
constexpr uint64_t PS_PER_S = 1000000000000ULL;

/// At most this many significant decimals after the point (keeps 10^k in 64 bits).
constexpr size_t MAX_DECIMALS = 18;

using textinput::Fail;

/**
 * \brief Reads an input line by line, skipping blank lines and splitting fields.
 */
class LineReader
{
public:
    /**
     * \brief Constructor.
     * \param in the stream
     * \param name the name used in error messages
     */
    LineReader(std::istream& in, const std::string& name)
        : m_in(in)
        , m_name(name)
    {
    }

    /**
     * \brief Read the next non-blank line and split it into fields.
     * \return false at the end of the input
     */
    bool
    Next()
    {
        while (std::getline(m_in, m_line))
        {
            ++m_lineNo;
            m_fields = textinput::SplitFields(m_line);
            if (!m_fields.empty())
            {
                return true;
            }
        }
        if (m_in.bad())
        {
            Fail("read error", "");
        }
        return false;
    }

    /**
     * \brief Throw an error about the current line.
     * \param what what is wrong
     * \param token the offending text
     */
    [[noreturn]] void
    Fail(const std::string& what, std::string_view token) const
    {
        ns3::Fail(m_name, m_lineNo, what, token);
    }

    /**
     * \brief The current line without surrounding whitespace.
     * \return the trimmed line
     */
    std::string_view
    Trimmed() const
    {
        return std::string_view(m_fields.front().data(),
                                m_fields.back().data() + m_fields.back().size()
                                    - m_fields.front().data());
    }

    /**
     * \brief Require exactly \p n fields on the current line.
     * \param n the number of fields
     * \param layout the expected layout, for the message
     */
    void
    ExpectFields(size_t n, const char* layout) const
    {
        if (m_fields.size() < n)
        {
            std::ostringstream oss;
            oss << "expected " << n << " fields '" << layout << "' but found " << m_fields.size();
            Fail(oss.str(), Trimmed());
        }
        if (m_fields.size() > n)
        {
            std::ostringstream oss;
            oss << "trailing garbage after the " << n << " fields '" << layout << "'";
            Fail(oss.str(), m_fields[n]);
        }
    }

    /**
     * \brief Parse an unsigned integer field.
     * \param token the field
     * \param what what the field is, for messages
     * \param max the largest allowed value
     * \return the value
     */
    uint64_t
    ParseUnsigned(std::string_view token, const char* what, uint64_t max) const
    {
        std::optional<uint64_t> value = textinput::ParseUnsigned(token, max);
        if (value)
        {
            return *value;
        }
        if (!token.empty() && token[0] == '-')
        {
            Fail(std::string(what) + " must not be negative", token);
        }
        if (!token.empty() && token.find_first_not_of("0123456789") == std::string_view::npos)
        {
            std::ostringstream oss;
            oss << what << " is larger than " << max;
            Fail(oss.str(), token);
        }
        Fail(std::string(what) + " is not a non-negative integer", token);
    }

    /// \return the fields of the current line
    const std::vector<std::string_view>&
    Fields() const
    {
        return m_fields;
    }

    /// \return the current 1-based line number (the last line read at the end of the input)
    uint64_t
    LineNo() const
    {
        return m_lineNo;
    }

private:
    std::istream& m_in;                     //!< The input.
    const std::string& m_name;              //!< Name for messages.
    std::string m_line;                     //!< The current line.
    std::vector<std::string_view> m_fields; //!< Fields of the current line.
    uint64_t m_lineNo{0};                   //!< Current line number.
};

/// Outcome of ParseScaledDecimal.
enum class DecimalResult
{
    OK,        //!< Parsed.
    MALFORMED, //!< Not a decimal number.
    TOO_FINE,  //!< Not a whole number of units after scaling.
    TOO_LARGE, //!< Larger than the allowed maximum.
};

/**
 * \brief Parse "digits[.digits]" exactly and multiply by \p scale, in integers.
 *
 * E.g. "2.000000962" with scale 10^12 gives 2000000962000. No sign, no exponent.
 * \param s the number
 * \param scale the multiplier (units per 1 of the number)
 * \param max the largest allowed result
 * \param[out] out the result
 * \return the outcome
 */
DecimalResult
ParseScaledDecimal(std::string_view s, uint64_t scale, uint64_t max, uint64_t& out)
{
    size_t i = 0;
    Uint128 intPart = 0;
    size_t nDigits = 0;
    bool tooLarge = false;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++nDigits)
    {
        intPart = intPart * 10 + (s[i] - '0');
        if (intPart > max)
        {
            tooLarge = true;
            intPart = max; // keep scanning for a malformed tail, no overflow
        }
    }
    std::string_view frac;
    if (i < s.size() && s[i] == '.')
    {
        const size_t fracStart = ++i;
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++nDigits)
        {
        }
        frac = s.substr(fracStart, i - fracStart);
    }
    if (i != s.size() || nDigits == 0)
    {
        return DecimalResult::MALFORMED;
    }
    if (tooLarge)
    {
        return DecimalResult::TOO_LARGE;
    }
    while (!frac.empty() && frac.back() == '0')
    {
        frac.remove_suffix(1);
    }
    if (frac.size() > MAX_DECIMALS)
    {
        return DecimalResult::TOO_FINE;
    }
    Uint128 fracPart = 0;
    Uint128 pow10 = 1;
    for (char c : frac)
    {
        fracPart = fracPart * 10 + (c - '0');
        pow10 *= 10;
    }
    const Uint128 fracScaled = fracPart * scale; // < 10^18 * 2^64: fits
    if (fracScaled % pow10 != 0)
    {
        return DecimalResult::TOO_FINE;
    }
    const Uint128 value = intPart * scale + fracScaled / pow10;
    if (value > max)
    {
        return DecimalResult::TOO_LARGE;
    }
    out = static_cast<uint64_t>(value);
    return DecimalResult::OK;
}

/**
 * \brief Split a token into its leading number ([0-9.]*) and its unit (the rest).
 * \param token the token
 * \param[out] number the number part
 * \param[out] unit the unit part
 */
void
SplitNumberUnit(std::string_view token, std::string_view& number, std::string_view& unit)
{
    size_t n = 0;
    while (n < token.size() && ((token[n] >= '0' && token[n] <= '9') || token[n] == '.'))
    {
        ++n;
    }
    number = token.substr(0, n);
    unit = token.substr(n);
}

/// A unit and its value in the base unit.
struct Unit
{
    const char* name;    //!< Spelling.
    uint64_t multiplier; //!< Value in the base unit (bit/s or ps).
};

/// Rate prefixes: decimal (k, K, M, G, T) and binary (Ki, Mi, Gi, Ti).
const Unit RATE_PREFIXES[] = {
    {"", 1ULL},
    {"k", 1000ULL},
    {"K", 1000ULL},
    {"M", 1000000ULL},
    {"G", 1000000000ULL},
    {"T", 1000000000000ULL},
    {"Ki", 1ULL << 10},
    {"Mi", 1ULL << 20},
    {"Gi", 1ULL << 30},
    {"Ti", 1ULL << 40},
};

/// Rate base units, in bit/s.
const Unit RATE_BASES[] = {
    {"bps", 1},
    {"b/s", 1},
    {"Bps", 8},
    {"B/s", 8},
};

/// Time units, in picoseconds.
const Unit TIME_UNITS[] = {
    {"s", PS_PER_S},
    {"ms", 1000000000ULL},
    {"us", 1000000ULL},
    {"ns", 1000ULL},
    {"ps", 1ULL},
};

/**
 * \brief Look up a rate unit such as "Gbps".
 * \param unit the unit
 * \return bit/s per 1 of the unit, 0 if unknown
 */
uint64_t
RateMultiplier(std::string_view unit)
{
    for (const auto& prefix : RATE_PREFIXES)
    {
        const size_t len = std::strlen(prefix.name);
        if (unit.substr(0, len) != prefix.name)
        {
            continue;
        }
        for (const auto& base : RATE_BASES)
        {
            if (unit.substr(len) == base.name)
            {
                return prefix.multiplier * base.multiplier;
            }
        }
    }
    return 0;
}

/**
 * \brief Look up a time unit such as "us".
 * \param unit the unit
 * \return picoseconds per 1 of the unit, 0 if unknown
 */
uint64_t
TimeMultiplier(std::string_view unit)
{
    for (const auto& u : TIME_UNITS)
    {
        if (unit == u.name)
        {
            return u.multiplier;
        }
    }
    return 0;
}

/**
 * \brief Parse a data rate such as "100Gbps" exactly.
 * \param r the reader (for errors)
 * \param token the token
 * \return the rate
 */
DataRate
ParseRate(const LineReader& r, std::string_view token)
{
    const char* expected = "(expected a number and a unit, e.g. 100Gbps; units bps, b/s, Bps, "
                           "B/s with prefix k, K, M, G, T, Ki, Mi, Gi or Ti)";
    if (!token.empty() && token[0] == '-')
    {
        r.Fail("data rate must be positive", token);
    }
    std::string_view number;
    std::string_view unit;
    SplitNumberUnit(token, number, unit);
    const uint64_t multiplier = RateMultiplier(unit);
    if (number.empty() || multiplier == 0)
    {
        r.Fail(std::string("bad data rate ") + expected, token);
    }
    uint64_t bps = 0;
    switch (ParseScaledDecimal(number, multiplier, std::numeric_limits<uint64_t>::max(), bps))
    {
        case DecimalResult::OK:
            break;
        case DecimalResult::MALFORMED:
            r.Fail(std::string("bad data rate ") + expected, token);
        case DecimalResult::TOO_FINE:
            r.Fail("data rate is not a whole number of bit/s", token);
        case DecimalResult::TOO_LARGE:
            r.Fail("data rate is too large", token);
    }
    if (bps == 0)
    {
        r.Fail("data rate must be positive", token);
    }
    return DataRate(bps);
}

/**
 * \brief Build a Time from a whole number of picoseconds.
 * \param ps picoseconds, >= 0
 * \return the Time (truncated if the resolution is coarser than 1 ps)
 */
inline Time
TimeFromPs(uint64_t ps)
{
    return Time::FromInteger(ps, Time::PS);
}

/**
 * \brief Parse a duration such as "1000ns", "1us" or "0.001ms" exactly.
 * \param r the reader (for errors)
 * \param token the token
 * \return the duration
 */
Time
ParseDelay(const LineReader& r, std::string_view token)
{
    const char* expected = "(expected a number and a unit s, ms, us, ns or ps, e.g. 1000ns or 1us)";
    if (!token.empty() && token[0] == '-')
    {
        r.Fail("link delay must not be negative", token);
    }
    std::string_view number;
    std::string_view unit;
    SplitNumberUnit(token, number, unit);
    const uint64_t multiplier = TimeMultiplier(unit);
    if (number.empty() || multiplier == 0)
    {
        r.Fail(std::string("bad link delay ") + expected, token);
    }
    uint64_t ps = 0;
    switch (ParseScaledDecimal(number, multiplier, std::numeric_limits<int64_t>::max(), ps))
    {
        case DecimalResult::OK:
            break;
        case DecimalResult::MALFORMED:
            r.Fail(std::string("bad link delay ") + expected, token);
        case DecimalResult::TOO_FINE:
            r.Fail("link delay is finer than 1 ps", token);
        case DecimalResult::TOO_LARGE:
            r.Fail("link delay is too large", token);
    }
    return TimeFromPs(ps);
}

/**
 * \brief Parse a link error rate; only 0 is accepted.
 * \param r the reader (for errors)
 * \param token the token
 */
void
CheckErrorRate(const LineReader& r, std::string_view token)
{
    const std::string s(token);
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || std::isnan(value))
    {
        r.Fail("bad error rate (expected a number, 0 for dcon's lossless links)", token);
    }
    if (value != 0.0)
    {
        r.Fail("non-zero link error rate is not supported: dcon links are lossless (no random "
               "packet loss), set it to 0",
               token);
    }
}

/**
 * \brief Parse a start time in seconds such as "2.000000962" exactly.
 * \param r the reader (for errors)
 * \param token the token
 * \return the time
 */
Time
ParseStartSeconds(const LineReader& r, std::string_view token)
{
    if (!token.empty() && token[0] == '-')
    {
        r.Fail("start time must not be negative", token);
    }
    uint64_t ps = 0;
    // At most half of ns-3's time range at 1 ps (about 53 days): a run's timers must stay in it.
    switch (ParseScaledDecimal(token, PS_PER_S, std::numeric_limits<int64_t>::max() / 2, ps))
    {
        case DecimalResult::OK:
            break;
        case DecimalResult::MALFORMED:
            r.Fail("bad start time (expected seconds as a decimal number without unit or "
                   "exponent, e.g. 2.000000962)",
                   token);
        case DecimalResult::TOO_FINE:
            r.Fail("start time is finer than 1 ps (at most 12 decimals)", token);
        case DecimalResult::TOO_LARGE:
            r.Fail("start time is beyond half of ns-3's time range (4611686.018427387 s)", token);
    }
    return TimeFromPs(ps);
}

/**
 * \brief Format a time as seconds with 12 decimals (exact to 1 ps), e.g. "2.000000962000".
 * \param t the time
 * \return the text
 */
std::string
FormatSeconds(Time t)
{
    const int64_t ps = t.GetPicoSeconds();
    const uint64_t mag = ps < 0 ? -static_cast<uint64_t>(ps) : static_cast<uint64_t>(ps);
    char text[48];
    std::snprintf(text,
                  sizeof(text),
                  "%s%llu.%012llu",
                  ps < 0 ? "-" : "",
                  static_cast<unsigned long long>(mag / PS_PER_S),
                  static_cast<unsigned long long>(mag % PS_PER_S));
    return text;
}

/**
 * \brief Open a file for reading or throw.
 * \param path the file
 * \param[out] file the stream to open
 */
void
OpenOrFail(const std::string& path, std::ifstream& file)
{
    if (IsNonRegularPath(path))
    {
        // (a folder opens and reads as empty, a FIFO blocks until a writer comes)
        Fail(path, 0, "not a file to read: it is " + DescribePath(path), path);
    }
    file.open(path);
    if (!file.is_open())
    {
        Fail(path,
             0,
             std::string("cannot open file for reading (") + std::strerror(errno) + ")",
             path);
    }
}

/**
 * \brief The common part of the flow readers.
 * \param in the stream
 * \param name the name for messages
 * \param topology the topology to check node ids against, or nullptr
 * \return the flows
 */
std::vector<FlowSpec>
DoReadFlows(std::istream& in, const std::string& name, const TopologySpec* topology)
{
    NS_LOG_FUNCTION(name);
    LineReader r(in, name);
    if (!r.Next())
    {
        Fail(name, r.LineNo() + 1, "empty input, expected the flow count on the first line", "");
    }
    const uint64_t headerLine = r.LineNo();
    r.ExpectFields(1, "flow_count");
    const std::string countToken(r.Fields()[0]); // copied: the line buffer is reused
    const uint64_t count
        = r.ParseUnsigned(countToken, "flow count", std::numeric_limits<uint32_t>::max());

    std::vector<FlowSpec> flows;
    flows.reserve(std::min<uint64_t>(count, 1U << 20));
    const char* layout = "src dst priority_group dport size_bytes start_s";
    while (r.Next())
    {
        if (flows.size() == count)
        {
            std::ostringstream oss;
            oss << "more flows than the " << count << " announced on line " << headerLine;
            r.Fail(oss.str(), r.Trimmed());
        }
        r.ExpectFields(6, layout);
        const auto& f = r.Fields();
        FlowSpec flow;
        flow.src = static_cast<uint32_t>(
            r.ParseUnsigned(f[0], "src node id", std::numeric_limits<uint32_t>::max()));
        flow.dst = static_cast<uint32_t>(
            r.ParseUnsigned(f[1], "dst node id", std::numeric_limits<uint32_t>::max()));
        flow.priorityGroup = static_cast<uint32_t>(
            r.ParseUnsigned(f[2], "priority group", std::numeric_limits<uint32_t>::max()));
        flow.dport = static_cast<uint16_t>(
            r.ParseUnsigned(f[3], "dport", std::numeric_limits<uint16_t>::max()));
        flow.sizeBytes = r.ParseUnsigned(f[4], "flow size", std::numeric_limits<uint64_t>::max());
        if (flow.sizeBytes == 0)
        {
            r.Fail("flow size must be positive", f[4]);
        }
        flow.start = ParseStartSeconds(r, f[5]);
        if (flow.src == flow.dst)
        {
            r.Fail("src and dst are the same node", f[1]);
        }
        if (topology)
        {
            for (int i = 0; i < 2; ++i)
            {
                const uint32_t id = i == 0 ? flow.src : flow.dst;
                const char* which = i == 0 ? "src" : "dst";
                if (id >= topology->nNodes)
                {
                    std::ostringstream oss;
                    oss << which << " node id is not below the topology's " << topology->nNodes
                        << " nodes";
                    r.Fail(oss.str(), f[i]);
                }
                if (topology->isSwitch[id])
                {
                    r.Fail(std::string(which) + " node is a switch, not a host", f[i]);
                }
            }
        }
        flows.push_back(flow);
    }
    if (flows.size() != count)
    {
        std::ostringstream oss;
        oss << "the header announces " << count << " flows but the input has only " << flows.size();
        Fail(name, headerLine, oss.str(), countToken);
    }
    NS_LOG_INFO("read " << flows.size() << " flows from " << name);
    return flows;
}

} // namespace

std::ostream&
operator<<(std::ostream& os, const FlowSpec& flow)
{
    return os << flow.src << " " << flow.dst << " " << flow.priorityGroup << " " << flow.dport
              << " " << flow.sizeBytes << " " << FormatSeconds(flow.start);
}

TopologySpec
ReadTopologyFile(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    LineReader r(in, name);
    if (!r.Next())
    {
        Fail(name,
             r.LineNo() + 1,
             "empty input, expected 'nodes switches links' on the first line",
             "");
    }
    const uint64_t headerLine = r.LineNo();
    r.ExpectFields(3, "nodes switches links");
    const uint32_t u32max = std::numeric_limits<uint32_t>::max();
    TopologySpec topo;
    topo.nNodes = static_cast<uint32_t>(r.ParseUnsigned(r.Fields()[0], "node count", u32max));
    const uint64_t nSwitches = r.ParseUnsigned(r.Fields()[1], "switch count", u32max);
    const std::string switchCountToken(r.Fields()[1]); // copied: the line buffer is reused
    const std::string linkCountToken(r.Fields()[2]);
    const uint64_t nLinks = r.ParseUnsigned(linkCountToken, "link count", u32max);
    if (topo.nNodes == 0)
    {
        r.Fail("node count must be positive", r.Fields()[0]);
    }
    if (nSwitches > topo.nNodes)
    {
        r.Fail("switch count is larger than the node count", r.Fields()[1]);
    }
    const std::string nodeCountToken(r.Fields()[0]);
    // The switch ids are kept aside: the table of every node is allocated only once the links
    // have shown that the node count is plausible (every node needs a link).
    std::set<uint32_t> switchIds;

    // Line 2: the switch ids, all on one line (absent when there are no switches).
    if (nSwitches > 0)
    {
        if (!r.Next())
        {
            Fail(name,
                 headerLine,
                 "end of input before the line of switch ids announced here",
                 switchCountToken);
        }
        const auto& f = r.Fields();
        for (size_t i = 0; i < f.size(); ++i)
        {
            if (i == nSwitches)
            {
                std::ostringstream oss;
                oss << "trailing garbage: more than the " << nSwitches
                    << " switch ids announced on line " << headerLine;
                r.Fail(oss.str(), f[i]);
            }
            const uint64_t id = r.ParseUnsigned(f[i], "switch id", u32max);
            if (id >= topo.nNodes)
            {
                std::ostringstream oss;
                oss << "switch id is not below the node count " << topo.nNodes;
                r.Fail(oss.str(), f[i]);
            }
            if (!switchIds.insert(static_cast<uint32_t>(id)).second)
            {
                r.Fail("switch id repeated", f[i]);
            }
        }
        if (f.size() < nSwitches)
        {
            std::ostringstream oss;
            oss << "expected " << nSwitches << " switch ids on one line but found " << f.size();
            r.Fail(oss.str(), r.Trimmed());
        }
    }

    topo.links.reserve(std::min<uint64_t>(nLinks, 1U << 20));
    const char* layout = "a b rate delay error_rate";
    while (r.Next())
    {
        if (topo.links.size() == nLinks)
        {
            std::ostringstream oss;
            oss << "more link lines than the " << nLinks << " announced on line " << headerLine;
            r.Fail(oss.str(), r.Trimmed());
        }
        r.ExpectFields(5, layout);
        const auto& f = r.Fields();
        TopologyLinkSpec link;
        for (int i = 0; i < 2; ++i)
        {
            const uint64_t id = r.ParseUnsigned(f[i], "link end node id", u32max);
            if (id >= topo.nNodes)
            {
                std::ostringstream oss;
                oss << "link end node id is not below the node count " << topo.nNodes;
                r.Fail(oss.str(), f[i]);
            }
            (i == 0 ? link.a : link.b) = static_cast<uint32_t>(id);
        }
        if (link.a == link.b)
        {
            r.Fail("self-loop: a link from a node to itself", f[1]);
        }
        link.rate = ParseRate(r, f[2]);
        link.delay = ParseDelay(r, f[3]);
        CheckErrorRate(r, f[4]);
        topo.links.push_back(link);
    }
    if (topo.links.size() != nLinks)
    {
        std::ostringstream oss;
        oss << "the header announces " << nLinks << " links but the input has only "
            << topo.links.size() << " link lines";
        Fail(name, headerLine, oss.str(), linkCountToken);
    }
    if (topo.nNodes / 2 > topo.links.size())
    {
        std::ostringstream oss;
        oss << "the node count is more than the " << topo.links.size()
            << " links can connect (at most " << 2 * topo.links.size()
            << " nodes: every node needs a link)";
        Fail(name, headerLine, oss.str(), nodeCountToken);
    }
    topo.isSwitch.assign(topo.nNodes, false);
    for (uint32_t id : switchIds)
    {
        topo.isSwitch[id] = true;
    }
    NS_LOG_INFO("read " << topo.nNodes << " nodes, " << nSwitches << " switches, "
                        << topo.links.size() << " links from " << name);
    return topo;
}

TopologySpec
ReadTopologyFile(const std::string& path)
{
    std::ifstream file;
    OpenOrFail(path, file);
    return ReadTopologyFile(file, path);
}

std::vector<FlowSpec>
ReadFlowFile(std::istream& in, const std::string& name)
{
    return DoReadFlows(in, name, nullptr);
}

std::vector<FlowSpec>
ReadFlowFile(const std::string& path)
{
    std::ifstream file;
    OpenOrFail(path, file);
    return DoReadFlows(file, path, nullptr);
}

std::vector<FlowSpec>
ReadFlowFile(std::istream& in, const std::string& name, const TopologySpec& topology)
{
    return DoReadFlows(in, name, &topology);
}

std::vector<FlowSpec>
ReadFlowFile(const std::string& path, const TopologySpec& topology)
{
    std::ifstream file;
    OpenOrFail(path, file);
    return DoReadFlows(file, path, &topology);
}

void
ValidateFlows(const std::vector<FlowSpec>& flows, const TopologySpec& topology)
{
    NS_LOG_FUNCTION(flows.size());
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& flow = flows[i];
        auto fail = [i](const std::string& what, const std::string& value)
        {
            std::ostringstream oss;
            oss << "flows[" << i << "]: " << what << ", got '" << value << "'";
            throw std::invalid_argument(oss.str());
        };
        for (int k = 0; k < 2; ++k)
        {
            const uint32_t id = k == 0 ? flow.src : flow.dst;
            const char* which = k == 0 ? "src" : "dst";
            if (id >= topology.nNodes)
            {
                fail(std::string(which) + " node id is not below the topology's "
                         + std::to_string(topology.nNodes) + " nodes",
                     std::to_string(id));
            }
            if (topology.isSwitch[id])
            {
                fail(std::string(which) + " node is a switch, not a host", std::to_string(id));
            }
        }
        if (flow.src == flow.dst)
        {
            fail("src and dst are the same node", std::to_string(flow.dst));
        }
        if (flow.sizeBytes == 0)
        {
            fail("flow size must be positive", "0");
        }
        if (flow.start.IsStrictlyNegative())
        {
            fail("start time must not be negative", FormatSeconds(flow.start));
        }
    }
}

void
WriteFlowFile(std::ostream& out, const std::vector<FlowSpec>& flows)
{
    NS_LOG_FUNCTION(flows.size());
    for (size_t i = 0; i < flows.size(); ++i)
    {
        if (flows[i].start.IsStrictlyNegative())
        {
            std::ostringstream oss;
            oss << "flows[" << i << "]: start time must not be negative, got '"
                << FormatSeconds(flows[i].start) << "'";
            throw std::invalid_argument(oss.str());
        }
    }
    out << flows.size() << "\n";
    for (const FlowSpec& flow : flows)
    {
        out << flow << "\n";
    }
}

} // namespace ns3
