#!/usr/bin/env python3
"""The shipped garment (assets/scenes/dress.json) after a short headless run, checked from the
exported OBJ alone, with no code of the solver's (python3, standard library only):
- every sewn pair (the seams' vertex lists, read from the scene) is closed: its two vertices at
  most SEAM_GAP apart (they start up to 25 cm apart);
- no edge is stretched past MAX_STRETCH of its length in the sewing pattern (the OBJ's UVs, in
  metres: the rest shape);
- no vertex is inside a collider of the body: the signed distance to each capsule, rounded box
  and the ground, from the scene's sizes and transforms, is at least MIN_CLEARANCE of the
  cloth's thickness.
Usage: garment_scene.py CLOTHSIM SCENE OUT_DIR FRAMES; exits 1 (one line per problem) on failure.
"""
import json
import math
import os
import subprocess
import sys

SEAM_GAP = 0.005  # m
MAX_STRETCH = 0.20
MIN_CLEARANCE = 0.5  # of the thickness


def read_obj(path):
    """{object name: (positions, uvs, triangles)}, 0-based, per object."""
    objects, name, base_v, base_vt = {}, None, 0, 0
    all_v, all_vt = [], []
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "o":
            name = f[1]
            objects[name] = ([], [], [])
            base_v, base_vt = len(all_v), len(all_vt)
        elif f[0] == "v":
            all_v.append(tuple(map(float, f[1:4])))
            objects[name][0].append(all_v[-1])
        elif f[0] == "vt":
            all_vt.append(tuple(map(float, f[1:3])))
            objects[name][1].append(all_vt[-1])
        elif f[0] == "f":
            corners = [c.split("/") for c in f[1:]]
            objects[name][2].append(tuple(int(c[0]) - 1 - base_v for c in corners))
            assert all(int(c[1]) - 1 - base_vt == int(c[0]) - 1 - base_v for c in corners)
    return objects


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def norm(a):
    return math.sqrt(sum(x * x for x in a))


def rotate_inverse(p, degrees):
    """The scene's rotation is about X, then Y, then Z: undo Z, then Y, then X."""
    x, y, z = p
    rx, ry, rz = (math.radians(d) for d in degrees)
    x, y = x * math.cos(rz) + y * math.sin(rz), -x * math.sin(rz) + y * math.cos(rz)
    x, z = x * math.cos(ry) - z * math.sin(ry), x * math.sin(ry) + z * math.cos(ry)
    y, z = y * math.cos(rx) + z * math.sin(rx), -y * math.sin(rx) + z * math.cos(rx)
    return (x, y, z)


def signed_distance(collider, p):
    t = collider.get("transform", {})
    q = rotate_inverse(sub(p, t.get("translate", [0, 0, 0])), t.get("rotate", [0, 0, 0]))
    shape = collider["shape"]
    if shape == "plane":
        return q[1]
    if shape == "capsule":
        h = collider.get("half_height", 0.5)
        y = max(-h, min(h, q[1]))
        return norm((q[0], q[1] - y, q[2])) - collider.get("radius", 0.5)
    if shape == "box":
        r = collider.get("radius", 0.0)
        inner = [e - r for e in collider.get("half_extents", [0.5, 0.5, 0.5])]
        d = [abs(c) - e for c, e in zip(q, inner)]
        outside = norm([max(c, 0.0) for c in d])
        return outside + min(max(d), 0.0) - r
    if shape == "sphere":
        return norm(q) - collider.get("radius", 0.5)
    raise ValueError("unexpected collider shape " + shape)


def main():
    clothsim, scene_path, out_dir, frames = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    os.makedirs(out_dir, exist_ok=True)
    subprocess.run([clothsim, "--headless", "--backend", "cpu", "--threads", "2", "--scene",
                    scene_path, "--frames", str(frames), "--export-obj", out_dir,
                    "--export-every", str(frames)], check=True)
    scene = json.load(open(scene_path))
    objects = read_obj(os.path.join(out_dir, "frame_%04d.obj" % frames))
    cloths = [objects[c["name"]] for c in scene["cloths"]]
    problems = []

    gap, pairs = 0.0, 0
    for s in scene["seams"]:
        a, b = s["a"]["vertices"]["indices"], s["b"]["vertices"]["indices"]
        if s.get("reverse", False):
            b = b[::-1]
        xa, xb = cloths[s["a"]["cloth"]][0], cloths[s["b"]["cloth"]][0]
        for i, j in zip(a, b):
            gap = max(gap, norm(sub(xa[i], xb[j])))
            pairs += 1
    print("%d sewn pairs, the widest %.2f mm apart" % (pairs, 1000 * gap))
    if gap > SEAM_GAP:
        problems.append("a seam is open: %.2f mm (at most %.1f)" % (1000 * gap, 1000 * SEAM_GAP))

    stretch, edges = 0.0, 0
    for c, (x, uv, tris) in zip(scene["cloths"], cloths):
        scale = c.get("uv_scale", 1.0)
        seen = set()
        for t in tris:
            for k in range(3):
                e = tuple(sorted((t[k], t[(k + 1) % 3])))
                if e in seen:
                    continue
                seen.add(e)
                rest = scale * norm(sub(uv[e[0]], uv[e[1]]))
                stretch = max(stretch, norm(sub(x[e[0]], x[e[1]])) / rest - 1.0)
        edges += len(seen)
    print("%d edges, the largest stretch %.2f%% of its pattern length" % (edges, 100 * stretch))
    if stretch > MAX_STRETCH:
        problems.append("an edge stretched %.1f%% (at most %.0f%%)" % (100 * stretch,
                                                                    100 * MAX_STRETCH))

    worst, where = float("inf"), ""
    for c, (x, _, _) in zip(scene["cloths"], cloths):
        h = c.get("material", {}).get("thickness", 0.005)
        for col in scene["colliders"]:
            for i, p in enumerate(x):
                d = signed_distance(col, p) / h
                if d < worst:
                    worst, where = d, "%s vertex %d, %s" % (c["name"], i, col["name"])
    print("the closest vertex to a collider: %.2f thicknesses (%s)" % (worst, where))
    if worst < MIN_CLEARANCE:
        problems.append("a vertex is %.2f thicknesses from a collider (%s; at least %.1f)"
                        % (worst, where, MIN_CLEARANCE))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
