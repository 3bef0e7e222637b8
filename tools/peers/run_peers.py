#!/usr/bin/env python3
"""Interleaved runs of clothbench and jolt_cloth on the same cloth; prints the ratio per thread
count and writes the figures as JSON (tools/peers/README.md)."""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def commit(path, *under):
    """HEAD, with -dirty if tracked files (under the given folders, if any) differ from it."""
    def git(*a):
        return subprocess.run(["git", "-C", path, *a], capture_output=True, text=True,
                              check=True).stdout.strip()
    c = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", *under)
    return c + ("-dirty" if dirty else "")


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def ours(a, threads, tmp):
    out = os.path.join(tmp, "ours.json")
    subprocess.run([a.clothbench, "--grids", str(a.grid), "--threads", str(threads), "--team",
                    "fixed", "--tethers", "off", "--quiet", "--warmup", str(a.warmup), "--frames",
                    str(a.frames), "--repeats", str(a.repeats), "--json", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = json.load(open(out))["runs"][0]
    return {"median_ms": r["ms_per_frame"]["median"], "min_ms": r["ms_per_frame"]["min"],
            "threads_used": r["threads_used"], "kernels": r["cpu_kernels"],
            "msolves_per_s": r["solves_per_second"] * 1e-6,
            "bending_ms": r["stages_ms"]["bending"], "distance_ms": r["stages_ms"]["distance"],
            "constraints": r["constraints"]["total"]}


def jolt(a, threads):
    p = subprocess.run([a.jolt, "--grid", str(a.grid), "--threads", str(threads), "--warmup",
                        str(a.warmup), "--frames", str(a.frames), "--repeats", str(a.repeats)],
                       check=True, capture_output=True, text=True)
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--clothbench", default=os.path.join(ROOT, "build", "clothbench"))
    ap.add_argument("--jolt", default=os.path.join(ROOT, "build-peers", "jolt_cloth"))
    ap.add_argument("--jolt-dir", required=True, help="the Jolt checkout jolt_cloth was built from")
    ap.add_argument("--grid", type=int, default=256)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", help="write the figures here (e.g. docs/bench/peers_jolt_256.json)")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            for t in threads:
                # Alternate which engine goes first, so neither always runs on a cooler machine.
                order = ["ours", "jolt"] if r % 2 == 0 else ["jolt", "ours"]
                for engine in order:
                    load = loadavg()
                    fig = ours(a, t, tmp) if engine == "ours" else jolt(a, t)
                    runs.append({"round": r, "engine": engine, "threads": t,
                                 "loadavg_1min_before": load, **fig})
                    print(f"round {r} {engine:4} {t} thread(s): {fig['median_ms']:.1f} ms/frame",
                          flush=True)
    summary = []
    for t in threads:
        o = statistics.median(x["median_ms"] for x in runs if x["engine"] == "ours" and x["threads"] == t)
        j = statistics.median(x["median_ms"] for x in runs if x["engine"] == "jolt" and x["threads"] == t)
        om = statistics.median(x["msolves_per_s"] for x in runs if x["engine"] == "ours" and x["threads"] == t)
        jm = statistics.median(x["msolves_per_s"] for x in runs if x["engine"] == "jolt" and x["threads"] == t)
        summary.append({"threads": t, "ours_ms": o, "jolt_ms": j, "ratio": j / o,
                        "ours_msolves_per_s": om, "jolt_msolves_per_s": jm})
        print(f"{a.grid}^2, {t} thread(s): ours {o:.1f} ms, Jolt {j:.1f} ms per frame "
              f"(medians of {a.rounds} rounds): {j / o:.2f}x; {om:.0f} vs {jm:.0f} M solves/s")
    if a.json:
        doc = {"what": "clothbench against Jolt Physics' soft body, same cloth (tools/peers)",
               "device": cpu_model(), "cores": os.cpu_count(),
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
               "commit": commit(ROOT), "jolt_commit": commit(a.jolt_dir, "Jolt", "Build"),
               "grid": a.grid, "substeps": 10, "iterations": 1, "rounds": a.rounds,
               "frames": a.frames, "repeats": a.repeats, "warmup": a.warmup,
               "summary": summary, "runs": runs}
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
