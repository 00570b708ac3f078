#!/usr/bin/env bash
# frag.full2d at fp16, 960x540, on the H100: the build before #31 (old), after it (new), and the
# window drivers' fetch loop compiled at run time from dist/gw/src{A,B,C} (A: as committed, B: the
# row's columns not forced to unroll, C: the rows kept rolled with [[dont_unroll]]).
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
w=/tmp/gw
mkdir -p $w/new $w/old
tar xzf dist/gw/new.tar.gz -C $w/new
tar xzf dist/gw/old.tar.gz -C $w/old
cp -r $w/new/lib $w/new/layers $w/new/run.sh $w/old/
args=(bench --filter gaussian --methods frag.full2d --radii 1,4,8,16,24,28,30,32 --precision fp16 --sizes 960x540
      --frames 30 --warmup-ms 100 --no-error --quiet)
for round in 1 2; do
  $w/old/run.sh "${args[@]}" --json $OUT/old-$round.json >>$OUT/log.txt 2>&1
  $w/new/run.sh "${args[@]}" --json $OUT/new-$round.json >>$OUT/log.txt 2>&1
  for v in A B C; do
    $w/new/run.sh "${args[@]}" --shader-source dist/gw/src$v --json $OUT/src$v-$round.json >>$OUT/log.txt 2>&1
  done
done
cd $OUT && tar czf unroll.tar.gz *.json && rm -f *.json
