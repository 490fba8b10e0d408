//! WordPiece vocabularies (a BERT's `tokenizer.json` or `vocab.txt`) as
//! llama.cpp's BERT converter writes them, as named stages called from
//! [`wordpiece`].

use crate::formats::gguf::{Array, Value};
use std::collections::BTreeMap;

use super::tokens::{
    CONTROL, MAX_TOKENS, NORMAL, UNUSED, USER_DEFINED, check_token_count, config_vocab_size,
    tokens_by_id,
};

/// A BERT's `vocab.txt` (one WordPiece token a line, its id the line's
/// number) as the `tokenizer.json` Hugging Face's `BertTokenizerFast`
/// makes of it, for [`wordpiece`]: the tokens, the special tokens it names
/// (`[PAD]`, `[UNK]`, `[CLS]`, `[SEP]`, `[MASK]`, those the file holds)
/// as special added tokens, `[UNK]` as the unknown token, and the template
/// `[CLS] $A [SEP]`. A line that is empty or repeats an earlier one is
/// refused by its number (Hugging Face would let the later one win).
pub fn wordpiece_vocab_txt(text: &str) -> Result<serde_json::Value, String> {
    let mut vocab = serde_json::Map::new();
    let body = text.strip_suffix('\n').unwrap_or(text);
    for (i, line) in body.split('\n').enumerate() {
        let token = line.strip_suffix('\r').unwrap_or(line);
        if token.is_empty() {
            return Err(format!("vocab.txt: line {} is empty", i + 1));
        }
        if let Some(first) = vocab.insert(token.to_string(), i.into()) {
            return Err(format!(
                "vocab.txt: line {} repeats {token:?}, line {}",
                i + 1,
                first.as_u64().unwrap_or(0) + 1
            ));
        }
        if vocab.len() > MAX_TOKENS {
            return Err(format!("vocab.txt holds more than {MAX_TOKENS} tokens"));
        }
    }
    let added: Vec<serde_json::Value> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        .into_iter()
        .filter_map(|t| {
            vocab
                .get(t)
                .map(|id| serde_json::json!({"id": id, "content": t, "special": true}))
        })
        .collect();
    let template = if vocab.contains_key("[CLS]") && vocab.contains_key("[SEP]") {
        serde_json::json!({"type": "TemplateProcessing", "single": [
            {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
            {"Sequence": {"id": "A", "type_id": 0}},
            {"SpecialToken": {"id": "[SEP]", "type_id": 0}}
        ]})
    } else {
        serde_json::Value::Null
    };
    Ok(serde_json::json!({
        "added_tokens": added,
        "post_processor": template,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##", "vocab": vocab}
    }))
}

/// A WordPiece `tokenizer.json` (and the config's `vocab_size`) as
/// llama.cpp's BERT converter writes it: `tokenizer.ggml.model` "bert",
/// the tokens (ids without a token padded `[PAD<id>]`, UNUSED; special
/// added tokens CONTROL and unchanged; other added ones USER_DEFINED;
/// every other token in "phantom space" form: `##piece` as `piece`, a
/// word start with `▁` before it), their types, and the special ids its
/// template and model name (\[CLS\] first as BOS, \[SEP\] last, the model's
/// unknown token, the config's `pad_token_id`, an added `[MASK]`).
pub fn wordpiece(
    tokenizer: &serde_json::Value,
    config: &serde_json::Value,
) -> Result<BTreeMap<String, Value>, String> {
    let (model, vocab, n) = wordpiece_vocab(tokenizer, config)?;
    let mut tokens = tokens_by_id(vocab, n)?;
    let added = added_tokens(tokenizer, n, &mut tokens)?;
    let (list, types) = phantom_space(tokens, &added.special);
    let mut out = BTreeMap::new();
    out.insert("tokenizer.ggml.model".into(), Value::String("bert".into()));
    out.insert(
        "tokenizer.ggml.tokens".into(),
        Value::Array(Array::String(list)),
    );
    out.insert(
        "tokenizer.ggml.token_type".into(),
        Value::Array(Array::I32(types)),
    );
    out.extend(wordpiece_special_ids(
        tokenizer, config, model, vocab, &added, n,
    ));
    Ok(out)
}

type Vocab = serde_json::Map<String, serde_json::Value>;

/// The WordPiece model of `tokenizer.json`, its vocabulary, and the
/// vocabulary's size (the larger of its tokens and the config's
/// `vocab_size`, at most [`MAX_TOKENS`]).
fn wordpiece_vocab<'a>(
    tokenizer: &'a serde_json::Value,
    config: &serde_json::Value,
) -> Result<(&'a serde_json::Value, &'a Vocab, usize), String> {
    let model = tokenizer
        .get("model")
        .ok_or("tokenizer.json has no \"model\"")?;
    match model.get("type").and_then(|t| t.as_str()) {
        Some("WordPiece") => {}
        other => {
            return Err(format!(
                "tokenizer.json: model.type is {other:?}; the BERT family's tokenizer is WordPiece"
            ));
        }
    }
    let vocab = model
        .get("vocab")
        .and_then(|v| v.as_object())
        .ok_or("tokenizer.json: model.vocab is not an object of token: id")?;
    let n = vocab.len().max(config_vocab_size(config)?.unwrap_or(0));
    check_token_count(n)?;
    Ok((model, vocab, n))
}

