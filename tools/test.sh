#!/usr/bin/env bash
# Sets up the machine, builds the test configuration (ASan + UBSan, build-asan/) and runs the
# test suite through ctest. GPU tests run on whatever Vulkan device exists (lavapipe on a machine
# without a GPU) with the validation layer on; with CI set they fail rather than skip.
#
#   tools/test.sh [--fast] [ctest arguments...]
#
# Without --fast: every test (CI runs this through .ci/run). With CI set, each fuzz target also
# runs briefly (CLOTH_FUZZ_SECONDS, default 20 s each; tools/fuzz.sh), in the background beside the
# build and ctest (one fuzzer on one core; its output is printed after ctest's), and any finding
# fails the run.
# --fast: the tier a contributor runs before each commit: every test but those labelled slow, no
# fuzzing (docs/testing.md lists the labels: unit, gpu, window, e2e, slow). Extra arguments go to
# ctest, e.g. tools/test.sh -L unit, or tools/test.sh -R clothcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then fast=1; shift; fi
started=$(date +%s)
stamp() { echo "test.sh: $1 after $(( $(date +%s) - started )) s"; }
tools/setup.sh
fuzz_pid=""
if [ "$fast" -eq 0 ] && [ -n "${CI:-}" ]; then
  mkdir -p build-fuzz
  fuzz_log="build-fuzz/test_sh_fuzz.log"
  # In a session of its own, so that a failed build or an interrupt ends the fuzzer with it.
  setsid tools/fuzz.sh "${CLOTH_FUZZ_SECONDS:-20}" >"$fuzz_log" 2>&1 &
  fuzz_pid=$!
  trap '[ -n "$fuzz_pid" ] && kill -- "-$fuzz_pid" 2>/dev/null || true' EXIT
fi
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTH_SANITIZE=ON >/dev/null
cmake --build build-asan
stamp "build-asan built"
# ctest starts the longest tests first when it knows their costs (it learns them from the runs in
# build-asan/Testing/Temporary/CTestCostData.txt); a fresh clone starts from the committed costs
# of a full run (tools/ctest/costs.txt) instead of the order of declaration, which left the
# longest tests to the end of the -j run. Refresh the copy after adding a long test:
#   awk '/^---/{exit} {print}' build-asan/Testing/Temporary/CTestCostData.txt > tools/ctest/costs.txt
costs=build-asan/Testing/Temporary/CTestCostData.txt
if [ ! -f "$costs" ]; then
  mkdir -p "$(dirname "$costs")"
  cp tools/ctest/costs.txt "$costs"
fi
status=0
if [ "$fast" -eq 1 ]; then
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE slow "$@" || status=$?
else
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" "$@" || status=$?
fi
stamp "ctest done (exit $status)"
if [ -n "$fuzz_pid" ]; then
  fuzz_status=0
  wait "$fuzz_pid" || fuzz_status=$?
  fuzz_pid=""
  cat "$fuzz_log"
  stamp "fuzzing done (exit $fuzz_status)"
  if [ "$fuzz_status" -ne 0 ]; then status=1; fi
fi
exit "$status"
