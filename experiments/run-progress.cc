/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-progress.h"

#include "ns3/simulator.h"

#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

RunProgress::RunProgress(Time wallInterval,
                         Time simStep,
                         std::function<std::string()> status,
                         std::ostream& os)
    : m_wallInterval(wallInterval.GetSeconds()),
      m_simStep(simStep),
      m_status(std::move(status)),
      m_os(os)
{
    if (!wallInterval.IsStrictlyPositive() || !simStep.IsStrictlyPositive())
    {
        throw std::invalid_argument("RunProgress: the wall interval (" +
                                    std::to_string(wallInterval.GetSeconds()) +
                                    " s) and the simulated step (" +
                                    std::to_string(simStep.GetSeconds()) +
                                    " s) must be positive");
    }
}

RunProgress::~RunProgress()
{
    m_next.Cancel();
}

void
RunProgress::Start()
{
    m_start = std::chrono::steady_clock::now();
    m_lastLine = 0;
    m_next = Simulator::Schedule(m_simStep, &RunProgress::Check, this);
}

uint64_t
RunProgress::GetLines() const
{
    return m_lines;
}

void
RunProgress::Check()
{
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (wall - m_lastLine >= m_wallInterval)
    {
        std::ostringstream line;
        line << "progress: +" << std::fixed << std::setprecision(1)
             << Simulator::Now().GetSeconds() * 1e3 << " ms simulated";
        const std::string status = m_status ? m_status() : "";
        if (!status.empty())
        {
            line << ", " << status;
        }
        line << ", wall " << std::setprecision(1) << wall << " s";
        m_os << line.str() << std::endl;
        m_lastLine = wall;
        ++m_lines;
    }
    m_next = Simulator::Schedule(m_simStep, &RunProgress::Check, this);
}

} // namespace ns3
