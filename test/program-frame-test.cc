/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ProgramFrame, the command line of the six programs: options read whole and strictly,
// attribute arguments applied after the presets or refused, global values checked, options and
// attributes the run does not use refused, the run's record. Each test is its own process
// (ctest), so the attribute defaults it sets do not reach another test.

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/string.h"
#include "ns3/switch-queue-settings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// Parse \p args (without the program name) with \p frame.
void
Parse(ProgramFrame& frame, std::vector<std::string> args)
{
    args.insert(args.begin(), "prog");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    frame.Parse(static_cast<int>(argv.size()), argv.data());
}

/// The message Parse throws ("" if it does not).
std::string
ParseError(ProgramFrame& frame, const std::vector<std::string>& args)
{
    try
    {
        Parse(frame, args);
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/// A default of an attribute as text.
std::string
Default(const std::string& type, const std::string& name)
{
    TypeId::AttributeInformation info;
    TypeId::LookupByName(type).LookupAttributeByName(name, &info);
    return info.initialValue->SerializeToString(info.checker);
}

/// A frame with one option of each kind.
struct Options
{
    bool flag{false};
    std::string text{"a"};
    std::string choice{"x"};
    uint32_t count{3};
    double load{0.5};
    Time stop{MilliSeconds(10)};
    DataRate rate{"10Gbps"};
    QueueSize size{"1KB"};

    void
    AddTo(ProgramFrame& f)
    {
        f.AddFlag("flag", "a flag", flag);
        f.AddString("text", "a text", text);
        f.AddChoice("choice", "a choice", choice, {"x", "y"});
        f.AddUnsigned("count", "a count", count, 1u, 100u);
        f.AddDouble("load", "a load", load, 0, 1, true);
        f.AddTime("stop", "a stop time", stop, Time(0), ProgramFrame::GetMaxRunTime(), true);
        f.AddDataRate("rate", "a rate", rate, DataRate(1));
        f.AddQueueSize("size", "a size", size, 1);
    }
};
} // namespace

TEST(ProgramFrame, OptionsAreReadWhole)
{
    ProgramFrame f("prog", __FILE__);
    Options o;
    o.AddTo(f);
    Parse(f,
          {"--flag",
           "--text=sp dir/x y",
           "--choice=y",
           "--count=7",
           "--load=0.25",
           "--stop=2ms",
           "--rate=40Gbps",
           "--size=5000000B"});
    EXPECT_TRUE(o.flag);
    EXPECT_EQ(o.text, "sp dir/x y"); // (ns-3's CommandLine stops a string at its first space)
    EXPECT_EQ(o.choice, "y");
    EXPECT_EQ(o.count, 7u);
    EXPECT_EQ(o.load, 0.25);
    EXPECT_EQ(o.stop, MilliSeconds(2));
    EXPECT_EQ(o.rate, DataRate("40Gbps"));
    EXPECT_EQ(o.size.GetValue(), 5000000u);
    EXPECT_TRUE(f.IsGiven("count"));
    EXPECT_FALSE(f.IsGiven("nothing"));
    EXPECT_EQ(f.GetGivenOptions().size(), 8u);
}

TEST(ProgramFrame, BadValuesAreRefusedNamingThem)
{
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"--load=0.8abc"}, "--load: got '0.8abc', expected a finite decimal number in (0, 1]"},
        {{"--load=0"}, "--load: got '0', expected a number in (0, 1]"},
        {{"--load=nan"}, "--load: got 'nan'"},
        {{"--count=0"}, "--count: got '0', expected an integer in [1, 100]"},
        {{"--count=-1"}, "--count: got '-1'"},
        {{"--count=7 8"}, "--count: got '7 8'"},
        {{"--stop=2msx"}, "--stop: got '2msx', expected a decimal number and a unit"},
        {{"--stop=-1us"}, "--stop: got '-1us', expected a time in (0 s, "},
        {{"--stop=1e999ms"}, "--stop: got '1e999ms', beyond ns-3's time range"},
        {{"--rate=0bps"}, "--rate: got '0bps', expected at least 1 bit/s"},
        {{"--size=10p"}, "--size: got '10p', expected a size in bytes"},
        {{"--size=5000000000B"}, "above 4294967295 B"},
        {{"--choice=z"}, "--choice: got 'z', expected one of x or y"},
        {{"--flag=maybe"}, "--flag: got 'maybe', expected true or false"},
        {{"--text="}, "--text: got an empty value"},
        {{"--count=\xef\xbb\xbf"
          "3"},
         "--count: got '\\ufeff3'"},
        {{"dcon"}, "unexpected argument 'dcon': prog takes options only"},
        {{"-"}, "unexpected argument '-'"},
        {{"--nothing=1"}, "unknown option --nothing"},
        {{"--count=2", "--count=3"}, "--count given twice ('2' and '3')"},
    };
    for (const auto& [args, expected] : cases)
    {
        ProgramFrame f("prog", __FILE__);
        Options o;
        o.AddTo(f);
        const std::string msg = ParseError(f, args);
        EXPECT_NE(msg.find(expected), std::string::npos) << args[0] << ": " << msg;
    }
    // the same option twice with the same value is once
    ProgramFrame f("prog", __FILE__);
    Options o;
    o.AddTo(f);
    EXPECT_EQ(ParseError(f, {"--count=2", "--count=2"}), "");
}

