//! SentencePiece vocabularies (`tokenizer.model`) as llama.cpp's converter
//! writes them.

use crate::formats::gguf::{Array, Value};
use std::collections::BTreeMap;

use super::tokens::{
    BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, check_token_count, config_special_ids,
    config_vocab_size,
};

/// A SentencePiece `tokenizer.model` as llama.cpp's converter writes it
/// (`_create_vocab_sentencepiece`, `_set_vocab_sentencepiece`):
/// `tokenizer.ggml.model` "llama", `pre` "default", the pieces with their
/// scores and types (unknown, control, unused and byte as themselves,
/// every other piece NORMAL), ids past the pieces up to `config.json`'s
/// `vocab_size` as `[PAD<id>]` (score -10000, UNUSED), and the special
/// ids `config.json` names. More pieces than `vocab_size` is refused (the
/// converter drops them with a warning).
pub fn sentencepiece(
    model: &crate::formats::sentencepiece::Model,
    config: &serde_json::Value,
) -> Result<BTreeMap<String, Value>, String> {
    use crate::formats::sentencepiece::PieceType;
    let pieces = model.pieces.len();
    let n = config_vocab_size(config)?.unwrap_or(pieces);
    check_token_count(n)?;
    if pieces > n {
        return Err(format!(
            "tokenizer.model holds {pieces} pieces, more than config.json's vocab_size {n} (the model has no rows for the rest)"
        ));
    }
    let mut tokens = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n);
    let mut types = Vec::with_capacity(n);
    for p in &model.pieces {
        tokens.push(p.piece.clone());
        scores.push(p.score);
        types.push(match p.kind {
            PieceType::Unknown => UNKNOWN,
            PieceType::Control => CONTROL,
            PieceType::Unused => UNUSED,
            PieceType::Byte => BYTE,
            PieceType::Normal | PieceType::UserDefined => NORMAL,
        });
    }
    for id in pieces..n {
        tokens.push(format!("[PAD{id}]"));
        scores.push(-10000.0);
        types.push(UNUSED);
    }
    let mut out = BTreeMap::new();
    out.insert("tokenizer.ggml.model".into(), Value::String("llama".into()));
    out.insert("tokenizer.ggml.pre".into(), Value::String("default".into()));
    out.insert(
        "tokenizer.ggml.tokens".into(),
        Value::Array(Array::String(tokens)),
    );
    out.insert(
        "tokenizer.ggml.scores".into(),
        Value::Array(Array::F32(scores)),
    );
    out.insert(
        "tokenizer.ggml.token_type".into(),
        Value::Array(Array::I32(types)),
    );
    out.extend(config_special_ids(
        config,
        &["bos", "eos", "unk", "sep", "pad", "cls", "mask"],
        n,
    )?);
    Ok(out)
}
