//! Kind `characters`: one level's compiled characters (manifest section
//! `characters`, one entry per level), the level data entry
//! `levels/<level>/@world/characters` (KCHR v1, `formats::kchr`) and the
//! level's index `levels/<level>/level.json`, committed last.
//!
//! run: read every source once (each file's scene imported once, its node
//! names made once) -> banks: each clip of each file, selected and renamed,
//! compiled (`bake::character::clip`) -> models: select the skin and mesh
//! instances -> import their meshes, materials and images -> the material
//! stage (`atlas::material_stage`) -> the model (`bake::character::model`)
//! -> bind it to its bank by node name (`bake::character::bind`) -> encode
//! (validates the document) -> write the entry, then `level.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::bake::atlas;
use crate::bake::level::{AtlasRegion, ClipReport};
use crate::bake::character::{self as bake, ClipSettings, NodeMap, Tolerance};
use crate::formats::kchr;
use crate::import::gltf;
use crate::model::Scene;
use crate::pipeline::job::{JobError, JobIo, Outputs};
use crate::pipeline::manifest::{At, Pos};
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::Planner;
use crate::pipeline::sources;

pub const KIND: &str = "characters";

/// When to bump it: ARCHITECTURE.md, "A kind's `VERSION` changes".
/// 2: images it once compiled are refused (no end marker, bytes after it,
/// more pixels claimed than its bytes can hold).
/// 3: key reduction finds each segment's end by a galloping search (the
/// Fox's clips keep 2,393 keys, were 2,411).
/// 4: a tolerance bounds the error where the skin is (resampling counted,
/// rotation measured at the farthest skinned vertex), and `level.json`
/// gives each clip's achieved bound as `error_m`.
/// 5: an atlas that does not fit with padding on every side packs without
/// it at the atlas's edges before it scales (a lone 2048 x 2048 texture
/// keeps its size).
/// 6: each UV island of a textured primitive is moved by whole periods of
/// its wrap into the first tile before the region's tiles are counted.
/// 7: `level.json` gives each model's atlas regions (`atlas_regions`).
pub const VERSION: u32 = 7;
/// The folder of the output folder its jobs write under.
pub const FOLDER: &str = "levels";

/// Most resampling rate (Hz).
pub const MAX_RESAMPLE_HZ: f64 = 1000.0;

