/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-dcon.h"

#include "ns3/boolean.h"
#include "ns3/enum-accessor.h"
#include "ns3/log.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/simulator.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaDcon");
NS_OBJECT_ENSURE_REGISTERED(RdmaDcon);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::RdmaDcon::CnmAppliedTracedCallback);

namespace
{
/// --cc=dcon; switch queue: DCON's three-state ECN/CNM queue (the scenario's Q_ECN, Q_CNM).
const RdmaCcRegistry::Registration g_dconRegistration(
    {"dcon",
     &RdmaDcon::GetTypeId,
     "DCON (Hu et al., Acta Electronica Sinica 2023): ECN plus switch CNMs",
     "ns3::DconQueueDisc",
     nullptr,
     "ns3::DconCnmGenerator",
     RdmaDcqcn::GetParameterSets(),
     {"ecn", "cnm"},
     "",
     "MinRate"});
} // namespace

TypeId
RdmaDcon::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaDcon")
              .SetParent<RdmaDcqcn>()
              .SetGroupName("Dcon")
              .AddConstructor<RdmaDcon>()
              .AddAttribute("Sender",
                            "Paper: the paper's Algorithm 1 as written, with a receiver that "
                            "sends one CNP per CnpPeriod while the flow is active, carrying "
                            "whether a CE packet arrived in the period (default). Dcqcn: "
                            "DCQCN's sender and receiver (timers, byte counter, additive and "
                            "hyper increase; CNPs only on CE) plus the CNM reaction. Both ends "
                            "must use the same value",
                            EnumValue(RdmaDcon::PAPER),
                            MakeDconEnumAccessor(&RdmaDcon::m_variant),
                            MakeEnumChecker(RdmaDcon::PAPER, "Paper", RdmaDcon::DCQCN, "Dcqcn"))
              .AddAttribute("CnpPeriod",
                            "Sender=Paper: period of the receiver's CNPs (paper: 50 us); must "
                            "be > 0",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaDcon::m_cnpPeriod),
                            MakeTimeChecker())
              .AddAttribute("CnmHoldTime",
                            "Within this time of the last applied CNM, a CNM only lowers the "
                            "rate (paper: 50 us); >= 0",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaDcon::m_holdTime),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("UnmarkedCnpIncrease",
                            "Sender=Paper: R_AI, the additive step of the target rate on a CNP "
                            "with congestion mark 0 (target = min(line rate, target + R_AI), "
                            "then rate = (target + rate) / 2). Default 40 Mb/s, DCQCN's "
                            "recommended R_AI: the paper's text calls the CNP reaction AIMD "
                            "with DCQCN's parameters. 0: Algorithm 1's listing as written "
                            "(no increase; the target never rises)",
                            DataRateValue(DataRate("40Mbps")),
                            MakeDataRateAccessor(&RdmaDcon::m_unmarkedIncrease),
                            MakeDataRateChecker())
              .AddAttribute("UnmarkedCnpHyperIncrease",
                            "Sender=Paper: R_HAI, the target's step on an unmarked CNP once "
                            "more than HyperIncreaseAfter unmarked CNPs came in a row (DCQCN's "
                            "hyper increase, not in the paper's text). 0 (default): off",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&RdmaDcon::m_hyperIncrease),
                            MakeDataRateChecker())
              .AddAttribute("HyperIncreaseAfter",
                            "Sender=Paper: unmarked CNPs in a row (since the last marked CNP "
                            "or applied CNM) after which UnmarkedCnpHyperIncrease replaces "
                            "UnmarkedCnpIncrease (DCQCN's F, 5); >= 1",
                            UintegerValue(5),
                            MakeUintegerAccessor(&RdmaDcon::m_hyperAfter),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("CnmSetsTargetRate",
                            "A CNM also sets the target rate to C/N. true (default): the paper "
                            "calls C/N the congested flow's target rate (line 2, Section 4.3 "
                            "\"sets the sending rate directly to the target rate C/N\"), so "
                            "the flow climbs back from C/N by the additive increase. false: "
                            "the sending rate only (unmarked CNPs return the rate to the "
                            "target it had before the CNM within a few CNP periods)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaDcon::m_setsTarget),
                            MakeBooleanChecker())
              .AddAttribute("CnmRaisesRate",
                            "A CNM whose C/N is above the flow's current rate sets the rate to "
                            "C/N. false (default): a CNM only ever lowers a rate, as the text "
                            "says throughout (\"directly lowers the sending rate to the target "
                            "rate\"); one above the current rate is ignored, as within "
                            "CnmHoldTime. true: line 2 read as an assignment whatever the "
                            "current rate (it can raise a flow already throttled by ECN)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaDcon::m_raisesRate),
                            MakeBooleanChecker())
              .AddTraceSource("CnmApplied",
                              "A CNM set the rate: the new rate",
                              MakeTraceSourceAccessor(&RdmaDcon::m_cnmAppliedTrace),
                              "ns3::RdmaDcon::CnmAppliedTracedCallback");
    return tid;
}

