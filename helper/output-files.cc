/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-files.h"

#include "ns3/log.h"
#include "ns3/value-text.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconOutputFiles");

namespace fs = std::filesystem;

void
CheckOutputFile(const std::string& path, const std::string& what)
{
    if (path.empty())
    {
        throw std::invalid_argument(what + ": got an empty file name");
    }
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (st.type() != fs::file_type::not_found && st.type() != fs::file_type::regular)
    {
        throw std::invalid_argument(what + ": " + QuoteText(path) + " is " + DescribePath(path)
                                    + ", not a file to write");
    }
    fs::path parent = fs::path(path).parent_path();
    if (parent.empty())
    {
        parent = ".";
    }
    if (!fs::is_directory(parent, ec))
    {
        throw std::invalid_argument(what + ": the folder of " + QuoteText(path) + " is "
                                    + DescribePath(parent.string()));
    }
    if (access(parent.c_str(), W_OK) != 0)
    {
        throw std::invalid_argument(what + ": cannot write in the folder of " + QuoteText(path)
                                    + " (" + std::strerror(errno) + ")");
    }
}

bool
MatchesKind(const std::string& name, const std::string& pattern)
{
    const std::size_t star = pattern.find('*');
    if (star == std::string::npos)
    {
        return name == pattern;
    }
    const std::string head = pattern.substr(0, star);
    const std::string tail = pattern.substr(star + 1);
    return name.size() >= head.size() + tail.size() && name.compare(0, head.size(), head) == 0
           && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

namespace
{
/// Whether \p name (or, for a ".part" file of an interrupted write, the name it was written
/// for) is of one of \p kinds.
bool
IsOfKinds(const std::string& name, const std::vector<std::string>& kinds)
{
    std::string base = name;
    if (base.size() > 5 && base.compare(base.size() - 5, 5, ".part") == 0)
    {
        base = base.substr(0, base.size() - 5);
    }
    return std::any_of(kinds.begin(),
                       kinds.end(),
                       [&base](const std::string& k)
                       {
                           return MatchesKind(base, k);
                       });
}

/// The entries of a folder, sorted (none if it cannot be listed).
std::vector<fs::path>
SortedEntries(const std::string& dir)
{
    std::error_code ec;
    std::vector<fs::path> entries;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    {
        entries.push_back(e.path());
    }
    std::sort(entries.begin(), entries.end());
    return entries;
}
} // namespace

std::vector<std::string>
FindOutputFiles(const std::string& dir, const std::vector<std::string>& kinds)
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const fs::path& p : SortedEntries(dir))
    {
        if (IsOfKinds(p.filename().string(), kinds) && !fs::is_directory(p, ec))
        {
            out.push_back(p.string());
        }
    }
    return out;
}

OutputFolderReport
PrepareOutputFolderFor(const std::string& dir, const std::vector<std::string>& kinds, bool dryRun)
{
    if (dir.empty())
    {
        throw std::invalid_argument("--outdir: got an empty folder name");
    }
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (st.type() != fs::file_type::not_found && st.type() != fs::file_type::directory)
    {
        throw std::invalid_argument("--outdir: " + QuoteText(dir) + " is " + DescribePath(dir)
                                    + ", not a folder");
    }
    OutputFolderReport report;
    report.created = st.type() == fs::file_type::not_found;
    // (a dry run makes the folders it needs and removes them again after the checks)
    std::vector<fs::path> made;
    if (report.created)
    {
        for (fs::path p = fs::absolute(dir, ec); !p.empty() && !fs::exists(p, ec);
             p = p.parent_path())
        {
            made.push_back(p);
            if (p == p.parent_path())
            {
                break;
            }
        }
        fs::create_directories(dir, ec);
        if (ec)
        {
            throw std::invalid_argument("--outdir: cannot create the folder " + QuoteText(dir)
                                        + " (" + ec.message() + ")");
        }
    }
    struct Unmake
    {
        const std::vector<fs::path>& made;
        bool active;

        ~Unmake()
        {
            std::error_code e;
            for (std::size_t i = 0; active && i < made.size(); ++i)
            {
                fs::remove(made[i], e); // deepest first; only empty folders it made
            }
        }
    } unmake{made, dryRun};
    // Writable: a file can be made and removed there (access(W_OK) is not enough for a
    // read-only mount or a full disk).
    const fs::path probe = fs::path(dir) / (".dcon-write-check-" + std::to_string(getpid()));
    {
        std::ofstream out(probe);
        out << "dcon\n";
        out.close();
        if (!out)
        {
            const int err = errno;
            fs::remove(probe, ec);
            throw std::invalid_argument("--outdir: cannot write in the folder " + QuoteText(dir)
                                        + " (" + std::strerror(err) + ")");
        }
    }
    fs::remove(probe, ec);
    for (const fs::path& p : SortedEntries(dir))
    {
        const std::string name = p.filename().string();
        if (IsOfKinds(name, kinds) && !fs::is_directory(p, ec))
        {
            if (!dryRun && (!fs::remove(p, ec) || ec))
            {
                throw std::invalid_argument("--outdir: cannot remove " + QuoteText(p.string())
                                            + " of an earlier run (" + ec.message() + ")");
            }
            report.removed.push_back(name);
        }
        else
        {
            report.foreign.push_back(name);
        }
    }
    return report;
}

} // namespace ns3
