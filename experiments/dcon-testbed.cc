/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-testbed.h"

#include "ns3/atomic-output-file.h"
#include "ns3/boolean.h"
#include "ns3/bth-header.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/dcon-recorder.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/simulator.h"
#include "ns3/value-text.h"
#include "scenario-attributes.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/**
 * \brief The registry name of \p cc when it is a registered algorithm itself (not a subclass
 * of one): the paper's figures show DCQCN (Fig. 2) and DCON (Fig. 6) as they are.
 * \param cc short or TypeId name
 * \return e.g. "dcqcn", or "" for an unregistered subclass
 */
std::string
RegisteredName(const std::string& cc)
{
    const TypeId tid = RdmaCongestionOps::LookupTypeId(cc);
    const RdmaCcEntry e = RdmaCcRegistry::Lookup(tid.GetName());
    return e.typeId() == tid ? e.name : "";
}

} // namespace

namespace
{
/// The most samples per queue or flow a run may take (sampleInterval against stopTime).
constexpr double MAX_SAMPLES = 1e7;

/// A fact that holds when value relation threshold.
DconTestbedFact
Compare(const std::string& name, double value, const std::string& relation, double threshold)
{
    bool holds = relation == "<"    ? value < threshold
                 : relation == ">"  ? value > threshold
                 : relation == ">=" ? value >= threshold
                 : relation == "==" ? value == threshold
                                    : throw std::logic_error("unknown relation " + relation);
    return {name, holds, value, relation, threshold};
}
} // namespace

SwitchQueueSettings
DconTestbedConfig::TestbedSwitchSettings()
{
    SwitchQueueSettings s;
    s.qecn = QueueSize("200KB");
    return s;
}

