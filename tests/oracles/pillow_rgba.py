"""Pillow (an independent decoder) on each file named: for each, one line
"FORMAT MODE LENGTH" on stdout, then LENGTH bytes of its pixels as RGBA
(converted from the file's own mode). Used by tests/pillow_support."""
import sys

from PIL import Image

out = sys.stdout.buffer
for path in sys.argv[1:]:
    im = Image.open(path)
    fmt, mode = im.format, im.mode
    data = im.convert("RGBA").tobytes()
    out.write(f"{fmt} {mode} {len(data)}\n".encode())
    out.write(data)
