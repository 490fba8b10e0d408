#!/usr/bin/env python3
"""The demo's CGeo sequences: three rigid pieces of debris falling and
spinning, written by the independent writer (cgeo_write.py), not by kiln.

    cgeo_debris.py DIR     # writes DIR/debris-{crate,plank,rock}.cgeo

Each piece is a small box-like mesh (centimetres: Scale 10) moved rigidly:
snapshot k is R(axis, spin * t) about the centre of snapshot 0's bounds,
plus a throw under gravity, at 30 snapshots a second (33,333 µs). The crate
is zlib-compressed with a point cloud, the rock has bounding boxes, the
plank starts ten snapshots late (so it is absent from the first frames of a
cache built from all three).
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cgeo_write  # noqa: E402

STEP_US = 33333
F32 = struct.Struct("<f")


def f32(x):
    return F32.unpack(F32.pack(x))[0]


def bits(x):
    return cgeo_write.bits(x)


def rotate(axis, angle, v):
    """Rodrigues' rotation of v about the unit axis."""
    ax, ay, az = axis
    c, s = math.cos(angle), math.sin(angle)
    dot = ax * v[0] + ay * v[1] + az * v[2]
    cross = (ay * v[2] - az * v[1], az * v[0] - ax * v[2], ax * v[1] - ay * v[0])
    return tuple(v[i] * c + cross[i] * s + axis[i] * dot * (1 - c) for i in range(3))


def box_mesh(size, jitter):
    sx, sy, sz = size
    corners = [(x * sx, y * sy, z * sz) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    # A few points off the corners, so the rotation is determined everywhere.
    extra = [(sx * jitter, 0.3 * sy, sz), (-0.2 * sx, sy * jitter, -0.5 * sz)]
    vertices = corners + extra
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    triangles = []
    for a, b, c, d in quads:
        for tri in ((a, b, c), (a, c, d)):
            triangles.append({"v": list(tri), "n": [0, 0, 0], "maps": [], "material": 0, "edges": 7})
    return vertices, triangles


def piece(obj, size, jitter, centre, axis, spin, velocity, n, start_us, compressed, bbox, points):
    norm = math.sqrt(sum(a * a for a in axis))
    axis = tuple(a / norm for a in axis)
    local, triangles = box_mesh(size, jitter)
    base = [tuple(f32(centre[i] + p[i]) for i in range(3)) for p in local]
    lo = [min(v[i] for v in base) for i in range(3)]
    hi = [max(v[i] for v in base) for i in range(3)]
    origin = [(lo[i] + hi[i]) / 2 for i in range(3)]
    snapshots = []
    for k in range(n):
        t = k * STEP_US / 1e6
        shift = (velocity[0] * t, velocity[1] * t, velocity[2] * t - 490.0 * t * t)
        verts = []
        for v in base:
            r = rotate(axis, spin * t, tuple(v[i] - origin[i] for i in range(3)))
            verts.append(tuple(f32(origin[i] + r[i] + shift[i]) for i in range(3)))
        if k == 0:
            stored = verts
        else:
            stored = [tuple(f32(verts[j][i] - base[j][i]) for i in range(3)) for j in range(len(verts))]
        snap = {
            "complete": k == 0,
            "vertices": [[bits(x) for x in v] for v in stored],
            "normals": [[bits(0.0), bits(0.0), bits(1.0)] if k == 0 else [bits(0.0)] * 3],
            "channels": [],
            "triangles": triangles if k == 0 else [],
            "bbox": None,
            "points": None,
        }
        if bbox:
            vlo = [min(v[i] for v in verts) for i in range(3)]
            vhi = [max(v[i] for v in verts) for i in range(3)]
            snap["bbox"] = [bits(x) for x in vlo + vhi]
        if points:
            snap["points"] = [[bits(x) for x in v] for v in verts[:4]]
        snapshots.append(snap)
    return {
        "compressed": compressed,
        "topology_changing": False,
        "time_per_snapshot_us": STEP_US,
        "start_us": start_us,
        "scale": "10",
        "material": "Debris",
        "object": obj,
        "other": ["Written by tests/oracles/cgeo_debris.py"],
        "snapshots": snapshots,
    }


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    pieces = {
        "debris-crate.cgeo": piece("Crate01", (20, 20, 20), 0.5, (0, 0, 200), (0.2, 1, 0.1),
                                   4.0, (60, 0, 150), 40, 0, True, False, True),
        "debris-plank.cgeo": piece("Plank02", (60, 8, 3), 0.7, (50, -30, 180), (0, 0.3, 1),
                                   9.0, (-40, 80, 100), 25, 10 * STEP_US, False, False, False),
        "debris-rock.cgeo": piece("Rock03", (12, 9, 7), 0.3, (-40, 20, 220), (1, 0.4, 0.2),
                                  6.5, (20, -50, 50), 45, 0, False, True, False),
    }
    for name, seq in pieces.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(cgeo_write.write(seq))


if __name__ == "__main__":
    main()
