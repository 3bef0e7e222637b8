#!/usr/bin/python3
"""Writes the sample meshes in assets/meshes/ (deterministic; run from anywhere):

  flag.obj   1.2 m x 0.8 m rectangle, rows with varying vertex counts zipped together:
             an irregular triangulation (valences 4 to 8), straight borders, UVs.
  disc.obj   disc of radius 0.5 m from concentric rings of 6k vertices zipped together, UVs.
  quads.obj  1.0 m x 0.6 m panel of 10 x 6 quad faces with uneven column widths, UVs.
  skirt.obj  a half-circle skirt, 0.6 m long for a waist of radius 0.14 m: its sewing pattern
             (half an annulus, in metres) in the UVs, and worn as the cone that pattern rolls
             into without stretching (half-angle 30 degrees), the waist at y = 1 m; one seam
             where the pattern's two straight edges meet, whose vertices have a UV on each side.
  dress_panel.obj  one panel of a sleeveless A-line dress, worn as its front and its back
             (dress.json): its flat sewing pattern in the UVs, in metres (0.46 m across the
             shoulders with a scooped neckline, 0.47 m at the chest, 0.5 m at the hips, 1.2 m
             at a curved hem, 1.05 m long in the middle), worn bent about a vertical axis
             (each row an arc as long as the row), the shoulder line at y = 0, the panel's
             middle at x = z = 0 and its sides curling towards -z.
  pleated_curtain.obj  a 1.2 m x 1.0 m curtain, 24 x 20 quads (each split top-left to
             bottom-right, as a Regular grid), worn pleated: its flat pattern in the UVs (metres),
             folded along the five vertical lines u = 0.2, 0.4, ..., 1.0 m into six panels that
             zig-zag at -35 and +35 degrees about the x axis in the xz plane (folds of +70, -70,
             +70, -70, +70 degrees: a positive fold towards the front, +z), 0.983 m across, centred
             on the origin, y up (pleats.json).

The first three lie in the XY plane (y up) with front faces (counter-clockwise) towards +z.

The closed collider meshes (table.obj, body.obj, bumpy_sphere.obj) come from
tools/collider_meshes.py, which this script runs too.
"""
import math
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "meshes")


def fmt(x):
    s = "%.6f" % x
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def write_obj(name, header, verts, uvs, faces):
    """A flat mesh (verts in the xy plane) whose vertex i has texture coordinate i."""
    write_uv_obj(name, header, [(x, y, 0.0) for x, y in verts], uvs,
                 [[(i, i) for i in face] for face in faces])


def zip_rows(a, b, xa, xb):
    """Triangles between row a (above) and row b (below), both ordered left to right."""
    tris, i, j = [], 0, 0
    while i < len(a) - 1 or j < len(b) - 1:
        advance_top = j == len(b) - 1 or (i < len(a) - 1 and xa[i + 1] <= xb[j + 1])
        if advance_top:
            tris.append((a[i], b[j], a[i + 1]))
            i += 1
        else:
            tris.append((a[i], b[j], b[j + 1]))
            j += 1
    return tris


def flag():
    width, height, rows = 1.2, 0.8, 16
    verts, rowsIdx, rowsX = [], [], []
    for r in range(rows + 1):
        n = 14 + (r * 7) % 5  # 14..18 vertices per row
        y = height / 2 - height * r / rows
        xs = []
        for c in range(n):
            t = c / (n - 1)
            if 0 < c < n - 1:  # jitter interior vertices a little, deterministically
                t += 0.25 / (n - 1) * math.sin(3.7 * r + 1.3 * c)
            xs.append(-width / 2 + width * t)
        rowsIdx.append(list(range(len(verts), len(verts) + n)))
        rowsX.append(xs)
        verts += [(x, y) for x in xs]
    faces = []
    for r in range(rows):
        faces += zip_rows(rowsIdx[r], rowsIdx[r + 1], rowsX[r], rowsX[r + 1])
    uvs = [((x + width / 2) / width, (y + height / 2) / height) for x, y in verts]
    write_obj("flag.obj", "irregular flag, 1.2 m x 0.8 m", verts, uvs, faces)


def disc():
    radius, rings = 0.5, 10
    verts, ringIdx, ringAng = [(0.0, 0.0)], [[0]], [[0.0]]
    for k in range(1, rings + 1):
        n, r = 6 * k, radius * k / rings
        off = 0.5 * (k % 2) * 2 * math.pi / n  # stagger alternate rings
        ang = [off + 2 * math.pi * i / n for i in range(n)]
        ringIdx.append(list(range(len(verts), len(verts) + n)))
        ringAng.append(ang)
        verts += [(r * math.cos(t), r * math.sin(t)) for t in ang]
    faces = [(0, ringIdx[1][i], ringIdx[1][(i + 1) % 6]) for i in range(6)]
    for k in range(2, rings + 1):
        a, b, aa, ba = ringIdx[k - 1], ringIdx[k], ringAng[k - 1], ringAng[k]
        n, m = len(a), len(b)
        i = j = 0
        while i < n or j < m:  # cyclic zipper by angle
            na = aa[(i + 1) % n] + (2 * math.pi if i + 1 >= n else 0)
            nb = ba[(j + 1) % m] + (2 * math.pi if j + 1 >= m else 0)
            if j == m or (i < n and na <= nb):
                faces.append((a[i % n], b[j % m], a[(i + 1) % n]))
                i += 1
            else:
                faces.append((a[i % n], b[j % m], b[(j + 1) % m]))
                j += 1
    uvs = [(x / (2 * radius) + 0.5, y / (2 * radius) + 0.5) for x, y in verts]
    write_obj("disc.obj", "disc of radius 0.5 m from concentric rings", verts, uvs, faces)