DconTestbed::DconTestbed(const DconTestbedConfig& config)
    : m_config(config)
    , m_topo(LeafSpineHelper::DconTestbed())
{
    if (config.burstSenders > 14)
    {
        throw std::invalid_argument("testbed: burstSenders " + std::to_string(config.burstSenders)
                                    + " > 14 (only H2..H15 exist)");
    }
    if (config.stopTime <= config.burstStart)
    {
        throw std::invalid_argument("testbed: stop time must be after the burst start");
    }
    if (config.burstInterval.IsStrictlyNegative())
    {
        throw std::invalid_argument("testbed: burstInterval must be >= 0");
    }
    if (!config.sampleInterval.IsStrictlyPositive())
    {
        throw std::invalid_argument("testbed: sampleInterval must be > 0, got "
                                    + FormatTime(config.sampleInterval));
    }
    if (config.stopTime.GetSeconds() / config.sampleInterval.GetSeconds() > MAX_SAMPLES)
    {
        throw std::invalid_argument(
            "testbed: sampleInterval " + FormatTime(config.sampleInterval) + " gives more than "
            + std::to_string(static_cast<uint64_t>(MAX_SAMPLES))
            + " samples of each queue and flow until the stop time " + FormatTime(config.stopTime));
    }
    // The last burst flow's start, computed where it cannot wrap.
    const long double lastBurst
        = static_cast<long double>(config.burstStart.GetSeconds())
          + static_cast<long double>(config.burstInterval.GetSeconds())
                * (config.burstFlowsPerHost > 0 ? config.burstFlowsPerHost : 1);
    if (lastBurst > static_cast<long double>((Time::Max() / 2).GetSeconds()))
    {
        throw std::invalid_argument("testbed: the last burst flow would start at "
                                    + std::to_string(static_cast<double>(lastBurst))
                                    + " s, beyond half of ns-3's time range");
    }
    RejectScenarioSetAttributes(config.attributeArgs);
    ApplyAttributeArguments(config.attributeArgs);
    RdmaFabricHelper fh;
    fh.SetCongestionControl(config.cc, ParameterSetFor(config.cc, config.dcqcnPreset));
    m_config.sw = config.sw.ForCc(config.cc, m_topo.GetFabricLinkRate());
    m_qcnm
        = m_config.sw.Apply(fh, config.cc, m_topo.GetFabricLinkDelay(), m_topo.GetFabricLinkRate());
    fh.SetPartitionFile(config.partitionFile);
    m_fabric = fh.Build(m_topo.GetTopology());
    m_fabric->SetSwitchAgentWindowInRtts(config.cnmWindowRtts);
    m_flows = Create<RdmaFlowHelper>(m_fabric);
    m_flows->SetStopWhenDone(config.runToCompletion);

    // f0 and f1: pinned through S1 so that they share L2's ingress from S1.
    const uint16_t f0Port = 50000;
    const uint16_t f1Port = 50001;
    uint32_t f0
        = m_flows->AddFlow(H(0), R(0), config.longFlowSize, config.longFlowStart, 3, f0Port);
    uint32_t f1
        = m_flows->AddFlow(H(1), R(1), config.longFlowSize, config.longFlowStart, 3, f1Port);
    m_fabric->PinPath(m_flows->GetFiveTuple(f0), {H(0), L(0), S(1), L(2), R(0)});
    m_fabric->PinPath(m_flows->GetFiveTuple(f1), {H(1), L(1), S(1), L(2), R(1)});
    if (config.longFlowStartRate.GetBitRate() != 0)
    {
        m_flows->SetStartRate(f0, config.longFlowStartRate);
        m_flows->SetStartRate(f1, config.longFlowStartRate);
    }
    for (uint32_t k = 0; k < config.burstFlowsPerHost; ++k)
    {
        for (uint32_t h = 2; h < 2 + config.burstSenders; ++h)
        {
            uint16_t sport = static_cast<uint16_t>(20000 + m_flows->GetFlows().size());
            uint32_t id = m_flows->AddFlow(
                H(h),
                R(1),
                config.burstFlowSize,
                config.burstStart + config.burstInterval * k
                    + (config.burstStagger ? config.burstInterval * (h - 2) / config.burstSenders
                                           : Time(0)),
                3,
                sport);
            if (config.burstViaS0)
            {
                m_fabric->PinPath(m_flows->GetFiveTuple(id), {H(h), L(h % 2), S(0), L(2), R(1)});
            }
        }
    }

    m_monitor = Create<FabricMonitor>(m_fabric, m_flows);
    for (uint32_t i = 0; i < 16; ++i)
    {
        m_monitor->SetNodeName(H(i), "H" + std::to_string(i));
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        m_monitor->SetNodeName(R(i), "R" + std::to_string(i));
        m_monitor->SetNodeName(S(i), "S" + std::to_string(i));
    }
    for (uint32_t i = 0; i < 3; ++i)
    {
        m_monitor->SetNodeName(L(i), "L" + std::to_string(i));
    }
    m_monitor->AddQueueSample(L(2), m_fabric->GetPort(L(2), R(1)), false); // P2/L2 egress
    m_monitor->AddQueueSample(L(2), m_fabric->GetPort(L(2), S(1)), true);  // P1/L2 ingress
    m_monitor->AddQueueSample(S(1), m_fabric->GetPort(S(1), L(2)), false); // P0/S1 egress
    m_monitor->AddQueueSample(L(2), m_fabric->GetPort(L(2), S(0)), true);  // L2 ingress from S0
    m_monitor->AddThroughputFlow(f0);
    m_monitor->AddThroughputFlow(f1);
    if (config.spreading)
    {
        m_monitor->EnableCongestionSpreading();
    }
    m_monitor->Start(config.sampleInterval, config.stopTime);
}

double
DconTestbed::Run()
{
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Stop(m_config.stopTime);
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    m_monitor->Collect(); // a parallel run: rank 0 gets every rank's results
    return std::chrono::duration<double>(t1 - t0).count();
}

Ptr<FabricMonitor>
DconTestbed::GetMonitor() const
{
    return m_monitor;
}

