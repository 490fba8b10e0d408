//! safetensors checkpoints into GGUF: which tensors go into which file,
//! under what name, as what type, with what metadata. Pure: headers in,
//! plans out; the pipeline streams the bytes through [`tensor_convert`].
//!
//! Two profiles:
//! - `motionbricks-g1`, the MotionBricks GGUF bundle v1 exactly as
//!   ../shared/specs/motionbricks.md gives it (docs/formats/motionbricks.md):
//!   four components from four extraction files, tensors selected and
//!   renamed by the component table, sorted by name, every float F32 and
//!   every integer I32, the metadata keys in their order and types, and
//!   the bundle's `manifest.json`;
//! - `generic`: one GGUF of every tensor (or those a filter keeps), under a
//!   type policy, with the metadata the manifest gives.
//!
//! [`tensor_convert`]: super::tensor_convert

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use super::{llama_cpp, tensor_convert};
use crate::formats::gguf::{self, TensorDesc, TensorType, Value};
use crate::formats::motionbricks::Problem;
use crate::formats::safetensors::{self, Dtype};
use crate::memory;

// The identity every MotionBricks file carries lives with the formats
// (`.mbstyle` needs it too); re-exported here, where the bundle uses it.
pub use crate::formats::motionbricks::{
    ALIGNMENT, ARCHITECTURE, BUNDLE_FORMAT, BUNDLE_NAME, G1_JOINTS, SAFE_MANIFEST_FORMAT, SKELETON,
    UPSTREAM_REVISION, common_metadata, kv,
};

/// A component of the bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Pose,
    Root,
    VqDecoder,
    Support,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Pose, Role::Root, Role::VqDecoder, Role::Support];

    /// The component's name (`motionbricks.component`, the manifest key).
    pub fn name(self) -> &'static str {
        match self {
            Role::Pose => "pose",
            Role::Root => "root",
            Role::VqDecoder => "vq-decoder",
            Role::Support => "support",
        }
    }

    /// The output file.
    pub fn file(self) -> &'static str {
        match self {
            Role::Pose => "pose.gguf",
            Role::Root => "root.gguf",
            Role::VqDecoder => "vq-decoder.gguf",
            Role::Support => "support.gguf",
        }
    }

    /// The extraction file it is made from.
    pub fn source(self) -> &'static str {
        match self {
            Role::Pose => "pose",
            Role::Root => "root",
            Role::VqDecoder => "vqvae",
            Role::Support => "support",
        }
    }

    /// The official extraction's SHA-256 of that file (the runtime's pin).
    pub fn pin(self) -> &'static str {
        match self {
            Role::Pose => "01327768be7413111dc927947a95cfb3e9ee7c52acfa35a054e8c2f3b838b888",
            Role::Root => "d1529a8c9da915cb7dd0499272baba61db480660c0aae92b67fbe69828e83c5a",
            Role::VqDecoder => "544782e605ed96d60bf999243ef8f44640ea021a5655ef20af2d2853c3e18b5b",
            Role::Support => "229b764411652b2ab0f824481d6daf897f701a97223029759444fc5bc241ea22",
        }
    }

    /// (tensors, values) the component must have.
    pub fn table(self) -> (usize, u64) {
        match self {
            Role::Pose => (209, 136_588_272),
            Role::Root => (150, 34_122_833),
            Role::VqDecoder => (51, 12_437_277),
            Role::Support => (4, 972),
        }
    }

    /// Whether the component keeps `name`, and its name with the prefix
    /// stripped.
    fn select(self, name: &str) -> Option<&str> {
        match self {
            Role::Pose => name
                .strip_prefix("backbone_net.")
                .filter(|_| name != "backbone_net.initted"),
            Role::Root => name.strip_prefix("backbone_net."),
            Role::VqDecoder => {
                if name.starts_with("pose_net.decoder.")
                    || name == "pose_net.quantizer.vq._codebook.embed"
                {
                    name.strip_prefix("pose_net.")
                } else {
                    None
                }
            }
            Role::Support => Some(name),
        }
    }
}

/// One tensor of a GGUF to write: where its bytes come from and what they
/// become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedTensor {
    /// The name in the GGUF.
    pub name: String,
    /// The source tensor's name.
    pub source: String,
    pub from: Dtype,
    pub to: TensorType,
    /// GGML order.
    pub dims: Vec<u64>,
    pub elements: u64,
    /// The source bytes, relative to the source's data start.
    pub begin: u64,
    pub end: u64,
    /// `Some(heads)`: the rows (the source's first dimension) are written
    /// in llama.cpp's rotary order for that many heads
    /// ([`llama_cpp::permuted_row`]); `None`: in order.
    pub row_heads: Option<u64>,
}

impl PlannedTensor {
    /// The source byte ranges, relative to the data start, in the order
    /// the GGUF takes them: the whole tensor, or row by row.
    pub fn segments(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let rows = match self.row_heads {
            Some(_) => self.dims.last().copied().unwrap_or(1).max(1),
            None => 1,
        };
        let row_bytes = (self.end - self.begin) / rows;
        (0..rows).map(move |r| {
            let src = self
                .row_heads
                .map_or(r, |h| llama_cpp::permuted_row(r, rows, h));
            (self.begin + src * row_bytes, row_bytes)
        })
    }
}

/// A GGUF to write: its metadata and tensors, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedFile {
    pub metadata: Vec<(String, Value)>,
    pub tensors: Vec<PlannedTensor>,
}

impl PlannedFile {
    pub fn descs(&self) -> Vec<TensorDesc<'_>> {
        self.tensors
            .iter()
            .map(|t| TensorDesc {
                name: &t.name,
                dims: &t.dims,
                ty: t.to,
            })
            .collect()
    }

    pub fn parameter_count(&self) -> u64 {
        self.tensors.iter().map(|t| t.elements).sum()
    }
}

