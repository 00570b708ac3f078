#!/usr/bin/env bash
# The main job: installs dependencies, builds, then renders the scene through a Gaussian blur
# (AMD's tiled method) headless, prints the per-pass GPU time table (on lavapipe: CPU time) and
# writes its captures to the folder it names. It runs without a display; the window
# (`filterlab run` without --headless) shows the same scene with the control panel.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh filterlab  # the test suites are built by the test command
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
out="${FILTERLAB_OUT:-out/demo}"
mkdir -p "$out"
./build/filterlab run --headless --size 1280x720 --frames 60 --warmup 10 --chain gaussian.comp.tiled:radius=4 \
  --capture final="$out/final.png" --capture scene="$out/scene.pfm" --capture gaussian="$out/blurred.pfm" \
  --capture depth="$out/depth.png" --capture motion="$out/motion.png" \
  --timings "$out/timings.json" --dump-graph "$out/graph.dot"
echo "captures, timings.json and graph.dot are in $out/"
