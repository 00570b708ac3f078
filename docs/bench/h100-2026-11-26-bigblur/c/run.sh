#!/usr/bin/env bash
# Issue 21: the temporal method's time and its error after 1, 4, 16, 64 frames; the recursive Gaussian's error in fp32.
set -u
trap 'tar -C /tmp/ress -czf "$1/sitting_s.tgz" .' EXIT
out="$1"; res=/tmp/ress; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.mip_poisson_temporal,comp.mip_poisson \
  --sweep sigma=4,8,16,32,64,128,256 --sweep samples=8 --sweep footprint=trilinear,level --frames 50 --warmup 10 \
  --json "$res/temporal.json" > "$res/temporal.txt" 2>&1; say "temporal $?"
$N bench --filter bigblur --sizes 3840x2160 --precision fp32 --methods comp.recursive \
  --sweep sigma=4,8,16,32,64,128,256 --frames 20 --warmup 5 --json "$res/recursive_fp32.json" > "$res/recursive_fp32.txt" 2>&1; say "recursive $?"
