#!/usr/bin/env bash
# Issue 21 follow-up: comp.recursive block-parallel, fp16 and fp32, beside dual filtering.
set -u
trap 'tar -C /tmp/resv -czf "$1/sitting_v.tgz" .' EXIT
out="$1"; res=/tmp/resv; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter bigblur --sizes 3840x2160 --precision fp16,fp32 --methods comp.recursive,comp.dual_filter \
  --sweep sigma=4,8,16,32,64,128,256 --frames 50 --warmup 10 --json "$res/recursive.json" > "$res/recursive.txt" 2>&1; say "recursive $?"
