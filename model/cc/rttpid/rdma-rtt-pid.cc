/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-rtt-pid.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/string.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRttPid");
NS_OBJECT_ENSURE_REGISTERED(RdmaRttPid);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaRttPid::SampleTracedCallback);

namespace
{
/// --cc=rttpid; switch queue: RED-ECN (its marks are not read: the PID reacts to the RTT).
const RdmaCcRegistry::Registration g_rttPidRegistration(
    {"rttpid",
     &RdmaRttPid::GetTypeId,
     "RTT-based PID rate control with an LSTM RTT predictor (the RTT-PID thesis, LSTM + PIDNN)",
     "ns3::RedEcnQueueDisc",
     nullptr,
     "",
     {{"tuned",
       "the RTT-PID thesis's trained gains [-0.358, -0.060, 0.040], fixed (its incast runs)",
       [](DataRate)
       {
           return std::vector<RdmaCcParameterSet::Value>{
               {"Kp", "-0.358"}, {"Ki", "-0.06"}, {"Kd", "0.04"}, {"GainTuning", "false"}};
       }},
      {"initial",
       "the attribute defaults: the thesis's initial gains, tuned online",
       [](DataRate)
       {
           return std::vector<RdmaCcParameterSet::Value>{};
       }}},
     {},
     "",
     "MinRate"});

/// A double as text for error messages.
std::string
Num(double v)
{
    std::ostringstream ss;
    ss << v;
    return ss.str();
}
} // namespace

TypeId
RdmaRttPid::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaRttPid")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaRttPid>()
              .AddAttribute("Sigma",
                            "EWMA weight sigma of S_t = sigma R_t + (1 - sigma) S_{t-1}, in (0, 1] "
                            "(RTT-PID thesis, eq. 2: 0.2)",
                            DoubleValue(0.2),
                            MakeDoubleAccessor(&RdmaRttPid::m_sigma),
                            MakeDoubleChecker<double>())
              .AddAttribute("Target",
                            "RTT target rtt_target, > 0 (RTT-PID thesis, 3.5.1 and 4.2.3: 5 us)",
                            TimeValue(MicroSeconds(5)),
                            MakeTimeAccessor(&RdmaRttPid::m_target),
                            MakeTimeChecker())
              .AddAttribute("Kp",
                            "Initial proportional gain (RTT-PID thesis, 3.5.3: -0.2; tuned: "
                            "-0.358)",
                            DoubleValue(-0.2),
                            MakeDoubleAccessor(&RdmaRttPid::m_kp0),
                            MakeDoubleChecker<double>())
              .AddAttribute("Ki",
                            "Initial integral gain on mean(e) (RTT-PID thesis, 3.5.3: -0.05; "
                            "tuned: -0.060)",
                            DoubleValue(-0.05),
                            MakeDoubleAccessor(&RdmaRttPid::m_ki0),
                            MakeDoubleChecker<double>())
              .AddAttribute("Kd",
                            "Initial derivative gain on e_t - e_{t-1} (RTT-PID thesis, 3.5.3: "
                            "0.1; tuned: 0.040)",
                            DoubleValue(0.1),
                            MakeDoubleAccessor(&RdmaRttPid::m_kd0),
                            MakeDoubleChecker<double>())
              .AddAttribute("DeltaMin",
                            "Lower clamp of the PID output d, in (-1, 0] (RTT-PID thesis, eq. 20: "
                            "-0.6)",
                            DoubleValue(-0.6),
                            MakeDoubleAccessor(&RdmaRttPid::m_deltaMin),
                            MakeDoubleChecker<double>())
              .AddAttribute("DeltaMax",
                            "Upper clamp of the PID output d, >= 0 (RTT-PID thesis, eq. 20: 0.5; "
                            "its table 3 writes 0.6)",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&RdmaRttPid::m_deltaMax),
                            MakeDoubleChecker<double>())
              .AddAttribute("MinRate",
                            "Lowest rate, > 0 and <= the line rate (RTT-PID thesis, 4.1.2: 1 Gb/s)",
                            DataRateValue(DataRate("1Gbps")),
                            MakeDataRateAccessor(&RdmaRttPid::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("MaxRate",
                            "Highest rate; 0 = the line rate (RTT-PID thesis, 4.1.2: 100 Gb/s, its "
                            "line rate)",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&RdmaRttPid::m_maxRate),
                            MakeDataRateChecker())
              .AddAttribute("InitialRate",
                            "Rate at the flow's start, >= MinRate (above MaxRate: MaxRate); 0 = "
                            "the flow's start rate (RTT-PID thesis, 4.1.2: 10 Gb/s)",
                            DataRateValue(DataRate("10Gbps")),
                            MakeDataRateAccessor(&RdmaRttPid::m_initialRate),
                            MakeDataRateChecker())
              .AddAttribute("IntegralWindow",
                            "mean(e) of the integral term over the last this many samples; 0 = "
                            "over all samples of the flow (RTT-PID thesis, eq. 17: long-time "
                            "average)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RdmaRttPid::m_integralWindow),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("GainTuning",
                            "Tune Kp, Ki, Kd online by gradient descent (RTT-PID thesis, "
                            "3.5.2-3.5.3)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaRttPid::m_tuning),
                            MakeBooleanChecker())
              .AddAttribute("LearningRate",
                            "mu_0 of the tuning step mu(n) = mu_0 / sqrt(n + 1), >= 0 (RTT-PID "
                            "thesis, eq. 26: 0.01)",
                            DoubleValue(0.01),
                            MakeDoubleAccessor(&RdmaRttPid::m_learningRate),
                            MakeDoubleChecker<double>())
              .AddAttribute("GradientClip",
                            "Each gain's gradient is clipped to [-this, this], > 0 (RTT-PID "
                            "thesis, 3.5.2: 0.1)",
                            DoubleValue(0.1),
                            MakeDoubleAccessor(&RdmaRttPid::m_gradClip),
                            MakeDoubleChecker<double>())
              .AddAttribute("Beta",
                            "Constant standing for drtt/drate in the gradient, > 0, in us of "
                            "RTT per Gb/s of rate (the gradient multiplies the RTT error in us by "
                            "the rate in Gb/s; RTT-PID thesis, 3.5.2: a constant close to 1)",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&RdmaRttPid::m_beta),
                            MakeDoubleChecker<double>())
              .AddAttribute("TargetAdaptation",
                            "Move the target to the mean of the flow's samples after more than "
                            "TargetAdaptCount consecutive samples on one side (RTT-PID thesis, "
                            "3.5.4; off in its incast runs)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaRttPid::m_adaptTarget),
                            MakeBooleanChecker())
              .AddAttribute("TargetAdaptCount",
                            "Consecutive same-side samples that trigger the adaptation, >= 1 "
                            "(RTT-PID thesis, table 2: RTTch num 6)",
                            UintegerValue(6),
                            MakeUintegerAccessor(&RdmaRttPid::m_adaptCount),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("WindowCap",
                            "Also cap the bytes in flight to rate x base RTT, as HPCC does "
                            "(RTT-PID thesis, 4.4.2 PIDNN+RTTch+WIN; off in its incast runs)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaRttPid::m_windowCap),
                            MakeBooleanChecker())
              .AddAttribute("PredictorFile",
                            "LSTM weight file (see LstmPredictor; data/rtt-predictor/); empty = "
                            "no predictor: the PID runs on the measured RTT",
                            StringValue(""),
                            MakeStringAccessor(&RdmaRttPid::m_predictorFile),
                            MakeStringChecker())
              .AddTraceSource("Sample",
                              "A per-RTT sample: measured RTT, RTT used by the PID, new rate",
                              MakeTraceSourceAccessor(&RdmaRttPid::m_sampleTrace),
                              "ns3::RdmaRttPid::SampleTracedCallback");
    return tid;
}

