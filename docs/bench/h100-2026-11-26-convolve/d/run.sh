#!/usr/bin/env bash
# Issue 22, after one VkFFT plan per graph buffer (no rebinding) and 7-smooth sizes: 4K fp32, the target and the crossover.
set -u
trap 'tar -C /tmp/resd -czf "$1/sitting_d.tgz" .' EXIT
out="$1"; res=/tmp/resd; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft --param kernel=disk \
  --sweep radius=1,4,8,16,32,64,127 --frames 50 --warmup 10 --no-error --json "$res/fft_4k.json" > "$res/fft_4k.txt" 2>&1; say "fft4k $?"
$N bench --filter convolve --sizes 7680x4320,1920x1080 --precision fp32 --methods fft.vkfft --param kernel=disk \
  --sweep radius=1,8,32,127 --frames 30 --warmup 5 --no-error --json "$res/fft_other.json" > "$res/fft_other.txt" 2>&1; say "fftother $?"
