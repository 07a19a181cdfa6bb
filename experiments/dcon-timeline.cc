/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcon-timeline.h"

#include "ns3/atomic-output-file.h"
#include "ns3/cnm-header.h"
#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/log.h"
#include "ns3/monitor-codec.h"
#include "ns3/parallel-run.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconTimeline");

namespace
{
/**
 * \brief DconTimeline as FabricMonitor's extension: only with DCON queues and Interval > 0.
 * \param fabric the fabric
 * \return the timeline, or nullptr
 */
Ptr<FabricMonitorExtension>
CreateDconTimeline(Ptr<RdmaFabric> fabric)
{
    Ptr<DconTimeline> t = Create<DconTimeline>(fabric);
    if (!t->GetInterval().IsStrictlyPositive())
    {
        return nullptr;
    }
    for (uint32_t s : fabric->GetSwitches())
    {
        Ptr<RdmaSwitch> sw = fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t c = 0; c < PfcNetDevice::NUM_PRIORITIES; ++c)
            {
                if (DynamicCast<DconQueueDisc>(sw->GetQueueDisc(p, c)))
                {
                    return t;
                }
            }
        }
    }
    return nullptr;
}

const FabricMonitorExtension::Registration g_dconTimelineRegistration("dcon-timeline",
                                                                      &CreateDconTimeline,
                                                                      {"dcon-timeline.csv",
                                                                       "dcon-senders.csv"},
                                                                      "ns3::DconTimeline",
                                                                      "ns3::DconQueueDisc");

/// A bit rate in Gb/s with 6 decimals.
std::string
Gbps(double bps)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(6) << bps * 1e-9;
    return os.str();
}

/// Picoseconds as seconds with 9 decimals.
std::string
PsSeconds(int64_t ps)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(9) << static_cast<double>(ps) * 1e-12;
    return os.str();
}
} // namespace

NS_OBJECT_ENSURE_REGISTERED(DconTimeline);

TypeId
DconTimeline::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::DconTimeline")
              .SetParent<ObjectBase>()
              .SetGroupName("Dcon")
              .AddAttribute("Interval",
                            "Sampling interval of dcon-timeline.csv and dcon-senders.csv (DCON "
                            "queues per tier and the senders' rates, per interval); 0 (default): "
                            "not written",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&DconTimeline::m_interval),
                            MakeTimeChecker(Time(0)));
    return tid;
}

TypeId
DconTimeline::GetInstanceTypeId() const
{
    return GetTypeId();
}

DconTimeline::DconTimeline(Ptr<RdmaFabric> fabric)
    : m_fabric(fabric)
{
    ConstructSelf(AttributeConstructionList());
}

const char*
DconTimeline::TierName(Tier tier)
{
    switch (tier)
    {
        case TOR_HOST:
            return "tor-host";
        case TOR_UP:
            return "tor-up";
        case CORE:
        default:
            return "core";
    }
}

Time
DconTimeline::GetInterval() const
{
    return m_interval;
}

void
DconTimeline::Start()
{
    // Tiers from the links: a switch with a host link is a ToR.
    std::set<uint32_t> tors;
    std::map<uint64_t, bool> towardsHost; // (switch << 32 | port) -> peer is a host
    for (const RdmaFabric::Link& l : m_fabric->GetLinks())
    {
        const bool aSw = m_fabric->IsSwitch(l.a);
        const bool bSw = m_fabric->IsSwitch(l.b);
        if (aSw)
        {
            towardsHost[(uint64_t(l.a) << 32) | l.portA] = !bSw;
            if (!bSw)
            {
                tors.insert(l.a);
            }
        }
        if (bSw)
        {
            towardsHost[(uint64_t(l.b) << 32) | l.portB] = !aSw;
            if (!aSw)
            {
                tors.insert(l.b);
            }
        }
    }
    for (uint32_t s : m_fabric->GetSwitches())
    {
        if (!m_fabric->IsLocal(s))
        {
            continue;
        }
        Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            const uint64_t key = (uint64_t(s) << 32) | p;
            const Tier tier = tors.count(s) == 0 ? CORE : towardsHost[key] ? TOR_HOST : TOR_UP;
            m_tierOfPort[key] = tier;
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                if (prio == sw->GetControlPriority()
                    || !DynamicCast<DconQueueDisc>(sw->GetQueueDisc(p, prio)))
                {
                    continue;
                }
                QueueState q;
                q.sw = s;
                q.port = p;
                q.priority = prio;
                q.tier = tier;
                m_queues.push_back(q);
            }
        }
        if (Ptr<DconCnmGenerator> g = DynamicCast<DconCnmGenerator>(m_fabric->GetSwitchAgent(s)))
        {
            g->TraceConnectWithoutContext("CnmSent",
                                          MakeCallback(&DconTimeline::CnmSent, this).Bind(s));
        }
    }
    for (uint32_t h : m_fabric->GetHosts())
    {
        if (!m_fabric->IsLocal(h))
        {
            continue;
        }
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        nic->TraceConnectWithoutContext("FlowStart",
                                        MakeCallback(&DconTimeline::FlowStarted, this));
        nic->TraceConnectWithoutContext("FlowComplete",
                                        MakeCallback(&DconTimeline::FlowCompleted, this));
        nic->TraceConnectWithoutContext("CnmReceived",
                                        MakeCallback(&DconTimeline::CnmReceived, this));
    }
    m_event = Simulator::Schedule(m_interval, &DconTimeline::Sample, this);
}

