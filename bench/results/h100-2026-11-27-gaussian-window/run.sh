#!/usr/bin/env bash
# One sitting on the H100: the seven Gaussian methods the window drivers make since #31, timed with
# the bundle before the change (old: the binary and SPIR-V of 0564a95) and after it (new), r = 1..32,
# fp16 and fp32 (one call each, or part of one). $1 = compute: the four compute
# methods at 3840x2160; $1 = fragment: the three fragment methods at 960x540 (fragment shading runs
# on few units there: frag.full2d at r = 13 takes 103 ms a frame at 3840x2160).
# Carried: .gl (the loader), dist/gw/new.tar.gz (the bundle), dist/gw/old.tar.gz (filterlab, shaders/).
set -u
source "$(dirname "$0")/setup.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >$OUT/gpu.txt 2>&1
# $5, optional: the methods, if not all of the mode's.
if [ "$1" = compute ]; then
  methods=comp.full2d_shared,comp.quad_subgroup,comp.quad_derivative,comp.separable_shared
  args=(--sizes 3840x2160 --frames 60 --warmup-ms 250)
else
  methods=frag.full2d,frag.quad_derivative,frag.quad_derivative_coarse
  args=(--sizes 960x540 --frames 30 --warmup-ms 100)
fi
methods=${5:-$methods}
# $2: fp16 or fp32; $3, $4: the first and last radius; old and new alternate, 8 radii at a time.
for ((first = $3; first <= $4; first += 8)); do
  last=$((first + 7 < $4 ? first + 7 : $4))
  for b in old new; do
    $w/$b/run.sh bench --filter gaussian --methods $methods --radii "$(seq -s, $first $last)" --precision $2 \
      "${args[@]}" --no-error --quiet --json $OUT/$b-$1-$2-r$first.json >>$OUT/log-$1.txt 2>&1
  done
done
cd $OUT && tar czf $1-$2-r$3-$4${5:+-$(echo "$5" | tr -c "a-z0-9_\n" -)}.tar.gz old-*.json new-*.json && rm -f old-*.json new-*.json
