/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lstm-predictor.h"

#include "ns3/input-file.h"
#include "ns3/ptr.h"
#include "ns3/value-text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Reads the weight file line by line, skipping comments and blank lines.
class Reader
{
public:
    Reader(const std::string& text, const std::string& name)
        : m_in(text)
        , m_name(name)
    {
    }

    /// Fail naming the file and the current line.
    [[noreturn]] void
    Fail(const std::string& what) const
    {
        throw std::invalid_argument("LstmPredictor: " + m_name + ":" + std::to_string(m_line) + ": "
                                    + what);
    }

    /// The next non-empty line split into tokens; fails at the end of the file.
    std::vector<std::string>
    Next(const std::string& expecting)
    {
        std::string line;
        while (std::getline(m_in, line))
        {
            m_line++;
            m_raw = line;
            auto hash = line.find('#');
            if (hash != std::string::npos)
            {
                line.erase(hash);
            }
            std::istringstream ss(line);
            std::vector<std::string> tokens;
            std::string tok;
            while (ss >> tok)
            {
                tokens.push_back(tok);
            }
            if (!tokens.empty())
            {
                return tokens;
            }
        }
        m_line++;
        Fail("end of file, expected " + expecting);
    }

    /// True if only comments and blank lines remain.
    bool
    AtEnd()
    {
        std::string line;
        while (std::getline(m_in, line))
        {
            m_line++;
            auto hash = line.find('#');
            if (hash != std::string::npos)
            {
                line.erase(hash);
            }
            if (line.find_first_not_of(" \t\r") != std::string::npos)
            {
                return false;
            }
        }
        return true;
    }

    /// Parse a finite double.
    double
    Number(const std::string& tok) const
    {
        errno = 0;
        char* end = nullptr;
        double v = std::strtod(tok.c_str(), &end);
        if (end == tok.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        {
            Fail("not a finite number: " + QuoteText(tok));
        }
        return v;
    }

    /// Parse a size in [1, MAX_SIZE] (a larger one would only make the file refuse later, after
    /// reading millions of numbers; W_hh has 4 x hidden^2 of them).
    uint32_t
    Count(const std::string& tok) const
    {
        char* end = nullptr;
        errno = 0;
        long v = std::strtol(tok.c_str(), &end, 10);
        if (end == tok.c_str() || *end != '\0' || errno == ERANGE || v <= 0 || v > MAX_SIZE)
        {
            Fail("not a size in [1, " + std::to_string(MAX_SIZE) + "]: " + QuoteText(tok));
        }
        return static_cast<uint32_t>(v);
    }

    /// Largest hidden size or sequence length of a weight file.
    static constexpr long MAX_SIZE = 1024;

    /// Read a section: header "<name> <dims...>" must match, then rows x cols numbers, one row
    /// per line.
    std::vector<double>
    Section(const std::string& name, uint32_t rows, uint32_t cols, bool vector)
    {
        std::string shape = vector ? std::to_string(rows * cols)
                                   : std::to_string(rows) + " " + std::to_string(cols);
        auto head = Next("section " + name);
        std::string got;
        for (const auto& t : head)
        {
            got += (got.empty() ? "" : " ") + t;
        }
        if (got != name + " " + shape)
        {
            Fail("expected section header '" + name + " " + shape + "', got " + QuoteText(m_raw));
        }
        // A vector section is one line of rows x cols numbers.
        uint32_t lines = vector ? 1 : rows;
        uint32_t perLine = vector ? rows * cols : cols;
        std::vector<double> values;
        values.reserve(static_cast<size_t>(rows) * cols); // at most 4 x 1024 x 1024
        for (uint32_t r = 0; r < lines; ++r)
        {
            auto toks = Next(std::to_string(perLine) + " numbers of " + name);
            if (toks.size() != perLine)
            {
                Fail(name + ": expected " + std::to_string(perLine) + " numbers on the line, got "
                     + std::to_string(toks.size()));
            }
            for (const auto& t : toks)
            {
                values.push_back(Number(t));
            }
        }
        return values;
    }

    /// The current line as read (comments included), for messages.
    const std::string&
    Raw() const
    {
        return m_raw;
    }

private:
    std::istringstream m_in;
    std::string m_name;
    uint32_t m_line{0};
    std::string m_raw; //!< the line Next returned
};

/// The largest magnitude the predictor's output may reach (a relative RTT deviation).
constexpr double MAX_OUTPUT = 1000;

double
Sigmoid(double x)
{
    return 1.0 / (1.0 + std::exp(-x));
}
} // namespace

