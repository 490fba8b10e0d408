//! Byte-level BPE vocabularies (`tokenizer.json`) as llama.cpp's converter
//! writes them, and the pre-tokenizer each names.

use crate::formats::gguf::{Array, Value};
use std::collections::BTreeMap;

use super::tokens::{
    CONTROL, NORMAL, UNUSED, USER_DEFINED, check_token_count, config_special_ids,
    config_vocab_size, tokens_by_id,
};

/// GPT-2's byte-to-character map, by which a byte-level BPE writes bytes
/// as printable characters: the printable Latin-1 bytes as themselves,
/// the rest from U+0100 up, in byte order.
pub fn gpt2_byte_char(b: u8) -> char {
    let printable = |b: u8| {
        (b'!'..=b'~').contains(&b) || (0xa1..=0xac).contains(&b) || (0xae..=0xff).contains(&b)
    };
    if printable(b) {
        return char::from(b);
    }
    let n = (0..b).filter(|&x| !printable(x)).count() as u32;
    char::from_u32(256 + n).expect("below U+0200")
}

/// A byte-level BPE `tokenizer.json` (and the config's special ids) as
/// llama.cpp's converter writes it for GPT-2-style vocabularies:
/// `tokenizer.ggml.model` "gpt2", the tokens by id (ids without one
/// `[PAD<id>]`, UNUSED), their types (special added tokens CONTROL, other
/// added ones USER_DEFINED), the merges (`a b`; a pair written as a list
/// joins with a space), the pre-tokenizer's name ([`bpe_pre`]), BOS, EOS
/// and padding from `config.json`'s ids, and `add_bos_token` when the
/// template puts a token first.
pub fn bpe(
    tokenizer: &serde_json::Value,
    config: &serde_json::Value,
) -> Result<BTreeMap<String, Value>, String> {
    let model = tokenizer
        .get("model")
        .ok_or("tokenizer.json has no \"model\"")?;
    match model.get("type").and_then(|t| t.as_str()) {
        Some("BPE") => {}
        other => {
            return Err(format!(
                "tokenizer.json: model.type is {other:?}; the LLaMA family reads BPE"
            ));
        }
    }
    if model.get("byte_fallback").and_then(|b| b.as_bool()) == Some(true) {
        // llama.cpp's converter makes such a vocabulary "llama" (through
        // transformers), not "gpt2"; its tokenizer.model says the same.
        return Err("tokenizer.json is SentencePiece's BPE (byte_fallback: true), not a byte-level BPE; name the checkpoint's tokenizer.model instead (`tokenizer: tokenizer.model`), which llama.cpp's converter reads first".into());
    }
    let vocab = model
        .get("vocab")
        .and_then(|v| v.as_object())
        .ok_or("tokenizer.json: model.vocab is not an object of token: id")?;
    let mut n = vocab.len().max(config_vocab_size(config)?.unwrap_or(0));
    let added = tokenizer.get("added_tokens").and_then(|a| a.as_array());
    for t in added.into_iter().flatten() {
        if let Some(id) = t.get("id").and_then(|i| i.as_u64()) {
            n = n.max(usize::try_from(id).unwrap_or(usize::MAX).saturating_add(1));
        }
    }
    check_token_count(n)?;
    let mut tokens: Vec<Option<(String, i32)>> = tokens_by_id(vocab, n)?
        .into_iter()
        .map(|t| t.map(|t| (t, NORMAL)))
        .collect();
    for t in added.into_iter().flatten() {
        let (Some(id), Some(content)) = (
            t.get("id").and_then(|i| i.as_u64()),
            t.get("content").and_then(|c| c.as_str()),
        ) else {
            return Err(format!(
                "tokenizer.json: an added token without an id and content: {t}"
            ));
        };
        let special = t.get("special").and_then(|s| s.as_bool()).unwrap_or(false);
        tokens[id as usize] = Some((
            content.to_string(),
            if special { CONTROL } else { USER_DEFINED },
        ));
    }
    let (list, types): (Vec<String>, Vec<i32>) = tokens
        .into_iter()
        .enumerate()
        .map(|(id, t)| t.unwrap_or_else(|| (format!("[PAD{id}]"), UNUSED)))
        .unzip();
    let merges = model
        .get("merges")
        .and_then(|m| m.as_array())
        .ok_or("tokenizer.json: model.merges is not a list")?
        .iter()
        .map(|m| match m {
            serde_json::Value::String(s) => Ok(s.clone()),
            serde_json::Value::Array(pair) if pair.len() == 2 => {
                let part = |v: &serde_json::Value| {
                    v.as_str()
                        .map(|s| {
                            s.chars()
                                .map(|c| if c == ' ' { '\u{0120}' } else { c })
                                .collect::<String>()
                        })
                        .ok_or_else(|| format!("tokenizer.json: a merge of {m}"))
                };
                Ok(format!("{} {}", part(&pair[0])?, part(&pair[1])?))
            }
            _ => Err(format!(
                "tokenizer.json: a merge {m}, neither \"a b\" nor [a, b]"
            )),
        })
        .collect::<Result<Vec<String>, String>>()?;
    let mut out = BTreeMap::new();
    out.insert("tokenizer.ggml.model".into(), Value::String("gpt2".into()));
    out.insert(
        "tokenizer.ggml.pre".into(),
        Value::String(bpe_pre(tokenizer)?.into()),
    );
    out.insert(
        "tokenizer.ggml.tokens".into(),
        Value::Array(Array::String(list)),
    );
    out.insert(
        "tokenizer.ggml.token_type".into(),
        Value::Array(Array::I32(types)),
    );
    out.insert(
        "tokenizer.ggml.merges".into(),
        Value::Array(Array::String(merges)),
    );
    out.extend(config_special_ids(config, &["bos", "eos", "pad"], n)?);
    let first_special = tokenizer
        .pointer("/post_processor/single/0/SpecialToken/id")
        .or_else(|| tokenizer.pointer("/post_processor/processors/1/single/0/SpecialToken/id"));
    out.insert(
        "tokenizer.ggml.add_bos_token".into(),
        Value::Bool(first_special.is_some()),
    );
    Ok(out)
}