/// Why a conversion cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(
        "component {component}: {found_tensors} tensors with {found_values} values selected; the bundle needs {tensors} tensors with {values} values"
    )]
    Table {
        component: &'static str,
        tensors: usize,
        values: u64,
        found_tensors: usize,
        found_values: u64,
    },
    #[error(
        "tensor {name:?} has {n} dimensions; GGUF allows at most {}",
        gguf::MAX_DIMS
    )]
    TooManyDims { name: String, n: usize },
    #[error("tensors {first:?} and {second:?} both become {name:?} in the GGUF")]
    Collision {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "tensor name {name:?} is {len} bytes; GGUF allows at most 63 (set `compact_names: true` to shorten such names as the MotionBricks rules do)"
    )]
    NameTooLong { name: String, len: usize },
    #[error("the filter keeps no tensor of the {n} in the checkpoint")]
    NothingKept { n: usize },
    #[error("metadata key {key:?} is written by kiln; leave it out")]
    ReservedKey { key: String },
    #[error(
        "tensor {name:?} is not in {table}; llama.cpp would not load it (use `profile: generic` with `rename` for a checkpoint of other names)"
    )]
    UnknownTensor { name: String, table: &'static str },
    #[error(
        "tensor {name:?} has {rows} rows, which {heads} heads of an even size do not divide (config.json's head counts do not fit the checkpoint)"
    )]
    Heads { name: String, rows: u64, heads: u64 },
    #[error("{key}: {pattern:?} matches no tensor of the checkpoint")]
    Unmatched { key: &'static str, pattern: String },
    #[error(
        "rename: {from:?} -> {to:?}: the new name must hold as many `*` as the pattern (each is what the pattern's `*` matched, in order)"
    )]
    Template { from: String, to: String },
    #[error(
        "rename: tensor {name:?} matches both {first:?} and {second:?}, as specific as each other; make one of them narrower"
    )]
    RenameConflict {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "rename: {pattern:?} matches a tensor name of {len} bytes; kiln renames names of at most {MAX_RENAMED_NAME_BYTES}"
    )]
    RenameTooLong { len: usize, pattern: String },
    #[error(
        "types: tensor {name:?} matches both {first:?} and {second:?}, which name different types"
    )]
    TypeConflict {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "types: {pattern:?} gives the integer tensor {name:?} ({dtype}) a float type; integer tensors keep their type (write `keep`, or narrow the pattern)"
    )]
    IntegerType {
        name: String,
        dtype: Dtype,
        pattern: String,
    },
    #[error(
        "types: {pattern:?} makes {name:?} a block type (Q8_0, Q4_0), but its rows of {ne0} elements are not whole blocks of 32; give it f16, bf16 or f32"
    )]
    Blocks {
        name: String,
        ne0: u64,
        pattern: String,
    },
    #[error(
        "the {what} needs {bytes} bytes of memory, which could not be had: give kiln more memory"
    )]
    NoMemory { what: &'static str, bytes: u64 },
}

/// Shortens a name of 64 bytes or more by the MotionBricks rules: each
/// replacement in order, every occurrence; if still too long, its first 48
/// bytes, `.`, and 12 hex digits of the SHA-256 of the original name.
pub fn compact_name(name: &str) -> String {
    if name.len() < gguf::MAX_NAME_BYTES {
        return name.to_string();
    }
    const RULES: [(&str, &str); 8] = [
        ("_root_token_transformer_encoder.layers.", "root.l."),
        ("_shared_transformer_encoder.layers.", "shared.l."),
        ("_transformer_encoder.layers.", "transformer.l."),
        ("self_attn.", "attn."),
        ("in_proj_weight", "qkv.weight"),
        ("in_proj_bias", "qkv.bias"),
        ("external_cond_blocks.", "xcond."),
        ("target_cond_blocks.", "tcond."),
    ];
    let mut short = name.to_string();
    for (from, to) in RULES {
        short = short.replace(from, to);
    }
    if short.len() < gguf::MAX_NAME_BYTES {
        return short;
    }
    let hash = Sha256::digest(name.as_bytes());
    let mut head = 48;
    while !short.is_char_boundary(head) {
        head -= 1;
    }
    format!("{}.{}", &short[..head], &crate::formats::hex(&hash[..6]))
}

/// GGML dimensions: reversed, a 0-d scalar as [1].
fn ggml_dims(name: &str, shape: &[u64]) -> Result<Vec<u64>, Error> {
    if shape.len() > gguf::MAX_DIMS {
        return Err(Error::TooManyDims {
            name: name.to_string(),
            n: shape.len(),
        });
    }
    if shape.is_empty() {
        return Ok(vec![1]);
    }
    Ok(shape.iter().rev().copied().collect())
}

/// MotionBricks' type rule: floats to F32, integers and booleans to I32.
fn motionbricks_type(dtype: Dtype) -> TensorType {
    if dtype.is_float() {
        TensorType::F32
    } else {
        TensorType::I32
    }
}

/// Checks names unique after compaction: the first tensor (in order)
/// whose name an earlier one has is the error, found by sorting (no map
/// of every name).
fn check_collisions(tensors: &[PlannedTensor]) -> Result<(), Error> {
    let mut order: Vec<u32> =
        memory::with_capacity(tensors.len()).map_err(|e| Error::NoMemory {
            what: "tensor table",
            bytes: e.bytes,
        })?;
    order.extend(0..tensors.len() as u32);
    let name = |i: u32| tensors[i as usize].name.as_str();
    order.sort_unstable_by(|&a, &b| (name(a), a).cmp(&(name(b), b)));
    let later = order
        .windows(2)
        .filter(|w| name(w[0]) == name(w[1]))
        .map(|w| w[1])
        .min();
    let Some(later) = later else {
        return Ok(());
    };
    let first = order
        .iter()
        .find(|&&i| name(i) == name(later))
        .expect("the name is in the table");
    let (t, f) = (&tensors[later as usize], &tensors[*first as usize]);
    Err(Error::Collision {
        name: t.name.clone(),
        first: f.source.clone(),
        second: t.source.clone(),
    })
}

