/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// DconRecorder (experiments/dcon-recorder.h) streams cnm.csv's rows in sequential runs: a CNM
// is joined with its arrival as it comes and written to a temporary file once its same-time
// group is complete. The rows must be those of the join at the end that parallel runs do (and
// that every run did before): same order, same matches, same flow ids filled in, at any moment.

#include "ns3/dcon-queue-disc.h"
#include "ns3/dcon-recorder.h"
#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/// Feeds a DconRecorder's CNM events without a fabric.
class DconRecorderTestAccess
{
public:
    /// \param r the recorder \param streaming join as CNMs arrive (else at the end)
    static void
    SetStreaming(DconRecorder& r, bool streaming)
    {
        r.m_streaming = streaming;
    }

    /// \param r the recorder \param c a CNM sent (not yet received)
    static void
    Sent(DconRecorder& r, const DconRecorder::Cnm& c)
    {
        r.Sent(c);
    }

    /// An arrival at a sender.
    static void
    Received(DconRecorder& r,
             Time t,
             uint32_t sw,
             uint32_t port,
             uint32_t src,
             uint32_t dst,
             uint16_t sport,
             uint32_t flowId,
             uint64_t rateBefore,
             bool applied)
    {
        DconRecorder::Receipt x;
        x.time = t;
        x.cpid = (static_cast<uint64_t>(sw) << 16) | port;
        x.src = src;
        x.dst = dst;
        x.sport = sport;
        x.flowId = flowId;
        x.rateBefore = rateBefore;
        x.applied = applied;
        r.Received(x);
    }
};

} // namespace ns3

using namespace ns3;

namespace
{

/// One row's fields, for comparison.
std::string
Fields(const DconRecorder::Cnm& c)
{
    std::ostringstream os;
    os << c.sent.GetTimeStep() << " " << c.sw << " " << c.port << " " << c.src << " " << c.dst
       << " " << c.sport << " " << c.n << " " << c.capacityBps << " " << c.received.GetTimeStep()
       << " " << c.flowId << " " << c.rateBeforeBps << " " << c.flowOpen << " " << c.applied;
    return os.str();
}

/// Every row of a recorder.
std::vector<std::string>
Rows(const DconRecorder& r)
{
    std::vector<std::string> out;
    for (const auto& c : r.GetCnms())
    {
        out.push_back(Fields(c));
    }
    return out;
}

} // namespace

// Random CNM traffic with what makes the join tricky: many CNMs sent at the same time by
// switches in any order, flows of few 5-tuples (a tuple reused by another flow id), arrivals
// that name an ended flow, CNMs that never arrive, arrivals with no CNM before them (no
// recorded generator sent them). Both ways give the same rows at every step and at the end,
// across the spill file's chunks.
TEST(DconRecorder, StreamingJoinEqualsJoinAtTheEnd)
{
    DconRecorder streamed(nullptr);
    DconRecorder atEnd(nullptr);
    DconRecorderTestAccess::SetStreaming(streamed, true);
    DconRecorderTestAccess::SetStreaming(atEnd, false);
    std::mt19937 rng(5);
    struct Pending
    {
        Time at;
        uint32_t sw, port, src, dst;
        uint16_t sport;
        uint32_t flowId;
        uint64_t rate;
        bool applied;
        uint64_t order;
    };
    std::vector<Pending> arrivals;
    uint64_t order = 0;
    for (int64_t t = 0; t < 12000; ++t)
    {
        const Time now = NanoSeconds(t);
        // arrivals due now (in the order they were scheduled: per key, in send order)
        std::stable_sort(arrivals.begin(),
                         arrivals.end(),
                         [](const Pending& a, const Pending& b)
                         {
                             return std::tie(a.at, a.order) < std::tie(b.at, b.order);
                         });
        std::size_t due = 0;
        while (due < arrivals.size() && arrivals[due].at == now)
        {
            const Pending& p = arrivals[due++];
            for (DconRecorder* r : {&streamed, &atEnd})
            {
                DconRecorderTestAccess::Received(
                    *r, now, p.sw, p.port, p.src, p.dst, p.sport, p.flowId, p.rate, p.applied);
            }
        }
        arrivals.erase(arrivals.begin(), arrivals.begin() + due);
        if (rng() % 4 == 0)
        {
            continue; // a quiet nanosecond
        }
        for (uint32_t k = rng() % 4; k > 0; --k)
        {
            DconRecorder::Cnm c;
            c.sent = now;
            c.sw = 3 - rng() % 3; // same-time sends, switches in any order
            c.port = rng() % 3;
            c.src = 10 + rng() % 3;
            c.dst = 20 + rng() % 2;
            c.sport = static_cast<uint16_t>(49152 + rng() % 3);
            c.n = static_cast<uint16_t>(rng() % 5);
            c.capacityBps = 100'000'000'000ULL;
            for (DconRecorder* r : {&streamed, &atEnd})
            {
                DconRecorderTestAccess::Sent(*r, c);
            }
            const uint32_t fate = rng() % 20;
            if (fate == 0)
            {
                continue; // never arrives
            }
            // a fixed delay per key keeps arrivals of one key in send order
            const Time at = now + NanoSeconds(5 + (c.sw + c.port + c.src) % 7);
            const uint32_t flowId = fate == 1 ? UINT32_MAX // the flow had ended
                                              : (c.src * 100 + c.sport) + (t > 6000 ? 7 : 0);
            arrivals.push_back({at,
                                c.sw,
                                c.port,
                                c.src,
                                c.dst,
                                c.sport,
                                flowId,
                                rng() % 1000,
                                fate % 2 == 0,
                                order++});
        }
        if (rng() % 200 == 0)
        {
            // an arrival nobody recorded sending (port 9: never used by the CNMs above)
            arrivals.push_back({now + NanoSeconds(1), 1, 9, 10, 20, 49152, 5, 1, true, order++});
        }
        if (t % 997 == 0)
        {
            ASSERT_EQ(Rows(streamed), Rows(atEnd)) << "at " << t << " ns";
        }
    }
    const auto a = Rows(streamed);
    const auto b = Rows(atEnd);
    EXPECT_GT(a.size(), 10000u); // more than two chunks of the spill file
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        ASSERT_EQ(a[i], b[i]) << "row " << i;
    }
}

