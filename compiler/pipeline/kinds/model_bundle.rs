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
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::bake::model_bundle::{self as bundle, PlannedFile, Role, TypePolicy};
use crate::bake::{gguf_stream, llama_cpp, tensor_convert};
use crate::formats::gguf::Value;
use crate::formats::{hex, safetensors, sentencepiece};
use crate::memory;
use crate::pipeline::job::{self, InputFile, JobError, JobIo, Outputs, Unit};
use crate::pipeline::manifest::{At, Pos};
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::Planner;
use crate::pipeline::sources::{Checkpoint, open_safetensors};

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

/// Checks everything that can be checked without running; the outputs.
pub fn plan(e: &Entry, p: &mut Planner) -> Option<Outputs> {
    p.check_id(&e.id);
    let id = &e.id.value;
    match e.profile.value {
        Profile::MotionbricksG1 => {
            let not_here = [
                ("source", e.source.as_ref().map(|a| a.pos)),
                ("architecture", e.architecture.as_ref().map(|a| a.pos)),
                ("metadata", e.metadata.as_ref().map(|a| a.pos)),
                ("type", e.type_policy.as_ref().map(|a| a.pos)),
                ("compact_names", e.compact_names.as_ref().map(|a| a.pos)),
                ("tensors", e.tensors.as_ref().map(|a| a.pos)),
                ("drop", e.drop.as_ref().map(|a| a.pos)),
                ("rename", e.rename.as_ref().map(|a| a.pos)),
                ("types", e.types.as_ref().map(|a| a.pos)),
                ("saturate", e.saturate.as_ref().map(|a| a.pos)),
                ("config", e.config.as_ref().map(|a| a.pos)),
                ("tokenizer", e.tokenizer.as_ref().map(|a| a.pos)),
                ("pooling", e.pooling.as_ref().map(|a| a.pos)),
            ];
            for (key, pos) in not_here {
                if let Some(pos) = pos {
                    p.fail(
                        pos,
                        format!("{key} is for the generic profile; motionbricks-g1 fixes it (see docs/formats/motionbricks.md)"),
                    );
                }
            }
            let Some(sources) = &e.sources else {
                p.fail(
                    e.profile.pos,
                    "motionbricks-g1 needs `sources: {pose, root, vqvae, support, manifest}`",
                );
                return None;
            };
            for role in Role::ALL {
                p.input(sources.value.of(role), &format!("sources.{}", role.source()));
            }
            p.input(&sources.value.manifest, "sources.manifest");
            let mut files: Vec<RelPath> = Role::ALL
                .iter()
                .filter_map(|r| output(id, r.file()).ok())
                .collect();
            let index = index_of(id).ok()?;
            files.push(index.clone());
            Some(Outputs {
                files,
                index: Some(index),
            })
        }
        Profile::LlamaCpp => {
            for (key, pos) in [
                ("sources", at(&e.sources)),
                ("pins", at(&e.pins)),
                ("architecture", at(&e.architecture)),
                ("rename", at(&e.rename)),
                ("drop", at(&e.drop)),
                ("tensors", at(&e.tensors)),
                ("compact_names", at(&e.compact_names)),
            ] {
                if let Some(pos) = pos {
                    p.fail(
                        pos,
                        format!("{key} is not for the llama.cpp profile: the family's table names the tensors and the architecture (use `profile: generic` to choose them)"),
                    );
                }
            }
            for (key, value) in [("config", &e.config), ("tokenizer", &e.tokenizer)] {
                match value {
                    Some(v) => {
                        p.input(v, key);
                    }
                    None => p.fail(
                        e.profile.pos,
                        format!("the llama.cpp profile needs `{key}:` (the checkpoint's {key}.json)"),
                    ),
                }
            }
            check_generic_keys(e, p);
            output(id, &format!("{id}.gguf")).ok().map(Outputs::one)
        }
        Profile::Generic => {
            for (key, pos) in [
                ("sources", e.sources.as_ref().map(|a| a.pos)),
                ("pins", e.pins.as_ref().map(|a| a.pos)),
            ] {
                if let Some(pos) = pos {
                    p.fail(pos, format!("{key} is for the motionbricks-g1 profile"));
                }
            }
            for (key, pos) in [
                ("config", at(&e.config)),
                ("tokenizer", at(&e.tokenizer)),
                ("pooling", at(&e.pooling)),
            ] {
                if let Some(pos) = pos {
                    p.fail(pos, format!("{key} is for the llama.cpp profile"));
                }
            }
            match &e.architecture {
                Some(a) if a.value.is_empty() => p.fail(a.pos, "architecture may not be empty"),
                Some(_) => {}
                None => p.fail(
                    e.profile.pos,
                    "the generic profile needs `architecture:` (general.architecture, such as bert or llama)",
                ),
            }
            check_generic_keys(e, p);
            output(id, &format!("{id}.gguf")).ok().map(Outputs::one)
        }
    }
}

