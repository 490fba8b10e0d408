//! Running a planned conversion: the MotionBricks bundle's four components,
//! or a generic (or `llama.cpp`) conversion of one checkpoint or a sharded
//! one, each GGUF streamed to its output.

use std::io::Write;
use crate::bake::model_bundle::{self as bundle, PlannedFile, Role, TypePolicy};
use crate::bake::{gguf_stream, llama_cpp, tensor_convert};
use crate::formats::{hex, safetensors, sentencepiece};
use crate::memory;
use crate::pipeline::job::{self, InputFile, JobError, JobIo, Unit};
use crate::pipeline::manifest::{At, Pos};
use crate::pipeline::paths::RelPath;
use crate::pipeline::sources::{Checkpoint, open_safetensors};

use super::{Entry, MAX_CHECKPOINT_BYTES, MAX_INDEX_BYTES, Pins, Profile, index_of, output};
use super::plan::at;

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
            .map_err(|e| JobError::at(pos, format!("{path}: {e}")))?;
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
