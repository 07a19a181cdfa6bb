/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-dctcp.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDctcp");
NS_OBJECT_ENSURE_REGISTERED(RdmaDctcp);

namespace
{
/// --cc=dctcp; switch queue: RED-ECN as a step at K (RdmaDctcp::QueueAttributes).
const RdmaCcRegistry::Registration g_dctcpRegistration(
    {"dctcp",
     &RdmaDctcp::GetTypeId,
     "DCTCP (Alizadeh et al., SIGCOMM 2010): ECN-fraction window, step marking at K",
     "ns3::RedEcnQueueDisc",
     &RdmaDctcp::QueueAttributes,
     "",
     {},
     {"ecn"}});

/// K per Gb/s of the port: the HPCC simulator's run.py gives DCTCP kmin = kmax = 30 KB per
/// 10 Gb/s (KB = 1000 B in its switch), i.e. 300 KB at 100 Gb/s.
constexpr uint64_t MARKING_BYTES_PER_GBPS = 3000;

} // namespace

TypeId
RdmaDctcp::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaDctcp")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaDctcp>()
              .AddAttribute("G",
                            "EWMA gain g of alpha = (1 - g) alpha + g F, in (0, 1] (DCTCP paper "
                            "and the HPCC simulator's run.py: 1/16)",
                            DoubleValue(0.0625),
                            MakeDoubleAccessor(&RdmaDctcp::m_g),
                            MakeDoubleChecker<double>())
              .AddAttribute("AlphaOnInit",
                            "alpha at the flow's start, in [0, 1] (the HPCC simulator, Linux and "
                            "ns-3's TcpDctcp: 1)",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RdmaDctcp::m_alphaInit),
                            MakeDoubleChecker<double>())
              .AddAttribute("InitialCwnd",
                            "First window in MTUs; 0 = the bandwidth-delay product of the start "
                            "rate and the base RTT (the HPCC simulator's window)",
                            DoubleValue(0),
                            MakeDoubleAccessor(&RdmaDctcp::m_initialCwnd),
                            MakeDoubleChecker<double>())
              .AddAttribute("MinCwnd",
                            "Smallest window in MTUs, > 0 (default 1: one packet in flight)",
                            DoubleValue(1),
                            MakeDoubleAccessor(&RdmaDctcp::m_minCwnd),
                            MakeDoubleChecker<double>())
              .AddAttribute("MaxCwnd",
                            "Largest window in MTUs; 0 = no limit (DCTCP's window has none; the "
                            "pacing at the start rate bounds what is sent)",
                            DoubleValue(0),
                            MakeDoubleAccessor(&RdmaDctcp::m_maxCwnd),
                            MakeDoubleChecker<double>())
              .AddAttribute("PacingGain",
                            "0: pace at the start rate (the line rate); > 0: pace at this times "
                            "cwnd / the last RTT sample, at most the start rate",
                            DoubleValue(0),
                            MakeDoubleAccessor(&RdmaDctcp::m_pacingGain),
                            MakeDoubleChecker<double>())
              .AddTraceSource("Alpha",
                              "The estimate of the fraction of marked bytes",
                              MakeTraceSourceAccessor(&RdmaDctcp::m_alpha),
                              "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaDctcp::RdmaDctcp()
{
    NS_LOG_FUNCTION(this);
}

RdmaDctcp::~RdmaDctcp() {}

bool
RdmaDctcp::WantsRttSamples() const
{
    return m_pacingGain > 0;
}

std::string
RdmaDctcp::GetName() const
{
    return "dctcp";
}

std::vector<std::pair<std::string, std::string>>
RdmaDctcp::QueueAttributes(DataRate portRate)
{
    // bit/s / 1e9 x bytes per Gb/s, exact for rates in kb/s.
    uint64_t k = portRate.GetBitRate() / 1000 * MARKING_BYTES_PER_GBPS / 1000000;
    std::string kBytes = std::to_string(std::max<uint64_t>(k, 1)) + "B";
    return {{"Kmin", kBytes}, {"Kmax", kBytes}, {"Pmax", "1"}};
}

double
RdmaDctcp::GetAlpha() const
{
    return m_alpha;
}

double
RdmaDctcp::GetCwnd() const
{
    return m_cwnd;
}

bool
RdmaDctcp::InCwr() const
{
    return m_cwr;
}

void
RdmaDctcp::SetCwnd(Ptr<RdmaFlowState> flow, double bytes)
{
    m_cwnd = std::clamp(bytes, m_minBytes, m_maxBytes);
    flow->m_cwnd = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(m_cwnd)));
}

