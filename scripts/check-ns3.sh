#!/usr/bin/env bash
# Build dcon in-tree against an ns-3 source release and check that its testbed gives the same
# results as the standalone build (Debian's ns-3.37).
#
#   scripts/check-ns3.sh TARBALL_OR_TREE [--workdir DIR] [--standalone DIR] [--mpi DIR] [-j N]
#
# TARBALL_OR_TREE  an ns-3 source tarball (.tar.xz/.tar.gz/.tar.bz2, e.g. ns-3.48-min.tar.xz)
#                  or an unpacked ns-3 tree (the folder holding ./ns3).
# --workdir DIR    where a tarball is unpacked and the outputs go (default: build-ns3/ in the
#                  repository). The unpacked, built tree is kept and reused while the tarball
#                  is unchanged (its sha256 is recorded), so later runs rebuild dcon only.
# --standalone DIR the standalone build to compare with (default: build/, which
#                  scripts/test.sh makes); its examples/dcon-testbed is run, not rebuilt.
#                  If it has none, a standalone build is made in WORKDIR/standalone.
# --mpi DIR        also configure the tree with MPI (ns-3's mpi module; installs
#                  libopenmpi-dev and openmpi-bin), build the programs of the parallel tests
#                  (dcon-mpi-check, dcon-collectives besides the examples below) and lay them
#                  out as scripts/setup-mpi.sh does: DIR/bin/<program> and DIR/ns3-tree, so that
#                  test/mpi-tests.sh and ctest's mpi.* cases run on this tree. CI does this
#                  instead of building a second ns-3 (Debian's 3.37) for them.
# -j N             parallel compile jobs (default: 2).
#
# The compiler is CMake's choice, or CC and CXX as usual (CI: CC=clang-19 CXX=clang++-19, with
# which ns-3 precompiles its headers; it turns them off for GCC 12, and clang compiles ns-3's
# modules in about half the time). A tree configured with another compiler (its CMakeCache.txt
# says which) is configured anew. A standalone build made here (below) ignores CC and CXX: it is
# built by CMake's default compiler, so that the comparison crosses compilers.
#
# Steps: unpack (or use) the tree; link this repository as contrib/dcon; ./ns3 configure -d
# release --enable-examples --enable-tests --enable-modules=dcon
# --filter-module-examples-and-tests=dcon (the tests and examples of dcon only); build dcon, its
# examples, its test library (the GoogleTest suite, test/dcon-test-suite.cc) and test-runner
# (dcon's own sources, tests included, always recompiled, so that their warnings are seen: any
# compiler warning in dcon's files fails the check, deprecations included); run dcon-testbed
# with --cc=dcqcn and --cc=dcon in the tree (./ns3 run) and in the standalone build; compare
# every output file byte by byte; build examples/dcon-first.cc as a program of ns-3's scratch/
# folder (scratch/dcon-scratch-first.cc, as a user's own program is built in-tree) and run it.
# summary.json's wall_time_s is left out, and its
# events_executed must be larger by exactly one event per link with ns-3 >= 3.41 (ChannelList
# initializes every channel at time 0) than with 3.37; run.json's command line, ns-3 version and
# build are left out. Then ns-3's test.py runs the test suite dcon (every GoogleTest test, one child
# process each) and the example runs of test/examples-to-run.py (log: WORKDIR/test-py.log,
# details: WORKDIR/test-py.txt). Exit status 0: identical and every test passed; 1: a
# difference, a failed test or a failed step.
set -euo pipefail
trap 'echo "error: scripts/check-ns3.sh stopped at line $LINENO (exit status $?)" >&2' ERR

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORKDIR="$ROOT/build-ns3"
STANDALONE="$ROOT/build"
JOBS=2
SOURCE=""
MPI_DIR=""

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
  --workdir) WORKDIR="${2:?--workdir needs a folder}"; shift 2 ;;
  --standalone) STANDALONE="${2:?--standalone needs a folder}"; shift 2 ;;
  --mpi) MPI_DIR="${2:?--mpi needs a folder}"; shift 2 ;;
  -j) JOBS="${2:?-j needs a number}"; shift 2 ;;
  -j*) JOBS="${1#-j}"; shift ;;
  -h | --help) usage ;;
  -*) echo "error: unknown option $1" >&2; usage ;;
  *)
    [ -z "$SOURCE" ] || { echo "error: one TARBALL_OR_TREE only (got $SOURCE and $1)" >&2; exit 2; }
    SOURCE="$1"; shift ;;
  esac
done
[ -n "$SOURCE" ] || usage
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
  echo "error: -j must be a positive integer, got '$JOBS'" >&2
  exit 2
fi

