#!/usr/bin/env bash
# Configures and builds into build/: every target (filterlab and its tests), or the targets named
# (scripts/demo.sh builds `filterlab` alone: the test suites are most of a build on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build -j"$(nproc)" "${targets[@]}"
