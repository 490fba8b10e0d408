//! Kind `style`: a set of MotionBricks styles (`.mbstyle` v1) under
//! `styles/<id>/` (manifest section `styles`), from the upstream clip file
//! (one `<name>.mbstyle` per row of the table) or from a G1 animation in a
//! glTF file (one style); the set's `manifest.json` is the index,
//! committed last.
//!
//! run, clip file: open it -> read its header -> SHA-256 of the whole file
//! (the pin checked before any output) -> per style: read its clip's frame
//! count and four arrays by offset -> build and check the style
//! (`bake::style`) -> encode (`formats::mbstyle`) -> write; the set's
//! manifest last.
//! run, glTF: read -> import the scene -> match the 34 G1 joints -> sample
//! at 30 fps by forward kinematics (`bake::style::style_from_clip`) ->
//! encode -> write; the manifest last.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::model_bundle::Pins;
use super::pose_cache::Animation;
use crate::bake::style::{self as bake, Row, SetEntry};
use crate::formats::{hex, mbstyle};
use crate::pipeline::job::{JobError, JobIo, Outputs};
use crate::pipeline::manifest::At;
use crate::pipeline::paths::RelPath;
use crate::pipeline::planner::{self, Planner};
use crate::pipeline::sources::{self, open_safetensors};

pub const KIND: &str = "style";

/// When to bump it: ARCHITECTURE.md, "A kind's `VERSION` changes".
/// 2: LINEAR rotations are slerped at a constant rate however close the
/// keys (a normalized lerp was used within 1.8° of each other).
pub const VERSION: u32 = 2;
/// The folder of the output folder its jobs write under.
pub const FOLDER: &str = "styles";

/// Largest clip file: 16 GiB (the official one holds 15 clips).
pub const MAX_CLIP_FILE_BYTES: u64 = 16 << 30;

/// One `styles` entry. Documented key by key in docs/manifest.md.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Names the output folder, `styles/<id>/`.
    pub id: At<String>,
    /// The clip file (`.safetensors`), relative to the project root.
    pub source: At<String>,
    /// `motionbricks-g1` (the official 15 styles) or a list of rows
    /// `{clip, name, speed, tokens: [min, max]}`. Required.
    #[serde(default)]
    pub table: Option<At<Table>>,
    /// With `table: motionbricks-g1`: `enforce` (the default: a clip file
    /// whose SHA-256 is not the official one is refused) or `record`.
    #[serde(default)]
    pub pins: Option<At<Pins>>,
    /// glTF: the animation, by name or index. Required.
    #[serde(default)]
    pub animation: Option<At<Animation>>,
    /// glTF: the style's name (and file name). Required.
    #[serde(default)]
    pub name: Option<At<String>>,
    /// glTF: intended speed in m/s. Default: measured, the clip's average
    /// horizontal root speed (the build says so).
    #[serde(default)]
    pub speed: Option<At<f32>>,
    /// glTF: allowed plan lengths `[min, max]` in tokens, within 6..16.
    /// Required.
    #[serde(default)]
    pub tokens: Option<At<[u32; 2]>>,
    /// glTF: G1 joint name -> the rig's node name, for joints the rig names
    /// otherwise. Default: every joint under its G1 name.
    #[serde(default)]
    pub joints: Option<At<BTreeMap<String, String>>>,
}

fn is_gltf(source: &str) -> bool {
    let lower = source.to_ascii_lowercase();
    lower.ends_with(".glb") || lower.ends_with(".gltf")
}

/// Which clips become styles.
#[derive(Clone, Debug, PartialEq)]
pub enum Table {
    /// The official 15, with upstream's heading corrections.
    MotionbricksG1,
    Rows(Vec<At<RowEntry>>),
}

/// A row of a table written in the manifest.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RowEntry {
    /// The clip's index in the file.
    pub clip: u64,
    /// The style's name and file name (`<name>.mbstyle`).
    pub name: String,
    /// Intended speed in m/s, 0 or more (0: idle).
    pub speed: f32,
    /// Allowed plan lengths in tokens, `[min, max]` within 6..16.
    pub tokens: [u32; 2],
}

