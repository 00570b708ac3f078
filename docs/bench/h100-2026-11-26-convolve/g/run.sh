#!/usr/bin/env bash
# Issue 22: direct.full2d's variants, one graph each (run --timings): A the chunk's weights in shared memory, B read
# from the buffer every tap (git 212d061), D A with two levels of sums instead of three.
set -u
trap 'tar -C /tmp/resg -czf "$1/sitting_g.tgz" .' EXIT
out="$1"; res=/tmp/resg; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
for v in A B D; do
  for r in 8 32; do
    $N run --headless --size 3840x2160 --frames 60 --warmup 10 --shader-source sh_$v \
      --chain "convolve.direct.full2d:kernel=disk:radius=$r:precision=fp32" --timings "$res/${v}_r$r.json" --quiet > "$res/${v}_r$r.txt" 2>&1; say "$v $r $?"
  done
done