/// The plan of one bundle component from its extraction file's header
/// (`source_sha256`: the file's SHA-256, 64 lowercase hex).
pub fn motionbricks_component(
    role: Role,
    header: &safetensors::Header,
    source_sha256: &str,
) -> Result<PlannedFile, Error> {
    let plan = select_component(role, header, source_sha256)?;
    let (n, values) = role.table();
    let found_values = plan.parameter_count();
    if plan.tensors.len() != n || found_values != values {
        return Err(Error::Table {
            component: role.name(),
            tensors: n,
            values,
            found_tensors: plan.tensors.len(),
            found_values,
        });
    }
    Ok(plan)
}

/// The component's selection, names, order, types and metadata, before
/// its tensor count and value total are checked against the table.
fn select_component(
    role: Role,
    header: &safetensors::Header,
    source_sha256: &str,
) -> Result<PlannedFile, Error> {
    let no_memory = |e: memory::NoMemory| Error::NoMemory {
        what: "tensor table",
        bytes: e.bytes,
    };
    let mut selected: Vec<(&str, safetensors::Tensor)> =
        memory::with_capacity(header.len()).map_err(no_memory)?;
    selected.extend(
        header
            .tensors()
            .filter_map(|t| role.select(t.name).map(|stripped| (stripped, t))),
    );
    // Sorted by the stripped name before compaction, plain byte order.
    selected.sort_by(|a, b| a.0.cmp(b.0));
    let mut tensors = memory::with_capacity(selected.len()).map_err(no_memory)?;
    for (stripped, t) in selected {
        tensors.push(PlannedTensor {
            name: compact_name(stripped),
            source: t.name.to_string(),
            from: t.dtype,
            to: motionbricks_type(t.dtype),
            dims: ggml_dims(t.name, t.shape)?,
            elements: t.elements(),
            begin: t.begin,
            end: t.end,
            row_heads: None,
        });
    }
    check_collisions(&tensors)?;
    let count = tensors.iter().map(|t| t.elements).sum();
    let mut metadata = common_metadata(role.name(), BUNDLE_NAME, source_sha256, count);
    if role == Role::Support {
        let names: Vec<&str> = G1_JOINTS.iter().map(|(n, _)| *n).collect();
        metadata.push(kv(
            "motionbricks.joint_names",
            Value::String(names.join(",")),
        ));
    }
    Ok(PlannedFile { metadata, tensors })
}

/// A component as the bundle's `manifest.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentEntry {
    pub role: Role,
    pub parameter_count: u64,
    pub sha256: String,
    pub tensor_count: usize,
}

/// The bundle's `manifest.json`, byte for byte as Python's
/// `json.dumps(x, indent=2, sort_keys=True)` plus a newline.
pub fn bundle_manifest(components: &[ComponentEntry], safe_manifest_sha256: &str) -> String {
    let mut by_name: BTreeMap<&str, &ComponentEntry> = BTreeMap::new();
    for c in components {
        by_name.insert(c.role.name(), c);
    }
    let inference: u64 = components
        .iter()
        .filter(|c| c.role != Role::Support)
        .map(|c| c.parameter_count)
        .sum();
    let mut s = String::from("{\n  \"components\": {\n");
    for (i, (name, c)) in by_name.iter().enumerate() {
        s.push_str(&format!(
            "    \"{name}\": {{\n      \"parameter_count\": {},\n      \"path\": \"{}\",\n      \"sha256\": \"{}\",\n      \"tensor_count\": {}\n    }}{}\n",
            c.parameter_count,
            c.role.file(),
            c.sha256,
            c.tensor_count,
            if i + 1 < by_name.len() { "," } else { "" }
        ));
    }
    s.push_str(&format!(
        "  }},\n  \"format\": \"{BUNDLE_FORMAT}\",\n  \"inference_parameter_count\": {inference},\n  \"joint_count\": {},\n  \"safe_manifest_sha256\": \"{safe_manifest_sha256}\",\n  \"skeleton\": \"{SKELETON}\",\n  \"upstream_revision\": \"{UPSTREAM_REVISION}\"\n}}\n",
        G1_JOINTS.len()
    ));
    s
}

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

/// Longest tensor name a `rename` pattern is matched against (a checkpoint
/// may hold longer names; renaming one is refused, naming it).
pub const MAX_RENAMED_NAME_BYTES: usize = 4096;

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
    let no_memory = |e: memory::NoMemory| Error::NoMemory {
        what: "tensor table",
        bytes: e.bytes,
    };
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
    // In checkpoint-name order, so that errors name the same tensor first
    // whatever the shards' order.
    kept.sort_unstable_by(|a, b| (a.1.name, a.0).cmp(&(b.1.name, b.0)));
    let mut planned: Vec<PlannedTensor> = memory::with_capacity(kept.len()).map_err(no_memory)?;
    let mut shards: Vec<usize> = memory::with_capacity(kept.len()).map_err(no_memory)?;
    let mut types_used = vec![false; settings.types.len()];
    for (shard, t) in kept {
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
        let name = if settings.compact_names {
            compact_name(&renamed)
        } else if renamed.len() >= gguf::MAX_NAME_BYTES {
            return Err(Error::NameTooLong {
                len: renamed.len(),
                name: renamed,
            });
        } else {
            renamed
        };
        let dims = ggml_dims(t.name, t.shape)?;
        let ne0 = dims[0];
        let mut chosen: Option<(usize, TypePolicy)> = None;
        for (i, (pattern, choice)) in settings.types.iter().enumerate() {
            if wildcard(pattern, &name) {
                if let Some((first, _)) = chosen.filter(|&(_, c)| c != *choice) {
                    return Err(Error::TypeConflict {
                        name,
                        first: settings.types[first].0.clone(),
                        second: pattern.clone(),
                    });
                }
                types_used[i] = true;
                chosen.get_or_insert((i, *choice));
            }
        }
        let to = match chosen {
            None => settings.policy.target(t.dtype, t.shape.len(), &name, ne0),
            Some((i, choice)) => match integer_target(t.dtype) {
                Some(int) if choice == TypePolicy::Keep => int,
                Some(_) => {
                    return Err(Error::IntegerType {
                        name,
                        dtype: t.dtype,
                        pattern: settings.types[i].0.clone(),
                    });
                }
                None => choice.exact(t.dtype, ne0).ok_or_else(|| Error::Blocks {
                    name: name.clone(),
                    ne0,
                    pattern: settings.types[i].0.clone(),
                })?,
            },
        };
        let row_heads = match settings.permute.iter().find(|(p, _)| wildcard(p, t.name)) {
            None => None,
            Some(&(_, heads)) => {
                let rows = t.shape.first().copied().unwrap_or(1);
                if heads == 0 || !rows.is_multiple_of(heads) || !(rows / heads).is_multiple_of(2) {
                    return Err(Error::Heads {
                        name: t.name.to_string(),
                        rows,
                        heads,
                    });
                }
                Some(heads)
            }
        };
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
    // Sorted by GGUF name (unique now), the shards alongside.
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
    Ok((
        PlannedFile {
            metadata,
            tensors: sorted,
        },
        sorted_shards,
    ))
}

