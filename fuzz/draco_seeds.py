#!/usr/bin/env python3
"""Writes every Draco stream of tests/corpus/glb-variants into DIR, one
file each, as seeds for the draco_primitive fuzz target."""
import glob, json, os, struct, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
for path in sorted(glob.glob(os.path.join(here, "../tests/corpus/glb-variants/*.draco*.glb"))):
    data = open(path, "rb").read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + n])
    bin_start = 20 + n + 8
    for m, mesh in enumerate(doc["meshes"]):
        for p, prim in enumerate(mesh["primitives"]):
            ext = prim.get("extensions", {}).get("KHR_draco_mesh_compression")
            if ext:
                v = doc["bufferViews"][ext["bufferView"]]
                s = bin_start + v.get("byteOffset", 0)
                name = f"{os.path.basename(path)}-{m}-{p}.drc"
                open(os.path.join(out, name), "wb").write(data[s : s + v["byteLength"]])