/// Llama 3's pre-tokenizer split, as its `tokenizer.json` writes it (the
/// rule llama.cpp's `llama-bpe` pre-tokenizer runs).
pub const LLAMA3_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The byte-level BPE pre-tokenizers llama.cpp has a rule for, by the
/// `tokenizer.ggml.pre` name it loads them by (llama.cpp's converter names
/// them by a hash of the tokenizer's output, `get_vocab_base_pre`; kiln by
/// the rule `tokenizer.json` states): GPT-2's own (a `ByteLevel` that
/// splits with its regex) and Llama 3's (a `Split` by [`LLAMA3_SPLIT`],
/// then a `ByteLevel` that does not).
pub const BPE_PRE_TOKENIZERS: &[(&str, Option<&str>)] =
    &[("gpt-2", None), ("llama-bpe", Some(LLAMA3_SPLIT))];

/// `tokenizer.ggml.pre` for a byte-level BPE `tokenizer.json`: the name
/// of its rule in [`BPE_PRE_TOKENIZERS`]; any other is refused, as
/// llama.cpp's converter refuses a pre-tokenizer it does not recognize
/// (llama.cpp would split the text by another rule).
pub fn bpe_pre(tokenizer: &serde_json::Value) -> Result<&'static str, String> {
    let pre = tokenizer
        .get("pre_tokenizer")
        .unwrap_or(&serde_json::Value::Null);
    let byte_level = |p: &serde_json::Value, regex: bool| {
        p.get("type").and_then(|t| t.as_str()) == Some("ByteLevel")
            && p.get("add_prefix_space").and_then(|a| a.as_bool()) != Some(true)
            && p.get("use_regex").and_then(|u| u.as_bool()).unwrap_or(true) == regex
    };
    let split = if byte_level(pre, true) {
        None
    } else {
        let steps = (pre.get("type").and_then(|t| t.as_str()) == Some("Sequence"))
            .then(|| pre.get("pretokenizers").and_then(|p| p.as_array()))
            .flatten();
        match steps.map(Vec::as_slice) {
            Some([split, last])
                if byte_level(last, false)
                    && split.get("type").and_then(|t| t.as_str()) == Some("Split")
                    && split.get("behavior").and_then(|b| b.as_str()) == Some("Isolated")
                    && split.get("invert").and_then(|i| i.as_bool()) == Some(false) =>
            {
                split.pointer("/pattern/Regex").and_then(|r| r.as_str())
            }
            _ => Some(""),
        }
    };
    BPE_PRE_TOKENIZERS
        .iter()
        .find(|(_, rule)| *rule == split)
        .map(|(name, _)| *name)
        .ok_or_else(|| {
            format!(
                "tokenizer.json: pre_tokenizer {pre} is not one llama.cpp has a rule for (kiln knows {}: GPT-2's ByteLevel, and Llama 3's Split then ByteLevel); llama.cpp would split text another way",
                BPE_PRE_TOKENIZERS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            )
        })
}
