/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The strict readers of value texts (model/util/value-text.h, model/util/attribute-text.h) and the
// input and output file checks (model/util/input-file.h, helper/output-files.h), by hand-written
// cases: what ns-3's own parsers abort on, read a prefix of, or wrap is refused with a message that
// names the text; what they read correctly gives the value ns-3 gives.

#include "ns3/atomic-output-file.h"
#include "ns3/attribute-text.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/input-file.h"
#include "ns3/nstime.h"
#include "ns3/output-files.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/switch-mmu.h"
#include "ns3/value-text.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{
/// The message of the std::invalid_argument \p f throws ("" if it does not throw).
template <typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(ValueText, QuoteShowsInvisibleCharacters)
{
    EXPECT_EQ(QuoteText("3ms"), "'3ms'");
    EXPECT_EQ(QuoteText("\xef\xbb\xbf"
                        "3"),
              "'\\ufeff3'");                                   // byte-order mark
    EXPECT_EQ(QuoteText("10Gbps\xc2\xa0"), "'10Gbps\\u00a0'"); // non-breaking space
    EXPECT_EQ(QuoteText("a\xe2\x80\x8b"
                        "b"),
              "'a\\u200bb'");                                         // zero-width space
    EXPECT_EQ(QuoteText(std::string("1\0\x1b", 3)), "'1\\x00\\x1b'"); // control characters
    EXPECT_EQ(QuoteText("\xff"), "'\\xff'");                          // not UTF-8
    EXPECT_EQ(QuoteText("\xc3\xa9t\xc3\xa9"), "'\xc3\xa9t\xc3\xa9'"); // visible UTF-8 stays
    EXPECT_EQ(QuoteText("it's"), "'it\\'s'");
    EXPECT_EQ(QuoteText(""), "''");
}

// run.json records the command line: it must stay valid JSON whatever the arguments hold.
TEST(ValueText, JsonStringOfAnyArgument)
{
    EXPECT_EQ(JsonString("--outdir=sp dir"), "\"--outdir=sp dir\"");
    EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(JsonString("a\nb\x01"), "\"a\\u000ab\\u0001\"");
    EXPECT_EQ(JsonString("a\xff"
                         "b"),
              "\"a\\u00ffb\""); // not UTF-8
    EXPECT_EQ(JsonString("\xef\xbb\xbf"
                         "3"),
              "\"\xef\xbb\xbf"
              "3\""); // UTF-8 stays
    uint32_t cp = 0;
    EXPECT_EQ(Utf8SequenceAt("\xc2\xa0", 0, cp), 2u);
    EXPECT_EQ(cp, 0xa0u);
    EXPECT_EQ(Utf8SequenceAt("\xc0\x80", 0, cp), 0u);     // overlong
    EXPECT_EQ(Utf8SequenceAt("\xed\xa0\x80", 0, cp), 0u); // surrogate
    EXPECT_EQ(Utf8SequenceAt("\xe2\x80", 0, cp), 0u);     // truncated
}

TEST(ValueText, DecimalUnsigned)
{
    EXPECT_EQ(ReadDecimalUnsigned("0", 10), 0u);
    EXPECT_EQ(ReadDecimalUnsigned("18446744073709551615", UINT64_MAX), UINT64_MAX);
    EXPECT_FALSE(ReadDecimalUnsigned("18446744073709551616", UINT64_MAX));
    EXPECT_FALSE(ReadDecimalUnsigned("4294967296", UINT32_MAX));
    for (const char* bad : {"",
                            "-1",
                            "+1",
                            " 1",
                            "1 ",
                            "1e3",
                            "0x10",
                            "1.0",
                            "\xef\xbb\xbf"
                            "1"})
    {
        EXPECT_FALSE(ReadDecimalUnsigned(bad, UINT64_MAX)) << bad;
    }
}

TEST(ValueText, DecimalNumber)
{
    EXPECT_EQ(ReadDecimalNumber("0.8"), 0.8);
    EXPECT_EQ(ReadDecimalNumber("-1.5e-3"), -1.5e-3);
    EXPECT_EQ(ReadDecimalNumber(".5"), 0.5);
    EXPECT_EQ(ReadDecimalNumber("5."), 5.0);
    EXPECT_EQ(ReadDecimalNumber("+2"), 2.0);
    EXPECT_EQ(ReadDecimalNumber("1e-400"), 0.0); // underflow is the number it is
    for (const char* bad : {"",
                            ".",
                            "0.8abc",
                            "3x",
                            "nan",
                            "inf",
                            "-inf",
                            "0x1p3",
                            "1e",
                            "1e+",
                            " 1",
                            "1 ",
                            "1e999",
                            "--1",
                            "1,5"})
    {
        EXPECT_FALSE(ReadDecimalNumber(bad)) << bad;
    }
}

