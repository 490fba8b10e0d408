//! The index of a sharded checkpoint.

use serde::Deserialize;
use std::collections::BTreeMap;

use super::Error;
use super::decode::{StringMap, first_sentence};

/// The index of a sharded checkpoint, `model.safetensors.index.json`:
/// which shard file holds each tensor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardIndex {
    /// tensor name -> shard file name, sorted by name.
    pub weight_map: BTreeMap<String, String>,
}

impl ShardIndex {
    /// The shard files, each once, sorted.
    pub fn shards(&self) -> Vec<&str> {
        let set: std::collections::BTreeSet<&str> =
            self.weight_map.values().map(String::as_str).collect();
        set.into_iter().collect()
    }
}

/// Reads a shard index (its `metadata` is free-form and ignored); an
/// error is [`Error::IndexJson`] at the byte of the index file.
pub fn decode_index(json: &[u8]) -> Result<ShardIndex, Error> {
    #[derive(Deserialize)]
    struct Raw {
        #[serde(default)]
        #[allow(dead_code)]
        metadata: Option<serde_json::Value>,
        weight_map: StringMap<{ usize::MAX }>,
    }
    let raw: Raw = serde_json::from_slice(json).map_err(|e| Error::IndexJson {
        offset: byte_of(json, e.line(), e.column()),
        message: first_sentence(&e.to_string()),
    })?;
    Ok(ShardIndex {
        weight_map: raw.weight_map.0,
    })
}

/// The byte serde_json stopped at, from its 1-based `line` and `column`
/// (the last byte it read), past any white space it had not read on to
/// (the value at fault); at most the length.
fn byte_of(json: &[u8], line: usize, column: usize) -> u64 {
    let mut start = 0;
    for _ in 1..line {
        match json[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => return json.len() as u64,
        }
    }
    let at = (start + column.saturating_sub(1)).min(json.len());
    let blank = json[at..]
        .iter()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    (at + blank) as u64
}
