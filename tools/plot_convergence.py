#!/usr/bin/python3
"""Plots clothbench --convergence JSON (build/clothbench --convergence --json FILE) as PNGs:

  convergence_<backend>_<grid>.png   residual (relative to the initial) against iterations and
                                     against solve time, one line per scheme
  <experiment>_<backend>_<grid>.png  --experiment horizontal|kick: per frame, the residual and
                                     the residual strain (horizontal) or the kinetic and elastic
                                     energies (kick)

usage: tools/plot_convergence.py CONVERGENCE.json [OUTDIR] [TAG]   (needs matplotlib)
TAG, if given, is appended to the file names (e.g. "soft").
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_frames(run, out, tag):
    kick = run["experiment"] == "kick"
    keys = [("residual", "XPBD residual (2-norm)")]
    if kick:
        keys += [("kinetic_energy", "kinetic energy (J)"),
                 ("elastic_energy", "elastic energy, sum C^2 / 2 alpha (J)")]
    else:
        keys += [("residual_strain", "residual strain (m^2)")]
    fig, axes = plt.subplots(1, len(keys), figsize=(5.5 * len(keys), 4.5))
    for s in run["schemes"]:
        fs = [f["frame"] for f in s["frames"]]
        for ax, (key, _) in zip(axes, keys):
            ax.plot(fs, [max(f[key], 1e-30) for f in s["frames"]],
                    label="%s (%d colours)" % (s["label"], s["colours"]))
    for ax, (_, name) in zip(axes, keys):
        ax.set_yscale("log")
        ax.set_xlabel("frame (1/60 s)")
        ax.set_ylabel(name)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    what = ("no gravity, centre kicked down at 0.2 m/s" if kick
            else "falling under gravity, pinned at its corners")
    fig.suptitle("%s, %s: horizontal %d x %d cloth, %s; %d substeps x %d iterations"
                 % (run["backend"], run["device"], run["grid"], run["grid"], what,
                    run["substeps"], run["iterations"]), fontsize=8)
    fig.tight_layout()
    path = os.path.join(out, "%s_%s_%d%s.png" % (run["experiment"], run["backend"], run["grid"],
                                                  tag))
    fig.savefig(path, dpi=100)
    print(path)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    tag = ("_" + sys.argv[3]) if len(sys.argv) > 3 else ""
    os.makedirs(out, exist_ok=True)
    settle = doc.get("settle", {})
    for run in doc["runs"]:
        if run.get("experiment") in ("horizontal", "kick"):
            plot_frames(run, out, tag)
            continue
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.5))
        for s in run["schemes"]:
            ks = [p["iterations"] for p in s["curve"]]
            rel = [p["relative"] for p in s["curve"]]
            ms = [s["ms_one_iteration"] + (k - 1) * s["ms_per_iteration"] for k in ks]
            label = "%s (%d colours)" % (s["label"], s["colours"])
            a.plot(ks, rel, marker="o", markersize=3, label=label)
            b.plot(ms, rel, marker="o", markersize=3, label=label)
        a.set_xscale("log", base=2)
        a.set_xlabel("iterations (one substep)")
        b.set_xscale("log")
        b.set_xlabel("solve time of the substep (ms)")
        for ax in (a, b):
            ax.set_yscale("log")
            ax.set_ylabel("residual / initial residual")
            ax.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
        fig.suptitle("%s, %s: %d x %d grid, %d constraints; start: %d frames of %dx%d "
                     "Gauss-Seidel" % (run["backend"], run["device"], run["grid"], run["grid"],
                                       run["constraints"], settle.get("frames", 0),
                                       settle.get("substeps", 0), settle.get("iterations", 0)),
                     fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, "convergence_%s_%d%s.png" % (run["backend"], run["grid"], tag))
        fig.savefig(path, dpi=100)
        print(path)


if __name__ == "__main__":
    main()
