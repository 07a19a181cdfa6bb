/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RunProgress: progress lines while a run goes on, and nothing else changed (the large-scale
 * program's --progress).
 */

#include "ns3/dcon-large-scale.h"
#include "ns3/run-progress.h"
#include "ns3/simulator.h"

#include "test-items.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace ns3;
using test::Slurp;

namespace
{

/// Fixture: destroys the simulator after every test.
class RunProgressTest : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

/// The number of lines of a text.
std::size_t
Lines(const std::string& text)
{
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_F(RunProgressTest, RefusesIntervalsThatAreNotPositive)
{
    std::ostringstream os;
    EXPECT_THROW(RunProgress(Time(0), MilliSeconds(1), nullptr, os), std::invalid_argument);
    EXPECT_THROW(RunProgress(Seconds(1), Time(0), nullptr, os), std::invalid_argument);
    EXPECT_THROW(RunProgress(Seconds(-1), MilliSeconds(1), nullptr, os), std::invalid_argument);
}

// A wall interval far shorter than the time between two checks: one line per simulated step,
// at 1, 2, ..., 5 ms of a run stopped at 5.5 ms, each with the run's status of that moment.
TEST_F(RunProgressTest, OneLinePerStepWhenTheWallIntervalHasPassed)
{
    std::ostringstream os;
    int calls = 0;
    RunProgress p(NanoSeconds(1),
                  MilliSeconds(1),
                  [&calls]() { return "status " + std::to_string(++calls); },
                  os);
    p.Start();
    Simulator::Stop(MicroSeconds(5500));
    Simulator::Run();
    EXPECT_EQ(p.GetLines(), 5u);
    EXPECT_EQ(Lines(os.str()), 5u);
    EXPECT_TRUE(std::regex_search(os.str(),
                                  std::regex("^progress: \\+1\\.0 ms simulated, status 1, wall "
                                             "[0-9]+\\.[0-9] s\n")))
        << os.str();
    EXPECT_NE(os.str().find("progress: +5.0 ms simulated, status 5, wall "), std::string::npos)
        << os.str();
}

// A wall interval longer than the run: checked, but not a line; and after the reporter is
// gone its next check is cancelled.
TEST_F(RunProgressTest, NoLineBeforeTheIntervalNorAfterTheReporterIsGone)
{
    std::ostringstream os;
    {
        RunProgress p(Seconds(1000), MilliSeconds(1), nullptr, os);
        p.Start();
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        EXPECT_EQ(p.GetLines(), 0u);
    }
    {
        RunProgress p(NanoSeconds(1), MilliSeconds(1), nullptr, os);
        p.Start();
    }
    Simulator::Stop(MilliSeconds(3));
    Simulator::Run(); // the destroyed reporter's check must not run
    EXPECT_EQ(os.str(), "");
}

// --progress changes nothing but summary.json's events_executed (its checks) and run.json's
// record of the options: the flows, pauses and buffer samples are byte-identical.
TEST_F(RunProgressTest, LargeScaleProgressChangesNoResult)
{
    const std::string base = ::testing::TempDir() + "/dcon-progress-";
    for (bool on : {false, true})
    {
        DconLargeScaleConfig c;
        c.cc = "dcon";
        c.SetScale("tiny");
        c.load = 0.6;
        c.duration = MilliSeconds(2);
        c.dataDir = DCON_SOURCE_DIR "/data";
        c.progress = on ? NanoSeconds(1) : Time(0);
        const std::string dir = base + (on ? "on" : "off");
        std::filesystem::remove_all(dir);
        DconLargeScale run(c);
        run.Run();
        run.Write(dir, 0);
        Simulator::Destroy();
    }
    for (const char* f : {"flows.csv", "pfc.csv", "buffer.csv", "flows.txt", "fct.txt"})
    {
        const std::string off = Slurp(base + "off/" + f);
        EXPECT_GT(off.size(), 20u) << f << " is missing or empty";
        EXPECT_EQ(off, Slurp(base + "on/" + f)) << f;
    }
}
