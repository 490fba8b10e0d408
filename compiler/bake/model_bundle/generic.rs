//! The `generic` profile (and the `llama.cpp` profile, a generic conversion
//! with a family's tables): which tensors, under what names, as what types,
//! with what metadata, as named stages called from [`generic`].

use crate::bake::{llama_cpp, tensor_convert};
use crate::formats::gguf::{self, TensorType, Value};
use crate::formats::motionbricks::{ALIGNMENT, kv};
use crate::formats::safetensors::{self, Dtype};
use crate::memory;
use std::collections::BTreeMap;

use super::rename::{check_template, rename, wildcard};
use super::{Error, PlannedFile, PlannedTensor, check_collisions, compact_name, ggml_dims};

/// The generic profile's type policy, and a `types:` override's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypePolicy {
    /// Every tensor as it is (U8 becomes I16 and BOOL I8: GGUF has no
    /// unsigned or boolean tensor type).
    Keep,
    F32,
    F16,
    BF16,
    /// ggml's 8-bit blocks of 32 ([`tensor_convert`]).
    Q8_0,
    /// ggml's 4-bit blocks of 32.
    Q4_0,
}

impl TypePolicy {
    /// What a tensor of `dtype`, `rank` dimensions, GGUF name `name` and
    /// first GGML dimension `ne0` becomes under the policy. Integers stay
    /// integers under every policy (they are indices and ids; a float
    /// would change their meaning). Under `f16`, `bf16` and `q8_0`, the
    /// tensors llama.cpp's converter keeps in F32 stay F32
    /// ([`llama_cpp::keeps_f32`]: one dimension or none, norms, names not
    /// ending in `.weight`, position and token-type embeddings, …); under
    /// `q8_0`, a tensor whose rows are not whole blocks of 32 becomes F16,
    /// as llama.cpp's converter does.
    pub fn target(self, dtype: Dtype, rank: usize, name: &str, ne0: u64) -> TensorType {
        if let Some(t) = integer_target(dtype) {
            return t;
        }
        match self {
            TypePolicy::Keep => tensor_convert::native(dtype)
                .or(tensor_convert::widened(dtype))
                .expect("every float has a GGML type"),
            TypePolicy::F32 => TensorType::F32,
            _ if llama_cpp::keeps_f32(name, rank) => TensorType::F32,
            TypePolicy::F16 => TensorType::F16,
            TypePolicy::BF16 => TensorType::BF16,
            TypePolicy::Q8_0 if whole_blocks(TensorType::Q8_0, ne0) => TensorType::Q8_0,
            TypePolicy::Q4_0 if whole_blocks(TensorType::Q4_0, ne0) => TensorType::Q4_0,
            // llama.cpp's converter writes F16 where rows are not whole blocks.
            TypePolicy::Q8_0 | TypePolicy::Q4_0 => TensorType::F16,
        }
    }

    /// What a `types:` override makes of a float tensor: exactly the type
    /// it names (`keep`: its own); `None` for Q8_0 of rows that are not
    /// whole blocks.
    pub fn exact(self, dtype: Dtype, ne0: u64) -> Option<TensorType> {
        Some(match self {
            TypePolicy::Keep => tensor_convert::native(dtype).or(tensor_convert::widened(dtype))?,
            TypePolicy::F32 => TensorType::F32,
            TypePolicy::F16 => TensorType::F16,
            TypePolicy::BF16 => TensorType::BF16,
            TypePolicy::Q8_0 if whole_blocks(TensorType::Q8_0, ne0) => TensorType::Q8_0,
            TypePolicy::Q4_0 if whole_blocks(TensorType::Q4_0, ne0) => TensorType::Q4_0,
            TypePolicy::Q8_0 | TypePolicy::Q4_0 => return None,
        })
    }

    /// `general.file_type` (llama.cpp's LLAMA_FTYPE), where one applies.
    pub fn file_type(self) -> Option<u32> {
        match self {
            TypePolicy::Keep => None,
            TypePolicy::F32 => Some(0),
            TypePolicy::F16 => Some(1),
            TypePolicy::Q8_0 => Some(7),
            TypePolicy::Q4_0 => Some(2),
            TypePolicy::BF16 => Some(32),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TypePolicy::Keep => "keep",
            TypePolicy::F32 => "f32",
            TypePolicy::F16 => "f16",
            TypePolicy::BF16 => "bf16",
            TypePolicy::Q8_0 => "q8_0",
            TypePolicy::Q4_0 => "q4_0",
        }
    }
}

/// Rows of `ne0` elements are whole blocks of the block type `ty` (its
/// layout in the GGUF codec says how many a block holds).
fn whole_blocks(ty: TensorType, ne0: u64) -> bool {
    ty.layout()
        .is_some_and(|(_, block, _)| ne0.is_multiple_of(block))
}

