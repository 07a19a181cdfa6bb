/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/hpcc-format.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

const std::string BENCH = DCON_BENCH_DIR "/";

/**
 * Run \p read and require std::invalid_argument whose message has "<name>:<line>:", the bad
 * token as "got '<token>'" and \p what.
 */
void
ExpectError(const std::function<void()>& read,
            const std::string& where,
            const std::string& token,
            const std::string& what = "")
{
    try
    {
        read();
        ADD_FAILURE() << "no exception, expected one at " << where << " about '" << token << "'";
    }
    catch (const std::invalid_argument& e)
    {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(where + ": ", 0), 0U) << msg;
        EXPECT_NE(msg.find("got '" + token + "'"), std::string::npos) << msg;
        EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
}

TopologySpec
Topo(const std::string& text)
{
    std::istringstream in(text);
    return ReadTopologyFile(in, "t.topo");
}

std::vector<FlowSpec>
Flows(const std::string& text)
{
    std::istringstream in(text);
    return ReadFlowFile(in, "f.flows");
}

/// Topology text with 4 nodes: hosts 0, 1 and switches 2, 3. Line 3 is the first link.
std::string
TopoText(const std::string& links, const std::string& header = "4 2 3")
{
    return header + "\n2 3\n" + links;
}

const std::string GOOD_LINKS = "0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n2 3 400Gbps 1us 0\n";

} // namespace

TEST(HpccFormatTest, ReadsFatTree320)
{
    const TopologySpec topo = ReadTopologyFile(BENCH + "fat-tree-320.topo");
    EXPECT_EQ(topo.nNodes, 376U);
    ASSERT_EQ(topo.isSwitch.size(), 376U);
    EXPECT_EQ(topo.links.size(), 480U);
    const auto hosts = topo.GetHostIds();
    const auto switches = topo.GetSwitchIds();
    // 376 nodes = 320 hosts (ids 0..319) + 56 switches (ids 320..375, line 2).
    ASSERT_EQ(hosts.size(), 320U);
    ASSERT_EQ(switches.size(), 56U);
    EXPECT_EQ(hosts.front(), 0U);
    EXPECT_EQ(hosts.back(), 319U);
    EXPECT_EQ(switches.front(), 320U);
    EXPECT_EQ(switches.back(), 375U);
    // First link line: "0 320 100Gbps 1000ns 0.000000".
    EXPECT_EQ(topo.links[0].a, 0U);
    EXPECT_EQ(topo.links[0].b, 320U);
    // One link per host at 100 Gb/s, 1000 ns; the other 480 - 320 = 160 are switch-switch
    // links at 400 Gb/s, 1000 ns.
    uint32_t hostLinks = 0;
    uint32_t switchLinks = 0;
    for (const auto& link : topo.links)
    {
        EXPECT_EQ(link.delay.GetPicoSeconds(), 1000000); // 1 us = 10^6 ps
        if (!topo.isSwitch[link.a] || !topo.isSwitch[link.b])
        {
            ++hostLinks;
            EXPECT_EQ(link.rate.GetBitRate(), 100000000000ULL);
        }
        else
        {
            ++switchLinks;
            EXPECT_EQ(link.rate.GetBitRate(), 400000000000ULL);
        }
    }
    EXPECT_EQ(hostLinks, 320U);
    EXPECT_EQ(switchLinks, 160U);
}

TEST(HpccFormatTest, ReadsWebSearch2ms)
{
    const TopologySpec topo = ReadTopologyFile(BENCH + "fat-tree-320.topo");
    const auto flows = ReadFlowFile(BENCH + "websearch-30pct-2ms.flows");
    ASSERT_EQ(flows.size(), 1131U);
    // Line 2: "13 10 3 100 2247900 2.000000962".
    EXPECT_EQ(flows[0].src, 13U);
    EXPECT_EQ(flows[0].dst, 10U);
    EXPECT_EQ(flows[0].priorityGroup, 3U);
    EXPECT_EQ(flows[0].dport, 100U);
    EXPECT_EQ(flows[0].sizeBytes, 2247900U);
    // 2.000000962 s = 2 * 10^12 ps + 962 * 10^3 ps, exactly.
    EXPECT_EQ(flows[0].start.GetPicoSeconds(), 2000000962000LL);
    EXPECT_EQ(flows[0].start, Time::FromInteger(2000000962000ULL, Time::PS));
    // Last line: "53 21 3 100 21257 2.001966742".
    EXPECT_EQ(flows.back().src, 53U);
    EXPECT_EQ(flows.back().dst, 21U);
    EXPECT_EQ(flows.back().sizeBytes, 21257U);
    EXPECT_EQ(flows.back().start.GetPicoSeconds(), 2001966742000LL);
    // Sum of the size column (python over the file): 1,975,533,760 bytes.
    uint64_t total = 0;
    for (const auto& flow : flows)
    {
        total += flow.sizeBytes;
    }
    EXPECT_EQ(total, 1975533760ULL);
    EXPECT_NO_THROW(ValidateFlows(flows, topo));
    EXPECT_EQ(ReadFlowFile(BENCH + "websearch-30pct-2ms.flows", topo), flows);
}