/// A rename template has as many `*` as its pattern (checked when the
/// manifest is planned, and again on the rules a family's table makes).
pub fn check_template(from: &str, to: &str) -> Result<(), Error> {
    let stars = |s: &str| s.bytes().filter(|&b| b == b'*').count();
    if stars(from) != stars(to) || to.is_empty() {
        return Err(Error::Template {
            from: from.to_string(),
            to: to.to_string(),
        });
    }
    Ok(())
}

/// `name`'s new name under the rename rules (`None`: no rule names it):
/// an exact rule first, else the most
/// specific pattern that matches (the most bytes besides `*`:
/// `layer.*.attention.output.norm.*` over `layer.*.output.norm.*`; two
/// as specific are an error).
fn rename(rules: &[(String, String)], name: &str) -> Result<Option<String>, Error> {
    if let Some((_, to)) = rules.iter().find(|(from, _)| from == name) {
        return Ok(Some(to.clone()));
    }
    let literal = |p: &str| p.bytes().filter(|&b| b != b'*').count();
    let mut hit: Option<&(String, String)> = None;
    let mut tie: Option<&(String, String)> = None;
    for rule in rules.iter().filter(|(from, _)| from.contains('*')) {
        if wildcard(&rule.0, name) {
            match hit {
                Some(best) if literal(&best.0) > literal(&rule.0) => {}
                Some(best) if literal(&best.0) == literal(&rule.0) => tie = Some(rule),
                _ => {
                    hit = Some(rule);
                    tie = None;
                }
            }
        }
    }
    if let (Some(first), Some(second)) = (hit, tie) {
        return Err(Error::RenameConflict {
            name: name.to_string(),
            first: first.0.clone(),
            second: second.0.clone(),
        });
    }
    let Some((from, to)) = hit else {
        return Ok(None);
    };
    if name.len() > MAX_RENAMED_NAME_BYTES {
        return Err(Error::RenameTooLong {
            len: name.len(),
            pattern: from.clone(),
        });
    }
    let captured = captures(from, name).expect("the pattern matched");
    let mut out = String::with_capacity(to.len() + name.len());
    let mut parts = captured.into_iter();
    for piece in to.split('*').enumerate() {
        if piece.0 > 0 {
            out.push_str(parts.next().expect("as many stars"));
        }
        out.push_str(piece.1);
    }
    Ok(Some(out))
}

/// What each `*` of `pattern` matches in `name`, each as short as the rest
/// of the pattern allows (leftmost first); `None` if it does not match.
/// Work is pattern length × name length, a table of booleans.
pub fn captures<'a>(pattern: &str, name: &'a str) -> Option<Vec<&'a str>> {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let w = n.len() + 1;
    // ok[i * w + j]: p[i..] matches n[j..].
    let mut ok = vec![false; (p.len() + 1) * w];
    ok[p.len() * w + n.len()] = true;
    for i in (0..p.len()).rev() {
        for j in (0..=n.len()).rev() {
            ok[i * w + j] = if p[i] == b'*' {
                ok[(i + 1) * w + j] || (j < n.len() && ok[i * w + j + 1])
            } else {
                j < n.len() && p[i] == n[j] && ok[(i + 1) * w + j + 1]
            };
        }
    }
    if !ok[0] {
        return None;
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < p.len() {
        if p[i] == b'*' {
            let start = j;
            while !ok[(i + 1) * w + j] {
                j += 1;
            }
            out.push(&name[start..j]);
        } else {
            j += 1;
        }
        i += 1;
    }
    Some(out)
}

/// `*` matches any run of characters (dots included); everything else is
/// literal.
pub fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == n[j] {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

/// The tensor shapes the runtime checks (GGML order).
pub fn anchors(role: Role) -> &'static [(&'static str, &'static [u64])] {
    match role {
        Role::Pose => &[
            ("_pose_token_emb.weight", &[32, 88]),
            ("_position_emb.embed", &[1024, 1, 16]),
            ("_proj_pose_output_logit.weight", &[1024, 80]),
        ],
        Role::Root => &[
            ("_position_emb.embed", &[512, 1, 16]),
            ("_proj_num_token_output_logit.weight", &[512, 12]),
            ("_conv_output.model.6.weight", &[3, 512, 5]),
        ],
        Role::VqDecoder => &[
            ("quantizer.vq._codebook.embed", &[32, 10, 8]),
            ("decoder.model.6.weight", &[3, 512, 413]),
        ],
        Role::Support => &[
            ("neutral_joints", &[3, 34]),
            ("joint_parents", &[34]),
            ("motion_mean", &[418]),
            ("motion_std", &[418]),
        ],
    }
}