void
RdmaDctcp::Init(Ptr<RdmaFlowState> flow)
{
    if (!(m_g > 0 && m_g <= 1))
    {
        RejectAttribute(GetTypeId(), "G", std::to_string(m_g), "in (0, 1]");
    }
    if (!(m_alphaInit >= 0 && m_alphaInit <= 1))
    {
        RejectAttribute(GetTypeId(), "AlphaOnInit", std::to_string(m_alphaInit), "in [0, 1]");
    }
    if (!(m_minCwnd > 0))
    {
        RejectAttribute(GetTypeId(), "MinCwnd", std::to_string(m_minCwnd), "> 0 MTUs");
    }
    if (!(m_initialCwnd >= 0))
    {
        RejectAttribute(GetTypeId(),
                        "InitialCwnd",
                        std::to_string(m_initialCwnd),
                        ">= 0 MTUs (0: the bandwidth-delay product)");
    }
    if (!(m_maxCwnd >= 0))
    {
        RejectAttribute(
            GetTypeId(), "MaxCwnd", std::to_string(m_maxCwnd), ">= 0 MTUs (0: no limit)");
    }
    if (!(m_pacingGain >= 0))
    {
        RejectAttribute(GetTypeId(),
                        "PacingGain",
                        std::to_string(m_pacingGain),
                        ">= 0 (0: pace at the start rate)");
    }
    RdmaCongestionOps::Init(flow); // rate = the start rate
    m_startRate = flow->m_rate;
    const double mtu = flow->m_mtu;
    const double rtt = flow->m_baseRtt.GetSeconds();
    auto bdp = [mtu, rtt](DataRate rate)
    {
        // whole bytes (1e-5 s is not exact in binary)
        return std::max(mtu, std::round(rate.GetBitRate() * rtt / 8.0));
    };
    m_minBytes = m_minCwnd * mtu;
    m_maxBytes = m_maxCwnd > 0 ? m_maxCwnd * mtu : std::numeric_limits<double>::infinity();
    if (m_maxBytes < m_minBytes)
    {
        throw std::invalid_argument("RdmaDctcp: the largest window (ns3::RdmaDctcp::MaxCwnd, "
                                    + std::to_string(m_maxBytes / mtu)
                                    + " MTUs) is below ns3::RdmaDctcp::MinCwnd ("
                                    + std::to_string(m_minCwnd) + " MTUs)");
    }
    m_alpha = m_alphaInit;
    m_windowStarted = false;
    m_ackedBytes = 0;
    m_markedBytes = 0;
    m_cwr = false;
    SetCwnd(flow, m_initialCwnd > 0 ? m_initialCwnd * mtu : bdp(flow->m_rate));
    NS_LOG_DEBUG("flow " << flow->m_flowId << " cwnd " << m_cwnd << " B, max " << m_maxBytes);
}

void
RdmaDctcp::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    // 1. alpha, once per observation window of data
    m_ackedBytes += ack.newlyAckedBytes;
    if (ack.ecnEcho)
    {
        m_markedBytes += ack.newlyAckedBytes;
    }
    bool newWindow = false;
    if (!m_windowStarted)
    {
        // The first ACK starts the first window (its bytes count in it).
        m_windowStarted = true;
        m_windowEnd = flow->m_sndNxt;
        newWindow = true;
    }
    else if (ack.ackedOffset > m_windowEnd)
    {
        double f = m_ackedBytes ? static_cast<double>(m_markedBytes) / m_ackedBytes : 0.0;
        m_alpha = (1 - m_g) * m_alpha + m_g * f;
        NS_LOG_DEBUG("flow " << flow->m_flowId << " F " << f << " alpha " << m_alpha);
        m_ackedBytes = 0;
        m_markedBytes = 0;
        m_windowEnd = flow->m_sndNxt;
        newWindow = true;
    }
    // 2. the cut's window is acknowledged: cuts are allowed again
    if (m_cwr && ack.ackedOffset > m_cwrEnd)
    {
        m_cwr = false;
    }
    // 3. at most one cut per window of data
    if (ack.ecnEcho && !m_cwr)
    {
        m_cwr = true;
        m_cwrEnd = flow->m_sndNxt;
        SetCwnd(flow, m_cwnd * (1 - m_alpha / 2));
        NS_LOG_DEBUG("flow " << flow->m_flowId << " cut to " << m_cwnd << " B");
    }
    // 4. one MTU per window otherwise
    else if (!m_cwr && newWindow)
    {
        SetCwnd(flow, m_cwnd + flow->m_mtu);
    }
    if (m_pacingGain > 0 && ack.rtt.IsStrictlyPositive())
    {
        double bps = m_pacingGain * m_cwnd * 8 / ack.rtt.GetSeconds();
        flow->m_rate
            = DataRate(static_cast<uint64_t>(std::min<double>(bps, m_startRate.GetBitRate())));
    }
}

} // namespace ns3