/// The keys the generic and llama.cpp profiles share: metadata, patterns,
/// the checkpoint.
fn check_generic_keys(e: &Entry, p: &mut Planner) {
    if let Some(m) = &e.metadata {
        for (key, value) in &m.value {
            if key.is_empty() {
                p.fail(m.pos, "a metadata key may not be empty");
            } else if bundle::GENERIC_KEYS.contains(&key.as_str()) {
                p.fail(m.pos, format!("metadata {key} is written by kiln; leave it out"));
            } else if let Some(v) = beyond_f32(value) {
                p.fail(
                    m.pos,
                    format!(
                        "metadata {key}: {v:e} is beyond float32's range (±{:e}); write it as float64",
                        f32::MAX
                    ),
                );
            }
        }
    }
    for (key, patterns) in [("tensors", &e.tensors), ("drop", &e.drop)] {
        if let Some(list) = patterns {
            for pattern in &list.value {
                if let Some(why) = pattern_problem(pattern) {
                    p.fail(list.pos, format!("{key}: {pattern:?}: {why}"));
                }
            }
        }
    }
    if let Some(rename) = &e.rename {
        for (from, to) in &rename.value {
            if let Some(why) = pattern_problem(from).or_else(|| pattern_problem(to)) {
                p.fail(rename.pos, format!("rename: {from:?} -> {to:?}: {why}"));
            } else if let Err(err) = bundle::check_template(from, to) {
                p.fail(rename.pos, err.to_string());
            }
        }
    }
    if let Some(types) = &e.types {
        for pattern in types.value.keys() {
            if let Some(why) = pattern_problem(pattern) {
                p.fail(types.pos, format!("types: {pattern:?}: {why}"));
            }
        }
    }
    match &e.source {
        None => p.fail(e.profile.pos, "this profile needs `source:` (a .safetensors file, a *.index.json, or a glob of shards)"),
        Some(s) if s.value.contains(['*', '?']) => {
            p.glob(s, "source");
        }
        Some(s) => {
            p.input(s, "source");
        }
    }
}


/// Largest `config.json` and `tokenizer.json` the llama.cpp profile reads.
pub const MAX_CONFIG_BYTES: u64 = 16 << 20;
pub const MAX_TOKENIZER_BYTES: u64 = 64 << 20;

