/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-ibcc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaIbcc");
NS_OBJECT_ENSURE_REGISTERED(RdmaIbcc);

namespace
{
/// --cc=ibcc; switch queue: FECN marking above a 0..15 threshold (RdmaIbcc::QueueAttributes).
const RdmaCcRegistry::Registration g_ibccRegistration(
    {"ibcc",
     &RdmaIbcc::GetTypeId,
     "InfiniBand CC (IBA Annex A10; per-QP CCT/CCTI parameters as in the IB partitioning "
     "paper, NUDT): FECN/BECN, injection rate delay per aggregate",
     "ns3::IbFecnQueueDisc",
     &RdmaIbcc::QueueAttributes,
     "",
     {},
     {"ecn"}});

/// ThresholdStep per Gb/s of the port: threshold 15 (one step) = 10 KB at 10 Gb/s.
constexpr uint64_t STEP_BYTES_PER_GBPS = 1000;

/// The IB partitioning paper's reference table CCT(i) = 14 i^2 / 1062 us (Section 5).
constexpr double PAPER_CCT_SCALE_US = 14.0 / 1062.0;

/// Largest inter-packet delay of a CCT entry, in microseconds (1 s: far beyond any useful
/// table, and small enough that the entry is exact in picoseconds).
constexpr double MAX_IRD_US = 1e6;

} // namespace

