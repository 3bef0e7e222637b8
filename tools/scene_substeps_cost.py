#!/usr/bin/env python3
"""What more substeps cost a shipped scene (assets/scenes/README.md, Stretch): clothsim's mean ms
per frame (--stats) at two substep counts, on the CPU reference (--threads 2) and on the GPU
solver (the device clothsim picks: lavapipe here), in interleaved rounds; the median of each.
Writes one JSON with host, device, commit and date (docs/bench/scene_substeps_*.json).

  tools/scene_substeps_cost.py OUT.json SCENE:BEFORE:AFTER [SCENE:BEFORE:AFTER ...]
      [--build DIR] [--cpu-frames N] [--gpu-frames N] [--rounds N]
  tools/scene_substeps_cost.py OUT.json SCENE@REV [...]

SCENE is a built-in name or a file of assets/scenes/ without .json (hanging, tube, pile).
SCENE@REV compares the scene file as git revision REV had it with the file as it is, each at
its own settings (for a change of more than the substeps: iterations, material); the old file
is written beside the new one while it runs, so that its relative mesh paths hold.
"""
import subprocess
import argparse
import json
import os
import platform
import statistics

from bench_record import ROOT, commit, run_json, utc_now, write_json


def scene_path(name):
    path = os.path.join(ROOT, "assets", "scenes", name + ".json")
    return path if os.path.exists(path) else name


def ms_per_frame(build, scene, substeps, backend, frames):
    """One clothsim run; its mean ms per frame and device. substeps None: the file's own."""
    cmd = [os.path.join(build, "clothsim"), "--headless", "--quiet", "--backend", backend,
           "--scene", scene_path(scene), "--frames", str(frames)]
    if substeps is not None:
        cmd += ["--substeps", str(substeps)]
    if backend == "cpu":
        cmd += ["--threads", "2"]
    j = run_json(cmd, "--stats")
    return j["ms_per_frame"]["mean"], j["device"]


def host_cpu():
    try:
        with open("/proc/cpuinfo") as f:
            return next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("scenes", nargs="+", metavar="SCENE:BEFORE:AFTER")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cpu-frames", type=int, default=120)
    ap.add_argument("--gpu-frames", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    specs, old_files = [], []
    for s in a.scenes:
        if "@" in s:  # the file at a revision against the file now, each at its own settings
            name, rev = s.split("@")
            rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", rev], check=True,
                                 capture_output=True, text=True).stdout.strip()
            old = os.path.join(ROOT, "assets", "scenes", f"{name}.before-{rev}.json")
            text = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:assets/scenes/{name}.json"],
                                  check=True, capture_output=True, text=True).stdout
            with open(old, "w") as f:
                f.write(text)
            old_files.append(old)
            specs.append((name, (old[:-len(".json")], None), (name, None), rev))
        else:
            name, before, after = s.split(":")
            specs.append((name, (name, int(before)), (name, int(after)), None))
    frames = {"cpu": a.cpu_frames, "gpu": a.gpu_frames}
    runs, devices = [], {}
    try:
        for rnd in range(a.rounds):
            for name, before, after, _ in specs:
                for which, (scene, substeps) in (("before", before), ("after", after)):
                    for backend in ("cpu", "gpu"):
                        ms, device = ms_per_frame(a.build, scene, substeps, backend,
                                                  frames[backend])
                        devices[backend] = device
                        runs.append({"round": rnd, "scene": name, "which": which,
                                     "substeps": substeps, "backend": backend,
                                     "frames": frames[backend], "ms_per_frame": ms,
                                     "device": device})
    finally:
        for f in old_files:
            os.remove(f)

    def median(name, which, backend):
        return statistics.median(r["ms_per_frame"] for r in runs if r["scene"] == name
                                 and r["which"] == which and r["backend"] == backend)

    rows = []
    for name, before, after, rev in specs:
        row = {"scene": name + ".json"}
        if rev is None:
            row.update({"substeps_before": before[1], "substeps_after": after[1]})
        else:
            row.update({"before": f"the file at {rev}", "after": "the file as it is"})
        for backend in ("cpu", "gpu"):
            b, f = median(name, "before", backend), median(name, "after", backend)
            row.update({f"{backend}_ms_before": round(b, 3), f"{backend}_ms_after": round(f, 3),
                        f"{backend}_ratio": round(f / b, 2)})
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = {"what": "tools/scene_substeps_cost.py: clothsim --headless --stats (--substeps N), "
                   f"mean ms per frame, the CPU reference on --threads 2 ({a.cpu_frames} frames) and the "
                   f"GPU solver ({a.gpu_frames} frames), {a.rounds} interleaved rounds, median",
           "host": host_cpu(), "gpu": devices.get("gpu"), "cpu_threads": 2,
           "commit": commit(short=True), "date": utc_now(), "rows": rows, "runs": runs}
    write_json(a.out, out)


if __name__ == "__main__":
    main()
