#!/usr/bin/env bash
# comp.mip_poisson with the rotation drawn per 1, 2 or 4 pixels a side: time and error against comp.exact.
set -u
trap 'tar -C /tmp/resy -czf "$1/sitting_y.tgz" .' EXIT
out="$1"; res=/tmp/resy; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.mip_poisson,comp.mip_poisson_temporal \
  --sweep sigma=8,64 --sweep samples=8,16,32,64 --sweep rotation_cell=1,2,4 --frames 30 --warmup 5 \
  --json "$res/cells.json" > "$res/cells.txt" 2>&1; say "cells $?"
