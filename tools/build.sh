#!/usr/bin/env bash
# Release build into build/: build/clothsim, build/clothbench, build/clothcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