/// `tokenizer.json`'s added tokens: whether each id is special, and each
/// content's id.
struct Added<'a> {
    special: BTreeMap<usize, bool>,
    by_content: BTreeMap<&'a str, usize>,
}

/// Reads the added tokens (each id below `n`), filling the ids `tokens`
/// lacks with their content.
fn added_tokens<'a>(
    tokenizer: &'a serde_json::Value,
    n: usize,
    tokens: &mut [Option<String>],
) -> Result<Added<'a>, String> {
    let mut special: BTreeMap<usize, bool> = BTreeMap::new();
    let mut by_content: BTreeMap<&str, usize> = BTreeMap::new();
    for t in tokenizer
        .get("added_tokens")
        .and_then(|a| a.as_array())
        .into_iter()
        .flatten()
    {
        let (Some(id), Some(content)) = (
            t.get("id").and_then(|i| i.as_u64()),
            t.get("content").and_then(|c| c.as_str()),
        ) else {
            return Err(format!(
                "tokenizer.json: an added token without an id and content: {t}"
            ));
        };
        let id = usize::try_from(id).ok().filter(|&i| i < n).ok_or_else(|| {
            format!("tokenizer.json: added token {content:?} has id {id}, beyond the vocabulary")
        })?;
        special.insert(
            id,
            t.get("special").and_then(|s| s.as_bool()).unwrap_or(false),
        );
        by_content.insert(content, id);
        tokens[id].get_or_insert_with(|| content.to_string());
    }
    Ok(Added {
        special,
        by_content,
    })
}

/// The tokens as llama.cpp writes a WordPiece vocabulary, with their
/// types: ids without a token `[PAD<id>]` (UNUSED), special added tokens
/// unchanged (CONTROL), other added ones USER_DEFINED, and every other
/// token in "phantom space" form (`##piece` as `piece`, a word start with
/// `▁` before it).
fn phantom_space(
    tokens: Vec<Option<String>>,
    special: &BTreeMap<usize, bool>,
) -> (Vec<String>, Vec<i32>) {
    let mut list = Vec::with_capacity(tokens.len());
    let mut types = Vec::with_capacity(tokens.len());
    for (id, token) in tokens.into_iter().enumerate() {
        let (text, ty) = match (token, special.get(&id)) {
            (None, _) => (format!("[PAD{id}]"), UNUSED),
            (Some(t), Some(true)) => (t, CONTROL),
            (Some(t), Some(false)) => (t.replace('\u{2581}', " "), USER_DEFINED),
            (Some(t), None) => match t.strip_prefix("##") {
                Some(piece) => (piece.to_string(), NORMAL),
                None => (format!("\u{2581}{t}"), NORMAL),
            },
        };
        list.push(text);
        types.push(ty);
    }
    (list, types)
}

/// The special ids a WordPiece tokenizer names: the model's unknown token,
/// its template's first (\[CLS\], as BOS) and last (\[SEP\]) tokens, the
/// config's `pad_token_id`, an added `[MASK]`.
fn wordpiece_special_ids(
    tokenizer: &serde_json::Value,
    config: &serde_json::Value,
    model: &serde_json::Value,
    vocab: &Vocab,
    added: &Added,
    n: usize,
) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let id_of = |content: &str| {
        added.by_content.get(content).copied().or_else(|| {
            vocab
                .get(content)
                .and_then(|v| v.as_u64())
                .map(|v| v as usize)
        })
    };
    let id = |k: &str, v: usize| (k.to_string(), Value::U32(v as u32));
    if let Some(unk) = model
        .get("unk_token")
        .and_then(|u| u.as_str())
        .and_then(id_of)
    {
        out.extend([id("tokenizer.ggml.unknown_token_id", unk)]);
    }
    // The template: `[CLS] $A [SEP]`.
    let single = tokenizer
        .pointer("/post_processor/single")
        .and_then(|s| s.as_array())
        .map(|s| {
            s.iter()
                .map(|p| p.pointer("/SpecialToken/id").and_then(|i| i.as_str()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    if let Some(cls) = single.first().copied().flatten().and_then(id_of) {
        out.extend([id("tokenizer.ggml.bos_token_id", cls)]);
        out.insert("tokenizer.ggml.add_bos_token".into(), Value::Bool(true));
    }
    if let Some(sep) = single
        .last()
        .copied()
        .flatten()
        .and_then(id_of)
        .filter(|_| single.len() > 1)
    {
        out.extend([id("tokenizer.ggml.seperator_token_id", sep)]);
        out.insert("tokenizer.ggml.add_sep_token".into(), Value::Bool(true));
    }
    if let Some(pad) = config
        .get("pad_token_id")
        .and_then(|p| p.as_u64())
        .filter(|&p| (p as usize) < n)
    {
        out.extend([id("tokenizer.ggml.padding_token_id", pad as usize)]);
    }
    if let Some(mask) = ["[MASK]", "<mask>"]
        .into_iter()
        .find_map(|m| added.by_content.get(m).copied())
    {
        out.extend([id("tokenizer.ggml.mask_token_id", mask)]);
    }
    out
}