RdmaDcon::RdmaDcon()
{
    NS_LOG_FUNCTION(this);
}

RdmaDcon::~RdmaDcon() {}

std::string
RdmaDcon::GetName() const
{
    return "dcon";
}

void
RdmaDcon::DoDispose()
{
    m_rxPeriod.Stop();
    m_rx = nullptr;
    RdmaDcqcn::DoDispose();
}

RdmaDcon::SenderVariant
RdmaDcon::GetSenderVariant() const
{
    return m_variant;
}

void
RdmaDcon::Init(Ptr<RdmaFlowState> flow)
{
    NS_LOG_FUNCTION(this << flow);
    // DCQCN's checks (G, InitialAlpha, MinRate, ...); rate = target = line rate, alpha set.
    RdmaDcqcn::Init(flow);
    m_stopped = false;
    m_lastApplied = Time(-1);
    m_unmarkedRun = 0;
}

void
RdmaDcon::OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes)
{
    if (m_variant == DCQCN)
    {
        RdmaDcqcn::OnSent(flow, bytes); // the byte counter
    }
}

void
RdmaDcon::OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp)
{
    if (m_variant == DCQCN)
    {
        RdmaDcqcn::OnCnp(flow, cnp);
        return;
    }
    if (!m_stopped)
    {
        ApplyCnp(flow, cnp.congested);
    }
}

void
RdmaDcon::ApplyCnp(Ptr<RdmaFlowState> flow, bool marked)
{
    const double g = GetG();
    double delta = GetAlpha();
    const uint64_t rate = flow->m_rate.Get().GetBitRate();
    uint64_t next;
    if (marked)
    {
        // Lines 5-8: target = rate; delta = (1-g) delta + g; rate = rate (1 - delta/2).
        flow->m_targetRate = flow->m_rate.Get();
        m_unmarkedRun = 0;
        delta = (1.0 - g) * delta + g;
        next = static_cast<uint64_t>(std::llround(static_cast<double>(rate) * (1.0 - delta / 2)));
    }
    else
    {
        // Lines 10-11 with the additive step of the text's AIMD (UnmarkedCnpIncrease; 0 = the
        // listing): target = min(line, target + R_AI); delta = (1-g) delta;
        // rate = (target + rate) / 2 (rounded, halves up).
        delta = (1.0 - g) * delta;
        m_unmarkedRun++;
        const uint64_t step = m_hyperIncrease.GetBitRate() > 0 && m_unmarkedRun > m_hyperAfter
                                  ? m_hyperIncrease.GetBitRate()
                                  : m_unmarkedIncrease.GetBitRate();
        const uint64_t line = flow->m_lineRate.GetBitRate();
        const uint64_t target = flow->m_targetRate.Get().GetBitRate();
        if (step > 0 && target < line)
        {
            flow->m_targetRate = DataRate(std::min(line, target + std::min(step, line - target)));
        }
        next = (flow->m_targetRate.Get().GetBitRate() + rate + 1) / 2;
    }
    SetAlpha(delta);
    flow->SetRate(DataRate(next), GetMinRate());
    NS_LOG_DEBUG("flow " << flow->m_flowId << " CNP mark " << marked << " delta " << delta
                         << " target " << flow->m_targetRate.Get() << " rate "
                         << flow->m_rate.Get());
}

