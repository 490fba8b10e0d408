//! Kind `model_bundle`: safetensors checkpoints converted into GGUF, under
//! `models/<id>/` (manifest section `model_bundles`).
//!
//! - `profile: motionbricks-g1`: the MotionBricks GGUF bundle v1 from the
//!   extraction's four safetensors and its `manifest.json`: `pose.gguf`,
//!   `root.gguf`, `vq-decoder.gguf`, `support.gguf`, and the bundle's
//!   `manifest.json` (the index: committed last).
//! - `profile: generic`: one checkpoint (a `.safetensors`, a sharded
//!   checkpoint's `model.safetensors.index.json`, or a glob of shards) into
//!   `models/<id>/<id>.gguf`.
//!
//! run: open inputs -> read headers -> SHA-256 of the inputs, side by side
//! (pins checked before any output is written) -> plan the files (`bake::model_bundle`)
//! -> stream each file's tensors through fixed buffers, converted
//! (`bake::gguf_stream`, `bake::tensor_convert`) -> the bundle's manifest
//! last.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bake::model_bundle::{Role, TypePolicy};
use crate::bake::llama_cpp;
use crate::formats::gguf::Value;
use crate::pipeline::manifest::At;
use crate::pipeline::paths::RelPath;

mod plan;
mod run;

pub use plan::{MAX_PATTERN_BYTES, plan};
pub use run::{MAX_CONFIG_BYTES, MAX_TOKENIZER_BYTES, run};

pub const KIND: &str = "model_bundle";

/// When to bump it: ARCHITECTURE.md, "A kind's `VERSION` changes".
/// 2 (generic): under `f16`/`bf16`, llama.cpp's F32 tensors (norms, names
/// not ending in `.weight`, position and token-type embeddings…) stay F32;
/// tensors sorted by GGUF name (compacted names moved); a finite value
/// beyond the output type is refused, not made infinite.
/// 3 (llama.cpp): a `tokenizer.json` of SentencePiece's BPE (byte
/// fallback), once written as "gpt2", is refused (name `tokenizer.model`);
/// a negative special id in `config.json` is refused; a byte-level BPE
/// gets `tokenizer.ggml.pre` (`gpt-2` or `llama-bpe`), another
/// pre-tokenizer is refused.
pub const VERSION: u32 = 3;
/// The folder of the output folder its jobs write under.
pub const FOLDER: &str = "models";

/// Largest extraction `manifest.json` and shard index kiln reads.
pub const MAX_INDEX_BYTES: u64 = 16 << 20;
/// Largest checkpoint file (each shard): 1 TiB.
pub const MAX_CHECKPOINT_BYTES: u64 = 1 << 40;

