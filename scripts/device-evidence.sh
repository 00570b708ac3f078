#!/usr/bin/env bash
# Runs on the GPU server from inside the bundle (scripts/bundle.sh copies it there):
#   ./device-evidence.sh OUT_DIR [quick|peers|validation]
# validation: every method of every family (bench --filter F, its own sizes, 257x131, fp32 and fp16)
# and scenes (the built-in one, the lab scene, temporal chains) with --validation: exits 1 if any
# run reports a message (exit 4) or fails, naming it. Run it after every shader change: NVIDIA's
# driver specializes modules that lavapipe's layer run never sees (issue #54).
# 1. device facts and method availability; 2. every method against the CPU reference on this GPU
# with validation on (fp32 and fp16, an odd size, every radius); 3. the benchmark at 3840x2160 and 1920x1080
# (fp16, 100 frames after 20 warm-up, 3 rotated inputs, copy floor in the same run); 4. the quality
# table (every method against frag.full2d on the tonemapped scene). `peers` runs only bench/peers.py
# (PyTorch, CuPy and NVIDIA's NPP on the same GPU, same workloads, filterlab's JSON schema; NPP in fp32,
# the precision its four-channel filters have), for a second command
# in the same sitting: python3 must be the one that has torch and cupy.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: device-evidence.sh OUT_DIR [quick]}"
mode="${2:-full}"
mkdir -p "$out"
if [ "$mode" = peers ]; then
  start=$(date +%s)
  for size in 3840x2160 1920x1080; do
    python3 "$here/bench/peers.py" --out "$out/peers_${size}.json" --sizes "$size" --precisions fp16,fp32 \
      --frames 100 --warmup 20 --inputs 3 > "$out/peers_${size}.txt" 2>&1
    echo "peers $size exit $? after $(( $(date +%s) - start )) s" >&2
  done
  exit 0
fi
run() { echo "+ filterlab $*" >&2; "$here/run.sh" "$@"; echo "exit $?" >&2; }
if [ "$mode" = validation ]; then
  failed=()
  check() {  # NAME ARGS...: one run with --validation, its output in OUT/validation_NAME.txt
    local name="$1"
    shift
    "$here/run.sh" "$@" --validation > "$out/validation_$name.txt" 2>&1
    local code=$?
    echo "validation $name: exit $code" >&2
    [ "$code" = 0 ] || failed+=("$name (exit $code)")
  }
  families=$("$here/run.sh" methods 2>/dev/null | awk '/^[a-z]/ && $1 ~ /[.]/ {sub(/[.].*/, "", $1); print $1}' | sort -u)
  [ -n "$families" ] || { echo "validation: no families listed" >&2; exit 1; }
  for family in $families; do
    check "bench_$family" bench --filter "$family" --sizes 257x131 --precision fp32,fp16 --frames 3 --warmup 1 \
      --warmup-ms 0 --json "$out/validation_bench_$family.json"
  done
  check scene_builtin run --headless --size 640x360 --frames 8 --chain "gaussian,bilateral,tent,variance,fxaa"
  check scene_temporal run --headless --size 640x360 --frames 16 --chain "taa,bigblur.comp.mip_poisson_temporal"
  check scene_lab run --headless --size 640x360 --frames 8 --scene "$here/assets/lab/lab.glb" \
    --chain "taa,bigblur:sigma=8,convolve"
  # FLIP: HDR-FLIP with the range found on the GPU, LDR-FLIP of sRGB pictures at another ppd, and
  # compare's --gpu on captured files.
  check flip_hdr run --headless --size 640x360 --frames 8 --chain gaussian --flip scene,gaussian
  check flip_ldr run --headless --size 640x360 --frames 8 --chain gaussian --flip final,final --ppd 30
  "$here/run.sh" run --headless --size 641x359 --frames 2 --chain bilateral --quiet --capture "scene=$out/flip_a.pfm" \
    --capture "bilateral=$out/flip_b.pfm" > /dev/null 2>&1
  check flip_compare_gpu compare "$out/flip_a.pfm" "$out/flip_b.pfm" --gpu
  if [ ${#failed[@]} -gt 0 ]; then
    echo "validation FAILED: ${failed[*]}" >&2
    exit 1
  fi
  echo "validation: every family and scene clean" >&2
  exit 0
fi
start=$(date +%s)
run info --json "$out/device.json" > "$out/info.txt" 2>&1
run methods --json > "$out/methods.json" 2> "$out/methods.err"

run bench --validation --sizes 257x131 --precision fp32 --radii 1,2,3,4,7,8,16,32 --frames 3 --warmup 1 --warmup-ms 0 \
  --json "$out/correctness_257x131_fp32.json" > "$out/correctness.txt" 2>&1
# Methods that serve fp16 images only (half arithmetic) are skipped in fp32: the same in fp16.
run bench --validation --sizes 257x131 --precision fp16 --radii 1,2,3,4,7,8,16,32 --frames 3 --warmup 1 --warmup-ms 0 \
  --json "$out/correctness_257x131_fp16.json" > "$out/correctness_fp16.txt" 2>&1
echo "correctness done after $(( $(date +%s) - start )) s" >&2
if [ "$mode" = quick ]; then exit 0; fi
mkdir -p "$out/captures"
# Fragment methods at r = 16 and 32 take up to 0.6 s a frame on a chip with few graphics units and
# would take most of the run: they are timed to r = 8 at 4K (every radius is in the correctness run).
# The gaussian family's methods by stage (the copy family is measured by every bench: the floor).
compute=$("$here/run.sh" methods 2>/dev/null | awk '$1 ~ /^gaussian[.]/ && $2 == "compute" {sub(/^gaussian[.]/, "", $1); printf "%s%s", sep, $1; sep=","}')
fragment=$("$here/run.sh" methods 2>/dev/null | awk '$1 ~ /^gaussian[.]/ && $2 == "fragment" {sub(/^gaussian[.]/, "", $1); printf "%s%s", sep, $1; sep=","}')
bench4k() {  # NAME METHODS RADII
  run bench --sizes 3840x2160 --precision fp16 --frames 100 --warmup 20 --inputs 3 --captures "$out/captures" \
    --methods "$2" --radii "$3" --json "$out/bench_3840x2160_fp16_$1.json" --csv "$out/bench_3840x2160_fp16_$1.csv" \
    > "$out/bench_3840x2160_$1.txt" 2>&1
  echo "4K $1 bench done after $(( $(date +%s) - start )) s" >&2
}
bench4k compute "$compute" 1,2,3,4,8,16,32
bench4k fragment "$fragment" 1,2,3,4,8
run bench --sizes 1920x1080 --precision fp16 --frames 100 --warmup 20 --inputs 3 --radii 1,2,3,4,8 --no-error \
  --json "$out/bench_1920x1080_fp16.json" --csv "$out/bench_1920x1080_fp16.csv" > "$out/bench_1920x1080.txt" 2>&1
echo "1080p bench done after $(( $(date +%s) - start )) s" >&2
run report "$out"/bench_*.json --out "$out/report.html" > /dev/null 2>&1
run quality --size 1280x720 --markdown "$out/quality.md" --json "$out/quality.json" > "$out/quality.txt" 2>&1
echo "all done after $(( $(date +%s) - start )) s" >&2
