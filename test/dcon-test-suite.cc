/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// In-tree builds only (ns-3 configured with --enable-tests; CMakeLists.txt passes this file and
// test/*-test.cc to build_lib as TEST_SOURCES): the ns-3 TestSuite "dcon", so that ns-3's
// test.py runs dcon's GoogleTest suite (./test.py -s dcon).
//
// Each GoogleTest test is one TestCase of the suite, named as ctest names it (SwitchMmu.Foo),
// and runs in a child process of its own (fork, then RUN_ALL_TESTS with only that test), as
// ctest runs one process per test: ns-3's Simulator is a singleton, and the tests assume a
// fresh one. The child sets the time resolution to ps (as test/test-main.cc does) and runs at
// most 600 s (ctest's TIMEOUT); a test that fails, crashes or times out fails its TestCase with
// the test's name and the end of its GoogleTest output. As in any ns-3 suite, the suite stops
// at its first failed TestCase; the standalone build's ctest runs every test whatever fails.
// GTEST_FILTER (GoogleTest's syntax: patterns with * and ?, ':' between them, '-' before the
// excluded ones) selects tests: GTEST_FILTER='SwitchMmu.*' ./test.py -s dcon.
#include "ns3/nstime.h"
#include "ns3/test.h"

#include <fnmatch.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

/// The longest a test may run (s), as ctest's TIMEOUT in test/CMakeLists.txt.
constexpr unsigned kTimeoutSeconds = 600;
/// How much of a failed test's output the failure message keeps (its end).
constexpr std::size_t kOutputTail = 4000;

/// Whether \p name (Suite.Test) matches one of the ':'-separated glob patterns of \p patterns.
bool
MatchesAny(const std::string& patterns, const std::string& name)
{
    std::istringstream in(patterns);
    std::string pattern;
    while (std::getline(in, pattern, ':'))
    {
        if (!pattern.empty() && fnmatch(pattern.c_str(), name.c_str(), 0) == 0)
        {
            return true;
        }
    }
    return false;
}

/// Whether GoogleTest's filter \p filter ("POSITIVE[-NEGATIVE]") selects \p name.
bool
FilterSelects(const std::string& filter, const std::string& name)
{
    const auto dash = filter.find('-');
    std::string positive = filter.substr(0, dash);
    const std::string negative = dash == std::string::npos ? "" : filter.substr(dash + 1);
    if (positive.empty())
    {
        positive = "*";
    }
    return MatchesAny(positive, name) && !MatchesAny(negative, name);
}

/// Initializes GoogleTest once in this process (its flags from the GTEST_* variables).
void
InitGoogleTestOnce()
{
    static bool done = false;
    if (!done)
    {
        int argc = 1;
        char name[] = "test-runner";
        char* argv[] = {name, nullptr};
        ::testing::InitGoogleTest(&argc, argv);
        done = true;
    }
}

/// The full names (Suite.Test) of the GoogleTest tests linked in, in their order of
/// registration, less the disabled ones and those GTEST_FILTER leaves out.
std::vector<std::string>
GoogleTestNames()
{
    InitGoogleTestOnce();
    const char* env = std::getenv("GTEST_FILTER");
    const std::string filter = env != nullptr && *env != '\0' ? env : "*";
    std::vector<std::string> names;
    const auto* unit = ::testing::UnitTest::GetInstance();
    for (int i = 0; i < unit->total_test_suite_count(); ++i)
    {
        const auto* suite = unit->GetTestSuite(i);
        for (int j = 0; j < suite->total_test_count(); ++j)
        {
            const auto* info = suite->GetTestInfo(j);
            const std::string name = std::string(info->test_suite_name()) + "." + info->name();
            const bool disabled = std::strncmp(info->test_suite_name(), "DISABLED_", 9) == 0
                                  || std::strncmp(info->name(), "DISABLED_", 9) == 0;
            if (!disabled && FilterSelects(filter, name))
            {
                names.push_back(name);
            }
        }
    }
    return names;
}

