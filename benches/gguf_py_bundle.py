"""The MotionBricks bundle conversion written with gguf-py's GGUFWriter
(gguf==0.19.0), as a user would write it without kiln: the peer in
benches/convert.sh. Same selection, names, order, types and metadata as
kiln's motionbricks-g1 profile (docs/formats/motionbricks.md); reads with
the safetensors package's safe_open (numpy).

    python3 gguf_py_bundle.py SOURCES_DIR OUT_DIR
"""
import hashlib
import sys

import numpy as np
from gguf import GGUFWriter
from safetensors import safe_open

REV = "a0732b642c0333077e127a2f56ab0014c196bca4"
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
    if len(name) < 64:
        return name
    for a, b in RULES:
        name = name.replace(a, b)
    return name


def select(comp, name):
    if comp == "pose" and name.startswith("backbone_net.") and name != "backbone_net.initted":
        return name[13:]
    if comp == "root" and name.startswith("backbone_net."):
        return name[13:]
    if comp == "vq-decoder" and (name.startswith("pose_net.decoder.") or name == "pose_net.quantizer.vq._codebook.embed"):
        return name[9:]
    if comp == "support":
        return name
    return None


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def main(src, out):
    for comp, file in [("pose", "pose"), ("root", "root"), ("vq-decoder", "vqvae"), ("support", "support")]:
        path = f"{src}/{file}.safetensors"
        w = GGUFWriter(f"{out}/{comp}.gguf", "motionbricks")
        w.add_name("NVIDIA MotionBricks G1")
        w.add_uint32("general.alignment", 32)
        w.add_uint32("general.file_type", 0)
        w.add_uint32("motionbricks.format_version", 1)
        w.add_string("motionbricks.component", comp)
        w.add_string("motionbricks.skeleton", "g1skel34")
        w.add_string("motionbricks.upstream_revision", REV)
        w.add_string("motionbricks.source_sha256", sha256(path))
        with safe_open(path, "np") as f:
            chosen = sorted((s, n) for n in f.keys() if (s := select(comp, n)) is not None)
            count = 0
            for s, n in chosen:
                a = f.get_tensor(n)
                a = a.astype(np.float32 if a.dtype.kind == "f" else np.int32)
                count += a.size
                w.add_tensor(compact(s), a.reshape(a.shape or (1,)))
            w.add_uint64("motionbricks.parameter_count", count)
            w.write_header_to_file()
            w.write_kv_data_to_file()
            w.write_tensors_to_file()
        w.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