/// One `characters` entry: a level. Documented key by key in
/// docs/manifest.md.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The level: names the output folder, `levels/<level>/`.
    #[serde(rename = "level")]
    pub id: At<String>,
    /// The animation banks, shared by the models (at most 8).
    pub banks: At<Vec<At<BankEntry>>>,
    /// The models (at most 8), each bound to one bank.
    pub models: At<Vec<At<ModelEntry>>>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BankEntry {
    pub id: At<String>,
    /// Clip files, each with the animations it gives (default: all). None
    /// (the default) is an empty bank: seed 003 sets no least number of
    /// clips, and a model posed at runtime (a tracked hand) plays none.
    #[serde(default)]
    pub clips: Vec<At<ClipEntry>>,
    /// Rate of the LINEAR keys CUBICSPLINE tracks are resampled into (and
    /// every track, with `resample: all`). Default: 30.
    #[serde(default = "default_resample_hz")]
    pub resample_hz: At<f64>,
    /// `cubic` (the default: CUBICSPLINE tracks only) or `all`.
    #[serde(default = "default_resample")]
    pub resample: At<Resample>,
    /// Key reduction; default: none (keys stay as they are).
    #[serde(default)]
    pub tolerance: Option<At<Tolerance>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Resample {
    Cubic,
    All,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClipEntry {
    pub source: At<String>,
    /// Animation names to take; default: every animation of the file.
    #[serde(default)]
    pub animations: Option<At<Vec<String>>>,
    /// Source animation name -> clip name.
    #[serde(default)]
    pub rename: Option<At<BTreeMap<String, String>>>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ModelEntry {
    pub id: At<String>,
    pub source: At<String>,
    /// The bank's id.
    pub bank: At<String>,
    /// The skin, by index: needed only when the file draws with several.
    #[serde(default)]
    pub skin: Option<At<u64>>,
    /// The material stage's settings.
    #[serde(default)]
    pub atlas: Option<At<atlas::Settings>>,
    /// How the bank's track names find this model's nodes.
    #[serde(default)]
    pub node_map: Option<At<NodeMapEntry>>,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeMapEntry {
    /// Characters ignored when comparing names.
    #[serde(default)]
    pub ignore: String,
    /// Model node name -> the bank's name for it.
    #[serde(default)]
    pub pairs: BTreeMap<String, String>,
}

fn default_resample_hz() -> At<f64> {
    At::unwritten(30.0)
}

fn default_resample() -> At<Resample> {
    At::unwritten(Resample::Cubic)
}

fn entry_path(level: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{FOLDER}/{level}/{}", kchr::ENTRY_NAME))
}

fn index_path(level: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{FOLDER}/{level}/level.json"))
}

/// Checks everything that can be checked without running; the outputs.
pub fn plan(e: &Entry, p: &mut Planner) -> Option<Outputs> {
    p.check_id(&e.id);
    let banks = &e.banks.value;
    let models = &e.models.value;
    if banks.len() > kchr::MAX_BANKS {
        p.fail(e.banks.pos, format!("{} banks; a level holds at most {}", banks.len(), kchr::MAX_BANKS));
    }
    if models.is_empty() || models.len() > kchr::MAX_MODELS {
        p.fail(
            e.models.pos,
            format!("{} models; a level holds 1 to {}", models.len(), kchr::MAX_MODELS),
        );
    }
    let mut bank_ids = BTreeSet::new();
    for bank in banks {
        let b = &bank.value;
        check_name(p, &b.id, "bank id");
        if !bank_ids.insert(b.id.value.clone()) {
            p.fail(b.id.pos, format!("bank id {:?} appears twice in the level", b.id.value));
        }
        let hz = b.resample_hz.value;
        if !(hz.is_finite() && hz > 0.0 && hz <= MAX_RESAMPLE_HZ) {
            p.fail(b.resample_hz.pos, format!("resample_hz must be above 0 and at most {MAX_RESAMPLE_HZ}, found {hz}"));
        }
        if let Some(t) = &b.tolerance {
            let v = t.value;
            for (name, x) in [("position_m", v.position_m), ("rotation_deg", v.rotation_deg), ("scale", v.scale)] {
                if !(x.is_finite() && x >= 0.0) {
                    p.fail(t.pos, format!("tolerance {name} must be 0 or a positive number, found {x}"));
                }
            }
        }
        for clip in &b.clips {
            let c = &clip.value;
            p.input(&c.source, "clip source");
            if let Some(a) = &c.animations
                && a.value.is_empty()
            {
                p.fail(a.pos, "animations: an empty list takes nothing; leave it out to take every animation");
            }
            if let Some(r) = &c.rename {
                for to in r.value.values() {
                    if let Err(m) = name_rule("clip name", to) {
                        p.fail(r.pos, m);
                    }
                }
            }
        }
    }
    let mut model_ids = BTreeSet::new();
    for model in models {
        let m = &model.value;
        check_name(p, &m.id, "model id");
        if !model_ids.insert(m.id.value.clone()) {
            p.fail(m.id.pos, format!("model id {:?} appears twice in the level", m.id.value));
        }
        p.input(&m.source, "source");
        if !bank_ids.contains(&m.bank.value) {
            let known: Vec<&String> = bank_ids.iter().collect();
            p.fail(m.bank.pos, format!("no bank {:?} in this level (banks: {known:?})", m.bank.value));
        }
    }
    let level = &e.id.value;
    let (entry, index) = (entry_path(level).ok()?, index_path(level).ok()?);
    Some(Outputs {
        files: vec![entry, index.clone()],
        index: Some(index),
    })
}

fn name_rule(what: &str, name: &str) -> Result<(), String> {
    match kchr::broken_name_rule(name) {
        Some(m) => Err(format!("{what} {m}")),
        None => Ok(()),
    }
}

fn check_name(p: &mut Planner, name: &At<String>, what: &str) {
    if let Err(m) = name_rule(what, &name.value) {
        p.fail(name.pos, m);
    }
}

/// A source read once: its bytes, scene and node names, and its parsed
/// JSON until a model's meshes take it (so a file that gives a bank and a
/// model is parsed once).
struct Source {
    file: sources::GltfFile,
    scene: Scene,
    names: Vec<String>,
    json: Option<gltf::json::Document>,
    /// The files read to import it (it and its buffers beside it).
    read: Vec<RelPath>,
}

fn load<'a>(
    io: &mut JobIo,
    cache: &'a mut BTreeMap<RelPath, Source>,
    source: &At<String>,
) -> Result<(RelPath, &'a mut Source), JobError> {
    let path = RelPath::parse(&source.value).map_err(|m| JobError::at(source.pos, m))?;
    if !cache.contains_key(&path) {
        let mark = io.reads_mark();
        let (file, doc) = sources::read_gltf(io, &path, source.pos, false)?;
        let (scene, json) = sources::import_gltf_with_json(io, &path, source.pos, &file, doc)?;
        let names = bake::node_names(&scene);
        let json = Some(json);
        let read = io.read_since(mark);
        cache.insert(path.clone(), Source { file, scene, names, json, read });
    }
    let src = cache.get_mut(&path).expect("inserted above");
    Ok((path, src))
}

/// One clip a bank takes, checked before any key is made: the entry that
/// names it, its file, its animation's index and source name, and its name
/// in the bank.
struct Pick {
    pos: Pos,
    path: RelPath,
    index: usize,
    source_name: String,
    name: String,
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    let mut cache = BTreeMap::new();
    // What each bank takes, and the node names it animates: the models
    // bind to those before any key is made.
    let mut picks = Vec::new();
    for bank in &e.banks.value {
        picks.push(pick_clips(io, &mut cache, &bank.value)?);
    }
    let animated: Vec<BTreeSet<String>> = picks
        .iter()
        .map(|bank| {
            bank.iter()
                .flat_map(|c| {
                    let src = &cache[&c.path];
                    bake::clip_animated(&src.names, &src.scene.clips[c.index]).map(str::to_string).collect::<Vec<_>>()
                })
                .collect()
        })
        .collect();
    let (mut models, mut regions) = (Vec::new(), Vec::new());
    let mut texels = 0;
    for model in &e.models.value {
        let (model, its_regions) = compile_model(io, &mut cache, e, &model.value, &animated, &mut texels)?;
        models.push(model);
        regions.push(its_regions);
    }
    // A bank's errors are measured where the skin of its models is.
    let mut banks = Vec::new();
    let mut reports: Vec<Vec<ClipReport>> = Vec::new();
    for (b, bank) in e.banks.value.iter().enumerate() {
        let mut radius: BTreeMap<String, f64> = BTreeMap::new();
        for m in models.iter().filter(|m| m.bank as usize == b) {
            for (name, r) in bake::skin_radius(m) {
                let at = radius.entry(name).or_insert(0.0);
                *at = at.max(r);
            }
        }
        let (compiled, report) = compile_bank(io, &mut cache, &bank.value, &picks[b], &radius)?;
        banks.push(compiled);
        reports.push(report);
    }
    let doc = kchr::Document { models, banks };
    // The atlases are the material stage's, just encoded by the reference
    // QOI encoder from opaque pixels: every rule but decoding them again
    // (`kiln verify` does that).
    let bytes = kchr::encode_with(&doc, kchr::ImageCheck::Header).map_err(|err| {
        JobError::at(e.id.pos, format!("level {:?}: the compiled characters are not valid: {err}", e.id.value))
    })?;
    let level = &e.id.value;
    let path = entry_path(level).map_err(JobError::job)?;
    let mut out = io.create(&path)?;
    out.write_all(&bytes)
        .map_err(|err| JobError::job(format!("{path}: {err}")))?;
    let (len, sha) = io.close(out)?;
    let index = crate::bake::level::level_json(level, len, &sha, &doc, (&reports, &regions));
    io.write(&index_path(level).map_err(JobError::job)?, index.as_bytes())
}

/// The clips bank `b` takes, checked (each animation named exists, the
/// renames name taken animations, names unique and short), without making
/// keys.
fn pick_clips(io: &mut JobIo, cache: &mut BTreeMap<RelPath, Source>, b: &BankEntry) -> Result<Vec<Pick>, JobError> {
    let mut out = Vec::new();
    let mut first_at: BTreeMap<String, Pos> = BTreeMap::new();
    for entry in &b.clips {
        let c = &entry.value;
        let (path, src) = load(io, cache, &c.source)?;
        let available: Vec<String> = src
            .scene
            .clips
            .iter()
            .enumerate()
            .map(|(i, clip)| clip.name.clone().unwrap_or_else(|| format!("animation{i}")))
            .collect();
        let picked: Vec<usize> = match &c.animations {
            None => (0..available.len()).collect(),
            Some(list) => {
                let mut out = Vec::new();
                for name in &list.value {
                    match available.iter().position(|a| a == name) {
                        Some(i) => out.push(i),
                        None => {
                            return Err(JobError::at(
                                list.pos,
                                format!("{path} has no animation {name:?} (it has {available:?})"),
                            ));
                        }
                    }
                }
                out
            }
        };
        if picked.is_empty() {
            // (`animations: []` is refused as the manifest is read.)
            return Err(JobError::at(
                c.source.pos,
                format!("{path} has no animation; leave the source out of `clips` (a bank with no clips, `clips: []` or none, suits a model posed at runtime)"),
            ));
        }
        if let Some(r) = &c.rename {
            for from in r.value.keys() {
                if !picked.iter().any(|&i| &available[i] == from) {
                    return Err(JobError::at(
                        r.pos,
                        format!("rename names {from:?}, which is not an animation taken from {path} (taken: {:?})", picked.iter().map(|&i| &available[i]).collect::<Vec<_>>()),
                    ));
                }
            }
        }
        for i in picked {
            let source_name = &available[i];
            let name = c
                .rename
                .as_ref()
                .and_then(|r| r.value.get(source_name))
                .unwrap_or(source_name)
                .clone();
            if name.len() > kchr::MAX_NAME {
                return Err(JobError::at(c.source.pos, format!("{path}: animation name {name:?} is over {} bytes: rename it", kchr::MAX_NAME)));
            }
            if let Some(first) = first_at.insert(name.clone(), entry.pos) {
                return Err(JobError::at(
                    entry.pos,
                    format!("bank {:?}: two clips are named {name:?} (the first from line {}); rename one", b.id.value, first.line),
                ));
            }
            out.push(Pick { pos: entry.pos, path: path.clone(), index: i, source_name: source_name.clone(), name });
        }
    }
    if out.len() > kchr::MAX_CLIPS {
        return Err(JobError::at(
            b.id.pos,
            format!("bank {:?} has {} clips; a bank holds at most {} (pick some with `animations:`)", b.id.value, out.len(), kchr::MAX_CLIPS),
        ));
    }
    // The bank's work, counted before any key is made (and before the
    // models are bound to it).
    let settings = clip_settings(b);
    let mut source_keys = 0usize;
    for pick in &out {
        let (path, source_name) = (&pick.path, &pick.source_name);
        let at_clip = |err: bake::Error| JobError::at(pick.pos, format!("{path}: animation {source_name:?}: {err}"));
        source_keys += bake::clip_source_keys(&cache[path].scene.clips[pick.index], &settings).map_err(at_clip)?;
        if source_keys > bake::MAX_BANK_SOURCE_KEYS {
            return Err(JobError::at(
                pick.pos,
                format!("bank {:?}: with {path} animation {source_name:?} the clips have (or make, resampled at {} Hz) {source_keys} keys before reduction, more than the {} a bank may; lower `resample_hz` or take fewer animations", b.id.value, settings.resample_hz, bake::MAX_BANK_SOURCE_KEYS),
            ));
        }
    }
    Ok(out)
}

/// A bank's clip settings, from its entry.
fn clip_settings(b: &BankEntry) -> ClipSettings {
    ClipSettings {
        resample_hz: b.resample_hz.value,
        resample_all: b.resample.value == Resample::All,
        tolerance: b.tolerance.as_ref().map(|t| t.value),
    }
}

/// A bank's clips compiled with its settings, each clip's skin error
/// measured at `radius` (per node name, the farthest skinned vertex of
/// the models bound to the bank), and what to report of each.
/// A bank as compiled, with its report and what it said, kept in the
/// build's memo (`kiln watch`).
#[derive(Clone)]
struct CompiledBank {
    bank: kchr::Bank,
    report: Vec<ClipReport>,
    warnings: Vec<String>,
    notes: Vec<String>,
}

fn compile_bank(
    io: &mut JobIo,
    cache: &mut BTreeMap<RelPath, Source>,
    b: &BankEntry,
    picks: &[Pick],
    radius: &BTreeMap<String, f64>,
) -> Result<(kchr::Bank, Vec<ClipReport>), JobError> {
    // What it is made from: its entry, its picks, the files read to import
    // their sources (with their hashes), the skin radius of its models.
    let mut read: Vec<RelPath> = Vec::new();
    for pick in picks {
        for p in &cache[&pick.path].read {
            if !read.contains(p) {
                read.push(p.clone());
            }
        }
    }
    let picked: Vec<_> = picks.iter().map(|p| (&p.path, p.index, &p.source_name, &p.name)).collect();
    let hashes: Vec<_> = read.iter().map(|p| (p, io.read_hash(p))).collect();
    let key = memo_key("bank", b, format_args!("{picked:?}\n{hashes:?}\n{radius:?}"));
    let compiled = match io.memo_get::<CompiledBank>(&key, b.id.pos)? {
        Some(kept) => kept,
        None => {
            let mark = io.reads_mark();
            let compiled = std::sync::Arc::new(compile_bank_here(cache, b, picks, radius)?);
            let bytes = compiled.bank.clips.iter().flat_map(|c| &c.tracks).map(|t| 8 * t.values.len() + 64).sum();
            io.memo_put(key, (mark, &read), compiled.clone(), bytes);
            compiled
        }
    };
    let compiled = owned(compiled);
    for w in compiled.warnings {
        io.warn(w);
    }
    for n in compiled.notes {
        io.note(n);
    }
    Ok((compiled.bank, compiled.report))
}

/// [`compile_bank`] without the memo.
fn compile_bank_here(
    cache: &BTreeMap<RelPath, Source>,
    b: &BankEntry,
    picks: &[Pick],
    radius: &BTreeMap<String, f64>,
) -> Result<CompiledBank, JobError> {
    let (mut warnings, mut notes) = (Vec::new(), Vec::new());
    let settings = clip_settings(b);
    let mut clips: Vec<kchr::Clip> = Vec::new();
    let mut report: Vec<ClipReport> = Vec::new();
    let mut dropped = (0, 0);
    for pick in picks {
        let (path, source_name, name) = (&pick.path, &pick.source_name, &pick.name);
        let src = &cache[path];
        let at_clip = |err: bake::Error| JobError::at(pick.pos, format!("{path}: animation {source_name:?}: {err}"));
        let clip = &src.scene.clips[pick.index];
        // (`pick_clips` bounded the bank's keys before any was made.)
        let kept: usize = report.iter().map(|r| r.keys).sum();
        let skin: Vec<f64> = src.names.iter().map(|n| radius.get(n).copied().unwrap_or(0.0)).collect();
        let compiled = bake::clip(&src.scene, &src.names, clip, &settings, &skin, kchr::MAX_KEYS - kept.min(kchr::MAX_KEYS))
            .map_err(at_clip)?;
        for w in &compiled.warnings {
            warnings.push(format!("bank {:?}, clip {name:?} ({path}): {w}", b.id.value));
        }
        if compiled.dropped_weights > 0 {
            dropped = (dropped.0 + 1, dropped.1 + compiled.dropped_weights);
        }
        let after: usize = compiled.clip.tracks.iter().map(|t| t.keys()).sum();
        notes.push(format!(
            "bank {:?}, clip {name:?}: {} keys, {after} kept; the skin stays within {} of the source",
            b.id.value,
            compiled.keys_before,
            bake::millimetres(compiled.worst_m)
        ));
        report.push(ClipReport {
            name: name.clone(),
            source: path.to_string(),
            keys_source: compiled.keys_before,
            keys: after,
            worst_m: compiled.worst_m,
        });
        clips.push(kchr::Clip { name: name.clone(), ..compiled.clip });
    }
    if dropped.0 > 0 {
        warnings.push(format!(
            "bank {:?}: {} morph weight channels of {} clips left out (a compiled character has no morph targets)",
            b.id.value, dropped.1, dropped.0
        ));
    }
    // `bake::clip` held the bank to `kchr::MAX_KEYS` as it went.
    Ok(CompiledBank {
        bank: kchr::Bank {
            id: b.id.value.clone(),
            clips,
        },
        report,
        warnings,
        notes,
    })
}

/// A model as compiled, kept in the build's memo (`kiln watch`): a level
/// rebuilt because one model's source changed takes the others from there.
#[derive(Clone)]
struct Compiled {
    model: kchr::Model,
    /// Its atlas's regions, for `level.json`.
    regions: Vec<AtlasRegion>,
    warnings: Vec<String>,
    /// Texels its images hold (the level's sum is bounded).
    texels: u64,
}

/// A memo key: the kind's version, what the part is (`model`, `bank`), its
/// entry as its settings say (not where the manifest writes them), and the
/// rest it is made from but the files read after the mark, as text.
fn memo_key(what: &str, entry: &impl Serialize, rest: std::fmt::Arguments) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let entry = serde_json::to_string(entry).unwrap_or_default();
    let mut h = Sha256::new();
    h.update(format!("kiln characters {what} v{VERSION}\n{entry}\n{rest}"));
    h.finalize().into()
}

/// The part itself: taken from its `Arc` when the memo did not keep it,
/// else a copy.
fn owned<T: Clone>(part: std::sync::Arc<T>) -> T {
    std::sync::Arc::try_unwrap(part).unwrap_or_else(|kept| (*kept).clone())
}

/// Adds a model's texels to the level's, failing past the level's bound.
fn add_texels(texels: &mut u64, more: u64, m: &ModelEntry, path: &RelPath) -> Result<(), JobError> {
    *texels = texels.saturating_add(more);
    if *texels > atlas::MAX_LEVEL_TEXELS {
        return Err(JobError::at(
            m.source.pos,
            format!(
                "model {:?}: {path}: with its images the level's models show {} texels, more than the {} a level's images may hold together; make them smaller",
                m.id.value,
                *texels,
                atlas::MAX_LEVEL_TEXELS
            ),
        ));
    }
    Ok(())
}

fn compile_model(
    io: &mut JobIo,
    cache: &mut BTreeMap<RelPath, Source>,
    e: &Entry,
    m: &ModelEntry,
    animated: &[BTreeSet<String>],
    texels: &mut u64,
) -> Result<(kchr::Model, Vec<AtlasRegion>), JobError> {
    let b = e
        .banks
        .value
        .iter()
        .position(|b| b.value.id.value == m.bank.value)
        .ok_or_else(|| JobError::at(m.bank.pos, "planning checked the bank"))?;
    let (path, src) = load(io, cache, &m.source)?;
    let read = src.read.clone();
    // Its bank's place and animated nodes, and the files read to import its
    // source, each with the hash this job read it with.
    let source: Vec<_> = read.iter().map(|p| (p, io.read_hash(p))).collect();
    let key = memo_key("model", m, format_args!("{b}\n{:?}\n{source:?}", animated[b]));
    if let Some(kept) = io.memo_get::<Compiled>(&key, m.source.pos)? {
        add_texels(texels, kept.texels, m, &path)?;
        for w in &kept.warnings {
            io.warn(w.clone());
        }
        return Ok((kept.model.clone(), kept.regions.clone()));
    }
    let mark = io.reads_mark();
    let compiled = std::sync::Arc::new(compile_model_here(io, cache, (m, b), &animated[b], texels)?);
    let model = &compiled.model;
    let bytes = model.vertices.len() * 64 + model.indices.len() * 2 + model.image.qoi.len() + model.nodes.len() * 128;
    io.memo_put(key, (mark, &read), compiled.clone(), bytes);
    let compiled = owned(compiled);
    for w in compiled.warnings {
        io.warn(w);
    }
    Ok((compiled.model, compiled.regions))
}

/// [`compile_model`] without the memo: the model, its warnings and the
/// texels its images hold (added to the level's `texels`).
fn compile_model_here(
    io: &mut JobIo,
    cache: &mut BTreeMap<RelPath, Source>,
    (m, b): (&ModelEntry, usize),
    animated: &BTreeSet<String>,
    texels: &mut u64,
) -> Result<Compiled, JobError> {
    let (path, src) = load(io, cache, &m.source)?;
    let at_source = |err: String| JobError::at(m.source.pos, format!("model {:?}: {path}: {err}", m.id.value));
    let skin = m
        .skin
        .as_ref()
        .map(|s| usize::try_from(s.value).unwrap_or(usize::MAX));
    let (sel, warnings) = bake::select(&src.scene, skin).map_err(|err| {
        let pos = m.skin.as_ref().map_or(m.source.pos, |s| s.pos);
        JobError::at(pos, format!("model {:?}: {path}: {err}", m.id.value))
    })?;
    let json = src.json.take();
    let meshes = sources::import_meshes(io, &path, m.source.pos, &src.file, json, Some(&sel.meshes))?;
    let prims = bake::primitives(&src.scene, &sel, &meshes);
    let settings = m.atlas.as_ref().map_or(atlas::Settings::default(), |a| a.value);
    let shown = atlas::shown_texels(&meshes, &prims, &sources::IMAGES);
    add_texels(texels, shown, m, &path)?;
    let atlas = atlas::material_stage(&meshes, &prims, &settings, &sources::IMAGES).map_err(|err| {
        let pos = m.atlas.as_ref().map_or(m.source.pos, |a| a.pos);
        JobError::at(pos, format!("model {:?}: {path}: {err}", m.id.value))
    })?;
    let map = m.node_map.as_ref().map_or(NodeMap::default(), |n| NodeMap {
        ignore: n.value.ignore.clone(),
        pairs: n.value.pairs.clone(),
    });
    let (names, animated) = bake::bind(&src.names, &m.bank.value, animated, &map).map_err(|err| {
        let pos = m.node_map.as_ref().map_or(m.bank.pos, |n| n.pos);
        JobError::at(pos, format!("model {:?} ({path}): {err}", m.id.value))
    })?;
    let compiled = bake::model(&src.scene, &names, &sel, &meshes, &atlas, &animated)
        .map_err(|err| at_source(err.0))?;
    let warnings = warnings
        .iter()
        .chain(&atlas.warnings)
        .chain(&compiled.warnings)
        .map(|w| format!("model {:?} ({path}): {w}", m.id.value))
        .collect();
    let regions = atlas
        .regions
        .iter()
        .map(|r| AtlasRegion {
            rect: r.rect,
            materials: r.materials.clone(),
        })
        .collect();
    Ok(Compiled {
        model: kchr::Model {
            id: m.id.value.clone(),
            bank: b as u32,
            ..compiled.model
        },
        regions,
        warnings,
        texels: shown,
    })
}