TEST(ProgramFrame, AttributesAreCheckedThenSet)
{
    ProgramFrame f("prog", __FILE__);
    f.SetOwned("ns3::SwitchMmu::XOff", "use --xoff");
    const std::pair<std::string, std::string> bad[] = {
        {"--ns3::RdmaDcqcn::G=nan", "--ns3::RdmaDcqcn::G: got 'nan'"},
        {"--ns3::RdmaDcqcn::G", "--ns3::RdmaDcqcn::G needs a value"},
        {"--ns3::Bogus::G=1", "unknown type 'ns3::Bogus'"},
        {"--ns3::RdmaDcqcn::Bogus=1", "ns3::RdmaDcqcn has no attribute 'Bogus'"},
        {"--ns3::RdmaDcon::G=0.5",
         "G is an attribute of ns3::RdmaDcqcn (which ns3::RdmaDcon "
         "inherits): give --ns3::RdmaDcqcn::G=0.5"},
        {"--ns3::SwitchMmu::XOff=1KB",
         "--ns3::SwitchMmu::XOff=1KB: prog sets "
         "ns3::SwitchMmu::XOff itself; use --xoff"},
        {"--ns3::SwitchMmu::BufferSize=5000000000B", "above 4294967295 B"},
    };
    for (const auto& [arg, expected] : bad)
    {
        ProgramFrame g("prog", __FILE__);
        g.SetOwned("ns3::SwitchMmu::XOff", "use --xoff");
        const std::string msg = ParseError(g, {arg});
        EXPECT_NE(msg.find(expected), std::string::npos) << arg << ": " << msg;
    }
    EXPECT_EQ(ParseError(f, {"--ns3::RdmaDcqcn::G=0.5", "--ns3::RdmaDcqcn::G=0.25"}),
              "--ns3::RdmaDcqcn::G given twice (--ns3::RdmaDcqcn::G=0.5 and "
              "--ns3::RdmaDcqcn::G=0.25)");
    ProgramFrame h("prog", __FILE__);
    Parse(h, {"--ns3::RdmaDcqcn::G=0.5"});
    EXPECT_EQ(Default("ns3::RdmaDcqcn", "G"), "0.5");
    EXPECT_TRUE(h.IsAttributeGiven("ns3::RdmaDcqcn::G"));
    EXPECT_EQ(h.GetAttributeArguments(), std::vector<std::string>{"ns3::RdmaDcqcn::G=0.5"});
    SetUserAttributePaths({});
}

