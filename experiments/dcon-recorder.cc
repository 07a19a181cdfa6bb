/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcon-recorder.h"

#include "ns3/atomic-output-file.h"
#include "ns3/dcon-cnm-generator.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/fabric-monitor.h"
#include "ns3/monitor-codec.h"
#include "ns3/parallel-run.h"
#include "ns3/rdma-switch.h"
#include "ns3/simulator.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <tuple>

namespace ns3
{

using monitor_codec::Decoder;
using monitor_codec::Encoder;

namespace
{
/// "1.234567" Gb/s of a rate in bit/s (six decimals, no exponent).
std::string
Gbps(uint64_t bps)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(6) << static_cast<double>(bps) / 1e9;
    return os.str();
}

/// A dotted-quad address of a host-order value.
std::string
Dotted(uint32_t a)
{
    std::ostringstream os;
    Ipv4Address(a).Print(os);
    return os.str();
}
/**
 * \brief DconRecorder as FabricMonitor's extension, for fabrics with DCON queues.
 * \param fabric the fabric
 * \return the recorder, or nullptr
 */
Ptr<FabricMonitorExtension>
CreateDconRecorder(Ptr<RdmaFabric> fabric)
{
    if (!DconRecorder::HasDconQueues(fabric))
    {
        return nullptr;
    }
    return Create<DconRecorder>(fabric);
}

/// FabricMonitor writes DCON's records (cnm.csv, summary.json's DCON keys) through this.
const FabricMonitorExtension::Registration g_dconRecorderRegistration("dcon",
                                                                      &CreateDconRecorder,
                                                                      {"cnm.csv"});

} // namespace

DconRecorder::DconRecorder(Ptr<RdmaFabric> fabric)
    : m_fabric(fabric)
{
}

DconRecorder::~DconRecorder()
{
    if (m_spill)
    {
        std::fclose(m_spill);
    }
}

bool
DconRecorder::HasDconQueues(Ptr<RdmaFabric> fabric)
{
    for (uint32_t s : fabric->GetSwitches())
    {
        Ptr<RdmaSwitch> sw = fabric->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t c = 0; c < PfcNetDevice::NUM_PRIORITIES; ++c)
            {
                if (DynamicCast<DconQueueDisc>(sw->GetQueueDisc(p, c)))
                {
                    return true;
                }
            }
        }
    }
    return false;
}

void
DconRecorder::Start()
{
    m_streaming = !ParallelRun::IsEnabled();
    for (uint32_t s : m_fabric->GetSwitches())
    {
        if (Ptr<DconCnmGenerator> g = DynamicCast<DconCnmGenerator>(m_fabric->GetSwitchAgent(s)))
        {
            g->TraceConnectWithoutContext("CnmSent",
                                          MakeCallback(&DconRecorder::CnmSent, this).Bind(s));
        }
    }
    for (uint32_t h : m_fabric->GetHosts())
    {
        m_fabric->GetNic(h)->TraceConnectWithoutContext(
            "CnmReceived", MakeCallback(&DconRecorder::CnmReceived, this));
    }
}

void
DconRecorder::CnmSent(uint32_t sw, uint32_t port, const RdmaFiveTuple& flow, uint32_t n)
{
    Cnm c;
    c.sent = Simulator::Now();
    c.sw = sw;
    c.port = port;
    c.src = flow.src.Get();
    c.dst = flow.dst.Get();
    c.sport = flow.sport;
    c.n = static_cast<uint16_t>(std::min<uint32_t>(n, UINT16_MAX)); // as the CNM carries it
    c.capacityBps = m_fabric->GetSwitch(sw)->GetDevice(port)->GetDataRate().GetBitRate();
    Sent(c);
}

void
DconRecorder::CnmReceived(const CnmHeader& cnm, uint32_t flowId, DataRate rateBefore, bool applied)
{
    Receipt r;
    r.time = Simulator::Now();
    r.cpid = cnm.GetCpid();
    r.src = cnm.GetSource().Get();
    r.dst = cnm.GetDestination().Get();
    r.sport = cnm.GetSourcePort();
    r.flowId = flowId;
    r.rateBefore = rateBefore.GetBitRate();
    r.applied = applied;
    Received(r);
}

