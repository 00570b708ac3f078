#!/usr/bin/env bash
# Filters one random image with every method of a family in two builds and compares the outputs:
# for a change that moves code, the methods it did not touch must come out bit for bit the same,
# and the ones it moved within their family's tolerance.
#
#   scripts/compare-builds.sh OLD_BINARY NEW_BINARY FAMILY [POINT ...]
#   scripts/compare-builds.sh OLD_BINARY NEW_BINARY --scene CHAIN [CHAIN ...]
#
# POINT is a parameter set as `filter --param` takes it, keys joined by ':' (radius=3:kernel=box);
# default: radius 1, 2, 3, 5, 8, 13, 16, 28 and 32. Each point runs at fp16 and fp32 on a 61x37
# image of uniform noise in [0, 1) (three channels: PFM). One line per method, point and precision:
# "identical", the largest difference (filterlab compare's max_abs), or why a build did not run it.
# --scene: for steps that read the scene (depth, motion, history: TAA), a headless run of 6 frames
# of the scene at 97x61 with each chain, its step's image and the scene's final, depth and motion
# images compared byte for byte.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,16p' "$0"
  exit 2
fi
old=$1 new=$2 family=$3
shift 3

if [ "$family" = --scene ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  identical=0 differ=0 skipped=0
  for chain in "$@"; do
    rm -f "$work"/*
    step=${chain%%[.:]*}
    ran=yes
    for build in old new; do
      binary=$old
      [ $build = new ] && binary=$new
      "$binary" run --headless --size 97x61 --frames 6 --chain "$chain" --capture "$step=$work/$build.pfm" \
        --capture "final=$work/$build.png" --capture "depth=$work/$build-depth.pfm" \
        --capture "motion=$work/$build-motion.pfm" >"$work/$build.log" 2>&1 || ran=$build
    done
    if [ $ran != yes ]; then
      echo "$chain: $ran: $(tail -1 "$work/$ran.log")"; skipped=$((skipped + 1)); continue
    fi
    result=identical
    for image in .pfm .png -depth.pfm -motion.pfm; do
      cmp -s "$work/old$image" "$work/new$image" || result="differ ($image)"
    done
    echo "$chain: $result"
    if [ "$result" = identical ]; then identical=$((identical + 1)); else differ=$((differ + 1)); fi
  done
  echo "$identical identical, $differ differ, $skipped not run by both"
  exit 0
fi
points=("$@")
[ ${#points[@]} -gt 0 ] || points=(radius=1 radius=2 radius=3 radius=5 radius=8 radius=13 radius=16 radius=28 radius=32)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
perl -e 'srand(31); my ($w, $h) = (61, 37); print "PF\n$w $h\n-1.0\n";
         print pack("f<", rand()) for 1 .. $w * $h * 3;' >"$work/input.pfm"

methods() { "$1" methods | awk -v f="$family." 'index($1, f) == 1 { print substr($1, length(f) + 1) }'; }
mapfile -t all < <({ methods "$old"; methods "$new"; } | awk '!seen[$0]++')

run() {  # binary output method point precision
  local args=(filter --input "$work/input.pfm" --output "$2" --filter "$family" --method "$3" --param "precision=$5")
  local kv
  IFS=: read -ra kv <<<"$4"
  for p in "${kv[@]}"; do args+=(--param "$p"); done
  "$1" "${args[@]}" >"$2.log" 2>&1
}

identical=0 differ=0 skipped=0
for m in "${all[@]}"; do
  for point in "${points[@]}"; do
    for precision in fp16 fp32; do
      a=$work/old.pfm b=$work/new.pfm
      line="$m $point $precision:"
      if ! run "$old" "$a" "$m" "$point" "$precision"; then
        echo "$line old: $(tail -1 "$a.log")"; skipped=$((skipped + 1)); continue
      fi
      if ! run "$new" "$b" "$m" "$point" "$precision"; then
        echo "$line new: $(tail -1 "$b.log")"; skipped=$((skipped + 1)); continue
      fi
      if cmp -s "$a" "$b"; then
        echo "$line identical"; identical=$((identical + 1))
      else
        echo "$line max_abs $("$new" compare "$a" "$b" | awk '$1 == "max_abs" { print $2 }')"
        differ=$((differ + 1))
      fi
    done
  done
done
echo "$identical identical, $differ differ, $skipped not run by both"
