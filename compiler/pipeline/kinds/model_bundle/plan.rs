//! Planning a conversion from its manifest entry: its inputs and outputs,
//! and every setting checked at its manifest line and column.

use crate::bake::model_bundle::{self as bundle, Role};
use crate::pipeline::job::Outputs;
use crate::pipeline::manifest::{At, Pos};
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::Planner;

use super::{Entry, MetaValue, Profile, Typed, TypedList, index_of, output};

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


/// Where a key was written, if it was.
pub(super) fn at<T>(key: &Option<At<T>>) -> Option<Pos> {
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
