#!/usr/bin/env bash
# comp.recursive with blocks of 64 and 128 texels (32 in sitting v).
set -u
trap 'tar -C /tmp/resw -czf "$1/sitting_w.tgz" .' EXIT
out="$1"; res=/tmp/resw; mkdir -p $res; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
for B in 64 128; do
  ./b$B/run.sh bench --filter bigblur --sizes 3840x2160 --precision fp16,fp32 --methods comp.recursive \
    --sweep sigma=4,256 --frames 50 --warmup 10 --json "$res/recursive_b$B.json" > "$res/recursive_b$B.txt" 2>&1; say "block $B $?"
done