/// The llama.cpp profile's names, architecture and metadata, from the
/// family `config.json` names: its table renames and drops, its
/// hyper-parameters and tokenizer become metadata, under the manifest's
/// own `metadata` (which may add keys, not replace the family's).
fn llama_cpp_settings(e: &Entry, io: &mut JobIo, settings: &mut bundle::Generic) -> Result<(), JobError> {
    let json = |io: &mut JobIo, key: &Option<At<String>>, limit: u64| -> Result<(RelPath, serde_json::Value, Pos), JobError> {
        let at = key.as_ref().ok_or_else(|| JobError::at(e.profile.pos, "planned with it"))?;
        let path = rel(at)?;
        let bytes = io.read(&path, at.pos, limit)?;
        let value = serde_json::from_slice(&bytes)
            .map_err(|err| JobError::at(at.pos, format!("{path}: not JSON: {err}")))?;
        Ok((path, value, at.pos))
    };
    let (config_path, config, config_pos) = json(io, &e.config, MAX_CONFIG_BYTES)?;
    let family = llama_cpp::family(&config).map_err(|m| JobError::at(config_pos, format!("{config_path}: {m}")))?;
    let pooling = e.pooling.as_ref().map(|p| p.value.code());
    let mut metadata = llama_cpp::hparams(family, &config, pooling)
        .map_err(|m| JobError::at(config_pos, format!("{config_path}: {m}")))?;
    let tokenizer_at = e.tokenizer.as_ref().ok_or_else(|| JobError::at(e.profile.pos, "planned with it"))?;
    let vocab = if tokenizer_at.value.ends_with(".model") {
        // SentencePiece's model file, which llama.cpp's converter reads
        // before a tokenizer.json.
        let path = rel(tokenizer_at)?;
        let fail = |m: String| JobError::at(tokenizer_at.pos, format!("{path}: {m}"));
        if family.tokenizer != llama_cpp::TokenizerKind::Bpe {
            return Err(fail(format!(
                "a SentencePiece model; the {} family's tokenizer is a WordPiece tokenizer.json or vocab.txt",
                family.arch
            )));
        }
        let bytes = io.read(&path, tokenizer_at.pos, sentencepiece::MAX_BYTES as u64)?;
        let model = sentencepiece::decode(&bytes).map_err(|err| fail(err.to_string()))?;
        llama_cpp::sentencepiece(&model, &config).map_err(fail)?
    } else if tokenizer_at.value.ends_with(".txt") {
        // A BERT's vocab.txt, read as Hugging Face's fast tokenizer
        // makes it a tokenizer.json.
        let path = rel(tokenizer_at)?;
        let fail = |m: String| JobError::at(tokenizer_at.pos, format!("{path}: {m}"));
        if family.tokenizer != llama_cpp::TokenizerKind::WordPiece {
            return Err(fail(format!(
                "a WordPiece vocab.txt; the {} family's tokenizer is a BPE tokenizer.json or a SentencePiece tokenizer.model",
                family.arch
            )));
        }
        let bytes = io.read(&path, tokenizer_at.pos, MAX_TOKENIZER_BYTES)?;
        let text = std::str::from_utf8(&bytes)
            .map_err(|err| fail(format!("at byte {}: not UTF-8", err.valid_up_to())))?;
        let tokenizer = llama_cpp::wordpiece_vocab_txt(text).map_err(fail)?;
        llama_cpp::wordpiece(&tokenizer, &config).map_err(fail)?
    } else {
        let (tokenizer_path, tokenizer, tokenizer_pos) = json(io, &e.tokenizer, MAX_TOKENIZER_BYTES)?;
        match family.tokenizer {
            llama_cpp::TokenizerKind::WordPiece => llama_cpp::wordpiece(&tokenizer, &config),
            llama_cpp::TokenizerKind::Bpe => llama_cpp::bpe(&tokenizer, &config),
        }
        .map_err(|m| JobError::at(tokenizer_pos, format!("{tokenizer_path}: {m}")))?
    };
    let tokenizer_path = rel(tokenizer_at)?;
    settings.permute = llama_cpp::permute_rules(family, &config)
        .map_err(|m| JobError::at(config_pos, format!("{config_path}: {m}")))?;
    metadata.extend(vocab);
    for (key, value) in std::mem::take(&mut settings.metadata) {
        if metadata.contains_key(&key) {
            return Err(JobError::at(
                at(&e.metadata).unwrap_or(e.profile.pos),
                format!("metadata {key} is written by the llama.cpp profile (from {config_path} or {tokenizer_path}); leave it out"),
            ));
        }
        metadata.insert(key, value);
    }
    let (rename, drop) = llama_cpp::name_rules(family);
    settings.architecture = family.arch.to_string();
    settings.metadata = metadata;
    settings.rename = rename;
    settings.drop = drop;
    settings.table = Some(family.table);
    Ok(())
}

/// Where a key was written, if it was.
fn at<T>(key: &Option<At<T>>) -> Option<Pos> {
    key.as_ref().map(|k| k.pos)
}

/// Longest pattern or name in `tensors`, `drop`, `rename` and `types`.
pub const MAX_PATTERN_BYTES: usize = 1024;

/// Why a pattern or name cannot be used, if it cannot.
fn pattern_problem(pattern: &str) -> Option<String> {
    if pattern.is_empty() {
        Some("may not be empty".into())
    } else if pattern.len() > MAX_PATTERN_BYTES {
        Some(format!(
            "is {} bytes; at most {MAX_PATTERN_BYTES}",
            pattern.len()
        ))
    } else {
        None
    }
}

/// A float32 metadata value (or element) beyond float32's range.
fn beyond_f32(value: &MetaValue) -> Option<f64> {
    let out = |v: f64| (v as f32).is_infinite() && v.is_finite();
    match value {
        MetaValue::Typed(Typed::Float32(v)) if out(*v) => Some(*v),
        MetaValue::TypedList(TypedList::Float32(list)) => list.iter().copied().find(|&v| out(v)),
        _ => None,
    }
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    match e.profile.value {
        Profile::MotionbricksG1 => run_motionbricks(e, io),
        Profile::Generic | Profile::LlamaCpp => run_generic(e, io),
    }
}