TEST(ValueText, TimeAsNs3ReadsIt)
{
    EXPECT_EQ(ReadTimeText("2ms", "--t"), MilliSeconds(2));
    EXPECT_EQ(ReadTimeText("1.5us", "--t"), NanoSeconds(1500));
    EXPECT_EQ(ReadTimeText("2", "--t"), Seconds(2));          // no unit: seconds
    EXPECT_EQ(ReadTimeText("-1us", "--t"), MicroSeconds(-1)); // the option decides the range
    EXPECT_EQ(ReadTimeText("1e3ns", "--t"), MicroSeconds(1));
    EXPECT_EQ(ReadTimeText("1min", "--t"), Seconds(60));
    // ns-3 aborts on these
    for (const char* bad : {"2msx", "2MS", "ms", "", "inf", "nans", "1 ms", "0x10s", "1e"})
    {
        const std::string msg = Refusal(
            [&]
            {
                ReadTimeText(bad, "--stopTime");
            });
        EXPECT_NE(msg.find("--stopTime: got " + QuoteText(bad) + ", expected a decimal number"),
                  std::string::npos)
            << msg;
    }
    // beyond the range at 1 ps (about 106 days), or finer than 1 ps
    EXPECT_NE(Refusal(
                  []
                  {
                      ReadTimeText("1e999ms", "--t");
                  })
                  .find("beyond ns-3's time range"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  []
                  {
                      ReadTimeText("107d", "--t");
                  })
                  .find("beyond"),
              std::string::npos);
    EXPECT_NO_THROW(ReadTimeText("106d", "--t"));
    EXPECT_NE(Refusal(
                  []
                  {
                      ReadTimeText("0.1ps", "--t");
                  })
                  .find("finer than"),
              std::string::npos);
    EXPECT_EQ(ReadTimeText("0fs", "--t"), Time(0));
}

// Exactly, in the resolution's unit (ps in the tests), up to the end of ns-3's range. (At a
// coarser resolution Time::GetPicoSeconds overflows there; the tests run at 1 ps, so the fuzz
// corpus, not this test, holds that case.)
TEST(ValueText, TimeStepsReadBackExactly)
{
    EXPECT_EQ(FormatTimeSteps(Time(0)), "0ps");
    EXPECT_EQ(FormatTimeSteps(MicroSeconds(100)), "100000000ps");
    EXPECT_EQ(FormatTimeSteps(PicoSeconds(-7)), "-7ps");
    const Time far = ReadTimeText("106d", "--t");
    EXPECT_EQ(FormatTimeSteps(far), "9158400000000000000ps");
    for (const Time& t : {far, Time(1), NanoSeconds(1500), Time(0) - far})
    {
        EXPECT_EQ(ReadTimeText(FormatTimeSteps(t), "--t"), t) << FormatTimeSteps(t);
    }
}

TEST(ValueText, DataRateAsNs3ReadsIt)
{
    EXPECT_EQ(ReadDataRateText("10Gbps", "--r"), DataRate("10Gbps"));
    EXPECT_EQ(ReadDataRateText("2.5Gb/s", "--r"), DataRate(2500000000ULL));
    EXPECT_EQ(ReadDataRateText("1000", "--r"), DataRate(1000)); // digits alone: bit/s
    EXPECT_EQ(ReadDataRateText("1KiB/s", "--r"), DataRate(8192));
    EXPECT_EQ(ReadDataRateText("0bps", "--r"), DataRate(0));
    // ns-3 aborts on the first ones, reads "10 Gbps" as 10 bit/s and wraps above 2^64
    const std::pair<const char*, const char*> bad[] = {
        {"10Gbpsx", "expected a non-negative number and a unit"},
        {"-1Gbps", "cannot be negative"},
        {"10 Gbps", "expected"},
        {"1e9bps", "expected"},
        {"1Tbps", "expected"},
        {"1.2.3Gbps", "expected"},
        {"1.5bps", "not a whole number of bit/s"},
        {"100000000000GBps", "above the largest rate"},
        {"18446744073709551616", "expected"},
    };
    for (const auto& [text, why] : bad)
    {
        const std::string msg = Refusal(
            [text = text]
            {
                ReadDataRateText(text, "--rate");
            });
        EXPECT_EQ(msg.rfind("--rate: got " + QuoteText(text), 0), 0u) << msg;
        EXPECT_NE(msg.find(why), std::string::npos) << msg;
    }
}