TypeId
RdmaIbcc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaIbcc")
              .SetParent<RdmaCongestionOps>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaIbcc>()
              .AddAttribute("CctiIncrease",
                            "CCTI_Increase: CCT index steps added per BECN, >= 1 (IBA A10 and the "
                            "IB partitioning paper's Table 1: 1). May differ per QP; may change "
                            "while it runs",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RdmaIbcc::m_cctiIncrease),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("CctiLimit",
                            "CCTI_Limit: largest CCT index (slowest rate); 0 = the table's last "
                            "index (the IB partitioning paper: CCT[CCTI_Limit] is the largest gap)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RdmaIbcc::m_cctiLimit),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("CctiMin",
                            "CCTI_Min: smallest CCT index and the start index (the IB "
                            "partitioning paper and IBA: 0, no limit with CCT[0] = 0)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&RdmaIbcc::m_cctiMin),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("CctiTimer",
                            "CCTI_Timer: recovery period in TimerUnit units, >= 1; each period "
                            "with CCTI > CCTI_Min lowers CCTI by one (the IB partitioning paper's "
                            "Table 1: 150)",
                            UintegerValue(150),
                            MakeUintegerAccessor(&RdmaIbcc::m_cctiTimer),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("TimerUnit",
                            "Unit of CCTI_Timer (IBA A10: 1.024 us)",
                            TimeValue(NanoSeconds(1024)),
                            MakeTimeAccessor(&RdmaIbcc::m_timerUnit),
                            MakeTimeChecker())
              .AddAttribute("TimerResetOnBecn",
                            "A BECN restarts the recovery timer (true: the IB partitioning "
                            "paper's Algorithm 1, step 7, and its text) or the timer runs on "
                            "regardless (false, the default: IBA A10's periodic CCTI_Timer, which "
                            "the paper's hardware ran and its recovery analysis assumes)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaIbcc::m_timerReset),
                            MakeBooleanChecker())
              .AddAttribute("Aggregate",
                            "Packets per aggregate: the injection rate delay separates the "
                            "starts of aggregates of this many packets, >= 1 (IBA and the IB "
                            "partitioning paper: 4)",
                            UintegerValue(4),
                            MakeUintegerAccessor(&RdmaIbcc::m_aggregate),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("Cct",
                            "The CC table: injection rate delays in microseconds, ascending, "
                            "separated by commas or spaces (e.g. \"0,0.5,1.5\"). Empty: the "
                            "formula CCT[i] = CctScale x i^CctExponent us, i < CctSize",
                            StringValue(""),
                            MakeStringAccessor(&RdmaIbcc::m_cctText),
                            MakeStringChecker())
              .AddAttribute("CctScale",
                            "Formula table: factor in microseconds, > 0 (the IB partitioning "
                            "paper's reference table 14 i^2 / 1062 us: 14/1062)",
                            DoubleValue(PAPER_CCT_SCALE_US),
                            MakeDoubleAccessor(&RdmaIbcc::m_cctScale),
                            MakeDoubleChecker<double>())
              .AddAttribute("CctExponent",
                            "Formula table: exponent of the index, > 0 (the IB partitioning "
                            "paper: 2; > 1 makes one step cut the rate more near the front, as "
                            "its theorem needs)",
                            DoubleValue(2),
                            MakeDoubleAccessor(&RdmaIbcc::m_cctExponent),
                            MakeDoubleChecker<double>())
              .AddAttribute("CctSize",
                            "Formula table: entries, 1 .. 16384 (default 128: two 64-entry CCT "
                            "blocks of IBA A10)",
                            UintegerValue(128),
                            MakeUintegerAccessor(&RdmaIbcc::m_cctSize),
                            MakeUintegerChecker<uint32_t>())
              .AddTraceSource("Ccti",
                              "The CCT index",
                              MakeTraceSourceAccessor(&RdmaIbcc::m_ccti),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaIbcc::RdmaIbcc()
{
    NS_LOG_FUNCTION(this);
}

RdmaIbcc::~RdmaIbcc() {}

std::string
RdmaIbcc::GetName() const
{
    return "ibcc";
}

std::vector<std::pair<std::string, std::string>>
RdmaIbcc::QueueAttributes(DataRate portRate)
{
    uint64_t step = portRate.GetBitRate() / 1000 * STEP_BYTES_PER_GBPS / 1000000;
    return {{"ThresholdStep", std::to_string(std::max<uint64_t>(step, 1)) + "B"}};
}

std::vector<Time>
RdmaIbcc::ParseCct(const std::string& text)
{
    std::vector<Time> cct;
    std::string t = text;
    std::replace(t.begin(), t.end(), ',', ' ');
    size_t pos = 0;
    double prev = 0;
    while (true)
    {
        size_t b = t.find_first_not_of(" \t\n", pos);
        if (b == std::string::npos)
        {
            break;
        }
        size_t e = t.find_first_of(" \t\n", b);
        std::string tok = t.substr(b, e == std::string::npos ? std::string::npos : e - b);
        pos = e == std::string::npos ? t.size() : e;
        char* end = nullptr;
        double us = std::strtod(tok.c_str(), &end);
        std::string where = "entry " + std::to_string(cct.size()) + " ('" + tok + "')";
        if (end == tok.c_str() || *end != '\0' || !std::isfinite(us))
        {
            RejectAttribute(GetTypeId(),
                            "Cct",
                            "\"" + text + "\"",
                            "numbers (microseconds): " + where + " is not one");
        }
        if (us < 0)
        {
            RejectAttribute(
                GetTypeId(), "Cct", "\"" + text + "\"", ">= 0 each: " + where + " is negative");
        }
        if (us > MAX_IRD_US)
        {
            RejectAttribute(GetTypeId(),
                            "Cct",
                            "\"" + text + "\"",
                            "at most 1 s (10^6 us) each: " + where + " is larger");
        }
        if (!cct.empty() && us < prev)
        {
            RejectAttribute(GetTypeId(),
                            "Cct",
                            "\"" + text + "\"",
                            "ascending: " + where + " is below the one before");
        }
        prev = us;
        cct.push_back(PicoSeconds(static_cast<int64_t>(std::llround(us * 1e6))));
    }
    if (cct.empty())
    {
        RejectAttribute(GetTypeId(), "Cct", "\"" + text + "\"", "at least one entry");
    }
    return cct;
}

void
RdmaIbcc::Validate() const
{
    if (m_cctiIncrease < 1)
    {
        RejectAttribute(GetTypeId(), "CctiIncrease", std::to_string(m_cctiIncrease), ">= 1");
    }
    if (m_cctiTimer < 1)
    {
        RejectAttribute(
            GetTypeId(), "CctiTimer", std::to_string(m_cctiTimer), ">= 1 (in TimerUnit units)");
    }
    if (!m_timerUnit.IsStrictlyPositive())
    {
        RejectAttribute(
            GetTypeId(), "TimerUnit", std::to_string(m_timerUnit.GetSeconds()) + " s", "> 0");
    }
    if (m_aggregate < 1)
    {
        RejectAttribute(GetTypeId(), "Aggregate", std::to_string(m_aggregate), ">= 1 packet");
    }
    if (m_cctText.empty())
    {
        if (!(m_cctScale > 0 && std::isfinite(m_cctScale)))
        {
            RejectAttribute(
                GetTypeId(), "CctScale", std::to_string(m_cctScale), "> 0 microseconds");
        }
        if (!(m_cctExponent > 0 && std::isfinite(m_cctExponent)))
        {
            RejectAttribute(GetTypeId(), "CctExponent", std::to_string(m_cctExponent), "> 0");
        }
        if (m_cctSize < 1 || m_cctSize > 16384)
        {
            RejectAttribute(GetTypeId(), "CctSize", std::to_string(m_cctSize), "in 1 .. 16384");
        }
    }
}

void
RdmaIbcc::Init(Ptr<RdmaFlowState> flow)
{
    Validate();
    if (m_cctText.empty())
    {
        m_cct.clear();
        for (uint32_t i = 0; i < m_cctSize; ++i)
        {
            double us = m_cctScale * std::pow(static_cast<double>(i), m_cctExponent);
            if (us > MAX_IRD_US)
            {
                RejectAttribute(GetTypeId(),
                                "CctScale",
                                std::to_string(m_cctScale),
                                "small enough that every entry is at most 1 s (10^6 us): entry "
                                    + std::to_string(i) + " would be " + std::to_string(us)
                                    + " us");
            }
            m_cct.push_back(PicoSeconds(static_cast<int64_t>(std::llround(us * 1e6))));
        }
    }
    else
    {
        m_cct = ParseCct(m_cctText);
    }
    const uint32_t last = m_cct.size() - 1;
    m_limit = m_cctiLimit == 0 ? last : m_cctiLimit;
    if (m_limit > last)
    {
        RejectAttribute(GetTypeId(),
                        "CctiLimit",
                        std::to_string(m_cctiLimit),
                        "at most the table's last index " + std::to_string(last));
    }
    if (m_cctiMin > m_limit)
    {
        RejectAttribute(GetTypeId(),
                        "CctiMin",
                        std::to_string(m_cctiMin),
                        "at most CCTI_Limit (" + std::to_string(m_limit) + ")");
    }
    RdmaCongestionOps::Init(flow); // paced at the start rate (the line rate) within aggregates
    flow->m_holdUntil = Time(0);
    m_becns = 0;
    m_inAggregate = 0;
    SetCcti(m_cctiMin);
}

void
RdmaIbcc::SetCcti(uint32_t ccti)
{
    m_ccti = ccti;
}

void
RdmaIbcc::OnSent(Ptr<RdmaFlowState> flow, uint32_t /* bytes */)
{
    // Algorithm 2: count the packets of the aggregate; when it is complete, the next one may
    // start CCT[CCTI] after this one started.
    Time now = Simulator::Now();
    if (m_inAggregate == 0)
    {
        m_aggregateStart = now;
    }
    if (++m_inAggregate >= m_aggregate)
    {
        m_inAggregate = 0;
        flow->m_holdUntil = m_aggregateStart + m_cct[m_ccti];
    }
}

void
RdmaIbcc::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
    if (!ack.ecnEcho)
    {
        return;
    }
    // Algorithm 1, steps 4-8: a BECN
    m_becns++;
    const bool raised = m_ccti < m_limit;
    if (raised)
    {
        uint64_t next = static_cast<uint64_t>(m_ccti) + m_cctiIncrease;
        SetCcti(static_cast<uint32_t>(std::min<uint64_t>(next, m_limit)));
        NS_LOG_DEBUG("flow " << flow->m_flowId << " BECN: CCTI " << m_ccti);
    }
    // The paper's step 7 (Timer = 0) is inside "if BECN && CCTI < CCTI_Limit": a BECN at the
    // limit does not restart the timer.
    if (m_ccti > m_cctiMin && ((m_timerReset && raised) || m_timer.IsExpired()))
    {
        StartTimer();
    }
}

void
RdmaIbcc::StartTimer()
{
    m_timer.Cancel();
    m_timer = Simulator::Schedule(
        m_timerUnit * static_cast<int64_t>(m_cctiTimer), &RdmaIbcc::TimerExpired, this);
}

void
RdmaIbcc::TimerExpired()
{
    // Algorithm 1, steps 9-13 (the timer only runs while CCTI > CCTI_Min)
    if (m_ccti > m_cctiMin)
    {
        SetCcti(m_ccti - 1);
    }
    if (m_ccti > m_cctiMin)
    {
        StartTimer();
    }
}

void
RdmaIbcc::Stop()
{
    m_timer.Cancel();
}

uint32_t
RdmaIbcc::GetCcti() const
{
    return m_ccti;
}

Time
RdmaIbcc::GetIrd() const
{
    return m_cct.empty() ? Time(0) : m_cct[m_ccti];
}

const std::vector<Time>&
RdmaIbcc::GetCct() const
{
    return m_cct;
}

uint64_t
RdmaIbcc::GetBecnCount() const
{
    return m_becns;
}

} // namespace ns3
