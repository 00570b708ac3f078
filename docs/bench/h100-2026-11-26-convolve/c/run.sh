#!/usr/bin/env bash
# Issue 22: convolve at 4K fp32 (65 x 65 disk: fft.vkfft against direct.full2d, beside the copy floor), the
# crossover over kernel size x image size x method, and the FFT peers (torch.fft, cupyx fftconvolve).
set -u
trap 'tar -C /tmp/resc -czf "$1/sitting_c.tgz" .' EXIT
out="$1"; res=/tmp/resc; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft,direct.full2d --param kernel=disk \
  --sweep radius=32 --frames 50 --warmup 10 --json "$res/target.json" > "$res/target.txt" 2>&1; say "target $?"
for size in 1920x1080 3840x2160 7680x4320; do
  $N bench --filter convolve --sizes $size --precision fp32 --methods fft.vkfft,direct.full2d --param kernel=disk --no-error \
    --sweep radius=1,2,4,8,16,32,64,127 --frames 20 --warmup 5 --json "$res/cross_disk_$size.json" > "$res/cross_disk_$size.txt" 2>&1; say "disk $size $?"
  $N bench --filter convolve --sizes $size --precision fp32 --methods fft.vkfft,direct.separable --param kernel=gaussian --no-error \
    --sweep radius=1,2,4,8,16,32,64,127 --frames 20 --warmup 5 --json "$res/cross_gauss_$size.json" > "$res/cross_gauss_$size.txt" 2>&1; say "gauss $size $?"
done
python3 b/bench/fft_peers.py --out "$res/fft_peers.json" --sizes 1920x1080,3840x2160,7680x4320 --radii 8,32,127 > "$res/fft_peers.txt" 2>&1; say "peers $?"
