#!/usr/bin/env bash
# Parallel runs against sequential runs, with the programs of build-mpi/ (scripts/setup-mpi.sh).
# ctest runs each case when build-mpi/bin exists (test/CMakeLists.txt); by hand:
#
#   test/mpi-tests.sh CASE [BIN_DIR]      CASE: build | frames | hooks | poisson | incast | repeat | collectives | errors | all
#
# build    bring build-mpi/'s programs up to date with this checkout (dcon is compiled in the
#          ns-3 tree there; ctest runs this first).
# frames   dcon-mpi-check: every frame crossing ranks keeps its bytes and its arrival time to
#          the picosecond (data of every size and several EtherTypes, PFC PAUSE and RESUME),
#          on both engines (granted time windows, null messages).
# hooks    the hooks on MPI calls (model/parallel/mpi-hooks.cc), on both engines, from
#          dcon-mpi-check's per-rank report: under granted time windows every synchronization
#          round is seen (MPI_Allgather; one per two events of --rounds) and the frames of
#          a round cross in one exchange started by the engine's poll (MPI_Testany), the only
#          way they travel there; under null messages the waits are timed (MPI_Waitany) and
#          frames travel one MPI message each, with no exchange.
# poisson  dcon-large-scale, a small leaf-spine with Poisson arrivals, DCQCN and DCON: with
#          the default partition, on both engines, every output file identical to the
#          sequential run's (in summary.json all but wall_time_s, events_executed and
#          simulated_time_s); with hosts on rank 0 and switches on rank 1 (every ACK, CNP and
#          CNM crosses ranks), every flow completes and CNMs crossed.
# incast   dcon-testbed's incast (DCQCN, PFC pauses crossing ranks; DCON, CNMs crossing
#          ranks): every flow completes, the run is deterministic (two parallel runs give
#          identical files), PAUSE frames crossed ranks; same-time events are ordered otherwise
#          than sequentially (doc/parallel.rst), so the flows' FCTs differ, but the
#          PAUSE count stays within 10% and each size bucket's median slowdown within 5%.
# repeat   the null-message engine repeats itself (issue 29: two 2-rank testbed runs had given
#          798 and 841 PAUSE frames): two runs of a short dcon-testbed incast (DCQCN, 140 burst
#          flows from 2 ms, hosts on rank 0 and switches on rank 1, so that every frame crosses
#          ranks) and of dcon-large-scale's Poisson traffic (DCON, default partition) under
#          ns3::NullMessageSimulatorImpl give identical files (RemoteFirstScheduler;
#          RankTransport::HoldGuarantee). About a minute a run on a busy 2-core machine.
# collectives
#          dcon-collectives on a small leaf-spine, DCQCN: a ring and a halving-doubling
#          all-reduce (two iterations each) on 2 ranks (default partition, both engines) give
#          the sequential run's collectives.csv, steps.csv, jobs.csv, ranks.csv and flows.csv:
#          the same completion times, to the picosecond. With an all-to-all and a Poisson
#          background next to them, frames meet in the same picosecond across ranks (ordered
#          otherwise than sequentially, doc/parallel.rst): two parallel runs are identical,
#          every iteration completes and each job's mean time is within 5% of sequential.
# errors   a node on a rank that does not exist, a zero-delay link between ranks, a malformed
#          partition file: a clear error naming it, exit status 2, no hang.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CASE="${1:?usage: test/mpi-tests.sh build|frames|hooks|poisson|incast|repeat|collectives|errors|all [BIN_DIR]}"
BIN="${2:-$ROOT/build-mpi/bin}"
PY=/usr/bin/python3
if [ "$CASE" = build ]; then
  tree="$ROOT/build-mpi/ns3-tree"
  [ -d "$tree/cmake-cache" ] || { echo "error: no $tree/cmake-cache (run scripts/setup-mpi.sh)" >&2; exit 2; }
  # shellcheck source=scripts/ns3-source.sh
  source "$ROOT/scripts/ns3-source.sh"
  ns3_drop_stale_headers "$tree" # (a header of dcon moved since the last build)
  CLICOLOR=0 cmake --build "$tree/cmake-cache" -j "$(nproc)" \
    --target "${NS3_MPI_PROGRAMS[@]}" >"$ROOT/build-mpi/rebuild.log" 2>&1 || {
    grep -E "error|FAILED" "$ROOT/build-mpi/rebuild.log" | head -20
    echo "FAIL: rebuilding build-mpi (log: build-mpi/rebuild.log)" >&2
    exit 1
  }
  echo "PASS: build-mpi is up to date"
  exit 0
