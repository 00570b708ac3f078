#!/usr/bin/env bash
# Issue 23, sitting d: comp.separable_shuffle as committed (strips of 16 rows; batches of 4 rows in fp16, 8 in
# fp32) beside every fast exact method, twice; strip heights 8 / 24 / 32 (host builds); the batches swapped
# (SWAP); errors at 257x131 on this GPU (its subgroups of 32 serve r <= 8, lavapipe's r <= 2); NPP in fp32.
set -u
trap 'tar -C /tmp/resfd -czf "$1/sitting_fd.tgz" .' EXIT
out="$1"; res=/tmp/resfd; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
tar -C b -xJf hostvariants.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > $res/gpu.txt 2>&1
M=comp.separable_stream,comp.separable_fused,comp.separable_shuffle,comp.separable_stream_half
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,3,4,8 --no-error --frames 100"
$N $B --methods $M --json $res/base1.json > $res/base1.txt 2>&1; say "base1 $?"
$N bench --filter gaussian --sizes 257x131 --precision fp16,fp32 --radii 1,2,3,4,5,8 --frames 5 \
  --methods comp.separable_stream,comp.separable_shuffle --json $res/errors.json > $res/errors.txt 2>&1; say "errors $?"
for R in 8 24 32; do
  FILTERLAB_EXE=filterlab_R$R $N $B --methods comp.separable_shuffle --json $res/R$R.json > $res/R$R.txt 2>&1; say "R$R $?"
done
$N $B --methods comp.separable_shuffle --shader-source sh_SWAP --json $res/SWAP.json > $res/SWAP.txt 2>&1; say "SWAP $?"
$N $B --methods $M --json $res/base2.json > $res/base2.txt 2>&1; say "base2 $?"
python3 b/bench/peers.py --peers npp.row_column,npp.gauss_advanced,npp.border_2d --precision fp32 --radii 1,2,4,8 \
  --out $res/npp.json --quiet > $res/npp.txt 2>&1; say "npp $?"
