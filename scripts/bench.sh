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
# --ranks N runs the benchmark as one simulation on N MPI ranks (mpirun -np N) with the program
# of build-mpi/ (scripts/setup-mpi.sh), and prints each rank's share from parallel.json: events,
# frames and bytes sent to other ranks, seconds waiting in synchronization, peak memory;
# --ranks 1 runs that same build sequentially (the baseline of its speedup). --engine NAME picks
# ns3::DistributedSimulatorImpl (default) or ns3::NullMessageSimulatorImpl.
#
# Usage, from the repository root (or anywhere: the script finds the root itself):
#   scripts/bench.sh [--quick | --floor] [--no-build] [--ranks N [--engine NAME]]
#                    [-- extra program arguments]
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
ranks=0
engine="ns3::DistributedSimulatorImpl"
build=1
floor=0
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --quick) flows_name="websearch-30pct-2ms.flows" ;;
    --floor) floor=1 ;;
    --no-build) build=0 ;;
    --ranks)
        ranks="${2:-}"
        shift
        if ! [[ "$ranks" =~ ^[1-9][0-9]*$ ]]; then
            echo "bench.sh: --ranks needs a positive integer, got '$ranks'" >&2
            exit 2
        fi
        ;;
    --engine)
        engine="${2:-}"
        shift
        ;;
    --) shift; extra=("$@"); break ;;
    -h | --help)
        sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "bench.sh: unknown option '$1' (expected --quick, --floor, --no-build, --ranks N," \
            "--engine NAME, -- args)" >&2
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
args=(--topo="$topo" --flows="$flows")
launch=()
if [[ $ranks -gt 0 ]]; then
    # The MPI build (scripts/setup-mpi.sh); its dcon is brought up to date first.
    if [[ $build -eq 1 ]]; then
        test/mpi-tests.sh build
    fi
    bin="${ROOT}/build-mpi/bin/dcon-bench"
    if [[ ! -x "$bin" ]]; then
        echo "bench.sh: '$bin' not found (run scripts/setup-mpi.sh first)" >&2
        exit 2
    fi
    if [[ -z "${OUTDIR:-}" ]]; then
        OUTDIR="$(mktemp -d)"
        trap 'rm -rf "$OUTDIR"' EXIT
    fi
    if [[ $ranks -gt 1 ]]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        launch=(mpirun -np "$ranks" --bind-to core)
        args+=(--SimulatorImplementationType="$engine")
    fi
else
    if [[ $build -eq 1 ]]; then
        cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
        cmake --build "$BUILD_DIR" -j"$JOBS" --target dcon-bench
    fi
    bin="${BUILD_DIR}/examples/dcon-bench"
    if [[ ! -x "$bin" ]]; then
        echo "bench.sh: '$bin' not found (build first, or drop --no-build)" >&2
        exit 2
    fi
fi
if [[ -n "${OUTDIR:-}" ]]; then
    args+=(--outdir="$OUTDIR")
fi
args+=("${extra[@]+"${extra[@]}"}")

# Each rank's share of a parallel run (parallel.json), one line per rank.
per_rank() {
    [[ $ranks -gt 1 && -f "$OUTDIR/parallel.json" ]] || return 0
    echo "== per rank ($OUTDIR/parallel.json)"
    /usr/bin/python3 - "$OUTDIR/parallel.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"   engine {d['engine']}, {d['ranks']} ranks")
for r in d["per_rank"]:
    print(f"   rank {r['rank']}: {r['nodes']} nodes, {r['events_executed'] / 1e6:.2f} M events, "
          f"{r['frames_sent_to_other_ranks'] / 1e6:.2f} M frames ({r['bytes_sent_to_other_ranks'] / 1e6:.0f} MB) "
          f"to other ranks, sync wait {r['sync_wait_s']:.2f} s of {r['run_wall_s']:.2f} s, "
          f"peak {r['peak_memory_mib']} MiB")
PY
}

echo "== ${launch[*]+"${launch[*]} "}dcon-bench ${args[*]}"
if [[ -x /usr/bin/time ]]; then
    timelog="$(mktemp)"
    status=0
    /usr/bin/time -v -o "$timelog" "${launch[@]+"${launch[@]}"}" "$bin" "${args[@]}" || status=$?
    echo "== /usr/bin/time -v${launch[*]+" (of mpirun and its ranks)"}"
    grep -E "Elapsed \(wall clock\)|Maximum resident set size|User time|System time" "$timelog" |
        sed 's/^\s*/   /'
    rm -f "$timelog"
    per_rank
    exit $status
else
    echo "bench.sh: /usr/bin/time not found (apt-get install time); running without it" >&2
    status=0
    "${launch[@]+"${launch[@]}"}" "$bin" "${args[@]}" || status=$?
    per_rank
    exit $status
fi
