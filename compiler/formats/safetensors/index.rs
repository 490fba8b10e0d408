//! The index of a sharded checkpoint.

use serde::Deserialize;
use std::collections::BTreeMap;

use super::decode::StringMap;

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

/// Reads a shard index (its `metadata` is free-form and ignored).
pub fn decode_index(json: &[u8]) -> Result<ShardIndex, String> {
    #[derive(Deserialize)]
    struct Raw {
        #[serde(default)]
        #[allow(dead_code)]
        metadata: Option<serde_json::Value>,
        weight_map: StringMap<{ usize::MAX }>,
    }
    let raw: Raw = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    Ok(ShardIndex {
        weight_map: raw.weight_map.0,
    })
}