# ./ns3 sets CLICOLOR=1 when it is unset, and ns-3's CMake then adds -fdiagnostics-color=always;
# CMake re-running itself inside the build (a new file in dcon) would drop the flag again, and
# either change of the command line rebuilds all of ns-3. CLICOLOR=0 keeps one command line.
export CLICOLOR=0

T0=$(date +%s)
phase() { echo "=== check-ns3 [$(($(date +%s) - T0)) s] $*"; }
mkdir -p "$WORKDIR"
WORKDIR="$(cd "$WORKDIR" && pwd)"

if [ -n "$MPI_DIR" ]; then
  phase "installing MPI (libopenmpi-dev openmpi-bin)"
  "$ROOT/scripts/install-deps.sh" libopenmpi-dev openmpi-bin
  mkdir -p "$MPI_DIR"
  MPI_DIR="$(cd "$MPI_DIR" && pwd)"
fi

# ------------------------------------------------------------------ the ns-3 tree
# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"
ns3_source_tree "$SOURCE" "$WORKDIR"
ns3_link_dcon "$ROOT"
# A program of one's own in scratch/, which ns-3 links with every enabled module (dcon's first
# example, under another name than the example's target).
SCRATCH=dcon-scratch-first
cp "$ROOT/examples/dcon-first.cc" "$TREE/scratch/$SCRATCH.cc"

# ------------------------------------------------------------------ configure and build
cd "$TREE"
MODULES=dcon
MPI_OPTION=()
if [ -n "$MPI_DIR" ]; then
  [ -d "$TREE/src/mpi" ] || { echo "error: $TREE has no src/mpi (ns-3's mpi module)" >&2; exit 2; }
  MODULES="dcon;mpi"
  MPI_OPTION=(--enable-mpi)
fi
# CMake keeps the compiler of a configured tree (CMakeCache.txt; ns-3 is a C++ project, it
# records no C compiler): another one (CXX, or the default c++) needs a fresh cache.
same_compiler() { # WANTED: the cache's C++ compiler is WANTED (both resolved to a file)
  local have
  have="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$TREE/cmake-cache/CMakeCache.txt" 2>/dev/null)"
  [ -n "$have" ] && [ "$(readlink -f "$have")" = "$(readlink -f "$(command -v "$1")")" ]
}
if [ -d "$TREE/cmake-cache" ] && ! same_compiler "${CXX:-c++}"; then
  phase "configured with another C++ compiler than ${CXX:-c++}: configuring anew"
  rm -rf "$TREE/cmake-cache" "$TREE/build"
fi
phase "configuring ns-$VERSION (release, examples and tests of dcon, modules: $MODULES," \
  "C++ compiler: ${CXX:-the default})"
./ns3 configure -d release --enable-examples --enable-tests "${MPI_OPTION[@]}" \
  --enable-modules="$MODULES" \
  --filter-module-examples-and-tests=dcon >"$WORKDIR/configure.log" 2>&1 || {
  tail -30 "$WORKDIR/configure.log"
  echo "error: ./ns3 configure failed (log: $WORKDIR/configure.log)" >&2
  exit 1
}
# dcon's objects are rebuilt every time: a warning is only printed when its file is compiled.
find "$TREE/cmake-cache/contrib/dcon" -name '*.o' -delete 2>/dev/null || true
if grep -q "dcon: GoogleTest not found" "$WORKDIR/configure.log"; then
  echo "error: GoogleTest is not installed (Debian: libgtest-dev, scripts/install-deps.sh):" \
    "ns-$VERSION has no test suite dcon" >&2
  exit 1
fi
EXAMPLES=(dcon-first dcon-hpcc-files dcon-spreading dcon-own-algorithm dcon-testbed dcon-bench
  dcon-large-scale dcon-floor-bench dcon-ibcc-share dcon-rttpid-incast "scratch_$SCRATCH")
if [ -n "$MPI_DIR" ]; then
  grep -q "MPI was found" "$WORKDIR/configure.log" || {
    echo "error: ns-3's configure did not find MPI (log: $WORKDIR/configure.log)" >&2
    exit 1
  }
  for e in "${NS3_MPI_PROGRAMS[@]}"; do # those not built anyway
    [[ " ${EXAMPLES[*]} " == *" $e "* ]] || EXAMPLES+=("$e")
  done
fi
phase "building dcon, its tests, test-runner and ${EXAMPLES[*]} (-j$JOBS;" \
  "log: $WORKDIR/build.log)"
if ! cmake --build "$TREE/cmake-cache" -j "$JOBS" --target test-runner "${EXAMPLES[@]}" \
  >"$WORKDIR/build.log" 2>&1; then
  grep -E "error|FAILED" "$WORKDIR/build.log" | head -40
  echo "error: the build against ns-$VERSION failed (log: $WORKDIR/build.log)" >&2
  exit 1
