#!/usr/bin/env bash
# The full test suite: installs dependencies, builds, runs the unit and GPU tiers (lavapipe,
# validation on) through ctest, under Xvfb when there is no display.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
# The window tests need an X display: without one, run everything under a virtual one (Xvfb).
if [ -n "${DISPLAY:-}" ]; then
  ctest --test-dir build --output-on-failure -j"$(nproc)"
else
  xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" ctest --test-dir build --output-on-failure -j"$(nproc)"
fi
