#!/usr/bin/env bash
# Build dcon with AddressSanitizer + UndefinedBehaviorSanitizer (-DDCON_SANITIZE=ON, -O1 -g1,
# NS_ASSERT on) with clang in build-asan/, then run every test that runs dcon's programs (ctest
# -LE pure-python) and the testbed example (DCQCN and DCON) with leak checking on. The build is
# also a fuzzing build (-DDCON_FUZZ=ON: float-cast-overflow and libFuzzer's coverage
# instrumentation; fuzz targets built), which scripts/fuzz.sh --build build-asan reuses. clang,
# not GCC: with the sanitizers it compiles a test file in half GCC's time (fabric-test.cc: 29
# against 60 s on a busy core), and libFuzzer needs it. Any sanitizer report fails: ASan and LSan always exit non-zero,
# UBSan halts on the first report (halt_on_error=1). Known reports inside ns-3's own headers and
# libraries are suppressed by .ci/ubsan.supp and .ci/lsan.supp (each entry says why).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/install-deps.sh clang libclang-rt-14-dev # Debian bookworm's LLVM 14 (its ASan runtime)
# a build-asan/ configured with another compiler (GCC, before) is made again
if [ -f build-asan/CMakeCache.txt ] &&
  ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' build-asan/CMakeCache.txt; then
  rm -rf build-asan
fi
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DDCON_SANITIZE=ON -DDCON_FUZZ=ON
export ASAN_OPTIONS="detect_leaks=1:strict_init_order=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$root/.ci/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/.ci/ubsan.supp"
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ctest -j"$(nproc)" --output-on-failure -LE pure-python)
for cc in dcqcn dcon; do
  echo "== dcon-testbed --cc=$cc (ASan + UBSan + LSan)"
  build-asan/examples/dcon-testbed --cc="$cc" --outdir="build-asan/testbed-$cc"
done
echo "sanitize: test suite and testbed clean under ASan, UBSan and LSan"
