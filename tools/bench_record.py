"""What the measurement scripts of tools/ share: running a program that writes its figures to a
JSON file, and stamping and writing the record (commit and date) under docs/bench/."""
import datetime
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(cmd, flag, stderr=False):
    """Runs cmd with `flag PATH` appended (clothbench's --json, clothsim's --stats), its output
    discarded (its stderr shown if `stderr`); returns the JSON it wrote to PATH."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        subprocess.run([*cmd, flag, path], check=True, stdout=subprocess.DEVNULL,
                       stderr=None if stderr else subprocess.DEVNULL)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def commit(short=False):
    """The repository's HEAD."""
    return subprocess.run(["git", "-C", ROOT, "rev-parse", *(["--short"] if short else []), "HEAD"],
                          capture_output=True, text=True).stdout.strip()


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
