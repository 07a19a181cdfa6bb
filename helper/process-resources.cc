/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "process-resources.h"

#include <sys/resource.h>

#include <fstream>
#include <sstream>
#include <string>

namespace ns3
{

double
ProcessCpuSeconds()
{
    struct rusage ru
    {
    };

    if (getrusage(RUSAGE_SELF, &ru) != 0)
    {
        return 0.0;
    }
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec
           + ru.ru_stime.tv_usec * 1e-6;
}

std::optional<double>
ParseVmHwmBytes(std::istream& status)
{
    std::string line;
    while (std::getline(status, line))
    {
        if (line.rfind("VmHWM:", 0) != 0)
        {
            continue;
        }
        std::istringstream in(line.substr(6));
        double value = 0;
        std::string unit;
        if (!(in >> value >> unit) || unit != "kB" || value < 0)
        {
            return std::nullopt;
        }
        return value * 1024.0;
    }
    return std::nullopt;
}

std::optional<double>
ProcessPeakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    if (status)
    {
        if (auto bytes = ParseVmHwmBytes(status))
        {
            return bytes;
        }
    }
    struct rusage ru
    {
    };

    if (getrusage(RUSAGE_SELF, &ru) != 0)
    {
        return std::nullopt;
    }
    return ru.ru_maxrss * 1024.0; // Linux: kilobytes
}

} // namespace ns3