/// The GGML type of an integer (or boolean) tensor under every policy;
/// `None` for a float.
fn integer_target(dtype: Dtype) -> Option<TensorType> {
    if dtype.is_float() {
        return None;
    }
    Some(
        tensor_convert::native(dtype)
            .or(tensor_convert::widened(dtype))
            .expect("every integer has a GGML type"),
    )
}

/// Settings of a generic conversion.
#[derive(Clone, Debug, PartialEq)]
pub struct Generic {
    pub architecture: String,
    /// More metadata, written after kiln's own keys, in key order.
    pub metadata: BTreeMap<String, Value>,
    pub policy: TypePolicy,
    pub compact_names: bool,
    /// Keep only tensors matching one of these (`*` any run); all if empty.
    pub keep: Vec<String>,
    /// Leave out the tensors (checkpoint names) matching one of these.
    pub drop: Vec<String>,
    /// New names: (checkpoint name or pattern, GGUF name or template, each
    /// `*` of which is what the pattern's `*` matched, in order).
    pub rename: Vec<(String, String)>,
    /// Per-tensor types by GGUF-name pattern, over the policy.
    pub types: Vec<(String, TypePolicy)>,
    /// Checkpoint-name patterns whose rows go in llama.cpp's rotary order,
    /// with the head count grouping them.
    pub permute: Vec<(String, u64)>,
    /// A family's name table (the `llama.cpp` profile): every tensor kept
    /// must be named by a `rename` rule (else an error naming it and this
    /// table), and rules or drops that match nothing are no error.
    pub table: Option<&'static str>,
}

/// Keys kiln writes itself in a generic conversion.
pub const GENERIC_KEYS: [&str; 3] = [
    "general.architecture",
    "general.alignment",
    "general.file_type",
];

/// The plan of a generic conversion of one checkpoint: its tensors (each
/// `(shard index, tensor)` across the shards) kept by `keep` and `drop`,
/// renamed, typed, and sorted by GGUF name.
pub fn generic(
    tensors: &[(usize, safetensors::Tensor)],
    settings: &Generic,
) -> Result<(PlannedFile, Vec<usize>), Error> {
    for key in settings.metadata.keys() {
        if GENERIC_KEYS.contains(&key.as_str()) {
            return Err(Error::ReservedKey { key: key.clone() });
        }
    }
    let kept = select_kept(tensors, settings)?;
    let mut planned: Vec<PlannedTensor> = memory::with_capacity(kept.len()).map_err(no_memory)?;
    let mut shards: Vec<usize> = memory::with_capacity(kept.len()).map_err(no_memory)?;
    let mut types_used = vec![false; settings.types.len()];
    for (shard, t) in kept {
        let name = gguf_name(t, settings)?;
        let dims = ggml_dims(t.name, t.shape)?;
        let to = tensor_type(t, &name, dims[0], settings, &mut types_used)?;
        let row_heads = row_heads(t, settings)?;
        planned.push(PlannedTensor {
            name,
            source: t.name.to_string(),
            from: t.dtype,
            to,
            dims,
            elements: t.elements(),
            begin: t.begin,
            end: t.end,
            row_heads,
        });
        shards.push(*shard);
    }
    if let Some(i) = types_used.iter().position(|used| !used) {
        return Err(Error::Unmatched {
            key: "types",
            pattern: settings.types[i].0.clone(),
        });
    }
    check_collisions(&planned)?;
    let (tensors, shards) = sorted_by_name(planned, shards)?;
    Ok((
        PlannedFile {
            metadata: generic_metadata(settings),
            tensors,
        },
        shards,
    ))
}

fn no_memory(e: memory::NoMemory) -> Error {
    Error::NoMemory {
        what: "tensor table",
        bytes: e.bytes,
    }
}

/// The tensors `keep` and `drop` leave, in checkpoint-name order (so that
/// errors name the same tensor first whatever the shards' order); without
/// a family's table, a `drop` or `rename` pattern that matches nothing is
/// an error.
fn select_kept<'a, 't>(
    tensors: &'a [(usize, safetensors::Tensor<'t>)],
    settings: &Generic,
) -> Result<Vec<&'a (usize, safetensors::Tensor<'t>)>, Error> {
    let mut kept: Vec<&(usize, safetensors::Tensor)> =
        memory::with_capacity(tensors.len()).map_err(no_memory)?;
    kept.extend(tensors.iter().filter(|(_, t)| {
        settings.keep.is_empty() || settings.keep.iter().any(|p| wildcard(p, t.name))
    }));
    if kept.is_empty() {
        return Err(Error::NothingKept { n: tensors.len() });
    }
    for pattern in settings.drop.iter().filter(|_| settings.table.is_none()) {
        if !kept.iter().any(|(_, t)| wildcard(pattern, t.name)) {
            return Err(Error::Unmatched {
                key: "drop",
                pattern: pattern.clone(),
            });
        }
    }
    kept.retain(|(_, t)| !settings.drop.iter().any(|p| wildcard(p, t.name)));
    if kept.is_empty() {
        return Err(Error::NothingKept { n: tensors.len() });
    }
    for (from, to) in &settings.rename {
        check_template(from, to)?;
        if settings.table.is_none() && !kept.iter().any(|(_, t)| wildcard(from, t.name)) {
            return Err(Error::Unmatched {
                key: "rename",
                pattern: from.clone(),
            });
        }
    }
    kept.sort_unstable_by(|a, b| (a.1.name, a.0).cmp(&(b.1.name, b.0)));
    Ok(kept)
}