// A program's defaults yield to the user's values; a default from an option and the attribute
// given as well are refused.
TEST(ProgramFrame, PresetsYieldToTheUser)
{
    ProgramFrame f("prog", __FILE__);
    DataRate minRate("1Gbps");
    f.AddDataRate("minRate", "floor", minRate);
    Parse(f, {"--ns3::RdmaDcqcn::G=0.5", "--ns3::RdmaDcqcn::InitialAlpha=0.25"});
    EXPECT_EQ(Default("ns3::RdmaDcqcn", "G"), "0.5");
    EXPECT_EQ(Default("ns3::RdmaDcqcn", "InitialAlpha"), "0.25");
    f.SetDefault("ns3::RdmaDcqcn::G", DoubleValue(0.125)); // yields to the user
    EXPECT_EQ(Default("ns3::RdmaDcqcn", "G"), "0.5");
    f.SetDefault("ns3::RdmaDcqcn::MinRate", DataRateValue(minRate), "minRate");
    EXPECT_EQ(Default("ns3::RdmaDcqcn", "MinRate"), "1000000000bps");

    ProgramFrame g("prog", __FILE__);
    g.AddDataRate("minRate", "floor", minRate);
    Parse(g, {"--minRate=2Gbps", "--ns3::RdmaDcqcn::MinRate=3Gbps"});
    EXPECT_THROW(g.SetDefault("ns3::RdmaDcqcn::MinRate", DataRateValue(minRate), "minRate"),
                 std::invalid_argument);
    SetUserAttributePaths({});
}

TEST(ProgramFrame, GlobalValuesAreChecked)
{
    for (const auto& [arg, expected] : std::vector<std::pair<std::string, std::string>>{
             {"--SimulatorImplementationType=ns3::Bogus", "got 'ns3::Bogus'"},
             {"--SimulatorImplementationType=ns3::DistributedSimulatorImpl",
              "prog runs on one process only"},
             {"--SchedulerType=ns3::Bogus", "--SchedulerType: got 'ns3::Bogus'"},
             {"--SchedulerType=ns3::RdmaDcqcn", "expected an event scheduler"},
             {"--RngSeed=0", "--RngSeed: got '0', expected a seed of at least 1"},
             {"--RngSeed=4294967296", "--RngSeed: got '4294967296'"},
             {"--RngRun=-1", "--RngRun: got '-1'"},
             {"--ChecksumEnabled=maybe", "--ChecksumEnabled: got 'maybe'"},
         })
    {
        ProgramFrame f("prog", __FILE__);
        const std::string msg = ParseError(f, {arg});
        EXPECT_NE(msg.find(expected), std::string::npos) << arg << ": " << msg;
    }
    ProgramFrame owned("prog", __FILE__);
    owned.SetOwnedGlobal("RngRun", "use --seed");
    EXPECT_NE(ParseError(owned, {"--RngRun=3"}).find("prog sets RngRun itself; use --seed"),
              std::string::npos);
    ProgramFrame f("prog", __FILE__);
    Parse(f, {"--RngSeed=7", "--RngRun=3", "--SchedulerType=ns3::MapScheduler"});
    EXPECT_EQ(RngSeedManager::GetSeed(), 7u);
    EXPECT_EQ(RngSeedManager::GetRun(), 3u);
    const std::string json = f.GetRunJsonMembers();
    EXPECT_NE(json.find("\"rng_seed\": 7,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"rng_run\": 3,"), std::string::npos) << json;
    EXPECT_NE(json.find("\"global_values_given\": {\"RngSeed\": \"7\", \"RngRun\": \"3\", "
                        "\"SchedulerType\": \"ns3::MapScheduler\"}"),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"command_line\": [\"prog\", \"--RngSeed=7\""), std::string::npos);
    EXPECT_NE(json.find("\"ns3_version\": \"" + ProgramFrame::GetNs3Version() + "\""),
              std::string::npos);
    EXPECT_NE(json.find(",\n  \"build\": " + ProgramFrame::GetBuildJson() + ",\n"),
              std::string::npos)
        << json;
}

