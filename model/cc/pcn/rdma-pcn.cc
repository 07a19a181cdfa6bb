/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-pcn.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaPcn");
NS_OBJECT_ENSURE_REGISTERED(RdmaPcn);

namespace
{
/// --cc=pcn; switch queue: NP-ECN (no marks on the packets a PFC pause held back).
const RdmaCcRegistry::Registration g_pcnRegistration(
    {"pcn",
     &RdmaPcn::GetTypeId,
     "PCN (Cheng et al., NSDI 2020): receive-rate CNPs, NP-ECN",
     "ns3::NpEcnQueueDisc",
     nullptr,
     "",
     {},
     {"ecn"},
     "",
     "MinRate"});
} // namespace

TypeId
RdmaPcn::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaPcn")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaPcn>()
              .AddAttribute("Wmin",
                            "Wmin: discount of the receive rate on decrease, and w after it "
                            "(paper 1/128); in (0, 1).",
                            DoubleValue(1.0 / 128),
                            MakeDoubleAccessor(&RdmaPcn::m_wMin),
                            MakeDoubleChecker<double>())
              .AddAttribute("Wmax",
                            "Wmax: limit of the increase weight w (paper 0.5); in [Wmin, 1).",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&RdmaPcn::m_wMax),
                            MakeDoubleChecker<double>())
              .AddAttribute("MinRate",
                            "Lowest sending rate (0 allowed); at most the line rate.",
                            DataRateValue(DataRate("100Mb/s")),
                            MakeDataRateAccessor(&RdmaPcn::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("ReceiverPeriod",
                            "T: CNP generation period of the receiver (paper 50 us); > 0.",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaPcn::m_period),
                            MakeTimeChecker())
              .AddAttribute("CongestionRatio",
                            "A period is congested if at least this fraction of its packets "
                            "carried CE (paper 0.95); in (0, 1].",
                            DoubleValue(0.95),
                            MakeDoubleAccessor(&RdmaPcn::m_congestionRatio),
                            MakeDoubleChecker<double>())
              .AddTraceSource("W",
                              "PCN increase weight w",
                              MakeTraceSourceAccessor(&RdmaPcn::m_w),
                              "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaPcn::RdmaPcn()
{
    NS_LOG_FUNCTION(this);
}

RdmaPcn::~RdmaPcn()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaPcn::GetName() const
{
    return "pcn";
}

void
RdmaPcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rxPeriod.Stop();
    m_rx = nullptr;
    m_sendCnp = SendCnpCallback();
    RdmaCongestionOps::DoDispose();
}

void
RdmaPcn::CheckSenderConfig(DataRate lineRate) const
{
    std::ostringstream os;
    if (lineRate.GetBitRate() == 0)
    {
        os << "the flow's line rate is 0 b/s";
    }
    else if (!(m_wMin > 0.0 && m_wMin < 1.0))
    {
        os << "attribute ns3::RdmaPcn::Wmin = " << m_wMin << " must be in (0, 1)";
    }
    else if (!(m_wMax >= m_wMin && m_wMax < 1.0))
    {
        os << "attribute ns3::RdmaPcn::Wmax = " << m_wMax << " must be in [Wmin = " << m_wMin
           << ", 1)";
    }
    else if (m_minRate > lineRate)
    {
        os << "attribute ns3::RdmaPcn::MinRate = " << m_minRate << " must be <= the line rate "
           << lineRate;
    }
    if (!os.str().empty())
    {
        throw std::invalid_argument("RdmaPcn: " + os.str());
    }
}

void
RdmaPcn::CheckReceiverConfig() const
{
    std::ostringstream os;
    if (!m_period.IsStrictlyPositive())
    {
        os << "attribute ns3::RdmaPcn::ReceiverPeriod = " << m_period.As(Time::US)
           << " must be > 0";
    }
    else if (!(m_congestionRatio > 0.0 && m_congestionRatio <= 1.0))
    {
        os << "attribute ns3::RdmaPcn::CongestionRatio = " << m_congestionRatio
           << " must be in (0, 1]";
    }
    if (!os.str().empty())
    {
        throw std::invalid_argument("RdmaPcn: " + os.str());
    }
}

void
RdmaPcn::Init(Ptr<RdmaFlowState> flow)
{
    NS_LOG_FUNCTION(this << flow);
    CheckSenderConfig(flow->m_lineRate);
    RdmaCongestionOps::Init(flow);
    m_w = m_wMin;
    m_stopped = false;
}

void
RdmaPcn::OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp)
{
    NS_LOG_FUNCTION(this << flow << cnp.congested << cnp.recRate);
    if (m_stopped)
    {
        return;
    }
    const double rate = flow->GetRateBps();
    double next;
    if (cnp.congested)
    {
        const double target = static_cast<double>(cnp.recRate.GetBitRate()) * (1.0 - m_wMin);
        next = std::min(rate, target);
        m_w = m_wMin;
    }
    else
    {
        const double w = m_w;
        const double line = static_cast<double>(flow->m_lineRate.GetBitRate());
        next = rate * (1.0 - w) + line * w;
        m_w = w * (1.0 - w) + m_wMax * w;
    }
    flow->SetRate(DataRate(static_cast<uint64_t>(std::llround(next))), m_minRate);
    NS_LOG_DEBUG("flow " << flow->m_flowId << " CNP congested=" << cnp.congested << " recRate="
                         << cnp.recRate << " -> rate " << flow->m_rate.Get() << " w " << m_w);
}