fi
# Warnings located in dcon's files (through the contrib/dcon link or the repository's path).
WARNINGS="$(sed 's/\x1b\[[0-9;]*[mK]//g' "$WORKDIR/build.log" |
  grep -E "^($TREE/contrib/dcon|$ROOT)/[^:]*:[0-9]+:[0-9]+: warning:" | sort -u || true)"
if [ -n "$WARNINGS" ]; then
  echo "$WARNINGS"
  echo "error: $(echo "$WARNINGS" | wc -l) compiler warning(s) in dcon's code with" \
    "ns-$VERSION (log: $WORKDIR/build.log)" >&2
  exit 1
fi
phase "built with no warning in dcon's code"
if [ -n "$MPI_DIR" ]; then
  # the layout of scripts/setup-mpi.sh (test/mpi-tests.sh, ctest's mpi.* cases)
  ns3_link_programs "$MPI_DIR" "${NS3_MPI_PROGRAMS[@]}"
  ln -sfn "$TREE" "$MPI_DIR/ns3-tree"
  phase "MPI programs: $(ls "$MPI_DIR/bin" | tr '\n' ' ')in $MPI_DIR/bin (ns-$VERSION with MPI)"
fi

# ------------------------------------------------------------------ the standalone build
STANDALONE_BIN="$STANDALONE/examples/dcon-testbed"
if [ ! -x "$STANDALONE_BIN" ]; then
  STANDALONE="$WORKDIR/standalone"
  STANDALONE_BIN="$STANDALONE/examples/dcon-testbed"
  phase "no standalone dcon-testbed: building one in $STANDALONE (CMake's default compiler)"
  env -u CC -u CXX cmake -S "$ROOT" -B "$STANDALONE" -DCMAKE_BUILD_TYPE=Release -DDCON_BUILD_TESTS=OFF \
    >"$WORKDIR/standalone.log" 2>&1
  cmake --build "$STANDALONE" -j "$JOBS" --target dcon-testbed >>"$WORKDIR/standalone.log" 2>&1 || {
    tail -30 "$WORKDIR/standalone.log"
    echo "error: the standalone build failed (log: $WORKDIR/standalone.log)" >&2
    exit 1
  }
fi

