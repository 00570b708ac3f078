#!/usr/bin/env bash
# Issue 22: bench with one resident input against three (rotated graphs), fft.vkfft fused at 4K fp32, twice each;
# the copy floor in every call.
set -u
trap 'tar -C /tmp/resh -czf "$1/sitting_h.tgz" .' EXIT
out="$1"; res=/tmp/resh; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
for k in a b; do
  for n in 1 3; do
    $N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft,direct.separable --param kernel=gaussian \
      --inputs $n --sweep radius=1,8,32,127 --frames 50 --warmup 10 --no-error --json "$res/inputs${n}_$k.json" > "$res/inputs${n}_$k.txt" 2>&1; say "inputs $n $k $?"
  done
done
$N bench --filter convolve --sizes 3840x2160 --precision fp32 --methods fft.vkfft,direct.full2d --param kernel=disk \
  --inputs 1 --sweep radius=1,2,4,8,16,32 --frames 30 --warmup 5 --no-error --json "$res/cross_disk_inputs1.json" > "$res/cross_disk_inputs1.txt" 2>&1; say "disk $?"
