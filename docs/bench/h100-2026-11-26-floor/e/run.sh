#!/usr/bin/env bash
# Issue 23, sitting e: bench --tune for gaussian at 4K (fp16, fp32) with comp.separable_shuffle registered, then
# auto timed from that table beside the copy floor.
set -u
trap 'tar -C /tmp/resfe -czf "$1/sitting_fe.tgz" .' EXIT
out="$1"; res=/tmp/resfe; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > "$res/gpu.txt" 2>&1
$N bench --tune --sizes 3840x2160 --frames 50 --warmup 10 --tune-file "$res/tune.json" --json "$res/tune_bench.json" > "$res/tune.txt" 2>&1; say "tune $?"
FILTERLAB_TUNE="$res/tune.json" $N bench --methods auto --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,4,8,16,32 --no-error \
  --frames 50 --warmup 10 --json "$res/auto.json" > "$res/auto.txt" 2>&1; say "auto $?"