const OFFICIAL: &str = "motionbricks-g1";

impl Serialize for Table {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Table::MotionbricksG1 => s.serialize_str(OFFICIAL),
            Table::Rows(rows) => rows.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Table {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Table, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Table;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`motionbricks-g1` or a list of {clip, name, speed, tokens}")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Table, E> {
                if s == OFFICIAL {
                    Ok(Table::MotionbricksG1)
                } else {
                    Err(E::custom(format!(
                        "unknown table {s:?}: `motionbricks-g1`, or a list of {{clip, name, speed, tokens}}"
                    )))
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Table, A::Error> {
                let mut rows = Vec::new();
                while let Some(row) = seq.next_element()? {
                    rows.push(row);
                }
                Ok(Table::Rows(rows))
            }
        }
        d.deserialize_any(V)
    }
}

fn output(id: &str, name: &str) -> Result<RelPath, String> {
    RelPath::parse(&format!("{FOLDER}/{id}/{name}"))
}

/// A style name is its file's name (the rule of job ids, whose limit is
/// also [`mbstyle::MAX_NAME_BYTES`]).
const _: () = assert!(mbstyle::MAX_NAME_BYTES == planner::MAX_ID_BYTES);

fn check_name(name: &str) -> Result<(), String> {
    planner::check_file_name("style name", name)?;
    if name == "manifest" {
        return Err("style name \"manifest\" is taken by the set's manifest.json".into());
    }
    Ok(())
}

/// The style names the entry makes.
fn names_of(e: &Entry) -> Vec<String> {
    match (&e.table, &e.name) {
        (Some(t), _) => rows_of(&t.value).into_iter().map(|r| r.name).collect(),
        (None, Some(n)) => vec![n.value.clone()],
        (None, None) => Vec::new(),
    }
}

/// The rows of the table, as the baker takes them (planning checked them).
fn rows_of(table: &Table) -> Vec<Row> {
    match table {
        Table::MotionbricksG1 => bake::official_rows(),
        Table::Rows(rows) => rows
            .iter()
            .enumerate()
            .map(|(i, r)| Row {
                clip: usize::try_from(r.value.clip).unwrap_or(usize::MAX),
                name: r.value.name.clone(),
                speed: r.value.speed,
                allowed_tokens: mbstyle::mask(r.value.tokens[0], r.value.tokens[1]),
                index: i as u32,
            })
            .collect(),
    }
}

/// Checks everything that can be checked without running; the outputs.
pub fn plan(e: &Entry, p: &mut Planner) -> Option<Outputs> {
    p.check_id(&e.id);
    p.input(&e.source, "source");
    if is_gltf(&e.source.value) {
        plan_gltf(e, p);
    } else {
        plan_clips(e, p);
    }
    let id = &e.id.value;
    let mut files: Vec<RelPath> = names_of(e)
        .iter()
        .filter_map(|name| output(id, &bake::file_name(name)).ok())
        .collect();
    let index = output(id, "manifest.json").ok()?;
    files.push(index.clone());
    Some(Outputs {
        files,
        index: Some(index),
    })
}

/// A style from a G1 animation: its settings, and none of the clip file's.
fn plan_gltf(e: &Entry, p: &mut Planner) {
    for (key, pos) in [
        ("table", e.table.as_ref().map(|t| t.pos)),
        ("pins", e.pins.as_ref().map(|t| t.pos)),
    ] {
        if let Some(pos) = pos {
            p.fail(pos, format!("{key} is for a clip file (.safetensors); a glTF source makes one style from `animation`"));
        }
    }
    if e.animation.is_none() {
        p.fail(e.source.pos, "a glTF source needs `animation` (a name, or an index)");
    }
    match &e.name {
        None => p.fail(e.source.pos, "a glTF source needs `name` (the style's name)"),
        Some(n) => {
            if let Err(m) = check_name(&n.value) {
                p.fail(n.pos, m);
            }
        }
    }
    if let Some(s) = &e.speed
        && !(s.value.is_finite() && s.value >= 0.0)
    {
        p.fail(s.pos, format!("speed must be 0 or a positive number of m/s, found {}", s.value));
    }
    match &e.tokens {
        None => p.fail(e.source.pos, "a glTF source needs `tokens: [min, max]` (plan lengths within 6..16)"),
        Some(t) => check_tokens(p, t.pos, t.value),
    }
}

