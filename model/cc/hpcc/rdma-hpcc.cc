/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-hpcc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHpcc");
NS_OBJECT_ENSURE_REGISTERED(RdmaHpcc);

namespace
{
/// --cc=hpcc; switch queue: a plain FIFO without ECN (INT is appended by every switch port).
const RdmaCcRegistry::Registration g_hpccRegistration(
    {"hpcc",
     &RdmaHpcc::GetTypeId,
     "HPCC (Li et al., SIGCOMM 2019): INT-based window, target utilization eta",
     "ns3::RdmaEgressQueueDisc",
     nullptr,
     "",
     {{"hpcc-sim",
       "as the HPCC simulator's run.py runs it: mi = 0 (MaxStage), a 1 Gb/s floor; the rest are "
       "the attribute defaults (eta 0.95, RateAi = line / 2500)",
       [](DataRate)
       {
           return std::vector<RdmaCcParameterSet::Value>{{"MaxStage", "0"}, {"MinRate", "1Gbps"}};
       }}},
     {},
     "BaseRtt",
     "MinRate"});

/// RateAi = 0: the line rate / 2500, the HPCC simulator's run.py (10 Mb/s per 25 Gb/s).
constexpr uint64_t RATE_AI_DIVISOR = 2500;

} // namespace

TypeId
RdmaHpcc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaHpcc")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaHpcc>()
              .AddAttribute("Eta",
                            "Target utilization eta, in (0, 1] (HPCC paper Section 3.3 and the "
                            "HPCC simulator's run.py u_target: 0.95)",
                            DoubleValue(0.95),
                            MakeDoubleAccessor(&RdmaHpcc::m_eta),
                            MakeDoubleChecker<double>())
              .AddAttribute("MaxStage",
                            "Additive-increase steps (once per RTT) before a multiplicative "
                            "update is forced (HPCC paper Section 3.3: 5; the HPCC simulator's "
                            "run.py default mi = 0)",
                            UintegerValue(5),
                            MakeUintegerAccessor(&RdmaHpcc::m_maxStage),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("RateAi",
                            "Additive increase as a rate: W_AI = RateAi x T. 0 = the line rate / "
                            "2500 (the HPCC simulator's run.py: 10 Mb/s per 25 Gb/s, 40 Mb/s at "
                            "100 Gb/s)",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&RdmaHpcc::m_rateAi),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Smallest rate, > 0; the window is at least MinRate x T (the HPCC "
                            "simulator's RdmaHw::MinRate: 100 Mb/s; its run.py sets 1 Gb/s)",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&RdmaHpcc::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("BaseRtt",
                            "T, the base RTT of the window and of the EWMA; 0 = the flow's own "
                            "base RTT (the HPCC simulator's run.py uses one T for all flows, the "
                            "largest base RTT: set it here)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&RdmaHpcc::m_baseRttAttr),
                            MakeTimeChecker())
              .AddAttribute("PerAckUpdate",
                            "React to every ACK (W from W_c; W_c and incStage once per RTT), as "
                            "the paper's Algorithm 1 and the HPCC simulator's FastReact (run.py: "
                            "on); false = only the once-per-RTT updates",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaHpcc::m_perAck),
                            MakeBooleanChecker())
              .AddTraceSource("U",
                              "U, the EWMA of the largest normalized inflight bytes on the path",
                              MakeTraceSourceAccessor(&RdmaHpcc::m_u),
                              "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaHpcc::RdmaHpcc()
{
    NS_LOG_FUNCTION(this);
}

RdmaHpcc::~RdmaHpcc() {}

std::string
RdmaHpcc::GetName() const
{
    return "hpcc";
}

bool
RdmaHpcc::WantsHopRecords() const
{
    return true;
}

double
RdmaHpcc::GetU() const
{
    return m_u;
}

double
RdmaHpcc::GetWindow() const
{
    return m_w;
}

double
RdmaHpcc::GetReferenceWindow() const
{
    return m_wc;
}

uint32_t
RdmaHpcc::GetIncStage() const
{
    return m_incStage;
}

double
RdmaHpcc::GetWindowAi() const
{
    return m_wAi;
}

Time
RdmaHpcc::GetBaseRtt() const
{
    return Seconds(m_t);
}

void
RdmaHpcc::Init(Ptr<RdmaFlowState> flow)
{
    if (!(m_eta > 0 && m_eta <= 1))
    {
        RejectAttribute(GetTypeId(), "Eta", std::to_string(m_eta), "in (0, 1]");
    }
    if (m_minRate.GetBitRate() == 0)
    {
        RejectAttribute(GetTypeId(), "MinRate", "0 b/s", "> 0");
    }
    if (m_baseRttAttr.IsStrictlyNegative())
    {
        RejectAttribute(GetTypeId(),
                        "BaseRtt",
                        std::to_string(m_baseRttAttr.GetNanoSeconds()) + " ns",
                        ">= 0 (0: the flow's base RTT)");
    }
    RdmaCongestionOps::Init(flow); // rate = the start rate
    const DataRate start = flow->m_rate;
    if (m_minRate > start)
    {
        RejectAttribute(GetTypeId(),
                        "MinRate",
                        std::to_string(m_minRate.GetBitRate()) + " b/s",
                        "at most the flow's start rate (" + std::to_string(start.GetBitRate())
                            + " b/s)");
    }
    Time t = m_baseRttAttr.IsStrictlyPositive() ? m_baseRttAttr : flow->m_baseRtt;
    if (!t.IsStrictlyPositive())
    {
        throw std::invalid_argument("RdmaHpcc: flow " + std::to_string(flow->m_flowId)
                                    + " has no base RTT (0): HPCC needs T > 0 (set "
                                      "ns3::RdmaHpcc::BaseRtt or the flow's base RTT)");
    }
    m_t = t.GetSeconds();
    auto bytesPerT = [this](uint64_t bps)
    {
        // rate x T in bytes, to a millionth of a byte (1e-5 s is not exact in binary)
        return std::round(bps * m_t / 8 * 1e6) / 1e6;
    };
    uint64_t ai = m_rateAi.GetBitRate() ? m_rateAi.GetBitRate()
                                        : flow->m_lineRate.GetBitRate() / RATE_AI_DIVISOR;
    m_wAi = bytesPerT(ai);
    m_minW = bytesPerT(m_minRate.GetBitRate());
    m_maxW = bytesPerT(start.GetBitRate());
    m_u = 1;
    m_w = m_maxW;
    m_wc = m_maxW;
    m_incStage = 0;
    m_lastUpdateSeq = 0;
    m_hops.Clear();
    m_hopsAt = Time(0);
    Apply(flow);
    NS_LOG_DEBUG("flow " << flow->m_flowId << " T " << m_t << " s, W " << m_w << " B, W_AI "
                         << m_wAi << " B");
}

bool
RdmaHpcc::MeasureInflight(const IntHeader& hops)
{
    double u = 0;
    double tau = 0;
    bool measured = false;
    for (uint32_t i = 0; i < hops.GetNHops(); ++i)
    {
        const IntHop& now = hops.GetHop(i);
        const IntHop& before = m_hops.GetHop(i);
        const double b = static_cast<double>(now.GetLineRateBps());
        const uint64_t dtNs = now.GetTimeDeltaNs(before);
        if (b <= 0 || dtNs == 0)
        {
            continue; // no rate, or the same departure: nothing to measure at this hop
        }
        measured = true;
        const double dt = dtNs * 1e-9;
        const double txRate = now.GetBytesDelta(before) * 8.0 / dt;
        const double qlen
            = static_cast<double>(std::min(now.GetQlenBytes(), before.GetQlenBytes()));
        const double ui = qlen * 8.0 / (b * m_t) + txRate / b;
        if (ui > u)
        {
            u = ui;
            tau = dt;
        }
    }
    if (!measured)
    {
        return false; // as the simulator's updated_any: U, W and W_c stay
    }
    tau = std::min(tau, m_t);
    m_u = (m_u.Get() * (m_t - tau) + u * tau) / m_t;
    return true;
}

bool
RdmaHpcc::IsStale(const IntHeader& hops) const
{
    // The fields wrap: time after 2^24 ns, bytes after 2^20 x 128 B at the hop's rate. Records
    // older than half of the shortest period (the ACKs' own delays differ by far less) are no
    // reference: their differences could have wrapped.
    double period = (uint64_t{1} << IntHop::TIME_BITS) * 1e-9;
    for (uint32_t i = 0; i < hops.GetNHops(); ++i)
    {
        const double b = static_cast<double>(hops.GetHop(i).GetLineRateBps());
        if (b > 0)
        {
            period = std::min(period,
                              (uint64_t{1} << IntHop::BYTES_BITS) * IntHop::BYTES_UNIT * 8.0 / b);
        }
    }
    return (Simulator::Now() - m_hopsAt).GetSeconds() >= period / 2;
}

double
RdmaHpcc::ComputeWind(bool updateWc)
{
    const double u = m_u.Get();
    double w;
    if (u >= m_eta || m_incStage >= m_maxStage)
    {
        // U = 0 (an idle path) with MaxStage 0: no bound from the path, the largest window.
        w = u > 0 ? m_wc / (u / m_eta) + m_wAi : m_maxW;
        if (updateWc)
        {
            m_incStage = 0;
        }
    }
    else
    {
        w = m_wc + m_wAi;
        if (updateWc)
        {
            m_incStage++;
        }
    }
    w = std::clamp(w, m_minW, m_maxW);
    if (updateWc)
    {
        m_wc = w;
    }
    return w;
}

void
RdmaHpcc::Apply(Ptr<RdmaFlowState> flow)
{
    flow->m_cwnd = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(m_w)));
    flow->m_rate = DataRate(static_cast<uint64_t>(std::llround(m_w * 8 / m_t)));
}

void
RdmaHpcc::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    if (ack.hops.GetNHops() == 0)
    {
        return; // no records (e.g. the bytes a NAK acknowledges)
    }
    if (ack.hops.GetNHops() != m_hops.GetNHops() || IsStale(ack.hops))
    {
        // The first records, those of another path, or records so much newer that the fields
        // may have wrapped: only a reference for the next ACK.
        m_hops = ack.hops;
        m_hopsAt = Simulator::Now();
        m_lastUpdateSeq = flow->m_sndNxt;
        return;
    }
    const bool update = ack.ackedOffset > m_lastUpdateSeq;
    if (!update && !m_perAck)
    {
        return;
    }
    const bool measured = MeasureInflight(ack.hops);
    m_hops = ack.hops;
    m_hopsAt = Simulator::Now();
    if (!measured)
    {
        return;
    }
    m_w = ComputeWind(update);
    if (update)
    {
        m_lastUpdateSeq = flow->m_sndNxt;
    }
    Apply(flow);
    NS_LOG_DEBUG("flow " << flow->m_flowId << (update ? " update" : " per-ACK") << " U " << m_u
                         << " W " << m_w << " W_c " << m_wc << " stage " << m_incStage);
}

} // namespace ns3
