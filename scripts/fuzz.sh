#!/usr/bin/env bash
# Build dcon's libFuzzer targets (fuzz/*.cc; clang with ASan + UBSan, -DDCON_FUZZ=ON) in
# build-fuzz/ (or, with --build DIR, in a build already configured with -DDCON_FUZZ=ON, such as
# scripts/sanitize.sh's build-asan/: only the targets are built there, the library is reused)
# and run each for SECONDS (default 60) on its seed corpus fuzz/corpus/<target>/,
# up to FUZZ_JOBS targets at a time (default: the number of cores). Fails if any target finds a
# crash, a hang (-timeout), a sanitizer report or a failed check; the input that did it is left
# in BUILD/fuzz/artifacts/<target>/ (rerun: BUILD/fuzz/fuzz-<target> <that file>).
#
#   scripts/fuzz.sh [--build DIR] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
usage() { echo "usage: scripts/fuzz.sh [--build DIR] [SECONDS per target]" >&2; exit 2; }
build=""
if [ "${1:-}" = --build ]; then
  build="${2:-}"
  [ -n "$build" ] || usage
  shift 2
fi
secs=${1:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || usage

scripts/install-deps.sh clang libclang-rt-14-dev libfuzzer-14-dev # Debian bookworm's LLVM 14

targets=()
for src in fuzz/*.cc; do
  targets+=("$(basename "$src" .cc)")
done
if [ -n "$build" ]; then
  grep -q '^DCON_FUZZ:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null || {
    echo "error: $build is not a build configured with -DDCON_FUZZ=ON (no $build/CMakeCache.txt" \
      "saying so): give another folder, or none for build-fuzz/" >&2
    exit 2
  }
  cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz-}"
else
  build=build-fuzz
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DDCON_FUZZ=ON \
    -DDCON_BUILD_TESTS=OFF -DDCON_BUILD_EXAMPLES=OFF
  cmake --build build-fuzz -j"$(nproc)"
fi

export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$root/.ci/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/.ci/ubsan.supp"
out=$build/fuzz

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
