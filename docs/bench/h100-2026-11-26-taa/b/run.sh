#!/usr/bin/env bash
# Issue 20: the TAA resolve after the depth gathers, with each history filter, beside the copy floor.
set -u
trap 'tar -C /tmp/resl -czf "$1/sitting_l.tgz" .' EXIT
out="$1"; res=/tmp/resl; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter copy --sizes 3840x2160 --precision fp16 --frames 100 --warmup 20 --quiet --json "$res/copy.json" > "$res/copy.txt" 2>&1; say "copy $?"
for m in comp.full2d comp.quad_subgroup comp.quad_derivative frag.full2d frag.quad_derivative; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.$m --timings "$res/taa_$m.json" --quiet > "$res/taa_$m.txt" 2>&1; say "taa $m $?"
done
for h in catmull_rom5 bilinear; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.comp.quad_subgroup:history=$h --timings "$res/taa_history_$h.json" --quiet > "$res/taa_history_$h.txt" 2>&1; say "taa history $h $?"
done
$N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.comp.quad_subgroup:history=bilinear:rectify=none --timings "$res/taa_bilinear_none.json" --quiet > "$res/taa_bilinear_none.txt" 2>&1; say "taa bilinear none $?"