fi
for p in dcon-mpi-check dcon-large-scale dcon-testbed dcon-bench dcon-collectives; do
  [ -x "$BIN/$p" ] || { echo "error: no $BIN/$p (run scripts/setup-mpi.sh)" >&2; exit 2; }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(mpirun -np 2)
WORK="$(mktemp -d "${TMPDIR:-/tmp}/dcon-mpi-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# scripts/parallel_compare.py, a module of the scripts package: run from the repository root
# (its arguments are absolute paths under $WORK).
parallel_compare() { (cd "$ROOT" && $PY -m scripts.parallel_compare "$@"); }
engines=(ns3::DistributedSimulatorImpl ns3::NullMessageSimulatorImpl)

# Every file of two output folders equal (summary.json without the engine-specific fields).
same_outputs() {
  local out
  out="$(parallel_compare "$1" "$2")" || fail "comparing $1 and $2"
  echo "$out" | sed 's/^/    /'
  if echo "$out" | grep -Eq "differs|only in"; then
    fail "$2 differs from $1"
  fi
  echo "$out" | grep -q "^flows: .* 0 of [0-9]* with another FCT" || fail "FCTs differ ($2)"
}

json_field() { # FILE KEY -> the sum of KEY over every occurrence (per-rank lists)
  grep -o "\"$2\": [0-9]*" "$1" | awk '{s += $2} END {print s + 0}'
}

case_frames() {
  "$BIN/dcon-mpi-check" --out="$WORK/seq.txt" >/dev/null
  grep -q "paused" "$WORK/seq.txt" || fail "the check run has no PFC pause"
  for e in "${engines[@]}"; do
    "${MPIRUN[@]}" "$BIN/dcon-mpi-check" --out="$WORK/par.txt" --SimulatorImplementationType=$e \
      >"$WORK/par.log"
    grep -q "rank 0 of 2: sent 200 frames" "$WORK/par.log" || fail "$e: frames did not cross"
    cmp "$WORK/seq.txt" "$WORK/par.txt" || fail "$e: received frames differ from sequential"
    echo "  frames ($e): $(wc -l <"$WORK/seq.txt") frames and pause events identical"
  done
}

case_hooks() {
  for e in "${engines[@]}"; do
    "${MPIRUN[@]}" "$BIN/dcon-mpi-check" --out="$WORK/h.txt" --report="$WORK/frames.json" \
      --SimulatorImplementationType="$e" >/dev/null
    "${MPIRUN[@]}" "$BIN/dcon-mpi-check" --rounds=300 --out="$WORK/h.txt" \
      --report="$WORK/rounds.json" --SimulatorImplementationType="$e" >/dev/null
    $PY - "$WORK/frames.json" "$WORK/rounds.json" "$e" <<'PY' || fail "$e: the hooks on MPI calls"
import json, sys
frames, rounds = (json.load(open(f)) for f in sys.argv[1:3])
engine = sys.argv[3]
gtw = engine == "ns3::DistributedSimulatorImpl"
ok = True
def check(what, good):
    global ok
    ok = ok and good
    print(f"    {engine}: {what}: {'ok' if good else 'FAILED'}")
for d in (frames, rounds):
    check(f"the report names the engine ({d['engine']})", d["engine"] == engine)
per = frames["per_rank"]
sent = sum(r["frames_sent_to_other_ranks"] for r in per)
got = sum(r["frames_received_from_other_ranks"] for r in per)
check(f"{sent} frames crossed ranks, {got} arrived", sent > 0 and got == sent)
for r in per:
    check(f"rank {r['rank']}: {r['sync_calls']} synchronization calls timed, "
          f"{r['sync_wait_s']:.6f} s", r["sync_calls"] > 0 and r["sync_wait_s"] > 0)
    if gtw:
        check(f"rank {r['rank']}: {r['frame_exchanges']} frame exchanges, at most one a round",
              0 < r["frame_exchanges"] <= r["sync_calls"] + 1
              and r["exchange_wait_s"] <= r["sync_wait_s"])
    else:
        check(f"rank {r['rank']}: no frame exchange", r["frame_exchanges"] == 0
              and r["exchange_wait_s"] == 0)
for r in rounds["per_rank"]:
    if gtw:
        # Events every lookahead: the engine grants [t, t + lookahead], both ends included,
        # so each synchronization round runs two of --rounds' events.
        check(f"rank {r['rank']}: {r['sync_calls']} synchronization rounds seen for 300 "
              "events a lookahead apart", r["sync_calls"] >= 150)
    else:
        check(f"rank {r['rank']}: {r['sync_calls']} waits for messages timed",
              r["sync_calls"] > 0)
sys.exit(0 if ok else 1)
PY
  done
}

