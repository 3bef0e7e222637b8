#!/usr/bin/env python3
"""Checks the house rules the code's layout keeps (docs/design.md), one line per problem:
- no file under src/ is longer than 600 lines;
- the two backends are siblings: src/vk includes nothing of src/cpu, src/cpu nothing of src/vk;
- the kernels shared by C++ and GLSL (src/kernels) include only each other and glm;
- nothing under src/ or tools/ includes a file of tests/;
- no include cycle between the files of src/cpu and src/vk, each file's .h and .cpp taken as one
  (and X_impl.h, a class's private part, with X): a model's solver does not include the solver
  that makes it, nor a solver's part the solver;
- every model steps its frames through the one driver (sim/schedule.h forEachStep): no loop over
  the substeps anywhere else under src/;
- no solver copies the prepared scene: no class under src/cpu, src/vk or src/sim keeps a
  PreparedCloth by value (a solver shares it, SharedCloth in prep/prepared.h);
- no solver builds load-time data: nothing under src/cpu, src/vk or src/sim calls the builders
  of the Jacobi layouts, the spring plan, the models' per-vertex tables and incidences, the
  FEM's plan and block pattern or self-collision's rest data (prepareScene builds them once,
  prep/solver_data.h);
- README.md's layout table names only folders that exist, and every folder of src/.
Usage: tools/check_structure.py [REPO_ROOT]; exits 1 when a rule is broken."""
import pathlib
import re
import sys

MAX_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
SUBSTEP_LOOP = re.compile(r'\b(for|while)\s*\([^)]*substeps')
DRIVER = pathlib.PurePosixPath("src/sim/schedule.h")
# A class member (this code base's members end in "_") that holds a PreparedCloth by value.
PREPARED_MEMBER = re.compile(r'^\s*(const\s+)?PreparedCloth\s+\w+_\s*(;|=|\{)')
SOLVER_AREAS = ("cpu", "vk", "sim")
# The builders of the solvers' load-time data (prep/solver_data.cpp calls them).
LOAD_TIME_BUILDER = re.compile(r'\b(buildJacobiLayout|buildPdJacobiLayout|planSpringSteps|'
                               r'findRestNeighbours|restPairs|triangleThicknesses|'
                               r'selfVertexColours|springIncidence|stencilIncidence|springDamping|'
                               r'implicitDamping|springThickness|springAttachmentOf|'
                               r'modelRigidTable|buildFemPlan|femPattern|prepareSolverData)\s*\(')


def includes(path):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        m = INCLUDE.match(line)
        if m:
            yield number, m.group(1)


def cycles(root, areas):
    """Include cycles among the modules (a file's .h and .cpp together) of src/AREA, one line each."""
    def module(name):  # "vk/gpu_solver_impl.h" -> "vk/gpu_solver"
        name = name.rsplit(".", 1)[0]
        return name[:-len("_impl")] if name.endswith("_impl") else name

    edges = {}
    files = [p for area in areas for p in (root / "src" / area).rglob("*")
             if p.suffix in (".h", ".cpp")]
    for path in files:
        edges.setdefault(module(str(path.relative_to(root / "src"))), set())
    for path in files:
        source = module(str(path.relative_to(root / "src")))
        for _, inc in includes(path):
            target = module(inc) if inc.endswith(".h") else None
            if target in edges and target != source:
                edges[source].add(target)
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [f"src/{c[0]}: an include cycle between " + ", ".join(f"src/{m}" for m in c)
            for c in found]


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
    problems = []
    sources = [p for p in (root / "src").rglob("*") if p.suffix in (".h", ".cpp")]
    for path in sources:
        rel = path.relative_to(root)
        lines = len(path.read_text(errors="replace").splitlines())
        if lines > MAX_LINES:
            problems.append(f"{rel}: {lines} lines (at most {MAX_LINES})")
        area = rel.parts[1]
        if pathlib.PurePosixPath(rel.as_posix()) != DRIVER:
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if SUBSTEP_LOOP.search(line):
                    problems.append(f"{rel}:{number}: loops over the substeps outside the driver "
                                    f"({DRIVER} forEachStep)")
        if area in SOLVER_AREAS:
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if PREPARED_MEMBER.search(line):
                    problems.append(f"{rel}:{number}: keeps a copy of the prepared scene (share "
                                    "it: SharedCloth, prep/prepared.h)")
                builder = LOAD_TIME_BUILDER.search(line.split("//")[0])
                if builder:
                    problems.append(f"{rel}:{number}: a solver calls {builder.group(1)} (load-time "
                                    "data is built in the preparation: prep/solver_data.h)")
        for number, inc in includes(path):
            if area == "vk" and inc.startswith("cpu/"):
                problems.append(f"{rel}:{number}: src/vk includes {inc} (the backends are siblings)")
            if area == "cpu" and inc.startswith("vk/"):
                problems.append(f"{rel}:{number}: src/cpu includes {inc} (the backends are siblings)")
            if area == "kernels" and not (inc.startswith("kernels/") or inc.startswith("glm/")
                                          or "/" not in inc):
                problems.append(f"{rel}:{number}: a kernel header includes {inc}")
            if "tests/" in inc or inc.startswith("../"):
                problems.append(f"{rel}:{number}: includes {inc} from outside src/")
    problems += cycles(root, ("cpu", "vk"))
    for path in (root / "tools").rglob("*"):
        if path.suffix in (".h", ".cpp"):
            for number, inc in includes(path):
                if "tests/" in inc:
                    problems.append(f"{path.relative_to(root)}:{number}: a tool includes {inc}")
    readme = (root / "README.md").read_text()
    section = readme.split("## Repository layout", 1)[-1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_/]+/)`", section))
    for folder in sorted(named):
        if not (root / folder).is_dir():
            problems.append(f"README.md: the layout table names {folder}, which does not exist")
    for folder in sorted(p for p in (root / "src").iterdir() if p.is_dir()):
        if f"src/{folder.name}/" not in named:
            problems.append(f"README.md: the layout table leaves out src/{folder.name}/")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
