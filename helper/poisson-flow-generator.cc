/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "poisson-flow-generator.h"

#include "ns3/log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoissonFlowGenerator");

namespace
{
/// The most flows a generated workload may have (about a GB of flow state).
constexpr double MAX_FLOWS = 1e7;
} // namespace

namespace
{

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
 * \brief Throw std::invalid_argument "PoissonFlowGenerator: <what>, got '<value>'".
 * \param what what is wrong
 * \param value the offending value
 */
[[noreturn]] void
Fail(const std::string& what, const std::string& value)
{
    throw std::invalid_argument("PoissonFlowGenerator: " + what + ", got '" + value + "'");
}

} // namespace

PoissonFlowGenerator::PoissonFlowGenerator(std::vector<uint32_t> hosts,
                                           DataRate hostLinkRate,
                                           const FlowSizeCdf& cdf)
    : m_hosts(std::move(hosts))
    , m_linkRate(hostLinkRate)
    , m_cdf(cdf)
{
    NS_LOG_FUNCTION(this << m_hosts.size() << hostLinkRate << cdf.GetName());
    if (m_hosts.size() < 2)
    {
        Fail("at least 2 hosts are needed", std::to_string(m_hosts.size()) + " host(s)");
    }
    std::set<uint32_t> seen;
    for (uint32_t host : m_hosts)
    {
        if (!seen.insert(host).second)
        {
            Fail("duplicate host id", std::to_string(host));
        }
    }
    if (m_linkRate.GetBitRate() == 0)
    {
        Fail("the host link rate must be positive", "0bps");
    }
    if (!(m_cdf.GetMean() > 0))
    {
        Fail("the flow-size CDF '" + m_cdf.GetName() + "' must have a positive mean",
             FormatDouble(m_cdf.GetMean()));
    }
    m_interArrival = CreateObject<ExponentialRandomVariable>();
    m_destination = CreateObject<UniformRandomVariable>();
    m_size = m_cdf.CreateRandomVariable();
    m_incastInterArrival = CreateObject<ExponentialRandomVariable>();
    m_incastPick = CreateObject<UniformRandomVariable>();
}

void
PoissonFlowGenerator::SetLoad(double hostLinkLoad)
{
    NS_LOG_FUNCTION(this << hostLinkLoad);
    if (!(hostLinkLoad > 0 && hostLinkLoad <= 1))
    {
        Fail("the load must be in (0, 1] (a fraction of the host link rate)",
             FormatDouble(hostLinkLoad));
    }
    m_load = hostLinkLoad;
}

void
PoissonFlowGenerator::SetArrivalWindow(Time start, Time duration)
{
    NS_LOG_FUNCTION(this << start << duration);
    if (start.IsStrictlyNegative())
    {
        Fail("the arrival window must not start before time 0",
             FormatDouble(start.GetSeconds()) + "s");
    }
    if (!duration.IsStrictlyPositive())
    {
        Fail("the arrival window duration must be positive",
             FormatDouble(duration.GetSeconds()) + "s");
    }
    m_start = start;
    m_duration = duration;
}

void
PoissonFlowGenerator::SetIncast(double share, uint32_t senders, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << share << senders << bytes);
    if (!(share >= 0 && share < 1))
    {
        Fail("the incast share must be in [0, 1)", FormatDouble(share));
    }
    if (share > 0)
    {
        if (senders < 1 || senders >= m_hosts.size())
        {
            Fail("incast senders must be in [1, " + std::to_string(m_hosts.size() - 1)
                     + "] (fewer than the " + std::to_string(m_hosts.size()) + " hosts)",
                 std::to_string(senders));
        }
        if (bytes == 0)
        {
            Fail("incast bytes per sender must be positive", "0");
        }
    }
    m_incastShare = share;
    m_incastSenders = senders;
    m_incastBytes = bytes;
}

void
PoissonFlowGenerator::SetPriorityGroup(uint32_t pg)
{
    NS_LOG_FUNCTION(this << pg);
    m_pg = pg;
}

void
PoissonFlowGenerator::SetDport(uint16_t dport)
{
    NS_LOG_FUNCTION(this << dport);
    m_dport = dport;
}

int64_t
PoissonFlowGenerator::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    if (stream < 0)
    {
        Fail("stream numbers must be >= 0", std::to_string(stream));
    }
    m_stream = stream;
    RewindStreams();
    return 5;
}

void
PoissonFlowGenerator::RewindStreams()
{
    if (m_stream < 0)
    {
        return;
    }
    // SetStream creates the stream afresh, i.e. rewinds it to its first value.
    m_interArrival->SetStream(m_stream);
    m_destination->SetStream(m_stream + 1);
    m_size->SetStream(m_stream + 2);
    m_incastInterArrival->SetStream(m_stream + 3);
    m_incastPick->SetStream(m_stream + 4);
}

