//! What every tokenizer shares: the vocabulary's bound, llama.cpp's token
//! types, a vocabulary by id and the special ids `config.json` names.

use crate::formats::gguf::Value;
use std::collections::BTreeMap;

/// The special tokens' ids `config.json` names (`{type}_token_id`, or
/// under `text_config`), for the `types` asked, as gguf-py's `SpecialVocab`
/// reads them: a whole number under the vocabulary's `n` is written, one
/// at or past it left out, a negative one refused.
pub(super) fn config_special_ids(
    config: &serde_json::Value,
    types: &[&str],
    n: usize,
) -> Result<BTreeMap<String, Value>, String> {
    let mut out = BTreeMap::new();
    for &ty in types {
        let from = format!("{ty}_token_id");
        let Some(id) = config
            .get(&from)
            .filter(|v| !v.is_null())
            .or_else(|| config.get("text_config").and_then(|t| t.get(&from)))
        else {
            continue;
        };
        if let Some(i) = id.as_i64().filter(|&i| i < 0) {
            return Err(format!(
                "config.json: {from} is {i}; a token id is 0 or more"
            ));
        }
        let Some(id) = id.as_u64().filter(|&i| i < n as u64) else {
            continue; // not a whole number, or beyond the vocabulary
        };
        let key = match ty {
            "bos" => "tokenizer.ggml.bos_token_id",
            "eos" => "tokenizer.ggml.eos_token_id",
            "unk" => "tokenizer.ggml.unknown_token_id",
            "sep" => "tokenizer.ggml.seperator_token_id", // sic: gguf-py's key
            "pad" => "tokenizer.ggml.padding_token_id",
            "cls" => "tokenizer.ggml.cls_token_id",
            "mask" => "tokenizer.ggml.mask_token_id",
            _ => unreachable!("a type gguf-py's SpecialVocab reads"),
        };
        out.insert(key.into(), Value::U32(id as u32));
    }
    Ok(out)
}

/// Most tokens a vocabulary may hold (gguf's string-array limit).
pub const MAX_TOKENS: usize = crate::formats::gguf::MAX_ARRAY_STRINGS as usize;

/// `config.json`'s `vocab_size`, the rows of the model's embedding:
/// `None` when it is absent, null or 0 (the tokenizer's own count then
/// stands); anything but a whole number is refused. Every tokenizer reads
/// it here.
pub(super) fn config_vocab_size(config: &serde_json::Value) -> Result<Option<usize>, String> {
    match config.get("vocab_size") {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(0) => Ok(None),
            Some(n) => Ok(Some(usize::try_from(n).unwrap_or(usize::MAX))),
            None => Err(format!("config.json: vocab_size is {v}; a whole number")),
        },
    }
}

/// A vocabulary of `n` tokens is at most [`MAX_TOKENS`].
pub(super) fn check_token_count(n: usize) -> Result<(), String> {
    if n > MAX_TOKENS {
        return Err(format!(
            "the vocabulary holds {n} tokens; kiln writes at most {MAX_TOKENS}"
        ));
    }
    Ok(())
}

/// llama.cpp's token types (gguf-py `TokenType`).
pub(super) const NORMAL: i32 = 1;
pub(super) const UNKNOWN: i32 = 2;
pub(super) const CONTROL: i32 = 3;
pub(super) const USER_DEFINED: i32 = 4;
pub(super) const UNUSED: i32 = 5;
pub(super) const BYTE: i32 = 6;

/// `model.vocab` (token: id) by id, for a vocabulary of `n` ids (at most
/// [`MAX_TOKENS`], checked before): each id below `n` and held once.
pub(super) fn tokens_by_id(
    vocab: &serde_json::Map<String, serde_json::Value>,
    n: usize,
) -> Result<Vec<Option<String>>, String> {
    let mut tokens = vec![None; n];
    for (token, id) in vocab {
        let id = id
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < n)
            .ok_or_else(|| {
                format!(
                    "tokenizer.json: token {token:?} has id {id}, not one of 0 to {}",
                    n.saturating_sub(1)
                )
            })?;
        if let Some(other) = &tokens[id] {
            return Err(format!(
                "tokenizer.json: tokens {other:?} and {token:?} share the id {id}"
            ));
        }
        tokens[id] = Some(token.clone());
    }
    Ok(tokens)
}