void
DconRecorder::Sent(const Cnm& c)
{
    if (!m_streaming)
    {
        m_sent.push_back(c);
        return;
    }
    const uint64_t seq = m_windowBase + m_window.size();
    m_window.push_back(Row{c, false});
    const Key key((static_cast<uint64_t>(c.sw) << 16) | c.port, c.src, c.dst, c.sport);
    auto orphans = m_orphans.find(key);
    if (orphans != m_orphans.end())
    {
        // An arrival came first (no recorded generator sent it): the join at the end would
        // give it to the first CNM of its key, this one.
        const Orphan o = orphans->second.front();
        orphans->second.pop_front();
        if (orphans->second.empty())
        {
            m_orphans.erase(orphans);
        }
        Match(seq, o.receipt, o.seq);
    }
    else
    {
        m_unmatched[key].push_back(seq);
    }
    Flush();
}

void
DconRecorder::Received(const Receipt& r)
{
    if (!m_streaming)
    {
        m_receiptLog.push_back(r);
        return;
    }
    const uint64_t receiptSeq = m_receipts++;
    const Key key(r.cpid, r.src, r.dst, r.sport);
    auto waiting = m_unmatched.find(key);
    if (waiting == m_unmatched.end())
    {
        m_orphans[key].push_back(Orphan{r, receiptSeq});
        return;
    }
    const uint64_t seq = waiting->second.front();
    waiting->second.pop_front();
    if (waiting->second.empty())
    {
        m_unmatched.erase(waiting);
    }
    Match(seq, r, receiptSeq);
    Flush();
}

void
DconRecorder::Match(uint64_t seq, const Receipt& r, uint64_t receiptSeq)
{
    Row& row = m_window.at(seq - m_windowBase);
    Cnm& c = row.cnm;
    row.matched = true;
    c.received = r.time;
    c.flowOpen = r.flowId != UINT32_MAX;
    c.flowId = r.flowId;
    c.rateBeforeBps = r.rateBefore;
    c.applied = r.applied;
    if (c.flowOpen)
    {
        // The join at the end takes the flow id of the last open arrival in arrival order
        // (time, congestion point, then as reported).
        FlowIdOf candidate{r.time, r.cpid, receiptSeq, r.flowId};
        auto [it, inserted] = m_flowIdOf.emplace(FlowKey(r.src, r.dst, r.sport), candidate);
        if (!inserted
            && std::tie(it->second.time, it->second.cpid, it->second.seq)
                   < std::tie(candidate.time, candidate.cpid, candidate.seq))
        {
            it->second = candidate;
        }
    }
}

void
DconRecorder::Flush()
{
    std::vector<Cnm> group;
    while (!m_window.empty())
    {
        // The rows sent at the front row's time: complete once a later row exists.
        const Time t = m_window.front().cnm.sent;
        std::size_t end = 0;
        bool matched = true;
        while (end < m_window.size() && m_window[end].cnm.sent == t)
        {
            matched = matched && m_window[end].matched;
            ++end;
        }
        if (end == m_window.size() || !matched)
        {
            return;
        }
        group.clear();
        for (std::size_t i = 0; i < end; ++i)
        {
            group.push_back(m_window[i].cnm);
        }
        std::stable_sort(group.begin(),
                         group.end(),
                         [](const Cnm& a, const Cnm& b)
                         {
                             return std::tie(a.sw, a.port) < std::tie(b.sw, b.port);
                         });
        Spill(group);
        m_window.erase(m_window.begin(), m_window.begin() + end);
        m_windowBase += end;
    }
}

namespace
{
/// A CNM row in the spill file (times in time steps).
struct SpillRow
{
    int64_t sent;           //!< Cnm::sent
    int64_t received;       //!< Cnm::received
    uint64_t capacityBps;   //!< Cnm::capacityBps
    uint64_t rateBeforeBps; //!< Cnm::rateBeforeBps
    uint32_t sw;            //!< Cnm::sw
    uint32_t port;          //!< Cnm::port
    uint32_t src;           //!< Cnm::src
    uint32_t dst;           //!< Cnm::dst
    uint32_t flowId;        //!< Cnm::flowId
    uint16_t sport;         //!< Cnm::sport
    uint16_t n;             //!< Cnm::n
    uint8_t flowOpen;       //!< Cnm::flowOpen
    uint8_t applied;        //!< Cnm::applied
};

/// Rows read back at a time.
constexpr std::size_t SPILL_CHUNK = 4096;

/// The spill file's error, naming the folder.
std::runtime_error
SpillError(const std::string& what)
{
    return std::runtime_error("DconRecorder: " + what + " the temporary file of cnm.csv's rows in "
                              + std::filesystem::temp_directory_path().string() + ": "
                              + std::strerror(errno));
}
} // namespace

