/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parallel-options.h"

#include "program-frame.h"

namespace ns3
{

void
ParallelOptions::AddTo(ProgramFrame& frame, const std::string& hostsWith, bool modelInputs)
{
    frame.AddString("partition",
                    "Parallel runs: a file of 'node rank' lines (default: hosts with their "
                        + hostsWith + ", switches spread evenly)",
                    partitionFile);
    if (!modelInputs)
    {
        return;
    }
    frame.AddUnsigned("writePartition",
                      "Print the default partition for this many ranks ('node rank' lines, the "
                      "--partition format) and exit (0: do not print it, run)",
                      writePartition);
    frame.AddFlag("nodeWork",
                  "With --outdir, in a sequential run: also write "
                  "OUTDIR/node-work-{nodes,links}.csv, the frames of every node and link (input "
                  "of scripts/parallel_model.py)",
                  nodeWork);
}

} // namespace ns3