TEST(ValueText, QueueSizeAsNs3ReadsIt)
{
    EXPECT_EQ(ReadQueueSizeText("200KB", "--q"), QueueSize("200KB"));
    EXPECT_EQ(ReadQueueSizeText("32MiB", "--q").GetValue(), 33554432u);
    EXPECT_EQ(ReadQueueSizeText("4294967295B", "--q").GetValue(), 4294967295u);
    EXPECT_EQ(ReadQueueSizeText("0.5KB", "--q").GetValue(), 500u);
    EXPECT_EQ(ReadQueueSizeText("100p", "--q"), QueueSize("100p"));
    // ns-3.37 wraps these (5000000000B is 705,032,704 B) or aborts on them
    const std::pair<const char*, const char*> bad[] = {
        {"5000000000B", "that is 5000000000 B, above 4294967295 B"},
        {"4295167296B", "above 4294967295 B"},
        {"4294967296B", "above 4294967295 B"},
        {"1GB", "expected"},
        {"1GiB", "expected"},
        {"200", "expected"},
        {"-1KB", "cannot be negative"},
        {"1.5B", "not a whole number of bytes"},
        {"1.2.3KB", "expected"},
        {"200 KB", "expected"},
    };
    for (const auto& [text, why] : bad)
    {
        const std::string msg = Refusal(
            [text = text]
            {
                ReadQueueSizeText(text, "--bufferSize");
            });
        EXPECT_EQ(msg.rfind("--bufferSize: got " + QuoteText(text), 0), 0u) << msg;
        EXPECT_NE(msg.find(why), std::string::npos) << msg;
    }
}

TEST(ValueText, Bool)
{
    for (const char* yes : {"", "true", "True", "t", "1"})
    {
        EXPECT_TRUE(ReadBoolText(yes, "--f")) << yes;
    }
    for (const char* no : {"false", "FALSE", "f", "0"})
    {
        EXPECT_FALSE(ReadBoolText(no, "--f")) << no;
    }
    EXPECT_NE(Refusal(
                  []
                  {
                      ReadBoolText("yes", "--validate");
                  })
                  .find("--validate: got 'yes'"),
              std::string::npos);
}

TEST(AttributeText, ValuesAreCheckedAgainstTheirAttribute)
{
    const TypeId dcqcn = RdmaDcqcn::GetTypeId();
    const TypeId mmu = SwitchMmu::GetTypeId();
    EXPECT_NO_THROW(CheckAttributeText(dcqcn, "G", "0.5", "--ns3::RdmaDcqcn::G"));
    EXPECT_NO_THROW(CheckAttributeText(dcqcn, "MinRate", "1Gbps", "x"));
    EXPECT_NO_THROW(CheckAttributeText(dcqcn, "RateIncreaseInterval", "55us", "x"));
    EXPECT_NO_THROW(CheckAttributeText(mmu, "PfcEnabled", "false", "x"));
    EXPECT_NO_THROW(CheckAttributeText(mmu, "ThresholdMode", "DYNAMIC", "x"));
    EXPECT_NO_THROW(CheckAttributeText(mmu, "Headroom", "100KB", "x"));
    const std::pair<const char*, const char*> bad[] = {
        {"G=nan", "expected a finite decimal number"},
        {"G=inf", "expected a finite decimal number"},
        {"G=0.5x", "expected a finite decimal number"},
        {"ByteCounter=-1", "expected a non-negative integer"},
        {"ByteCounter=1e3", "expected a non-negative integer"},
        {"MinRate=-1Gbps", "cannot be negative"},
        {"RateIncreaseInterval=2msx", "expected a decimal number and a unit"},
        {"ClampTargetRate=yes", "expected true or false"},
    };
    for (const auto& [arg, why] : bad)
    {
        const std::string a = arg;
        const std::string name = a.substr(0, a.find('='));
        const std::string value = a.substr(a.find('=') + 1);
        const std::string msg = Refusal(
            [&]
            {
                CheckAttributeText(dcqcn, name, value, "--ns3::RdmaDcqcn::" + name);
            });
        EXPECT_EQ(msg.rfind("--ns3::RdmaDcqcn::" + name + ": got " + QuoteText(value), 0), 0u)
            << msg;
        EXPECT_NE(msg.find(why), std::string::npos) << msg;
    }
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckAttributeText(mmu, "ThresholdMode", "dynamic", "x");
                  })
                  .find("expected one of"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckAttributeText(mmu, "BufferSize", "5000000000B", "x");
                  })
                  .find("above 4294967295 B"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckAttributeText(dcqcn, "NoSuch", "1", "x");
                  })
                  .find("has no attribute 'NoSuch'"),
              std::string::npos);
}

TEST(AttributeText, OwnerOfAnInheritedAttribute)
{
    TypeId owner;
    ASSERT_TRUE(FindAttributeOwner(TypeId::LookupByName("ns3::RdmaDcon"), "G", &owner));
    EXPECT_EQ(owner, RdmaDcqcn::GetTypeId());
    ASSERT_TRUE(FindAttributeOwner(RdmaDcqcn::GetTypeId(), "G", &owner));
    EXPECT_EQ(owner, RdmaDcqcn::GetTypeId());
    EXPECT_FALSE(FindAttributeOwner(RdmaDcqcn::GetTypeId(), "NoSuch", &owner));
}

