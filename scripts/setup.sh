#!/usr/bin/env bash
# One command from a fresh Debian bookworm machine: install dependencies, build dcon (Release),
# run the DCON paper's testbed burst scenario with DCQCN and DCON, and draw the figure.
# Outputs: results/testbed-dcqcn/, results/testbed-dcon/ (CSV + summary.json) and
# results/testbed.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
for cc in dcqcn dcon; do
  build/examples/dcon-testbed --cc=$cc --outdir=results/testbed-$cc
done
/usr/bin/python3 -m scripts.plot_testbed results/testbed-dcqcn results/testbed-dcon \
  --labels DCQCN DCON -o results/testbed.png
