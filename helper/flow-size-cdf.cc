/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-size-cdf.h"

#include "ns3/abort.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/rng-stream.h"
#include "ns3/value-text.h"
#include "text-input.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSizeCdf");

namespace
{

/// The last fraction may differ from 1 by at most this much.
constexpr double LAST_FRACTION_TOLERANCE = 1e-9;

/// Built-in CDF names (files data/cdf/<name>.txt).
const char* const BUILTIN_NAMES[] = {"websearch", "datamining", "datamining-fine", "fbhadoop"};

using textinput::Fail;

/**
 * \brief The shortest text that reads back as \p v.
 * \param v a number
 * \return its text
 */
std::string
FormatDouble(double v)
{
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, res.ptr);
}

/**
 * \brief Parse a whole token as a finite decimal number (no trailing text, no hex, no inf/nan).
 * \param token the token
 * \param[out] value the number
 * \return true on success
 */
bool
ParseDouble(std::string_view token, double& value)
{
    const char* first = token.data();
    const char* last = first + token.size();
    if (first != last && *first == '+')
    {
        ++first; // from_chars does not take a leading '+'
        if (first != last && (*first == '+' || *first == '-'))
        {
            return false;
        }
    }
    auto res = std::from_chars(first, last, value, std::chars_format::general);
    return res.ec == std::errc() && res.ptr == last && first != last && std::isfinite(value);
}

/**
 * \brief One point as read, with where it came from (for error messages).
 */
struct PointSource
{
    uint64_t line;        //!< 1-based line (or point index)
    std::string sizeText; //!< the size as written
    std::string fracText; //!< the fraction as written
};

/**
 * \brief Check the CDF rules; set the last fraction to exactly 1.
 * \param points the points (modified: last fraction set to 1)
 * \param sources where each point came from
 * \param name the input's name
 * \param lastLine the last line of the input (for "too few points")
 */
void
Validate(std::vector<std::pair<double, double>>& points,
         const std::vector<PointSource>& sources,
         const std::string& name,
         uint64_t lastLine)
{
    for (size_t i = 0; i < points.size(); ++i)
    {
        const double size = points[i].first;
        const double frac = points[i].second;
        const PointSource& src = sources[i];
        if (!std::isfinite(size))
        {
            Fail(name, src.line, "size is not a finite number", src.sizeText);
        }
        if (!std::isfinite(frac))
        {
            Fail(name, src.line, "fraction is not a finite number", src.fracText);
        }
        if (size < 0)
        {
            Fail(name, src.line, "negative flow size", src.sizeText);
        }
        if (size > FlowSizeCdf::MAX_SIZE_BYTES)
        {
            Fail(name,
                 src.line,
                 "flow size above 2^53 bytes (9007199254740992, the largest a double holds "
                 "exactly)",
                 src.sizeText);
        }
        if (frac < 0 || frac > 1)
        {
            Fail(name, src.line, "cumulative fraction outside [0, 1]", src.fracText);
        }
        if (i > 0 && size < points[i - 1].first)
        {
            Fail(name,
                 src.line,
                 "sizes decrease (previous size " + sources[i - 1].sizeText + ")",
                 src.sizeText);
        }
        if (i > 0 && frac < points[i - 1].second)
        {
            Fail(name,
                 src.line,
                 "cumulative fractions decrease (previous fraction " + sources[i - 1].fracText
                     + ")",
                 src.fracText);
        }
    }
    if (points.size() < 2)
    {
        Fail(name,
             std::max<uint64_t>(lastLine, 1),
             "a CDF needs at least 2 points (size fraction pairs)",
             std::to_string(points.size()) + " point" + (points.size() == 1 ? "" : "s"));
    }
    if (std::fabs(points.back().second - 1.0) > LAST_FRACTION_TOLERANCE)
    {
        Fail(name,
             sources.back().line,
             "the last cumulative fraction must be 1",
             sources.back().fracText);
    }
    points.back().second = 1.0; // stored as exactly 1 (see the class comment)
}

/**
 * \brief Lower-case copy of a string (ASCII).
 * \param s the string
 * \return s in lower case
 */
std::string
ToLower(const std::string& s)
{
    std::string out = s;
    std::transform(out.begin(),
                   out.end(),
                   out.begin(),
                   [](unsigned char c)
                   {
                       return static_cast<char>(std::tolower(c));
                   });
    return out;
}

} // namespace