void
DconRecorder::Spill(const std::vector<Cnm>& rows)
{
    if (!m_spill)
    {
        // A file of our own in the temporary folder, unlinked at once: nothing is left behind
        // whatever ends the run.
        std::string path
            = (std::filesystem::temp_directory_path() / "dcon-cnm-rows-XXXXXX").string();
        const int fd = mkstemp(path.data());
        if (fd < 0)
        {
            throw SpillError("cannot create");
        }
        unlink(path.c_str());
        m_spill = fdopen(fd, "w+b");
        if (!m_spill)
        {
            close(fd);
            throw SpillError("cannot open");
        }
    }
    for (const Cnm& c : rows)
    {
        const SpillRow r{c.sent.GetTimeStep(),
                         c.received.GetTimeStep(),
                         c.capacityBps,
                         c.rateBeforeBps,
                         c.sw,
                         c.port,
                         c.src,
                         c.dst,
                         c.flowId,
                         c.sport,
                         c.n,
                         static_cast<uint8_t>(c.flowOpen),
                         static_cast<uint8_t>(c.applied)};
        if (std::fwrite(&r, sizeof(r), 1, m_spill) != 1)
        {
            throw SpillError("cannot write");
        }
    }
    m_spilled += rows.size();
}

void
DconRecorder::ForEachCnm(const std::function<void(const Cnm&)>& fn) const
{
    if (!m_streaming)
    {
        for (const Cnm& c : JoinRecords())
        {
            fn(c);
        }
        return;
    }
    auto fill = [this, &fn](Cnm& c)
    {
        if (c.flowId == UINT32_MAX)
        {
            auto it = m_flowIdOf.find(FlowKey(c.src, c.dst, c.sport));
            if (it != m_flowIdOf.end())
            {
                c.flowId = it->second.flowId;
            }
        }
        fn(c);
    };
    if (m_spilled > 0)
    {
        if (std::fflush(m_spill) != 0)
        {
            throw SpillError("cannot write");
        }
        std::vector<SpillRow> chunk(SPILL_CHUNK);
        for (uint64_t done = 0; done < m_spilled;)
        {
            const std::size_t n
                = static_cast<std::size_t>(std::min<uint64_t>(SPILL_CHUNK, m_spilled - done));
            const std::size_t bytes = n * sizeof(SpillRow);
            // pread: the writes (fwrite) go on at the end of the file.
            if (pread(fileno(m_spill),
                      chunk.data(),
                      bytes,
                      static_cast<off_t>(done * sizeof(SpillRow)))
                != static_cast<ssize_t>(bytes))
            {
                throw SpillError("cannot read");
            }
            for (std::size_t i = 0; i < n; ++i)
            {
                const SpillRow& r = chunk[i];
                Cnm c;
                c.sent = Time(r.sent);
                c.received = Time(r.received);
                c.capacityBps = r.capacityBps;
                c.rateBeforeBps = r.rateBeforeBps;
                c.sw = r.sw;
                c.port = r.port;
                c.src = r.src;
                c.dst = r.dst;
                c.flowId = r.flowId;
                c.sport = r.sport;
                c.n = r.n;
                c.flowOpen = r.flowOpen != 0;
                c.applied = r.applied != 0;
                fill(c);
            }
            done += n;
        }
    }
    // The rows still in the window: same-time groups by switch and port, those not matched yet
    // as not received.
    std::vector<Cnm> rest;
    rest.reserve(m_window.size());
    for (const Row& row : m_window)
    {
        rest.push_back(row.cnm);
    }
    std::stable_sort(rest.begin(),
                     rest.end(),
                     [](const Cnm& a, const Cnm& b)
                     {
                         return std::tie(a.sent, a.sw, a.port) < std::tie(b.sent, b.sw, b.port);
                     });
    for (Cnm& c : rest)
    {
        fill(c);
    }
}

std::vector<DconRecorder::Cnm>
DconRecorder::GetCnms() const
{
    std::vector<Cnm> out;
    ForEachCnm(
        [&out](const Cnm& c)
        {
            out.push_back(c);
        });
    return out;
}