void
DconTimeline::FlowStarted(uint32_t flowId, Ptr<RdmaFlowState> state)
{
    m_flows[flowId] = state;
}

void
DconTimeline::FlowCompleted(const RdmaFlowRecord& record)
{
    m_flows.erase(record.flowId);
}

void
DconTimeline::CnmReceived(const CnmHeader& /* cnm */,
                          uint32_t /* flowId */,
                          DataRate /* rateBefore */,
                          bool applied)
{
    m_cnms++;
    m_cnmsApplied += applied ? 1 : 0;
}

void
DconTimeline::CnmSent(uint32_t sw, uint32_t port, const RdmaFiveTuple& /* flow */, uint32_t /* n */)
{
    auto it = m_tierOfPort.find((uint64_t(sw) << 32) | port);
    if (it != m_tierOfPort.end())
    {
        m_cnmsSent[it->second]++;
    }
}

void
DconTimeline::Sample()
{
    Row row;
    row.time = Simulator::Now();
    for (QueueState& q : m_queues)
    {
        Ptr<DconQueueDisc> dq = DynamicCast<DconQueueDisc>(
            m_fabric->GetSwitch(q.sw)->GetQueueDisc(q.port, q.priority));
        if (dq->GetStats().nTotalEnqueuedPackets == 0)
        {
            continue; // a priority no data used so far
        }
        auto& v = row.queues[q.tier];
        const int64_t bytes = dq->GetNBytes();
        v[Q_QUEUES]++;
        v[Q_BYTES] += bytes;
        v[Q_MAX_BYTES] = std::max(v[Q_MAX_BYTES], bytes);
        const auto times = dq->GetTimeInStates();
        // The phase now: the one whose clock runs (the last to grow is not enough at a tie).
        const bool below = dq->GetState() == DconQueueDisc::NOT_CONGESTED;
        const bool burst = dq->GetState() == DconQueueDisc::BURST;
        v[below ? Q_BELOW : burst ? Q_BURST : dq->IsMarkingDisabled() ? Q_LATCHED : Q_MARKING]++;
        for (std::size_t k = 1; k < 4; ++k)
        {
            const int64_t ps = times[k].GetPicoSeconds();
            v[Q_PS_MARKING + k - 1] += ps - q.lastPs[k];
            q.lastPs[k] = ps;
        }
        const std::array<uint64_t, 7> now{dq->GetStats().nTotalEnqueuedPackets,
                                          dq->GetArrivalsAtQecnFloor(),
                                          dq->GetStats().nTotalMarkedPackets,
                                          dq->GetUnmarkedAboveQecn(),
                                          dq->GetLatchedArrivals(),
                                          dq->GetBurstOnsets(),
                                          dq->GetCnmTriggers()};
        for (std::size_t k = 0; k < now.size(); ++k)
        {
            v[Q_ARRIVALS + k] += static_cast<int64_t>(now[k] - q.last[k]);
            q.last[k] = now[k];
        }
    }
    for (std::size_t t = 0; t < NUM_TIERS; ++t)
    {
        row.queues[t][Q_CNMS_SENT] = m_cnmsSent[t];
    }
    m_cnmsSent.fill(0);
    auto& s = row.senders;
    for (const auto& [id, state] : m_flows)
    {
        const uint64_t rate = state->m_rate.Get().GetBitRate();
        const uint64_t line = state->m_lineRate.GetBitRate();
        s[S_ACTIVE]++;
        s[S_RATE_BPS] += static_cast<int64_t>(rate);
        s[S_TARGET_BPS] += static_cast<int64_t>(state->m_targetRate.Get().GetBitRate());
        s[S_AT_LINE] += 100 * rate >= 95 * line ? 1 : 0;
        s[S_BELOW_TENTH] += 10 * rate < line ? 1 : 0;
    }
    uint64_t cnps = 0;
    uint64_t marked = 0;
    for (uint32_t h : m_fabric->GetHosts())
    {
        if (m_fabric->IsLocal(h))
        {
            const RdmaNic::Stats& st = m_fabric->GetNic(h)->GetStats();
            cnps += st.cnpsReceived;
            marked += st.cnpsCongestedReceived;
        }
    }
    s[S_CNPS] = static_cast<int64_t>(cnps - m_lastCnps);
    s[S_CNPS_MARKED] = static_cast<int64_t>(marked - m_lastCnpsMarked);
    m_lastCnps = cnps;
    m_lastCnpsMarked = marked;
    s[S_CNMS] = m_cnms;
    s[S_CNMS_APPLIED] = m_cnmsApplied;
    m_cnms = 0;
    m_cnmsApplied = 0;
    m_rows.push_back(row);
    m_event = Simulator::Schedule(m_interval, &DconTimeline::Sample, this);
}

