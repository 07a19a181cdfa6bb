#!/usr/bin/env bash
# Build dcon's programs for speed: in-tree against an ns-3 source tree, each program one static
# executable of ns-3 and dcon with link-time optimization (LTO) and GCC's profile-guided
# optimization (PGO), the results byte-identical to the standalone build's.
#
#   scripts/build-optimized.sh [SOURCE] [--workdir DIR] [-j N] [--no-pgo] [--native]
#                              [--only PROGRAM[,PROGRAM...]]
#
# SOURCE        an ns-3 source tarball (.tar.xz/.tar.gz/.tar.bz2; e.g. ns-3.48-min.tar.xz) or an
#               unpacked ns-3 tree (the folder holding ./ns3). Default: Debian bookworm's ns3
#               source package (ns-3.37, the standalone build's version), fetched with
#               `apt-get source --download-only ns3` (scripts/ns3-source.sh).
# --workdir DIR where the source is unpacked and built (default: build-opt/ in the repository,
#               git-ignored). The tree is reused while its source is unchanged.
# -j N          parallel compile jobs (default: the number of cores).
# --no-pgo      LTO and -O3 only: one build, no training run (about half the time).
# --native      also -march=native (with -ffp-contract=off: no fused multiply-adds, whose
#               rounding would change results in their last bits). The programs then run only on
#               processors with this one's instruction set: not for a cluster of mixed machines.
# --only LIST   build only these of the programs below (comma-separated, e.g. dcon-large-scale
#               for the sweeps): each is one LTO link of all of ns-3 and dcon, so on a busy
#               machine the links are a good part of the time. PGO then trains on the training
#               runs of these programs alone (at least one of dcon-large-scale, dcon-testbed and
#               dcon-ibcc-share is needed, or --no-pgo).
#
# What it does:
#  1. configures ns-3 (no ./ns3: see scripts/setup-mpi.sh) as ns-3's "release" profile with
#     logging and asserts compiled out (NS_LOG, NS_ASSERT: what `./ns3 configure -d optimized`
#     does), NS3_STATIC (ns-3 and dcon linked into each program: calls between ns-3's modules
#     and dcon need no PLT and can be inlined), NS3_LINK_TIME_OPTIMIZATION (GCC -flto across all
#     of it; linked by GNU ld, which reads GCC's LTO objects: ns-3 would pick lld or mold when
#     installed), -ffp-contract=off; modules: dcon and what it needs; no tests, no MPI, no
#     precompiled headers;
#  2. with PGO (the default): builds the programs with -fprofile-generate, runs the training
#     runs below (gcov counters into DIR/pgo/), and builds them again with -fprofile-use
#     -fprofile-partial-training (code the training never ran is optimized as without PGO);
#  3. links the programs from DIR/bin/: dcon-bench, dcon-large-scale, dcon-testbed,
#     dcon-floor-bench, dcon-ibcc-share, dcon-rttpid-incast (or those of --only; the sweeps take
#     DIR/bin first: scripts/builds.py). DIR/build-info.txt records the ns-3
#     version, the compiler and the flags.
#
# Training runs (about a minute; the outputs are thrown away): small leaf-spine fabrics of
# dcon-large-scale under WebSearch at load 0.8 with DCQCN, DCON, HPCC, DCTCP and TIMELY
# (WebSearch and FB_Hadoop sizes), one with the congestion-spreading measurement; the testbed with
# DCQCN and DCON; the IB CC sharing example. They do not include the benchmark's inputs
# (data/bench): its figures measure code the training did not see run on them.
#
# The results are byte-identical to the standalone build's (checked as doc/performance.rst
# says). From scratch on 2 cores: about 15 minutes with PGO; later runs rebuild
# what changed (ccache, when installed, is used by ns-3's CMake).
set -euo pipefail
trap 'echo "error: scripts/build-optimized.sh stopped at line $LINENO (exit status $?)" >&2' ERR

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORKDIR="$ROOT/build-opt"
JOBS="$(nproc 2>/dev/null || echo 2)"
SOURCE=""
PGO=1
NATIVE=0
ONLY=""

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
  --workdir) WORKDIR="${2:?--workdir needs a folder}"; shift 2 ;;
  -j) JOBS="${2:?-j needs a number}"; shift 2 ;;
  -j*) JOBS="${1#-j}"; shift ;;
  --no-pgo) PGO=0; shift ;;
  --native) NATIVE=1; shift ;;
  --only) ONLY="${2:?--only needs a list of programs}"; shift 2 ;;
  -h | --help) usage ;;
  -*) echo "error: unknown option $1" >&2; usage ;;
  *)
    [ -z "$SOURCE" ] || { echo "error: one SOURCE only (got $SOURCE and $1)" >&2; exit 2; }
    SOURCE="$1"; shift ;;
  esac
