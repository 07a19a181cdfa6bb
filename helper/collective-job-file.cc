/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-job-file.h"

#include "ns3/input-file.h"
#include "ns3/value-text.h"
#include "text-input.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The largest size a job may give (also keeps size x 8 and the sums of the outputs in range).
constexpr uint64_t MAX_BYTES = uint64_t(1) << 50;

/// The most hosts a list may name.
constexpr uint64_t MAX_LIST = uint64_t(1) << 20;

/// The keys of a job line, in the order the message lists them.
const char* const KEYS[] = {"name",
                            "op",
                            "algo",
                            "size",
                            "ranks",
                            "placement",
                            "hosts",
                            "gpus",
                            "iterations",
                            "gap",
                            "start",
                            "chunks",
                            "sync",
                            "paths",
                            "priority"};

/// \return the keys as a message lists them: "name, op, ..., priority"
std::string
KeyList()
{
    std::string s;
    for (const char* k : KEYS)
    {
        s += (s.empty() ? "" : ", ") + std::string(k);
    }
    return s;
}

/// \return whether \p c may be in a job name
bool
IsNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
           || c == '-' || c == '.';
}

} // namespace

std::optional<uint64_t>
ReadByteSize(std::string_view text)
{
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    {
        ++digits;
    }
    if (digits == 0)
    {
        return std::nullopt;
    }
    const std::string_view unit = text.substr(digits);
    static const std::pair<const char*, uint64_t> UNITS[] = {{"", 1},
                                                             {"B", 1},
                                                             {"KB", 1000},
                                                             {"MB", 1000000},
                                                             {"GB", 1000000000},
                                                             {"KiB", uint64_t(1) << 10},
                                                             {"MiB", uint64_t(1) << 20},
                                                             {"GiB", uint64_t(1) << 30}};
    for (const auto& [u, factor] : UNITS)
    {
        if (unit == u)
        {
            std::optional<uint64_t> v
                = ReadDecimalUnsigned(text.substr(0, digits), MAX_BYTES / factor);
            if (!v)
            {
                return std::nullopt;
            }
            return *v * factor;
        }
    }
    return std::nullopt;
}