def quads():
    width, height, nx, ny = 1.0, 0.6, 10, 6
    xs = [-width / 2 + width * (c / nx) ** 1.3 for c in range(nx + 1)]  # uneven columns
    verts = [(x, height / 2 - height * r / ny) for r in range(ny + 1) for x in xs]
    faces = []
    for r in range(ny):
        for c in range(nx):
            tl = r * (nx + 1) + c
            faces.append((tl, tl + nx + 1, tl + nx + 2, tl + 1))  # CCW from +z
    uvs = [((x + width / 2) / width, (y + height / 2) / height) for x, y in verts]
    write_obj("quads.obj", "panel of quad faces, 1.0 m x 0.6 m", verts, uvs, faces)



def write_uv_obj(name, header, verts, uvs, faces):
    """OUT/name: positions, texture coordinates and faces of (vertex, uv) index pairs."""
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        f.write("# %s\n# generated by tools/make_meshes.py\n" % header)
        for x, y, z in verts:
            f.write("v %s %s %s\n" % (fmt(x), fmt(y), fmt(z)))
        for u, v in uvs:
            f.write("vt %s %s\n" % (fmt(u), fmt(v)))
        for face in faces:
            f.write("f " + " ".join("%d/%d" % (vi + 1, ti + 1) for vi, ti in face) + "\n")
    print("wrote %s: %d vertices, %d faces" % (os.path.normpath(path), len(verts), len(faces)))

def skirt():
    """Pattern: polar (rho, phi), rho from the waist's rw = 2 R to rw + L, phi from 0 to pi; the
    half annulus rolls into a cone of half-angle 30 degrees (circumference pi rho = 2 pi R at
    radius R = rho / 2), azimuth 2 phi, apex above the waist."""
    waist_r, length, n_around, n_down, waist_y = 0.14, 0.6, 96, 20, 1.0
    rw = 2.0 * waist_r
    apex_y = waist_y + rw * math.sqrt(3.0) / 2.0
    verts, uvs = [], []
    for j in range(n_down + 1):  # row 0 at the waist
        rho = rw + length * j / n_down
        for i in range(n_around):  # the seam's column once
            theta = 2.0 * math.pi * i / n_around
            # a ripple of 8 waves growing towards the hem, so that the cone breaks into folds
            r = 0.5 * rho + 0.01 * (rho - rw) / length * math.sin(8.0 * theta)
            verts.append((r * math.sin(theta), apex_y - rho * math.sqrt(3.0) / 2.0,
                          r * math.cos(theta)))
        for i in range(n_around + 1):  # the pattern has both sides of the seam
            phi = math.pi * i / n_around
            uvs.append((rw + length + rho * math.cos(phi), rho * math.sin(phi)))
    faces = []
    for j in range(n_down):
        for i in range(n_around):
            a, b = (j, i), (j, i + 1)
            c, d = (j + 1, i + 1), (j + 1, i)
            corner = lambda jj, ii: (jj * n_around + ii % n_around, jj * (n_around + 1) + ii)
            # counter-clockwise seen from outside the cone
            faces.append((corner(*a), corner(*d), corner(*c)))
            faces.append((corner(*a), corner(*c), corner(*b)))
    write_uv_obj("skirt.obj", "half-circle skirt, waist radius 0.14 m, 0.6 m long: pattern in "
                 "the UVs (m)", verts, uvs, faces)


DRESS_COLUMNS, DRESS_ROWS, DRESS_ARMHOLE_ROWS, DRESS_SHOULDER = 27, 42, 8, 5


def dress_half_width(t):
    """The pattern's half width t metres below the shoulder line: the armhole (unsewn) widens
    from 0.23 to 0.235 m over 0.2 m, straight to the waist at 0.42 m, 0.25 m at the hips
    (0.62 m), then the skirt flares to 0.6 m at the hem (1.05 m)."""
    if t <= 0.2:
        return 0.23 + 0.005 * t / 0.2
    if t <= 0.42:
        return 0.235
    if t <= 0.62:
        return 0.235 + 0.015 * (t - 0.42) / 0.2
    return 0.25 + 0.35 * (t - 0.62) / 0.43


