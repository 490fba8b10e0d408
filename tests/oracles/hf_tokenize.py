"""Hugging Face's `tokenizers` (the Rust library's Python binding, PyPI):
the token ids a `tokenizer.json` gives each text, as transformers would
encode it without special tokens:

    python3 hf_tokenize.py TOKENIZER_JSON TEXT...   ->   JSON [[ids]]

For the full tier's test that llama.cpp splits and merges text with kiln's
conversion exactly as the checkpoint's own tokenizer does.
"""
import json
import sys

from tokenizers import Tokenizer

tok = Tokenizer.from_file(sys.argv[1])
print(json.dumps([tok.encode(t, add_special_tokens=False).ids for t in sys.argv[2:]]))