fn open_checkpoint(io: &mut JobIo, path: &RelPath, pos: Pos) -> Result<Checkpoint, JobError> {
    open_safetensors(io, path, pos, MAX_CHECKPOINT_BYTES)
}

fn rel(at: &At<String>) -> Result<RelPath, JobError> {
    RelPath::parse(&at.value).map_err(|m| JobError::at(at.pos, m))
}

fn run_motionbricks(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let sources = e
        .sources
        .as_ref()
        .ok_or_else(|| JobError::at(e.profile.pos, "no sources"))?;
    let enforce = e.pins.as_ref().is_none_or(|p| p.value == Pins::Enforce);
    let mut checkpoints = Vec::with_capacity(4);
    for role in Role::ALL {
        let at = sources.value.of(role);
        checkpoints.push(open_checkpoint(io, &rel(at)?, at.pos)?);
    }
    // The four SHA-256 passes at once (each a core's work: one stream
    // cannot be split), then the pins in order.
    let shas = {
        let mut inputs: Vec<&mut InputFile> = checkpoints.iter_mut().map(|c| &mut c.input).collect();
        job::sha256_each(&mut inputs)
    };
    let mut plans = Vec::with_capacity(4);
    for ((role, c), sha) in Role::ALL.into_iter().zip(&checkpoints).zip(shas) {
        let at = sources.value.of(role);
        let path = c.input.path();
        let sha = hex(&sha?);
        if sha != role.pin() {
            if enforce {
                return Err(JobError::at(
                    at.pos,
                    format!(
                        "{path}: SHA-256 {sha} is not the official extraction's {} (pins: enforce); for retrained weights set `pins: record`",
                        role.pin()
                    ),
                ));
            }
            io.warn(format!(
                "{path} is not the official extraction (SHA-256 {sha}); the runtime's pin for {} will not match",
                role.name()
            ));
        }
        let plan = bundle::motionbricks_component(role, &c.header, &sha)
            .map_err(|err| JobError::at(at.pos, format!("{path}: {err}")))?;
        plans.push(plan);
    }
    let manifest_path = rel(&sources.value.manifest)?;
    let safe_manifest = io.read(&manifest_path, sources.value.manifest.pos, MAX_INDEX_BYTES)?;
    check_safe_manifest(&safe_manifest)
        .map_err(|m| JobError::at(sources.value.manifest.pos, format!("{manifest_path}: {m}")))?;
    let safe_sha = hex(&sha2_of(&safe_manifest));

    let total: u64 = plans.iter().flat_map(|p| &p.tensors).map(|t| t.end - t.begin).sum();
    let mut progress = Progress { done: 0, total };
    let mut entries = Vec::with_capacity(4);
    for ((role, plan), c) in Role::ALL.into_iter().zip(&plans).zip(&mut checkpoints) {
        let path = output(&e.id.value, role.file()).map_err(JobError::job)?;
        let mut inputs = [c];
        let sha = write_gguf(io, &path, plan, &mut inputs, &vec![0; plan.tensors.len()], &mut progress, Default::default())?;
        entries.push(bundle::ComponentEntry {
            role,
            parameter_count: plan.parameter_count(),
            sha256: hex(&sha),
            tensor_count: plan.tensors.len(),
        });
    }
    for c in checkpoints {
        io.finish(c.input)?;
    }
    let text = bundle::bundle_manifest(&entries, &safe_sha);
    let index = index_of(&e.id.value).map_err(JobError::job)?;
    io.write(&index, text.as_bytes())
}

fn sha2_of(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// The extraction manifest must be a JSON object of its format.
fn check_safe_manifest(bytes: &[u8]) -> Result<(), String> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    match v.get("format").and_then(|f| f.as_str()) {
        Some(bundle::SAFE_MANIFEST_FORMAT) => Ok(()),
        Some(other) => Err(format!(
            "format is {other:?}; expected {:?}",
            bundle::SAFE_MANIFEST_FORMAT
        )),
        None => Err(format!(
            "no \"format\": {:?} (is it the extraction's manifest.json?)",
            bundle::SAFE_MANIFEST_FORMAT
        )),
    }
}

/// Tensor bytes read of the job's total, for its progress line.
struct Progress {
    done: u64,
    total: u64,
}