# ------------------------------------------------------------------ run and compare
# The one expected difference: since ns-3.41, ChannelList::Add schedules Channel::Initialize at
# time 0 for every channel, one more event per link in summary.json's events_executed (the
# results do not change). The testbed has 24 links: 18 host links and 3 leaves x 2 spines.
TESTBED_LINKS=24
minor() { # "3.48" -> 48 (3.37 if unknown)
  local v=${1:-3.37}
  v=${v#3.}
  v=${v%%[^0-9]*}
  echo "${v:-37}"
}
standalone_version() { # the ns-3 version the standalone build found (ns3ConfigVersion.cmake)
  local dir
  dir="$(sed -n 's/^ns3_DIR:PATH=//p' "$STANDALONE/CMakeCache.txt" 2>/dev/null || true)"
  sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")/\1/p' "$dir/ns3ConfigVersion.cmake" \
    2>/dev/null | head -1 || true
}
STANDALONE_VERSION="$(standalone_version)"
STANDALONE_VERSION="${STANDALONE_VERSION:-3.37}"
TREE_MINOR=$(minor "$VERSION")
STANDALONE_MINOR=$(minor "$STANDALONE_VERSION")
EXTRA_EVENTS=$((((TREE_MINOR >= 41) - (STANDALONE_MINOR >= 41)) * TESTBED_LINKS))

# summary.json without wall_time_s, events_executed less $2 (the expected extra events)
summary_for_comparison() {
  awk -v extra="$2" '/"wall_time_s"/ { next }
    /"events_executed"/ {
      n = $2; sub(/,$/, "", n); printf "  \"events_executed\": %d,\n", n - extra; next
    }
    { print }' "$1"
}

same_outputs() { # DIR_STANDALONE DIR_TREE: prints each difference, fails if any
  local a=$1 b=$2 f rc=0
  local files
  files="$( (cd "$a" && ls; cd "$b" && ls) | sort -u)"
  for f in $files; do
    if [ ! -f "$a/$f" ] || [ ! -f "$b/$f" ]; then
      echo "  $f: written by only one of the two builds"
      rc=1
    elif [ "$f" = summary.json ]; then
      if ! cmp -s <(summary_for_comparison "$a/$f" 0) \
        <(summary_for_comparison "$b/$f" "$EXTRA_EVENTS"); then
        echo "  $f differs (wall_time_s left out; ns-$VERSION's events_executed" \
          "less $EXTRA_EVENTS):"
        diff <(summary_for_comparison "$a/$f" 0) <(summary_for_comparison "$b/$f" "$EXTRA_EVENTS") |
          head -10 | sed 's/^/    /'
        rc=1
      fi
    elif [ "$f" = run.json ]; then
      # the record of the command line, of the ns-3 version and of the build differs by
      # construction
      if ! cmp -s <(grep -v -E '"(command_line|options_given|ns3_version|build)"' "$a/$f") \
        <(grep -v -E '"(command_line|options_given|ns3_version|build)"' "$b/$f"); then
        echo "  $f differs (its command line, ns-3 version and build left out)"
        rc=1
      fi
    elif ! cmp -s "$a/$f" "$b/$f"; then
      echo "  $f differs: $(cmp "$a/$f" "$b/$f" | head -1)"
      rc=1
    fi
  done
  return $rc
}

phase "comparing with the standalone build (ns-$STANDALONE_VERSION): every file byte by byte," \
  "except summary.json's wall_time_s and events_executed (ns-$VERSION: $EXTRA_EVENTS more," \
  "one Channel::Initialize per link since ns-3.41)"
FAILED=0
for cc in dcqcn dcon; do
  OUT_TREE="$WORKDIR/testbed-$cc-ns$VERSION"
  OUT_STANDALONE="$WORKDIR/testbed-$cc-standalone"
  rm -rf "$OUT_TREE" "$OUT_STANDALONE"
  phase "dcon-testbed --cc=$cc with ns-$VERSION (./ns3 run)"
  ./ns3 run --no-build "dcon-testbed --cc=$cc --outdir=$OUT_TREE" >"$OUT_TREE.log" 2>&1 || {
    tail -20 "$OUT_TREE.log"
    echo "error: dcon-testbed --cc=$cc failed with ns-$VERSION (log: $OUT_TREE.log)" >&2
    exit 1
  }
  phase "dcon-testbed --cc=$cc standalone ($STANDALONE_BIN)"
  "$STANDALONE_BIN" --cc=$cc --outdir="$OUT_STANDALONE" >"$OUT_STANDALONE.log" 2>&1 || {
    tail -20 "$OUT_STANDALONE.log"
    echo "error: the standalone dcon-testbed --cc=$cc failed (log: $OUT_STANDALONE.log)" >&2
    exit 1
  }
  if same_outputs "$OUT_STANDALONE" "$OUT_TREE"; then
    echo "  --cc=$cc: identical ($(cd "$OUT_TREE" && echo *))"
  else
    echo "error: --cc=$cc: the outputs of ns-$VERSION and of the standalone build differ" \
      "($OUT_TREE vs $OUT_STANDALONE)" >&2
    FAILED=1
  fi
done

# ------------------------------------------------------------------ a program in scratch/
phase "scratch/$SCRATCH.cc (examples/dcon-first.cc) with ns-$VERSION (./ns3 run)"
if ./ns3 run --no-build "$SCRATCH --cc=dcon" >"$WORKDIR/scratch.log" 2>&1 &&
  grep -q "^incast: done" "$WORKDIR/scratch.log"; then
  echo "  $(grep "^incast: done" "$WORKDIR/scratch.log")"
else
  tail -20 "$WORKDIR/scratch.log"
  echo "error: the scratch program failed with ns-$VERSION (log: $WORKDIR/scratch.log)" >&2
  FAILED=1
fi

# ------------------------------------------------------------------ ns-3's test.py
# With the tests and examples of dcon only (--filter-module-examples-and-tests=dcon), test.py
# runs the suite dcon and the examples of test/examples-to-run.py that are built.
phase "test.py: the test suite dcon and the examples of test/examples-to-run.py" \
  "(log: $WORKDIR/test-py.log)"
rm -f "$WORKDIR/test-py.txt"
if ./test.py --no-build --nocolor --text="$WORKDIR/test-py.txt" >"$WORKDIR/test-py.log" 2>&1 &&
  grep -q "^PASS: Test Suite \"dcon\"" "$WORKDIR/test-py.txt"; then
  echo "  $(grep -E "^[0-9]+ of [0-9]+ tests passed" "$WORKDIR/test-py.log")"
  echo "  the suite dcon: $(grep -c "^PASS: Test Case" "$WORKDIR/test-py.txt") test cases," \
    "and $(grep -c "^PASS: Example" "$WORKDIR/test-py.txt") example runs passed"
else
  grep -E "^\[[0-9]+/[0-9]+\] (FAIL|CRASH)|tests passed" "$WORKDIR/test-py.log" | head -20
  if [ -f "$WORKDIR/test-py.txt" ]; then
    grep -v "^PASS" "$WORKDIR/test-py.txt" | head -60
  else
    tail -20 "$WORKDIR/test-py.log"
  fi
  echo "error: test.py failed with ns-$VERSION (log: $WORKDIR/test-py.log, details:" \
    "$WORKDIR/test-py.txt; one test: GTEST_FILTER='Suite.Test' ./test.py -s dcon in $TREE)" >&2
  FAILED=1
fi
phase "done"
exit $FAILED
