#!/usr/bin/env bash
#
# Copyright (c) 2026 dcon authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Speed benchmark on the HPCC simulator's inputs (see data/bench/README.md and
# examples/dcon-bench.cc): builds an optimised (Release) dcon-bench and runs it on the
# 320-host fat-tree with the WebSearch 30%-load flows of 10 ms (--quick: of 2 ms), under
# /usr/bin/time -v to confirm the peak memory the program reports. --floor instead runs
# dcon-floor-bench: ns-3's own per-frame machinery (events, packets, a QueueDisc) with no model
# logic, the most frames per wall-second any ns-3 packet-level fabric simulator reaches here.
#
# Usage, from the repository root (or anywhere: the script finds the root itself):
#   scripts/bench.sh [--quick | --floor] [--no-build] [-- extra program arguments]
# Environment:
#   BENCH_DIR  folder of the input files (default: <repo>/data/bench)
#   BUILD_DIR  CMake build folder (default: <repo>/build)
#   JOBS       parallel build jobs (default: nproc)
#   OUTDIR     if set, passed as --outdir (monitor CSV files)

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="${BENCH_DIR:-${ROOT}/data/bench}"
BUILD_DIR="${BUILD_DIR:-${ROOT}/build}"
JOBS="${JOBS:-$(nproc)}"

flows_name="websearch-30pct-10ms.flows"
build=1
floor=0
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --quick) flows_name="websearch-30pct-2ms.flows" ;;
    --floor) floor=1 ;;
    --no-build) build=0 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help)
        sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "bench.sh: unknown option '$1' (expected --quick, --floor, --no-build, -- args)" >&2
        exit 2
        ;;
    esac
    shift
done

if [[ $floor -eq 1 ]]; then
    cd "$ROOT"
    if [[ $build -eq 1 ]]; then
        cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
        cmake --build "$BUILD_DIR" -j"$JOBS" --target dcon-floor-bench
    fi
    exec "${BUILD_DIR}/examples/dcon-floor-bench" "${extra[@]+"${extra[@]}"}"
fi

topo="${BENCH_DIR}/fat-tree-320.topo"
flows="${BENCH_DIR}/${flows_name}"
for f in "$topo" "$flows"; do
    if [[ ! -r "$f" ]]; then
        echo "bench.sh: cannot read '$f' (set BENCH_DIR to the folder of the inputs)" >&2
        exit 2
    fi
done

cd "$ROOT"
if [[ $build -eq 1 ]]; then
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
    cmake --build "$BUILD_DIR" -j"$JOBS" --target dcon-bench
fi
bin="${BUILD_DIR}/examples/dcon-bench"
if [[ ! -x "$bin" ]]; then
    echo "bench.sh: '$bin' not found (build first, or drop --no-build)" >&2
    exit 2
fi

args=(--topo="$topo" --flows="$flows")
if [[ -n "${OUTDIR:-}" ]]; then
    args+=(--outdir="$OUTDIR")
fi
args+=("${extra[@]+"${extra[@]}"}")

echo "== dcon-bench ${args[*]}"
if [[ -x /usr/bin/time ]]; then
    timelog="$(mktemp)"
    trap 'rm -f "$timelog"' EXIT
    status=0
    /usr/bin/time -v -o "$timelog" "$bin" "${args[@]}" || status=$?
    echo "== /usr/bin/time -v"
    grep -E "Elapsed \(wall clock\)|Maximum resident set size|User time|System time" "$timelog" |
        sed 's/^\s*/   /'
    exit $status
else
    echo "bench.sh: /usr/bin/time not found (apt-get install time); running without it" >&2
    exec "$bin" "${args[@]}"
fi
