#!/usr/bin/env python3
"""An independent CGeo v7 writer, written from docs/formats/cgeo.md alone.

    cgeo_write.py < sequence.json > file.cgeo
    cgeo_write.py --seeds DIR        # a few files for the cgeo_decode fuzz target

JSON: {"compressed": bool, "topology_changing": bool, "time_per_snapshot_us",
"start_us", "scale" (a string, written as given), "material", "object",
"other": [["key", "value"] or "free text"], "snapshots": [{"complete": bool,
"vertices": [[x,y,z] as float32 bit patterns], "normals": [...], "channels":
[[[u,v,w]...]...], "triangles": [{"v": [3], "n": [3], "maps": [[3] per
channel], "material", "edges"}], "bbox": [6 bits] or null, "points": [[3
bits]] or null, "unknown": [[id, hex]], "order": [ids] or []}]}. A difference
snapshot's vertices, normals and channels are the stored differences. Zlib
payloads use Python's zlib at level 6 (other bytes than kiln's encoder, the
same inflated content).
"""
import json
import os
import struct
import sys
import zlib

TAGS = {
    "snap_start": 0xA3CDEF00,
    "snap_end": 0xFED3BA11,
    "table_start": 0xFAD0CCA1,
    "table_end": 0xE580AC23,
    "bbox": 0x2F89A8B5,
    "mesh": 0x35F71EA8,
    "vertices_end": 0x42C342CC,
    "normals_end": 0xB00B06B0,
    "maps_end": 0xCAAC04CA,
    "points": 0x1387EBEB,
}


def u32(v):
    return struct.pack("<I", v)


def floats(triples):
    return b"".join(struct.pack("<3I", *t) for t in triples)


def mesh_payload(s):
    if not s["complete"]:
        out = b"\x00" + floats(s["vertices"]) + u32(TAGS["vertices_end"])
        out += floats(s["normals"]) + u32(TAGS["normals_end"])
        for ch in s["channels"]:
            out += floats(ch)
        return out + u32(TAGS["maps_end"])
    out = b"\x01" + struct.pack(
        "<4I", len(s["vertices"]), len(s["normals"]), len(s["channels"]), len(s["triangles"])
    )
    out += floats(s["vertices"]) + u32(TAGS["vertices_end"])
    out += floats(s["normals"]) + u32(TAGS["normals_end"])
    for ch in s["channels"]:
        out += u32(len(ch)) + floats(ch)
    out += u32(TAGS["maps_end"])
    for t in s["triangles"]:
        out += struct.pack("<3I", *t["v"]) + struct.pack("<3I", *t["n"])
        for m in t["maps"]:
            out += struct.pack("<3I", *m)
        out += struct.pack("<HB", t["material"], t["edges"])
    return out


def write(seq):
    header = [
        ("Version", "7"),
        ("Animation snapshot count", str(len(seq["snapshots"]))),
        ("Time per animation snapshot [microseconds]", str(seq["time_per_snapshot_us"])),
        ("Animation time start", str(seq["start_us"])),
        ("Scale", seq["scale"]),
        ("Original material name", seq["material"]),
        ("Original object name", seq["object"]),
        ("Compressed", "True" if seq["compressed"] else "False"),
    ]
    text = "".join(f"{k}: {v}\n" for k, v in header)
    for line in seq["other"]:
        text += f"{line[0]}: {line[1]}\n" if isinstance(line, list) else f"{line}\n"
    text = text.encode()
    out = bytearray(b"\x43" + u32(len(text)) + text)
    out += u32(0x2 if seq["topology_changing"] else 0)
    out += u32(TAGS["table_start"])
    table = len(out)
    out += b"\x00" * (8 * len(seq["snapshots"]))
    out += u32(TAGS["table_end"])
    for k, s in enumerate(seq["snapshots"]):
        out += u32(TAGS["snap_start"])
        struct.pack_into("<Q", out, table + 8 * k, len(out))
        sections = {TAGS["mesh"]: mesh_payload(s)}
        if s.get("bbox") is not None:
            sections[TAGS["bbox"]] = struct.pack("<6I", *s["bbox"])
        if s.get("points") is not None:
            sections[TAGS["points"]] = struct.pack("<Q", len(s["points"])) + floats(s["points"])
        raw = {}
        for ident, hexdata in s.get("unknown", []):
            raw[ident] = bytes.fromhex(hexdata)
        order = s.get("order") or list(sections) + list(raw)
        for ident in order:
            if ident in sections:
                payload = sections[ident]
                if seq["compressed"]:
                    payload = zlib.compress(payload, 6)
            else:
                payload = raw[ident]
            out += u32(ident) + struct.pack("<Q", len(payload)) + payload
        out += u32(TAGS["snap_end"])
    return bytes(out)


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def seed_sequences():
    tri = {"v": [0, 1, 2], "n": [0, 0, 0], "maps": [[0, 1, 2]], "material": 1, "edges": 7}
    base = {
        "complete": True,
        "vertices": [[bits(0.0)] * 3, [bits(1.0), bits(0.0), bits(0.0)], [bits(0.0), bits(1.0), bits(0.0)]],
        "normals": [[bits(0.0), bits(0.0), bits(1.0)]],
        "channels": [[[bits(0.0)] * 3, [bits(1.0), bits(0.0), bits(0.0)], [bits(0.0), bits(1.0), bits(0.0)]]],
        "triangles": [tri],
        "bbox": [bits(0.0)] * 3 + [bits(1.0)] * 3,
        "points": [[bits(0.5)] * 3],
    }
    diff = {
        "complete": False,
        "vertices": [[bits(0.25)] * 3] * 3,
        "normals": [[bits(0.0)] * 3],
        "channels": [[[bits(0.0)] * 3] * 3],
        "bbox": [bits(0.0)] * 3 + [bits(1.25)] * 3,
        "points": None,
    }
    for compressed in (False, True):
        for topology in (False, True):
            later = dict(base) if topology else diff
            yield {
                "compressed": compressed,
                "topology_changing": topology,
                "time_per_snapshot_us": 40000,
                "start_us": 0,
                "scale": "1",
                "material": "[none]",
                "object": "tri",
                "other": ["seed", ["Exporter", "cgeo_write.py"]],
                "snapshots": [base, later],
            }


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
        os.makedirs(sys.argv[2], exist_ok=True)
        for i, seq in enumerate(seed_sequences()):
            with open(os.path.join(sys.argv[2], f"seed{i}.cgeo"), "wb") as f:
                f.write(write(seq))
    else:
        sys.stdout.buffer.write(write(json.load(sys.stdin)))
