#!/usr/bin/env bash
# Issue 22: one graph each (run --timings, 100 frames after 20): fft.vkfft fused against separate, direct.full2d,
# direct.separable with a Gaussian, at 4K fp32; fused at 8K and 1080p.
set -u
trap 'tar -C /tmp/resf -czf "$1/sitting_f.tgz" .' EXIT
out="$1"; res=/tmp/resf; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
one() {  # name size chain
  $N run --headless --size $2 --frames 100 --warmup 20 --chain "$3" --timings "$res/$1.json" --quiet > "$res/$1.txt" 2>&1; say "$1 $?"
}
for r in 1 8 32 64 127; do
  for t in fused separate; do one "fft_${t}_r$r" 3840x2160 "convolve.fft.vkfft:kernel=disk:radius=$r:transform=$t:precision=fp32"; done
done
for r in 1 4 8 16 32; do one "direct_r$r" 3840x2160 "convolve.direct.full2d:kernel=disk:radius=$r:precision=fp32"; done
for r in 1 8 32 127; do one "separable_r$r" 3840x2160 "convolve.direct.separable:kernel=gaussian:radius=$r:precision=fp32"; done
for s in 1920x1080 7680x4320; do one "fft_fused_r32_$s" $s "convolve.fft.vkfft:kernel=disk:radius=32:precision=fp32"; done
$N bench --filter copy --sizes 3840x2160 --precision fp32 --frames 50 --warmup 10 --json "$res/copy.json" > "$res/copy.txt" 2>&1; say "copy $?"
