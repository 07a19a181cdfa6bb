/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ProgramFrame::GetBuildJson, alone in this file: its header (dcon-build-info.h, written at
// every build by experiments/build-info.cmake) changes with each commit, and only this file is
// then recompiled.
#include "dcon-build-info.h"
#include "ns3/atomic-output-file.h"
#include "program-frame.h"

namespace ns3
{

std::string
ProgramFrame::GetBuildJson()
{
    return "{\"type\": " + JsonString(DCON_BUILD_TYPE) + ", \"ns3\": " + JsonString(DCON_NS3_BUILD)
           + ", \"commit\": " + JsonString(DCON_GIT_COMMIT) + "}";
}

} // namespace ns3