std::optional<std::vector<uint32_t>>
ReadHostList(std::string_view text)
{
    std::vector<uint32_t> out;
    std::size_t pos = 0;
    while (true)
    {
        const std::size_t comma = text.find(',', pos);
        const std::string_view item = text.substr(
            pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        const std::size_t dash = item.find('-');
        std::optional<uint64_t> a = ReadDecimalUnsigned(item.substr(0, dash), UINT32_MAX - 1);
        std::optional<uint64_t> b
            = dash == std::string_view::npos
                  ? a
                  : ReadDecimalUnsigned(item.substr(dash + 1), UINT32_MAX - 1);
        if (!a || !b || *b < *a || *b - *a + 1 > MAX_LIST - out.size())
        {
            return std::nullopt;
        }
        for (uint64_t h = *a; h <= *b; ++h)
        {
            out.push_back(static_cast<uint32_t>(h));
        }
        if (comma == std::string_view::npos)
        {
            return out;
        }
        pos = comma + 1;
    }
}

std::vector<CollectiveJob>
ReadCollectiveJobs(std::istream& in, const std::string& name)
{
    using textinput::Fail;
    std::vector<CollectiveJob> jobs;
    std::set<std::string> names;
    std::string text;
    uint64_t lineNo = 0;
    while (std::getline(in, text))
    {
        ++lineNo;
        std::string_view line(text);
        const std::size_t hash = line.find('#');
        if (hash != std::string_view::npos)
        {
            line = line.substr(0, hash);
        }
        const std::vector<std::string_view> fields = textinput::SplitFields(line);
        if (fields.empty())
        {
            continue;
        }
        std::map<std::string, std::string_view> kv;
        for (std::string_view f : fields)
        {
            const std::size_t eq = f.find('=');
            if (eq == std::string_view::npos || eq == 0)
            {
                Fail(name, lineNo, "expected key=value fields (keys: " + KeyList() + ")", f);
            }
            const std::string key(f.substr(0, eq));
            bool known = false;
            for (const char* k : KEYS)
            {
                known = known || key == k;
            }
            if (!known)
            {
                Fail(name, lineNo, "unknown key '" + key + "' (keys: " + KeyList() + ")", f);
            }
            if (kv.count(key))
            {
                Fail(name, lineNo, "key '" + key + "' given twice on the line", f);
            }
            if (eq + 1 == f.size())
            {
                Fail(name, lineNo, "key '" + key + "' has no value", f);
            }
            kv.emplace(key, f.substr(eq + 1));
        }
        auto has = [&kv](const char* k)
        {
            return kv.count(k) > 0;
        };
        auto unsignedValue = [&](const char* k, uint64_t min, uint64_t max) -> uint64_t
        {
            std::optional<uint64_t> v = ReadDecimalUnsigned(kv.at(k), max);
            if (!v || *v < min)
            {
                Fail(name,
                     lineNo,
                     std::string(k) + " must be an integer in [" + std::to_string(min) + ", "
                         + std::to_string(max) + "]",
                     kv.at(k));
            }
            return *v;
        };
        auto timeValue = [&](const char* k) -> Time
        {
            try
            {
                Time t = ReadTimeText(std::string(kv.at(k)), k);
                if (t.IsStrictlyNegative())
                {
                    Fail(name, lineNo, std::string(k) + " must be a time >= 0", kv.at(k));
                }
                return t;
            }
            catch (const std::invalid_argument& e)
            {
                const std::string msg = e.what();
                if (msg.rfind(name + ":", 0) == 0)
                {
                    throw;
                }
                throw std::invalid_argument(name + ":" + std::to_string(lineNo) + ": " + msg);
            }
        };
        auto choice = [&](const char* k, const std::vector<std::string>& options) -> std::size_t
        {
            for (std::size_t i = 0; i < options.size(); ++i)
            {
                if (kv.at(k) == options[i])
                {
                    return i;
                }
            }
            std::string list;
            for (std::size_t i = 0; i < options.size(); ++i)
            {
                list += (i == 0 ? "" : (i + 1 == options.size() ? " or " : ", ")) + options[i];
            }
            Fail(name, lineNo, std::string(k) + " must be " + list, kv.at(k));
        };

        CollectiveJob job;
        if (!has("op"))
        {
            Fail(name,
                 lineNo,
                 "the job has no op= (allreduce, allgather, reducescatter or "
                 "alltoall)",
                 line);
        }
        job.op = static_cast<CollectiveOp>(
            choice("op", {"allreduce", "allgather", "reducescatter", "alltoall"}));
        job.name = "job" + std::to_string(jobs.size());
        if (has("name"))
        {
            const std::string_view n = kv.at("name");
            for (char c : n)
            {
                if (!IsNameChar(c))
                {
                    Fail(name, lineNo, "a name has letters, digits, '_', '-' and '.' only", n);
                }
            }
            job.name = std::string(n);
        }
        if (!names.insert(job.name).second)
        {
            Fail(name,
                 lineNo,
                 "job name '" + job.name + "' is used twice",
                 kv.count("name") ? kv.at("name") : line);
        }
        job.algorithm = CollectiveJob::DefaultAlgorithm(job.op);
        if (has("algo"))
        {
            job.algorithm
                = static_cast<CollectiveAlgorithm>(choice("algo", {"ring", "hd", "direct"}));
        }
        if (!has("size"))
        {
            Fail(name, lineNo, "the job has no size= (bytes, e.g. 64MiB)", line);
        }
        std::optional<uint64_t> size = ReadByteSize(kv.at("size"));
        if (!size || *size == 0)
        {
            Fail(name,
                 lineNo,
                 "size must be a number of bytes in [1, 2^50] with an optional unit B, KB, MB, GB, "
                 "KiB, MiB or GiB",
                 kv.at("size"));
        }
        job.bytes = *size;
        if (has("hosts"))
        {
            std::optional<std::vector<uint32_t>> hosts = ReadHostList(kv.at("hosts"));
            if (!hosts)
            {
                Fail(name,
                     lineNo,
                     "hosts must be node ids and ranges a-b (a <= b) separated by commas, at most "
                         + std::to_string(MAX_LIST) + " in all",
                     kv.at("hosts"));
            }
            job.hosts = *hosts;
            job.placement = CollectivePlacement::LIST;
        }
        if (has("placement"))
        {
            job.placement = static_cast<CollectivePlacement>(
                choice("placement", {"packed", "spread", "random", "list", "rail"}));
            if (has("hosts") != (job.placement == CollectivePlacement::LIST))
            {
                Fail(name,
                     lineNo,
                     has("hosts") ? "hosts= places the ranks itself (placement list)"
                                  : "placement list needs hosts=",
                     kv.at("placement"));
            }
        }
        if (has("ranks"))
        {
            job.ranks = static_cast<uint32_t>(unsignedValue("ranks", 2, MAX_LIST));
            if (has("hosts") && job.ranks != job.hosts.size())
            {
                Fail(name,
                     lineNo,
                     "ranks=" + std::to_string(job.ranks) + " but hosts= lists "
                         + std::to_string(job.hosts.size()) + " hosts",
                     kv.at("ranks"));
            }
        }
        else if (has("hosts"))
        {
            job.ranks = job.hosts.size();
        }
        else
        {
            Fail(name, lineNo, "the job has no ranks= (and no hosts=)", line);
        }
        if (has("gpus"))
        {
            job.gpusPerServer = static_cast<uint32_t>(unsignedValue("gpus", 1, 1024));
        }
        if (has("iterations"))
        {
            job.iterations = static_cast<uint32_t>(unsignedValue("iterations", 1, 1000000));
        }
        if (has("gap"))
        {
            job.gap = timeValue("gap");
        }
        if (has("start"))
        {
            job.start = timeValue("start");
        }
        if (has("chunks"))
        {
            job.chunks = static_cast<uint32_t>(unsignedValue("chunks", 1, 65536));
        }
        if (has("sync"))
        {
            job.sync = static_cast<CollectiveSync>(choice("sync", {"rank", "all"}));
        }
        if (has("paths"))
        {
            job.paths = static_cast<CollectivePaths>(choice("paths", {"ecmp", "pinned"}));
        }
        if (has("priority"))
        {
            job.priority = static_cast<uint8_t>(unsignedValue("priority", 0, 7));
        }
        try
        {
            job.Check();
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(name + ":" + std::to_string(lineNo) + ": " + e.what());
        }
        jobs.push_back(job);
    }
    if (in.bad())
    {
        Fail(name, lineNo, "read error", "");
    }
    if (jobs.empty())
    {
        throw std::invalid_argument(name
                                    + ": no job in the file (one job per line, e.g. "
                                      "'op=allreduce size=64MiB ranks=8')");
    }
    return jobs;
}

std::string
FormatCollectiveJob(const CollectiveJob& job)
{
    std::ostringstream o;
    o << "name=" << job.name << " op=" << CollectiveJob::ToString(job.op)
      << " algo=" << CollectiveJob::ToString(job.algorithm) << " size=" << job.bytes;
    if (job.placement == CollectivePlacement::LIST)
    {
        o << " hosts=";
        for (std::size_t i = 0; i < job.hosts.size(); ++i)
        {
            o << (i ? "," : "") << job.hosts[i];
        }
    }
    else
    {
        o << " ranks=" << job.ranks << " placement=" << CollectiveJob::ToString(job.placement);
    }
    if (job.placement == CollectivePlacement::RAIL)
    {
        o << " gpus=" << job.gpusPerServer;
    }
    o << " iterations=" << job.iterations << " gap=" << FormatTimeSteps(job.gap)
      << " start=" << FormatTimeSteps(job.start) << " chunks=" << job.chunks
      << " sync=" << CollectiveJob::ToString(job.sync)
      << " paths=" << CollectiveJob::ToString(job.paths) << " priority=" << +job.priority;
    return o.str();
}

std::vector<CollectiveJob>
ReadCollectiveJobFile(const std::string& path)
{
    CheckInputFile(path, "the job file");
    std::ifstream in(path);
    if (!in)
    {
        throw std::invalid_argument("the job file '" + path + "' cannot be read");
    }
    return ReadCollectiveJobs(in, path);
}

} // namespace ns3
