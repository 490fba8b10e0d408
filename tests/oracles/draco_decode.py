#!/usr/bin/env python3
"""Google's Draco decoder (DracoPy 2.2.0, which wraps the C++ library) run
over every KHR_draco_mesh_compression primitive of a GLB, for
tests/bake/draco.rs to compare kiln's decode with.

Usage: draco_decode.py FILE.glb. Writes JSON on stdout: a list, one entry a
Draco primitive in (mesh, primitive) order: {"mesh", "primitive",
"points", "faces": [int], "attributes": {glTF name: {"data_type",
"components", "values": [...]}}}. Float values are their IEEE binary32 bit
patterns (integers), so every bit is compared; integer values as they are.
"""
import json
import struct
import sys

import DracoPy
import numpy as np


def glb_parts(data):
    magic, _version, length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and length == len(data)
    offset, doc, binary = 12, None, b""
    while offset < length:
        size, kind = struct.unpack_from("<II", data, offset)
        chunk = data[offset + 8 : offset + 8 + size]
        if kind == 0x4E4F534A:
            doc = json.loads(chunk)
        elif kind == 0x004E4942:
            binary = chunk
        offset += 8 + size
    return doc, binary


def main():
    doc, binary = glb_parts(open(sys.argv[1], "rb").read())
    out = []
    for m, mesh in enumerate(doc.get("meshes", [])):
        for p, prim in enumerate(mesh["primitives"]):
            ext = prim.get("extensions", {}).get("KHR_draco_mesh_compression")
            if ext is None:
                continue
            view = doc["bufferViews"][ext["bufferView"]]
            start = view.get("byteOffset", 0)
            decoded = DracoPy.decode(binary[start : start + view["byteLength"]])
            attributes = {}
            for name, uid in ext["attributes"].items():
                a = decoded.get_attribute_by_unique_id(uid)
                values = np.asarray(a["data"])
                if values.dtype.kind == "f":
                    flat = values.astype(np.float32).reshape(-1).view(np.uint32)
                else:
                    flat = values.reshape(-1)
                attributes[name] = {
                    "data_type": int(a["data_type"]),
                    "components": int(a["num_components"]),
                    "values": [int(v) for v in flat],
                }
            out.append(
                {
                    "mesh": m,
                    "primitive": p,
                    "points": int(np.asarray(decoded.points).shape[0]),
                    "faces": [int(v) for v in np.asarray(decoded.faces).reshape(-1)],
                    "attributes": attributes,
                }
            )
    json.dump(out, sys.stdout)


main()