std::vector<DconRecorder::Cnm>
DconRecorder::JoinRecords() const
{
    std::vector<Cnm> out = m_sent;
    // One order whatever engine ran (a parallel run gathers rank by rank).
    std::stable_sort(out.begin(),
                     out.end(),
                     [](const Cnm& a, const Cnm& b)
                     {
                         return std::tie(a.sent, a.sw, a.port) < std::tie(b.sent, b.sw, b.port);
                     });
    std::vector<Receipt> rec = m_receiptLog;
    std::stable_sort(rec.begin(),
                     rec.end(),
                     [](const Receipt& a, const Receipt& b)
                     {
                         return std::tie(a.time, a.cpid, a.src, a.sport)
                                < std::tie(b.time, b.cpid, b.src, b.sport);
                     });
    std::map<Key, std::deque<std::size_t>> waiting;
    for (std::size_t i = 0; i < out.size(); ++i)
    {
        const Cnm& c = out[i];
        waiting[Key((static_cast<uint64_t>(c.sw) << 16) | c.port, c.src, c.dst, c.sport)].push_back(
            i);
    }
    std::map<FlowKey, uint32_t> flowOf; // 5-tuple -> flow id
    for (const Receipt& r : rec)
    {
        auto it = waiting.find(Key(r.cpid, r.src, r.dst, r.sport));
        if (it == waiting.end() || it->second.empty())
        {
            continue; // not sent by a recorded generator (cannot happen in one fabric)
        }
        Cnm& c = out[it->second.front()];
        it->second.pop_front();
        c.received = r.time;
        c.flowOpen = r.flowId != UINT32_MAX;
        c.flowId = r.flowId;
        c.rateBeforeBps = r.rateBefore;
        c.applied = r.applied;
        if (c.flowOpen)
        {
            flowOf[{r.src, r.dst, r.sport}] = r.flowId;
        }
    }
    for (Cnm& c : out)
    {
        if (c.flowId == UINT32_MAX)
        {
            auto it = flowOf.find({c.src, c.dst, c.sport});
            if (it != flowOf.end())
            {
                c.flowId = it->second;
            }
        }
    }
    return out;
}

DconRecorder::Counters
DconRecorder::LocalCounters() const
{
    Counters c;
    // The DCON queues' named counters (DconQueueDisc::GetCounters), added up on this rank.
    std::map<std::string, uint64_t> q
        = FabricMonitor::SumQueueCounters(m_fabric, DconQueueDisc::GetTypeId());
    c.arrivals = q["arrivals"];
    c.atFloor = q["arrivals_at_qecn_floor"];
    c.unmarked = q["unmarked_above_qecn"];
    c.latched = q["latched_arrivals"];
    c.onsets = q["burst_onsets"];
    c.triggers = q["cnm_triggers"];
    for (uint32_t s : m_fabric->GetSwitches())
    {
        if (!m_fabric->IsLocal(s))
        {
            continue;
        }
        if (Ptr<DconCnmGenerator> g = DynamicCast<DconCnmGenerator>(m_fabric->GetSwitchAgent(s)))
        {
            c.suppressedNoInnocent += g->GetStats().noInnocentFlow;
            c.rateLimited += g->GetStats().rateLimited;
        }
    }
    return c;
}

std::vector<DconRecorder::QueueTimes>
DconRecorder::LocalQueueTimes() const
{
    std::vector<QueueTimes> out;
    for (uint32_t s : m_fabric->GetSwitches())
    {
        Ptr<RdmaSwitch> sw = m_fabric->GetSwitch(s);
        const bool local = m_fabric->IsLocal(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            for (uint8_t prio = 0; prio < PfcNetDevice::NUM_PRIORITIES; ++prio)
            {
                Ptr<DconQueueDisc> dq = DynamicCast<DconQueueDisc>(sw->GetQueueDisc(p, prio));
                if (!dq || prio == sw->GetControlPriority())
                {
                    continue;
                }
                QueueTimes q;
                q.sw = s;
                q.port = p;
                q.priority = prio;
                if (local) // a node of another rank never runs here: zeros, summed by Collect
                {
                    const auto t = dq->GetTimeInStates();
                    for (std::size_t k = 0; k < t.size(); ++k)
                    {
                        q.ps[k] = t[k].GetPicoSeconds();
                    }
                    q.latchedArrivals = dq->GetLatchedArrivals();
                }
                out.push_back(q);
            }
        }
    }
    return out;
}

std::vector<DconRecorder::QueueTimes>
DconRecorder::GetQueueTimes() const
{
    return m_collected ? m_queueTimes : LocalQueueTimes();
}

