/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-dcqcn.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcqcn");
NS_OBJECT_ENSURE_REGISTERED(RdmaDcqcn);

namespace
{
/// --cc=dcqcn; switch queue: RED-ECN marking (the scenario's Kmin, Kmax, Pmax).
const RdmaCcRegistry::Registration g_dcqcnRegistration(
    {"dcqcn",
     &RdmaDcqcn::GetTypeId,
     "DCQCN (Zhu et al., SIGCOMM 2015): rate control from CNPs",
     "ns3::RedEcnQueueDisc",
     nullptr,
     "",
     RdmaDcqcn::GetParameterSets(),
     {"ecn"},
     "",
     "MinRate"});
} // namespace

TypeId
RdmaDcqcn::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaDcqcn")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaDcqcn>()
              .AddAttribute("G",
                            "Alpha gain g: alpha = (1-g) alpha + g on congestion, (1-g) alpha "
                            "per AlphaUpdateInterval without; in (0, 1].",
                            DoubleValue(1.0 / 256),
                            MakeDoubleAccessor(&RdmaDcqcn::m_g),
                            MakeDoubleChecker<double>())
              .AddAttribute("InitialAlpha",
                            "Alpha when the flow starts (and at its first CNP); in [0, 1].",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RdmaDcqcn::m_initialAlpha),
                            MakeDoubleChecker<double>())
              .AddAttribute("AlphaUpdateInterval",
                            "K: alpha period (paper 55 us, CX4 style 1 us); > 0.",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&RdmaDcqcn::m_alphaInterval),
                            MakeTimeChecker())
              .AddAttribute("RateDecreaseInterval",
                            "0: decrease on every CNP (paper). > 0: at most one decrease per "
                            "interval, at periodic ticks, if a CNP arrived (CX4 style, 4 us).",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&RdmaDcqcn::m_decreaseInterval),
                            MakeTimeChecker())
              .AddAttribute(
                  "RateIncreaseInterval",
                  "T: period of the rate-increase timer (paper 55 us, CX4 style 300 us); > 0.",
                  TimeValue(MicroSeconds(55)),
                  MakeTimeAccessor(&RdmaDcqcn::m_increaseInterval),
                  MakeTimeChecker())
              .AddAttribute("ByteCounter",
                            "B: one rate-increase event per B bytes sent; 0 disables the byte "
                            "counter (paper 10 MB = 10^7 bytes, CX4 style 0).",
                            UintegerValue(10000000),
                            MakeUintegerAccessor(&RdmaDcqcn::m_byteCounter),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("FastRecoveryThreshold",
                            "F: number of fast-recovery steps per counter (paper 5, CX4 style 1).",
                            UintegerValue(5),
                            MakeUintegerAccessor(&RdmaDcqcn::m_threshold),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("AdditiveIncrease",
                            "R_AI: target-rate step of additive increase.",
                            DataRateValue(DataRate("40Mb/s")),
                            MakeDataRateAccessor(&RdmaDcqcn::m_rai),
                            MakeDataRateChecker())
              .AddAttribute("HyperIncrease",
                            "R_HAI: target-rate step of hyper increase.",
                            DataRateValue(DataRate("400Mb/s")),
                            MakeDataRateAccessor(&RdmaDcqcn::m_rhai),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "Lowest current and target rate; > 0 and at most the line rate.",
                            DataRateValue(DataRate("100Mb/s")),
                            MakeDataRateAccessor(&RdmaDcqcn::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("ClampTargetRate",
                            "true: RT = RC at every decrease (paper). false: only if an increase "
                            "event happened since the previous decrease (HPCC simulator).",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaDcqcn::m_clampTargetRate),
                            MakeBooleanChecker())
              .AddAttribute("CnpInterval",
                            "Receiver: minimum time between two CNPs of a flow (paper 50 us; "
                            "0 = a CNP for every CE packet).",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaDcqcn::m_cnpInterval),
                            MakeTimeChecker())
              .AddTraceSource("Alpha",
                              "DCQCN alpha (updated when it is read: at CNPs, decrease and "
                              "increase events)",
                              MakeTraceSourceAccessor(&RdmaDcqcn::m_alpha),
                              "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaDcqcn::RdmaDcqcn()
{
    NS_LOG_FUNCTION(this);
}

RdmaDcqcn::~RdmaDcqcn()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaDcqcn::GetName() const
{
    return "dcqcn";
}

void
RdmaDcqcn::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
    m_flow = nullptr;
    m_sendCnp = SendCnpCallback();
    RdmaCongestionOps::DoDispose();
}

void
RdmaDcqcn::CheckConfig(DataRate lineRate) const
{
    auto fail = [](const std::string& what)
    {
        throw std::invalid_argument("RdmaDcqcn: " + what);
    };
    std::ostringstream os;
    if (lineRate.GetBitRate() == 0)
    {
        fail("the flow's line rate is 0 b/s");
    }
    if (!(m_g > 0.0 && m_g <= 1.0))
    {
        os << "attribute ns3::RdmaDcqcn::G = " << m_g << " must be in (0, 1]";
        fail(os.str());
    }
    if (!(m_initialAlpha >= 0.0 && m_initialAlpha <= 1.0))
    {
        os << "attribute ns3::RdmaDcqcn::InitialAlpha = " << m_initialAlpha << " must be in [0, 1]";
        fail(os.str());
    }
    if (!m_alphaInterval.IsStrictlyPositive())
    {
        os << "attribute ns3::RdmaDcqcn::AlphaUpdateInterval = " << m_alphaInterval.As(Time::US)
           << " must be > 0";
        fail(os.str());
    }
    if (!m_increaseInterval.IsStrictlyPositive())
    {
        os << "attribute ns3::RdmaDcqcn::RateIncreaseInterval = " << m_increaseInterval.As(Time::US)
           << " must be > 0";
        fail(os.str());
    }
    if (m_decreaseInterval.IsStrictlyNegative())
    {
        os << "attribute ns3::RdmaDcqcn::RateDecreaseInterval = " << m_decreaseInterval.As(Time::US)
           << " must be >= 0";
        fail(os.str());
    }
    if (m_cnpInterval.IsStrictlyNegative())
    {
        os << "attribute ns3::RdmaDcqcn::CnpInterval = " << m_cnpInterval.As(Time::US)
           << " must be >= 0";
        fail(os.str());
    }
    if (m_minRate.GetBitRate() == 0 || m_minRate > lineRate)
    {
        os << "attribute ns3::RdmaDcqcn::MinRate = " << m_minRate
           << " must be > 0 and <= the line rate " << lineRate;
        fail(os.str());
    }
}

bool
RdmaDcqcn::IsCx4Mode() const
{
    return m_decreaseInterval.IsStrictlyPositive();
}

void
RdmaDcqcn::Init(Ptr<RdmaFlowState> flow)
{
    NS_LOG_FUNCTION(this << flow);
    CheckConfig(flow->m_lineRate);
    RdmaCongestionOps::Init(flow);
    m_flow = flow;
    m_alpha = m_initialAlpha;
    m_alphaClock = false;
    m_alphaCnpInPeriod = false;
    m_decreasePending = false;
    m_seenCnp = false;
    m_recovering = false;
    m_stopped = false;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_decreases = 0;
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
}

double
RdmaDcqcn::AlphaAt(Time now) const
{
    if (!m_alphaClock)
    {
        return m_alpha;
    }
    int64_t n = (now - m_alphaStamp).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (n <= 0)
    {
        return m_alpha;
    }
    const double keep = 1.0 - m_g;
    // End of the current period: congestion in it (CX4 mode only) or not.
    double a = m_alphaCnpInPeriod ? keep * m_alpha + m_g : keep * m_alpha;
    // The other n-1 periods had no CNP (a CNP would have brought alpha up to date).
    // Multiply one by one, as a periodic timer would, for a short gap; pow() for a long one.
    int64_t rest = n - 1;
    if (rest <= 64)
    {
        for (int64_t i = 0; i < rest; ++i)
        {
            a *= keep;
        }
    }
    else
    {
        a *= std::pow(keep, static_cast<double>(rest));
    }
    return a;
}

void
RdmaDcqcn::UpdateAlpha()
{
    if (!m_alphaClock)
    {
        return;
    }
    Time now = Simulator::Now();
    int64_t n = (now - m_alphaStamp).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (n <= 0)
    {
        return;
    }
    m_alpha = AlphaAt(now);
    m_alphaStamp += TimeStep(n * m_alphaInterval.GetTimeStep());
    m_alphaCnpInPeriod = false;
}

double
RdmaDcqcn::GetAlpha() const
{
    return AlphaAt(Simulator::Now());
}

uint32_t
RdmaDcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
RdmaDcqcn::GetByteStage() const
{
    return m_byteStage;
}

uint64_t
RdmaDcqcn::GetDecreaseCount() const
{
    return m_decreases;
}

void
RdmaDcqcn::OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp)
{
    NS_LOG_FUNCTION(this << flow << cnp.congested);
    NS_ABORT_MSG_IF(!m_flow, "RdmaDcqcn::OnCnp called before Init");
    if (m_stopped || !cnp.congested)
    {
        return;
    }
    Time now = Simulator::Now();
    bool first = !m_seenCnp;
    m_seenCnp = true;
    if (!IsCx4Mode())
    {
        // Paper: decrease now with the current alpha, then raise alpha and restart its period.
        UpdateAlpha();
        double a = m_alpha;
        DecreaseRate();
        m_alpha = (1.0 - m_g) * a + m_g;
        m_alphaStamp = now;
        m_alphaClock = true;
        m_alphaCnpInPeriod = false;
        return;
    }
    // CX4 mode (HPCC simulator's cnp_received_mlx).
    if (first)
    {
        // Start both clocks; the first CNP does not count as congestion in the alpha period.
        m_alphaClock = true;
        m_alphaStamp = now;
        m_alphaCnpInPeriod = false;
        m_decreaseAnchor = now;
    }
    else
    {
        UpdateAlpha();
        m_alphaCnpInPeriod = true;
    }
    m_decreasePending = true;
    if (m_decreaseEvent.IsExpired())
    {
        int64_t step = m_decreaseInterval.GetTimeStep();
        int64_t n = (now - m_decreaseAnchor).GetTimeStep() / step;
        Time next = m_decreaseAnchor + TimeStep((n + 1) * step);
        m_decreaseEvent = Simulator::Schedule(next - now, &RdmaDcqcn::DecreaseTick, this);
    }
}

void
RdmaDcqcn::DecreaseTick()
{
    NS_LOG_FUNCTION(this);
    // An alpha period ending at this instant is applied first (the simulator's +1 ns).
    UpdateAlpha();
    if (m_decreasePending)
    {
        m_decreasePending = false;
        DecreaseRate();
    }
}

void
RdmaDcqcn::DecreaseRate()
{
    uint64_t rc = m_flow->m_rate.Get().GetBitRate();
    uint64_t rt = m_flow->m_targetRate.Get().GetBitRate();
    uint64_t minBps = m_minRate.GetBitRate();
    if (m_clampTargetRate || m_timerStage != 0 || m_byteStage != 0)
    {
        rt = rc;
    }
    double a = m_alpha;
    auto newRc = static_cast<uint64_t>(std::llround(static_cast<double>(rc) * (1.0 - a / 2.0)));
    m_flow->m_targetRate = DataRate(std::max(rt, minBps));
    m_flow->SetRate(DataRate(newRc), m_minRate);
    NS_LOG_DEBUG("flow " << m_flow->m_flowId << " decrease alpha " << a << " RT "
                         << m_flow->m_targetRate.Get() << " RC " << m_flow->m_rate.Get());
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    ++m_decreases;
    m_recovering = true;
    StartIncreaseTimer();
}

void
RdmaDcqcn::ApplyExternalRate(DataRate rate, bool setTarget)
{
    NS_ABORT_MSG_IF(!m_flow, "RdmaDcqcn::ApplyExternalRate called before Init");
    if (m_stopped)
    {
        return;
    }
    m_flow->SetRate(rate, m_minRate);
    if (setTarget)
    {
        m_flow->m_targetRate = m_flow->m_rate.Get();
    }
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesCounted = 0;
    m_recovering = true;
    StartIncreaseTimer();
}

DataRate
RdmaDcqcn::GetMinRate() const
{
    return m_minRate;
}

double
RdmaDcqcn::GetG() const
{
    return m_g;
}

void
RdmaDcqcn::SetAlpha(double alpha)
{
    NS_ABORT_MSG_IF(m_alphaClock, "RdmaDcqcn::SetAlpha while DCQCN's alpha clock runs");
    m_alpha = alpha;
}

void
RdmaDcqcn::StartIncreaseTimer()
{
    m_increaseEvent.Cancel();
    m_increaseEvent
        = Simulator::Schedule(m_increaseInterval, &RdmaDcqcn::IncreaseTimerExpired, this);
}

void
RdmaDcqcn::IncreaseTimerExpired()
{
    NS_LOG_FUNCTION(this);
    m_increaseEvent
        = Simulator::Schedule(m_increaseInterval, &RdmaDcqcn::IncreaseTimerExpired, this);
    IncreaseEvent(true);
}

void
RdmaDcqcn::IncreaseEvent(bool fromTimer)
{
    UpdateAlpha(); // keeps the Alpha trace current while the flow recovers
    const uint32_t t = m_timerStage;
    const uint32_t b = m_byteStage;
    const uint32_t f = m_threshold;
    uint64_t increase = 0; // bit/s added to RT
    if (m_byteCounter == 0)
    {
        // Timer only, as the HPCC simulator's RateIncEventMlx.
        if (t == f)
        {
            increase = m_rai.GetBitRate();
        }
        else if (t > f)
        {
            increase = m_rhai.GetBitRate();
        }
    }
    else
    {
        uint32_t hi = std::max(t, b);
        uint32_t lo = std::min(t, b);
        if (hi >= f && lo < f)
        {
            increase = m_rai.GetBitRate();
        }
        else if (lo >= f)
        {
            increase = static_cast<uint64_t>(lo - f + 1) * m_rhai.GetBitRate();
        }
    }
    const uint64_t line = m_flow->m_lineRate.GetBitRate();
    const uint64_t minBps = m_minRate.GetBitRate();
    uint64_t rt = m_flow->m_targetRate.Get().GetBitRate();
    uint64_t rc = m_flow->m_rate.Get().GetBitRate();
    rt = std::max(std::min(rt + increase, line), minBps);
    rc = (rt + rc + 1) / 2; // (RT + RC) / 2 rounded to nearest, halves up
    m_flow->m_targetRate = DataRate(rt);
    m_flow->SetRate(DataRate(rc), m_minRate);
    if (fromTimer)
    {
        ++m_timerStage;
    }
    else
    {
        ++m_byteStage;
    }
    NS_LOG_DEBUG("flow " << m_flow->m_flowId << (fromTimer ? " timer" : " bytes") << " increase t "
                         << t << " b " << b << " RT " << rt << " RC " << rc);
    StopIncreaseIfAtLineRate();
}

void
RdmaDcqcn::StopIncreaseIfAtLineRate()
{
    const DataRate line = m_flow->m_lineRate;
    if (m_flow->m_rate.Get() == line && m_flow->m_targetRate.Get() == line)
    {
        m_recovering = false;
        m_bytesCounted = 0;
        m_increaseEvent.Cancel();
    }
}

void
RdmaDcqcn::OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes)
{
    if (m_stopped || !m_recovering || m_byteCounter == 0)
    {
        return;
    }
    m_bytesCounted += bytes;
    while (m_recovering && m_bytesCounted >= m_byteCounter)
    {
        m_bytesCounted -= m_byteCounter;
        IncreaseEvent(false);
    }
}

