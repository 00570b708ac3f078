#!/usr/bin/env bash
# The full test suite: installs dependencies, builds, runs the unit and GPU tiers (lavapipe,
# validation on) through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
ctest --test-dir build --output-on-failure -j"$(nproc)"
