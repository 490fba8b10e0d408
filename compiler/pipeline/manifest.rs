//! Manifests: YAML files that say what to build.
//!
//! Parsed with serde-saphyr (see ARCHITECTURE.md for why): unknown keys are
//! errors, and every value keeps the line and column it came from, so an
//! error found after parsing (a missing source, a clip that does not exist)
//! still points at the manifest. The schema is documented key by key in
//! `docs/manifest.md`; `tests/manifest_docs.rs` keeps the two in step via
//! [`KEYS`].

use serde::Deserialize;
use serde_saphyr::Spanned;

use super::wire::{Reader, Writer};

/// Largest manifest kiln reads: 16 MiB of YAML is about 100,000 jobs of
/// five keys (`tests/manifest_limits.rs` parses 50,000).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// YAML nodes (mappings, sequences and scalars) a manifest may hold: a job
/// of five keys is 11 nodes and about 150 bytes, so `MAX_MANIFEST_BYTES`
/// of such jobs is about 1.2 million nodes. Only jobs squeezed into flow
/// style (`- {id: a, source: b, animation: 0, rate_hz: 1}`) reach this.
pub const MAX_YAML_NODES: usize = 2_000_000;
/// YAML aliases (`*name`, including `<<: *defaults` merges) a manifest
/// may use: one per job for 200,000 jobs.
pub const MAX_YAML_ALIASES: usize = 200_000;
/// Events all aliases together may replay (what expanding them costs): as
/// many as the nodes a manifest may hold, so an alias bomb stops there.
pub const MAX_YAML_REPLAYED_EVENTS: usize = MAX_YAML_NODES;
/// Nesting depth of mappings and sequences: a manifest needs four (the
/// schema refuses deeper ones before this is reached).
pub const MAX_YAML_DEPTH: usize = 64;

/// Every key of the schema, as `section.key`, for the documentation test.
pub const KEYS: &[&str] = &[
    "pose_caches",
    "pose_caches.id",
    "pose_caches.source",
    "pose_caches.animation",
    "pose_caches.rate_hz",
    "pose_caches.entities",
    "pose_caches.shape",
    "pose_caches.size",
    "pose_caches.dimensions",
    "pose_caches.start_step",
    "pose_caches.label",
    "pose_caches.replay",
];

/// A position in a manifest: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
}

/// A value and where the manifest stated it.
#[derive(Clone, Debug, PartialEq)]
pub struct At<T> {
    pub value: T,
    pub pos: Pos,
}

/// One manifest, parsed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    pub pose_caches: Vec<PoseCacheEntry>,
}

/// How `animation:` names a clip.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum AnimationKey {
    Index(u64),
    Name(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntitiesKey {
    Joints,
    Nodes,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShapeKey {
    Point,
    Sphere,
    Box,
    Capsule,
}

/// One `pose_caches` entry, as written (defaults not yet applied).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseCacheEntry {
    pub pos: Pos,
    pub id: At<String>,
    pub source: At<String>,
    pub animation: At<AnimationKey>,
    pub rate_hz: At<f64>,
    pub entities: Option<At<EntitiesKey>>,
    pub shape: Option<At<ShapeKey>>,
    pub size: Option<At<[f32; 3]>>,
    pub dimensions: Option<At<u8>>,
    pub start_step: Option<At<i64>>,
    pub label: Option<At<String>>,
    pub replay: Option<At<String>>,
}

/// A manifest that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub message: String,
}

/// Parses one manifest's text.
pub fn parse(text: &str) -> Result<Manifest, ParseError> {
    if text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l == "---"
    }) {
        return Ok(Manifest::default());
    }
    let raw: RawManifest =
        serde_saphyr::from_str_with_options(text, yaml_options()).map_err(|e| {
            let pos = e.location().map(pos_of).unwrap_or_default();
            ParseError {
                pos,
                message: describe_error(&e),
            }
        })?;
    Ok(Manifest {
        pose_caches: raw
            .pose_caches
            .into_iter()
            .map(PoseCacheEntry::from)
            .collect(),
    })
}

