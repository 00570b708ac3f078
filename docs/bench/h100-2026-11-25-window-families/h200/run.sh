#!/usr/bin/env bash
# Issue 19, final sitting at the revision documented: every method of the three families, quality, coarse against content.
set -u
trap 'tar -C /tmp/resh -czf "$1/sitting_h.tgz" .' EXIT
out="$1"; res=/tmp/resh; mkdir -p $res; N=./b/run.sh; t0=$(date +%s)
say() { echo "[$(( $(date +%s) - t0 )) s] $*" | tee -a "$res/log.txt"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$res/gpu.txt" 2>&1
$N quality --json "$res/quality.json" --markdown "$res/quality.md" > "$res/quality.txt" 2>&1; say "quality $?"
e=/tmp/e; mkdir -p $e
$N run --headless --size 1280x720 --frames 1 --capture final=$e/scene.pfm > $res/scene.txt 2>&1; say "scene $?"
$N filter --filter gaussian --method comp.separable_shared --param radius=4 --param precision=fp32 --input $e/scene.pfm --output $e/smooth.pfm >> $res/scene.txt 2>&1; say "smooth $?"
pairs=""
for img in scene smooth; do for f in gaussian tent variance bilateral; do
  for m in frag.full2d frag.quad_derivative frag.quad_derivative_coarse; do
    $N filter --filter $f --method $m --param radius=1 --param precision=fp32 --input $e/$img.pfm --output $e/${img}_${f}_$m.pfm >> $res/scene.txt 2>&1
  done
  pairs="$pairs $e/${img}_${f}_frag.quad_derivative_coarse.pfm $e/${img}_${f}_frag.full2d.pfm $e/${img}_${f}_frag.quad_derivative.pfm $e/${img}_${f}_frag.full2d.pfm"
done; done
python3 mse.py $pairs > $res/coarse_content.txt 2>&1; say "coarse content $?"
$N bench --filter variance --sizes 3840x2160 --precision fp16 --radii 1,2,3,5,8 --frames 100 --warmup 20 --no-error --quiet \
  --json "$res/bench_variance.json" > "$res/bench_variance.txt" 2>&1; say "bench variance $?"
for f in tent bilateral; do
  $N bench --filter $f --sizes 3840x2160 --precision fp16 \
    --radii 1,2,3,5,8 --frames 100 --warmup 20 --no-error --quiet --json "$res/bench_$f.json" > "$res/bench_$f.txt" 2>&1; say "bench $f $?"
done
$N bench --filter variance --methods comp.stream,comp.full2d_shared --sizes 3840x2160 --precision fp16 --radii 16,32 \
  --frames 100 --warmup 20 --no-error --quiet --json "$res/bench_variance_large.json" > "$res/bench_variance_large.txt" 2>&1; say "large $?"
