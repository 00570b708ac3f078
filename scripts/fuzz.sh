#!/usr/bin/env bash
# Runs one fuzz target (tests/fuzz/targets.cpp) for SECONDS with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer (the clang install-deps.sh --fuzz installed: 14 on Debian 12, 19 on
# Debian 13), building build-fuzz/ first where needed.
#   scripts/fuzz.sh TARGET SECONDS     TARGET: png jpeg pfm exr gltf kernel chain tune report
# The corpus grows in build-fuzz/corpus/TARGET, seeded from tests/fuzz/corpus/TARGET and
# tests/fuzz/regressions/TARGET; a crash, a hang (an input over 1 s), a leak or an input that takes
# more than 2 GiB lands in build-fuzz/findings/TARGET/, and the run's log in build-fuzz/logs/. Copy
# a finding to tests/fuzz/regressions/TARGET/ (the unit tests run every file there) before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS" >&2
  exit 2
fi
target=$1 seconds=$2
declare -A max_len=([png]=65536 [jpeg]=65536 [pfm]=65536 [exr]=65536 [gltf]=65536 [kernel]=16384
                    [chain]=1024 [tune]=16384 [report]=65536)
if [ -z "${max_len[$target]:-}" ]; then
  echo "fuzz.sh: unknown target '$target' (targets: ${!max_len[*]})" >&2
  exit 2
fi
./scripts/install-deps.sh --fuzz
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  clang=$(ls /usr/bin/clang++-14 /usr/bin/clang++-19 2>/dev/null | head -1)
  [ -n "$clang" ] || { echo "fuzz.sh: no clang++-14 or clang++-19" >&2; exit 1; }
  CC="${clang/clang++/clang}" CXX="$clang" cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFILTERLAB_FUZZ=ON \
    -DFILTERLAB_TESTS=OFF >/dev/null
fi
cmake --build build-fuzz -j"$(nproc)" --target "filterlab_fuzz_$target"
mkdir -p "build-fuzz/corpus/$target" "build-fuzz/findings/$target" build-fuzz/logs "tests/fuzz/regressions/$target"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0"
export UBSAN_OPTIONS="print_stacktrace=1"
"build-fuzz/tests/fuzz/filterlab_fuzz_$target" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 \
  -max_len="${max_len[$target]}" -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$target/" \
  "build-fuzz/corpus/$target" "tests/fuzz/corpus/$target" "tests/fuzz/regressions/$target" \
  2>&1 | tee "build-fuzz/logs/$target.log"
