"""A LLaMA decoder in numpy, from the checkpoint's own tensors (the Hugging
Face names and their rotary convention, `rotate_half`), for the llama.cpp
test of kiln's LLaMA conversion:

    python3 llama_numpy.py MODEL.safetensors CONFIG.json N < prompts.json

reads a JSON list of prompts (token-id lists) and prints, for each, the N
tokens a greedy decoder continues it with (float64 throughout). Written
from the LLaMA paper's definitions (RMSNorm, rotary embeddings, grouped
query attention, SwiGLU) and the config's sizes, not from kiln or llama.cpp.
"""
import json
import sys

import numpy as np
from safetensors.numpy import load_file


def forward(t, cfg, ids):
    g = lambda n: t[n].astype(np.float64)
    eps = cfg["rms_norm_eps"]
    heads, kv = cfg["num_attention_heads"], cfg.get("num_key_value_heads", cfg["num_attention_heads"])
    hd = cfg["hidden_size"] // heads
    n = len(ids)
    norm = lambda x, w: x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w
    inv = 1.0 / (cfg.get("rope_theta", 10000.0) ** (np.arange(0, hd, 2) / hd))
    ang = np.outer(np.arange(n), inv)
    cos, sin = np.cos(np.concatenate([ang, ang], -1)), np.sin(np.concatenate([ang, ang], -1))
    rot = lambda x: np.concatenate([-x[..., hd // 2:], x[..., :hd // 2]], -1)
    rope = lambda x: x * cos[:, None, :] + rot(x) * sin[:, None, :]
    x = g("model.embed_tokens.weight")[ids]
    mask = np.triu(np.full((n, n), -np.inf), 1)
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        h = norm(x, g(p + "input_layernorm.weight"))
        q = rope((h @ g(p + "self_attn.q_proj.weight").T).reshape(n, heads, hd))
        k = rope((h @ g(p + "self_attn.k_proj.weight").T).reshape(n, kv, hd))
        v = (h @ g(p + "self_attn.v_proj.weight").T).reshape(n, kv, hd)
        k, v = np.repeat(k, heads // kv, 1), np.repeat(v, heads // kv, 1)
        s = np.einsum("qhd,khd->hqk", q, k) / np.sqrt(hd) + mask
        s = np.exp(s - s.max(-1, keepdims=True))
        a = np.einsum("hqk,khd->qhd", s / s.sum(-1, keepdims=True), v).reshape(n, heads * hd)
        x = x + a @ g(p + "self_attn.o_proj.weight").T
        h = norm(x, g(p + "post_attention_layernorm.weight"))
        gate = h @ g(p + "mlp.gate_proj.weight").T
        x = x + ((gate / (1 + np.exp(-gate))) * (h @ g(p + "mlp.up_proj.weight").T)) @ g(p + "mlp.down_proj.weight").T
    x = norm(x, g("model.norm.weight"))
    return x[-1] @ g("lm_head.weight").T


def main():
    t = load_file(sys.argv[1])
    cfg = json.load(open(sys.argv[2]))
    steps = int(sys.argv[3])
    out = []
    for ids in json.load(sys.stdin):
        ids, new = list(ids), []
        for _ in range(steps):
            logits = forward(t, cfg, ids)
            nxt = int(np.argmax(logits))
            # The margin: a near tie could go either way in f32.
            top2 = np.sort(logits)[-2:]
            new.append([nxt, float(top2[1] - top2[0])])
            ids.append(nxt)
        out.append(new)
    print(json.dumps(out))


main()
