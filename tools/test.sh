#!/usr/bin/env bash
# Sets up the machine, builds the test configuration (ASan + UBSan, build-asan/) and runs the
# test suite through ctest. GPU tests run on whatever Vulkan device exists (lavapipe on a machine
# without a GPU) with the validation layer on; with CI set they fail rather than skip.
#
#   tools/test.sh [--fast] [ctest arguments...]
#
# Without --fast: every test (CI runs this through .ci/run). With CI set, each fuzz target first
# runs briefly (CLOTH_FUZZ_SECONDS, default 60 s each; tools/fuzz.sh) and any finding fails the
# run.
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
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTH_SANITIZE=ON >/dev/null
cmake --build build-asan
stamp "build-asan built"
# The fuzzers first, so that ctest's summary closes the output.
if [ "$fast" -eq 0 ] && [ -n "${CI:-}" ]; then
  tools/fuzz.sh "${CLOTH_FUZZ_SECONDS:-60}"
  stamp "fuzzing done"
fi
status=0
if [ "$fast" -eq 1 ]; then
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE slow "$@" || status=$?
else
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" "$@" || status=$?
fi
stamp "ctest done (exit $status)"
exit "$status"
