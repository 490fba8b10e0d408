#!/usr/bin/env python3
"""A SIDE x SIDE JPEG of one colour, as Pillow writes it (4:2:0, quality
50), baseline or progressive: the most pixels a JPEG's bytes may claim
under kiln's rule, for the stress tier's memory caps
(tests/stress/memory.rs).

Usage: solid_jpeg.py SIDE baseline|progressive OUT.
"""
import sys

from PIL import Image

side, mode, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
Image.new("RGB", (side, side), (200, 100, 50)).save(
    out, "JPEG", quality=50, progressive={"baseline": False, "progressive": True}[mode]
)