TEST(HpccFormatTest, ReadsWebSearch10ms)
{
    // Reading speed is measured by the benchmark command (README), not asserted here: CI
    // machines are too noisy for a wall-clock bound.
    const TopologySpec topo = ReadTopologyFile(BENCH + "fat-tree-320.topo");
    const auto flows = ReadFlowFile(BENCH + "websearch-30pct-10ms.flows", topo);
    // README: 6,643 flows, 11.48 GB (exact sum of the size column: 11,476,797,945 bytes).
    ASSERT_EQ(flows.size(), 6643U);
    uint64_t total = 0;
    for (const auto& flow : flows)
    {
        total += flow.sizeBytes;
    }
    EXPECT_EQ(total, 11476797945ULL);
    // Last line: "112 150 3 100 630344 2.009966483".
    EXPECT_EQ(flows.back().start.GetPicoSeconds(), 2009966483000LL);
}

TEST(HpccFormatTest, ParsesUnitsExactly)
{
    // Every delay below is 1 us = 10^6 ps; every rate below is 100 Gb/s except where noted.
    const TopologySpec topo = Topo(TopoText("0 2 100Gbps 1000ns 0\n"
                                            "1 3 100000Mbps 1us 0.0\n"
                                            "2 3 12.5GBps 0.001ms 0.000000\n"
                                            "0 3 2.5Gb/s 0.000001s 0\n"
                                            "1 2 1Kibps 1000000ps 0\n",
                                            "4 2 5"));
    ASSERT_EQ(topo.links.size(), 5U);
    for (const auto& link : topo.links)
    {
        EXPECT_EQ(link.delay.GetPicoSeconds(), 1000000);
    }
    EXPECT_EQ(topo.links[0].rate.GetBitRate(), 100000000000ULL);
    EXPECT_EQ(topo.links[1].rate.GetBitRate(), 100000000000ULL);
    EXPECT_EQ(topo.links[2].rate.GetBitRate(), 100000000000ULL); // 12.5 * 10^9 B/s * 8
    EXPECT_EQ(topo.links[3].rate.GetBitRate(), 2500000000ULL);
    EXPECT_EQ(topo.links[4].rate.GetBitRate(), 1024ULL);

    // Sub-nanosecond start: 1.000000000001 s = 10^12 + 1 ps; trailing zeros are ignored.
    const auto flows = Flows("2\n0 1 3 100 1 1.000000000001\n1 0 3 100 1 0.50000000000000\n");
    EXPECT_EQ(flows[0].start.GetPicoSeconds(), 1000000000001LL);
    EXPECT_EQ(flows[1].start.GetPicoSeconds(), 500000000000LL);
}

