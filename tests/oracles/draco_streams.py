#!/usr/bin/env python3
"""Draco streams that decode to the most from the fewest bytes, as DracoPy
2.2.0 (Google's C++ encoder) compresses them at its best, for the stress
tier's memory caps (tests/stress/memory.rs):

- grid N: an N x N flat grid, N*N points and 2*(N-1)^2 triangles; a
  regular grid costs the parallelogram predictor nothing and Edgebreaker
  little, so the most triangles a byte.
- soup M: M disjoint triangles along a line, 3*M points; the most points
  a triangle.

Usage: draco_streams.py grid|soup COUNT OUT. Writes the stream's bytes to
OUT and, on stdout, "POINTS FACES" as DracoPy decodes them again.
"""
import sys

import DracoPy
import numpy as np


def grid(n):
    ys, xs = np.mgrid[0:n, 0:n]
    points = np.stack([xs, ys, np.zeros_like(xs)], axis=-1).reshape(-1, 3)
    i = (ys[:-1, :-1] * n + xs[:-1, :-1]).reshape(-1)
    # The two triangles of each quad side by side, row by row.
    faces = np.stack(
        [np.stack([i, i + 1, i + n], axis=-1), np.stack([i + 1, i + n + 1, i + n], axis=-1)],
        axis=1,
    ).reshape(-1, 3)
    return points, faces


def soup(m):
    x = np.arange(m)
    corners = np.zeros((m, 3, 3))
    corners[:, 0, 0] = x
    corners[:, 1, 0] = x + 0.5
    corners[:, 2, 0] = x
    corners[:, 2, 1] = 1
    return corners.reshape(-1, 3), np.arange(3 * m).reshape(-1, 3)


def main():
    kind, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    points, faces = {"grid": grid, "soup": soup}[kind](count)
    stream = DracoPy.encode(
        points.astype(np.float32), faces.astype(np.uint32), quantization_bits=14, compression_level=10
    )
    with open(out, "wb") as f:
        f.write(stream)
    decoded = DracoPy.decode(stream)
    print(len(decoded.points), len(decoded.faces))


main()