/// Writes one GGUF, streamed by `bake::gguf_stream` (tensor `i` from
/// `checkpoints[shards[i]]`) into the output; each NaN-holding tensor a
/// warning. Its SHA-256.
fn write_gguf(
    io: &mut JobIo,
    path: &RelPath,
    plan: &PlannedFile,
    checkpoints: &mut [&mut Checkpoint],
    shards: &[usize],
    progress: &mut Progress,
    options: tensor_convert::Options,
) -> Result<[u8; 32], JobError> {
    let mut out = io.create(path)?;
    let data_start: Vec<u64> = checkpoints.iter().map(|c| c.header.data_start()).collect();
    let names: Vec<(String, Pos)> = checkpoints
        .iter()
        .map(|c| (c.input.path().to_string(), c.pos))
        .collect();
    let found = gguf_stream::stream(
        plan,
        &data_start,
        shards,
        options,
        gguf_stream::Streams {
            read_at: &mut |shard, offset, buf| checkpoints[shard].input.read_exact_at(offset, buf),
            write: &mut |bytes| {
                out.write_all(bytes)
                    .map_err(|err| JobError::job(format!("{path}: {err}")))
            },
            progress: &mut |n| {
                progress.done += n;
                io.progress(progress.done, progress.total, Unit::Bytes)
            },
        },
    )
    .map_err(|failure| match failure {
        gguf_stream::Failure::Io(err) => err,
        gguf_stream::Failure::Header(err) => JobError::job(format!("{path}: {err}")),
        gguf_stream::Failure::Convert {
            shard,
            byte,
            tensor,
            error,
        } => JobError::at(
            names[shard].1,
            format!("{}: at byte {byte}: tensor {tensor:?}: {error}", names[shard].0),
        ),
    })?;
    for f in found {
        io.warn(format!(
            "{}: tensor {:?} holds {} NaN or infinite values (the first is element {}, at byte {}); they are kept as they are",
            names[f.shard].0, f.tensor, f.count, f.first_element, f.byte
        ));
    }
    io.close(out).map(|(_, sha)| sha)
}

