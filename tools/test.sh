#!/usr/bin/env bash
# Sets up the machine, builds the test configuration (ASan + UBSan, build-asan/) and runs the
# whole test suite through ctest. GPU tests run on whatever Vulkan device exists (lavapipe on a
# machine without a GPU) with the validation layer on; with CI set they fail rather than skip.
# With CI set (as .ci/run does), each fuzz target first runs briefly (CLOTH_FUZZ_SECONDS, default
# 60 s each; tools/fuzz.sh) and any finding fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTH_SANITIZE=ON
cmake --build build-asan
# The fuzzers first, so that ctest's summary closes the output.
if [ -n "${CI:-}" ]; then
  tools/fuzz.sh "${CLOTH_FUZZ_SECONDS:-60}"
fi
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" "$@"
