#!/usr/bin/env bash
# Sets up the machine, builds the test configuration (ASan + UBSan, build-asan/) and runs the
# whole test suite through ctest. GPU tests run on whatever Vulkan device exists (lavapipe on a
# machine without a GPU) with the validation layer on; with CI set they fail rather than skip.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTH_SANITIZE=ON
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" "$@"
