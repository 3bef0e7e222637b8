#!/usr/bin/env bash
# ctest's launcher for the window tests: a virtual X display per test (xvfb-run). xvfb-run -a
# alone takes the lowest free display number (:99 first), so each test reuses the number of the
# previous test's server, which may still be shutting down. With that, 2 of 6 parallel ctest runs
# had clothsim fail to reach the display in WindowTest.ClothsimWindowRunsAndCloses (the cause was
# not pinned down); a random start keeps consecutive tests apart. Xvfb's own messages go to
# $CLOTH_XVFB_LOG when set.
set -euo pipefail
start=$((100 + RANDOM % 4000))
exec xvfb-run -n "$start" -a -e "${CLOTH_XVFB_LOG:-/dev/null}" -s "-screen 0 1024x768x24" "$@"