void
DconRecorder::Collect()
{
    if (!ParallelRun::IsEnabled() || m_collected)
    {
        return;
    }
    Encoder e;
    e.Put<uint64_t>(m_sent.size());
    for (const Cnm& c : m_sent)
    {
        e.PutTime(c.sent);
        e.Put(c.sw);
        e.Put(c.port);
        e.Put(c.src);
        e.Put(c.dst);
        e.Put(c.sport);
        e.Put(c.n);
        e.Put(c.capacityBps);
    }
    e.Put<uint64_t>(m_receiptLog.size());
    for (const Receipt& r : m_receiptLog)
    {
        e.PutTime(r.time);
        e.Put(r.cpid);
        e.Put(r.src);
        e.Put(r.dst);
        e.Put(r.sport);
        e.Put(r.flowId);
        e.Put(r.rateBefore);
        e.Put<uint8_t>(r.applied);
    }
    const Counters mine = LocalCounters();
    for (uint64_t x : {mine.arrivals,
                       mine.atFloor,
                       mine.unmarked,
                       mine.latched,
                       mine.onsets,
                       mine.triggers,
                       mine.suppressedNoInnocent,
                       mine.rateLimited})
    {
        e.Put(x);
    }
    const std::vector<QueueTimes> times = LocalQueueTimes();
    for (const QueueTimes& q : times)
    {
        for (int64_t ps : q.ps)
        {
            e.Put(ps);
        }
        e.Put(q.latchedArrivals);
    }
    std::vector<std::string> parts = ParallelRun::Gather(e.buf);
    m_collected = true;
    if (!ParallelRun::IsRoot())
    {
        return;
    }
    m_sent.clear();
    m_receiptLog.clear();
    m_counters = Counters();
    m_queueTimes = times;
    for (QueueTimes& q : m_queueTimes)
    {
        q.ps.fill(0);
        q.latchedArrivals = 0;
    }
    for (std::size_t r = 0; r < parts.size(); ++r)
    {
        Decoder d(parts[r]);
        for (auto n = d.Get<uint64_t>(); n > 0; --n)
        {
            Cnm c;
            c.sent = d.GetTime();
            c.sw = d.Get<uint32_t>();
            c.port = d.Get<uint32_t>();
            c.src = d.Get<uint32_t>();
            c.dst = d.Get<uint32_t>();
            c.sport = d.Get<uint16_t>();
            c.n = d.Get<uint16_t>();
            c.capacityBps = d.Get<uint64_t>();
            m_sent.push_back(c);
        }
        for (auto n = d.Get<uint64_t>(); n > 0; --n)
        {
            Receipt x;
            x.time = d.GetTime();
            x.cpid = d.Get<uint64_t>();
            x.src = d.Get<uint32_t>();
            x.dst = d.Get<uint32_t>();
            x.sport = d.Get<uint16_t>();
            x.flowId = d.Get<uint32_t>();
            x.rateBefore = d.Get<uint64_t>();
            x.applied = d.Get<uint8_t>() != 0;
            m_receiptLog.push_back(x);
        }
        for (uint64_t* x : {&m_counters.arrivals,
                            &m_counters.atFloor,
                            &m_counters.unmarked,
                            &m_counters.latched,
                            &m_counters.onsets,
                            &m_counters.triggers,
                            &m_counters.suppressedNoInnocent,
                            &m_counters.rateLimited})
        {
            *x += d.Get<uint64_t>();
        }
        for (QueueTimes& q : m_queueTimes)
        {
            for (int64_t& ps : q.ps)
            {
                ps += d.Get<int64_t>();
            }
            q.latchedArrivals += d.Get<uint64_t>();
        }
        if (!d.AtEnd())
        {
            throw std::runtime_error("DconRecorder::Collect: rank " + std::to_string(r)
                                     + " sent more than expected");
        }
    }
}

void
DconRecorder::WriteCnmCsv(const std::string& path,
                          const std::function<std::string(uint32_t)>& name) const
{
    AtomicOutputFile file(path);
    std::ostream& out = file.Stream();
    out << "time_s,switch,port,flow_id,src,dst,sport,n,capacity_gbps,target_gbps,received_s,"
           "rate_before_gbps,applied\n";
    auto host = [this, &name](uint32_t addr)
    {
        const uint32_t node = m_fabric->GetNodeByAddress(Ipv4Address(addr));
        return node == UINT32_MAX ? Dotted(addr) : name(node);
    };
    ForEachCnm(
        [&](const Cnm& c)
        {
            out << monitor_codec::Seconds(c.sent) << "," << name(c.sw) << "," << c.port << ",";
            if (c.flowId != UINT32_MAX)
            {
                out << c.flowId;
            }
            out << "," << host(c.src) << "," << host(c.dst) << "," << c.sport << "," << c.n << ","
                << Gbps(c.capacityBps) << "," << Gbps(c.capacityBps / std::max<uint16_t>(c.n, 1))
                << ",";
            if (!c.received.IsStrictlyNegative())
            {
                out << monitor_codec::Seconds(c.received);
            }
            out << ",";
            if (c.flowOpen)
            {
                out << Gbps(c.rateBeforeBps);
            }
            out << "," << (c.applied ? 1 : 0) << "\n";
        });
    file.Commit();
}