fn check_tokens(p: &mut Planner, pos: crate::pipeline::manifest::Pos, [a, b]: [u32; 2]) {
    if !(mbstyle::MIN_TOKENS <= a && a <= b && b <= mbstyle::MAX_TOKENS) {
        p.fail(
            pos,
            format!(
                "tokens must be [min, max] with {} <= min <= max <= {}, found [{a}, {b}]",
                mbstyle::MIN_TOKENS,
                mbstyle::MAX_TOKENS
            ),
        );
    }
}

/// Styles from the clip file: a table, and none of the glTF settings.
fn plan_clips(e: &Entry, p: &mut Planner) {
    for (key, pos) in [
        ("animation", e.animation.as_ref().map(|t| t.pos)),
        ("name", e.name.as_ref().map(|t| t.pos)),
        ("speed", e.speed.as_ref().map(|t| t.pos)),
        ("tokens", e.tokens.as_ref().map(|t| t.pos)),
        ("joints", e.joints.as_ref().map(|t| t.pos)),
    ] {
        if let Some(pos) = pos {
            p.fail(pos, format!("{key} is for a glTF source; a clip file's styles are named by `table`"));
        }
    }
    let Some(table) = &e.table else {
        p.fail(
            e.source.pos,
            "a clip file needs `table:` (motionbricks-g1, or a list of {clip, name, speed, tokens})",
        );
        return;
    };
    if let (Some(pins), Table::Rows(_)) = (&e.pins, &table.value) {
        p.fail(
            pins.pos,
            "pins is for `table: motionbricks-g1` (the official clip file's pin)",
        );
    }
    let mut names = BTreeSet::new();
    if let Table::Rows(rows) = &table.value {
        if rows.is_empty() {
            p.fail(table.pos, "the table has no row");
        }
        for r in rows {
            let v = &r.value;
            if let Err(m) = check_name(&v.name) {
                p.fail(r.pos, m);
            }
            if !names.insert(v.name.clone()) {
                p.fail(r.pos, format!("style name {:?} appears twice in the table", v.name));
            }
            if !(v.speed.is_finite() && v.speed >= 0.0) {
                p.fail(r.pos, format!("speed must be 0 or a positive number of m/s, found {}", v.speed));
            }
            check_tokens(p, r.pos, v.tokens);
        }
    }
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    if is_gltf(&e.source.value) {
        return run_gltf(e, io);
    }
    let table = e
        .table
        .as_ref()
        .ok_or_else(|| JobError::at(e.source.pos, "no table"))?;
    let source = RelPath::parse(&e.source.value).map_err(|m| JobError::at(e.source.pos, m))?;
    let mut c = open_safetensors(io, &source, e.source.pos, MAX_CLIP_FILE_BYTES)?;
    let sha = hex(&c.input.sha256()?);
    let official = table.value == Table::MotionbricksG1;
    if official && sha != bake::CLIPS_PIN {
        if e.pins.as_ref().is_none_or(|p| p.value == Pins::Enforce) {
            return Err(JobError::at(
                e.source.pos,
                format!(
                    "{source}: SHA-256 {sha} is not the official clip file's {} (pins: enforce); for other clips set `pins: record`",
                    bake::CLIPS_PIN
                ),
            ));
        }
        io.warn(format!(
            "{source} is not the official clip file (SHA-256 {sha}); the runtime's pin for styles will not match"
        ));
    }
    let blame_source = |err: bake::Error| JobError::at(e.source.pos, format!("{source}: {err}"));
    let file = bake::clip_file(&c.header).map_err(blame_source)?;
    let rows = rows_of(&table.value);
    bake::check_rows(&rows, &file).map_err(|err| JobError::at(table.pos, format!("{source}: {err}")))?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in &rows {
        let (at, n) = file.count_range(row.clip);
        let mut count = vec![0; n];
        c.input.read_exact_at(at, &mut count)?;
        let frames = file.frames(row.clip, &count).map_err(blame_source)?;
        let mut arrays: [Vec<u8>; 4] = Default::default();
        for (a, buf) in arrays.iter_mut().enumerate() {
            let (at, n) = file.array_range(a, row.clip, frames);
            buf.resize(n, 0);
            c.input.read_exact_at(at, buf)?;
        }
        let style = bake::style_of(row, &file, arrays.each_ref().map(|a| a.as_slice()), official, &sha)
            .map_err(blame_source)?;
        entries.push(write_style(e, io, &style)?);
    }
    io.finish(c.input)?;
    let index = output(&e.id.value, "manifest.json").map_err(JobError::job)?;
    io.write(&index, bake::set_manifest(&entries).as_bytes())
}

