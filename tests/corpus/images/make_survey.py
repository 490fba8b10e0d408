"""Writes the image survey fixtures (tests/formats/images.rs
`what_real_exporters_write_is_decided_image_by_image`) with Pillow:
python3 tests/corpus/images/make_survey.py (Pillow 13.0.0 made the
committed files). Each is a 16 x 12 pattern: r = 16x, g = 20y, b = 128 (the 16-bit grey
PNG: pixel k holds (k * 523) % 65536)."""
import os, struct, zlib
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 16, 12

def pattern(mode="RGB"):
    im = Image.new("RGB", (W, H))
    im.putdata([(16 * x, 20 * y, 128) for y in range(H) for x in range(W)])
    return im.convert(mode) if mode != "RGB" else im

def save(name, im, **kw):
    im.save(os.path.join(HERE, name), **kw)

def adam7_png(im):
    """Pillow reads interlaced PNGs but does not write them: Adam7 by
    hand, filter 0 on every row of every pass."""
    px = im.load()
    raw = b""
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                           (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        for y in ys:
            raw += b"\0" + b"".join(bytes(px[x, y]) for x in xs)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))

with open(os.path.join(HERE, "survey-interlaced.png"), "wb") as f:
    f.write(adam7_png(pattern()))
assert Image.open(os.path.join(HERE, "survey-interlaced.png")).convert("RGB").tobytes() == pattern().tobytes()
pal = pattern().convert("P", palette=Image.Palette.ADAPTIVE, colors=16)
pal.info["transparency"] = 0
save("survey-palette-trns.png", pal, transparency=0)
# 16-bit grey: pixel k (row-major) holds (k * 523) % 65536.
grey16 = b"".join(struct.pack("<H", (k * 523) % 65536) for k in range(W * H))
save("survey-16bit-grey.png", Image.frombytes("I;16", (W, H), grey16))
save("survey-progressive.jpg", pattern(), quality=95, progressive=True)
save("survey-baseline.jpg", pattern(), quality=95)
exif = Image.Exif()
exif[0x0112] = 6  # Orientation: rotate 90 degrees clockwise to display
save("survey-exif-rotated.jpg", pattern(), quality=95, exif=exif.tobytes())
save("survey-grey.jpg", pattern("L"), quality=95)