void
RdmaDcqcn::Stop()
{
    NS_LOG_FUNCTION(this);
    m_stopped = true;
    m_recovering = false;
    m_decreasePending = false;
    m_increaseEvent.Cancel();
    m_decreaseEvent.Cancel();
}

void
RdmaDcqcn::OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt)
{
    if (!pkt.ce)
    {
        return;
    }
    Time now = Simulator::Now();
    if (rx->m_lastCnp == Time::Max() || now - rx->m_lastCnp >= m_cnpInterval)
    {
        NS_ABORT_MSG_IF(m_sendCnp.IsNull(), "RdmaDcqcn::OnDataReceived called before InitReceiver");
        rx->m_lastCnp = now;
        rx->m_cnpsSent++;
        NS_LOG_DEBUG("flow " << rx->m_flowId << " CNP at " << now.As(Time::US));
        m_sendCnp(RdmaCnpInfo{true, DataRate(uint64_t(0))});
    }
}

std::vector<RdmaCcParameterSet::Value>
RdmaDcqcn::GetParameterSet(const std::string& name, DataRate lineRate)
{
    NS_LOG_FUNCTION(name << lineRate);
    if (name == "hpcc-sim")
    {
        std::vector<RdmaCcParameterSet::Value> v = GetParameterSet("cx4", lineRate);
        for (auto& [attribute, value] : v)
        {
            if (attribute == "MinRate")
            {
                value = "1Gbps";
            }
        }
        return v;
    }
    if (name != "paper" && name != "cx4")
    {
        throw std::invalid_argument("unknown DCQCN parameter set '" + name
                                    + "' (known: paper, cx4, hpcc-sim)");
    }
    if (lineRate.GetBitRate() == 0)
    {
        throw std::invalid_argument("DCQCN parameter set '" + name
                                    + "': line rate 0 b/s is not valid");
    }
    std::vector<RdmaCcParameterSet::Value> v{{"G", "0.00390625"}, // 1/256, exact
                                             {"InitialAlpha", "1"},
                                             {"MinRate", "100Mb/s"}};
    if (name == "paper")
    {
        v.insert(v.end(),
                 {{"AlphaUpdateInterval", "55us"},
                  {"RateDecreaseInterval", "0s"},
                  {"RateIncreaseInterval", "55us"},
                  {"ByteCounter", "10000000"},
                  {"FastRecoveryThreshold", "5"},
                  {"AdditiveIncrease", "40Mb/s"},
                  {"HyperIncrease", "400Mb/s"},
                  {"ClampTargetRate", "true"},
                  {"CnpInterval", "50us"}});
    }
    else
    {
        // R_AI = 5 Mb/s x (line Gb/s / 25) = line / 5000; R_HAI = 10 R_AI = line / 500.
        double bps = static_cast<double>(lineRate.GetBitRate());
        auto rai = static_cast<uint64_t>(std::llround(bps / 5000.0));
        auto rhai = static_cast<uint64_t>(std::llround(bps / 500.0));
        v.insert(v.end(),
                 {{"AlphaUpdateInterval", "1us"},
                  {"RateDecreaseInterval", "4us"},
                  {"RateIncreaseInterval", "300us"},
                  {"ByteCounter", "0"},
                  {"FastRecoveryThreshold", "1"},
                  {"AdditiveIncrease", std::to_string(rai) + "bps"},
                  {"HyperIncrease", std::to_string(rhai) + "bps"},
                  {"ClampTargetRate", "false"},
                  {"CnpInterval", "0s"}});
    }
    return v;
}

std::vector<RdmaCcParameterSet>
RdmaDcqcn::GetParameterSets()
{
    return {{"paper",
             "the DCQCN paper (Zhu et al., SIGCOMM 2015): K = T = 55 us, B = 10 MB, F = 5, "
             "R_AI 40 Mb/s, R_HAI 400 Mb/s, a CNP at most every 50 us",
             [](DataRate rate)
             {
                 return GetParameterSet("paper", rate);
             }},
            {"cx4",
             "Mellanox ConnectX-4 as the HPCC simulator runs it: K 1 us, decrease every 4 us, "
             "T 300 us, no byte counter, F 1, R_AI = line / 5000, a CNP per CE packet",
             [](DataRate rate)
             {
                 return GetParameterSet("cx4", rate);
             }},
            {"hpcc-sim",
             "as the HPCC simulator's run.py runs it: \"cx4\" with a 1 Gb/s floor (MinRate)",
             [](DataRate rate)
             {
                 return GetParameterSet("hpcc-sim", rate);
             }}};
}

} // namespace ns3
