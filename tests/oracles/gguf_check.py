"""Independent check of the GGUF files kiln writes, with gguf-py's GGUFReader
(gguf==0.19.0) and the Python safetensors package.

    python3 gguf_check.py bundle OUT_DIR SOURCES_DIR    # a motionbricks-g1 bundle
    python3 gguf_check.py generic FILE.gguf SOURCE.safetensors POLICY
    python3 gguf_check.py read FILE.gguf                  # print metadata and tensors as JSON

Prints "ok ..." and exits 0, or raises. The MotionBricks rules (selection,
prefix stripping, name compaction, sorting, types, metadata order) are
written here again from docs/formats/motionbricks.md, not taken from kiln.
"""
import hashlib
import json
import sys

import numpy as np
from gguf import GGUFReader, GGUFValueType
from safetensors.numpy import load_file

RULES = [
    ("_root_token_transformer_encoder.layers.", "root.l."),
    ("_shared_transformer_encoder.layers.", "shared.l."),
    ("_transformer_encoder.layers.", "transformer.l."),
    ("self_attn.", "attn."),
    ("in_proj_weight", "qkv.weight"),
    ("in_proj_bias", "qkv.bias"),
    ("external_cond_blocks.", "xcond."),
    ("target_cond_blocks.", "tcond."),
]


def compact(name):
    if len(name.encode()) < 64:
        return name
    short = name
    for a, b in RULES:
        short = short.replace(a, b)
    if len(short.encode()) < 64:
        return short
    return short.encode()[:48].decode() + "." + hashlib.sha256(name.encode()).hexdigest()[:12]


def select(component, name):
    if component == "pose":
        if name.startswith("backbone_net.") and name != "backbone_net.initted":
            return name[len("backbone_net."):]
    elif component == "root":
        if name.startswith("backbone_net."):
            return name[len("backbone_net."):]
    elif component == "vq-decoder":
        if name.startswith("pose_net.decoder.") or name == "pose_net.quantizer.vq._codebook.embed":
            return name[len("pose_net."):]
    elif component == "support":
        return name
    return None


def field_value(f):
    t = f.types[0]
    if t == GGUFValueType.STRING:
        return bytes(f.parts[f.data[0]]).decode()
    if t == GGUFValueType.ARRAY:
        if f.types[1] == GGUFValueType.STRING:
            return [bytes(f.parts[i]).decode() for i in f.data]
        return [f.parts[i].tolist()[0] for i in f.data]
    return f.parts[f.data[0]].tolist()[0]


def metadata(r):
    return [(k, [t.name for t in f.types], field_value(f)) for k, f in r.fields.items()
            if not k.startswith("GGUF.")]


def check_layout(path, r):
    """What GGUFReader does not check: names under 64 bytes, offsets the
    running padded sum, padding zero, the file ending with the data."""
    align = 32
    for k, f in r.fields.items():
        if k == "general.alignment":
            align = field_value(f)
    expected = 0
    names = set()
    for t in r.tensors:
        assert len(t.name.encode()) < 64, t.name
        assert t.name not in names, t.name
        names.add(t.name)
        start = r.data_offset
        assert t.data_offset - start == expected, (t.name, t.data_offset - start, expected)
        expected += (t.n_bytes + align - 1) // align * align
    size = len(open(path, "rb").read()) if False else None
    import os
    assert os.path.getsize(path) == r.data_offset + expected, "trailing or missing bytes"
    return align


def tensor_array(t):
    """The tensor's values in PyTorch order (GGUFReader gives GGML order
    reversed already as numpy shape)."""
    return np.asarray(t.data)