/// What the MotionBricks runtime refuses in one component's header, each
/// at its byte (empty: it loads). A source hash that is not the runtime's
/// pin is reported by [`pin_problem`], apart.
pub fn runtime_problems(role: Role, h: &gguf::Header) -> Vec<Problem> {
    let mut problems =
        crate::formats::motionbricks::common_problems(role.name(), Some(BUNDLE_NAME), h);
    let mut problem =
        |offset: u64, message: String| problems.push(Problem::at(offset, "", message));
    let (n, _) = role.table();
    if h.tensor_count() != n {
        // The tensor count is the header's u64 after the magic and version.
        problem(
            8,
            format!("{} tensors; the runtime needs {n}", h.tensor_count()),
        );
    }
    if let Some(i) = h.tensors().position(|t| t.name.is_empty()) {
        problem(h.tensor_info_at(i), "a tensor has an empty name".into());
    }
    for (name, dims) in anchors(role) {
        match h.tensors().position(|t| t.name == *name) {
            None => problem(
                h.tensor_info_at(h.tensor_count()),
                format!("tensor {name} is missing"),
            ),
            Some(i) if h.tensor_at(i).is_some_and(|t| t.dims != *dims) => problem(
                h.tensor_info_at(i),
                format!(
                    "tensor {name} has shape {:?}; the runtime needs {dims:?}",
                    h.tensor_at(i).map(|t| t.dims).unwrap_or_default()
                ),
            ),
            Some(_) => {}
        }
    }
    if role == Role::Support {
        let at = h.key_at("motionbricks.joint_names");
        match h.get("motionbricks.joint_names") {
            Some(Value::String(names)) => {
                let names: Vec<&str> = names.split(',').collect();
                let unique: std::collections::BTreeSet<&&str> = names.iter().collect();
                if names.len() != G1_JOINTS.len()
                    || unique.len() != names.len()
                    || names.iter().any(|n| n.is_empty())
                {
                    problem(
                        at,
                        format!(
                            "metadata motionbricks.joint_names holds {} names ({} unique); the runtime needs 34 unique names",
                            names.len(),
                            unique.len()
                        ),
                    );
                }
            }
            Some(v) => problem(
                at,
                format!(
                    "metadata motionbricks.joint_names must be STRING, is {}",
                    v.type_text()
                ),
            ),
            None => problem(at, "metadata motionbricks.joint_names is missing".into()),
        }
    }
    problems
}

/// The runtime pins each component's source hash to the official
/// extraction's; a bundle made with `pins: record` does not load there.
pub fn pin_problem(role: Role, h: &gguf::Header) -> Option<Problem> {
    match h.get("motionbricks.source_sha256") {
        Some(Value::String(s)) if s == role.pin() => None,
        Some(Value::String(s)) => Some(Problem::at(
            h.key_at("motionbricks.source_sha256"),
            "",
            format!(
                "motionbricks.source_sha256 is {s}, not the runtime's pin {} (converted from other weights, with pins: record)",
                role.pin()
            ),
        )),
        _ => None,
    }
}

