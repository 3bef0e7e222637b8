#!/usr/bin/env python3
"""What clothcheck's resync mode catches (docs/backends.md, "Checking a GPU that rounds
differently"): per scene, the run without a bug (its discrepancy against the error model's
tolerance) and each seeded bug (clothcheck --inject): the compliance scaled by 1 + s for s from
1e-6 up, a colour skipped, a gradient's sign wrong, collider contacts dropped, two colours
without the barrier between them. Each run is resync every frame on the device clothcheck picks
(lavapipe here, with --emulate-rounding if asked). Writes one JSON with device, commit and date.

  tools/check_sensitivity.py OUT.json [--build DIR] [--frames N] [--emulate-rounding SEED]
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Each scene with the flags it runs with. `hanging` at its own substeps (60) and at 10, the flag at
# its own 80 and at 15: a seeded bug hits one substep of the frame, and with more substeps the
# frame's rounding spread grows while the bug's share of the frame shrinks.
SCENES = [("hanging", ["--substeps", "10"]), ("hanging", []),
          ("assets/scenes/flag.json", ["--substeps", "15"]), ("assets/scenes/flag.json", []),
          ("tests/data/gpu/self_collision.json", []), ("tests/data/gpu/colliders.json", [])]
SCALES = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]


def run_check(build, scene, frames, extra):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [os.path.join(build, "clothcheck"), "--scene",
               scene if not scene.endswith(".json") else os.path.join(ROOT, scene),
               "--mode", "resync", "--frames", str(frames), "--json", path, *extra]
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode not in (0, 1):
            return {"args": extra, "failed": done.returncode, "output": done.stdout[-1000:]}
        with open(path) as f:
            j = json.load(f)
        return {"args": extra, "exit": done.returncode, "caught": done.returncode == 1,
                "discrepancy": j["worst"]["max_rel"], "frames_over": j["frames_over"],
                "closest": j["closest"], "device": j["gpu"]["name"]}
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--emulate-rounding", type=int, default=None)
    a = ap.parse_args()
    rows = []
    for scene, flags in SCENES:
        base = ([] if a.emulate_rounding is None else
                ["--emulate-rounding", str(a.emulate_rounding)]) + flags
        row = {"scene": scene, "flags": flags, "clean": run_check(a.build, scene, a.frames, base),
               "compliance": []}
        smallest = None
        for s in SCALES:
            r = run_check(a.build, scene, a.frames,
                          base + ["--inject", "compliance", "--inject-scale", str(s)])
            r["scale"] = s
            row["compliance"].append(r)
            if r.get("caught") and smallest is None:
                smallest = s
        row["smallest_compliance_scale_caught"] = smallest
        for kind in ("skip-colour", "gradient-sign", "drop-contact", "missing-barrier"):
            # exit 2: the kind does not apply to the scene (no collider), said in "output"
            row[kind.replace("-", "_")] = run_check(a.build, scene, a.frames,
                                                    base + ["--inject", kind])
        rows.append(row)
        print(scene, "clean", row["clean"].get("exit"), "smallest", smallest,
              *(f"{k} {row[k].get('exit', row[k].get('failed'))}"
                for k in ("skip_colour", "gradient_sign", "drop_contact", "missing_barrier")),
              flush=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    host = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            host = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    out = {"what": "tools/check_sensitivity.py: clothcheck --mode resync every frame, "
                   f"{a.frames} frames, against seeded bugs",
           "device": rows[0]["clean"].get("device", "unknown"), "host_cpu": host,
           "cpu_threads": os.cpu_count(), "commit": commit,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "emulate_rounding": a.emulate_rounding, "rows": rows}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
