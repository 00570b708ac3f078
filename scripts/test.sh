#!/usr/bin/env bash
# The full test suite: installs dependencies, builds, runs the unit and GPU tiers (lavapipe,
# validation on) through ctest, under Xvfb when there is no display.
#   ./scripts/test.sh           everything (what CI runs)
#   ./scripts/test.sh --smoke   the smoke tier (ctest label "smoke"): unit tests, every method against
#                               its family's reference, headless runs, exit codes; under 3 minutes
set -euo pipefail
cd "$(dirname "$0")/.."
select=()
case "${1:-}" in
  "") ;;
  --smoke) select=(-L smoke) ;;
  *) echo "usage: scripts/test.sh [--smoke]" >&2; exit 2 ;;
esac
./scripts/install-deps.sh
./scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
# The window tests need an X display: without one, run everything under a virtual one (Xvfb).
if [ -n "${DISPLAY:-}" ]; then
  ctest --test-dir build --output-on-failure -j"$(nproc)" "${select[@]}"
else
  xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" ctest --test-dir build --output-on-failure -j"$(nproc)" "${select[@]}"
fi