TEST(HpccFormatTest, AcceptsBlankLinesAndWhitespace)
{
    const TopologySpec topo
        = Topo("\n4 2 2  \r\n\n\t2   3\t\r\n0 2 100Gbps 1us 0 \r\n\n1 3 100Gbps 1us 0\n\n\n");
    EXPECT_EQ(topo.links.size(), 2U);
    EXPECT_EQ(topo.GetHostIds(), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(topo.GetSwitchIds(), (std::vector<uint32_t>{2, 3}));
    const auto flows = Flows("2 \n\n0 1 3 100 10 2.0  \r\n\t1 0 3 100 20 2\n\n");
    ASSERT_EQ(flows.size(), 2U);
    EXPECT_EQ(flows[1].sizeBytes, 20U);
    EXPECT_EQ(flows[1].start.GetPicoSeconds(), 2000000000000LL);
    // No switches: no switch line, links start on line 2.
    const TopologySpec pair = Topo("2 0 1\n0 1 10Gbps 1us 0\n");
    EXPECT_EQ(pair.GetHostIds().size(), 2U);
    EXPECT_TRUE(pair.GetSwitchIds().empty());
    EXPECT_TRUE(Flows("0\n").empty());
}

TEST(HpccFormatTest, WriteReadRoundTrip)
{
    const auto flows = ReadFlowFile(BENCH + "websearch-30pct-2ms.flows");
    std::ostringstream out;
    WriteFlowFile(out, flows);
    const std::string text = out.str();
    // 12 decimals: 2.000000962 s is written as 2.000000962000.
    EXPECT_EQ(text.substr(0, text.find('\n', 5) + 1), "1131\n13 10 3 100 2247900 2.000000962000\n");
    std::istringstream in(text);
    EXPECT_EQ(ReadFlowFile(in, "round-trip"), flows);

    // Picosecond starts and extreme fields survive too.
    std::vector<FlowSpec> odd = {
        {0, 1, 7, 65535, 1, Time::FromInteger(1, Time::PS)},
        {1, 0, 0, 0, 18446744073709551615ULL, Time::FromInteger(123456789012345ULL, Time::PS)},
        {5, 6, 3, 100, 1000, Time(0)},
    };
    std::ostringstream out2;
    WriteFlowFile(out2, odd);
    std::istringstream in2(out2.str());
    EXPECT_EQ(ReadFlowFile(in2, "odd"), odd);

    std::ostringstream out3;
    EXPECT_THROW(WriteFlowFile(out3, {{0, 1, 3, 100, 1, PicoSeconds(-1)}}), std::invalid_argument);
}

TEST(HpccFormatTest, TopologyErrors)
{
    EXPECT_NO_THROW(Topo(TopoText(GOOD_LINKS)));

    const std::string missing = BENCH + "no-such-file.topo";
    ExpectError(
        [&]
        {
            ReadTopologyFile(missing);
        },
        missing + ":0",
        missing,
        "cannot open");

    // Header.
    ExpectError(
        []
        {
            Topo("");
        },
        "t.topo:1",
        "",
        "empty");
    ExpectError(
        []
        {
            Topo("4 2\n");
        },
        "t.topo:1",
        "4 2",
        "expected 3 fields");
    ExpectError(
        []
        {
            Topo("4 2 3 9\n");
        },
        "t.topo:1",
        "9",
        "trailing garbage");
    ExpectError(
        []
        {
            Topo("four 2 3\n");
        },
        "t.topo:1",
        "four",
        "node count");
    ExpectError(
        []
        {
            Topo("4 5 3\n");
        },
        "t.topo:1",
        "5",
        "switch count");
    ExpectError(
        []
        {
            Topo("0 0 0\n");
        },
        "t.topo:1",
        "0",
        "node count must be positive");

    // Fewer / more link lines than announced (the count is on line 1; the extra line is 6).
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"));
        },
        "t.topo:1",
        "3",
        "only 2 link lines");
    ExpectError(
        []
        {
            Topo(TopoText(GOOD_LINKS + "\n0 3 100Gbps 1us 0\n"));
        },
        "t.topo:7",
        "0 3 100Gbps 1us 0",
        "more link lines");

    // Switch line (line 2).
    ExpectError(
        []
        {
            Topo("4 2 0\n2 4\n");
        },
        "t.topo:2",
        "4",
        "switch id");
    ExpectError(
        []
        {
            Topo("4 2 0\n2 2\n");
        },
        "t.topo:2",
        "2",
        "repeated");
    ExpectError(
        []
        {
            Topo("4 2 0\n2\n");
        },
        "t.topo:2",
        "2",
        "expected 2 switch ids");
    ExpectError(
        []
        {
            Topo("4 2 0\n2 3 1\n");
        },
        "t.topo:2",
        "1",
        "more than the 2 switch ids");
    ExpectError(
        []
        {
            Topo("4 2 0\n");
        },
        "t.topo:1",
        "2",
        "switch ids");

    // Link lines (first one is line 3).
    ExpectError(
        []
        {
            Topo(TopoText("0 4 100Gbps 1us 0\n"));
        },
        "t.topo:3",
        "4",
        "node id");
    ExpectError(
        []
        {
            Topo(TopoText("-1 2 100Gbps 1us 0\n"));
        },
        "t.topo:3",
        "-1",
        "negative");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us 0\n1 1 100Gbps 1us 0\n"));
        },
        "t.topo:4",
        "1",
        "self-loop");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbs 1us 0\n"));
        },
        "t.topo:3",
        "100Gbs",
        "data rate");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 Gbps 1us 0\n"));
        },
        "t.topo:3",
        "Gbps",
        "data rate");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 1.2.3Gbps 1us 0\n"));
        },
        "t.topo:3",
        "1.2.3Gbps");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 0Gbps 1us 0\n"));
        },
        "t.topo:3",
        "0Gbps",
        "positive");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 0.5bps 1us 0\n"));
        },
        "t.topo:3",
        "0.5bps",
        "whole");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1000 0\n"));
        },
        "t.topo:3",
        "1000",
        "delay");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1xs 0\n"));
        },
        "t.topo:3",
        "1xs",
        "delay");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps -1us 0\n"));
        },
        "t.topo:3",
        "-1us",
        "negative");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 0.0001ns 0\n"));
        },
        "t.topo:3",
        "0.0001ns",
        "1 ps");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us 0.001\n"));
        },
        "t.topo:3",
        "0.001",
        "lossless");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us zero\n"));
        },
        "t.topo:3",
        "zero",
        "error rate");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us 0 x\n"));
        },
        "t.topo:3",
        "x",
        "trailing");
    ExpectError(
        []
        {
            Topo(TopoText("0 2 100Gbps 1us\n"));
        },
        "t.topo:3",
        "0 2 100Gbps 1us",
        "expected 5 fields");
}