/// The support component's values, as the runtime checks them: every
/// value finite, `joint_parents[0] == -1` and every other parent below its
/// own index, `motion_std` not negative; each at the value's byte in the
/// file. `data` is the file's data section.
pub fn support_value_problems(h: &gguf::Header, data: &[u8]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (t_index, t) in h.tensors().enumerate() {
        let (Some(bytes), Ok(start)) = (t.bytes(), usize::try_from(t.offset)) else {
            continue;
        };
        let at = |i: usize| h.tensor_byte_at(t_index, 4 * i as u64);
        let Some(raw) = data.get(start..start + bytes as usize) else {
            problems.push(Problem::at(
                h.tensor_info_at(t_index),
                "",
                format!("tensor {} lies outside the data", t.name),
            ));
            continue;
        };
        match t.ty {
            TensorType::F32 => {
                for (i, c) in raw.chunks_exact(4).enumerate() {
                    let v = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    if !v.is_finite() {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!("{}[{i}] is {v}, not finite", t.name),
                        ));
                        break;
                    }
                    if t.name == "motion_std" && v < 0.0 {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!("motion_std[{i}] is {v}, below 0"),
                        ));
                        break;
                    }
                }
            }
            TensorType::I32 if t.name == "joint_parents" => {
                for (i, c) in raw.chunks_exact(4).enumerate() {
                    let p = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    let ok = if i == 0 {
                        p == -1
                    } else {
                        p >= 0 && (p as usize) < i
                    };
                    if !ok {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!(
                                "joint_parents[{i}] is {p}; the runtime needs {}",
                                if i == 0 {
                                    "-1".to_string()
                                } else {
                                    format!("a parent below {i}")
                                }
                            ),
                        ));
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compaction_follows_the_rules_in_order() {
        let long = "_root_token_transformer_model.layers.0.self_attn.out_proj.weight";
        assert_eq!(long.len(), 64);
        assert_eq!(
            compact_name(long),
            "_root_token_transformer_model.layers.0.attn.out_proj.weight"
        );
        let short = "_transformer_model.layers.10.self_attn.in_proj_weight";
        assert_eq!(compact_name(short), short, "under 64 bytes: kept");
        let encoder = "a_longer_prefix_here._transformer_encoder.layers.3.self_attn.in_proj_bias";
        assert!(encoder.len() >= 64);
        assert_eq!(
            compact_name(encoder),
            "a_longer_prefix_here.transformer.l.3.attn.qkv.bias"
        );
        let hopeless = "x".repeat(80);
        let c = compact_name(&hopeless);
        assert_eq!(c.len(), 48 + 1 + 12);
        assert!(c.starts_with(&"x".repeat(48)));
        let hash = Sha256::digest(hopeless.as_bytes());
        assert!(c.ends_with(&crate::formats::hex(&hash[..6])));
    }

    #[test]
    fn names_that_compact_to_one_are_an_error_naming_both() {
        let t = |name: &'static str, begin| safetensors::Tensor {
            name,
            dtype: Dtype::F32,
            shape: &[1],
            begin,
            end: begin + 4,
            entry_at: 0,
        };
        // 65 bytes with `self_attn.`, 60 once it is `attn.`: the same as
        // the second name, which is short enough to keep.
        let prefix = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
        let a = t(format!("{prefix}self_attn.out_proj.weight").leak(), 0);
        let c = t(format!("{prefix}attn.out_proj.weight").leak(), 4);
        assert!(a.name.len() >= 64 && c.name.len() < 64);
        let settings = Generic {
            architecture: "t".into(),
            metadata: BTreeMap::new(),
            policy: TypePolicy::Keep,
            compact_names: true,
            keep: vec![],
            drop: vec![],
            rename: vec![],
            types: vec![],
            permute: vec![],
            table: None,
        };
        let tensors = [(0, a), (0, c)];
        let e = generic(&tensors, &settings).unwrap_err();
        assert_eq!(
            e,
            Error::Collision {
                name: compact_name(a.name),
                first: c.name.to_string(),
                second: a.name.to_string(),
            },
            "{e}"
        );
        let no_compact = Generic {
            compact_names: false,
            ..settings
        };
        assert!(matches!(
            generic(&tensors, &no_compact),
            Err(Error::NameTooLong { .. })
        ));
    }

    fn header(tensors: &[(&str, Dtype, &[u64])]) -> safetensors::Header {
        let mut at = 0;
        let list: Vec<safetensors::Tensor> = tensors
            .iter()
            .map(|&(name, dtype, shape)| {
                let bytes = shape.iter().product::<u64>() * dtype.size();
                let t = safetensors::Tensor {
                    name,
                    dtype,
                    shape,
                    begin: at,
                    end: at + bytes,
                    entry_at: 0,
                };
                at += bytes;
                t
            })
            .collect();
        safetensors::Header::of(8, None, &list)
    }

    #[test]
    fn a_component_selects_strips_sorts_and_converts_as_the_spec_says() {
        let h = header(&[
            ("backbone_net.layers.2.w", Dtype::F64, &[2, 3]),
            ("backbone_net.layers.10.w", Dtype::BF16, &[4]),
            ("backbone_net.initted", Dtype::Bool, &[1]),
            ("backbone_net.count", Dtype::I64, &[]),
            ("backbone_net.flag", Dtype::Bool, &[2]),
            ("other.thing", Dtype::F32, &[1]),
        ]);
        let pose = select_component(Role::Pose, &h, &"0".repeat(64)).unwrap();
        let got: Vec<(&str, TensorType, Vec<u64>)> = pose
            .tensors
            .iter()
            .map(|t| (t.name.as_str(), t.to, t.dims.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("count", TensorType::I32, vec![1]),
                ("flag", TensorType::I32, vec![2]),
                ("layers.10.w", TensorType::F32, vec![4]),
                ("layers.2.w", TensorType::F32, vec![3, 2]),
            ],
            "initted and other.* dropped; byte order; reversed dims; a 0-d scalar as [1]"
        );
        assert_eq!(pose.parameter_count(), 1 + 2 + 4 + 6);
        let keys: Vec<&str> = pose.metadata.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys.len(), 10);
        assert_eq!(pose.metadata[9].1, Value::U64(13));
        // Root keeps `initted`; the table check names both counts.
        let root = select_component(Role::Root, &h, &"0".repeat(64)).unwrap();
        assert_eq!(root.tensors.len(), 5);
        let e = motionbricks_component(Role::Root, &h, &"0".repeat(64)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "component root: 5 tensors with 14 values selected; the bundle needs 150 tensors with 34122833 values"
        );
        // The vq-decoder keeps the decoder and the codebook embedding only.
        let v = header(&[
            ("pose_net.decoder.a", Dtype::F32, &[1]),
            ("pose_net.encoder.a", Dtype::F32, &[1]),
            ("pose_net.quantizer.vq._codebook.embed", Dtype::F32, &[1]),
            (
                "pose_net.quantizer.vq._codebook.embed_avg",
                Dtype::F32,
                &[1],
            ),
            (
                "pose_net.quantizer.vq._codebook.cluster_size",
                Dtype::F32,
                &[1],
            ),
        ]);
        let vq = select_component(Role::VqDecoder, &v, &"0".repeat(64)).unwrap();
        let names: Vec<&str> = vq.tensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["decoder.a", "quantizer.vq._codebook.embed"]);
        // Five dimensions are refused.
        let deep = header(&[("x", Dtype::F32, &[1, 1, 1, 1, 1])]);
        assert!(matches!(
            select_component(Role::Support, &deep, &"0".repeat(64)),
            Err(Error::TooManyDims { n: 5, .. })
        ));
    }

    #[test]
    fn the_manifest_is_pythons_json_dumps() {
        let c = |role, n, t| ComponentEntry {
            role,
            parameter_count: n,
            sha256: "ab".repeat(32),
            tensor_count: t,
        };
        let text = bundle_manifest(
            &[
                c(Role::Pose, 10, 2),
                c(Role::Root, 20, 3),
                c(Role::VqDecoder, 30, 4),
                c(Role::Support, 972, 4),
            ],
            &"cd".repeat(32),
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["inference_parameter_count"], 60);
        assert_eq!(v["components"]["vq-decoder"]["path"], "vq-decoder.gguf");
        assert!(text.ends_with("}\n"));
        // Keys sorted: pose, root, support, vq-decoder.
        let order: Vec<usize> = ["\"pose\"", "\"root\"", "\"support\"", "\"vq-decoder\""]
            .iter()
            .map(|k| text.find(k).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn the_policies_keep_integers_and_small_tensors_f32() {
        use TypePolicy::{BF16, F16, F32, Keep, Q4_0, Q8_0};
        let w = "blk.0.attn_q.weight";
        let (tt, norm) = ("token_types.weight", "blk.3.attn_output_norm.weight");
        // (policy, dtype, rank, GGUF name, ne0) -> type.
        let cases = [
            (F16, Dtype::F32, 2, w, 32, TensorType::F16),
            (F16, Dtype::F32, 1, w, 32, TensorType::F32),
            (BF16, Dtype::F64, 0, w, 1, TensorType::F32),
            (F32, Dtype::I64, 2, w, 32, TensorType::I64),
            (Keep, Dtype::BF16, 2, w, 32, TensorType::BF16),
            (Keep, Dtype::U8, 1, w, 32, TensorType::I16),
            (Keep, Dtype::Bool, 1, w, 32, TensorType::I8),
            // llama.cpp's F32 tensors (the BERT token types crashed it as F16).
            (F16, Dtype::F32, 2, tt, 384, TensorType::F32),
            (
                BF16,
                Dtype::F32,
                2,
                "position_embd.weight",
                384,
                TensorType::F32,
            ),
            (Q8_0, Dtype::F16, 2, norm, 384, TensorType::F32),
            (Q4_0, Dtype::F32, 2, tt, 384, TensorType::F32),
            (Keep, Dtype::F16, 2, tt, 384, TensorType::F16),
            // Block types need whole blocks of 32; otherwise F16, as llama.cpp.
            (Q8_0, Dtype::F32, 2, w, 384, TensorType::Q8_0),
            (Q8_0, Dtype::F32, 2, w, 30, TensorType::F16),
            (Q4_0, Dtype::F32, 2, w, 384, TensorType::Q4_0),
            (Q4_0, Dtype::F32, 2, w, 30, TensorType::F16),
        ];
        for (policy, dtype, rank, name, ne0, want) in cases {
            assert_eq!(
                policy.target(dtype, rank, name, ne0),
                want,
                "{policy:?} {dtype} rank {rank} {name} ne0 {ne0}"
            );
        }
        assert_eq!(Q8_0.file_type(), Some(7));
        assert_eq!(Q4_0.file_type(), Some(2));
    }

    fn tensor(
        name: &'static str,
        dtype: Dtype,
        shape: &'static [u64],
    ) -> (usize, safetensors::Tensor<'static>) {
        let bytes = shape.iter().product::<u64>() * dtype.size();
        (
            0,
            safetensors::Tensor {
                name,
                dtype,
                shape,
                begin: 0,
                end: bytes,
                entry_at: 0,
            },
        )
    }

    fn settings() -> Generic {
        Generic {
            architecture: "bert".into(),
            metadata: BTreeMap::new(),
            policy: TypePolicy::F16,
            compact_names: false,
            keep: vec![],
            drop: vec![],
            rename: vec![],
            types: vec![],
            permute: vec![],
            table: None,
        }
    }

    fn bert() -> Vec<(usize, safetensors::Tensor<'static>)> {
        vec![
            tensor(
                "embeddings.token_type_embeddings.weight",
                Dtype::F32,
                &[2, 384],
            ),
            tensor(
                "embeddings.word_embeddings.weight",
                Dtype::F32,
                &[30522, 384],
            ),
            tensor(
                "encoder.layer.0.attention.self.query.weight",
                Dtype::F32,
                &[384, 384],
            ),
            tensor(
                "encoder.layer.11.attention.self.query.weight",
                Dtype::F32,
                &[384, 384],
            ),
            tensor(
                "encoder.layer.0.attention.self.query.bias",
                Dtype::F32,
                &[384],
            ),
            tensor("embeddings.position_ids", Dtype::I64, &[1, 512]),
            tensor("pooler.dense.weight", Dtype::F32, &[384, 384]),
        ]
    }

    #[test]
    fn rename_drop_and_types_make_the_names_and_types_a_runtime_wants() {
        let mut s = settings();
        s.drop = vec!["pooler.*".into(), "embeddings.position_ids".into()];
        s.rename = vec![
            (
                "embeddings.token_type_embeddings.weight".into(),
                "token_types.weight".into(),
            ),
            (
                "embeddings.word_embeddings.weight".into(),
                "token_embd.weight".into(),
            ),
            (
                "encoder.layer.*.attention.self.query.*".into(),
                "blk.*.attn_q.*".into(),
            ),
        ];
        s.types = vec![("blk.11.*".into(), TypePolicy::Q8_0)];
        let (plan, shards) = generic(&bert(), &s).unwrap();
        let got: Vec<(&str, TensorType, &str)> = plan
            .tensors
            .iter()
            .map(|t| (t.name.as_str(), t.to, t.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "blk.0.attn_q.bias",
                    TensorType::F32,
                    "encoder.layer.0.attention.self.query.bias"
                ),
                (
                    "blk.0.attn_q.weight",
                    TensorType::F16,
                    "encoder.layer.0.attention.self.query.weight"
                ),
                (
                    "blk.11.attn_q.weight",
                    TensorType::Q8_0,
                    "encoder.layer.11.attention.self.query.weight"
                ),
                (
                    "token_embd.weight",
                    TensorType::F16,
                    "embeddings.word_embeddings.weight"
                ),
                (
                    "token_types.weight",
                    TensorType::F32,
                    "embeddings.token_type_embeddings.weight"
                ),
            ]
        );
        assert_eq!(shards.len(), 5);
    }

    #[test]
    fn every_refusal_names_its_key_and_pattern() {
        let refuse = |edit: &dyn Fn(&mut Generic)| {
            let mut s = settings();
            edit(&mut s);
            generic(&bert(), &s).unwrap_err().to_string()
        };
        assert_eq!(
            refuse(&|s| s.drop = vec!["nothing.*".into()]),
            "drop: \"nothing.*\" matches no tensor of the checkpoint"
        );
        assert!(
            refuse(&|s| s.rename = vec![("missing".into(), "x".into())])
                .starts_with("rename: \"missing\" matches no tensor")
        );
        assert!(
            refuse(&|s| s.rename = vec![("encoder.*".into(), "x".into())]).contains("as many `*`")
        );
        let both = refuse(&|s| {
            s.rename = vec![
                ("encoder*".into(), "a*".into()),
                ("*.weight".into(), "b*".into()),
            ]
        });
        assert!(
            both.contains("matches both \"encoder*\" and \"*.weight\", as specific"),
            "{both}"
        );
        // The more specific of two overlapping patterns wins.
        let mut s = settings();
        s.drop = vec!["pooler.*".into(), "embeddings.*".into()];
        s.rename = vec![
            ("encoder.layer.*.query.*".into(), "q.*.*".into()),
            (
                "encoder.layer.*.attention.self.query.*".into(),
                "blk.*.attn_q.*".into(),
            ),
        ];
        let (plan, _) = generic(&bert(), &s).unwrap();
        let names: Vec<&str> = plan.tensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "blk.0.attn_q.bias",
                "blk.0.attn_q.weight",
                "blk.11.attn_q.weight"
            ]
        );
        let collide = refuse(&|s| {
            s.rename = vec![
                (
                    "embeddings.word_embeddings.weight".into(),
                    "x.weight".into(),
                ),
                ("pooler.dense.weight".into(), "x.weight".into()),
            ]
        });
        assert!(collide.contains("both become \"x.weight\""), "{collide}");
        assert!(
            refuse(&|s| s.types = vec![("nope".into(), TypePolicy::F32)])
                .starts_with("types: \"nope\" matches no tensor")
        );
        let int = refuse(&|s| s.types = vec![("embeddings.position_ids".into(), TypePolicy::F16)]);
        assert!(
            int.contains("integer tensor") && int.contains("I64"),
            "{int}"
        );
        let conflict = refuse(&|s| {
            s.types = vec![
                ("*.weight".into(), TypePolicy::F32),
                ("pooler.*".into(), TypePolicy::BF16),
            ]
        });
        assert!(
            conflict.contains("which name different types"),
            "{conflict}"
        );
        assert!(refuse(&|s| s.drop = vec!["*".into()]).starts_with("the filter keeps no tensor"));
        // Q8_0 named for a row that is not whole blocks.
        let mut odd = bert();
        odd.push(tensor("odd.weight", Dtype::F32, &[4, 30]));
        let mut s = settings();
        s.types = vec![("odd.weight".into(), TypePolicy::Q8_0)];
        let e = generic(&odd, &s).unwrap_err().to_string();
        assert!(
            e.contains("rows of 30 elements are not whole blocks of 32"),
            "{e}"
        );
    }

    #[test]
    fn captures_are_the_shortest_runs_that_let_the_rest_match() {
        assert_eq!(captures("a.*.b", "a.12.b"), Some(vec!["12"]));
        assert_eq!(captures("*.*", "x.y.z"), Some(vec!["x", "y.z"]));
        assert_eq!(captures("*", ""), Some(vec![""]));
        assert_eq!(captures("a*", "b"), None);
        assert_eq!(
            captures("l.*.w*", "l.3.w.weight"),
            Some(vec!["3", ".weight"])
        );
        // Agrees with `wildcard` on every pair of a small alphabet.
        let words = [
            "", "a", "b", "ab", "ba", "aab", "abab", "a.b", "*", "a*", "*b", "*a*", "a*b*", "**",
        ];
        for p in words {
            for n in words.iter().filter(|n| !n.contains('*')) {
                assert_eq!(captures(p, n).is_some(), wildcard(p, n), "{p:?} {n:?}");
                if let Some(c) = captures(p, n) {
                    // Putting the captures back gives the name.
                    let mut parts = c.into_iter();
                    let rebuilt: String = p
                        .split('*')
                        .enumerate()
                        .map(|(i, piece)| {
                            if i == 0 {
                                piece.to_string()
                            } else {
                                format!("{}{piece}", parts.next().unwrap())
                            }
                        })
                        .collect();
                    assert_eq!(&rebuilt, n, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn wildcards_match_dots_too() {
        assert!(wildcard("encoder.*", "encoder.layer.0.weight"));
        assert!(wildcard("*.bias", "a.b.bias"));
        assert!(!wildcard("*.bias", "a.b.weight"));
        assert!(wildcard("exact", "exact"));
        assert!(!wildcard("exact", "exactly"));
    }

    #[test]
    fn the_skeleton_is_a_tree_in_index_order() {
        for (i, (_, parent)) in G1_JOINTS.iter().enumerate() {
            assert!(*parent < i as i32, "joint {i}");
        }
        assert_eq!(G1_JOINTS[0].1, -1);
    }

    /// Every runtime problem names the byte it is about: the entry, the
    /// tensor description, the value, or where a missing one would be.
    #[test]
    fn runtime_problems_name_their_bytes() {
        let mut metadata = crate::formats::motionbricks::common_metadata(
            "support",
            BUNDLE_NAME,
            &"a".repeat(64),
            3 * 34 + 34 + 418,
        );
        metadata[6].1 = Value::String("smpl".into()); // skeleton
        metadata.push(kv("motionbricks.joint_names", Value::String("a,a".into())));
        let desc = |name: &'static str, dims: &'static [u64], ty| TensorDesc { name, dims, ty };
        // Three tensors, not four: motion_std missing, joint_parents of
        // the wrong shape.
        let tensors = [
            desc("joint_parents", &[33], TensorType::I32),
            desc("motion_mean", &[418], TensorType::F32),
            desc("neutral_joints", &[3, 34], TensorType::F32),
        ];
        let (_, h) = gguf::encode_header(&metadata, &tensors).unwrap();
        let problems: Vec<String> = runtime_problems(Role::Support, &h)
            .iter()
            .map(ToString::to_string)
            .collect();
        let expected = [
            format!(
                "at byte {}: metadata motionbricks.skeleton: is \"smpl\"",
                h.metadata_at(6)
            ),
            format!(
                "at byte {}: metadata motionbricks.parameter_count: is 554",
                h.metadata_at(9)
            ),
            "at byte 8: 3 tensors; the runtime needs 4".into(),
            format!(
                "at byte {}: tensor joint_parents has shape [33]",
                h.tensor_info_at(0)
            ),
            format!(
                "at byte {}: tensor motion_std is missing",
                h.tensor_info_at(3)
            ),
            format!(
                "at byte {}: metadata motionbricks.joint_names holds 2 names (1 unique)",
                h.metadata_at(10)
            ),
        ];
        assert_eq!(problems.len(), expected.len(), "{problems:#?}");
        for (p, e) in problems.iter().zip(&expected) {
            assert!(p.starts_with(e.as_str()), "{p:?} is not {e:?}");
        }

        // Values: at their bytes in the file.
        let mut data = vec![0u8; h.data_bytes as usize];
        let nan_at = h.tensor_at(1).unwrap().offset as usize + 4 * 7;
        data[nan_at..nan_at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let problems: Vec<String> = support_value_problems(&h, &data)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            problems,
            [
                format!(
                    "at byte {}: joint_parents[0] is 0; the runtime needs -1",
                    h.data_start
                ),
                format!(
                    "at byte {}: motion_mean[7] is NaN, not finite",
                    h.data_start + nan_at as u64
                ),
            ]
        );
    }
}
