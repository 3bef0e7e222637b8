#!/usr/bin/env python3
"""The committed test costs (tools/ctest/costs.txt) still name the long tests: a fresh clone's
ctest starts the longest tests first only for names it finds there, so a long test renamed, or
one whose name ctest cannot match (a space in it: ctest splits its costs file at spaces; a
pointer, which changes from build to build) would start last and lengthen CI. One line per
problem; exits 1 when a test of at least LONG seconds in the costs is not among ctest's tests,
or a test's name holds a space or a pointer.
Usage: tools/ctest/check_costs.py COSTS_FILE BUILD_DIR [--pointers-only]
(--pointers-only: a build other than CI's build-asan, whose tests differ: checks the names only)"""
import re
import subprocess
import sys

LONG = 10.0


def main():
    costs_file, build_dir = sys.argv[1], sys.argv[2]
    pointers_only = "--pointers-only" in sys.argv[3:]
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "-N"], capture_output=True,
                             text=True, check=True).stdout
    names = set(re.findall(r"^\s*Test\s+#\d+: (.*)$", listing, re.M))
    problems = []
    for name in sorted(names):
        if re.search(r"0x[0-9a-f]{6,}|object <", name):
            problems.append(f"the test name '{name}' prints a pointer: give its parameter a PrintTo")
        elif " " in name:
            problems.append(f"the test name '{name}' has a space: ctest cannot read its cost "
                            "(gtest_discover_tests NO_PRETTY_VALUES keeps parameters out of names)")
    for line in open(costs_file):
        fields = line.rstrip("\n").split(" ")
        if len(fields) != 3:
            problems.append(f"{costs_file}: '{line.strip()}' is not 'name runs cost'")
            continue
        name, _runs, cost = fields
        if float(cost) >= LONG and name not in names and not pointers_only:
            problems.append(f"{costs_file}: '{name}' ({float(cost):.0f} s) is not a test of "
                            f"{build_dir}: refresh the costs (tools/test.sh says how)")
    if not names:
        problems.append(f"ctest lists no tests in {build_dir}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
