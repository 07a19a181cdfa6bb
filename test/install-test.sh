#!/usr/bin/env bash
# dcon as an installed package: `cmake --install` the build into a prefix, then build a program
# outside the tree against it with CMake (find_package(dcon) and the target dcon::dcon:
# test/install/CMakeLists.txt) and run it; the program is examples/dcon-first.cc, copied out of
# the tree. Then a smaller program (test/install/list-cc.cc: one header, the registry) with
# pkg-config (dcon.pc), run as well. Everything goes to
# BUILD_DIR/install-test (a fixed folder, so that ccache, when installed, finds the compilations
# of an earlier run). Exit status 0 when both build and print their results.
#
#   test/install-test.sh BUILD_DIR     (ctest: install.consumer)
set -euo pipefail
BUILD="$(cd "${1:?usage: test/install-test.sh BUILD_DIR}" && pwd)"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TMP="$BUILD/install-test"
rm -rf "$TMP"
mkdir -p "$TMP"
PREFIX="$TMP/prefix"
LAUNCHER=()
CXX_CMD=(c++)
if command -v ccache >/dev/null; then
  LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  CXX_CMD=(ccache c++)
fi

echo "== cmake --install $BUILD --prefix $PREFIX"
cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log"
for f in lib/libdcon.so include/dcon/ns3/rdma-fabric-helper.h include/dcon/ns3/dcon-module.h \
  lib/cmake/dcon/dconConfig.cmake lib/pkgconfig/dcon.pc share/dcon/cdf/websearch.txt; do
  [ -e "$PREFIX/$f" ] || { echo "error: the install has no $f" >&2; exit 1; }
done

# The program, outside the tree (it sees the installed headers only).
mkdir -p "$TMP/program"
cp "$ROOT/test/install/CMakeLists.txt" "$ROOT/examples/dcon-first.cc" "$TMP/program/"
mv "$TMP/program/dcon-first.cc" "$TMP/program/first.cc"

echo "== find_package(dcon), target dcon::dcon"
cmake -S "$TMP/program" -B "$TMP/program/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" "${LAUNCHER[@]}" >"$TMP/configure.log" ||
  { cat "$TMP/configure.log"; exit 1; }
cmake --build "$TMP/program/build" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; exit 1; }
"$TMP/program/build/first" --cc=dcon | tee "$TMP/cmake-run.txt"
grep -q "^incast: done" "$TMP/cmake-run.txt"

echo "== pkg-config dcon"
FLAGS="$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --cflags --libs dcon)"
echo "pkg-config --cflags --libs dcon: $FLAGS"
cp "$ROOT/test/install/list-cc.cc" "$TMP/program/"
# shellcheck disable=SC2086 # the flags are words
"${CXX_CMD[@]}" -O2 -o "$TMP/list-cc" "$TMP/program/list-cc.cc" $FLAGS
LD_LIBRARY_PATH="$PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$TMP/list-cc" |
  tee "$TMP/pc-run.txt"
grep -q "^dcqcn	ns3::RedEcnQueueDisc	" "$TMP/pc-run.txt"
echo "PASS: the installed package builds and runs a program outside the tree (CMake and pkg-config)"
