"""A BERT encoder in numpy, from the checkpoint's own tensors (the
Hugging Face names), for the llama.cpp test of kiln's BERT conversion:

    python3 bert_numpy.py MODEL.safetensors CONFIG.json POOLING < token-lists.json
    python3 bert_numpy.py tokenize TOKENIZER.json TEXT...

The first reads a JSON list of token-id lists (each with its [CLS] ...
[SEP]) and prints a JSON list of pooled embeddings (POOLING: mean or
cls), float64 arithmetic throughout. The second prints each text's token
ids ([CLS] ... [SEP]) by BERT's uncased tokenizer (lowercase, accents
stripped, split at spaces and punctuation, then greedy longest-match
WordPiece with `##` continuations). Both written from the BERT paper's
definitions and the config's sizes, not from kiln or llama.cpp.
"""
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(t, cfg, ids):
    g = lambda n: t[n].astype(np.float64)
    eps = cfg["layer_norm_eps"]
    heads = cfg["num_attention_heads"]
    n = len(ids)
    x = g("embeddings.word_embeddings.weight")[ids]
    x = x + g("embeddings.position_embeddings.weight")[:n]
    x = x + g("embeddings.token_type_embeddings.weight")[0]
    x = layer_norm(x, g("embeddings.LayerNorm.weight"), g("embeddings.LayerNorm.bias"), eps)
    d = x.shape[1] // heads
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ g(p + name + ".weight").T + g(p + name + ".bias")
        q = lin(x, "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        a = (s / s.sum(-1, keepdims=True)) @ v
        a = a.transpose(1, 0, 2).reshape(n, heads * d)
        x = layer_norm(x + lin(a, "attention.output.dense"),
                       g(p + "attention.output.LayerNorm.weight"), g(p + "attention.output.LayerNorm.bias"), eps)
        h = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(x + lin(h, "output.dense"),
                       g(p + "output.LayerNorm.weight"), g(p + "output.LayerNorm.bias"), eps)
    return x


def wordpiece_ids(vocab, text):
    import unicodedata
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(c for c in text if unicodedata.category(c) != "Mn")
    words, word = [], ""
    for c in text:
        if c.isspace():
            words, word = words + [word] * bool(word), ""
        elif unicodedata.category(c).startswith("P") or (c.isascii() and not c.isalnum()):
            words, word = words + [word] * bool(word) + [c], ""
        else:
            word += c
    words += [word] * bool(word)
    ids = [vocab["[CLS]"]]
    for w in words:
        start, pieces = 0, []
        while start < len(w):
            end = len(w)
            while end > start:
                piece = ("##" if start else "") + w[start:end]
                if piece in vocab:
                    pieces.append(vocab[piece])
                    break
                end -= 1
            if end == start:
                pieces = [vocab["[UNK]"]]
                break
            start = end
        ids += pieces
    return ids + [vocab["[SEP]"]]


def main():
    if sys.argv[1] == "tokenize":
        vocab = json.load(open(sys.argv[2]))["model"]["vocab"]
        print(json.dumps([wordpiece_ids(vocab, t) for t in sys.argv[3:]]))
        return
    tensors = load_file(sys.argv[1])
    cfg = json.load(open(sys.argv[2]))
    pooling = sys.argv[3]
    out = []
    for ids in json.load(sys.stdin):
        x = encode(tensors, cfg, ids)
        out.append((x.mean(0) if pooling == "mean" else x[0]).tolist())
    print(json.dumps(out))


main()
