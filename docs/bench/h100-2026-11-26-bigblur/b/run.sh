#!/usr/bin/env bash
# Issue 21: comp.mip_poisson after the one-tap box and the samples constant, each footprint, beside dual filtering.
set -u
trap 'tar -C /tmp/resr -czf "$1/sitting_r.tgz" .' EXIT
out="$1"; res=/tmp/resr; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.mip_poisson,comp.dual_filter \
  --sweep sigma=4,8,16,32,64,128,256 --sweep samples=8,16,32,64 --sweep footprint=trilinear,level --frames 50 --warmup 10 \
  --json "$res/bigblur.json" > "$res/bigblur.txt" 2>&1; say "bigblur $?"
