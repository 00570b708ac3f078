#!/usr/bin/env bash
# Issue 23, sitting g: comp.separable_shuffle with the next batch fetched while this one is filtered (PF; PF2:
# batches of 2 rows in fp16, 4 in fp32; PF8: 8 and 16), strips of 16 (as committed) / 24 / 32 / 48 rows
# (host builds), 4K, fp16 and fp32, r = 1 / 2 / 4.
set -u
trap 'tar -C /tmp/resfg -czf "$1/sitting_fg.tgz" .' EXIT
out="$1"; res=/tmp/resfg; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
tar -C b -xJf hostvariants.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > "$res/gpu.txt" 2>&1
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,4 --no-error --frames 100"
$N $B --methods comp.separable_stream,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
for R in 16 24 32 48; do
  exe=filterlab_R$R; [ $R = 16 ] && exe=filterlab
  for v in PF PF2 PF8; do
    FILTERLAB_EXE=$exe $N $B --methods comp.separable_shuffle --shader-source sh_$v --json $res/R${R}_$v.json > $res/R${R}_$v.txt 2>&1; say "R$R $v $?"
  done
done
