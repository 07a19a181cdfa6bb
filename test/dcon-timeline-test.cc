/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DconTimeline (dcon-timeline.csv, dcon-senders.csv): off by default; on a tiny DCON run its
// per-interval counts agree with the run's other records (the CNMs it counts per tier are the
// rows of cnm.csv sent up to its last sample; its marks and arrivals never exceed the queues'
// totals), tiers follow the topology, and a fabric without DCON queues writes nothing.

#include "ns3/config.h"
#include "ns3/dcon-large-scale.h"
#include "ns3/dcon-timeline.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// A CSV file as rows of named fields.
std::vector<std::map<std::string, std::string>>
ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    auto split = [](const std::string& s)
    {
        std::vector<std::string> out;
        std::stringstream ss(s);
        std::string f;
        while (std::getline(ss, f, ','))
        {
            out.push_back(f);
        }
        if (!s.empty() && s.back() == ',')
        {
            out.emplace_back();
        }
        return out;
    };
    if (std::getline(in, line))
    {
        header = split(line);
    }
    while (std::getline(in, line))
    {
        std::vector<std::string> f = split(line);
        EXPECT_EQ(f.size(), header.size()) << path << ": " << line;
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && i < f.size(); ++i)
        {
            row[header[i]] = f[i];
        }
        rows.push_back(row);
    }
    return rows;
}

/// Runs the tiny DCON fabric (2 spines x 4 leaves x 4 hosts) into \p dir.
void
RunTiny(const std::string& cc, const std::string& dir, Time interval)
{
    Config::SetDefault("ns3::DconTimeline::Interval", TimeValue(interval));
    DconLargeScaleConfig c;
    c.cc = cc;
    c.SetScale("tiny");
    c.load = 0.8;
    c.duration = MilliSeconds(4);
    c.dataDir = DCON_SOURCE_DIR "/data";
    DconLargeScale run(c);
    run.Run();
    std::filesystem::remove_all(dir);
    run.Write(dir, 0);
    Simulator::Destroy();
    Config::SetDefault("ns3::DconTimeline::Interval", TimeValue(Time(0)));
}

} // namespace

TEST(DconTimeline, OffByDefaultAndWithoutDconQueues)
{
    const std::string dir = ::testing::TempDir() + "/dcon-timeline-off";
    RunTiny("dcon", dir, Time(0));
    EXPECT_FALSE(std::filesystem::exists(dir + "/dcon-timeline.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/cnm.csv"));
    RunTiny("dcqcn", dir, MilliSeconds(1)); // RED queues: nothing to record
    EXPECT_FALSE(std::filesystem::exists(dir + "/dcon-timeline.csv"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/dcon-senders.csv"));
}

TEST(DconTimeline, AgreesWithTheRunsOtherRecords)
{
    const std::string dir = ::testing::TempDir() + "/dcon-timeline-on";
    RunTiny("dcon", dir, MicroSeconds(500));
    const auto rows = ReadCsv(dir + "/dcon-timeline.csv");
    const auto senders = ReadCsv(dir + "/dcon-senders.csv");
    ASSERT_FALSE(rows.empty());
    ASSERT_FALSE(senders.empty());
    // One senders row per 500 us: times 0.0005, 0.001, ...
    for (std::size_t i = 0; i < senders.size(); ++i)
    {
        EXPECT_NEAR(std::stod(senders[i].at("time_s")), 0.0005 * double(i + 1), 1e-12);
        EXPECT_LE(std::stoll(senders[i].at("cnps_marked")),
                  std::stoll(senders[i].at("cnps_received")));
        EXPECT_LE(std::stoll(senders[i].at("cnms_applied")),
                  std::stoll(senders[i].at("cnms_received")));
    }
    const double last = std::stod(senders.back().at("time_s"));
    // Tiers of the tiny fabric: 16 host ports and 8 uplinks on the leaves, 8 spine ports; one
    // data priority, so at most that many queues per tier.
    const std::map<std::string, long> ports{{"tor-host", 16}, {"tor-up", 8}, {"core", 8}};
    long cnms = 0;
    for (const auto& r : rows)
    {
        const std::string tier = r.at("tier");
        ASSERT_EQ(ports.count(tier), 1u) << tier;
        const long queues = std::stol(r.at("queues"));
        EXPECT_LE(queues, ports.at(tier));
        EXPECT_EQ(std::stol(r.at("queues_below")) + std::stol(r.at("queues_marking"))
                      + std::stol(r.at("queues_latched")) + std::stol(r.at("queues_burst")),
                  queues);
        EXPECT_LE(std::stoll(r.at("max_queue_bytes")), std::stoll(r.at("bytes")));
        EXPECT_LE(std::stoll(r.at("ecn_marks")) + std::stoll(r.at("unmarked_above_qecn")),
                  std::stoll(r.at("arrivals")));
        // Queue-seconds in the phases above Q_ECN: at most the interval times the queues.
        EXPECT_LE(std::stod(r.at("queue_s_marking")) + std::stod(r.at("queue_s_latched"))
                      + std::stod(r.at("queue_s_burst")),
                  0.0005 * double(queues) + 1e-9);
        cnms += std::stol(r.at("cnms_sent"));
    }
    // The CNMs of cnm.csv sent up to the last sample are those the timeline counted.
    long sent = 0;
    for (const auto& c : ReadCsv(dir + "/cnm.csv"))
    {
        sent += std::stod(c.at("time_s")) <= last ? 1 : 0;
    }
    EXPECT_GT(sent, 0) << "the tiny run at load 0.8 sends CNMs";
    EXPECT_EQ(cnms, sent);
}
