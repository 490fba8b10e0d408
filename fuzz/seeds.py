#!/usr/bin/env python3
"""Seeds every fuzz target's corpus (fuzz/corpus/<target>/) from the
repository's own files: the test corpus and golden files, the demo's
sources and manifests, and the outputs of a demo build (OUT, made by
fuzz/seed.sh). Files are copied by what they are; a seed is at most
1 MiB (larger ones are left out: the fuzzer mutates, it does not need
them whole). Existing corpus entries are kept.

    fuzz/seeds.py OUT
"""
import glob, hashlib, json, os, struct, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)
out = sys.argv[1]
MAX_SEED = 1 << 20
counts = {}


def put(target, data, name=None):
    if len(data) > MAX_SEED:
        return
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = name or hashlib.sha1(data).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1


def files(*patterns):
    seen = []
    for pattern in patterns:
        for p in sorted(glob.glob(os.path.join(repo, pattern), recursive=True)):
            if os.path.isfile(p) and "/target/" not in p and p not in seen:
                seen.append(p)
    return seen


def read(p):
    with open(p, "rb") as f:
        return f.read()


def glb_parts(data):
    """The JSON document and BIN chunk of a GLB (None if not one)."""
    if data[:4] != b"glTF":
        return None, None
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20 : 20 + n])
    b = 20 + n
    binary = data[b + 8 : b + 8 + struct.unpack_from("<I", data, b)[0]] if b + 8 <= len(data) else b""
    return doc, binary


gltfs = files(
    "tests/corpus/glb/*", "tests/corpus/glb-meshopt/*.glb", "tests/corpus/glb-variants/*.glb",
    "tests/golden/glb/*.glb", "sources/**/*.glb", "sources/**/*.gltf",
)
for p in gltfs:
    data = read(p)
    for t in ["glb_decode", "gltf_import", "characters_compile", "atlas_stage"]:
        if t != "glb_decode" or data[:4] == b"glTF":
            put(t, data)
    # Images inside the GLBs, for image_decode.
    doc, binary = glb_parts(data)
    for img in (doc or {}).get("images", []):
        if "bufferView" in img:
            v = doc["bufferViews"][img["bufferView"]]
            s = v.get("byteOffset", 0)
            put("image_decode", binary[s : s + v["byteLength"]])

# meshopt_views: 4 bytes (view, no overrides) then the view's own stream.
host = read(os.path.join(repo, "tests/corpus/glb-meshopt/SimpleSkin.cc.glb"))
doc, binary = glb_parts(host)
compressed = [v for v in doc["bufferViews"] if "extensions" in v]
for i, v in enumerate(compressed):
    e = v["extensions"]["EXT_meshopt_compression"]
    s = e.get("byteOffset", 0)
    put("meshopt_views", bytes([i, 0, 0, 0]) + binary[s : s + e["byteLength"]])
for p in files("tests/corpus/glb-meshopt/*.glb"):
    d, b = glb_parts(read(p))
    for i, v in enumerate(d["bufferViews"]):
        for e in v.get("extensions", {}).values():
            s = e.get("byteOffset", 0)
            put("meshopt_views", bytes([i % 7, 0, 0, 0]) + b[s : s + e["byteLength"]])

for p in files("**/*.png", "**/*.jpg", "**/*.jpeg"):
    put("image_decode", read(p))

by_ext = {
    ".qoi": "qoi_decode", ".ospc": "ospc_decode", ".kchr": "kchr_decode",
    ".gguf": "gguf_decode", ".safetensors": "safetensors_decode",
    ".mbstyle": "mbstyle_decode gguf_decode", ".acresult": "action_result_decode", ".model": "sentencepiece_decode", ".mbreplay": "mbreplay_decode", ".cgeo": "cgeo_decode",
}
for p in files("tests/**/*", "sources/**/*") + [
    os.path.join(dp, f) for dp, _, fs in os.walk(out) for f in fs
]:
    for t in by_ext.get(os.path.splitext(p)[1], "").split():
        put(t, read(p))

# KCHR documents (the level entries, no extension) and the QOI atlases in them.
for dp, _, fs in os.walk(out):
    for f in fs:
        if f == "characters" and dp.endswith("@world"):
            data = read(os.path.join(dp, f))
            put("kchr_decode", data)
            at = 0
            while (at := data.find(b"qoif", at)) >= 0:
                end = data.find(bytes(7) + b"\x01", at)
                if end > 0:
                    put("qoi_decode", data[at : end + 8])
                at += 4

# A replay written field by field (the layout of docs/formats/mbreplay.md,
# as tests/formats/mbreplay.rs golden_bytes writes it).
def le(fmt, *v):
    return struct.pack("<" + fmt * len(v), *v)
replay = (b"MBRPLY1\0" + le("I", 1, 30, 3, 2, 1, 1, 4, 0) + le("i", -1, 0) + le("i", 7, 7, 8)
          + le("i", -1, 0, 0) + le("f", 0.5, 0.25, -0.0)
          + b"".join(le("f", f * 0.1, 0.9, 0.0, f * 0.1, 0.4, 0.2) for f in range(3))
          + le("I", 1) + le("i", 2) + le("I", 24)
          + b"".join(le("f", 0.0, 0.9, k, 0.0, 0.4, k + 0.2) for k in range(4)))
assert len(replay) == 264
put("mbreplay_decode", replay)

for p in files("manifests/*.yaml", "tests/**/*.yaml", "examples/**/*.yaml", "docs/**/*.yaml"):
    put("manifest_plan", read(p))
# The manifest blocks of the docs, as the tests check them.
for p in files("docs/*.md", "README.md"):
    text = read(p).decode()
    for block in text.split("```yaml")[1:]:
        put("manifest_plan", block.split("```")[0].encode())

subprocess.run([sys.executable, os.path.join(here, "draco_seeds.py"),
                os.path.join(here, "corpus", "draco_primitive")], check=True)
subprocess.run([sys.executable, os.path.join(repo, "tests/oracles/cgeo_write.py"),
                "--seeds", os.path.join(here, "corpus", "cgeo_decode")], check=True)
for t in sorted(counts):
    print(f"{t}: {counts[t]} seeds")