/// In the child process: run the one test \p name and exit with RUN_ALL_TESTS's status
/// (3 if the filter ran no test).
[[noreturn]] void
RunInChild(const std::string& name, int outFd)
{
    dup2(outFd, STDOUT_FILENO);
    dup2(outFd, STDERR_FILENO);
    close(outFd);
    alarm(kTimeoutSeconds);
    // Same resolution as the examples and test/test-main.cc: a 64 B frame at 100 Gbps lasts
    // 5.12 ns. Set here, so that the test-runner process keeps ns-3's default for other suites.
    if (ns3::Time::GetResolution() != ns3::Time::PS)
    {
        ns3::Time::SetResolution(ns3::Time::PS);
    }
#ifdef GTEST_FLAG_SET
    GTEST_FLAG_SET(filter, name);
#else
    ::testing::GTEST_FLAG(filter) = name;
#endif
    int status = RUN_ALL_TESTS();
    if (status == 0 && ::testing::UnitTest::GetInstance()->test_to_run_count() != 1)
    {
        std::cout << "dcon-test-suite: --gtest_filter=" << name << " ran "
                  << ::testing::UnitTest::GetInstance()->test_to_run_count() << " tests, not 1"
                  << std::endl;
        status = 3;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // No static destructors or atexit handlers of the parent's copy: leave at once.
    _exit(status);
}

/// One GoogleTest test, run in a child process.
class GoogleTestCase : public ns3::TestCase
{
public:
    explicit GoogleTestCase(const std::string& name)
        : ns3::TestCase(name)
        , m_name(name)
    {
    }

private:
    void
    DoRun() override
    {
        int fds[2];
        NS_TEST_ASSERT_MSG_EQ(pipe(fds), 0, "pipe: " << std::strerror(errno));
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        const pid_t pid = fork();
        if (pid == 0)
        {
            close(fds[0]);
            RunInChild(m_name, fds[1]);
        }
        const int forkErrno = errno;
        close(fds[1]);
        if (pid < 0)
        {
            close(fds[0]);
        }
        NS_TEST_ASSERT_MSG_GT(pid, 0, "fork: " << std::strerror(forkErrno));

        std::string output;
        char buffer[4096];
        for (;;)
        {
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n > 0)
            {
                output.append(buffer, static_cast<std::size_t>(n));
            }
            else if (n == 0 || errno != EINTR)
            {
                break;
            }
        }
        close(fds[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        {
        }

        std::ostringstream outcome;
        bool passed = false;
        if (WIFEXITED(status))
        {
            passed = WEXITSTATUS(status) == 0;
            outcome << "exit status " << WEXITSTATUS(status);
        }
        else if (WIFSIGNALED(status))
        {
            const int sig = WTERMSIG(status);
            outcome << "killed by signal " << sig << " (" << strsignal(sig) << ")";
            if (sig == SIGALRM)
            {
                outcome << ": still running after " << kTimeoutSeconds << " s";
            }
        }
        if (output.size() > kOutputTail)
        {
            output = "[...]\n" + output.substr(output.size() - kOutputTail);
        }
        NS_TEST_EXPECT_MSG_EQ(passed,
                              true,
                              "GoogleTest test " << m_name << " failed (" << outcome.str()
                                                 << "); its output:\n"
                                                 << output);
    }

    std::string m_name; ///< Suite.Test, the GoogleTest test's full name
};

/// ns-3's TestSuite "dcon": every GoogleTest test of dcon (test/*-test.cc), one TestCase each.
class DconTestSuite : public ns3::TestSuite
{
public:
    DconTestSuite()
        : ns3::TestSuite("dcon")
    {
    }

private:
    // The TestCases are made when the suite runs, not when the library is loaded: GoogleTest's
    // tests register themselves in static initializers of the other files, in no set order.
    void
    DoSetup() override
    {
        if (m_added)
        {
            return;
        }
        m_added = true;
        for (const auto& name : GoogleTestNames())
        {
            AddTestCase(new GoogleTestCase(name));
            ++m_count;
        }
    }

    // After the TestCases: a suite of no test would pass without testing anything.
    void
    DoRun() override
    {
        const char* filter = std::getenv("GTEST_FILTER");
        NS_TEST_ASSERT_MSG_GT(m_count,
                              0,
                              "no GoogleTest test to run (GTEST_FILTER="
                                  << (filter != nullptr ? filter : "unset") << ")");
    }

    bool m_added{false}; ///< Whether DoSetup has added the TestCases
    int m_count{0};      ///< How many TestCases DoSetup added
};

DconTestSuite g_dconTestSuite; ///< The suite's instance, registered with ns-3's test runner

} // namespace
