"""Google's SentencePiece (the `sentencepiece` package, PyPI), for the
full tier's tests of kiln's `tokenizer.model` reading:

    python3 sentencepiece_model.py train DIR VOCAB
        trains a BPE model as LLaMA's is set up (byte fallback, identity
        normalization, a dummy prefix, whitespace kept) on the text below,
        writes DIR/tokenizer.model;
    python3 sentencepiece_model.py read MODEL TEXT...
        JSON {pieces: [[piece, score, type]], ids: {bos, eos, unk, pad},
        encoded: [[ids of each TEXT]]}: what SentencePiece itself reads,
        types as its ModelProto numbers them (1 normal, 2 unknown,
        3 control, 4 user-defined, 5 unused, 6 byte).
"""
import json
import os
import sys

import sentencepiece as spm

TEXT = """The kiln compiles assets for games and the models that drive their characters.
A level designer saves a file in Blender and sees it in the game a moment later.
Llamas and alpacas graze on the high plains; the herders count them at dusk.
Numbers such as 1234 and 56.78 appear in logs, and so do paths like out/models/tiny.
The quick brown fox jumps over the lazy dog, then the dog sleeps in the sun.
Café au lait, naïve façade, and a rôle in the théâtre: accents are text too.
"""


def train(folder, vocab):
    os.makedirs(folder, exist_ok=True)
    text = os.path.join(folder, "text.txt")
    with open(text, "w", encoding="utf-8") as f:
        for _ in range(20):
            f.write(TEXT)
    spm.SentencePieceTrainer.train(
        input=text,
        model_prefix=os.path.join(folder, "tokenizer"),
        vocab_size=vocab,
        model_type="bpe",
        byte_fallback=True,
        character_coverage=1.0,
        normalization_rule_name="identity",
        add_dummy_prefix=True,
        remove_extra_whitespaces=False,
        split_digits=True,
        user_defined_symbols=["<mask>"],
        minloglevel=2,
    )
    os.remove(text)
    os.remove(os.path.join(folder, "tokenizer.vocab"))


def type_of(sp, i):
    if sp.IsUnknown(i):
        return 2
    if sp.IsControl(i):
        return 3
    if sp.IsUnused(i):
        return 5
    if sp.IsByte(i):
        return 6
    # NORMAL and USER_DEFINED are told apart only by the proto.
    return 0


def read(model, texts):
    from sentencepiece import sentencepiece_model_pb2 as pb

    proto = pb.ModelProto()
    with open(model, "rb") as f:
        proto.ParseFromString(f.read())
    sp = spm.SentencePieceProcessor(model_file=model)
    pieces = []
    for i, p in enumerate(proto.pieces):
        assert p.piece == sp.IdToPiece(i) and p.score == sp.GetScore(i)
        pieces.append([p.piece, p.score, p.type])
    print(json.dumps({
        "pieces": pieces,
        "model_type": proto.trainer_spec.model_type,
        "ids": {"unk": sp.unk_id(), "bos": sp.bos_id(), "eos": sp.eos_id(), "pad": sp.pad_id()},
        "encoded": [sp.encode(t) for t in texts],
    }))


if __name__ == "__main__":
    if sys.argv[1] == "train":
        train(sys.argv[2], int(sys.argv[3]))
    else:
        read(sys.argv[2], sys.argv[3:])
