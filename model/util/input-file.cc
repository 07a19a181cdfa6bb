/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-file.h"

#include "ns3/log.h"
#include "value-text.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DconInputFile");

namespace fs = std::filesystem;

std::string
DescribePath(const std::string& path)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    switch (st.type())
    {
        case fs::file_type::regular:
            return "a regular file";
        case fs::file_type::directory:
            return "a folder";
        case fs::file_type::fifo:
            return "a FIFO (named pipe)";
        case fs::file_type::character:
            return "a character device";
        case fs::file_type::block:
            return "a block device";
        case fs::file_type::socket:
            return "a socket";
        case fs::file_type::not_found:
            return "nothing (no such file)";
        default:
            return ec ? "not accessible (" + ec.message() + ")" : "not a regular file";
    }
}

bool
IsRegularFile(const std::string& path)
{
    std::error_code ec;
    return fs::status(path, ec).type() == fs::file_type::regular;
}

bool
IsNonRegularPath(const std::string& path)
{
    std::error_code ec;
    const fs::file_type t = fs::status(path, ec).type();
    return t != fs::file_type::regular && t != fs::file_type::not_found && !ec;
}

void
CheckInputFile(const std::string& path, const std::string& what)
{
    if (path.empty())
    {
        throw std::invalid_argument(what + ": got an empty file name");
    }
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (st.type() != fs::file_type::regular)
    {
        throw std::invalid_argument(what + ": " + QuoteText(path) + " is " + DescribePath(path)
                                    + ", not a file to read");
    }
    if (access(path.c_str(), R_OK) != 0)
    {
        throw std::invalid_argument(what + ": cannot read " + QuoteText(path) + " ("
                                    + std::strerror(errno) + ")");
    }
}

} // namespace ns3
