#!/usr/bin/env bash
# Issue 20: the TAA resolve at 3840x2160 fp16, every method, beside the copy floor (same sitting).
set -u
trap 'tar -C /tmp/resk -czf "$1/sitting_k.tgz" .' EXIT
out="$1"; res=/tmp/resk; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter copy --sizes 3840x2160 --precision fp16 --frames 100 --warmup 20 --quiet --json "$res/copy.json" > "$res/copy.txt" 2>&1; say "copy $?"
for m in comp.full2d comp.quad_subgroup comp.quad_derivative frag.full2d frag.quad_derivative frag.quad_derivative_coarse; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.$m --timings "$res/taa_$m.json" --quiet > "$res/taa_$m.txt" 2>&1; say "taa $m $?"
done
for r in none clamp clip; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain taa.comp.quad_subgroup:rectify=$r --timings "$res/taa_rectify_$r.json" --quiet > "$res/taa_rectify_$r.txt" 2>&1; say "taa rectify $r $?"
done
$N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain copy --timings "$res/chain_copy.json" --quiet > "$res/chain_copy.txt" 2>&1; say "chain copy $?"
$N bench --filter copy --sizes 3840x2160 --precision fp16 --frames 100 --warmup 20 --quiet --json "$res/copy_after.json" > "$res/copy_after.txt" 2>&1; say "copy after $?"
