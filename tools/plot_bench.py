#!/usr/bin/python3
"""Plots clothbench JSON (build/clothbench --json FILE) as PNGs:

  bench_workgroup.png  GPU ms per frame against workgroup size, one line per grid
  bench_mesh.png       ms per frame against vertices: the CPU per thread count, the GPU at its
                       best workgroup size per grid

usage: tools/plot_bench.py BENCH.json [OUTDIR]   (needs /usr/bin/python3 with matplotlib)
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def median_ms(run):
    return run["ms_per_frame"]["median"]


def title(doc):
    gpu = doc.get("gpu")
    text = "CPU: %s" % doc.get("device", "?")
    if gpu:
        text += "\nGPU: %s (%s %s, Vulkan %s)" % (gpu["name"], gpu["driver"],
                                                   gpu.get("driver_info", ""), gpu["api_version"])
    return text + "; %d substeps" % doc.get("substeps", 0)


def plot_workgroups(doc, runs, out):
    gpu = [r for r in runs if r["backend"] == "gpu"]
    if not gpu:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for grid in sorted({r["grid"] for r in gpu}):
        rs = sorted((r for r in gpu if r["grid"] == grid), key=lambda r: r["workgroup_size"])
        ax.plot([r["workgroup_size"] for r in rs], [median_ms(r) for r in rs], marker="o",
                label="%d x %d" % (grid, grid))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("workgroup size (invocations)")
    ax.set_ylabel("ms per frame (median)")
    ax.set_title(title(doc), fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(title="grid")
    fig.tight_layout()
    path = os.path.join(out, "bench_workgroup.png")
    fig.savefig(path, dpi=110)
    return path


def plot_mesh(doc, runs, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for threads in sorted({r["threads"] for r in runs if r["backend"] == "cpu"}):
        rs = sorted((r for r in runs if r["backend"] == "cpu" and r["threads"] == threads),
                    key=lambda r: r["vertices"])
        ax.plot([r["vertices"] for r in rs], [median_ms(r) for r in rs], marker="s",
                label="CPU, %d thread%s" % (threads, "" if threads == 1 else "s"))
    gpu = [r for r in runs if r["backend"] == "gpu"]
    if gpu:
        best = {}
        for r in gpu:
            if r["grid"] not in best or median_ms(r) < median_ms(best[r["grid"]]):
                best[r["grid"]] = r
        rs = sorted(best.values(), key=lambda r: r["vertices"])
        ax.plot([r["vertices"] for r in rs], [median_ms(r) for r in rs], marker="o",
                label="GPU (best workgroup size)")
        for r in rs:
            ax.annotate(str(r["workgroup_size"]), (r["vertices"], median_ms(r)), fontsize=7,
                        textcoords="offset points", xytext=(4, -10))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("vertices")
    ax.set_ylabel("ms per frame (median)")
    ax.set_title(title(doc), fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = os.path.join(out, "bench_mesh.png")
    fig.savefig(path, dpi=110)
    return path


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    doc = json.load(open(sys.argv[1]))
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(sys.argv[1]))
    os.makedirs(out, exist_ok=True)
    runs = doc["runs"]
    for path in (plot_workgroups(doc, runs, out), plot_mesh(doc, runs, out)):
        if path:
            print("wrote", path)


if __name__ == "__main__":
    main()