FlowSizeCdf::FlowSizeCdf(std::vector<std::pair<double, double>> points)
    : m_points(std::move(points))
    , m_name("cdf")
{
    NS_LOG_FUNCTION(this << m_points.size());
    std::vector<PointSource> sources;
    sources.reserve(m_points.size());
    for (size_t i = 0; i < m_points.size(); ++i)
    {
        sources.push_back(
            {i + 1, FormatDouble(m_points[i].first), FormatDouble(m_points[i].second)});
    }
    Validate(m_points, sources, m_name, m_points.size());
}

FlowSizeCdf::FlowSizeCdf(std::vector<std::pair<double, double>> points, std::string name)
    : m_points(std::move(points))
    , m_name(std::move(name))
{
    NS_LOG_FUNCTION(this << m_points.size() << m_name);
}

FlowSizeCdf
FlowSizeCdf::Read(std::istream& in, const std::string& name)
{
    NS_LOG_FUNCTION(name);
    std::vector<std::pair<double, double>> points;
    std::vector<PointSource> sources;
    std::string line;
    uint64_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::vector<std::string_view> fields = textinput::SplitFields(line);
        if (fields.empty() || fields.front().front() == '#')
        {
            continue; // blank line or comment
        }
        if (fields.size() != 2)
        {
            std::string_view trimmed(fields.front().data(),
                                     fields.back().data() + fields.back().size()
                                         - fields.front().data());
            Fail(name, lineNo, "expected 2 fields 'size_bytes cumulative_fraction'", trimmed);
        }
        double size = 0;
        double frac = 0;
        if (!ParseDouble(fields[0], size))
        {
            Fail(name, lineNo, "flow size is not a number", fields[0]);
        }
        if (!ParseDouble(fields[1], frac))
        {
            Fail(name, lineNo, "cumulative fraction is not a number", fields[1]);
        }
        points.emplace_back(size, frac);
        sources.push_back({lineNo, std::string(fields[0]), std::string(fields[1])});
    }
    if (in.bad())
    {
        Fail(name, lineNo, "read error", "");
    }
    Validate(points, sources, name, lineNo);
    return FlowSizeCdf(std::move(points), name);
}

FlowSizeCdf
FlowSizeCdf::ReadFile(const std::string& path)
{
    NS_LOG_FUNCTION(path);
    if (IsNonRegularPath(path))
    {
        Fail(path, 0, "not a CDF file to read: it is " + DescribePath(path), path);
    }
    std::ifstream in(path);
    if (!in)
    {
        Fail(path, 0, "cannot open CDF file", path);
    }
    return Read(in, path);
}

std::vector<std::string>
FlowSizeCdf::GetBuiltinNames()
{
    return std::vector<std::string>(std::begin(BUILTIN_NAMES), std::end(BUILTIN_NAMES));
}

std::string
FlowSizeCdf::GetDataDir()
{
    if (const char* env = std::getenv("DCON_DATA_DIR"); env && *env)
    {
        return env;
    }
    std::string dir = "data";
#ifdef DCON_DATA_DIR
    dir = DCON_DATA_DIR;
#endif
#ifdef DCON_DATA_FROM_LIBDIR
    // Installed: <the folder of this libdcon>/<DCON_DATA_FROM_LIBDIR> (../share/dcon).
    std::error_code ec;
    Dl_info info;
    if (!std::filesystem::is_directory(dir, ec)
        && dladdr(reinterpret_cast<void*>(&FlowSizeCdf::GetDataDir), &info) && info.dli_fname)
    {
        const std::filesystem::path installed
            = std::filesystem::path(info.dli_fname).parent_path() / DCON_DATA_FROM_LIBDIR;
        if (std::filesystem::is_directory(installed, ec))
        {
            dir = installed.lexically_normal().string();
        }
    }
#endif
    return dir;
}