/// serde-saphyr's options with kiln's budgets (see the `MAX_YAML_*`
/// constants).
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_YAML_NODES;
    budget.max_events = 2 * MAX_YAML_NODES;
    budget.max_aliases = MAX_YAML_ALIASES;
    budget.max_merge_keys = MAX_YAML_ALIASES;
    budget.max_depth = MAX_YAML_DEPTH;
    // The replay limit bounds alias expansion; a ratio of aliases to
    // anchors would refuse a plain `<<: *defaults` in every job.
    budget.enforce_alias_anchor_ratio = false;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = MAX_YAML_REPLAYED_EVENTS;
    options
}

/// A parse error in plain words: a budget breach says which limit and its
/// number; anything else is serde-saphyr's sentence.
fn describe_error(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error;
    use serde_saphyr::budget::BudgetBreach as B;
    let mut inner = e;
    while let Error::AliasError { error, .. } | Error::WithSnippet { error, .. } = inner {
        inner = error;
    }
    let too_large =
        |what: String| format!("manifest too large: {what}; split it into several manifests");
    match inner {
        Error::Budget { breach, .. } => match breach {
            B::Nodes { .. } => too_large(format!("more than {MAX_YAML_NODES} YAML nodes")),
            B::Events { .. } => too_large(format!("more than {} YAML events", 2 * MAX_YAML_NODES)),
            B::Aliases { .. } => too_large(format!("more than {MAX_YAML_ALIASES} YAML aliases")),
            B::MergeKeys { .. } => {
                too_large(format!("more than {MAX_YAML_ALIASES} YAML merge keys (<<)"))
            }
            B::Depth { .. } => format!(
                "manifest nested too deeply: more than {MAX_YAML_DEPTH} levels of mappings and sequences"
            ),
            B::Anchors { .. } => too_large("too many YAML anchors (&name)".into()),
            B::Documents { .. } => too_large("too many YAML documents (---)".into()),
            B::ScalarBytes { .. } => too_large("too many bytes of text values".into()),
            _ => too_large("it exceeds one of kiln's YAML limits".into()),
        },
        Error::AliasReplayLimitExceeded { .. } | Error::AliasExpansionLimitExceeded { .. } => {
            too_large(format!(
                "its aliases expand to more than {MAX_YAML_REPLAYED_EVENTS} YAML events"
            ))
        }
        Error::AliasReplayStackDepthExceeded { max_depth, .. } => {
            format!("manifest aliases nested too deeply: more than {max_depth} levels")
        }
        _ => first_line(&e.without_snippet().to_string()),
    }
}

fn first_line(message: &str) -> String {
    // serde-saphyr's message may carry its own location suffix; keep the
    // sentence, we print the position ourselves.
    let line = message.lines().next().unwrap_or("").trim();
    match line.find(" at line ") {
        Some(i) => line[..i].to_string(),
        None => line.to_string(),
    }
}

fn pos_of(loc: serde_saphyr::Location) -> Pos {
    Pos {
        line: loc.line(),
        column: loc.column(),
    }
}

