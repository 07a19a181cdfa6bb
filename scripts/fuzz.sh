#!/usr/bin/env bash
# Build dcon's libFuzzer targets (fuzz/*.cc; clang with ASan + UBSan, -DDCON_FUZZ=ON) in
# build-fuzz/ and run each for SECONDS (default 60) on its seed corpus fuzz/corpus/<target>/,
# up to FUZZ_JOBS targets at a time (default: the number of cores). Fails if any target finds a
# crash, a hang (-timeout), a sanitizer report or a failed check; the input that did it is left
# in build-fuzz/fuzz/artifacts/<target>/ (rerun: build-fuzz/fuzz/fuzz-<target> <that file>).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
secs=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS per target]" >&2; exit 2; }

scripts/install-deps.sh clang libclang-rt-14-dev libfuzzer-14-dev # Debian bookworm's LLVM 14

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DDCON_FUZZ=ON \
  -DDCON_BUILD_TESTS=OFF -DDCON_BUILD_EXAMPLES=OFF
cmake --build build-fuzz -j"$(nproc)"

export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$root/.ci/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/.ci/ubsan.supp"
out=build-fuzz/fuzz
targets=()
for src in fuzz/*.cc; do
  targets+=("$(basename "$src" .cc)")
done

run_one() {
  local t=$1
  # New inputs go to a scratch corpus in the build dir; the repository's seeds are only read.
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
  rm -f "$out/artifacts/$t"/*
  if "$out/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" "fuzz/corpus/$t" >"$out/$t.log" 2>&1; then
    echo 0 >"$out/$t.status"
  else
    echo 1 >"$out/$t.status"
  fi
}

start=$(date +%s)
running=0
for t in "${targets[@]}"; do
  rm -f "$out/$t.status"
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=0
npass=0
printf '%-16s %12s %8s  %s\n' target executions corpus result
for t in "${targets[@]}"; do
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
  units=$(sed -n 's/.*DONE .*corp: \([0-9]*\)\/.*/\1/p' "$out/$t.log" | tail -1)
  if [ "$(cat "$out/$t.status" 2>/dev/null || echo 1)" = 0 ]; then
    printf '%-16s %12s %8s  %s\n' "$t" "${execs:-?}" "${units:-?}" ok
    npass=$((npass + 1))
  else
    failed=$((failed + 1))
    printf '%-16s %12s %8s  %s\n' "$t" "${execs:-?}" "${units:-?}" FAILED
    echo "---- $out/$t.log (tail):"
    tail -40 "$out/$t.log"
    ls "$out/artifacts/$t/" 2>/dev/null | sed "s|^|  artifact: $out/artifacts/$t/|"
  fi
done
echo "${#targets[@]} targets x ${secs} s, $jobs at a time: $(($(date +%s) - start)) s"
echo "fuzz: $npass passed, $failed failed"
[ "$failed" -eq 0 ]
