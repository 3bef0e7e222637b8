#!/usr/bin/env python3
"""Self-collision measured against another build, one after the other in one run: the folded
benchmark cloth (clothbench --collisions) at 64^2 and 128^2 on the CPU reference (one thread, so
that the team's choice does not enter) and at 32^2 on the GPU (lavapipe here), and the four
self-collision scenes (clothsim --stats, 120 frames, the CPU reference on one thread). Each
build's runs alternate with the other's. Writes one JSON with device, commits and date.

  tools/bench_self_collision.py OUT.json NAME=BUILD_DIR [NAME=BUILD_DIR ...]

BUILD_DIR holds clothbench and clothsim; scenes are read from this checkout's assets/.
"""
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENES = ["self_collision", "multiple_objects", "dress", "pile"]


def commit_of(build):
    src = os.path.dirname(os.path.abspath(build))
    try:
        return subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def with_json(cmd, flag):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        done = subprocess.run([*cmd, flag, path], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            return {"failed": done.returncode, "output": done.stdout[-2000:]}
        with open(path) as f:
            doc = json.load(f)
        doc["warnings"] = [l for l in done.stdout.splitlines() if "warning" in l]
        return doc
    finally:
        os.unlink(path)


def bench_row(doc):
    if "failed" in doc:
        return doc
    r = doc["runs"][0]
    s = r.get("self_collision", {})
    keep = ["ms_per_substep", "detections_per_frame"]
    out = {k: r.get(k) for k in keep}
    out["stretch"] = r.get("accuracy", {}).get("max_stretch")
    for k in ["candidates_per_vertex", "candidates_tested_per_vertex", "contacts_per_vertex",
              "clamped_vertices", "crossing_triangle_pairs", "frame_ms_without",
              "frame_over_frame_without", "self_over_solver_without", "stage_ms_per_substep",
              "frame_ms_outside_stamped_stages"]:
        if k in s:
            out[k] = s[k]
    if "counters" in r:
        out["counters"] = r["counters"]
    return out


def scene_row(doc):
    if "failed" in doc:
        return doc
    s = doc.get("self_collision", {})
    out = {"ms_per_frame": doc["ms_per_frame"]["mean"], "warnings": doc["warnings"]}
    for k in ["detections", "candidates", "contacts", "clamped_vertices",
              "most_contacts_at_a_vertex"]:
        if k in s:
            out[k] = s[k]
    out["self_stages_ms"] = {k: v for k, v in doc["stages_ms"].items()
                             if k.startswith("self") and v > 0.05}
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_path = sys.argv[1]
    builds = [a.split("=", 1) for a in sys.argv[2:]]
    result = {
        "what": __doc__.split("\n\n")[0],
        "device": platform.processor() or platform.machine(),
        "commits": {name: commit_of(d) for name, d in builds},
        "date": datetime.date.today().isoformat(),
        "bench": {},
        "scenes": {},
    }
    cpu = ["--collisions", "--threads", "1", "--warmup", "5", "--frames", "10", "--repeats", "1"]
    for grid in ["64", "128"]:
        for name, d in builds:
            doc = with_json([os.path.join(d, "clothbench"), *cpu, "--grids", grid], "--json")
            result["bench"][f"{name}_cpu_{grid}"] = bench_row(doc)
            print(name, "cpu", grid, result["bench"][f"{name}_cpu_{grid}"].get("ms_per_substep"),
                  flush=True)
    gpu = ["--collisions", "--backend", "gpu", "--warmup", "2", "--frames", "5", "--repeats", "1",
           "--grids", "32"]
    for name, d in builds:
        doc = with_json([os.path.join(d, "clothbench"), *gpu], "--json")
        result["bench"][f"{name}_gpu_32"] = bench_row(doc)
        if "device" in doc:
            result["gpu_device"] = doc["device"]
        print(name, "gpu 32", result["bench"][f"{name}_gpu_32"].get("ms_per_substep"), flush=True)
    for scene in SCENES:
        for name, d in builds:
            doc = with_json([os.path.join(d, "clothsim"), "--scene",
                             os.path.join(ROOT, "assets", "scenes", scene + ".json"), "--backend",
                             "cpu", "--threads", "1", "--frames", "120"], "--stats")
            result["scenes"][f"{name}_{scene}"] = scene_row(doc)
            print(name, scene, result["scenes"][f"{name}_{scene}"].get("ms_per_frame"), flush=True)
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
