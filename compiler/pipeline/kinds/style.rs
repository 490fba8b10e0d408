//! Kind `style`: a set of MotionBricks styles (`.mbstyle` v1) from the
//! upstream clip file, under `styles/<id>/` (manifest section `styles`):
//! one `<name>.mbstyle` per row of the table, and the set's
//! `manifest.json` (the index: committed last).
//!
//! run: open the clip file -> read its header -> SHA-256 of the whole file
//! (the pin checked before any output) -> per style: read its clip's frame
//! count and four arrays by offset -> build and check the style
//! (`bake::style`) -> encode (`formats::mbstyle`) -> write; the set's
//! manifest last.

use std::collections::BTreeSet;
use std::io::Write;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::model_bundle::{Pins, open_safetensors};
use crate::bake::style::{self as bake, Row, SetEntry};
use crate::formats::{hex, mbstyle};
use crate::pipeline::job::{JobError, JobIo, Outputs};
use crate::pipeline::manifest::At;
use crate::pipeline::paths::RelPath;
use crate::pipeline::plan::Planner;

pub const KIND: &str = "style";

/// Bump whenever the bytes this kind writes for the same inputs and
/// settings would change.
pub const VERSION: u32 = 1;

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
    RelPath::parse(&format!("styles/{id}/{name}"))
}

/// A style name is a file name: letters, digits, `_`, `-`, `.`, not
/// starting with `.`, at most [`mbstyle::MAX_NAME_BYTES`].
fn check_name(name: &str) -> Result<(), String> {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    if name.is_empty() || name.starts_with('.') || !plain || name.len() > mbstyle::MAX_NAME_BYTES
    {
        return Err(format!(
            "style name {name:?} must be 1 to {} letters, digits, `_`, `-` or `.`, not starting with `.` (it names the file)",
            mbstyle::MAX_NAME_BYTES
        ));
    }
    if name == "manifest" {
        return Err("style name \"manifest\" is taken by the set's manifest.json".into());
    }
    Ok(())
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
    let lower = e.source.value.to_ascii_lowercase();
    if lower.ends_with(".glb") || lower.ends_with(".gltf") {
        p.fail(
            e.source.pos,
            "styles from a G1 animation in a GLB are not supported yet; give the upstream clip file (.safetensors) with a table",
        );
        return None;
    }
    p.input(&e.source, "source");
    let Some(table) = &e.table else {
        p.fail(
            e.source.pos,
            "a clip file needs `table:` (motionbricks-g1, or a list of {clip, name, speed, tokens})",
        );
        return None;
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
            let [a, b] = v.tokens;
            if !(mbstyle::MIN_TOKENS <= a && a <= b && b <= mbstyle::MAX_TOKENS) {
                p.fail(
                    r.pos,
                    format!(
                        "tokens must be [min, max] with {} <= min <= max <= {}, found [{a}, {b}]",
                        mbstyle::MIN_TOKENS,
                        mbstyle::MAX_TOKENS
                    ),
                );
            }
        }
    }
    let id = &e.id.value;
    let mut files: Vec<RelPath> = rows_of(&table.value)
        .iter()
        .filter_map(|r| output(id, &bake::file_name(&r.name)).ok())
        .collect();
    let index = output(id, "manifest.json").ok()?;
    files.push(index.clone());
    Some(Outputs {
        files,
        index: Some(index),
    })
}

pub fn run(e: &Entry, io: &mut JobIo) -> Result<(), JobError> {
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
    let data = c.header.data_start();
    let mut entries = Vec::with_capacity(rows.len());
    for row in &rows {
        let (at, n) = file.count_range(row.clip);
        let mut count = vec![0; n];
        c.input.read_exact_at(data + at, &mut count)?;
        let frames = file.frames(row.clip, &count).map_err(blame_source)?;
        let mut arrays: [Vec<u8>; 4] = Default::default();
        for (a, buf) in arrays.iter_mut().enumerate() {
            let (at, n) = file.array_range(a, row.clip, frames);
            buf.resize(n, 0);
            c.input.read_exact_at(data + at, buf)?;
        }
        let style = bake::style_of(row, arrays.each_ref().map(|a| a.as_slice()), official, &sha)
            .map_err(blame_source)?;
        let bytes = mbstyle::encode(&style)
            .map_err(|err| JobError::at(e.source.pos, format!("style {:?}: {err}", row.name)))?;
        let path = output(&e.id.value, &bake::file_name(&row.name)).map_err(JobError::job)?;
        let mut out = io.create(&path)?;
        out.write_all(&bytes)
            .map_err(|err| JobError::job(format!("{path}: {err}")))?;
        let (_, out_sha) = io.close(out)?;
        entries.push(SetEntry {
            name: row.name.clone(),
            sha256: hex(&out_sha),
            parameter_count: style.parameter_count(),
        });
    }
    io.finish(c.input)?;
    let index = output(&e.id.value, "manifest.json").map_err(JobError::job)?;
    io.write(&index, bake::set_manifest(&entries).as_bytes())
}
