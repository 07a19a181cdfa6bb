#!/usr/bin/env bash
# Build dcon in-tree against an ns-3 with the `mpi` module, for parallel runs (mpirun -np N).
#
#   scripts/setup-mpi.sh [SOURCE] [--workdir DIR] [-j N]
#
# SOURCE        an ns-3 source tarball (.tar.xz/.tar.gz/.tar.bz2; e.g.
#               ns-3.48-min.tar.xz) or an unpacked ns-3 tree (the folder holding
#               ./ns3). Default: Debian bookworm's ns3 source package (ns-3.37, the version of the
#               standalone build), fetched with `apt-get source --download-only ns3` (a deb-src
#               line for bookworm is added under /etc/apt/sources.list.d when none is there).
# --workdir DIR where the source is fetched and unpacked and ns-3 is built (default: build-mpi/
#               in the repository, git-ignored). The unpacked tree is reused while its source is
#               unchanged, so a later run rebuilds dcon only.
# -j N          parallel compile jobs (default: the number of cores).
#
# Steps: install libopenmpi-dev and openmpi-bin (scripts/install-deps.sh); fetch and unpack the
# source; link this repository as contrib/dcon; configure ns-3 (release -O3, MPI, examples; the
# modules dcon needs plus mpi); build dcon and its examples
# (dcon-testbed, dcon-bench, dcon-large-scale, dcon-mpi-check, dcon-collectives). The programs are linked from
# DIR/bin/ (e.g. build-mpi/bin/dcon-testbed), and DIR/ns3-tree names the tree. Then:
#
#   mpirun -np 2 build-mpi/bin/dcon-testbed --outdir=results/testbed-mpi
#
# The standalone build (scripts/setup.sh, scripts/test.sh) does not need any of this; when
# build-mpi/ exists, scripts/test.sh also runs the parallel tests (test/mpi-tests.sh).
set -euo pipefail
trap 'echo "error: scripts/setup-mpi.sh stopped at line $LINENO (exit status $?)" >&2' ERR

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORKDIR="$ROOT/build-mpi"
JOBS="$(nproc 2>/dev/null || echo 2)"
SOURCE=""

usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
  --workdir) WORKDIR="${2:?--workdir needs a folder}"; shift 2 ;;
  -j) JOBS="${2:?-j needs a number}"; shift 2 ;;
  -j*) JOBS="${1#-j}"; shift ;;
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

export CLICOLOR=0 # one compiler command line whoever runs ./ns3 (see scripts/check-ns3.sh)
T0=$(date +%s)
phase() { echo "=== setup-mpi [$(($(date +%s) - T0)) s] $*"; }

phase "installing what the build needs (MPI: libopenmpi-dev openmpi-bin)"
"$ROOT/scripts/install-deps.sh" libopenmpi-dev openmpi-bin xz-utils bzip2

mkdir -p "$WORKDIR"
WORKDIR="$(cd "$WORKDIR" && pwd)"

# ------------------------------------------------------------------ the source
# shellcheck source=scripts/ns3-source.sh
source "$ROOT/scripts/ns3-source.sh"
if [ -z "$SOURCE" ]; then
  ns3_debian_source "$WORKDIR/src"
fi

ns3_source_tree "$SOURCE" "$WORKDIR"
[ -d "$TREE/src/mpi" ] || { echo "error: $TREE has no src/mpi (ns-3's mpi module)" >&2; exit 2; }
ns3_link_dcon "$ROOT"
ln -sfn "$TREE" "$WORKDIR/ns3-tree"

# ------------------------------------------------------------------ configure and build
cd "$TREE"
# ns-3's own ./ns3 configure is not used: ns-3.37's script globs the tree recursively through
# symbolic links, and contrib/dcon -> this repository -> build-mpi/ -> the tree is a cycle. The
# CMake options below are what `./ns3 configure -d optimized --enable-mpi --enable-examples
# --disable-tests --enable-modules="dcon;mpi"` passes, except -march=native (-d optimized):
# native code lets GCC fuse multiply-adds, and the results would differ in their last bits from
# the standalone build's (-O3 without -march), which the parallel tests compare with.
phase "configuring ns-$VERSION (release -O3, MPI, examples; modules: dcon, mpi and what they need)"
cmake -S "$TREE" -B "$TREE/cmake-cache" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=release \
  -DNS3_ASSERT=OFF -DNS3_LOG=OFF -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_NATIVE_OPTIMIZATIONS=OFF \
  -DNS3_MPI=ON -DNS3_EXAMPLES=ON -DNS3_TESTS=OFF -DNS3_ENABLED_MODULES="dcon;mpi" \
  >"$WORKDIR/configure.log" 2>&1 || {
  tail -30 "$WORKDIR/configure.log"
  echo "error: configuring ns-3 failed (log: $WORKDIR/configure.log)" >&2
  exit 1
}
grep -q "MPI was found" "$WORKDIR/configure.log" || {
  echo "error: ns-3's configure did not find MPI (log: $WORKDIR/configure.log)" >&2
  exit 1
}
EXAMPLES=("${NS3_MPI_PROGRAMS[@]}")
phase "building ns-3 and dcon: ${EXAMPLES[*]} (-j$JOBS; log: $WORKDIR/build.log)"
if ! cmake --build "$TREE/cmake-cache" -j "$JOBS" --target "${EXAMPLES[@]}" \
  >"$WORKDIR/build.log" 2>&1; then
  grep -E "error|FAILED" "$WORKDIR/build.log" | head -40
  echo "error: the build against ns-$VERSION failed (log: $WORKDIR/build.log)" >&2
  exit 1
fi
ns3_link_programs "$WORKDIR" "${EXAMPLES[@]}"
phase "done: $(ls "$WORKDIR/bin" | tr '\n' ' ')in $WORKDIR/bin (ns-$VERSION with MPI)"