std::string
FlowSizeCdf::FindBuiltin(const std::string& nameOrPath, const std::string& dataDir)
{
    NS_LOG_FUNCTION(nameOrPath << dataDir);
    std::string names;
    for (const char* builtin : BUILTIN_NAMES)
    {
        names += (names.empty() ? "" : ", ") + std::string(builtin);
    }
    const std::string lower = ToLower(nameOrPath);
    bool isBuiltin = false;
    std::string path = nameOrPath;
    for (const char* builtin : BUILTIN_NAMES)
    {
        if (lower == builtin)
        {
            isBuiltin = true;
            path = dataDir + "/cdf/" + builtin + ".txt";
        }
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
    {
        if (isBuiltin)
        {
            throw std::invalid_argument("flow-size CDF '" + nameOrPath
                                        + "' is built in but its file '" + path
                                        + "' does not exist (wrong data directory '" + dataDir
                                        + "'?); built-in CDFs: " + names);
        }
        if (IsNonRegularPath(path))
        {
            throw std::invalid_argument("flow-size CDF " + QuoteText(nameOrPath) + " is "
                                        + DescribePath(path)
                                        + ", not a CDF file (built-in CDFs: " + names + ")");
        }
        throw std::invalid_argument("flow-size CDF " + QuoteText(nameOrPath)
                                    + " is neither a built-in CDF (" + names
                                    + ") nor an existing file");
    }
    return path;
}

double
FlowSizeCdf::GetMean() const
{
    double mean = m_points.front().second * m_points.front().first;
    for (size_t i = 1; i < m_points.size(); ++i)
    {
        mean += (m_points[i].second - m_points[i - 1].second)
                * (m_points[i].first + m_points[i - 1].first) / 2;
    }
    return mean;
}

Ptr<FlowSizeRandomVariable>
FlowSizeCdf::CreateRandomVariable() const
{
    NS_LOG_FUNCTION(this);
    Ptr<FlowSizeRandomVariable> rv = CreateObject<FlowSizeRandomVariable>();
    rv->SetPoints(m_points);
    return rv;
}

NS_OBJECT_ENSURE_REGISTERED(FlowSizeRandomVariable);

TypeId
FlowSizeRandomVariable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowSizeRandomVariable")
                            .SetParent<RandomVariableStream>()
                            .SetGroupName("Dcon")
                            .AddConstructor<FlowSizeRandomVariable>();
    return tid;
}

void
FlowSizeRandomVariable::SetPoints(std::vector<std::pair<double, double>> points)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(points.size() < 2 || points.back().second != 1.0,
                    "FlowSizeRandomVariable: at least 2 points, the last fraction 1");
    m_points = std::move(points);
}

double
FlowSizeRandomVariable::GetValue()
{
    NS_ABORT_MSG_IF(m_points.empty(), "FlowSizeRandomVariable: no points (SetPoints)");
    // ns-3.37's EmpiricalRandomVariable::GetValue with Interpolate = true, step for step (the
    // same uniform number, the same floating-point expression): the same draws.
    double u = Peek()->RandU01();
    if (IsAntithetic())
    {
        u = 1 - u;
    }
    if (u <= m_points.front().second)
    {
        return m_points.front().first;
    }
    if (u >= m_points.back().second)
    {
        return m_points.back().first;
    }
    // The first point with fraction > u (there is one: u < 1) and the point before it (there
    // is one: u > F0); of points with equal fractions, the first ends a segment and the last
    // starts the next, so a flat segment is never drawn from.
    const auto upper = std::upper_bound(m_points.begin(),
                                        m_points.end(),
                                        u,
                                        [](double x, const std::pair<double, double>& p)
                                        {
                                            return x < p.second;
                                        });
    const auto lower = std::prev(upper);
    const double c1 = lower->second;
    const double c2 = upper->second;
    const double v1 = lower->first;
    const double v2 = upper->first;
    return (v1 + ((v2 - v1) / (c2 - c1)) * (u - c1));
}

uint32_t
FlowSizeRandomVariable::GetInteger()
{
    return static_cast<uint32_t>(GetValue());
}

uint64_t
FlowSizeCdf::ToBytes(double size)
{
    if (!(size <= MAX_SIZE_BYTES)) // NaN too: converting either to uint64_t is undefined
    {
        throw std::invalid_argument("FlowSizeCdf::ToBytes: sampled size " + FormatDouble(size)
                                    + " is not a flow size (at most 2^53 bytes)");
    }
    const double rounded = std::floor(size + 0.5);
    return rounded < 1 ? 1 : static_cast<uint64_t>(rounded);
}

const std::vector<std::pair<double, double>>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

std::string
FlowSizeCdf::GetName() const
{
    return m_name;
}

} // namespace ns3