TEST(HpccFormatTest, FlowErrors)
{
    EXPECT_NO_THROW(Flows("2\n0 1 3 100 1000 2.0\n1 0 3 100 2000 2.5\n"));

    const std::string missing = BENCH + "no-such-file.flows";
    ExpectError(
        [&]
        {
            ReadFlowFile(missing);
        },
        missing + ":0",
        missing,
        "cannot open");

    // Header and counts (the count is on line 1; the extra flow is on line 4).
    ExpectError(
        []
        {
            Flows("\n\n");
        },
        "f.flows:3",
        "",
        "empty");
    ExpectError(
        []
        {
            Flows("2 7\n");
        },
        "f.flows:1",
        "7",
        "trailing");
    ExpectError(
        []
        {
            Flows("x\n");
        },
        "f.flows:1",
        "x",
        "flow count");
    ExpectError(
        []
        {
            Flows("3\n0 1 3 100 1000 2.0\n1 0 3 100 2000 2.5\n");
        },
        "f.flows:1",
        "3",
        "only 2");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 1000 2.0\n1 0 3 100 2000 2.5\n");
        },
        "f.flows:3",
        "1 0 3 100 2000 2.5",
        "more flows than the 1");

    // Fields of a flow line (line 2).
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 0 2.0\n");
        },
        "f.flows:2",
        "0",
        "size must be positive");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 -5 2.0\n");
        },
        "f.flows:2",
        "-5",
        "negative");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 1k 2.0\n");
        },
        "f.flows:2",
        "1k",
        "flow size");
    ExpectError(
        []
        {
            Flows("1\n4 4 3 100 10 2.0\n");
        },
        "f.flows:2",
        "4",
        "same node");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10 -2.0\n");
        },
        "f.flows:2",
        "-2.0",
        "negative");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10 2.0s\n");
        },
        "f.flows:2",
        "2.0s",
        "start time");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10 2e-3\n");
        },
        "f.flows:2",
        "2e-3",
        "start time");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10 2.0000000000001\n");
        },
        "f.flows:2",
        "2.0000000000001",
        "1 ps");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 65536 10 2.0\n");
        },
        "f.flows:2",
        "65536",
        "dport");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10 2.0 extra\n");
        },
        "f.flows:2",
        "extra",
        "trailing");
    ExpectError(
        []
        {
            Flows("1\n0 1 3 100 10\n");
        },
        "f.flows:2",
        "0 1 3 100 10",
        "expected 6 fields");

    // Host ids against a topology: hosts 0, 1; switches 2, 3.
    const TopologySpec topo = Topo(TopoText(GOOD_LINKS));
    auto withTopo = [&topo](const std::string& text)
    {
        std::istringstream in(text);
        return ReadFlowFile(in, "f.flows", topo);
    };
    EXPECT_NO_THROW(withTopo("1\n0 1 3 100 10 2.0\n"));
    ExpectError(
        [&]
        {
            withTopo("2\n0 1 3 100 10 2.0\n0 3 3 100 10 2.0\n");
        },
        "f.flows:3",
        "3",
        "dst node is a switch");
    ExpectError(
        [&]
        {
            withTopo("1\n\n2 1 3 100 10 2.0\n");
        },
        "f.flows:3",
        "2",
        "src node is a switch");
    ExpectError(
        [&]
        {
            withTopo("1\n0 9 3 100 10 2.0\n");
        },
        "f.flows:2",
        "9",
        "4 nodes");

    // ValidateFlows names flows by index (in-memory flows have no line).
    const Time t = Seconds(2);
    EXPECT_NO_THROW(ValidateFlows({{0, 1, 3, 100, 10, t}}, topo));
    ExpectError(
        [&]
        {
            ValidateFlows({{0, 1, 3, 100, 10, t}, {2, 1, 3, 100, 10, t}}, topo);
        },
        "flows[1]",
        "2",
        "switch");
    ExpectError(
        [&]
        {
            ValidateFlows({{0, 7, 3, 100, 10, t}}, topo);
        },
        "flows[0]",
        "7",
        "nodes");
    ExpectError(
        [&]
        {
            ValidateFlows({{0, 0, 3, 100, 10, t}}, topo);
        },
        "flows[0]",
        "0",
        "same");
    ExpectError(
        [&]
        {
            ValidateFlows({{0, 1, 3, 100, 0, t}}, topo);
        },
        "flows[0]",
        "0",
        "size");
    ExpectError(
        [&]
        {
            ValidateFlows({{0, 1, 3, 100, 10, PicoSeconds(-1500)}}, topo);
        },
        "flows[0]",
        "-0.000000001500",
        "negative");
}