def dress_panel():
    """Rows from the shoulder line (row 0) to the hem, DRESS_COLUMNS vertices each, evenly
    across the row's width; row r's first and last vertices are the side seam from row
    DRESS_ARMHOLE_ROWS down (dress.json sews them), row 0's first and last DRESS_SHOULDER the
    shoulder seams, the ones between them the neckline. Worn: each row bent into an arc of its
    own length about a vertical axis, 2 rad at the shoulders to 1 rad at the hem, so that two
    panels 0.32 m apart leave a gap of 3 to 15 cm at the side seams (11 to 21 cm at the
    shoulders) and the pose's edges are within 10% of the pattern's; below the hips a ripple of three waves, growing to 1 cm at the hem, so that
    the skirt breaks into folds."""
    length, waves = 1.05, 3
    verts, uvs = [], []
    for r in range(DRESS_ROWS + 1):
        t = length * r / DRESS_ROWS
        w = dress_half_width(t)
        theta = 1.0 - 0.5 * t / length  # the half angle
        radius = w / theta
        ripple = 0.01 * max(0.0, (t - 0.62) / 0.43)
        for c in range(DRESS_COLUMNS):
            s = -1.0 + 2.0 * c / (DRESS_COLUMNS - 1)
            # the skirt's rows rise towards the sides, so that its slanted side seams are as
            # long as its middle (a curved hem, as patterns cut it) and the corners do not droop
            y = -min(t, 0.62) - max(0.0, t - 0.62) * (1.0 - (1.0 - 0.775) * s * s)
            # a scooped neckline, 8 cm deep in the middle, fading out 0.2 m down
            y -= 0.08 * max(0.0, 1.0 - (s / 0.6) ** 2) * max(0.0, 1.0 - t / 0.2)
            rho = radius + ripple * math.sin(waves * math.pi * (s + 1.0))
            verts.append((rho * math.sin(s * theta), y, rho * math.cos(s * theta) - radius))
            uvs.append((s * w + 0.5, 1.0 + y))  # metres, kept positive
    faces = []
    for r in range(DRESS_ROWS):
        for c in range(DRESS_COLUMNS - 1):
            tl = r * DRESS_COLUMNS + c
            tr, bl, br = tl + 1, tl + DRESS_COLUMNS, tl + DRESS_COLUMNS + 1
            if (r + c) % 2 == 0:  # alternating diagonals; counter-clockwise from +z
                faces += [(tl, bl, br), (tl, br, tr)]
            else:
                faces += [(tl, bl, tr), (tr, bl, br)]
    write_uv_obj("dress_panel.obj", "one panel of an A-line dress, worn bent; its sewing pattern "
                 "in the UVs (m)", verts, uvs, [[(i, i) for i in face] for face in faces])
    n, last = DRESS_COLUMNS, DRESS_ROWS
    side = lambda c: [r * n + c for r in range(DRESS_ARMHOLE_ROWS, last + 1)]
    print("  side seams: left %s, right %s" % (side(0), side(n - 1)))
    print("  shoulder seams: left 0-%d, right %d-%d" % (DRESS_SHOULDER - 1, n - DRESS_SHOULDER, n - 1))


PLEAT_COLUMNS, PLEAT_ROWS, PLEAT_CELL, PLEAT_EVERY, PLEAT_HALF_ANGLE = 24, 20, 0.05, 4, 35.0


def pleat_xz(u):
    """The worn position in the xz plane of the pattern's column at u (metres), uncentred."""
    x = z = 0.0
    width = PLEAT_EVERY * PLEAT_CELL
    panel = 0
    while u > 1e-12:
        step = min(u, width)
        h = math.radians(-PLEAT_HALF_ANGLE if panel % 2 == 0 else PLEAT_HALF_ANGLE)
        x += step * math.cos(h)
        z += step * math.sin(h)
        u -= step
        panel += 1
    return x, z


def pleated_curtain():
    cols, rows = PLEAT_COLUMNS + 1, PLEAT_ROWS + 1
    width, height = PLEAT_COLUMNS * PLEAT_CELL, PLEAT_ROWS * PLEAT_CELL
    xs = [pleat_xz(c * PLEAT_CELL) for c in range(cols)]
    cx = 0.5 * (xs[0][0] + xs[-1][0])
    cz = sum(z for _, z in xs) / len(xs)
    verts, uvs = [], []
    for r in range(rows):  # row 0 on top, as a grid
        for c in range(cols):
            x, z = xs[c]
            verts.append((x - cx, height / 2 - r * PLEAT_CELL, z - cz))
            uvs.append((c * PLEAT_CELL, height - r * PLEAT_CELL))
    faces = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            tl, tr = r * cols + c, r * cols + c + 1
            bl, br = tl + cols, tr + cols
            faces += [(tl, bl, br), (tl, br, tr)]  # counter-clockwise seen from +z
    write_uv_obj("pleated_curtain.obj", "a curtain worn pleated: its flat pattern in the UVs (m)",
                 verts, uvs, [[(i, i) for i in face] for face in faces])
    for k in range(1, PLEAT_COLUMNS // PLEAT_EVERY):
        x, z = xs[k * PLEAT_EVERY]
        print("  crease %d: x %s, z %s" % (k, fmt(x - cx), fmt(z - cz)))


if __name__ == "__main__":
    flag()
    disc()
    quads()
    skirt()
    dress_panel()
    pleated_curtain()
    import collider_meshes  # tools/collider_meshes.py, next to this file

    collider_meshes.write_collider_meshes(OUT)
