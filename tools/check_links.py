#!/usr/bin/env python3
"""Checks the documentation's links and its front door.

    tools/check_links.py [REPO_ROOT]      (default: the folder above this script)

- Every relative link and image in README.md and docs/**/*.md resolves to a file or folder
  inside the repository (for `page.md#anchor` only the file part is checked; http(s), mailto
  and bare `#anchor` links are skipped). Links inside code spans and fenced code blocks are
  not links and are not checked.
- No Markdown file of the repository names NOTES.md, ENGINEERING.md or ../shared, links to
  an absolute path, or names a path in the folder that holds the repository (its parent's
  absolute path): documents cite only what the repository holds.
- README.md has at most 250 lines and shows an image within its first 40 lines.

Prints one line per problem (FILE:LINE: what) and exits 1 when there is any, else 0.
Python 3 standard library only.
"""
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

README_MAX_LINES = 250
README_IMAGE_WITHIN = 40
FORBIDDEN_NAMES = ("NOTES.md", "ENGINEERING.md", "../shared")

# [text](target "title") and ![alt](target); the target may be wrapped in <...>.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+[\"'(][^)]*)?\)")
# [label]: target
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_REF = re.compile(r"<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)[\"']", re.I)
IMAGE = re.compile(r"!\[[^\]]*\]\(|<img\b", re.I)
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def markdown_files(root):
    """Every .md file of the repository: git's tracked and untracked-but-not-ignored files,
    or, outside a git checkout, a walk that skips hidden and build folders."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "--cached", "--others", "--exclude-standard",
             "-z", "--", "*.md"],
            check=True, capture_output=True, text=True).stdout
        files = sorted({root / p for p in out.split("\0") if p})
        return [f for f in files if f.is_file()]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "build"))]
            found += [Path(dirpath) / f for f in filenames if f.endswith(".md")]
        return sorted(found)


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with code spans blanked out."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            yield number, CODE_SPAN.sub(lambda s: " " * len(s.group(0)), line)


def link_targets(line):
    for pattern in (INLINE_LINK, REFERENCE_DEF, HTML_REF):
        for m in pattern.finditer(line):
            target = m.group(1).strip()
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1].strip()
            yield target


def check_link(root, md, number, target, problems):
    if not target or target.startswith("#"):
        return
    if re.match(r"^(https?|mailto):", target, re.I):
        return
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
        problems.append(f"{md}:{number}: link '{target}': only relative links and http(s)")
        return
    path_part = unquote(target.split("#", 1)[0].split("?", 1)[0])
    if not path_part:
        return
    if path_part.startswith("/"):
        problems.append(f"{md}:{number}: link '{target}' is an absolute path")
        return
    resolved = Path(os.path.normpath((root / md).parent / path_part))
    try:
        resolved.relative_to(root)
    except ValueError:
        problems.append(f"{md}:{number}: link '{target}' leaves the repository")
        return
    if not resolved.exists():
        problems.append(f"{md}:{number}: link '{target}': no such file in the repository")


def check_names(root, md, text, problems):
    outside = str(root.parent).rstrip("/") + "/"
    for number, line in enumerate(text.splitlines(), 1):
        for name in FORBIDDEN_NAMES:
            if name in line:
                problems.append(f"{md}:{number}: names {name}, which the repository does not hold")
        if outside != "/" and outside in line:
            problems.append(f"{md}:{number}: names a path outside the repository ({outside}...)")


def check_readme(root, problems):
    readme = root / "README.md"
    if not readme.is_file():
        problems.append("README.md: missing")
        return
    lines = readme.read_text(encoding="utf-8").splitlines()
    if len(lines) > README_MAX_LINES:
        problems.append(f"README.md: {len(lines)} lines, at most {README_MAX_LINES}")
    head = "\n".join(lines[:README_IMAGE_WITHIN])
    if not any(IMAGE.search(line) for _, line in prose_lines(head)):
        problems.append(f"README.md: no image within its first {README_IMAGE_WITHIN} lines")


def main(argv):
    root = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
    problems = []
    check_readme(root, problems)
    for path in markdown_files(root):
        md = path.relative_to(root)
        text = path.read_text(encoding="utf-8")
        check_names(root, md, text, problems)
        if md.as_posix() == "README.md" or md.parts[0] == "docs":
            for number, line in prose_lines(text):
                for target in link_targets(line):
                    check_link(root, md, number, target, problems)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