/// One `model_bundles` entry. Documented key by key in docs/manifest.md.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Names the output folder, `models/<id>/`.
    pub id: At<String>,
    /// `motionbricks-g1` or `generic`.
    pub profile: At<Profile>,
    /// motionbricks-g1: the extraction's files (all five required).
    #[serde(default)]
    pub sources: Option<At<Sources>>,
    /// generic: the checkpoint: a `.safetensors`, a sharded checkpoint's
    /// `*.index.json`, or a glob of shards (`model-*.safetensors`).
    #[serde(default)]
    pub source: Option<At<String>>,
    /// motionbricks-g1: `enforce` (the default: an input whose SHA-256 is
    /// not the official extraction's is refused) or `record` (retrained
    /// weights: converted, with a warning that the runtime's pin will not
    /// match).
    #[serde(default)]
    pub pins: Option<At<Pins>>,
    /// generic: `general.architecture` (required).
    #[serde(default)]
    pub architecture: Option<At<String>>,
    /// generic: more metadata, `key: text`, `key: true`, or a typed value
    /// `key: {uint32: 512}`. Default: none.
    #[serde(default)]
    pub metadata: Option<At<BTreeMap<String, MetaValue>>>,
    /// generic: `keep`, `f32`, `f16` or `bf16`. Default: `keep`.
    #[serde(default, rename = "type")]
    pub type_policy: Option<At<TypeName>>,
    /// generic: shorten names of 64 bytes or more by the MotionBricks
    /// rules instead of refusing them. Default: false.
    #[serde(default)]
    pub compact_names: Option<At<bool>>,
    /// generic: keep only the tensors whose names match one of these
    /// patterns (`*` matches any run). Default: every tensor.
    #[serde(default)]
    pub tensors: Option<At<Vec<String>>>,
    /// generic: leave out the tensors whose checkpoint names match one of
    /// these patterns. Default: none.
    #[serde(default)]
    pub drop: Option<At<Vec<String>>>,
    /// generic: new names, `checkpoint name: GGUF name`, or a pattern and
    /// a template (`"encoder.layer.*.attention.self.query.weight":
    /// "blk.*.attn_q.weight"`). Default: the checkpoint's names.
    #[serde(default)]
    pub rename: Option<At<BTreeMap<String, String>>>,
    /// generic: per-tensor types over `type`, by GGUF-name pattern
    /// (`"token_types.weight": f32`). Default: none.
    #[serde(default)]
    pub types: Option<At<BTreeMap<String, TypeName>>>,
    /// generic, llama.cpp: a finite value beyond the output type's range
    /// becomes its largest finite value instead of failing the job.
    /// Default: false.
    #[serde(default)]
    pub saturate: Option<At<bool>>,
    /// llama.cpp: the checkpoint's `config.json` (the family and its
    /// hyper-parameters).
    #[serde(default)]
    pub config: Option<At<String>>,
    /// llama.cpp: the checkpoint's `tokenizer.json`; for the LLaMA family
    /// its SentencePiece `tokenizer.model` (a name ending `.model`) instead,
    /// for BERT its `vocab.txt` (a name ending `.txt`).
    #[serde(default)]
    pub tokenizer: Option<At<String>>,
    /// llama.cpp: `{arch}.pooling_type` for embeddings: `none`, `mean`,
    /// `cls` or `last`. Default: not written.
    #[serde(default)]
    pub pooling: Option<At<Pooling>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pooling {
    None,
    Mean,
    Cls,
    Last,
}

impl Pooling {
    fn code(self) -> u32 {
        let name = match self {
            Pooling::None => "none",
            Pooling::Mean => "mean",
            Pooling::Cls => "cls",
            Pooling::Last => "last",
        };
        llama_cpp::POOLING
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| *c)
            .expect("every pooling is in the table")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum Profile {
    #[serde(rename = "motionbricks-g1")]
    MotionbricksG1,
    #[serde(rename = "generic")]
    Generic,
    /// What llama.cpp loads: a family's names, hyper-parameters and
    /// tokenizer (`bake::llama_cpp`).
    #[serde(rename = "llama.cpp")]
    LlamaCpp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pins {
    Enforce,
    Record,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TypeName {
    Keep,
    F32,
    F16,
    Bf16,
    #[serde(rename = "q8_0")]
    Q8_0,
    #[serde(rename = "q4_0")]
    Q4_0,
}

impl TypeName {
    fn policy(self) -> TypePolicy {
        match self {
            TypeName::Keep => TypePolicy::Keep,
            TypeName::F32 => TypePolicy::F32,
            TypeName::F16 => TypePolicy::F16,
            TypeName::Bf16 => TypePolicy::BF16,
            TypeName::Q8_0 => TypePolicy::Q8_0,
            TypeName::Q4_0 => TypePolicy::Q4_0,
        }
    }
}

/// The extraction's files.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sources {
    pub pose: At<String>,
    pub root: At<String>,
    pub vqvae: At<String>,
    pub support: At<String>,
    pub manifest: At<String>,
}

impl Sources {
    fn of(&self, role: Role) -> &At<String> {
        match role {
            Role::Pose => &self.pose,
            Role::Root => &self.root,
            Role::VqDecoder => &self.vqvae,
            Role::Support => &self.support,
        }
    }
}

/// A metadata value as the manifest writes it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum MetaValue {
    Text(String),
    Flag(bool),
    /// A list of text: an ARRAY of STRING.
    Texts(Vec<String>),
    Typed(Typed),
    TypedList(TypedList),
}

/// An ARRAY with its element type named: `{int32: [1, 2]}`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TypedList {
    Uint8(Vec<u8>),
    Int8(Vec<i8>),
    Uint16(Vec<u16>),
    Int16(Vec<i16>),
    Uint32(Vec<u32>),
    Int32(Vec<i32>),
    /// Read as doubles: a value beyond float32's range is refused.
    Float32(Vec<f64>),
    Uint64(Vec<u64>),
    Int64(Vec<i64>),
    Float64(Vec<f64>),
    Bool(Vec<bool>),
    String(Vec<String>),
}

