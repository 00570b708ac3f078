#!/usr/bin/env bash
# Issue 23, sitting c: comp.separable_shuffle on two rows a subgroup (16 x 2 lanes), strip height (host builds
# with SHUFFLE_ROWS 16 / 32 / 64 / 128) x batch (4 / 8 / 16), 4K, fp16 and fp32, r = 1 / 2 / 4 / 8; stream
# and fused beside them.
set -u
trap 'tar -C /tmp/resfc -czf "$1/sitting_fc.tgz" .' EXIT
out="$1"; res=/tmp/resfc; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
tar -C b -xJf hostvariants.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > $res/gpu.txt 2>&1
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,4,8 --no-error --frames 100"
$N $B --methods comp.separable_stream,comp.separable_fused,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
for R in 64 32 128 16; do
  exe=filterlab_R$R; [ $R = 64 ] && exe=filterlab
  for v in B8 B4 B16; do
    [ $R = 16 ] && [ $v = B16 ] && continue
    src=""; [ $v != B8 ] && src="--shader-source sh_$v"
    FILTERLAB_EXE=$exe $N $B --methods comp.separable_shuffle $src --json $res/R${R}_$v.json > $res/R${R}_$v.txt 2>&1; say "R$R $v $?"
  done
done