void
DconRecorder::WriteFiles(const std::string& dir, const NodeNames& name) const
{
    WriteCnmCsv((std::filesystem::path(dir) / "cnm.csv").string(), name);
}

void
DconRecorder::WriteSummary(std::ostream& out, const NodeNames& name) const
{
    const Counters c = m_collected ? m_counters : LocalCounters();
    const std::vector<QueueTimes> times = GetQueueTimes();
    std::array<double, 4> total{};
    for (const QueueTimes& q : times)
    {
        for (std::size_t k = 0; k < 4; ++k)
        {
            total[k] += static_cast<double>(q.ps[k]) * 1e-12;
        }
    }
    const double congested = total[1] + total[2] + total[3];
    // Shares of no time at or above Q_ECN are not measured: null.
    auto share = [congested](double x)
    {
        return congested > 0 ? Reading::Of(x / congested) : Reading::NotMeasured("no time");
    };
    out << "  \"dcon_queues\": {\"arrivals\": " << c.arrivals
        << ", \"arrivals_qcnm_at_qecn\": " << c.atFloor
        << ", \"unmarked_above_qecn\": " << c.unmarked << ", \"latched_arrivals\": " << c.latched
        << ", \"burst_onsets\": " << c.onsets << ", \"cnm_triggers\": " << c.triggers
        << ", \"reports_no_innocent_flow\": " << c.suppressedNoInnocent
        << ", \"reports_rate_limited\": " << c.rateLimited << ",\n";
    out << "    \"queue_seconds\": {\"below_qecn\": " << total[0] << ", \"marking\": " << total[1]
        << ", \"latched\": " << total[2] << ", \"burst\": " << total[3] << "},\n";
    out << "    \"shares_above_qecn\": {\"marking\": " << share(total[1]).Json()
        << ", \"latched\": " << share(total[2]).Json() << ", \"burst\": " << share(total[3]).Json()
        << "},\n";
    out << "    \"per_queue\": [";
    bool first = true;
    for (const QueueTimes& q : times)
    {
        const int64_t above = q.ps[1] + q.ps[2] + q.ps[3];
        if (above == 0)
        {
            continue; // never left "below Q_ECN"
        }
        // Seconds, not shares of the run: the time below Q_ECN runs on to the end of the
        // simulation, which depends on the engine (a parallel run stops up to the completion
        // message's delay later), while the time at or above Q_ECN does not.
        out << (first ? "\n" : ",\n") << "      {\"switch\": \"" << name(q.sw)
            << "\", \"port\": " << q.port << ", \"priority\": " << +q.priority
            << ", \"marking_s\": " << static_cast<double>(q.ps[1]) * 1e-12
            << ", \"latched_s\": " << static_cast<double>(q.ps[2]) * 1e-12
            << ", \"burst_s\": " << static_cast<double>(q.ps[3]) * 1e-12
            << ", \"latched_arrivals\": " << q.latchedArrivals << "}";
        first = false;
    }
    out << (first ? "" : "\n    ") << "]},\n";
    uint64_t received = 0;
    uint64_t applied = 0;
    uint64_t notLowering = 0;
    uint64_t raised = 0;
    uint64_t flowEnded = 0;
    uint64_t sent = 0;
    ForEachCnm(
        [&](const Cnm& m)
        {
            sent++;
            if (m.received.IsStrictlyNegative())
            {
                return;
            }
            received++;
            applied += m.applied;
            flowEnded += !m.flowOpen;
            const uint64_t target = m.capacityBps / std::max<uint16_t>(m.n, 1);
            if (m.flowOpen && target >= m.rateBeforeBps)
            {
                notLowering++;
                raised += m.applied && target > m.rateBeforeBps;
            }
        });
    out << "  \"cnms\": {\"sent\": " << sent << ", \"received\": " << received
        << ", \"applied\": " << applied << ", \"not_lowering\": " << notLowering
        << ", \"raised_rate\": " << raised << ", \"flow_ended\": " << flowEnded << "},\n";
}

} // namespace ns3
