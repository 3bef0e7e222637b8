#!/usr/bin/env python3
"""Issue 46's team targets in one run: ROUNDS interleaved rounds of `clothbench --grids 256` at
--threads 1 and --threads 2 (the adaptive team, as a user runs it), on a quiet machine. Per run its
threads_used, ms per frame (median of the repeats) and constraint solves per second; then how many
2-thread runs kept both threads, the 1 -> 2 thread speed-up (median of the per-round ratios) and the
median solves per second on 2 threads. Writes one JSON with device, commit, date and load.

  tools/bench_team.py OUT.json [--clothbench PATH] [--rounds N] [--grid N]
"""
import argparse
import json
import os
import statistics

from bench_record import commit, run_json, utc_now, write_json


def run(bench, grid, threads):
    doc = run_json([bench, "--grids", str(grid), "--threads", str(threads), "--quiet"], "--json")
    r = doc["runs"][0]
    return {"threads": threads, "threads_used": r.get("threads_used", threads),
            "ms_per_frame_median": r["ms_per_frame"]["median"],
            "msolves_per_s": r["solves_per_second"] / 1e6, "kernels": r.get("cpu_kernels"),
            "team": r.get("team"), "device": doc["device"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--clothbench", default="build/clothbench")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--grid", type=int, default=256)
    a = ap.parse_args()
    runs = []
    for k in range(a.rounds):
        load = os.getloadavg()[0]
        for threads in (1, 2):
            r = run(a.clothbench, a.grid, threads)
            r["round"], r["loadavg_1min_before"] = k, load
            runs.append(r)
            print(f"round {k} threads {threads} used {r['threads_used']} "
                  f"{r['ms_per_frame_median']:.2f} ms/frame {r['msolves_per_s']:.0f} M solves/s",
                  flush=True)
    two = [r for r in runs if r["threads"] == 2]
    ratios = [o["ms_per_frame_median"] / t["ms_per_frame_median"]
              for o, t in zip([r for r in runs if r["threads"] == 1], two)]
    summary = {"two_thread_runs_that_kept_both": sum(r["threads_used"] == 2 for r in two),
               "two_thread_runs": len(two),
               "speedup_1_to_2_median": statistics.median(ratios),
               "msolves_per_s_2_threads_median": statistics.median(r["msolves_per_s"] for r in two)}
    print(json.dumps(summary, indent=1))
    doc = {"what": f"clothbench --grids {a.grid} at --threads 1 and 2 (adaptive team), "
                   f"{a.rounds} interleaved rounds, quiet machine",
           "device": runs[0]["device"], "cores": os.cpu_count(), "commit": commit(),
           "date": utc_now(), "summary": summary, "runs": runs}
    write_json(a.out, doc)


if __name__ == "__main__":
    main()
