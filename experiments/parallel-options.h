/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PARALLEL_OPTIONS_H
#define PARALLEL_OPTIONS_H

#include <cstdint>
#include <string>

namespace ns3
{

class ProgramFrame;

/**
 * \ingroup dcon-experiments
 * \brief The command-line options of a program that can run on MPI ranks (ParallelRun):
 * --partition, and for the speedup model (scripts/parallel_model.py) --writePartition and
 * --nodeWork.
 */
struct ParallelOptions
{
    std::string partitionFile;  //!< --partition: "node rank" lines (empty: the default)
    uint32_t writePartition{0}; //!< --writePartition: print the default for this many ranks (0: no)
    bool nodeWork{false};       //!< --nodeWork: write OUTDIR/node-work-{nodes,links}.csv

    /**
     * \brief Add the options to \p frame.
     * \param frame the program's command line
     * \param hostsWith what a host stays with by default ("leaf", "ToR")
     * \param modelInputs also add --writePartition and --nodeWork
     */
    void AddTo(ProgramFrame& frame, const std::string& hostsWith, bool modelInputs);
};

} // namespace ns3

#endif /* PARALLEL_OPTIONS_H */
