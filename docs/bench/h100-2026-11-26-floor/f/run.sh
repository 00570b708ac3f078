#!/usr/bin/env bash
# Issue 23, sitting f: comp.separable_shuffle with groups of 128 and 256 threads (host and shader builds), fp16
# fetches as mediump (MP); NPP and filterlab's best exact fp32 methods at r = 16 and 32 in one sitting.
set -u
trap 'tar -C /tmp/resff -czf "$1/sitting_ff.tgz" .' EXIT
out="$1"; res=/tmp/resff; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
tar -C b -xJf hostvariants.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv > "$res/gpu.txt" 2>&1
B="bench --filter gaussian --sizes 3840x2160 --precision fp16,fp32 --radii 1,2,3,4 --no-error --frames 100"
$N $B --methods comp.separable_stream,comp.separable_shuffle --json $res/base.json > $res/base.txt 2>&1; say "base $?"
for T in 128 256; do
  FILTERLAB_EXE=filterlab_T$T $N $B --methods comp.separable_shuffle --shader-source sh_T$T --json $res/T$T.json > $res/T$T.txt 2>&1; say "T$T $?"
done
$N $B --methods comp.separable_shuffle --shader-source sh_MP --json $res/MP.json > $res/MP.txt 2>&1; say "MP $?"
$N bench --filter gaussian --sizes 3840x2160 --precision fp32 --radii 16,32 --no-error --frames 100 \
  --methods comp.separable_stream,comp.separable_shared --json $res/large.json > $res/large.txt 2>&1; say "large $?"
python3 b/bench/peers.py --peers npp.row_column,npp.gauss_advanced --precision fp32 --radii 16,32 \
  --out $res/npp_large.json --quiet > $res/npp_large.txt 2>&1; say "npp $?"