bool
RdmaDcon::OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm)
{
    m_received++;
    if (m_stopped)
    {
        return false;
    }
    uint16_t n = cnm.numFlows ? cnm.numFlows : 1;
    DataRate target(cnm.capacity.GetBitRate() / n);
    Time now = Simulator::Now();
    bool inHold = !m_lastApplied.IsStrictlyNegative() && now - m_lastApplied < m_holdTime;
    if (target >= flow->m_rate.Get())
    {
        m_notLowering++;
    }
    if ((inHold || !m_raisesRate) && target >= flow->m_rate.Get())
    {
        NS_LOG_DEBUG("flow " << flow->m_flowId << " ignores CNM to " << target << " (rate "
                             << flow->m_rate.Get() << ")");
        return false;
    }
    m_lastApplied = now;
    m_applied++;
    m_unmarkedRun = 0;
    if (m_variant == DCQCN)
    {
        ApplyExternalRate(target, m_setsTarget);
    }
    else
    {
        // Line 2: sending rate = C / N.
        flow->SetRate(target, GetMinRate());
        if (m_setsTarget)
        {
            flow->m_targetRate = flow->m_rate.Get();
        }
    }
    NS_LOG_DEBUG("flow " << flow->m_flowId << " CNM N=" << n << " C=" << cnm.capacity << " -> rate "
                         << flow->m_rate.Get());
    m_cnmAppliedTrace(flow->m_rate.Get());
    return true;
}

void
RdmaDcon::Stop()
{
    m_stopped = true;
    m_rxPeriod.Stop();
    RdmaDcqcn::Stop();
}

void
RdmaDcon::InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp)
{
    RdmaDcqcn::InitReceiver(rx, sendCnp);
    if (m_variant == PAPER)
    {
        if (!m_cnpPeriod.IsStrictlyPositive())
        {
            throw std::invalid_argument("RdmaDcon: attribute CnpPeriod = "
                                        + std::to_string(m_cnpPeriod.GetNanoSeconds())
                                        + " ns must be > 0");
        }
        m_rx = rx;
        m_rxPeriod.Setup(m_cnpPeriod, MakeCallback(&RdmaDcon::PeriodEnd, this));
    }
}

void
RdmaDcon::OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt)
{
    if (m_variant == DCQCN)
    {
        RdmaDcqcn::OnDataReceived(rx, pkt);
        return;
    }
    if (m_sendCnp.IsNull())
    {
        throw std::logic_error("RdmaDcon::OnDataReceived called before InitReceiver");
    }
    m_rxPeriod.OnPacket(pkt);
}

void
RdmaDcon::PeriodEnd(const RdmaRxPeriod::Counts& counts)
{
    RdmaCnpInfo cnp;
    cnp.congested = counts.cePackets > 0;
    if (m_rx)
    {
        m_rx->m_cnpsSent++;
        m_rx->m_lastCnp = Simulator::Now();
    }
    NS_LOG_DEBUG("CNP mark " << cnp.congested << " (" << counts.cePackets << "/" << counts.packets
                             << " CE)");
    m_sendCnp(cnp);
}

uint32_t
RdmaDcon::GetCnmsReceived() const
{
    return m_received;
}

uint32_t
RdmaDcon::GetCnmsApplied() const
{
    return m_applied;
}

uint32_t
RdmaDcon::GetCnmsNotLowering() const
{
    return m_notLowering;
}

bool
RdmaDcon::IsReceiverPeriodRunning() const
{
    return m_rxPeriod.IsRunning();
}

} // namespace ns3
