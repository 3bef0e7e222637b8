#!/usr/bin/env python3
"""Every command of the front door and the docs runs (issue 47's "docs that run"): each line of a
fenced code block in README.md and docs/*.md that calls clothsim, clothbench or clothcheck is run,
shortened so that the whole takes a minute or two, and must exit 0; a tools/ command's script must
exist and be executable (they build, test or plot: not run here). An example whose flag, scene or
path drifted from the programs fails here, naming the file and the line.

Shortened: clothsim and clothcheck run 2 frames (`--frames N` replaced, or added), clothsim
without a window (`--headless` added); clothbench measures a 16^2 grid (--grids replaced) for one
frame, no warm-up, one repeat (--convergence: 1 settling frame, sweeps up to 2 iterations).
Everything else on the line is kept. The commands run in a scratch
directory where `build/` is the build directory and `assets/` and `docs/` copies of the source
tree's, so that what they write (stats.json, out/, flag.glb, the tuning file) lands there.

Usage: tools/check_doc_commands.py SOURCE_DIR BUILD_DIR [SCRATCH_DIR]"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

PROGRAMS = ("clothsim", "clothbench", "clothcheck")
TIMEOUT = 300


def commands(source):
    """(file, line number, command text) of every program or tools/ line in a fenced block."""
    found = []
    files = [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "*.md")))
    for path in files:
        lines = open(path, encoding="utf-8").read().split("\n")
        inside = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith("```"):
                inside = not inside
                i += 1
                continue
            if inside:
                start = i
                text = line.strip()
                while text.endswith("\\") and i + 1 < len(lines):  # continued lines
                    i += 1
                    text = text[:-1].rstrip() + " " + lines[i].strip()
                text = re.sub(r"\s+#\s.*$", "", text).strip()  # a trailing comment
                first = text.split(" ", 1)[0] if text else ""
                if os.path.basename(first) in PROGRAMS or first.startswith("tools/"):
                    found.append((os.path.relpath(path, source), start + 1, text))
            i += 1
    return found


def replace_value(args, flag, value):
    """args with `flag X` (or flag=X) replaced by `flag value`, added when absent."""
    out, i, seen = [], 0, False
    while i < len(args):
        a = args[i]
        if a == flag:
            out += [flag, value]
            i += 2
            seen = True
            continue
        if a.startswith(flag + "="):
            out += [flag, value]
            seen = True
        else:
            out.append(a)
        i += 1
    return out if seen else out + [flag, value]


def shortened(args):
    program = os.path.basename(args[0])
    rest = args[1:]
    if any(a in ("--list-scenes", "--list-devices", "--help", "-h") for a in rest):
        return rest
    if program == "clothsim":
        rest = replace_value(rest, "--frames", "2")
        if "--headless" not in rest:
            rest.append("--headless")
    elif program == "clothcheck":
        rest = replace_value(rest, "--frames", "2")
    elif program == "clothbench":
        rest = replace_value(rest, "--grids", "16")
        rest = replace_value(rest, "--frames", "1")
        rest = replace_value(rest, "--warmup", "0")
        rest = replace_value(rest, "--repeats", "1")
        if "--convergence" in rest:  # its own lengths: the settling and the longest sweep
            rest = replace_value(rest, "--settle-frames", "1")
            rest = replace_value(rest, "--max-iterations", "2")
            rest = replace_value(rest, "--time-iterations", "2")
        if "--collisions" in rest or "--profile-frames" in rest:
            rest = replace_value(rest, "--profile-frames", "1")
    return rest


def main():
    source = os.path.abspath(sys.argv[1])
    build = os.path.abspath(sys.argv[2])
    scratch = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="doc_commands_")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    os.symlink(build, os.path.join(scratch, "build"))
    # Copies, not links: a command may write into them (docs/iteration.md's writes its JSON into
    # docs/bench/), and the source tree must not change.
    for d in ("assets", "docs"):
        shutil.copytree(os.path.join(source, d), os.path.join(scratch, d))
    env = dict(os.environ)
    env["HOME"] = scratch  # the tuning file and anything else a program keeps per user
    env["XDG_CONFIG_HOME"] = os.path.join(scratch, "config")
    env.pop("CLOTHSIM_TUNING", None)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)

    failures, ran, checked = [], 0, 0
    found = commands(source)
    for where, line, text in found:
        place = f"{where}:{line}"
        args = shlex.split(text)
        if args[0].startswith("tools/"):
            script = os.path.join(source, args[0])
            checked += 1
            if not (os.path.isfile(script) and os.access(script, os.X_OK)):
                failures.append(f"{place}: {args[0]} is not an executable script of the tree")
            continue
        binary = os.path.join(build, os.path.basename(args[0]))
        run = [binary] + shortened(args)
        began = time.monotonic()
        try:
            r = subprocess.run(run, cwd=scratch, env=env, capture_output=True, text=True,
                               timeout=TIMEOUT)
            status, output = r.returncode, (r.stdout + r.stderr)
        except subprocess.TimeoutExpired:
            status, output = "timeout", f"still running after {TIMEOUT} s"
        ran += 1
        shown = " ".join(shlex.quote(a) for a in [os.path.basename(args[0])] + run[1:])
        if status != 0:
            tail = "\n    ".join(output.strip().split("\n")[-4:])
            failures.append(f"{place}: `{text}` (run as `{shown}`) exited {status}:\n    {tail}")
        else:
            print(f"ok {place} ({time.monotonic() - began:.1f} s): {shown}")
    print(f"{ran} commands run, {checked} tools/ scripts checked, of {len(found)} lines in the docs")
    for f in failures:
        print("FAIL " + f)
    if ran == 0:
        print("FAIL no command found: the docs' code blocks were not read")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
