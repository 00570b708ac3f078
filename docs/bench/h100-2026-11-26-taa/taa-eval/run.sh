#!/usr/bin/env bash
# Issue 20: taa-eval on the H100 (640x360, 32 frames, 64-offset references).
set -u
trap 'tar -C /tmp/resm -czf "$1/sitting_m.tgz" .' EXIT
out="$1"; res=/tmp/resm; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N taa-eval --size 640x360 --frames 32 --grid 8 --json "$res/taa_eval.json" > "$res/taa_eval.md" 2>&1; say "taa-eval $?"
