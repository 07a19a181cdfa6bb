#!/usr/bin/env bash
# Install what dcon needs from Debian bookworm (run as root). Packages already present are
# skipped, so this is cheap to run again.
set -euo pipefail
PKGS=(
  g++ cmake make
  libns3-dev ns3          # ns-3.37 (ns3 ships helper binaries that ns-3's CMake config checks)
  libgsl-dev              # ns-3's CMake targets link GSL
  libboost-dev            # boost::crc
  googletest libgtest-dev # test suite
  pkg-config              # the test of the installed package (dcon.pc)
  python3-sphinx          # the documentation (doc/, built with warnings as errors by the tests)
  python3-matplotlib python3-numpy python3-pandas python3-tqdm  # scripts (run with /usr/bin/python3)
  python3-distributed     # the sweeps on a Dask cluster (--scheduler) and their test
  "$@"                    # what a step needs besides (scripts/fuzz.sh: clang and libFuzzer)
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
