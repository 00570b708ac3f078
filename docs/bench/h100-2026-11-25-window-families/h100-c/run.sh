#!/usr/bin/env bash
# Issue 19: the variance family on the H100 at the final revision (comp.stream after the sliding runs, beside comp.quad_subgroup).
set -u
trap 'tar -C /tmp/resj -czf "$1/sitting_j.tgz" .' EXIT
out="$1"; res=/tmp/resj; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter variance --methods comp.stream,comp.quad_subgroup --sizes 3840x2160 --precision fp16 --radii 1,2,3,5,8 --frames 100 --warmup 20 --no-error --quiet \
  --json "$res/bench_variance.json" > "$res/bench_variance.txt" 2>&1; say "bench variance $?"
$N bench --filter variance --methods comp.stream --sizes 3840x2160 --precision fp16 --radii 16,32 \
  --frames 100 --warmup 20 --no-error --quiet --json "$res/bench_variance_large.json" > "$res/bench_variance_large.txt" 2>&1; say "large $?"
