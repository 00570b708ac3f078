#!/usr/bin/env bash
# Issue 23, sitting h: comp.separable_shuffle after review (the subgroup size read in the shader, not a
# specialization constant; a group a strip of exactly 16 rows), beside comp.separable_stream, r = 1-8; errors at
# 257x131 on this GPU up to its limit (r = 8); info.
set -u
trap 'tar -C /tmp/resfh -czf "$1/sitting_fh.tgz" .' EXIT
out="$1"; res=/tmp/resfh; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > "$res/gpu.txt" 2>&1
$N info > $res/info.txt 2>&1
$N bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,3,4,8 --no-error --frames 100 \
  --methods comp.separable_stream,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
$N bench --filter gaussian --sizes 257x131 --precision fp16,fp32 --radii 1,2,3,4,5,8 --frames 5 \
  --methods comp.separable_stream,comp.separable_shuffle --json $res/errors.json > $res/errors.txt 2>&1; say "errors $?"
$N bench --filter gaussian --sizes 3840x2160 --precision fp32 --radii 9 --frames 5 --no-error \
  --methods comp.separable_shuffle > $res/refused.txt 2>&1; say "refused $?"