Ptr<RdmaFabric>
DconTestbed::GetFabric() const
{
    return m_fabric;
}

double
DconTestbed::AverageThroughput(uint32_t flowId, Time from, Time to) const
{
    return m_monitor->GetAverageThroughput(flowId, from, to);
}

std::vector<DconTestbedFact>
DconTestbedFacts::CongestionSpreadingFacts() const
{
    return {Compare("L2 pauses S1", pausesL2S1, ">", 0),
            Compare("S1 pauses L0", pausesS1L0, ">", 0),
            Compare("S1 pauses L1", pausesS1L1, ">", 0),
            Compare("f0 collapses during the burst", f0During, "<", 0.5 * f0Before),
            Compare("f1 collapses during the burst", f1During, "<", 0.5 * f1Before),
            Compare("f0 recovers after the burst", f0After, ">", 0.5 * f0Before)};
}

std::vector<DconTestbedFact>
DconTestbedFacts::DirectNotificationFacts() const
{
    return {Compare("L2 never pauses S1", pausesL2S1, "==", 0),
            Compare("f1 is throttled during the burst", f1During, "<", 0.5 * f1Before),
            Compare("f0 keeps half its rate during the burst", f0During, ">=", 0.5 * f0Before)};
}

std::vector<DconTestbedFact>
DconTestbedFacts::ExpectedFacts(const std::string& cc) const
{
    const std::string name = RegisteredName(cc);
    if (name == "dcqcn")
    {
        return CongestionSpreadingFacts();
    }
    if (name == "dcon")
    {
        return DirectNotificationFacts();
    }
    return {};
}

bool
DconTestbedFacts::ShowsPaperFacts(const std::string& cc) const
{
    for (const auto& f : ExpectedFacts(cc))
    {
        if (!f.holds)
        {
            return false;
        }
    }
    return true;
}

DconTestbedFacts
DconTestbed::GetFacts() const
{
    DconTestbedFacts f;
    f.pausesL2S1 = m_monitor->GetPauseFrames(L(2), S(1));
    f.pausesS1L0 = m_monitor->GetPauseFrames(S(1), L(0));
    f.pausesS1L1 = m_monitor->GetPauseFrames(S(1), L(1));
    Time start = m_config.burstStart;
    // The burst lasts until its last flow completes (at most the stop time).
    Time end = start;
    bool allDone = true;
    std::vector<bool> done(m_flows->GetFlows().size(), false);
    for (const auto& rec : m_monitor->GetRecords())
    {
        done[rec.flowId] = true;
        if (rec.flowId >= 2)
        {
            end = std::max(end, rec.end);
        }
    }
    for (std::size_t id = 2; id < done.size(); ++id)
    {
        allDone = allDone && done[id];
    }
    if (!allDone || end > m_config.stopTime)
    {
        end = m_config.stopTime;
    }
    f.burstEnd = end;
    Time before = start - MilliSeconds(2);
    Time lastWindow = m_config.stopTime - MilliSeconds(3);
    f.f0Before = AverageThroughput(0, before, start);
    f.f0During = AverageThroughput(0, start, end);
    f.f0After = AverageThroughput(0, lastWindow, m_config.stopTime);
    f.f1Before = AverageThroughput(1, before, start);
    f.f1During = AverageThroughput(1, start, end);
    if (Ptr<CongestionSpreading> cs = m_monitor->GetCongestionSpreading())
    {
        cs->Finish();
        const CongestionSpreading::FlowTimes t0 = cs->GetFlowTimes(0);
        const CongestionSpreading::FlowTimes t1 = cs->GetFlowTimes(1);
        f.f0VictimS = t0.victim.GetSeconds();
        f.f0CulpritS = t0.culprit.GetSeconds();
        f.f1VictimS = t1.victim.GetSeconds();
        f.f1CulpritS = t1.culprit.GetSeconds();
        for (const auto& e : cs->GetEvents())
        {
            f.maxDepth = std::max(f.maxDepth, e.maxDepth);
        }
    }
    if (Ptr<DconRecorder> rec = m_monitor->GetExtension<DconRecorder>())
    {
        for (const DconRecorder::Cnm& c : rec->GetCnms())
        {
            if (c.flowId == 0)
            {
                f.cnmsF0++;
            }
            else if (c.flowId == 1)
            {
                f.cnmsF1++;
                f.cnmsAppliedF1 += c.applied;
            }
            else
            {
                f.cnmsBurst++;
            }
        }
    }
    return f;
}

