#!/usr/bin/env bash
# Sets up the machine, builds the release programs into build/ and runs the default demo.
# Extra arguments go to clothsim (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
tools/build.sh
exec build/clothsim "$@"