double
PoissonFlowGenerator::GetFlowArrivalRate() const
{
    return m_load * (1 - m_incastShare) * static_cast<double>(m_linkRate.GetBitRate())
           / (8 * m_cdf.GetMean());
}

double
PoissonFlowGenerator::GetIncastEventRate() const
{
    if (m_incastShare == 0)
    {
        return 0;
    }
    return m_incastShare * m_load * static_cast<double>(m_hosts.size())
           * static_cast<double>(m_linkRate.GetBitRate())
           / (8.0 * m_incastSenders * static_cast<double>(m_incastBytes));
}

std::vector<FlowSpec>
PoissonFlowGenerator::Generate()
{
    NS_LOG_FUNCTION(this);
    if (m_load == 0)
    {
        Fail("SetLoad must be called before Generate", "no load");
    }
    if (m_duration.IsZero())
    {
        Fail("SetArrivalWindow must be called before Generate", "no window");
    }
    RewindStreams();

    const Time end = m_start + m_duration;
    const double window = m_duration.GetSeconds();
    // Refuse a workload far beyond what one run can hold (e.g. --duration=40s for 40ms) before
    // drawing it: its flows alone would exhaust the memory.
    const double expected
        = (GetFlowArrivalRate() * m_hosts.size() + GetIncastEventRate() * m_incastSenders) * window;
    if (!(expected <= MAX_FLOWS))
    {
        std::ostringstream oss;
        oss << "about " << expected << " flows in the arrival window of " << window
            << " s, more than the " << MAX_FLOWS << " a run can hold (a shorter window?)";
        Fail(oss.str(), FormatDouble(window) + "s");
    }
    const uint32_t n = m_hosts.size();
    std::vector<FlowSpec> flows;

    // Poisson flows, host by host. Times are offsets from the window start in seconds (a
    // double, so no rounding accumulates), converted to a Time once per flow.
    const double meanGap = 1.0 / GetFlowArrivalRate();
    for (uint32_t i = 0; i < n; ++i)
    {
        double t = 0;
        while (true)
        {
            t += m_interArrival->GetValue(meanGap, 0);
            if (!(t <= 2 * window))
            {
                break; // past the window (and before Seconds(t) could leave ns-3's time range)
            }
            const Time start = m_start + Seconds(t);
            if (start >= end)
            {
                break;
            }
            uint32_t j = m_destination->GetInteger(0, n - 2);
            if (j >= i)
            {
                ++j; // skip the source: uniform over the other n - 1 hosts
            }
            const uint64_t size = FlowSizeCdf::ToBytes(m_size->GetValue());
            flows.push_back({m_hosts[i], m_hosts[j], m_pg, m_dport, size, start});
        }
    }

    // Incast events, fabric-wide.
    const double eventRate = GetIncastEventRate();
    if (eventRate > 0)
    {
        const double meanGapEvent = 1.0 / eventRate;
        std::vector<uint32_t> others(n - 1);
        double t = 0;
        while (true)
        {
            t += m_incastInterArrival->GetValue(meanGapEvent, 0);
            if (!(t <= 2 * window))
            {
                break; // past the window (and before Seconds(t) could leave ns-3's time range)
            }
            const Time start = m_start + Seconds(t);
            if (start >= end)
            {
                break;
            }
            const uint32_t receiver = m_incastPick->GetInteger(0, n - 1);
            for (uint32_t k = 0, idx = 0; k < n; ++k)
            {
                if (k != receiver)
                {
                    others[idx++] = k;
                }
            }
            // Partial Fisher-Yates: others[0 .. senders) become a uniform random subset.
            for (uint32_t k = 0; k < m_incastSenders; ++k)
            {
                const uint32_t pick = m_incastPick->GetInteger(k, n - 2);
                std::swap(others[k], others[pick]);
                flows.push_back(
                    {m_hosts[others[k]], m_hosts[receiver], m_pg, m_dport, m_incastBytes, start});
            }
        }
    }

    std::stable_sort(flows.begin(),
                     flows.end(),
                     [](const FlowSpec& a, const FlowSpec& b)
                     {
                         if (a.start != b.start)
                         {
                             return a.start < b.start;
                         }
                         if (a.src != b.src)
                         {
                             return a.src < b.src;
                         }
                         return a.dst < b.dst;
                     });
    NS_LOG_INFO("generated " << flows.size() << " flows");
    return flows;
}

double
PoissonFlowGenerator::GetOfferedLoad(const std::vector<FlowSpec>& flows) const
{
    if (m_duration.IsZero())
    {
        Fail("SetArrivalWindow must be called before GetOfferedLoad", "no window");
    }
    double bytes = 0;
    for (const FlowSpec& flow : flows)
    {
        bytes += static_cast<double>(flow.sizeBytes);
    }
    return bytes * 8
           / (static_cast<double>(m_hosts.size()) * static_cast<double>(m_linkRate.GetBitRate())
              * m_duration.GetSeconds());
}

} // namespace ns3