fn run_generic(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let source = e
        .source
        .as_ref()
        .ok_or_else(|| JobError::at(e.profile.pos, "no source"))?;
    let pos = source.pos;
    let shard_paths: Vec<RelPath> = if source.value.contains(['*', '?']) {
        io.glob_matches(&source.value).to_vec()
    } else if source.value.ends_with(".index.json") {
        let path = rel(source)?;
        let text = io.read(&path, pos, MAX_INDEX_BYTES)?;
        let index = safetensors::decode_index(&text)
            .map_err(|m| JobError::at(pos, format!("{path}: invalid shard index: {m}")))?;
        let shards = index
            .shards()
            .iter()
            .map(|s| path.sibling(s).map_err(|m| JobError::at(pos, format!("{path}: shard {m}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut checkpoints = Vec::new();
        for shard in &shards {
            checkpoints.push(open_checkpoint(io, shard, pos)?);
        }
        check_index(&index, &shards, &checkpoints)
            .map_err(|m| JobError::at(pos, format!("{path}: {m}")))?;
        return convert_generic(e, io, checkpoints);
    } else {
        vec![rel(source)?]
    };
    let mut checkpoints = Vec::with_capacity(shard_paths.len());
    for shard in &shard_paths {
        checkpoints.push(open_checkpoint(io, shard, pos)?);
    }
    convert_generic(e, io, checkpoints)
}

/// Every tensor is in the shard the index names, and the index names every
/// tensor.
fn check_index(
    index: &safetensors::ShardIndex,
    shards: &[RelPath],
    checkpoints: &[Checkpoint],
) -> Result<(), String> {
    let mut listed = 0;
    for (path, c) in shards.iter().zip(checkpoints) {
        for t in c.header.tensors() {
            match index.weight_map.get(t.name) {
                Some(shard) if shard == path.file_name() => listed += 1,
                Some(shard) => {
                    return Err(format!(
                        "tensor {:?} is in {path}, but the index says {shard}",
                        t.name
                    ));
                }
                None => return Err(format!("tensor {:?} in {path} is not in the index", t.name)),
            }
        }
    }
    if listed != index.weight_map.len() {
        for (name, shard) in &index.weight_map {
            let holds = shards
                .iter()
                .zip(checkpoints)
                .any(|(p, c)| p.file_name() == shard && c.header.tensor(name).is_some());
            if !holds {
                return Err(format!(
                    "the index puts tensor {name:?} in {shard}, which does not hold it"
                ));
            }
        }
    }
    Ok(())
}

fn convert_generic(e: &Entry, io: &mut JobIo, mut checkpoints: Vec<Checkpoint>) -> Result<(), JobError> {
    let pos = e.source.as_ref().map_or(e.profile.pos, |s| s.pos);
    // Every shard's tensors, asked for fallibly (a header may hold a
    // million), then sorted by name: a name in two shards is two
    // neighbours.
    let count: usize = checkpoints.iter().map(|c| c.header.len()).sum();
    let mut all: Vec<(usize, safetensors::Tensor)> = memory::with_capacity(count)
        .map_err(|m| JobError::at(pos, format!("the checkpoints' {count} tensors {m}")))?;
    for (i, c) in checkpoints.iter().enumerate() {
        all.extend(c.header.tensors().map(|t| (i, t)));
    }
    all.sort_unstable_by(|a, b| (a.1.name, a.0).cmp(&(b.1.name, b.0)));
    if let Some(w) = all.windows(2).find(|w| w[0].1.name == w[1].1.name) {
        return Err(JobError::at(
            pos,
            format!(
                "tensor {:?} is in both {} and {}",
                w[0].1.name,
                checkpoints[w[0].0].input.path(),
                checkpoints[w[1].0].input.path()
            ),
        ));
    }
    let policy = e.type_policy.as_ref().map_or(TypePolicy::Keep, |t| t.value.policy());
    let mut settings = bundle::Generic {
        architecture: e.architecture.as_ref().map_or_else(String::new, |a| a.value.clone()),
        metadata: e
            .metadata
            .as_ref()
            .map(|m| m.value.iter().map(|(k, v)| (k.clone(), v.to_gguf())).collect())
            .unwrap_or_default(),
        policy,
        compact_names: e.compact_names.as_ref().is_some_and(|c| c.value),
        keep: e.tensors.as_ref().map(|t| t.value.clone()).unwrap_or_default(),
        drop: e.drop.as_ref().map(|t| t.value.clone()).unwrap_or_default(),
        rename: e
            .rename
            .as_ref()
            .map(|r| r.value.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default(),
        types: e
            .types
            .as_ref()
            .map(|t| t.value.iter().map(|(k, v)| (k.clone(), v.policy())).collect())
            .unwrap_or_default(),
        permute: Vec::new(),
        table: None,
    };
    if e.profile.value == Profile::LlamaCpp {
        llama_cpp_settings(e, io, &mut settings)?;
    }
    let blame = |err: &bundle::Error| match err {
        bundle::Error::NothingKept { .. } => at(&e.drop).or(at(&e.tensors)).unwrap_or(pos),
        bundle::Error::NameTooLong { .. } => at(&e.rename).or(at(&e.compact_names)).unwrap_or(pos),
        bundle::Error::ReservedKey { .. } => at(&e.metadata).unwrap_or(pos),
        bundle::Error::Unmatched { key: "drop", .. } => at(&e.drop).unwrap_or(pos),
        bundle::Error::Unmatched { key: "rename", .. }
        | bundle::Error::Template { .. }
        | bundle::Error::RenameConflict { .. }
        | bundle::Error::RenameTooLong { .. }
        | bundle::Error::Collision { .. } => at(&e.rename).or(at(&e.compact_names)).unwrap_or(pos),
        bundle::Error::Unmatched { .. }
        | bundle::Error::TypeConflict { .. }
        | bundle::Error::IntegerType { .. }
        | bundle::Error::Blocks { .. } => at(&e.types).unwrap_or(pos),
        _ => pos,
    };
    let (plan, shards) = bundle::generic(&all, &settings).map_err(|err| JobError::at(blame(&err), err.to_string()))?;
    drop(all);
    let total = plan.tensors.iter().map(|t| t.end - t.begin).sum();
    let path = output(&e.id.value, &format!("{}.gguf", e.id.value)).map_err(JobError::job)?;
    let mut refs: Vec<&mut Checkpoint> = checkpoints.iter_mut().collect();
    let options = tensor_convert::Options {
        saturate: e.saturate.as_ref().is_some_and(|s| s.value),
    };
    let mut progress = Progress { done: 0, total };
    write_gguf(io, &path, &plan, &mut refs, &shards, &mut progress, options)?;
    for c in checkpoints {
        io.finish(c.input)?;
    }
    Ok(())
}
