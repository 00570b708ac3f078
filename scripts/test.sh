#!/usr/bin/env bash
# The full test suite: installs dependencies, builds, runs the unit and GPU tiers (lavapipe,
# validation on) through ctest, under Xvfb when there is no display.
#   ./scripts/test.sh           everything (what CI runs)
#   ./scripts/test.sh --smoke   the smoke tier (ctest label "smoke"): unit tests, every method against
#                               its family's reference, headless runs, exit codes; under 3 minutes
#   ./scripts/test.sh --sanitize  the sanitizer tier, by hand (too slow for CI): builds build-sanitize/
#                               with ASan+UBSan (FILTERLAB_SANITIZE), runs the unit tests and the
#                               command line's bad-input suites; any sanitizer report fails it
set -euo pipefail
cd "$(dirname "$0")/.."
select=()
sanitize=0
case "${1:-}" in
  "") ;;
  --smoke) select=(-L smoke) ;;
  --sanitize) sanitize=1 ;;
  *) echo "usage: scripts/test.sh [--smoke | --sanitize]" >&2; exit 2 ;;
esac
./scripts/install-deps.sh
if [ "$sanitize" = 1 ]; then
  # RelWithDebInfo, as build/: the optimizer's code is what ships (and what UB breaks), UBSan's
  # object-size check needs optimization, -g still gives file:line in every stack.
  cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFILTERLAB_SANITIZE=ON >/dev/null
  cmake --build build-sanitize -j"$(nproc)" --target filterlab filterlab_unit_tests filterlab_gpu_tests
  # Any report ends the process with exit code 97, which no test expects. ASan and LSan reports
  # also go to files under $logs (the tests that run the binary print its output only when a check
  # fails); gcc 12's UBSan writes to stderr whatever log_path says, so the tests' output is searched
  # for its reports too. Any report file or report line fails the run.
  # Leaks: tests/sanitize/lsan.supp suppresses those allocated by the Vulkan loader, Mesa, LLVM and
  # the validation layer (by library; tests/sanitize/keep_modules.cpp keeps them loaded until the
  # leak check), so filterlab's own leaks are still reported. The environment reaches the filterlab
  # processes the GPU tests start (run_binary's popen inherits it).
  logs="$PWD/build-sanitize/sanitizer-logs"
  rm -rf "$logs" && mkdir -p "$logs"
  export ASAN_OPTIONS="halt_on_error=1:exitcode=97:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:log_path=$logs/asan"
  export UBSAN_OPTIONS="halt_on_error=1:exitcode=97:print_stacktrace=1"
  export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0"
  export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
  status=0
  build-sanitize/tests/filterlab_unit_tests 2>&1 | tee "$logs/unit.out" || status=1
  # The command line's bad-input suites, headless on lavapipe with validation on: no display needed.
  build-sanitize/tests/filterlab_gpu_tests --gtest_filter='CliExit.*:FilterInputs.*:BadInputs.*' 2>&1 |
    tee "$logs/gpu.out" || status=1
  if grep -a -n -A12 -E "runtime error:|ERROR: (AddressSanitizer|LeakSanitizer)" "$logs"/*.out >&2; then
    status=1
  fi
  for f in "$logs"/asan.*; do
    [ -e "$f" ] || continue
    echo "=== sanitizer report: $f" >&2
    cat "$f" >&2
    status=1
  done
  [ "$status" = 0 ] && echo "sanitize: all tests passed, no sanitizer report"
  exit "$status"
fi
./scripts/build.sh
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
# The window tests need an X display: without one, run everything under a virtual one (Xvfb).
if [ -n "${DISPLAY:-}" ]; then
  ctest --test-dir build --output-on-failure -j"$(nproc)" "${select[@]}"
else
  xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" ctest --test-dir build --output-on-failure -j"$(nproc)" "${select[@]}"
fi
