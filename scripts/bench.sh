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
# --optimized runs the program of build-opt/ (scripts/build-optimized.sh: ns-3 and dcon in one
# static program, LTO and profile-guided; not rebuilt here). --vs PROGRAM times this benchmark
# against another dcon-bench (e.g. one built from an older commit) on the same input: the two
# run in turn, PAIRS times each (default 6), pinned to one processor (taskset -c PIN, default
# 0, when taskset is installed); each run's whole-process wall time and events per second are
# printed, then the ratio PROGRAM / this per pair and its median (> 1: this one is faster).
#
# --ranks N runs the benchmark as one simulation on N MPI ranks (mpirun -np N) with the program
# of build-mpi/ (scripts/setup-mpi.sh), and prints each rank's share from parallel.json: events,
# frames and bytes sent to other ranks, seconds waiting in synchronization, peak memory;
# --ranks 1 runs that same build sequentially (the baseline of its speedup). --engine NAME picks
# ns3::DistributedSimulatorImpl (default) or ns3::NullMessageSimulatorImpl.
#
# Usage, from the repository root (or anywhere: the script finds the root itself):
#   scripts/bench.sh [--quick | --floor] [--no-build] [--ranks N [--engine NAME]] [--optimized]
#                    [--vs PROGRAM [--pairs N] [--pin CPU]] [-- extra program arguments]
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
optimized=0
vs=""
pairs=6
pin=0
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
    --optimized) optimized=1 ;;
    --vs)
        vs="${2:-}"
        shift
        if [[ ! -x "$vs" ]]; then
            echo "bench.sh: --vs needs a program to run, got '$vs'" >&2
            exit 2
        fi
        ;;
    --pairs)
        pairs="${2:-}"
        shift
        if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
            echo "bench.sh: --pairs needs a positive integer, got '$pairs'" >&2
            exit 2
        fi
        ;;
    --pin)
        pin="${2:-}"
        shift
        if ! [[ "$pin" =~ ^[0-9]+$ ]]; then
            echo "bench.sh: --pin needs a processor number, got '$pin'" >&2
            exit 2
        fi
        ;;
    --) shift; extra=("$@"); break ;;
    -h | --help)
        sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "bench.sh: unknown option '$1' (expected --quick, --floor, --no-build, --ranks N," \
            "--engine NAME, --optimized, --vs PROGRAM, --pairs N, --pin CPU, -- args)" >&2
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
elif [[ $optimized -eq 1 ]]; then
    bin="${ROOT}/build-opt/bin/dcon-bench"
    if [[ ! -x "$bin" ]]; then
        echo "bench.sh: '$bin' not found (run scripts/build-optimized.sh first)" >&2
        exit 2
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

# --vs: the two programs in turn, pinned; whole-process wall time per run (/usr/bin/time), the
# ratio per pair and its median.
if [[ -n "$vs" ]]; then
    if [[ $ranks -gt 0 ]]; then
        echo "bench.sh: --vs times sequential runs (drop --ranks)" >&2
        exit 2
    fi
    pinned=()
    if command -v taskset >/dev/null; then
        pinned=(taskset -c "$pin")
    else
        echo "bench.sh: taskset not found (apt-get install util-linux): runs are not pinned" >&2
    fi
    log="$(mktemp)"
    trap 'rm -f "$log"' EXIT
    # one run: prints "WALL EVENTS_PER_S" (whole-process seconds, the program's events/s)
    run_once() {
        local t0 t1
        t0=$(date +%s.%N)
        "${pinned[@]+"${pinned[@]}"}" "$1" "${args[@]}" >"$log" 2>&1 || {
            tail -5 "$log" >&2
            echo "bench.sh: '$1' failed" >&2
            exit 1
        }
        t1=$(date +%s.%N)
        echo "$t0 $t1 $(sed -n 's/^events .*(\([0-9.]*\) M\/s)$/\1/p' "$log")"
    }
    echo "== $pairs pairs, this program ($bin) and --vs ($vs) in turn${pinned[*]+", pinned: ${pinned[*]}"}"
    echo "== dcon-bench ${args[*]}"
    ratios=()
    for ((i = 1; i <= pairs; i++)); do
        read -r a0 a1 aev <<<"$(run_once "$bin")"
        read -r b0 b1 bev <<<"$(run_once "$vs")"
        line="$(awk -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" -v i="$i" -v aev="$aev" \
            -v bev="$bev" 'BEGIN { a = a1 - a0; b = b1 - b0;
            printf "pair %d: this %.2f s (%s M events/s), --vs %.2f s (%s M events/s), ratio %.3f",
                   i, a, aev, b, bev, b / a }')"
        echo "   $line"
        ratios+=("${line##* }")
    done
    printf '%s\n' "${ratios[@]}" | sort -g | awk '{ r[NR] = $1 } END {
        m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
        printf "== ratio --vs / this: median %.3f (min %.3f, max %.3f) over %d pairs\n", m, r[1], r[NR], NR }'
    exit 0
fi

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