// run.json's "build": the build type, the ns-3 dcon runs on and dcon's commit, on one line (the
// comparisons of scripts/check-ns3.sh leave it out by its line).
TEST(ProgramFrame, BuildRecord)
{
    const std::string build = ProgramFrame::GetBuildJson();
    const std::regex form("\\{\"type\": \"([^\"]+)\", \"ns3\": \"(debian|installed|in-tree)\", "
                          "\"commit\": \"([0-9a-f]{40}(-dirty)?|unknown)\"\\}");
    std::smatch m;
    ASSERT_TRUE(std::regex_match(build, m, form)) << build;
#ifdef DCON_SOURCE_DIR
    if (std::filesystem::exists(DCON_SOURCE_DIR "/.git")) // built from a git checkout
    {
        EXPECT_NE(m[3], "unknown") << build;
    }
#endif
}

// An option or attribute of a queue or algorithm the run does not create is refused, naming the
// algorithms that use it.
TEST(ProgramFrame, WhatTheRunDoesNotUseIsRefused)
{
    auto check = [](const std::string& cc, const std::vector<std::string>& args)
    {
        ProgramFrame f("prog", __FILE__);
        SwitchQueueSettings sw;
        sw.AddCommandLineOptions(f);
        Parse(f, args);
        try
        {
            f.CheckUse(RdmaFabricHelper::GetCreatedTypes(cc, sw.GetQueueDisc(cc)), "--cc=" + cc);
        }
        catch (const std::invalid_argument& e)
        {
            SetUserAttributePaths({});
            return std::string(e.what());
        }
        SetUserAttributePaths({});
        return std::string();
    };
    EXPECT_EQ(check("dcqcn", {"--qecn=100KB"}),
              "--qecn is not used by this run (--cc=dcqcn): it sets ns3::DconQueueDisc, used by "
              "--cc=dcon");
    const std::string kmin = check("dcon", {"--kmin=50KB"});
    EXPECT_EQ(kmin.rfind("--kmin is not used by this run (--cc=dcon): it sets "
                         "ns3::RedEcnQueueDisc, used by --cc=dcqcn",
                         0),
              0u)
        << kmin;
    EXPECT_NE(kmin.find("swift"), std::string::npos);
    EXPECT_NE(check("dcqcn", {"--ns3::RdmaHpcc::MaxStage=3"}).find("used by --cc=hpcc"),
              std::string::npos);
    EXPECT_NE(check("dcqcn", {"--ns3::TcpSocket::SegmentSize=1000"})
                  .find("which this program does not create"),
              std::string::npos);
    EXPECT_EQ(check("dcon", {"--qecn=100KB", "--ns3::RdmaDcqcn::G=0.5"}), ""); // DCON's parent
    EXPECT_EQ(check("dcqcn", {"--kmin=50KB", "--ns3::DconQueueDisc::QEcn=5KB", "--queue=dcon"})
                  .find("--kmin is not used"),
              0u);
    EXPECT_EQ(check("dcqcn", {"--qecn=100KB", "--queue=dcon"}), ""); // the queue chosen by --queue
}

TEST(ProgramFrame, OptionsThatDoNotApplyAreRefused)
{
    ProgramFrame f("prog", __FILE__);
    Options o;
    o.AddTo(f);
    Parse(f, {"--load=0.5"});
    EXPECT_EQ(
        [&]
        {
            try
            {
                f.RefuseGiven({"count", "load"}, "--flowFile replays a file");
            }
            catch (const std::invalid_argument& e)
            {
                return std::string(e.what());
            }
            return std::string();
        }(),
        "--load does not apply: --flowFile replays a file");
    EXPECT_NO_THROW(f.RefuseGiven({"count"}, "x"));
}

TEST(ProgramFrame, MaxRunTimeIsHalfOfNs3sRange)
{
    EXPECT_EQ(ProgramFrame::GetMaxRunTime().GetTimeStep(), std::numeric_limits<int64_t>::max() / 2);
}
