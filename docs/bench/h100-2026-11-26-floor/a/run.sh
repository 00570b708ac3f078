#!/usr/bin/env bash
# Issue 23, sitting a: comp.separable_shuffle (new) against comp.separable_stream, 4K, fp16 and fp32,
# r = 1 / 2 / 4 / 8 / 16, and shader variants of both (one bench call each, copy floor in every call).
set -u
trap 'tar -C /tmp/resfa -czf "$1/sitting_fa.tgz" .' EXIT
out="$1"; res=/tmp/resfa; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $res/gpu.txt 2>&1
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,4,8,16 --no-error --frames 100"
$N $B --methods comp.separable_stream,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
for v in MEM R32 R128 R256 B4 B16; do
  $N $B --methods comp.separable_shuffle --shader-source sh_$v --json $res/$v.json > $res/$v.txt 2>&1; say "$v $?"
done
$N $B --methods comp.separable_stream --shader-source sh_SC --json $res/SC.json > $res/SC.txt 2>&1; say "SC $?"
$N $B --methods comp.separable_stream,comp.separable_shuffle --json $res/base2.json > $res/base2.txt 2>&1; say "base2 $?"