RdmaRttPid::RdmaRttPid()
{
    NS_LOG_FUNCTION(this);
}

RdmaRttPid::~RdmaRttPid() {}

std::string
RdmaRttPid::GetName() const
{
    return "rttpid";
}

bool
RdmaRttPid::WantsRttSamples() const
{
    return true;
}

void
RdmaRttPid::Validate(Ptr<RdmaFlowState> flow) const
{
    if (!(m_sigma > 0 && m_sigma <= 1))
    {
        RejectAttribute(GetTypeId(), "Sigma", Num(m_sigma), "in (0, 1]");
    }
    if (!m_target.IsStrictlyPositive())
    {
        RejectAttribute(GetTypeId(), "Target", Num(m_target.GetSeconds() * 1e6) + " us", "> 0");
    }
    for (auto [name, v] : {std::pair<const char*, double>{"Kp", m_kp0},
                           std::pair<const char*, double>{"Ki", m_ki0},
                           std::pair<const char*, double>{"Kd", m_kd0}})
    {
        if (!std::isfinite(v))
        {
            RejectAttribute(GetTypeId(), name, Num(v), "finite");
        }
    }
    if (!(m_deltaMin > -1 && m_deltaMin <= 0))
    {
        RejectAttribute(GetTypeId(), "DeltaMin", Num(m_deltaMin), "in (-1, 0]");
    }
    if (!(m_deltaMax >= 0 && std::isfinite(m_deltaMax)))
    {
        RejectAttribute(GetTypeId(), "DeltaMax", Num(m_deltaMax), ">= 0");
    }
    const uint64_t line = flow->m_lineRate.GetBitRate();
    const uint64_t maxRate = m_maxRate.GetBitRate() ? m_maxRate.GetBitRate() : line;
    if (maxRate > line)
    {
        RejectAttribute(GetTypeId(),
                        "MaxRate",
                        std::to_string(m_maxRate.GetBitRate()) + " b/s",
                        "<= the line rate " + std::to_string(line) + " b/s");
    }
    if (m_minRate.GetBitRate() == 0 || m_minRate.GetBitRate() > maxRate)
    {
        RejectAttribute(GetTypeId(),
                        "MinRate",
                        std::to_string(m_minRate.GetBitRate()) + " b/s",
                        "> 0 and <= MaxRate (" + std::to_string(maxRate) + " b/s)");
    }
    if (m_initialRate.GetBitRate() != 0 && m_initialRate < m_minRate)
    {
        RejectAttribute(GetTypeId(),
                        "InitialRate",
                        std::to_string(m_initialRate.GetBitRate()) + " b/s",
                        "0 or >= MinRate (" + std::to_string(m_minRate.GetBitRate()) + " b/s)");
    }
    if (!(m_learningRate >= 0 && std::isfinite(m_learningRate)))
    {
        RejectAttribute(GetTypeId(), "LearningRate", Num(m_learningRate), ">= 0");
    }
    if (!(m_gradClip > 0 && std::isfinite(m_gradClip)))
    {
        RejectAttribute(GetTypeId(), "GradientClip", Num(m_gradClip), "> 0");
    }
    if (!(m_beta > 0 && std::isfinite(m_beta)))
    {
        RejectAttribute(GetTypeId(), "Beta", Num(m_beta), "> 0");
    }
    if (m_adaptCount == 0)
    {
        RejectAttribute(GetTypeId(), "TargetAdaptCount", "0", ">= 1");
    }
}

