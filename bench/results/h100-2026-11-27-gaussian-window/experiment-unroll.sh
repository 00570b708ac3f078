#!/usr/bin/env bash
# frag.full2d at fp16, 960x540, on the H100: the build before #31 (old), after it (new), and the
# window drivers' fetch loop compiled at run time from dist/gw/src{A,B,C} (A: as committed, B: the
# row's columns not forced to unroll, C: the rows kept rolled with [[dont_unroll]]).
set -u
source "$(dirname "$0")/setup.sh"
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