/// The GGUF name of `t`: renamed (with a family's table, a tensor no rule
/// names is an error naming the table), then compacted or checked for
/// length.
fn gguf_name(t: &safetensors::Tensor, settings: &Generic) -> Result<String, Error> {
    let renamed = match (rename(&settings.rename, t.name)?, settings.table) {
        (Some(new), _) => new,
        (None, Some(table)) => {
            return Err(Error::UnknownTensor {
                name: t.name.to_string(),
                table,
            });
        }
        (None, None) => t.name.to_string(),
    };
    if settings.compact_names {
        Ok(compact_name(&renamed))
    } else if renamed.len() >= gguf::MAX_NAME_BYTES {
        Err(Error::NameTooLong {
            len: renamed.len(),
            name: renamed,
        })
    } else {
        Ok(renamed)
    }
}

/// The type `t` (GGUF name `name`, `ne0` elements a row) is written as: the
/// `types:` override that matches it (two that disagree are an error), else
/// the policy's. Marks each override that matched in `types_used`.
fn tensor_type(
    t: &safetensors::Tensor,
    name: &str,
    ne0: u64,
    settings: &Generic,
    types_used: &mut [bool],
) -> Result<TensorType, Error> {
    let mut chosen: Option<(usize, TypePolicy)> = None;
    for (i, (pattern, choice)) in settings.types.iter().enumerate() {
        if wildcard(pattern, name) {
            if let Some((first, _)) = chosen.filter(|&(_, c)| c != *choice) {
                return Err(Error::TypeConflict {
                    name: name.to_string(),
                    first: settings.types[first].0.clone(),
                    second: pattern.clone(),
                });
            }
            types_used[i] = true;
            chosen.get_or_insert((i, *choice));
        }
    }
    Ok(match chosen {
        None => settings.policy.target(t.dtype, t.shape.len(), name, ne0),
        Some((i, choice)) => match integer_target(t.dtype) {
            Some(int) if choice == TypePolicy::Keep => int,
            Some(_) => {
                return Err(Error::IntegerType {
                    name: name.to_string(),
                    dtype: t.dtype,
                    pattern: settings.types[i].0.clone(),
                });
            }
            None => choice.exact(t.dtype, ne0).ok_or_else(|| Error::Blocks {
                name: name.to_string(),
                ne0,
                pattern: settings.types[i].0.clone(),
            })?,
        },
    })
}

/// The head count whose rows of `t` go in llama.cpp's rotary order, if a
/// `permute` pattern names it: the rows must split into heads of an even
/// number of rows.
fn row_heads(t: &safetensors::Tensor, settings: &Generic) -> Result<Option<u64>, Error> {
    let Some(&(_, heads)) = settings.permute.iter().find(|(p, _)| wildcard(p, t.name)) else {
        return Ok(None);
    };
    let rows = t.shape.first().copied().unwrap_or(1);
    if heads == 0 || !rows.is_multiple_of(heads) || !(rows / heads).is_multiple_of(2) {
        return Err(Error::Heads {
            name: t.name.to_string(),
            rows,
            heads,
        });
    }
    Ok(Some(heads))
}

/// `planned` sorted by GGUF name (unique by now), `shards` alongside.
fn sorted_by_name(
    planned: Vec<PlannedTensor>,
    shards: Vec<usize>,
) -> Result<(Vec<PlannedTensor>, Vec<usize>), Error> {
    let mut paired: Vec<(PlannedTensor, usize)> =
        memory::with_capacity(planned.len()).map_err(no_memory)?;
    paired.extend(planned.into_iter().zip(shards));
    paired.sort_unstable_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut sorted: Vec<PlannedTensor> = memory::with_capacity(paired.len()).map_err(no_memory)?;
    let mut sorted_shards: Vec<usize> = memory::with_capacity(paired.len()).map_err(no_memory)?;
    for (t, shard) in paired {
        sorted.push(t);
        sorted_shards.push(shard);
    }
    Ok((sorted, sorted_shards))
}

/// kiln's keys (architecture, alignment, the file type if the policy has
/// one), then the manifest's in key order.
fn generic_metadata(settings: &Generic) -> Vec<(String, Value)> {
    let mut metadata = vec![
        kv(
            "general.architecture",
            Value::String(settings.architecture.clone()),
        ),
        kv("general.alignment", Value::U32(ALIGNMENT)),
    ];
    if let Some(ft) = settings.policy.file_type() {
        metadata.push(kv("general.file_type", Value::U32(ft)));
    }
    for (k, v) in &settings.metadata {
        metadata.push((k.clone(), v.clone()));
    }
    metadata
}