void
RdmaRttPid::Init(Ptr<RdmaFlowState> flow)
{
    Validate(flow);
    RdmaCongestionOps::Init(flow);
    m_maxRateBps = static_cast<double>(m_maxRate.GetBitRate() ? m_maxRate.GetBitRate()
                                                              : flow->m_lineRate.GetBitRate());
    // The start rate within [MinRate, MaxRate] (10 Gb/s on a slower link: the line rate).
    double start = m_initialRate.GetBitRate() != 0 ? static_cast<double>(m_initialRate.GetBitRate())
                                                   : flow->GetRateBps();
    start = std::clamp(start, static_cast<double>(m_minRate.GetBitRate()), m_maxRateBps);
    flow->m_rate = DataRate(static_cast<uint64_t>(start));
    flow->m_targetRate = flow->m_rate.Get();
    // Aggregated to the flow state, so that a program that sees the flow (RdmaNic's FlowStart)
    // can read the controller (flow->GetObject<RdmaRttPid>()).
    if (!flow->GetObject<RdmaRttPid>())
    {
        flow->AggregateObject(this);
    }
    m_gains[0] = m_kp0;
    m_gains[1] = m_ki0;
    m_gains[2] = m_kd0;
    m_targetS = m_target.GetSeconds();
    m_predictor = nullptr;
    if (!m_predictorFile.empty())
    {
        m_predictor = LstmPredictor::LoadCached(m_predictorFile);
    }
    else
    {
        static bool told = false;
        if (!told)
        {
            told = true;
            std::clog << "RdmaRttPid: no PredictorFile: the PID runs on the measured RTT\n";
        }
    }
    if (m_windowCap && flow->m_baseRtt.IsStrictlyPositive())
    {
        double bytes = flow->GetRateBps() * flow->m_baseRtt.GetSeconds() / 8;
        flow->m_cwnd = std::max<uint64_t>(flow->m_mtu, static_cast<uint64_t>(std::ceil(bytes)));
    }
}

void
RdmaRttPid::OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes)
{
    // Time the first packet sent after the previous sample (RTT-PID thesis, 3.2: within one RTT
    // only
    // the first packet is counted; the next packet sent after its ACK is the next one).
    if (!m_timing)
    {
        m_timing = true;
        m_timedEnd = flow->m_sndNxt;
    }
}

void
RdmaRttPid::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    if (!m_timing || ack.ackedOffset < m_timedEnd)
    {
        return;
    }
    m_timing = false;
    // No sample if the timed packet was sent again (Karn's rule: the NIC gives no RTT then).
    if (ack.rtt.IsStrictlyPositive())
    {
        OnRttSample(flow, ack.rtt);
    }
}