/// A value with its GGUF type named.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Typed {
    Uint8(u8),
    Int8(i8),
    Uint16(u16),
    Int16(i16),
    Uint32(u32),
    Int32(i32),
    /// Read as a double, so that a value beyond float32's range is refused
    /// at its line (a cast would make it infinite).
    Float32(f64),
    Uint64(u64),
    Int64(i64),
    Float64(f64),
    Bool(bool),
    String(String),
}

impl MetaValue {
    fn to_gguf(&self) -> Value {
        use crate::formats::gguf::Array;
        match self {
            MetaValue::Texts(v) | MetaValue::TypedList(TypedList::String(v)) => {
                Value::Array(Array::String(v.clone()))
            }
            MetaValue::TypedList(l) => Value::Array(match l {
                TypedList::Uint8(v) => Array::U8(v.clone()),
                TypedList::Int8(v) => Array::I8(v.clone()),
                TypedList::Uint16(v) => Array::U16(v.clone()),
                TypedList::Int16(v) => Array::I16(v.clone()),
                TypedList::Uint32(v) => Array::U32(v.clone()),
                TypedList::Int32(v) => Array::I32(v.clone()),
                // Checked to be in range when planned.
                TypedList::Float32(v) => Array::F32(v.iter().map(|&x| x as f32).collect()),
                TypedList::Uint64(v) => Array::U64(v.clone()),
                TypedList::Int64(v) => Array::I64(v.clone()),
                TypedList::Float64(v) => Array::F64(v.clone()),
                TypedList::Bool(v) => Array::Bool(v.clone()),
                TypedList::String(_) => unreachable!("matched above"),
            }),
            MetaValue::Text(s) | MetaValue::Typed(Typed::String(s)) => Value::String(s.clone()),
            MetaValue::Flag(b) | MetaValue::Typed(Typed::Bool(b)) => Value::Bool(*b),
            MetaValue::Typed(t) => match *t {
                Typed::Uint8(v) => Value::U8(v),
                Typed::Int8(v) => Value::I8(v),
                Typed::Uint16(v) => Value::U16(v),
                Typed::Int16(v) => Value::I16(v),
                Typed::Uint32(v) => Value::U32(v),
                Typed::Int32(v) => Value::I32(v),
                // Checked to be in range when planned.
                Typed::Float32(v) => Value::F32(v as f32),
                Typed::Uint64(v) => Value::U64(v),
                Typed::Int64(v) => Value::I64(v),
                Typed::Float64(v) => Value::F64(v),
                Typed::Bool(_) | Typed::String(_) => unreachable!("matched above"),
            },
        }
    }
}

fn folder(id: &str) -> String {
    format!("{FOLDER}/{id}")
}

fn output(id: &str, name: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{}/{name}", folder(id)))
}

fn index_of(id: &str) -> Result<RelPath, String> {
    output(id, "manifest.json")
}