void
DconTestbedFacts::WriteJson(const std::string& path, const std::string& cc) const
{
    AtomicOutputFile file(path);
    std::ofstream& out = file.Stream();
    out << std::setprecision(6);
    out << "{\n  \"pauses_l2_s1\": " << pausesL2S1 << ",\n  \"pauses_s1_l0\": " << pausesS1L0
        << ",\n  \"pauses_s1_l1\": " << pausesS1L1 << ",\n  \"f0_before_gbps\": " << f0Before
        << ",\n  \"f0_during_gbps\": " << f0During << ",\n  \"f0_end_gbps\": " << f0After
        << ",\n  \"f1_before_gbps\": " << f1Before << ",\n  \"f1_during_gbps\": " << f1During
        << ",\n  \"burst_end_s\": " << burstEnd.GetSeconds() << ",\n  \"cnms_f0\": " << cnmsF0
        << ",\n  \"cnms_f1\": " << cnmsF1 << ",\n  \"cnms_f1_applied\": " << cnmsAppliedF1
        << ",\n  \"cnms_burst\": " << cnmsBurst;
    if (f0VictimS >= 0)
    {
        out << ",\n  \"f0_victim_s\": " << f0VictimS << ",\n  \"f0_culprit_s\": " << f0CulpritS
            << ",\n  \"f1_victim_s\": " << f1VictimS << ",\n  \"f1_culprit_s\": " << f1CulpritS
            << ",\n  \"max_pause_depth\": " << maxDepth;
    }
    out << ",\n  \"facts\": [";
    const std::string name = RegisteredName(cc);
    bool first = true;
    for (const auto& [figure, facts, expected] :
         {std::make_tuple("Fig. 2", CongestionSpreadingFacts(), name == "dcqcn"),
          std::make_tuple("Fig. 6", DirectNotificationFacts(), name == "dcon")})
    {
        for (const auto& fact : facts)
        {
            out << (first ? "\n" : ",\n") << "    {\"figure\": \"" << figure << "\", \"fact\": \""
                << fact.name << "\", \"holds\": " << (fact.holds ? "true" : "false")
                << ", \"expected\": " << (expected ? "true" : "false")
                << ", \"value\": " << fact.value << ", \"relation\": \"" << fact.relation
                << "\", \"threshold\": " << fact.threshold << "}";
            first = false;
        }
    }
    out << "\n  ],\n  \"verdict\": \""
        << (ExpectedFacts(cc).empty() ? "none"
            : ShowsPaperFacts(cc)     ? "PASS"
                                      : "FAIL")
        << "\"\n}\n";
    file.Commit();
}

uint32_t
DconTestbed::GetFlowCount() const
{
    return m_flows->GetFlows().size();
}

QueueSize
DconTestbed::GetQcnm() const
{
    return m_qcnm;
}

uint32_t
DconTestbed::H(uint32_t i) const
{
    return m_topo.GetHost(i % 2, i / 2);
}

uint32_t
DconTestbed::R(uint32_t i) const
{
    return m_topo.GetHost(2, i);
}

uint32_t
DconTestbed::L(uint32_t i) const
{
    return m_topo.GetLeaf(i);
}

uint32_t
DconTestbed::S(uint32_t i) const
{
    return m_topo.GetSpine(i);
}

} // namespace ns3