// A DCON incast writes the same cnm.csv and summary.json's CNM figures either way.
TEST(DconRecorder, StreamedFilesEqualTheJoinAtTheEnd)
{
    std::vector<std::string> csv;
    std::vector<std::string> summary;
    for (bool streaming : {true, false})
    {
        LeafSpineHelper ls(1, 1, 10);
        ls.SetHostLink(DataRate("40Gbps"), MicroSeconds(1));
        ls.SetFabricLink(DataRate("40Gbps"), MicroSeconds(1));
        RdmaFabricHelper fh;
        fh.SetCongestionControl("dcon");
        fh.SetQueueDisc("ns3::DconQueueDisc",
                        "QEcn",
                        QueueSizeValue(QueueSize("5KB")),
                        "QcnmMode",
                        StringValue("Fixed"),
                        "QCnm",
                        QueueSizeValue(QueueSize("20KB")));
        Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        for (uint32_t i = 0; i < 8; ++i)
        {
            flows->AddFlow(ls.GetHost(0, i), ls.GetHost(0, 8), 300000, Time(0));
        }
        flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(0, 9), 3000000, Time(0));
        flows->SetStopWhenDone(true);
        Ptr<FabricMonitor> mon = Create<FabricMonitor>(f, flows);
        mon->Start(MicroSeconds(100), MilliSeconds(50));
        DconRecorderTestAccess::SetStreaming(*mon->GetExtension<DconRecorder>(), streaming);
        Simulator::Stop(MilliSeconds(50));
        Simulator::Run();
        const std::string dir = ::testing::TempDir() + "dcon-recorder-" + std::to_string(getpid())
                                + (streaming ? "-s" : "-e");
        std::filesystem::remove_all(dir);
        mon->Write(dir, 0.0);
        std::ifstream in(dir + "/cnm.csv");
        std::stringstream text;
        text << in.rdbuf();
        csv.push_back(text.str());
        std::ifstream js(dir + "/summary.json");
        std::string line;
        std::string cnms;
        while (std::getline(js, line))
        {
            if (line.find("\"cnms\"") != std::string::npos)
            {
                cnms = line;
            }
        }
        summary.push_back(cnms);
        std::filesystem::remove_all(dir);
        Simulator::Destroy();
    }
    EXPECT_GT(std::count(csv[0].begin(), csv[0].end(), '\n'), 2);
    EXPECT_EQ(csv[0], csv[1]);
    EXPECT_FALSE(summary[0].empty());
    EXPECT_EQ(summary[0], summary[1]);
}
