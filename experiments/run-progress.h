/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RUN_PROGRESS_H
#define RUN_PROGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup dcon-experiments
 * \brief Progress lines on a log while a long run goes on: every \p wallInterval of wall-clock
 * time, "progress: +<simulated time> ms simulated, <status>, wall <seconds> s".
 *
 * A run of the large-scale figures takes up to an hour without writing anything until it ends;
 * these lines tell its user it is alive and how far it got (the status callback says in the
 * run's own terms, e.g. the flows completed). The clock is checked from a simulator event
 * every \p simStep of simulated time, so the lines come at least \p wallInterval apart and
 * as soon after it as the next check. Those events are the run's only change: they add to
 * summary.json's events_executed, and to nothing else (no model state is read or written).
 * ns-3's ShowProgress prints the event rate instead of a status of the run's own.
 */
class RunProgress
{
public:
    /**
     * \brief Report on \p os (nothing is scheduled until Start).
     * \param wallInterval wall-clock time between two lines, > 0
     * \param simStep simulated time between two checks of the clock, > 0
     * \param status the run's state for a line (e.g. "1,234 of 5,678 flows done")
     * \param os where the lines go
     * \throws std::invalid_argument if an interval is not positive
     */
    RunProgress(Time wallInterval,
                Time simStep,
                std::function<std::string()> status,
                std::ostream& os);

    /// Cancels the next check.
    ~RunProgress();

    RunProgress(const RunProgress&) = delete;
    RunProgress& operator=(const RunProgress&) = delete;

    /**
     * \brief Start the wall clock and schedule the first check one step from now.
     */
    void Start();

    /**
     * \brief The lines written so far.
     * \return the count
     */
    uint64_t GetLines() const;

private:
    /// Write a line if the wall interval has passed since the last one; schedule the next check.
    void Check();

    double m_wallInterval;                               //!< seconds between two lines
    Time m_simStep;                                      //!< simulated time between two checks
    std::function<std::string()> m_status;               //!< the run's state
    std::ostream& m_os;                                  //!< where the lines go
    std::chrono::steady_clock::time_point m_start;       //!< Start's wall clock
    double m_lastLine{0};                                //!< wall seconds of the last line
    uint64_t m_lines{0};                                 //!< lines written
    EventId m_next;                                      //!< the next check
};

} // namespace ns3

#endif /* RUN_PROGRESS_H */
