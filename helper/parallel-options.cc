/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parallel-options.h"

#include "checked-options.h"

namespace ns3
{

void
ParallelOptions::AddTo(CommandLine& cmd, const std::string& hostsWith, bool modelInputs)
{
    cmd.AddValue("partition",
                 "Parallel runs: a file of 'node rank' lines (default: hosts with their "
                     + hostsWith + ", switches spread evenly)",
                 partitionFile);
    if (!modelInputs)
    {
        return;
    }
    AddUnsignedValue(cmd,
                     "writePartition",
                     "Print the default partition for this many ranks ('node rank' lines, the "
                     "--partition format) and exit",
                     writePartition);
    cmd.AddValue("nodeWork",
                 "With --outdir, in a sequential run: also write "
                 "OUTDIR/node-work-{nodes,links}.csv, the frames of every node and link (input "
                 "of scripts/parallel_model.py)",
                 nodeWork);
}

} // namespace ns3
