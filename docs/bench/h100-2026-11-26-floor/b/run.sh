#!/usr/bin/env bash
# Issue 23, sitting b: comp.separable_shuffle's strip height (host builds with SHUFFLE_ROWS 16 / 32 / 64 / 128,
# one strip per group, groups dispatched in order so the strips in flight form a band) x batch (8, 4), 4K,
# fp16 and fp32, r = 1 / 2 / 4; the filters cut to the centre tap (MEM4); stream and fused beside them.
set -u
trap 'tar -C /tmp/resfb -czf "$1/sitting_fb.tgz" .' EXIT
out="$1"; res=/tmp/resfb; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
tar -C b -xJf hostvariants.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > $res/gpu.txt 2>&1
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,4 --no-error --frames 100"
$N $B --methods comp.separable_stream,comp.separable_fused,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
for R in 16 32 64 128; do
  exe=filterlab_R$R; [ $R = 64 ] && exe=filterlab
  for v in B8 B4; do
    src=""; [ $v = B4 ] && src="--shader-source sh_B4"
    FILTERLAB_EXE=$exe $N $B --methods comp.separable_shuffle $src --json $res/R${R}_$v.json > $res/R${R}_$v.txt 2>&1; say "R$R $v $?"
  done
done
for R in 32 64; do
  exe=filterlab_R$R; [ $R = 64 ] && exe=filterlab
  FILTERLAB_EXE=$exe $N $B --methods comp.separable_shuffle --shader-source sh_MEM4 --json $res/R${R}_MEM4.json > $res/R${R}_MEM4.txt 2>&1; say "R$R MEM4 $?"
done
