#!/usr/bin/env bash
# Issue 21: bigblur at 4K fp16, every method and sigma, beside the copy floor; errors against comp.exact on the
# tonemapped scene; the Gaussian family's fastest exact method where it serves the radius; the temporal method's time.
set -u
trap 'tar -C /tmp/resq -czf "$1/sitting_q.tgz" .' EXIT
out="$1"; res=/tmp/resq; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.recursive,comp.mip_poisson,comp.dual_filter,comp.cod13 \
  --sweep sigma=4,8,16,32,64,128,256 --sweep samples=8,16,32,64 --frames 50 --warmup 10 --json "$res/bigblur.json" > "$res/bigblur.txt" 2>&1; say "bigblur $?"
$N bench --filter bigblur --sizes 3840x2160 --precision fp16 --methods comp.exact --no-error \
  --sweep sigma=4,8,16,32,64,128,256 --frames 10 --warmup 2 --json "$res/exact.json" > "$res/exact.txt" 2>&1; say "exact $?"
for rs in 16:4 32:8; do
  $N bench --filter gaussian --sizes 3840x2160 --precision fp16 --methods comp.separable_stream,comp.separable_shared --no-error \
    --radius ${rs%%:*} --sigma ${rs##*:} --frames 50 --warmup 10 --json "$res/gaussian_r${rs%%:*}.json" > "$res/gaussian_r${rs%%:*}.txt" 2>&1; say "gaussian $rs $?"
done
for s in 8 64 256; do
  $N run --headless --size 3840x2160 --frames 50 --warmup 10 --chain bigblur.comp.mip_poisson_temporal:sigma=$s:samples=8 \
    --timings "$res/temporal_s$s.json" --quiet > "$res/temporal_s$s.txt" 2>&1; say "temporal $s $?"
done
