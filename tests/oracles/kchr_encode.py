#!/usr/bin/env python3
"""An independent KCHR v1 encoder, written from docs/formats/kchr-v1.md alone.

Reads a JSON document on stdin and writes its bytes on stdout. Floats are
given as their IEEE binary32 bit patterns (integers), so that every bit is
the caller's; image bytes as hex. It checks nothing beyond what packing
needs: tests/formats/kchr.rs compares its bytes with kiln's encoder.

JSON: {"models": [{"id", "bank", "nodes": [{"name", "parent" (null or int),
"t": [3 bits], "r": [4], "s": [3]}], "mesh_node", "joints": [int],
"inverse_bind": [[16 bits]], "vertices": [[16 bits]], "indices": [int],
"image": {"width", "height", "qoi": hex}}], "banks": [{"id", "clips":
[{"name", "duration": bits, "tracks": [{"node", "path", "step",
"times": [bits], "values": [bits]}]}]}]}
"""
import json
import struct
import sys


def name(s):
    b = s.encode("utf-8")
    return struct.pack("<B", len(b)) + b


def u32(v):
    return struct.pack("<I", v)


def floats(bits):
    return b"".join(struct.pack("<I", x) for x in bits)


def model(m):
    out = name(m["id"]) + u32(m["bank"]) + u32(len(m["nodes"]))
    for n in m["nodes"]:
        parent = 0xFFFFFFFF if n["parent"] is None else n["parent"]
        out += name(n["name"]) + u32(parent) + floats(n["t"]) + floats(n["r"]) + floats(n["s"])
    out += u32(m["mesh_node"]) + u32(len(m["joints"]))
    out += b"".join(u32(j) for j in m["joints"])
    out += b"".join(floats(x) for x in m["inverse_bind"])
    out += u32(len(m["vertices"])) + b"".join(floats(v) for v in m["vertices"])
    out += u32(len(m["indices"])) + b"".join(struct.pack("<H", i) for i in m["indices"])
    qoi = bytes.fromhex(m["image"]["qoi"])
    out += u32(m["image"]["width"]) + u32(m["image"]["height"]) + u32(len(qoi)) + qoi
    return out


def bank(b):
    out = name(b["id"]) + u32(len(b["clips"]))
    for c in b["clips"]:
        out += name(c["name"]) + u32(c["duration"]) + u32(len(c["tracks"]))
        for t in c["tracks"]:
            out += name(t["node"]) + struct.pack("<BBH", t["path"], 1 if t["step"] else 0, 0)
            out += u32(len(t["times"])) + floats(t["times"]) + floats(t["values"])
    return out


def document(doc):
    body = b"".join(model(m) for m in doc["models"]) + b"".join(bank(b) for b in doc["banks"])
    length = 20 + len(body)
    header = b"KCHR" + u32(1) + u32(0) + u32(length)
    header += struct.pack("<HH", len(doc["models"]), len(doc["banks"]))
    return header + body


def main():
    # One document, or a list of them: then each is written after its
    # length as a u32.
    doc = json.load(sys.stdin)
    if isinstance(doc, list):
        for d in doc:
            b = document(d)
            sys.stdout.buffer.write(u32(len(b)) + b)
    else:
        sys.stdout.buffer.write(document(doc))


main()
