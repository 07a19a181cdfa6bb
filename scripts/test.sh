#!/usr/bin/env bash
# Build dcon with its test suite and run every test (GoogleTest through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
cd build
ctest -j"$(nproc)" --output-on-failure