void
RdmaRttPid::OnRttSample(Ptr<RdmaFlowState> flow, Time rttTime)
{
    const double r = rttTime.GetSeconds();
    // Gradient step of the previous decision, now that its R_{t+1} is known (eq. 22-26).
    if (m_tuning && m_samples > 0) // the previous sample's decision
    {
        double mu = m_learningRate / std::sqrt(static_cast<double>(m_tuneSteps) + 1.0);
        double err = (r - m_targetS) * 1e6; // us
        double rateGbps = m_rateBefore / 1e9;
        for (int x = 0; x < 3; ++x)
        {
            double g = err * m_beta * rateGbps * m_outs[x];
            g = std::clamp(g, -m_gradClip, m_gradClip);
            m_gains[x] -= mu * g;
        }
        m_tuneSteps++;
    }
    // EWMA and feature (eq. 2, 3).
    m_s = m_samples == 0 ? r : m_sigma * r + (1.0 - m_sigma) * m_s;
    m_lastK = (r - m_s) / m_s;
    m_samples++;
    m_rttSum += r;
    if (m_predictor)
    {
        m_ks.push_back(m_lastK);
        if (m_ks.size() > m_predictor->GetSteps())
        {
            m_ks.pop_front();
        }
    }
    // Prediction (eq. 12), or the measured RTT.
    m_pred = r;
    if (m_predictor && m_ks.size() == m_predictor->GetSteps())
    {
        std::vector<double> xs(m_ks.begin(), m_ks.end());
        m_pred = (1.0 + m_predictor->Predict(xs)) * m_s;
    }
    // PID (eq. 14-20).
    double e = (m_pred - m_targetS) / m_targetS;
    double ePrev = m_samples == 1 ? e : m_ePrev;
    double mean;
    if (m_integralWindow == 0)
    {
        m_eSum += e;
        mean = m_eSum / static_cast<double>(m_samples);
    }
    else
    {
        m_eWin.push_back(e);
        m_eSum += e;
        if (m_eWin.size() > m_integralWindow)
        {
            m_eSum -= m_eWin.front();
            m_eWin.pop_front();
        }
        mean = m_eSum / static_cast<double>(m_eWin.size());
    }
    m_outs[0] = e;
    m_outs[1] = mean;
    m_outs[2] = e - ePrev;
    m_ePrev = e;
    double d = m_gains[0] * m_outs[0] + m_gains[1] * m_outs[1] + m_gains[2] * m_outs[2];
    m_delta = std::clamp(d, m_deltaMin, m_deltaMax);
    // Rate (eq. 19) within [MinRate, MaxRate].
    m_rateBefore = flow->GetRateBps();
    double rate = std::clamp(
        m_rateBefore * (1.0 + m_delta), static_cast<double>(m_minRate.GetBitRate()), m_maxRateBps);
    flow->m_rate = DataRate(static_cast<uint64_t>(std::llround(rate)));
    // Target adaptation (3.5.4, table 2): a signed run length of samples on one side.
    if (m_adaptTarget)
    {
        int64_t b = r > m_targetS ? 1 : -1;
        m_sideCount = m_sideCount * b >= 0 ? m_sideCount + b : 0;
        if (static_cast<uint64_t>(std::llabs(m_sideCount)) > m_adaptCount)
        {
            // rtt_target += mean(RTT_i - rtt_target) (eq. 27-28)
            m_targetS = m_rttSum / static_cast<double>(m_samples);
            m_sideCount = 0;
        }
    }
    if (m_windowCap && flow->m_baseRtt.IsStrictlyPositive())
    {
        double bytes = rate * flow->m_baseRtt.GetSeconds() / 8;
        flow->m_cwnd = std::max<uint64_t>(flow->m_mtu, static_cast<uint64_t>(std::ceil(bytes)));
    }
    NS_LOG_DEBUG("flow " << flow->m_flowId << " rtt " << r * 1e6 << " us S " << m_s * 1e6
                         << " pred " << m_pred * 1e6 << " e " << e << " d " << m_delta << " rate "
                         << rate / 1e9 << " Gb/s");
    m_sampleTrace(rttTime, Seconds(m_pred), flow->m_rate.Get());
}

double
RdmaRttPid::GetSmoothedRtt() const
{
    return m_s;
}

double
RdmaRttPid::GetLastK() const
{
    return m_lastK;
}

double
RdmaRttPid::GetLastPredictedRtt() const
{
    return m_pred;
}

double
RdmaRttPid::GetLastDelta() const
{
    return m_delta;
}

std::vector<double>
RdmaRttPid::GetGains() const
{
    return {m_gains[0], m_gains[1], m_gains[2]};
}

Time
RdmaRttPid::GetTarget() const
{
    return Seconds(m_targetS);
}

uint64_t
RdmaRttPid::GetSamples() const
{
    return m_samples;
}

bool
RdmaRttPid::HasPredictor() const
{
    return m_predictor != nullptr;
}

} // namespace ns3