case_poisson() {
  local args=(--scale=tiny --load=0.6 --duration=5ms --warmup=0ms --cooldown=0ms)
  # tiny: hosts 0-15, leaves 16-19, spines 20-21
  : >"$WORK/split.txt"
  for n in $(seq 0 21); do echo "$n $((n >= 16))" >>"$WORK/split.txt"; done
  for cc in dcqcn dcon; do
    "$BIN/dcon-large-scale" "${args[@]}" --cc=$cc --outdir="$WORK/$cc-seq" >/dev/null
    for e in "${engines[@]}"; do
      # The default partition (leaves 0-1 with their hosts and spine 0 on rank 0): identical.
      local out="$WORK/$cc-default-${e#ns3::}"
      "${MPIRUN[@]}" "$BIN/dcon-large-scale" "${args[@]}" --cc=$cc --outdir="$out" \
        --SimulatorImplementationType=$e >/dev/null
      echo "  poisson $cc, default partition, $e:"
      same_outputs "$WORK/$cc-seq" "$out"
      [ "$(json_field "$out/parallel.json" frames_sent_to_other_ranks)" -gt 0 ] ||
        fail "no frame crossed ranks"
    done
    # Hosts on rank 0, switches on rank 1: every ACK, CNP, CNM crosses ranks. A frame from a
    # host and one from a switch can reach a leaf at the same picosecond, and the engine then
    # orders them by when it learnt of them: every flow completes, FCTs are compared.
    local out="$WORK/$cc-split"
    "${MPIRUN[@]}" "$BIN/dcon-large-scale" "${args[@]}" --cc=$cc --partition="$WORK/split.txt" \
      --outdir="$out" >/dev/null
    [ "$(json_field "$out/summary.json" flows_completed)" = \
      "$(json_field "$WORK/$cc-seq/summary.json" flows_total)" ] || fail "$cc split: flows unfinished"
    if [ $cc = dcon ]; then
      [ "$(json_field "$out/summary.json" cnms_received)" -gt 0 ] || fail "no CNM crossed ranks"
    fi
    echo "  poisson $cc, hosts on rank 0 and switches on rank 1: every flow completed; against" \
      "the sequential run:"
    parallel_compare "$WORK/$cc-seq" "$out" | grep -E "^flows|^largest" |
      sed 's/^/    /'
  done
}