done
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
  echo "error: -j must be a positive integer, got '$JOBS'" >&2
  exit 2
fi

EXAMPLES=(dcon-bench dcon-large-scale dcon-testbed dcon-floor-bench dcon-ibcc-share
  dcon-rttpid-incast)
built() { [[ " ${EXAMPLES[*]} " == *" $1 "* ]]; } # NAME: is the program one of this build's
if [ -n "$ONLY" ]; then
  chosen=()
  IFS=',' read -r -a wanted <<<"$ONLY"
  for w in "${wanted[@]}"; do
    built "$w" || {
      echo "error: --only: unknown program '$w' (one of: ${EXAMPLES[*]})" >&2
      exit 2
    }
    chosen+=("$w")
  done
  EXAMPLES=("${chosen[@]}")
  if [ $PGO -eq 1 ] && ! built dcon-large-scale && ! built dcon-testbed \
    && ! built dcon-ibcc-share; then
    echo "error: --only $ONLY: PGO's training runs need dcon-large-scale, dcon-testbed or" \
      "dcon-ibcc-share (or give --no-pgo)" >&2
    exit 2
  fi
fi

export CLICOLOR=0 # one compiler command line whoever runs the build (see scripts/check-ns3.sh)
T0=$(date +%s)
phase() { echo "=== build-optimized [$(($(date +%s) - T0)) s] $*"; }

"$ROOT/scripts/install-deps.sh" xz-utils bzip2
mkdir -p "$WORKDIR"
WORKDIR="$(cd "$WORKDIR" && pwd)"

# ------------------------------------------------------------------ the source
# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"
if [ -z "$SOURCE" ]; then
  ns3_debian_source "$WORKDIR/src"
fi
ns3_source_tree "$SOURCE" "$WORKDIR"
ns3_link_dcon "$ROOT"
ln -sfn "$TREE" "$WORKDIR/ns3-tree"

BASE_FLAGS="-ffp-contract=off"
[ $NATIVE -eq 1 ] && BASE_FLAGS="-march=native -mtune=native $BASE_FLAGS"
PGO_DIR="$WORKDIR/pgo"

# configure_and_build FLAGS LABEL: (re)configure the tree with extra compiler flags, build.
configure_and_build() {
  local flags=$1 label=$2
  cd "$TREE"
  phase "configuring ns-$VERSION ($label: -O3 $flags, static, LTO; modules: dcon and its needs)"
  cmake -S "$TREE" -B "$TREE/cmake-cache" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=release \
    -DNS3_ASSERT=OFF -DNS3_LOG=OFF -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_NATIVE_OPTIMIZATIONS=OFF \
    -DNS3_STATIC=ON -DNS3_LINK_TIME_OPTIMIZATION=ON -DNS3_MPI=OFF -DNS3_EXAMPLES=ON \
    -DNS3_TESTS=OFF -DNS3_ENABLED_MODULES=dcon -DNS3_PRECOMPILE_HEADERS=OFF \
    -DLLD=LLD-NOTFOUND -DMOLD=MOLD-NOTFOUND -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$WORKDIR/configure-$label.log" 2>&1 || {
    tail -30 "$WORKDIR/configure-$label.log"
    echo "error: configuring ns-3 failed (log: $WORKDIR/configure-$label.log)" >&2
    exit 1
  }
  phase "building ${EXAMPLES[*]} ($label, -j$JOBS; log: $WORKDIR/build-$label.log)"
  if ! cmake --build "$TREE/cmake-cache" -j "$JOBS" --target "${EXAMPLES[@]}" \
    >"$WORKDIR/build-$label.log" 2>&1; then
    grep -E "error|FAILED" "$WORKDIR/build-$label.log" | head -40
    echo "error: the build against ns-$VERSION failed (log: $WORKDIR/build-$label.log)" >&2
    exit 1
  fi
}

