#!/usr/bin/env bash
# comp.mip_poisson's cost per sample against the rotation: ign (a rotation per pixel) or none (one for all).
set -u
trap 'tar -C /tmp/resx -czf "$1/sitting_x.tgz" .' EXIT
out="$1"; res=/tmp/resx; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.mip_poisson --no-error \
  --sweep sigma=8,64 --sweep samples=8,16,32,64 --sweep rotation=ign,none,white --frames 30 --warmup 5 \
  --json "$res/rotation.json" > "$res/rotation.txt" 2>&1; say "rotation $?"
