#!/usr/bin/env python3
"""One 16,384 x 16,384 texture through the material stage, for peak memory
and time: writes a GLB of one triangle showing a 1-bit greyscale PNG of
that size (33 KB; 1 GiB of RGBA decoded), then runs
`KILN inspect --atlas-png` on it under /usr/bin/time for each KILN given.

    python3 benches/big_image.py target/release/kiln [OTHER_KILN ...]

Prints one line per binary: seconds and peak RSS (KB), and checks the
atlases are the same bytes."""
import json, os, struct, subprocess, sys, tempfile, zlib

SIDE = 16384

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

def png():
    raw = b"".join(b"\0" + bytes(SIDE // 8) for _ in range(SIDE))
    ihdr = struct.pack(">IIBBBBB", SIDE, SIDE, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")

def glb(image):
    bin_ = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<6f", 0, 0, 1, 0, 0, 1)
    at = len(bin_)
    bin_ += image + b"\0" * (-len(image) % 4)
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(bin_)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 24},
            {"buffer": 0, "byteOffset": at, "byteLength": len(image)},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
        ],
        "images": [{"bufferView": 2, "mimeType": "image/png"}],
        "textures": [{"source": 0}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
        "nodes": [{"mesh": 0}],
    }
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    total = 12 + 8 + len(text) + 8 + len(bin_)
    return (b"glTF" + struct.pack("<II", 2, total) + struct.pack("<I", len(text)) + b"JSON" + text
            + struct.pack("<I", len(bin_)) + b"BIN\0" + bin_)

def main():
    work = tempfile.mkdtemp()
    path = os.path.join(work, "big.glb")
    with open(path, "wb") as f:
        f.write(glb(png()))
    atlases = []
    for n, kiln in enumerate(sys.argv[1:]):
        out = os.path.join(work, f"atlas{n}.png")
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M", kiln, "inspect", "--atlas-png", out, path],
                           capture_output=True, text=True, check=True)
        seconds, rss = r.stderr.split()[-2:]
        print(f"{kiln}: {seconds} s, peak RSS {rss} KB")
        atlases.append(open(out, "rb").read())
    assert all(a == atlases[0] for a in atlases), "the atlases differ"

main()