program() { # NAME: the built program's path
  local bin
  bin="$(find "$TREE/build/contrib/dcon/examples" -maxdepth 1 -type f -perm -u+x \
    -name "ns${VERSION}-$1*" | head -1)"
  [ -n "$bin" ] || { echo "error: the build made no $1" >&2; exit 1; }
  echo "$bin"
}

# The training runs (see the header); each in its own folder under DIR/pgo-runs.
train() {
  local runs="$WORKDIR/pgo-runs" ls tb ib i=0
  rm -rf "$runs"
  mkdir -p "$runs"
  local small=(--spines=2 --leaves=4 --hostsPerLeaf=8 --load=0.8 --duration=2ms)
  local cmds=()
  if built dcon-large-scale; then
    ls="$(program dcon-large-scale)"
    cmds+=("$ls ${small[*]} --cc=dcqcn --workload=websearch"
      "$ls ${small[*]} --cc=dcon --workload=websearch"
      "$ls ${small[*]} --cc=hpcc --workload=websearch"
      "$ls ${small[*]} --cc=dctcp --workload=fbhadoop"
      "$ls ${small[*]} --cc=timely --workload=fbhadoop"
      "$ls ${small[*]} --cc=dcon --workload=websearch --spreading")
  fi
  if built dcon-testbed; then
    tb="$(program dcon-testbed)"
    cmds+=("$tb --cc=dcqcn" "$tb --cc=dcon")
  fi
  if built dcon-ibcc-share; then
    ib="$(program dcon-ibcc-share)"
    cmds+=("$ib --ns=2 --duration=40 --phase=20 --tenantFlows=2")
  fi
  for c in "${cmds[@]}"; do
    i=$((i + 1))
    phase "training run $i of ${#cmds[@]}: ${c#"$TREE"/build/contrib/dcon/examples/}"
    # shellcheck disable=SC2086 # the command's words
    (cd "$runs" && $c --outdir="$runs/out-$i" >"$runs/run-$i.log" 2>&1) || {
      tail -20 "$runs/run-$i.log"
      echo "error: training run $i failed (log: $runs/run-$i.log)" >&2
      exit 1
    }
  done
}

if [ $PGO -eq 1 ]; then
  rm -rf "$PGO_DIR"
  mkdir -p "$PGO_DIR"
  configure_and_build "$BASE_FLAGS -fprofile-generate=$PGO_DIR -fprofile-update=single" \
    pgo-generate
  train
  FINAL_FLAGS="$BASE_FLAGS -fprofile-use=$PGO_DIR -fprofile-partial-training -Wno-missing-profile"
  configure_and_build "$FINAL_FLAGS" pgo-use
else
  FINAL_FLAGS="$BASE_FLAGS"
  configure_and_build "$FINAL_FLAGS" lto
fi

mkdir -p "$WORKDIR/bin"
rm -f "$WORKDIR"/bin/* # the programs of an earlier build with other --only, or flags
for e in "${EXAMPLES[@]}"; do
  ln -sfn "$(program "$e")" "$WORKDIR/bin/$e"
done
{
  echo "ns-3 version: $VERSION ($TREE)"
  echo "compiler: $(c++ --version | head -1)"
  echo "flags: -O3 $FINAL_FLAGS, NS3_STATIC, NS3_LINK_TIME_OPTIMIZATION, NS_LOG and NS_ASSERT off"
  echo "profile-guided: $([ $PGO -eq 1 ] && echo "yes (training runs: $WORKDIR/pgo-runs)" || echo no)"
  echo "dcon: $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
} >"$WORKDIR/build-info.txt"
phase "done: $(ls "$WORKDIR/bin" | tr '\n' ' ')in $WORKDIR/bin (ns-$VERSION; $WORKDIR/build-info.txt)"
