#!/usr/bin/env bash
# Issue 22: VkFFT's configuration knobs on fft.vkfft fused, 4K fp32 65x65 disk, one graph each (run --timings).
set -u
trap 'tar -C /tmp/resi -czf "$1/sitting_i.tgz" .' EXIT
out="$1"; res=/tmp/resi; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
i=0
for tune in "" coalesced=64 coalesced=128 threads=64 threads=256 threads=512 boost=2 boost=4 lut=1 bandwidth=2 bandwidth=4 "coalesced=64,threads=256" ""; do
  i=$((i+1))
  for t in fused separate; do
    FILTERLAB_VKFFT_TUNE="$tune" $N run --headless --size 3840x2160 --frames 60 --warmup 10 \
      --chain "convolve.fft.vkfft:kernel=disk:radius=32:transform=$t:precision=fp32" --timings "$res/t${i}_$t.json" --quiet > "$res/t${i}_$t.txt" 2>&1
    say "$i [$tune] $t $?"
  done
done
