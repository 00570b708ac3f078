#!/usr/bin/env bash
# Issue 22: direct.full2d's inner loop unrolled (E: every chunk, the tail's taps zero-weighted; H: whole chunks only,
# the tail as before) against the method, one graph each, r = 4 / 8 / 32, 4K fp32.
set -u
trap 'tar -C /tmp/resk -czf "$1/sitting_k.tgz" .' EXIT
out="$1"; res=/tmp/resk; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
for v in base E H; do
  src=""; [ $v != base ] && src="--shader-source sh_$v"
  for r in 1 4 8 16 32; do
    $N run --headless --size 3840x2160 --frames 60 --warmup 10 $src \
      --chain "convolve.direct.full2d:kernel=disk:radius=$r:precision=fp32" --timings "$res/${v}_r$r.json" --quiet > "$res/${v}_r$r.txt" 2>&1; say "$v $r $?"
  done
done
