#!/usr/bin/env bash
# Issue 22: fft.vkfft fused (VkFFT's convolution mode) against separate, 4K fp32 disks; whether the time's spread
# across radii follows the radius order (bench) or stays in one graph (run --timings).
set -u
trap 'tar -C /tmp/rese -czf "$1/sitting_e.tgz" .' EXIT
out="$1"; res=/tmp/rese; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft --param kernel=disk \
  --sweep transform=fused,separate --sweep radius=1,4,8,16,32,64,127 --frames 50 --warmup 10 --no-error \
  --json "$res/transform_4k.json" > "$res/transform_4k.txt" 2>&1; say "transform $?"
$N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft --param kernel=disk \
  --sweep radius=127,64,32,16,8,4,1 --frames 50 --warmup 10 --no-error \
  --json "$res/reversed_4k.json" > "$res/reversed_4k.txt" 2>&1; say "reversed $?"
for r in 1 8 32; do
  $N run --headless --size 3840x2160 --frames 100 --warmup 20 --chain convolve:kernel=disk:radius=$r:precision=fp32 \
    --timings "$res/run_r$r.json" --quiet > "$res/run_r$r.txt" 2>&1; say "run $r $?"
done
$N bench --filter convolve --sizes 1920x1080,7680x4320 --precision fp32 --methods fft.vkfft --param kernel=disk \
  --sweep radius=1,32,127 --frames 30 --warmup 5 --no-error --json "$res/fused_other.json" > "$res/fused_other.txt" 2>&1; say "other $?"
python3 b/bench/fft_peers.py --out "$res/fft_peers.json" --sizes 3840x2160 --radii 1,32,127 > "$res/fft_peers.txt" 2>&1; say "peers $?"