// A factory or object setting of an attribute the user gave is refused, for the type that
// defines it and its subclasses.
TEST(AttributeText, OverwritingAUserAttributeIsRefused)
{
    EXPECT_NO_THROW(RefuseOverwritingUserAttribute(SwitchMmu::GetTypeId(), "Headroom", "x"));
    SetUserAttributePaths({"ns3::SwitchMmu::Headroom", "ns3::RdmaDcqcn::G"});
    const std::string msg = Refusal(
        []
        {
            RefuseOverwritingUserAttribute(SwitchMmu::GetTypeId(), "Headroom", "the fabric");
        });
    EXPECT_EQ(msg,
              "--ns3::SwitchMmu::Headroom: the fabric sets ns3::SwitchMmu::Headroom itself and "
              "would overwrite this value");
    EXPECT_THROW(RefuseOverwritingUserAttribute(TypeId::LookupByName("ns3::RdmaDcon"), "G", "x"),
                 std::invalid_argument);
    EXPECT_NO_THROW(RefuseOverwritingUserAttribute(SwitchMmu::GetTypeId(), "XOff", "x"));
    SetUserAttributePaths({});
    EXPECT_NO_THROW(RefuseOverwritingUserAttribute(SwitchMmu::GetTypeId(), "Headroom", "x"));
}

TEST(FileChecks, InputsThatAreNotFilesAreNamed)
{
    const std::string dir = testing::TempDir() + "dcon-file-checks-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const std::string fifo = dir + "/pipe";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(DescribePath(dir), "a folder");
    EXPECT_EQ(DescribePath(fifo), "a FIFO (named pipe)");
    EXPECT_EQ(DescribePath("/dev/null"), "a character device");
    EXPECT_EQ(DescribePath(dir + "/none"), "nothing (no such file)");
    EXPECT_TRUE(IsNonRegularPath(fifo));
    EXPECT_FALSE(IsNonRegularPath(dir + "/none"));
    // (the FIFO is never opened: it would block without a writer)
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckInputFile(fifo, "--topo");
                  })
                  .find("is a FIFO (named pipe), not"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckInputFile(dir, "--topo");
                  })
                  .find("is a folder"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  []
                  {
                      CheckOutputFile("/dev/null", "--rttTrace");
                  })
                  .find("'/dev/null' is a character device, not a file to write"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      CheckOutputFile(dir + "/none/x.csv", "--rttTrace");
                  })
                  .find("the folder of"),
              std::string::npos);
    EXPECT_NO_THROW(CheckOutputFile(dir + "/x.csv", "--rttTrace"));
    std::filesystem::remove_all(dir);
}

TEST(FileChecks, OutputFolderLosesTheFilesOfAnEarlierRun)
{
    EXPECT_TRUE(MatchesKind("node-work-nodes.csv", "node-work-*.csv"));
    EXPECT_TRUE(MatchesKind("testbed-21-0.pcap", "testbed-*.pcap"));
    EXPECT_FALSE(MatchesKind("testbed.pcap", "testbed-*.pcap"));
    EXPECT_TRUE(MatchesKind("run.json", "run.json"));
    EXPECT_FALSE(MatchesKind("run.json.bak", "run.json"));

    const std::string dir = testing::TempDir() + "dcon-outdir-" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    for (const char* name : {"flows.csv", "summary.json.part", "node-work-nodes.csv", "notes.txt"})
    {
        std::filesystem::create_directories(dir);
        std::ofstream(dir + "/" + name) << "old\n";
    }
    OutputFolderReport r
        = PrepareOutputFolderFor(dir, {"flows.csv", "summary.json", "node-work-*.csv", "run.json"});
    EXPECT_EQ(r.removed,
              (std::vector<std::string>{"flows.csv", "node-work-nodes.csv", "summary.json.part"}));
    EXPECT_EQ(r.foreign, std::vector<std::string>{"notes.txt"});
    EXPECT_TRUE(std::filesystem::exists(dir + "/notes.txt"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/flows.csv"));
    // a file where the folder should be, a folder that cannot be made
    EXPECT_NE(Refusal(
                  [&]
                  {
                      PrepareOutputFolderFor(dir + "/notes.txt", {});
                  })
                  .find("is a regular file, not a folder"),
              std::string::npos);
    EXPECT_NE(Refusal(
                  []
                  {
                      PrepareOutputFolderFor("/proc/dcon-no-such/out", {});
                  })
                  .find("cannot create the folder"),
              std::string::npos);
    std::filesystem::remove_all(dir);
}
