#!/usr/bin/env python3
"""Generates a kiln benchmark project and an equivalent ninja graph.

    gen_project.py --jobs 1000 --out DIR [--manifests 10] [--template GLB]

writes:

- DIR/sources/sNNNN.glb: copies of the template GLB (default
  tests/corpus/glb/SimpleSkin.glb), each distinct in content: the JSON
  chunk's asset.generator string gets a per-file suffix, the chunk is
  re-padded with spaces to 4-byte alignment (as the GLB spec asks) and the
  header and chunk lengths are fixed, so every file is a valid GLB with its
  own content hash;
- DIR/manifests/bench-NN.yaml: the jobs split evenly over --manifests files,
  one pose_caches entry per source (clip 0, 30 Hz);
- DIR/build.ninja: the same number of edges, each one input file -> one
  output file (`cp $in $out`, outputs under DIR/ninja-out/), so a ninja
  no-op stats the same inputs and outputs as a kiln no-op.

Python 3 standard library only. The output is deterministic for the same
arguments and template.
"""

import argparse
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TEMPLATE = os.path.join(HERE, "..", "tests", "corpus", "glb", "SimpleSkin.glb")

GLB_MAGIC = b"glTF"
CHUNK_JSON = b"JSON"


def read_glb(data):
    """Splits a GLB into (json_bytes, rest_after_json_chunk)."""
    if len(data) < 20:
        sys.exit("template is too short to be a GLB")
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    if magic != GLB_MAGIC or version != 2 or length != len(data):
        sys.exit("template is not a GLB 2.0 file with a consistent length")
    json_len, json_type = struct.unpack_from("<I4s", data, 12)
    if json_type != CHUNK_JSON:
        sys.exit("template's first chunk is not JSON")
    json_bytes = data[20:20 + json_len]
    rest = data[20 + json_len:]
    return json_bytes, rest


def make_variant(json_bytes, rest, tag):
    """A GLB whose JSON chunk differs only in asset.generator."""
    text = json_bytes.rstrip(b" \0").decode("utf-8")
    doc = json.loads(text)
    generator = doc.get("asset", {}).get("generator")
    if generator is None:
        sys.exit("template has no asset.generator to vary")
    old = json.dumps(generator)  # as it appears in the text, quotes included
    new = json.dumps("%s (kiln bench %s)" % (generator, tag))
    # Replace the string in place so the rest of the JSON stays byte-for-byte.
    key_at = text.find('"generator"')
    at = text.find(old, key_at)
    if key_at < 0 or at < 0:
        sys.exit("cannot find the generator string in the template's JSON text")
    text = text[:at] + new + text[at + len(old):]
    assert json.loads(text)["asset"]["generator"].endswith(tag + ")")
    body = text.encode("utf-8")
    body += b" " * (-len(body) % 4)
    total = 12 + 8 + len(body) + len(rest)
    header = struct.pack("<4sII", GLB_MAGIC, 2, total)
    chunk = struct.pack("<I4s", len(body), CHUNK_JSON)
    out = header + chunk + body + rest
    assert len(out) == total and len(out) % 4 == 0
    return out


def write_if_changed(path, data):
    """Writes only when the content differs, so re-running the generator on
    an existing project leaves mtimes (and build state) alone."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, required=True, help="number of jobs (and sources)")
    ap.add_argument("--out", required=True, help="project folder to write")
    ap.add_argument("--manifests", type=int, default=10, help="manifest files to split the jobs over")
    ap.add_argument("--template", default=DEFAULT_TEMPLATE, help="GLB to copy")
    ap.add_argument("--rate-hz", type=int, default=30)
    args = ap.parse_args()
    if args.jobs < 1 or args.manifests < 1:
        sys.exit("--jobs and --manifests must be at least 1")
    n_manifests = min(args.manifests, args.jobs)

    with open(args.template, "rb") as f:
        json_bytes, rest = read_glb(f.read())

    root = args.out
    sources = os.path.join(root, "sources")
    manifests = os.path.join(root, "manifests")
    os.makedirs(sources, exist_ok=True)
    os.makedirs(manifests, exist_ok=True)
    # Stale manifests from a larger earlier run would add jobs.
    for name in os.listdir(manifests):
        if name.startswith("bench-") and name.endswith(".yaml"):
            os.remove(os.path.join(manifests, name))

    width = max(4, len(str(args.jobs)))
    names = ["s%0*d" % (width, i + 1) for i in range(args.jobs)]
    for name in names:
        write_if_changed(os.path.join(sources, name + ".glb"), make_variant(json_bytes, rest, name))

    per = -(-args.jobs // n_manifests)  # ceil
    for m in range(n_manifests):
        chunk = names[m * per:(m + 1) * per]
        if not chunk:
            continue
        lines = ["# Generated by benches/gen_project.py; do not edit.", "pose_caches:"]
        for name in chunk:
            lines += [
                "  - id: job-%s" % name[1:],
                "    source: sources/%s.glb" % name,
                "    animation: 0",
                "    rate_hz: %d" % args.rate_hz,
            ]
        write_if_changed(os.path.join(manifests, "bench-%02d.yaml" % (m + 1)),
                         ("\n".join(lines) + "\n").encode())

    ninja = [
        "# Generated by benches/gen_project.py; do not edit.",
        "# One edge per kiln job: one input file -> one output file.",
        "ninja_required_version = 1.5",
        "",
        "rule cp",
        "  command = cp $in $out",
        "  description = CP $out",
        "",
    ]
    for name in names:
        ninja.append("build ninja-out/%s.glb: cp sources/%s.glb" % (name, name))
    write_if_changed(os.path.join(root, "build.ninja"), ("\n".join(ninja) + "\n").encode())

    print("generated %d jobs in %d manifests under %s" % (args.jobs, n_manifests, root))


if __name__ == "__main__":
    main()