void
RdmaPcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stopped = true;
    m_rxPeriod.Stop();
}

void
RdmaPcn::InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp)
{
    NS_LOG_FUNCTION(this << rx);
    CheckReceiverConfig();
    RdmaCongestionOps::InitReceiver(rx, sendCnp);
    m_rx = rx;
    m_rxPeriod.Setup(m_period, MakeCallback(&RdmaPcn::PeriodEnd, this));
}

DataRate
RdmaPcn::ComputeRate(uint64_t bytes, Time duration)
{
    if (!duration.IsStrictlyPositive())
    {
        throw std::invalid_argument("RdmaPcn::ComputeRate: duration "
                                    + std::to_string(duration.GetPicoSeconds())
                                    + " ps must be > 0");
    }
    // bits * 10^12 / picoseconds, in 128 bits so that large byte counts cannot overflow.
    __extension__ unsigned __int128 num
        = static_cast<unsigned __int128>(bytes) * 8u * 1000000000000ull;
    __extension__ unsigned __int128 bps
        = num / static_cast<unsigned __int128>(duration.GetPicoSeconds());
    return DataRate(static_cast<uint64_t>(bps));
}

void
RdmaPcn::OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt)
{
    if (m_stopped)
    {
        return;
    }
    if (m_sendCnp.IsNull())
    {
        throw std::logic_error("RdmaPcn::OnDataReceived called before InitReceiver");
    }
    m_rxPeriod.OnPacket(pkt);
}

void
RdmaPcn::PeriodEnd(const RdmaRxPeriod::Counts& counts)
{
    NS_LOG_FUNCTION(this);
    RdmaCnpInfo cnp;
    // ce / pkts >= ratio, with a tolerance of 1e-9 so that 19/20 >= 0.95 holds in doubles.
    cnp.congested = static_cast<double>(counts.cePackets)
                    >= m_congestionRatio * static_cast<double>(counts.packets) - 1e-9;
    // Only the period's first packet can have an inter-arrival time above T.
    const Time d = counts.maxGap > m_period ? counts.maxGap : m_period;
    cnp.recRate = ComputeRate(counts.bytes, d);
    NS_LOG_DEBUG("CNP at " << Simulator::Now().As(Time::US) << ": " << counts.cePackets << "/"
                           << counts.packets << " CE, " << counts.bytes << " B over "
                           << d.As(Time::US) << " -> " << cnp.recRate
                           << (cnp.congested ? " congested" : ""));
    if (m_rx)
    {
        m_rx->m_cnpsSent++;
        m_rx->m_lastCnp = Simulator::Now();
    }
    m_sendCnp(cnp);
}

double
RdmaPcn::GetW() const
{
    return m_w;
}

bool
RdmaPcn::IsReceiverTimerRunning() const
{
    return m_rxPeriod.IsRunning();
}

} // namespace ns3
