#!/usr/bin/env python3
"""The CPU team, measured: clothbench at 1 and 2 threads over grid sizes, on a quiet machine and
with one other busy process (a shell loop, as a game's render thread would be), for each clothbench
given (e.g. the build before a change and after it), all in one run; plus the 81-vertex patch at
10 substeps x 4 iterations. Writes one JSON with device, commit and date.

  tools/bench_threads.py OUT.json NAME=CLOTHBENCH [NAME=CLOTHBENCH ...]
"""
import os
import subprocess
import sys

from bench_record import commit, run_json, utc_now, write_json


def run(bench, args):
    return run_json([bench, *args], "--json", stderr=True)


def rows(doc):
    out = []
    for r in doc["runs"]:
        single = r.get("frame_ms_single", {})
        out.append({
            "grid": r["grid"], "vertices": r["vertices"], "iterations": r["iterations"],
            "threads": r["threads"], "threads_used": r.get("threads_used", r["threads"]),
            "ms_per_frame_median": r["ms_per_frame"]["median"],
            "ms_per_frame_min": r["ms_per_frame"]["min"],
            "slowest_over_median_frame": single.get("slowest_over_median"),
        })
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, builds = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
    sweeps = [
        ["--grids", "8,16,32,64,96,128,256", "--threads", "1,2", "--repeats", "5"],
        ["--grids", "8", "--iterations", "4", "--threads", "1,2", "--repeats", "5",
         "--frames", "60"],
    ]
    results = []
    for busy in (False, True):
        spinner = subprocess.Popen(["sh", "-c", "while :; do :; done"]) if busy else None
        try:
            for name, bench in builds:
                for args in sweeps:
                    doc = run(bench, args)
                    results.append({"build": name, "busy_process": busy, "device": doc["device"],
                                    "rows": rows(doc)})
                    for r in results[-1]["rows"]:
                        print(f"{name:>8} busy={int(busy)} {r['grid']:>4}^2 it{r['iterations']} "
                              f"t{r['threads']}({r['threads_used']}) "
                              f"{r['ms_per_frame_median']:8.3f} ms/frame  slowest/median "
                              f"{r['slowest_over_median_frame'] or float('nan'):5.1f}", flush=True)
        finally:
            if spinner:
                spinner.kill()
                spinner.wait()
    doc = {"what": "clothbench at 1 and 2 threads, quiet and beside one busy process, per build",
           "device": results[0]["device"], "cores": os.cpu_count(), "commit": commit(),
           "date": utc_now(), "results": results}
    write_json(out, doc)


if __name__ == "__main__":
    main()
