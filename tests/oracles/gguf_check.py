"""Independent check of the GGUF files kiln writes, with gguf-py's GGUFReader
(gguf==0.19.0) and the Python safetensors package.

    python3 gguf_check.py bundle OUT_DIR SOURCES_DIR    # a motionbricks-g1 bundle
    python3 gguf_check.py generic FILE.gguf SOURCE.safetensors POLICY
    python3 gguf_check.py style FILE.mbstyle EXPECTED.json  # a style, against the test's values
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
import math
import struct

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


NP = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "BF16": np.uint16,
      "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.uint8,
      "U16": np.uint16, "U32": np.uint32, "U64": np.uint64,
      "F8_E4M3": np.uint8, "F8_E5M2": np.uint8, "F8_E8M0": np.uint8,
      "F8_E4M3FNUZ": np.uint8, "F8_E5M2FNUZ": np.uint8}

FP8 = {"F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2", "F8_E8M0": "float8_e8m0fnu",
       "F8_E4M3FNUZ": "float8_e4m3fnuz", "F8_E5M2FNUZ": "float8_e5m2fnuz"}

# What `keep` makes of the dtypes GGUF has no tensor type for.
KEEP = {"U8": "I16", "BOOL": "I8", "U16": "I32", "U32": "I64", "U64": "I64",
        "F8_E4M3": "F16", "F8_E5M2": "F16", "F8_E4M3FNUZ": "F16", "F8_E5M2FNUZ": "F16",
        "F8_E8M0": "F32"}


def load_raw(path):
    """name -> (dtype, shape, numpy array of the stored values; BF16 as its
    uint16 bits), read straight from the safetensors layout."""
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        b, e = t["data_offsets"]
        raw = data[8 + n + b:8 + n + e]
        out[name] = (t["dtype"], t["shape"], np.frombuffer(raw, dtype=NP[t["dtype"]]).reshape(t["shape"]))
    return out


def as_float64(dtype, a):
    if dtype in FP8:
        import ml_dtypes
        return a.view(getattr(ml_dtypes, FP8[dtype])).astype(np.float64)
    if dtype == "BF16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(np.float64)


def bf16_bits(x):
    """Round-to-nearest-even bfloat16 bits of the float x (exact, from f64)."""
    if math.isnan(x):
        return 0x7FC0 | (0x8000 if math.copysign(1, x) < 0 else 0)
    sign = 0x8000 if math.copysign(1, x) < 0 else 0
    a = abs(x)
    if a == 0:
        return sign
    if math.isinf(a):
        return sign | 0x7F80
    m, e = math.frexp(a)  # a = m * 2^e, m in [0.5, 1)
    if e - 1 < -126:
        return sign | int(round(a * 2.0 ** 133))
    q = int(round(m * 256))
    if q == 256:
        q, e = 128, e + 1
    if e - 1 + 127 >= 255:
        return sign | 0x7F80
    return sign | ((e - 1 + 127) << 7) | (q - 128)


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
        st = load_raw(src_path)
        chosen = sorted((s, n) for n in st if (s := select(comp, n)) is not None)
        assert [t.name for t in r.tensors] == [compact(s) for s, _ in chosen], comp
        count = 0
        for t, (_, n) in zip(r.tensors, chosen):
            dtype, shp, a = st[n]
            is_float = dtype in ("F64", "F32", "F16", "BF16")
            want_type = "F32" if is_float else "I32"
            assert t.tensor_type.name == want_type, (t.name, t.tensor_type.name)
            shape = list(shp) or [1]
            assert list(t.shape) == shape[::-1], (t.name, list(t.shape), shape)
            got = np.asarray(t.data).reshape(-1)
            if is_float:
                exp = as_float64(dtype, a).reshape(-1).astype(np.float32)
            else:
                exp = a.reshape(-1).astype(np.int32)
            assert np.array_equal(got, exp, equal_nan=True), t.name
            count += int(np.prod(shape))
        assert (len(r.tensors), count) == expected_counts[comp], comp
        assert values["motionbricks.parameter_count"] == count
        assert entry["tensor_count"] == len(r.tensors) and entry["parameter_count"] == count
        if comp != "support":
            total += count
    assert manifest["inference_parameter_count"] == total
    print(f"ok bundle {out}: 4 components, {total} inference parameters")


# llama.cpp's converter (conversion/base.py `prepare_tensors`, at the
# llama.cpp that node-llama-cpp 3.21.1 bundles) keeps these GGUF tensor kinds
# in F32 under every output type; their names are gguf-py's own.
F32_KINDS = ["FFN_GATE_INP", "FFN_GATE_INP_SHEXP", "POS_EMBD", "TOKEN_TYPES", "SSM_CONV1D",
             "SHORTCONV_CONV", "TIME_MIX_FIRST", "TIME_MIX_W1", "TIME_MIX_W2", "TIME_MIX_DECAY_W1",
             "TIME_MIX_DECAY_W2", "TIME_MIX_LERP_FUSED", "POSNET_NORM1", "POSNET_NORM2",
             "V_ENC_EMBD_POS", "A_ENC_EMBD_POS", "ALTUP_CORRECT_COEF", "ALTUP_PREDICT_COEF",
             "SSM_CONV1D_Q", "SSM_CONV1D_K", "SSM_CONV1D_V", "INDEXER_PROJ"]


def llama_cpp_keeps_f32(name, n_dims):
    import re
    from gguf.constants import MODEL_TENSOR, TENSOR_NAMES
    if n_dims <= 1 or name.endswith("_norm.weight"):
        return True
    if name[-7:] not in (".weight", ".lora_a", ".lora_b"):
        return True
    for kind in F32_KINDS:
        template = TENSOR_NAMES[getattr(MODEL_TENSOR, kind)] + ".weight"
        pattern = re.escape(template).replace(re.escape("{bid}"), "[0-9]+")
        if re.fullmatch(pattern, name):
            return True
    return False


def check_generic(path, src, policy):
    from gguf import GGMLQuantizationType, quants
    r = GGUFReader(path)
    check_layout(path, r)
    st = load_raw(src)
    assert [t.name for t in r.tensors] == sorted(st), "every tensor, sorted by name"
    for t in r.tensors:
        dtype, shp, a = st[t.name]
        shape = list(shp) or [1]
        assert list(t.shape) == shape[::-1], t.name
        got = np.asarray(t.data)
        is_float = dtype in ("F64", "F32", "F16", "BF16") or dtype in FP8
        if not is_float:
            want = KEEP.get(dtype, dtype)
            assert t.tensor_type.name == want, (t.name, t.tensor_type.name)
            assert np.array_equal(got.reshape(-1).astype(np.int64), a.reshape(-1).astype(np.int64)), t.name
            continue
        if policy == "keep":
            want = KEEP.get(dtype, dtype)
        elif policy == "f32" or llama_cpp_keeps_f32(t.name, len(shp)):
            want = "F32"
        elif policy in ("q8_0", "q4_0"):
            want = policy.upper() if shape[-1] % 32 == 0 else "F16"
        else:
            want = policy.upper()
        assert t.tensor_type.name == want, (t.name, t.tensor_type.name, want)
        x = as_float64(dtype, a).reshape(-1)
        if want == "BF16":
            bits = got.reshape(-1).view(np.uint16)
            exp = np.array([bf16_bits(float(v)) for v in x], dtype=np.uint16) if dtype != "BF16" else a.reshape(-1)
            nan = np.isnan(x)
            assert np.array_equal(bits[~nan], exp[~nan]), t.name
            assert np.all((bits[nan] & 0x7fff) > 0x7f80), t.name
        elif want in ("Q8_0", "Q4_0"):
            # gguf-py's quantizer, on the values as llama.cpp's converter
            # takes them (float32).
            rows = x.astype(np.float32).reshape(-1, shape[-1])
            exp = quants.quantize(rows, getattr(GGMLQuantizationType, want))
            assert np.array_equal(np.asarray(t.data).reshape(-1).view(np.uint8), exp.reshape(-1)), t.name
        else:
            exp = x.astype({"F64": np.float64, "F32": np.float32, "F16": np.float16}[want])
            assert np.array_equal(got.reshape(-1), exp, equal_nan=True), t.name
    print(f"ok generic {path}: {len(r.tensors)} tensors equal the source")


def check_style(path, expected_json):
    """A .mbstyle against docs/formats/motionbricks.md (".mbstyle v1"), the
    rules written here again: 14 keys in order and type, 5 tensors in
    order, type and shape, the values the test computed."""
    e = json.load(open(expected_json))
    r = GGUFReader(path)
    check_layout(path, r)
    f = e["frames"]
    want_keys = [
        ("general.architecture", "STRING", "motionbricks"),
        ("general.name", "STRING", e["name"]),
        ("general.alignment", "UINT32", 32),
        ("general.file_type", "UINT32", 0),
        ("motionbricks.format_version", "UINT32", 1),
        ("motionbricks.component", "STRING", "style"),
        ("motionbricks.skeleton", "STRING", "g1skel34"),
        ("motionbricks.upstream_revision", "STRING", "a0732b642c0333077e127a2f56ab0014c196bca4"),
        ("motionbricks.source_sha256", "STRING", e["source_sha256"]),
        ("motionbricks.parameter_count", "UINT64", 412 * f + 11),
        ("motionbricks.style_name", "STRING", e["name"]),
        ("motionbricks.style_speed", "FLOAT32", None),
        ("motionbricks.style_frames", "UINT32", f),
        ("motionbricks.style_index", "UINT32", e["index"]),
    ]
    got = metadata(r)
    assert [(k, t[0]) for k, t, _ in got] == [(k, t) for k, t, _ in want_keys], got
    for (k, _, v), (_, _, want) in zip(got, want_keys):
        if want is not None:
            assert v == want, (k, v, want)
    speed = [v for k, _, v in got if k == "motionbricks.style_speed"][0]
    assert np.float32(speed) == np.float32(e["speed"]), (speed, e["speed"])
    want_tensors = [
        ("allowed_tokens", "I32", [11]),
        ("global_headings", "F32", [f]),
        ("global_joint_positions", "F32", [f, 34, 3]),
        ("global_joint_rotations", "F32", [f, 34, 9]),
        ("global_root_positions", "F32", [f, 3]),
    ]
    assert [(t.name, t.tensor_type.name) for t in r.tensors] == [(n, ty) for n, ty, _ in want_tensors]
    for t, (name, _, shape) in zip(r.tensors, want_tensors):
        # GGML order in the file; GGUFReader's numpy view is PyTorch order.
        assert [int(d) for d in t.shape] == list(reversed(shape)), (name, t.shape)
        a = np.asarray(t.data).reshape(shape)
        b = np.asarray(e["values"][name], dtype=a.dtype).reshape(shape)
        assert np.array_equal(a, b), name
    print("ok style", e["name"], f, "frames")


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
    elif mode == "style":
        check_style(sys.argv[2], sys.argv[3])
    else:
        read(sys.argv[2])
