#!/usr/bin/python3
"""Plots clothbench --models JSON (docs/models.md "Comparison") as PNGs, one per grid:

  models_<grid>.png   RMS position error against the reference (share of the cloth's size)
                      against ms per frame, log-log, one panel per scene, one colour per model
                      (a line joins a model's rows that spend more on it: xpbd_gs and
                      xpbd_gs_more, pd and pd_more, fem and fem_more)

and prints, per grid and scene, which row first reaches each error level (the table in the
docs): the cheapest row whose RMS error is at most 1%, 3% and 10%.

usage: tools/plot_models.py MODELS.json [MODELS2.json ...] OUTDIR
       (needs /usr/bin/python3 with matplotlib)
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = {
    "xpbd_gs": "xpbd_gs", "xpbd_gs_more": "xpbd_gs",
    "xpbd_jacobi": "xpbd_jacobi", "xpbd_chebyshev": "xpbd_chebyshev",
    "pd": "pd", "pd_more": "pd", "pd_jacobi": "pd_jacobi", "pd_chebyshev": "pd_chebyshev",
    "fem": "fem", "fem_more": "fem", "mass_spring": "mass_spring",
}
LEVELS = (0.01, 0.03, 0.10)


def rows_of(paths):
    rows, devices = [], set()
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        devices.add(doc.get("device", "?"))
        rows += [r for r in doc["rows"] if "error" not in r and r["model"] != "reference"]
    return rows, ", ".join(sorted(devices))


def first_to_reach(rows, level):
    ok = [r for r in rows if r["rms_error_of_size"] <= level]
    if not ok:
        return None
    return min(ok, key=lambda r: r["ms_per_frame"])


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    out = argv[-1]
    os.makedirs(out, exist_ok=True)
    rows, device = rows_of(argv[1:-1])
    families = sorted(set(FAMILIES.get(r["model"], r["model"]) for r in rows))
    colours = {f: plt.cm.tab10(i % 10) for i, f in enumerate(families)}
    for grid in sorted({r["grid"] for r in rows}):
        at = [r for r in rows if r["grid"] == grid]
        scenes = [s for s in ("hanging", "square5", "drape") if any(r["scene"] == s for r in at)]
        fig, axes = plt.subplots(1, len(scenes), figsize=(4.6 * len(scenes), 4.2), squeeze=False)
        for ax, scene in zip(axes[0], scenes):
            rs = [r for r in at if r["scene"] == scene]
            for family in families:
                fr = sorted((r for r in rs if FAMILIES.get(r["model"], r["model"]) == family),
                            key=lambda r: r["ms_per_frame"])
                if not fr:
                    continue
                ax.plot([r["ms_per_frame"] for r in fr],
                        [100.0 * max(r["rms_error_of_size"], 1e-4) for r in fr],
                        marker="o", color=colours[family], label=family)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("ms per frame (median, %d threads)" % rs[0]["threads"])
            ax.set_ylabel("RMS error against the reference (% of size)")
            ax.set_title("%s %d x %d, %d frames" % (scene, grid, grid, rs[0]["frames"]), fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            for level in LEVELS:
                ax.axhline(100.0 * level, color="grey", lw=0.6, ls=":")
            print("%-8s %4d: " % (scene, grid) + "; ".join(
                "<= %g%%: %s" % (100 * level, "%s (%.1f ms)" % (r["model"], r["ms_per_frame"])
                                 if r else "none") for level in LEVELS
                for r in [first_to_reach(rs, level)]))
        axes[0][0].legend(fontsize=7)
        fig.suptitle("clothbench --models (%s)" % device, fontsize=9)
        fig.tight_layout()
        path = os.path.join(out, "models_%d.png" % grid)
        fig.savefig(path, dpi=100)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
