#!/usr/bin/env bash
# Sets up the machine, builds clothsim alone (Release, build/; no tests, no other programs) and
# runs it: the default demo, in a window when a display is present, else headless to
# clothsim.png. Extra arguments go to clothsim (try --help). tools/build.sh builds everything.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target clothsim
exec build/clothsim "$@"
