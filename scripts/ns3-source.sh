# shellcheck shell=bash
# Shared by scripts/check-ns3.sh and scripts/setup-mpi.sh (sourced, not run): an ns-3 source tree
# from a tarball or a folder, with this repository linked as its contrib/dcon.
#
#   ns3_source_tree SOURCE WORKDIR   sets TREE (absolute path of the folder holding ./ns3) and
#                                    VERSION. SOURCE is an unpacked tree, or a tarball
#                                    (.tar.xz/.tar.gz/.tar.bz2) unpacked into WORKDIR: a release
#                                    tarball (ns-3.X/) or Debian's (ns-allinone-3.X/ns-3.X/). The
#                                    unpacked tree is reused while the tarball is the same
#                                    (WORKDIR/ns-3-tarball.stamp holds "sha256 folder").
#   ns3_link_dcon ROOT               links ROOT as TREE/contrib/dcon (refuses to replace a folder),
#                                    then drops the tree's stale header stubs (below).
#   ns3_drop_stale_headers TREE      removes the stubs of TREE/build/include/ns3 that include a
#                                    file that no longer exists. ns-3's configure writes one stub
#                                    (#include "/absolute/path.h") per module header but never
#                                    rewrites one that exists: after a header of dcon moved (or
#                                    contrib/dcon was linked to a checkout of another layout) the
#                                    old stub would stay and the build fail. The next configure
#                                    (or CMake re-running itself, as the file list changed) writes
#                                    the stub anew.
#   ns3_debian_source DIR            sets SOURCE to Debian bookworm's ns3 source tarball
#                                    (ns-3.37, the standalone build's version) in DIR, fetched
#                                    with `apt-get source --download-only ns3` when none is there
#                                    (a deb-src line for bookworm is added under
#                                    /etc/apt/sources.list.d when none is set up).
# They print an error and exit (2 on bad input). Callers define phase() for progress lines.

ns3_source_tree() {
  local source=$1 workdir=$2
  if [ -d "$source" ]; then
    TREE="$(cd "$source" && pwd)"
    [ -x "$TREE/ns3" ] || { echo "error: $TREE is not an ns-3 source tree (no ./ns3)" >&2; exit 2; }
  elif [ -f "$source" ]; then
    local stamp="$workdir/ns-3-tarball.stamp" sum old_sum="" top="" found
    sum="$(sha256sum "$source" | cut -d' ' -f1)"
    if [ -f "$stamp" ]; then read -r old_sum top <"$stamp" || true; fi
    if [ "$old_sum" = "$sum" ] && [ -n "$top" ] && [ -x "$workdir/$top/ns3" ]; then
      phase "reusing $workdir/$top (unpacked from the same tarball)"
    else
      phase "unpacking $source into $workdir"
      [ -z "$top" ] || rm -rf "${workdir:?}/$top"
      rm -f "$stamp"
      rm -rf "$workdir/unpack.tmp"
      mkdir "$workdir/unpack.tmp"
      tar -xf "$source" -C "$workdir/unpack.tmp"
      found="$(cd "$workdir/unpack.tmp" && find . -maxdepth 3 -name ns3 -type f -perm -u+x |
        sed 's|/ns3$||; s|^\./||' | sort | head -1)"
      if [ -z "$found" ]; then
        echo "error: $source does not hold an ns-3 source folder (no ./ns3 found)" >&2
        exit 2
      fi
      top="$(basename "$found")"
      rm -rf "${workdir:?}/$top"
      mv "$workdir/unpack.tmp/$found" "$workdir/$top"
      rm -rf "$workdir/unpack.tmp"
      echo "$sum $top" >"$stamp"
    fi
    TREE="$workdir/$top"
  else
    echo "error: $source is neither an ns-3 tarball nor an ns-3 source tree" >&2
    exit 2
  fi
  VERSION="$(cat "$TREE/VERSION" 2>/dev/null || basename "$TREE")"
}

ns3_link_dcon() {
  local link="$TREE/contrib/dcon"
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    echo "error: $link exists and is not a link: move it away first" >&2
    exit 2
  fi
  ln -sfn "$1" "$link"
  ns3_drop_stale_headers "$TREE"
}

ns3_drop_stale_headers() {
  local dir="$1/build/include/ns3" line stub target
  [ -d "$dir" ] || return 0
  grep -H -m1 '^#include "/' "$dir"/*.h 2>/dev/null | while IFS= read -r line; do
    stub="${line%%:#include *}"
    target="${line#*:#include \"}"
    target="${target%\"}"
    [ -e "$target" ] || rm -f "$stub"
  done
}

ns3_debian_source() {
  local dir=$1 sudo="" orig
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  mkdir -p "$dir"
  shopt -s nullglob
  orig=("$dir"/ns3_*.orig.tar.*)
  shopt -u nullglob
  if [ ${#orig[@]} -eq 0 ]; then
    if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      phase "adding a deb-src line for bookworm (/etc/apt/sources.list.d/dcon-src.sources)"
      printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
        $sudo tee /etc/apt/sources.list.d/dcon-src.sources >/dev/null
      $sudo apt-get update >/dev/null
    fi
    phase "fetching Debian's ns3 source package (apt-get source --download-only ns3)"
    (cd "$dir" && apt-get source --download-only ns3 >"$dir/fetch.log" 2>&1) || {
      tail -5 "$dir/fetch.log"
      echo "error: apt-get source ns3 failed (log: $dir/fetch.log)" >&2
      exit 1
    }
    shopt -s nullglob
    orig=("$dir"/ns3_*.orig.tar.*)
    shopt -u nullglob
    [ ${#orig[@]} -gt 0 ] || { echo "error: no ns3_*.orig.tar.* in $dir" >&2; exit 1; }
  fi
  # shellcheck disable=SC2034 # the caller's
  SOURCE="${orig[0]}"
}

# The programs the parallel tests run (test/mpi-tests.sh), built by scripts/setup-mpi.sh and by
# scripts/check-ns3.sh --mpi.
NS3_MPI_PROGRAMS=(dcon-testbed dcon-bench dcon-large-scale dcon-mpi-check dcon-collectives)

# ns3_link_programs DIR PROGRAM...: link each built dcon example of $TREE (ns-$VERSION) as
# DIR/bin/PROGRAM; fails naming a program the build did not make.
ns3_link_programs() {
  local dir=$1 e bin
  shift
  mkdir -p "$dir/bin"
  for e in "$@"; do
    bin="$(find "$TREE/build/contrib/dcon/examples" -maxdepth 1 -type f -perm -u+x \
      -name "ns${VERSION}-$e*" | head -1)"
    [ -n "$bin" ] || { echo "error: the build made no $e" >&2; exit 1; }
    ln -sfn "$bin" "$dir/bin/$e"
  done
}
