#!/usr/bin/env bash
# Issue 20: the TAA resolve with colour and depth staged in shared memory, beside the others and the copy floor.
set -u
trap 'tar -C /tmp/resp -czf "$1/sitting_p.tgz" .' EXIT
out="$1"; res=/tmp/resp; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter copy --sizes 3840x2160 --precision fp16 --frames 100 --warmup 20 --quiet --json "$res/copy.json" > "$res/copy.txt" 2>&1; say "copy $?"
for m in comp.full2d_shared comp.quad_subgroup comp.full2d; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.$m --timings "$res/taa_$m.json" --quiet > "$res/taa_$m.txt" 2>&1; say "taa $m $?"
done
for v in history=catmull_rom5 history=bilinear rectify=none rectify=clamp history=bilinear:rectify=none; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.comp.full2d_shared:$v --timings "$res/taa_shared_$v.json" --quiet > "$res/taa_shared_$v.txt" 2>&1; say "taa shared $v $?"
done