case_incast() {
  # testbed: 18 hosts (0-17), then the leaves and spines (18-22)
  : >"$WORK/split.txt"
  for n in $(seq 0 22); do echo "$n $((n >= 18))" >>"$WORK/split.txt"; done
  for cc in dcqcn dcon; do
    local args=(--cc=$cc --stopTime=40ms --partition="$WORK/split.txt")
    "$BIN/dcon-testbed" --cc=$cc --stopTime=40ms --outdir="$WORK/tb-$cc-seq" >/dev/null
    "${MPIRUN[@]}" "$BIN/dcon-testbed" "${args[@]}" --outdir="$WORK/tb-$cc-a" >/dev/null
    "${MPIRUN[@]}" "$BIN/dcon-testbed" "${args[@]}" --outdir="$WORK/tb-$cc-b" >/dev/null
    for f in "$WORK/tb-$cc-a"/*; do
      local b
      b="$(basename "$f")"
      case $b in
      parallel.json) continue ;;
      summary.json)
        cmp <(grep -v wall_time_s "$f") <(grep -v wall_time_s "$WORK/tb-$cc-b/$b") ||
          fail "$cc: two parallel runs differ in $b" ;;
      run.json) # (the command line names the output folder)
        cmp <(grep -v -E '"(command_line|options_given)"' "$f") \
          <(grep -v -E '"(command_line|options_given)"' "$WORK/tb-$cc-b/$b") ||
          fail "$cc: two parallel runs differ in $b" ;;
      *) cmp "$f" "$WORK/tb-$cc-b/$b" || fail "$cc: two parallel runs differ in $b" ;;
      esac
    done
    local pauses pfcx total done
    pauses="$(json_field "$WORK/tb-$cc-a/summary.json" pause_frames_sent)"
    pfcx="$(json_field "$WORK/tb-$cc-a/parallel.json" pfc_frames_sent_to_other_ranks)"
    total="$(json_field "$WORK/tb-$cc-seq/summary.json" flows_completed)"
    done="$(json_field "$WORK/tb-$cc-a/summary.json" flows_completed)"
    [ "$pfcx" -gt 0 ] || fail "$cc: no PFC frame crossed ranks"
    [ "$done" = "$total" ] || fail "$cc: $done flows completed in parallel, $total sequentially"
    if [ $cc = dcon ]; then
      [ "$(json_field "$WORK/tb-$cc-a/summary.json" cnms_received)" -gt 0 ] || fail "no CNM"
    fi
    echo "  incast $cc: deterministic; $pauses PAUSE frames, $pfcx PFC frames crossed ranks," \
      "$done flows completed as sequentially; against the sequential run:"
    parallel_compare "$WORK/tb-$cc-seq" "$WORK/tb-$cc-a" \
      --json "$WORK/tb-$cc.json" | sed 's/^/    /'
    # Same-time events are ordered otherwise (doc/parallel.rst): the flows part, the
    # statistics stay: PAUSE frames within 10% and the median slowdown within 5% of sequential.
    local seqp
    seqp="$(json_field "$WORK/tb-$cc-seq/summary.json" pause_frames_sent)"
    $PY - "$WORK/tb-$cc.json" "$seqp" "$pauses" <<'PY' || fail "$cc: statistics off the sequential run"
import json, sys
d = json.load(open(sys.argv[1]))["flows"]["slowdown_by_size"]
seq, par = int(sys.argv[2]), int(sys.argv[3])
ok = abs(par - seq) <= 0.1 * seq
print(f"    PAUSE frames {seq} sequential, {par} parallel: {'ok' if ok else 'off by more than 10%'}")
for bucket, s in d["sequential"].items():
    p = d["parallel"][bucket]
    if s["count"]:
        rel = abs(p["p50"] - s["p50"]) / s["p50"]
        good = rel <= 0.05
        ok = ok and good
        print(f"    {bucket} median slowdown {s['p50']:.3f} -> {p['p50']:.3f}: "
              f"{'ok' if good else 'off by more than 5%'}")
sys.exit(0 if ok else 1)
PY
  done
}

# Every file of two runs' folders identical, but the wall times (summary.json, parallel.json),
# the synchronization counts of parallel.json and the command line of run.json (it names the
# folder).
same_run() {
  local a=$1 b=$2 f name
  for f in "$a"/*; do
    name="$(basename "$f")"
    case $name in
    parallel.json)
      cmp <(grep -o -E '"(rank|nodes|events_executed|frames_sent_to_other_ranks|frames_received_from_other_ranks|pfc_frames_sent_to_other_ranks)": [0-9]*' "$f") \
        <(grep -o -E '"(rank|nodes|events_executed|frames_sent_to_other_ranks|frames_received_from_other_ranks|pfc_frames_sent_to_other_ranks)": [0-9]*' "$b/$name") ||
        fail "two null-message runs differ in $name" ;;
    summary.json)
      cmp <(grep -v wall_time_s "$f") <(grep -v wall_time_s "$b/$name") ||
        fail "two null-message runs differ in $name" ;;
    run.json)
      cmp <(grep -v -E '"(command_line|options_given)"' "$f") \
        <(grep -v -E '"(command_line|options_given)"' "$b/$name") ||
        fail "two null-message runs differ in $name" ;;
    *) cmp "$f" "$b/$name" || fail "two null-message runs differ in $name" ;;
    esac
  done
}

case_repeat() {
  local nm=--SimulatorImplementationType=ns3::NullMessageSimulatorImpl
  : >"$WORK/split.txt"
  for n in $(seq 0 22); do echo "$n $((n >= 18))" >>"$WORK/split.txt"; done
  for r in a b; do
    "${MPIRUN[@]}" "$BIN/dcon-testbed" --cc=dcqcn --burstStart=2ms --stopTime=6ms \
      --burstFlowsPerHost=10 --partition="$WORK/split.txt" $nm --outdir="$WORK/nm-tb-$r" >/dev/null
  done
  same_run "$WORK/nm-tb-a" "$WORK/nm-tb-b"
  local pauses crossed
  pauses="$(json_field "$WORK/nm-tb-a/summary.json" pause_frames_sent)"
  crossed="$(json_field "$WORK/nm-tb-a/parallel.json" frames_sent_to_other_ranks)"
  [ "$crossed" -gt 0 ] || fail "no frame crossed ranks"
  echo "  repeat: testbed (DCQCN, every frame crossing ranks), null messages, twice: identical" \
    "files; $pauses PAUSE frames, $crossed frames crossed ranks"
  local args=(--scale=tiny --load=0.6 --duration=2ms --warmup=0ms --cooldown=0ms --cc=dcon)
  for r in a b; do
    "${MPIRUN[@]}" "$BIN/dcon-large-scale" "${args[@]}" $nm --outdir="$WORK/nm-ls-$r" >/dev/null
  done
  same_run "$WORK/nm-ls-a" "$WORK/nm-ls-b"
  echo "  repeat: large-scale (DCON, Poisson), null messages, twice: identical files"
}

case_collectives() {
  # 2 spines x 4 leaves x 4 hosts (16 hosts), DCQCN.
  # (1) A ring all-reduce spread over the leaves and a halving-doubling all-reduce placed at
  # random, two iterations each: on 2 ranks (default partition, both engines) the same files as
  # the sequential run, the same completion times to the picosecond.
  printf '%s\n' \
    'name=ring op=allreduce size=2MB ranks=4 placement=spread iterations=2 gap=5us' \
    'name=hd op=allreduce algo=hd size=1MB ranks=4 placement=random iterations=2' \
    >"$WORK/pair.jobs"
  local args=(--spines=2 --leaves=4 --hostsPerLeaf=4 --jobs="$WORK/pair.jobs" --cc=dcqcn
    --drain=200us)
  "$BIN/dcon-collectives" "${args[@]}" --outdir="$WORK/pair-seq" >/dev/null
  for e in "${engines[@]}"; do
    local out="$WORK/pair-${e#ns3::}"
    "${MPIRUN[@]}" "$BIN/dcon-collectives" "${args[@]}" --outdir="$out" \
      --SimulatorImplementationType=$e >/dev/null
    [ "$(json_field "$out/parallel.json" frames_sent_to_other_ranks)" -gt 0 ] ||
      fail "collectives ($e): no frame crossed ranks"
    for f in collectives.csv steps.csv jobs.csv ranks.csv flows.csv; do
      cmp "$WORK/pair-seq/$f" "$out/$f" || fail "collectives ($e): $f differs from sequential"
    done
    echo "  collectives ($e): $(($(wc -l <"$out/collectives.csv") - 1)) iterations and" \
      "$(($(wc -l <"$out/steps.csv") - 1)) messages with the sequential run's times"
  done
  # (2) The same with an all-to-all next to them and a Poisson background: frames of different
  # ranks meet at a switch port in the same picosecond, which a parallel run orders otherwise
  # than the sequential one (doc/parallel.rst), so times differ slightly: two parallel runs give
  # identical files, every iteration completes, the same flows are added (messages and
  # background), and each job's mean time is within 5% of the sequential run's (seen: 1.8%).
  cat "$WORK/pair.jobs" >"$WORK/coll.jobs"
  echo 'name=a2a op=alltoall size=512KB ranks=4 placement=packed iterations=2 gap=10us' \
    >>"$WORK/coll.jobs"
  args=(--spines=2 --leaves=4 --hostsPerLeaf=4 --jobs="$WORK/coll.jobs" --cc=dcqcn
    --background=websearch --backgroundLoad=0.3 --drain=200us)
  "$BIN/dcon-collectives" "${args[@]}" --outdir="$WORK/coll-seq" >/dev/null
  "${MPIRUN[@]}" "$BIN/dcon-collectives" "${args[@]}" --outdir="$WORK/coll-par" >/dev/null
  "${MPIRUN[@]}" "$BIN/dcon-collectives" "${args[@]}" --outdir="$WORK/coll-par2" >/dev/null
  for f in collectives.csv steps.csv jobs.csv flows.csv pfc.csv; do
    cmp "$WORK/coll-par/$f" "$WORK/coll-par2/$f" || fail "collectives: two parallel runs differ in $f"
  done
  $PY - "$WORK/coll-seq" "$WORK/coll-par" <<'PYEOF' || fail "collectives with a background"
import json
import sys
import pandas as pd
seq, par = (pd.read_csv(d + "/jobs.csv").set_index("name") for d in sys.argv[1:3])
flows = [json.load(open(d + "/summary.json"))["flows_total"] for d in sys.argv[1:3]]
bad = []
if flows[0] != flows[1]:
    bad.append(f"{flows[1]} flows in all, sequential {flows[0]}")
for name, s in seq.iterrows():
    p = par.loc[name]
    if p.completed != p.iterations or s.completed != s.iterations:
        bad.append(f"{name}: {p.completed} of {p.iterations} iterations complete")
    elif abs(p.mean_time_s / s.mean_time_s - 1) > 0.05:
        bad.append(f"{name}: mean {p.mean_time_s * 1e6:.3f} us, sequential {s.mean_time_s * 1e6:.3f} us")
    else:
        print(f"  collectives with a background: {name} mean {p.mean_time_s * 1e6:.3f} us on 2 ranks, "
              f"{s.mean_time_s * 1e6:.3f} us sequential")
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PYEOF
}

expect_error() { # NEEDLE COMMAND...: exit status 2 and NEEDLE on stderr, within 60 s
  local needle=$1 rc=0
  shift
  timeout 60 "$@" >"$WORK/err.out" 2>"$WORK/err.txt" || rc=$?
  [ $rc -eq 124 ] && fail "hung: $*"
  [ $rc -ne 0 ] || fail "no error from: $*"
  grep -qF -- "$needle" "$WORK/err.txt" || {
    cat "$WORK/err.txt" >&2
    fail "the error of '$*' does not say '$needle'"
  }
  echo "  error as expected: $(grep -F -- "$needle" "$WORK/err.txt" | head -1)"
}

case_errors() {
  local args=(--scale=tiny --load=0.6 --duration=1ms --warmup=0ms --cooldown=0ms)
  : >"$WORK/p5.txt"
  for n in $(seq 0 21); do echo "$n $((n == 20 ? 5 : n >= 16))" >>"$WORK/p5.txt"; done
  expect_error "node 20 is on rank 5, but the run has 2 rank(s)" \
    "${MPIRUN[@]}" "$BIN/dcon-large-scale" "${args[@]}" --partition="$WORK/p5.txt"
  expect_error "node 16 is on rank 1, but the run has 1 rank(s)" \
    "$BIN/dcon-large-scale" "${args[@]}" --partition="$WORK/p5.txt"
  printf '0 0\n1 x\n' >"$WORK/bad.txt"
  expect_error "bad.txt:2: rank must be a non-negative integer, got 'x'" \
    "${MPIRUN[@]}" "$BIN/dcon-large-scale" "${args[@]}" --partition="$WORK/bad.txt"
  # Two hosts and a switch; the host-switch links have no delay.
  printf '3 1 2\n2\n0 2 100Gbps 0ns 0\n1 2 100Gbps 0ns 0\n' >"$WORK/zero.topo"
  printf '1\n0 1 3 100 1000 2.0\n' >"$WORK/zero.flows"
  printf '0 0\n1 1\n2 1\n' >"$WORK/zero-part.txt"
  expect_error "link 0 - 2 joins rank 0 and rank 1 with a delay of 0 ps" \
    "${MPIRUN[@]}" "$BIN/dcon-bench" --topo="$WORK/zero.topo" --flows="$WORK/zero.flows" \
    --partition="$WORK/zero-part.txt"
  expect_error "the link between the ranks needs a positive delay" \
    "${MPIRUN[@]}" "$BIN/dcon-mpi-check" --delay=0s --out="$WORK/x.txt"
}

case "$CASE" in
frames | hooks | poisson | incast | repeat | collectives | errors) "case_$CASE" ;;
all) case_frames; case_hooks; case_poisson; case_incast; case_repeat; case_collectives; case_errors ;;
*) echo "error: unknown case '$CASE' (frames, hooks, poisson, incast, repeat, collectives, errors, all)" >&2; exit 2 ;;
esac
echo "PASS: mpi-tests $CASE"
