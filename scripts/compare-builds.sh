#!/usr/bin/env bash
# Filters one random image with every method of a family in two builds and compares the outputs:
# for a change that moves code, the methods it did not touch must come out bit for bit the same,
# and the ones it moved within their family's tolerance.
#
#   scripts/compare-builds.sh OLD_BINARY NEW_BINARY FAMILY [POINT ...]
#
# POINT is a parameter set as `filter --param` takes it, keys joined by ':' (radius=3:kernel=box);
# default: radius 1, 2, 3, 5, 8, 13, 16, 28 and 32. Each point runs at fp16 and fp32 on a 61x37
# image of uniform noise in [0, 1) (three channels: PFM). One line per method, point and precision:
# "identical", the largest difference (filterlab compare's max_abs), or why a build did not run it.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,12p' "$0"
  exit 2
fi
old=$1 new=$2 family=$3
shift 3
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
