#!/usr/bin/env python3
"""The closed collider meshes of assets/meshes/ (python3, standard library only); written by
tools/make_meshes.py with the cloth meshes, or alone by running this file.

    table.obj         a table: a 1.6 x 1.0 m top slab (top face at y = 0.75) and four legs,
                      five closed boxes; the legs stop 2 mm under the slab (no overlap)
    body.obj          a torso-like blob (a superellipsoid widening towards the shoulders),
                      2000 triangles, 0.5 m wide, standing on y = 0
    bumpy_sphere.obj  a geodesic sphere of radius ~0.5 with gentle bumps, 9680 triangles,
                      centred on the origin (for benchmarks)

Every mesh is closed (each edge used once in each direction), wound counter-clockwise seen from
outside, and has no degenerate triangle; the script checks all three on the numbers as written
(6 decimals) and fails otherwise. Everything is deterministic, so running it again rewrites
the same files:

    python3 tools/make_meshes.py               # every mesh of assets/meshes/
    python3 tools/collider_meshes.py [OUT_DIR]  # only these three (default assets/meshes/)
"""
import math
import os
import sys

PHI = (1.0 + math.sqrt(5.0)) / 2.0
ICOSAHEDRON_VERTICES = [
    (-1, PHI, 0), (1, PHI, 0), (-1, -PHI, 0), (1, -PHI, 0),
    (0, -1, PHI), (0, 1, PHI), (0, -1, -PHI), (0, 1, -PHI),
    (PHI, 0, -1), (PHI, 0, 1), (-PHI, 0, -1), (-PHI, 0, 1),
]
ICOSAHEDRON_FACES = [
    (0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
    (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
    (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
    (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1),
]


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def normalized(v):
    n = math.sqrt(dot(v, v))
    return (v[0] / n, v[1] / n, v[2] / n)


def box(lo, hi, verts, tris):
    """Appends a closed box (12 triangles, outward, counter-clockwise)."""
    base = len(verts)
    for z in (lo[2], hi[2]):
        verts += [(lo[0], lo[1], z), (hi[0], lo[1], z), (hi[0], hi[1], z), (lo[0], hi[1], z)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (3, 7, 6, 2), (0, 4, 7, 3), (1, 2, 6, 5)]
    for q in quads:
        a, b, c, d = (base + i for i in q)
        tris += [(a, b, c), (a, c, d)]


def table():
    verts, tris = [], []
    box((-0.8, 0.71, -0.5), (0.8, 0.75, 0.5), verts, tris)  # top slab, 4 cm thick
    for sx in (-1, 1):
        for sz in (-1, 1):
            cx, cz = sx * 0.72, sz * 0.42
            box((cx - 0.03, 0.0, cz - 0.03), (cx + 0.03, 0.708, cz + 0.03), verts, tris)
    return verts, tris


def geodesic_sphere(frequency):
    """Unit directions and triangles of an icosahedron whose faces are split into
    frequency^2 triangles each; points shared by faces are welded exactly (keyed by their
    integer weights over the icosahedron's corners)."""
    corners = [normalized(v) for v in ICOSAHEDRON_VERTICES]
    index = {}
    dirs = []

    def point(weights):
        key = tuple(sorted((c, w) for c, w in weights if w > 0))
        if key not in index:
            p = [0.0, 0.0, 0.0]
            for c, w in key:
                for k in range(3):
                    p[k] += corners[c][k] * w
            index[key] = len(dirs)
            dirs.append(normalized(p))
        return index[key]

    n = frequency
    tris = []
    for a, b, c in ICOSAHEDRON_FACES:
        def P(i, j):
            return point(((a, n - i - j), (b, i), (c, j)))
        for i in range(n):
            for j in range(n - i):
                tris.append((P(i, j), P(i + 1, j), P(i, j + 1)))
                if i + j <= n - 2:
                    tris.append((P(i + 1, j), P(i + 1, j + 1), P(i, j + 1)))
    return dirs, tris


def signed_power(t, e):
    return math.copysign(abs(t) ** e, t)


def body():
    """A torso-like superellipsoid: half extents 0.25 (x) x 0.35 (y) x 0.15 (z), exponent 0.7
    (boxier than an ellipsoid), widening by up to 15 % towards the top, lowest point at y = 0.
    Each step maps the sphere one-to-one and keeps orientation, so the surface stays closed
    and outward."""
    dirs, tris = geodesic_sphere(10)
    verts = []
    for d in dirs:
        x, y, z = (signed_power(t, 0.7) for t in d)
        widen = 1.0 + 0.15 * 0.5 * (y + 1.0)
        verts.append((0.25 * widen * x / 1.15, 0.35 * (y + 1.0), 0.15 * z))
    return verts, tris


def bumpy_sphere():
    dirs, tris = geodesic_sphere(22)
    verts = []
    for x, y, z in dirs:
        bump = math.sin(5.0 * x + 0.3) * math.sin(4.0 * y + 1.1) * math.sin(6.0 * z + 0.7)
        r = 0.5 * (1.0 + 0.04 * bump)
        verts.append((r * x, r * y, r * z))
    return verts, tris


def fmt(v):
    return "%.6f" % v


def check(name, verts, tris):
    """Closed, oriented, outward, no degenerate triangle: on the coordinates as written."""
    pts = [tuple(float(fmt(c)) for c in v) for v in verts]
    assert len(set(pts)) == len(pts), name + ": duplicate vertices"
    directed = {}
    for t, (a, b, c) in enumerate(tris):
        assert len({a, b, c}) == 3, "%s: triangle %d repeats a vertex" % (name, t)
        n = cross(sub(pts[b], pts[a]), sub(pts[c], pts[a]))
        area = 0.5 * math.sqrt(dot(n, n))
        assert area > 1e-8, "%s: triangle %d is degenerate (area %g)" % (name, t, area)
        for e in ((a, b), (b, c), (c, a)):
            assert e not in directed, "%s: edge %s used twice in one direction" % (name, e)
            directed[e] = t
    for a, b in directed:
        assert (b, a) in directed, "%s: edge (%d, %d) is open" % (name, a, b)
    used = set(i for t in tris for i in t)
    assert used == set(range(len(pts))), name + ": unused vertices"
    # Each connected component encloses a positive volume (outward winding).
    parent = list(range(len(pts)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, c in tris:
        parent[find(b)] = find(a)
        parent[find(c)] = find(a)
    volume = {}
    for a, b, c in tris:
        v = dot(pts[a], cross(pts[b], pts[c])) / 6.0
        volume[find(a)] = volume.get(find(a), 0.0) + v
    assert all(v > 0 for v in volume.values()), name + ": a component is inside out"
    return len(volume)


def write(path, verts, tris):
    name = os.path.basename(path)
    components = check(name, verts, tris)
    with open(path, "w", newline="\n") as f:
        f.write("# %s: closed, outward, counter-clockwise; %d vertices, %d triangles, "
                "%d component(s)\n" % (name, len(verts), len(tris), components))
        f.write("# generated by tools/collider_meshes.py (python3 tools/make_meshes.py rewrites it)\n")
        for v in verts:
            f.write("v %s %s %s\n" % tuple(fmt(c) for c in v))
        for a, b, c in tris:
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))
    print("wrote %s: %d vertices, %d triangles, %d component(s)"
          % (os.path.normpath(path), len(verts), len(tris), components))


def write_collider_meshes(out):
    os.makedirs(out, exist_ok=True)
    for name, make in (("table.obj", table), ("body.obj", body),
                       ("bumpy_sphere.obj", bumpy_sphere)):
        verts, tris = make()
        write(os.path.join(out, name), verts, tris)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write_collider_meshes(sys.argv[1] if len(sys.argv) > 1
                          else os.path.join(here, "..", "assets", "meshes"))
