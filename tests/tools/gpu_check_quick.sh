#!/usr/bin/env bash
# The GPU check's plumbing on whatever device this machine has (lavapipe here): tools/gpu_check.sh
# packs this build's clothcheck, clothbench and clothsim with their libraries, runs the packed folder's
# script with --quick from another directory, and the JSON must hold the device, the commit, the
# seven clothcheck results (five XPBD scenes, PD and mass-spring; equal positions, no validation
# message), four seeded bugs each caught, the self-collision scene timed on both backends, the
# clothbench runs and no failure.
#   tests/tools/gpu_check_quick.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1" build="$2"
work="$build/test-output/gpu_check"
rm -rf "$work"
mkdir -p "$work/elsewhere"
"$src/tools/gpu_check.sh" --build-dir "$build" --pack "$work/pack"
cd "$work/elsewhere"
"$work/pack/gpu_check.sh" --quick --out "$work/check.json"
python3 - "$work/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
problems = []
if d["failures"]:
    problems.append(f"failures: {d['failures']}")
for key in ("device", "driver", "commit", "date"):
    if not d.get(key) or d[key] == "unknown":
        problems.append(f"no {key}")
checks = d["clothcheck"]
if len(checks) != 7:
    problems.append(f"{len(checks)} clothcheck results, 7 expected")
for c in checks:
    if c is None or not c["ok"] or c["validation_messages"] != 0 or c["worst"]["max_rel"] != 0:
        problems.append(f"clothcheck: {c}")
injections = d["injections"]
if len(injections) != 5:
    problems.append(f"{len(injections)} injections, 5 expected")
for c in injections:
    if c is None or c["ok"] or "inject" not in c:
        problems.append(f"an injected bug not caught: {c}")
scenes = d["scenes"]
if len(scenes) != 2 or any(s is None or s["ms_per_frame"]["mean"] <= 0 for s in scenes):
    problems.append(f"scenes: {scenes}")
elif sorted(s["backend"] for s in scenes) != ["cpu", "gpu"]:
    problems.append(f"scenes' backends: {[s['backend'] for s in scenes]}")
if not all(b and b["runs"] for b in d["clothbench"] + d["clothbench_collisions"]):
    problems.append("a clothbench step has no runs")
print("gpu_check JSON:", d["device"], "|", d["commit"], "|", len(checks), "checks")
for p in problems:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY
