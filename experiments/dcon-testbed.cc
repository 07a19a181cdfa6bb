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

/// A fact that holds when value relation threshold; not judged when either was not measured.
DconTestbedFact
Compare(const std::string& name,
        const Reading& value,
        const std::string& relation,
        const Reading& threshold)
{
    DconTestbedFact f{name, false, value, relation, threshold, true, ""};
    if (!value.IsMeasured() || !threshold.IsMeasured())
    {
        f.judged = false;
        f.reason = !value.IsMeasured() ? value.reason : threshold.reason;
        return f;
    }
    const double v = *value.value;
    const double t = *threshold.value;
    f.holds = relation == "<"    ? v < t
              : relation == ">"  ? v > t
              : relation == ">=" ? v >= t
              : relation == "==" ? v == t
                                 : throw std::logic_error("unknown relation " + relation);
    return f;
}

/// A count (always measured) as a reading.
Reading
Count(uint64_t n)
{
    return Reading::Of(static_cast<double>(n));
}

/// Half of a reading (not measured if it was not).
Reading
Half(const Reading& r)
{
    return r.IsMeasured() ? Reading::Of(0.5 * *r.value) : r;
}

/// A reading with the name of what it reads, in a reason: "f0 before the burst: ...".
Reading
Named(const std::string& what, Reading r)
{
    if (!r.IsMeasured())
    {
        r.reason = what + " not measured: " + r.reason;
    }
    return r;
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
        throw std::invalid_argument("--stopTime (" + FormatTime(config.stopTime)
                                    + ") must be after --burstStart ("
                                    + FormatTime(config.burstStart)
                                    + "): give a later --stopTime or an earlier --burstStart");
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
    // (at most MAX_SAMPLES intervals until the stop: the interval at least stop / MAX_SAMPLES,
    // rounded up to a time step)
    const auto maxSamples = static_cast<int64_t>(MAX_SAMPLES);
    const Time leastInterval
        = TimeStep((config.stopTime.GetTimeStep() + maxSamples - 1) / maxSamples);
    if (config.sampleInterval < leastInterval)
    {
        throw std::invalid_argument(
            "--sampleInterval (" + FormatTime(config.sampleInterval) + ") gives more than "
            + std::to_string(maxSamples) + " samples of each queue and flow until --stopTime ("
            + FormatTime(config.stopTime) + "): give at least " + FormatTime(leastInterval));
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
    m_fabric = m_config.sw.Build(fh, m_topo.GetTopology());
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

Reading
DconTestbed::AverageThroughput(uint32_t flowId, Time from, Time to) const
{
    return m_monitor->MeasureThroughput(flowId, from, to);
}

std::vector<DconTestbedFact>
DconTestbedFacts::CongestionSpreadingFacts() const
{
    return {Compare("L2 pauses S1", Count(pausesL2S1), ">", Reading::Of(0)),
            Compare("S1 pauses L0", Count(pausesS1L0), ">", Reading::Of(0)),
            Compare("S1 pauses L1", Count(pausesS1L1), ">", Reading::Of(0)),
            Compare("f0 collapses during the burst",
                    Named("f0 during the burst", f0During),
                    "<",
                    Half(Named("f0 before the burst", f0Before))),
            Compare("f1 collapses during the burst",
                    Named("f1 during the burst", f1During),
                    "<",
                    Half(Named("f1 before the burst", f1Before))),
            Compare("f0 recovers after the burst",
                    Named("f0 after the burst", f0After),
                    ">",
                    Half(Named("f0 before the burst", f0Before)))};
}

std::vector<DconTestbedFact>
DconTestbedFacts::DirectNotificationFacts() const
{
    return {Compare("L2 never pauses S1", Count(pausesL2S1), "==", Reading::Of(0)),
            Compare("f1 is throttled during the burst",
                    Named("f1 during the burst", f1During),
                    "<",
                    Half(Named("f1 before the burst", f1Before))),
            Compare("f0 keeps half its rate during the burst",
                    Named("f0 during the burst", f0During),
                    ">=",
                    Half(Named("f0 before the burst", f0Before)))};
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

std::string
DconTestbedFacts::Verdict(const std::string& cc) const
{
    const std::vector<DconTestbedFact> facts = ExpectedFacts(cc);
    if (facts.empty())
    {
        return "none";
    }
    bool judged = true;
    for (const auto& f : facts)
    {
        if (f.judged && !f.holds)
        {
            return "FAIL";
        }
        judged = judged && f.judged;
    }
    return judged ? "PASS" : "NOT JUDGED";
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
    f.burst = done.size() > 2; // (flows 0 and 1 are f0 and f1)
    // The windows (DconTestbed::GetFacts): before, during and after the burst.
    const Time zero = Time(0);
    const Time before = std::max(zero, start - MilliSeconds(2));
    const Time after = std::max({zero, m_config.stopTime - MilliSeconds(3), end});
    auto read = [this](uint32_t flow, Time from, Time to, const std::string& what, bool burst)
    {
        Reading r = AverageThroughput(flow, from, to);
        if (!r.IsMeasured() && from == to)
        {
            // Name the cause of an empty window in the user's terms.
            r.reason = burst && m_config.burstFlowsPerHost == 0
                           ? "there is no burst (--burstFlowsPerHost=0)"
                       : burst ? "the burst has no duration"
                       : what == "before the burst"
                           ? "the burst starts at " + FormatTime(from) + ": no time before it"
                           : "the burst lasts to the end of the run (" + FormatTime(to) + ")";
        }
        return r;
    };
    f.f0Before = read(0, before, start, "before the burst", false);
    f.f0During = read(0, start, end, "during the burst", true);
    f.f0After = read(0, after, m_config.stopTime, "after the burst", false);
    f.f1Before = read(1, before, start, "before the burst", false);
    f.f1During = read(1, start, end, "during the burst", true);
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
    std::ostream& out = file.Stream();
    out << std::setprecision(6);
    const std::vector<std::pair<const char*, const Reading*>> readings{
        {"f0_before_gbps", &f0Before},
        {"f0_during_gbps", &f0During},
        {"f0_end_gbps", &f0After},
        {"f1_before_gbps", &f1Before},
        {"f1_during_gbps", &f1During}};
    out << "{\n  \"pauses_l2_s1\": " << pausesL2S1 << ",\n  \"pauses_s1_l0\": " << pausesS1L0
        << ",\n  \"pauses_s1_l1\": " << pausesS1L1;
    for (const auto& [key, r] : readings)
    {
        out << ",\n  \"" << key << "\": " << r->Json();
    }
    // The readings that were not measured, with the reason (null above).
    out << ",\n  \"not_measured\": {";
    bool firstReason = true;
    for (const auto& [key, r] : readings)
    {
        if (!r->IsMeasured())
        {
            out << (firstReason ? "" : ", ") << "\"" << key << "\": " << JsonString(r->reason);
            firstReason = false;
        }
    }
    if (!burst)
    {
        out << (firstReason ? "" : ", ")
            << "\"burst_end_s\": " << JsonString("there is no burst (--burstFlowsPerHost=0)");
    }
    out << "}";
    out << ",\n  \"burst_end_s\": ";
    if (burst)
    {
        out << burstEnd.GetSeconds();
    }
    else
    {
        out << "null";
    }
    out << ",\n  \"cnms_f0\": " << cnmsF0 << ",\n  \"cnms_f1\": " << cnmsF1
        << ",\n  \"cnms_f1_applied\": " << cnmsAppliedF1 << ",\n  \"cnms_burst\": " << cnmsBurst;
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
            // "holds": null when the fact is not judged (a reading it compares was not
            // measured), with the reason.
            out << (first ? "\n" : ",\n") << "    {\"figure\": \"" << figure << "\", \"fact\": \""
                << fact.name << "\", \"holds\": "
                << (!fact.judged ? "null"
                    : fact.holds ? "true"
                                 : "false")
                << ", \"expected\": " << (expected ? "true" : "false")
                << ", \"value\": " << fact.value.Json() << ", \"relation\": \"" << fact.relation
                << "\", \"threshold\": " << fact.threshold.Json();
            if (!fact.judged)
            {
                out << ", \"not_judged\": " << JsonString(fact.reason);
            }
            out << "}";
            first = false;
        }
    }
    out << "\n  ],\n  \"verdict\": \"" << Verdict(cc) << "\"\n}\n";
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