Ptr<const LstmPredictor>
LstmPredictor::Parse(const std::string& text, const std::string& name)
{
    Reader rd(text, name);
    auto head = rd.Next("header 'dcon-lstm 1 <input> <hidden> <steps>'");
    if (head.size() != 5 || head[0] != "dcon-lstm" || head[1] != "1")
    {
        // (the line escaped: a byte-order mark or another invisible character shows)
        rd.Fail("expected header 'dcon-lstm 1 <input> <hidden> <steps>', got "
                + QuoteText(rd.Raw()));
    }
    if (rd.Count(head[2]) != 1)
    {
        rd.Fail("input size must be 1 (one K value per step), got " + QuoteText(head[2]));
    }
    Ptr<LstmPredictor> p = Create<LstmPredictor>();
    p->m_hidden = rd.Count(head[3]);
    p->m_steps = rd.Count(head[4]);
    uint32_t h = p->m_hidden;
    p->m_wIh = rd.Section("W_ih", 4 * h, 1, false);
    p->m_wHh = rd.Section("W_hh", 4 * h, h, false);
    p->m_bIh = rd.Section("b_ih", 4 * h, 1, true);
    p->m_bHh = rd.Section("b_hh", 4 * h, 1, true);
    p->m_wLin = rd.Section("W_lin", 1, h, false);
    p->m_bLin = rd.Section("b_lin", 1, 1, true)[0];
    if (!rd.AtEnd())
    {
        rd.Fail("unexpected text after b_lin");
    }
    // |h| < 1, so |out| <= |b_lin| + sum |W_lin|: refuse weights whose prediction of the RTT's
    // relative deviation could leave [-MAX_OUTPUT, MAX_OUTPUT] (RTT-PID would act on a predicted
    // RTT of 10^307 times the smoothed one, i.e. on nothing it measured).
    double bound = std::fabs(p->m_bLin);
    for (double w : p->m_wLin)
    {
        bound += std::fabs(w);
    }
    if (!(bound <= MAX_OUTPUT))
    {
        std::ostringstream oss;
        oss << name << ": the predictor's output can reach " << bound
            << " (|b_lin| + sum |W_lin|), beyond +-" << MAX_OUTPUT << " (a predicted RTT "
            << MAX_OUTPUT + 1 << " times the smoothed one)";
        throw std::invalid_argument(oss.str());
    }
    return p;
}

Ptr<const LstmPredictor>
LstmPredictor::Load(const std::string& path)
{
    if (IsNonRegularPath(path))
    {
        throw std::invalid_argument("LstmPredictor: weight file '" + path + "' is "
                                    + DescribePath(path) + ", not a file to read");
    }
    errno = 0;
    std::ifstream in(path);
    if (!in)
    {
        const int err = errno ? errno : EIO;
        throw std::invalid_argument("LstmPredictor: cannot open weight file " + QuoteText(path)
                                    + " (" + std::strerror(err) + ")");
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return Parse(ss.str(), path);
}

Ptr<const LstmPredictor>
LstmPredictor::LoadCached(const std::string& path)
{
    // Keyed by the path string: iteration order never matters, lookups are deterministic.
    static std::map<std::string, Ptr<const LstmPredictor>> cache;
    auto it = cache.find(path);
    if (it != cache.end())
    {
        return it->second;
    }
    Ptr<const LstmPredictor> p = Load(path);
    cache[path] = p;
    return p;
}

double
LstmPredictor::Predict(const std::vector<double>& xs) const
{
    if (xs.size() != m_steps)
    {
        throw std::invalid_argument("LstmPredictor::Predict: expected " + std::to_string(m_steps)
                                    + " inputs, got " + std::to_string(xs.size()));
    }
    const uint32_t hs = m_hidden;
    std::vector<double> h(hs, 0.0);
    std::vector<double> c(hs, 0.0);
    std::vector<double> z(4 * hs);
    for (double x : xs)
    {
        for (uint32_t r = 0; r < 4 * hs; ++r)
        {
            double acc = m_wIh[r] * x + m_bIh[r] + m_bHh[r];
            const double* row = &m_wHh[static_cast<size_t>(r) * hs];
            for (uint32_t k = 0; k < hs; ++k)
            {
                acc += row[k] * h[k];
            }
            z[r] = acc;
        }
        for (uint32_t k = 0; k < hs; ++k)
        {
            double i = Sigmoid(z[k]);
            double f = Sigmoid(z[hs + k]);
            double g = std::tanh(z[2 * hs + k]);
            double o = Sigmoid(z[3 * hs + k]);
            c[k] = f * c[k] + i * g;
            h[k] = o * std::tanh(c[k]);
        }
    }
    double out = m_bLin;
    for (uint32_t k = 0; k < hs; ++k)
    {
        out += m_wLin[k] * h[k];
    }
    return out;
}

uint32_t
LstmPredictor::GetHidden() const
{
    return m_hidden;
}

uint32_t
LstmPredictor::GetSteps() const
{
    return m_steps;
}

} // namespace ns3