fn run_gltf(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
    use crate::bake::pose_cache as poses;
    let at_source = |m: String| JobError::at(e.source.pos, m);
    let source = RelPath::parse(&e.source.value).map_err(at_source)?;
    let (file, doc) = sources::read_gltf(io, &source, e.source.pos, true)?;
    let sha = hex(&file.sha256.expect("asked for"));
    let scene = sources::import_gltf(io, &source, e.source.pos, &file, doc)?;
    let (Some(animation), Some(name), Some(tokens)) = (&e.animation, &e.name, &e.tokens) else {
        return Err(at_source("planning checked the glTF settings".into()));
    };
    let clip = poses::select_clip(&scene, &animation.value.clip_ref())
        .map_err(|err| JobError::at(animation.pos, format!("{source}: {err}")))?;
    let settings = bake::GltfStyle {
        name: name.value.clone(),
        speed: e.speed.as_ref().map(|s| s.value),
        allowed_tokens: mbstyle::mask(tokens.value[0], tokens.value[1]),
        joint_names: e.joints.as_ref().map(|j| j.value.clone()).unwrap_or_default(),
        source_sha256: sha,
    };
    let (style, measured) = bake::style_from_clip(&scene, clip, &settings, 0).map_err(|err| {
        let pos = match (&err, &e.joints) {
            (bake::GltfError::UnknownJoint { .. } | bake::GltfError::AmbiguousJoint { .. }, Some(j)) => j.pos,
            (bake::GltfError::Frames { .. }, _) => animation.pos,
            _ => e.source.pos,
        };
        JobError::at(pos, format!("{source}: {err}"))
    })?;
    if measured {
        io.warn(format!(
            "style {:?}: speed {:.3} m/s measured (the clip's average horizontal root speed); set `speed:` to choose it",
            style.name, style.speed
        ));
    }
    let entry = write_style(e, io, &style)?;
    let index = output(&e.id.value, "manifest.json").map_err(JobError::job)?;
    io.write(&index, bake::set_manifest(&[entry]).as_bytes())
}

/// Encodes and writes one style; its line of the set's manifest.
fn write_style(e: &Entry, io: &mut JobIo, style: &mbstyle::Style) -> Result<SetEntry, JobError> {
    let bytes = mbstyle::encode(style)
        .map_err(|err| JobError::at(e.source.pos, format!("style {:?}: {err}", style.name)))?;
    let path = output(&e.id.value, &bake::file_name(&style.name)).map_err(JobError::job)?;
    let mut out = io.create(&path)?;
    out.write_all(&bytes)
        .map_err(|err| JobError::job(format!("{path}: {err}")))?;
    let (_, sha) = io.close(out)?;
    Ok(SetEntry {
        name: style.name.clone(),
        sha256: hex(&sha),
        parameter_count: style.parameter_count(),
    })
}
