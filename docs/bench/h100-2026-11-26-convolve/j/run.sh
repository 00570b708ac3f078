#!/usr/bin/env bash
# Issue 22: the crossover map over image sizes (bench, fft.vkfft against direct.full2d with disks and direct.separable
# with Gaussians, r = 1..127 where the direct methods finish), and the FFT peers in bench's schema.
set -u
trap 'tar -C /tmp/resj -czf "$1/sitting_j.tgz" .' EXIT
out="$1"; res=/tmp/resj; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
for size in 1920x1080 3840x2160 7680x4320; do
  $N bench --filter convolve --sizes $size --precision fp32 --methods fft.vkfft,direct.full2d --param kernel=disk --no-error \
    --sweep radius=1,2,4,8,16,32 --frames 20 --warmup 5 --json "$res/disk_$size.json" > "$res/disk_$size.txt" 2>&1; say "disk $size $?"
  $N bench --filter convolve --sizes $size --precision fp32 --methods fft.vkfft,direct.separable --param kernel=gaussian --no-error \
    --sweep radius=1,2,4,8,16,32,64,127 --frames 20 --warmup 5 --json "$res/gauss_$size.json" > "$res/gauss_$size.txt" 2>&1; say "gauss $size $?"
done
python3 b/bench/fft_peers.py --out "$res/fft_peers.json" --sizes 1920x1080,3840x2160,7680x4320 --radii 1,2,4,8,16,32,64,127 \
  > "$res/fft_peers.txt" 2>&1; say "peers $?"