void
DconTimeline::Collect()
{
    if (!ParallelRun::IsEnabled())
    {
        return;
    }
    monitor_codec::Encoder e;
    e.Put<uint64_t>(m_rows.size());
    for (const Row& r : m_rows)
    {
        e.PutTime(r.time);
        for (const auto& tier : r.queues)
        {
            for (int64_t x : tier)
            {
                e.Put(x);
            }
        }
        for (int64_t x : r.senders)
        {
            e.Put(x);
        }
    }
    std::vector<std::string> parts = ParallelRun::Gather(e.buf);
    if (!ParallelRun::IsRoot())
    {
        return;
    }
    std::vector<Row> sum;
    for (const std::string& part : parts)
    {
        monitor_codec::Decoder d(part);
        const auto n = d.Get<uint64_t>();
        if (sum.size() < n)
        {
            sum.resize(n);
        }
        for (uint64_t i = 0; i < n; ++i)
        {
            Row& r = sum[i];
            r.time = d.GetTime();
            for (std::size_t t = 0; t < NUM_TIERS; ++t)
            {
                for (std::size_t k = 0; k < Q_NUM_FIELDS; ++k)
                {
                    const auto x = d.Get<int64_t>();
                    r.queues[t][k]
                        = k == Q_MAX_BYTES ? std::max(r.queues[t][k], x) : r.queues[t][k] + x;
                }
            }
            for (std::size_t k = 0; k < S_NUM_FIELDS; ++k)
            {
                r.senders[k] += d.Get<int64_t>();
            }
        }
    }
    m_rows = sum;
}

void
DconTimeline::WriteFiles(const std::string& dir, const NodeNames& /* name */) const
{
    {
        AtomicOutputFile file((std::filesystem::path(dir) / "dcon-timeline.csv").string());
        std::ofstream& out = file.Stream();
        out << "time_s,tier,queues,bytes,max_queue_bytes,queues_below,queues_marking,"
               "queues_latched,queues_burst,queue_s_marking,queue_s_latched,queue_s_burst,"
               "arrivals,arrivals_qcnm_at_qecn,ecn_marks,unmarked_above_qecn,latched_arrivals,"
               "burst_onsets,cnm_triggers,cnms_sent\n";
        for (const Row& r : m_rows)
        {
            for (std::size_t t = 0; t < NUM_TIERS; ++t)
            {
                const auto& v = r.queues[t];
                if (v[Q_QUEUES] == 0)
                {
                    continue;
                }
                out << monitor_codec::Seconds(r.time) << "," << TierName(Tier(t));
                for (std::size_t k = 0; k < Q_NUM_FIELDS; ++k)
                {
                    out << ",";
                    if (k >= Q_PS_MARKING && k <= Q_PS_BURST)
                    {
                        out << PsSeconds(v[k]);
                    }
                    else
                    {
                        out << v[k];
                    }
                }
                out << "\n";
            }
        }
        file.Commit();
    }
    AtomicOutputFile file((std::filesystem::path(dir) / "dcon-senders.csv").string());
    std::ofstream& out = file.Stream();
    out << "time_s,active_flows,mean_rate_gbps,mean_target_gbps,flows_at_line,flows_below_tenth,"
           "cnps_received,cnps_marked,cnms_received,cnms_applied\n";
    for (const Row& r : m_rows)
    {
        const auto& s = r.senders;
        const double n = static_cast<double>(std::max<int64_t>(s[S_ACTIVE], 1));
        out << monitor_codec::Seconds(r.time) << "," << s[S_ACTIVE] << ","
            << Gbps(static_cast<double>(s[S_RATE_BPS]) / n) << ","
            << Gbps(static_cast<double>(s[S_TARGET_BPS]) / n) << "," << s[S_AT_LINE] << ","
            << s[S_BELOW_TENTH] << "," << s[S_CNPS] << "," << s[S_CNPS_MARKED] << "," << s[S_CNMS]
            << "," << s[S_CNMS_APPLIED] << "\n";
    }
    file.Commit();
}

void
DconTimeline::WriteSummary(std::ostream& /* out */, const NodeNames& /* name */) const
{
}

} // namespace ns3
