/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// libFuzzer target: the collective job file reader (helper/collective-job-file.h) on arbitrary
// text: it either refuses the input with "fuzz.jobs:<line>: ..." (or "fuzz.jobs: no job ...")
// or returns jobs that pass CollectiveJob::Check, whose schedules have the algorithm's number of
// messages, and that FormatCollectiveJob writes as lines the reader reads back to the same jobs.
// The size and host-list readers agree with a reference on every field.
#include "fuzz-common.h"
#include "ns3/collective-job-file.h"
#include "ns3/text-input.h"

#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// The messages one iteration must have.
uint64_t
ExpectedMessages(const CollectiveJob& j)
{
    const uint64_t n = j.ranks;
    switch (j.algorithm)
    {
        case CollectiveAlgorithm::RING:
            return n * j.chunks * (j.op == CollectiveOp::ALL_REDUCE ? 2 * (n - 1) : n - 1);
        case CollectiveAlgorithm::HALVING_DOUBLING:
            return n * GetCollectiveSteps(j);
        case CollectiveAlgorithm::DIRECT:
            return n * (n - 1);
    }
    return 0;
}

/// ReadByteSize's contract, the slow way.
std::optional<uint64_t>
ReferenceSize(std::string_view t)
{
    std::size_t d = 0;
    unsigned __int128 v = 0;
    while (d < t.size() && t[d] >= '0' && t[d] <= '9')
    {
        v = v * 10 + (t[d] - '0');
        if (v > (unsigned __int128) (1) << 60)
        {
            v = (unsigned __int128) (1) << 60; // saturate: beyond any limit
        }
        ++d;
    }
    if (d == 0)
    {
        return std::nullopt;
    }
    const std::string_view u = t.substr(d);
    uint64_t f = 0;
    if (u.empty() || u == "B")
    {
        f = 1;
    }
    else if (u == "KB")
    {
        f = 1000;
    }
    else if (u == "MB")
    {
        f = 1000000;
    }
    else if (u == "GB")
    {
        f = 1000000000;
    }
    else if (u == "KiB")
    {
        f = 1024;
    }
    else if (u == "MiB")
    {
        f = 1 << 20;
    }
    else if (u == "GiB")
    {
        f = 1 << 30;
    }
    else
    {
        return std::nullopt;
    }
    v *= f;
    if (v > (unsigned __int128) (1) << 50)
    {
        return std::nullopt;
    }
    return static_cast<uint64_t>(v);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text = dconfuzz::AsText(data, size);
    for (std::string_view f : textinput::SplitFields(text))
    {
        FUZZ_CHECK(ReadByteSize(f) == ReferenceSize(f));
        std::optional<std::vector<uint32_t>> hosts = ReadHostList(f);
        if (hosts)
        {
            FUZZ_CHECK(!hosts->empty() && hosts->size() <= (1u << 20));
        }
    }
    std::vector<CollectiveJob> jobs;
    try
    {
        std::istringstream in(text);
        jobs = ReadCollectiveJobs(in, "fuzz.jobs");
    }
    catch (const std::invalid_argument& e)
    {
        FUZZ_CHECK(std::string(e.what()).rfind("fuzz.jobs:", 0) == 0);
        return 0;
    }
    FUZZ_CHECK(!jobs.empty());
    std::ostringstream out;
    for (const CollectiveJob& j : jobs)
    {
        j.Check(); // throws (a fuzz failure) if the reader let a bad job through
        FUZZ_CHECK(j.bytes > 0 && j.ranks >= 2 && j.iterations >= 1 && j.priority <= 7);
        // the schedule of a small job (a large one could take long to expand)
        if (ExpectedMessages(j) <= 100000)
        {
            const auto schedule = MakeCollectiveSchedule(j);
            FUZZ_CHECK(schedule.size() == ExpectedMessages(j));
            for (std::size_t i = 0; i < schedule.size(); ++i)
            {
                const CollectiveTransfer& t = schedule[i];
                FUZZ_CHECK(t.bytes > 0 && t.src < j.ranks && t.dst < j.ranks && t.src != t.dst);
                FUZZ_CHECK(t.after < int64_t(i) && t.connectionBefore < int64_t(i));
            }
        }
        out << FormatCollectiveJob(j) << "\n";
    }
    std::istringstream back(out.str());
    const std::vector<CollectiveJob> again = ReadCollectiveJobs(back, "written");
    FUZZ_CHECK(again.size() == jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i)
    {
        FUZZ_CHECK(FormatCollectiveJob(again[i]) == FormatCollectiveJob(jobs[i]));
    }
    return 0;
}