def check_bundle(out, src):
    manifest = json.load(open(f"{out}/manifest.json"))
    text = open(f"{out}/manifest.json").read()
    assert text == json.dumps(manifest, indent=2, sort_keys=True) + "\n", "manifest.json is not json.dumps(indent=2, sort_keys=True)"
    assert manifest["format"] == "motionbricks-gguf-bundle-v1"
    total = 0
    sources = {"pose": "pose", "root": "root", "vq-decoder": "vqvae", "support": "support"}
    expected_counts = {"pose": (209, 136588272), "root": (150, 34122833), "vq-decoder": (51, 12437277), "support": (4, 972)}
    for comp, file in sources.items():
        path = f"{out}/{comp}.gguf"
        entry = manifest["components"][comp]
        digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
        assert entry["sha256"] == digest, comp
        src_path = f"{src}/{file}.safetensors"
        src_sha = hashlib.sha256(open(src_path, "rb").read()).hexdigest()
        r = GGUFReader(path)
        check_layout(path, r)
        md = metadata(r)
        keys = [k for k, _, _ in md]
        want = ["general.architecture", "general.name", "general.alignment", "general.file_type",
                "motionbricks.format_version", "motionbricks.component", "motionbricks.skeleton",
                "motionbricks.upstream_revision", "motionbricks.source_sha256", "motionbricks.parameter_count"]
        if comp == "support":
            want.append("motionbricks.joint_names")
        assert keys == want, keys
        types = {k: t for k, t, _ in md}
        values = {k: v for k, _, v in md}
        assert types["general.alignment"] == ["UINT32"] and types["motionbricks.format_version"] == ["UINT32"]
        assert types["motionbricks.parameter_count"] == ["UINT64"], types
        assert values["motionbricks.component"] == comp
        assert values["motionbricks.source_sha256"] == src_sha
        assert values["general.name"] == "NVIDIA MotionBricks G1"
        st = load_file(src_path)
        chosen = sorted((s, n) for n in st if (s := select(comp, n)) is not None)
        assert [t.name for t in r.tensors] == [compact(s) for s, _ in chosen], comp
        count = 0
        for t, (_, n) in zip(r.tensors, chosen):
            a = st[n]
            want_type = "F32" if a.dtype.kind == "f" else "I32"
            assert t.tensor_type.name == want_type, (t.name, t.tensor_type.name)
            shape = list(a.shape) or [1]
            assert list(t.shape) == shape[::-1], (t.name, list(t.shape), shape)
            got = np.asarray(t.data).reshape(-1)
            exp = a.reshape(-1).astype(np.float32 if want_type == "F32" else np.int32)
            assert np.array_equal(got, exp, equal_nan=True), t.name
            count += int(np.prod(shape))
        assert (len(r.tensors), count) == expected_counts[comp], comp
        assert values["motionbricks.parameter_count"] == count
        assert entry["tensor_count"] == len(r.tensors) and entry["parameter_count"] == count
        if comp != "support":
            total += count
    assert manifest["inference_parameter_count"] == total
    print(f"ok bundle {out}: 4 components, {total} inference parameters")


def check_generic(path, src, policy):
    r = GGUFReader(path)
    check_layout(path, r)
    st = load_file(src)
    assert [t.name for t in r.tensors] == sorted(st), "every tensor, sorted by name"
    for t in r.tensors:
        a = st[t.name]
        shape = list(a.shape) or [1]
        assert list(t.shape) == shape[::-1], t.name
        got = np.asarray(t.data).reshape(-1)
        if a.dtype.kind == "f":
            if policy == "f32" or (policy in ("f16", "bf16") and a.ndim < 2):
                exp = a.astype(np.float32)
            elif policy == "f16":
                exp = a.astype(np.float16)
            else:
                exp = a
            if policy == "bf16" and a.ndim >= 2:
                # gguf-py hands BF16 back as raw uint8; compare bits.
                bits = got.view(np.uint16) if got.dtype != np.uint8 else got.view(np.uint16)
                f = a.astype(np.float32).view(np.uint32)
                want = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)
                assert np.array_equal(bits.reshape(-1), want.reshape(-1)), t.name
                continue
            assert np.array_equal(got, exp.reshape(-1), equal_nan=True), t.name
        else:
            assert np.array_equal(got.astype(np.int64), a.reshape(-1).astype(np.int64)), t.name
    print(f"ok generic {path}: {len(r.tensors)} tensors equal the source")


def read(path):
    r = GGUFReader(path)
    out = {
        "metadata": [[k, t, v] for k, t, v in metadata(r)],
        "tensors": [[t.name, t.tensor_type.name, [int(d) for d in t.shape], int(t.data_offset)] for t in r.tensors],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "bundle":
        check_bundle(sys.argv[2], sys.argv[3])
    elif mode == "generic":
        check_generic(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        read(sys.argv[2])