fn at<T>(s: Spanned<T>) -> At<T> {
    At {
        value: s.value,
        pos: pos_of(s.referenced),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    pose_caches: Vec<Spanned<RawPoseCache>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPoseCache {
    id: Spanned<String>,
    source: Spanned<String>,
    animation: Spanned<AnimationKey>,
    rate_hz: Spanned<f64>,
    #[serde(default)]
    entities: Option<Spanned<EntitiesKey>>,
    #[serde(default)]
    shape: Option<Spanned<ShapeKey>>,
    #[serde(default)]
    size: Option<Spanned<[f32; 3]>>,
    #[serde(default)]
    dimensions: Option<Spanned<u8>>,
    #[serde(default)]
    start_step: Option<Spanned<i64>>,
    #[serde(default)]
    label: Option<Spanned<String>>,
    #[serde(default)]
    replay: Option<Spanned<String>>,
}

impl From<Spanned<RawPoseCache>> for PoseCacheEntry {
    fn from(s: Spanned<RawPoseCache>) -> Self {
        let pos = pos_of(s.referenced);
        let r = s.value;
        PoseCacheEntry {
            pos,
            id: at(r.id),
            source: at(r.source),
            animation: at(r.animation),
            rate_hz: at(r.rate_hz),
            entities: r.entities.map(at),
            shape: r.shape.map(at),
            size: r.size.map(at),
            dimensions: r.dimensions.map(at),
            start_step: r.start_step.map(at),
            label: r.label.map(at),
            replay: r.replay.map(at),
        }
    }
}

/// The parsed form of a manifest in kiln's state encoding, so a manifest
/// whose text has not changed need not be parsed again (YAML parsing is
/// most of a no-op build's work). See `ManifestCache` in `state`.
pub fn encode_parsed(m: &Manifest) -> Vec<u8> {
    let mut w = Writer::default();
    w.var(m.pose_caches.len() as u64);
    for e in &m.pose_caches {
        put_pos(&mut w, e.pos);
        put_at(&mut w, &e.id, |w, v| w.str(v));
        put_at(&mut w, &e.source, |w, v| w.str(v));
        put_at(&mut w, &e.animation, |w, v| match v {
            AnimationKey::Index(i) => {
                w.u8(0);
                w.u64(*i);
            }
            AnimationKey::Name(n) => {
                w.u8(1);
                w.str(n);
            }
        });
        put_at(&mut w, &e.rate_hz, |w, v| w.f64(*v));
        put_opt(&mut w, &e.entities, |w, v| w.u8(*v as u8));
        put_opt(&mut w, &e.shape, |w, v| w.u8(*v as u8));
        put_opt(&mut w, &e.size, |w, v| v.iter().for_each(|c| w.f32(*c)));
        put_opt(&mut w, &e.dimensions, |w, v| w.u8(*v));
        put_opt(&mut w, &e.start_step, |w, v| w.i64(*v));
        put_opt(&mut w, &e.label, |w, v| w.str(v));
        put_opt(&mut w, &e.replay, |w, v| w.str(v));
    }
    w.buf
}

/// Reads back what `encode_parsed` wrote; `None` if it does not read.
pub fn decode_parsed(bytes: &[u8]) -> Option<Manifest> {
    let mut r = Reader::new(bytes);
    let n = r.count(64)?;
    let mut pose_caches = Vec::with_capacity(n);
    for _ in 0..n {
        pose_caches.push(PoseCacheEntry {
            pos: get_pos(&mut r)?,
            id: get_at(&mut r, |r| r.string())?,
            source: get_at(&mut r, |r| r.string())?,
            animation: get_at(&mut r, |r| match r.u8()? {
                0 => Some(AnimationKey::Index(r.u64()?)),
                1 => Some(AnimationKey::Name(r.string()?)),
                _ => None,
            })?,
            rate_hz: get_at(&mut r, |r| r.f64())?,
            entities: get_opt(&mut r, |r| match r.u8()? {
                0 => Some(EntitiesKey::Joints),
                1 => Some(EntitiesKey::Nodes),
                _ => None,
            })?,
            shape: get_opt(&mut r, |r| match r.u8()? {
                0 => Some(ShapeKey::Point),
                1 => Some(ShapeKey::Sphere),
                2 => Some(ShapeKey::Box),
                3 => Some(ShapeKey::Capsule),
                _ => None,
            })?,
            size: get_opt(&mut r, |r| Some([r.f32()?, r.f32()?, r.f32()?]))?,
            dimensions: get_opt(&mut r, |r| r.u8())?,
            start_step: get_opt(&mut r, |r| r.i64())?,
            label: get_opt(&mut r, |r| r.string())?,
            replay: get_opt(&mut r, |r| r.string())?,
        });
    }
    r.is_empty().then_some(Manifest { pose_caches })
}

fn put_pos(w: &mut Writer, pos: Pos) {
    w.u64(pos.line);
    w.u64(pos.column);
}

fn get_pos(r: &mut Reader) -> Option<Pos> {
    Some(Pos {
        line: r.u64()?,
        column: r.u64()?,
    })
}

fn put_at<T>(w: &mut Writer, at: &At<T>, put: impl Fn(&mut Writer, &T)) {
    put_pos(w, at.pos);
    put(w, &at.value);
}

fn get_at<T>(r: &mut Reader, get: impl Fn(&mut Reader) -> Option<T>) -> Option<At<T>> {
    let pos = get_pos(r)?;
    Some(At {
        value: get(r)?,
        pos,
    })
}

fn put_opt<T>(w: &mut Writer, at: &Option<At<T>>, put: impl Fn(&mut Writer, &T)) {
    match at {
        None => w.u8(0),
        Some(at) => {
            w.u8(1);
            put_at(w, at, put);
        }
    }
}

fn get_opt<T>(r: &mut Reader, get: impl Fn(&mut Reader) -> Option<T>) -> Option<Option<At<T>>> {
    match r.u8()? {
        0 => Some(None),
        1 => Some(Some(get_at(r, get)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
pose_caches:
  - id: fox-run
    source: sources/characters/Fox.glb
    animation: Run
    rate_hz: 60
  - id: fox-0
    source: sources/characters/Fox.glb
    animation: 0
    rate_hz: 30.5
    shape: capsule
    size: [0.1, 0.2, 0]
    entities: nodes
    dimensions: 2
";

    #[test]
    fn parses_entries_with_positions() {
        let m = parse(GOOD).unwrap();
        assert_eq!(m.pose_caches.len(), 2);
        let a = &m.pose_caches[0];
        assert_eq!(a.id.value, "fox-run");
        assert_eq!(a.id.pos, Pos { line: 2, column: 9 });
        assert_eq!(a.animation.value, AnimationKey::Name("Run".into()));
        assert_eq!(a.animation.pos.line, 4);
        let b = &m.pose_caches[1];
        assert_eq!(b.animation.value, AnimationKey::Index(0));
        assert_eq!(b.shape.as_ref().unwrap().value, ShapeKey::Capsule);
        assert_eq!(b.size.as_ref().unwrap().value, [0.1, 0.2, 0.0]);
        assert_eq!(b.rate_hz.value, 30.5);
    }

    #[test]
    fn unknown_key_is_an_error_with_its_position() {
        let text = GOOD.replace("    rate_hz: 60\n", "    rate_hz: 60\n    speed: 2\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.pos.line, 6, "{e:?}");
        assert!(e.message.contains("speed"), "{e:?}");
    }

    #[test]
    fn wrong_type_is_an_error_with_its_position() {
        let text = GOOD.replace("rate_hz: 60", "rate_hz: fast");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.pos.line, 5, "{e:?}");
    }

    #[test]
    fn parsed_form_round_trips() {
        let m = parse(GOOD).unwrap();
        let bytes = encode_parsed(&m);
        assert_eq!(decode_parsed(&bytes), Some(m));
        for n in 0..bytes.len() {
            assert_eq!(decode_parsed(&bytes[..n]), None, "prefix {n}");
        }
    }

    #[test]
    fn every_budget_breach_is_said_in_words_with_its_limit() {
        use serde_saphyr::budget::BudgetBreach as B;
        let said = |breach| {
            describe_error(&serde_saphyr::Error::Budget {
                breach,
                location: serde_saphyr::Location::UNKNOWN,
            })
        };
        assert_eq!(
            said(B::Nodes { nodes: 1 }),
            "manifest too large: more than 2000000 YAML nodes; split it into several manifests"
        );
        assert!(said(B::Events { events: 1 }).contains("more than 4000000 YAML events"));
        assert!(said(B::Aliases { aliases: 1 }).contains("more than 200000 YAML aliases"));
        assert!(said(B::MergeKeys { merge_keys: 1 }).contains("more than 200000 YAML merge keys"));
        assert!(said(B::Depth { depth: 65 }).contains("more than 64 levels"));
        for breach in [
            B::Anchors { anchors: 1 },
            B::Documents { documents: 1 },
            B::ScalarBytes {
                total_scalar_bytes: 1,
            },
            B::SequenceUnbalanced,
        ] {
            let text = said(breach);
            assert!(text.starts_with("manifest too large: "), "{text}");
            assert!(!text.contains('{'), "no debug text: {text}");
        }
    }

    #[test]
    fn empty_manifest_has_no_jobs() {
        assert_eq!(parse("# nothing yet\n").unwrap(), Manifest::default());
        assert_eq!(parse("").unwrap(), Manifest::default());
    }
}
