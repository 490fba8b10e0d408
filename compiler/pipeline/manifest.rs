//! Manifests: YAML files that say what to build.
//!
//! Parsed with serde-saphyr (see ARCHITECTURE.md for why): unknown keys are
//! errors, and every value keeps the line and column it came from ([`At`]),
//! so an error found after parsing (a missing source, a clip that does not
//! exist) still points at the manifest. This module knows no job kind: the
//! sections of a manifest are the kinds' entries, listed in `kinds`, which
//! parses a manifest through [`parse`]. The schema is documented key by
//! key in `docs/manifest.md`; `tests/end_to_end/manifest_docs.rs` keeps
//! the two in step through `kinds::manifest_keys`, which reads the schema
//! off the entry types themselves.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

/// Largest manifest kiln reads: 16 MiB of YAML is about 100,000 jobs of
/// five keys (`tests/end_to_end/manifest_limits.rs` parses 50,000).
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

/// A position in a manifest: 1-based line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
}

impl Pos {
    /// This position, or `entry`'s when this one is 0:0 (a setting the
    /// manifest left out): where an error about a setting points.
    pub fn or_entry(self, entry: Pos) -> Pos {
        if self.line == 0 { entry } else { self }
    }
}

/// A value and where the manifest stated it. A value the manifest left out
/// (a default) has the position 0:0, and errors about it point at its
/// entry instead.
///
/// It deserializes from YAML with its position, and serializes as the bare
/// value: a job's settings, serialized, are its cache key's text, and
/// moving a line must not change a key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct At<T> {
    pub value: T,
    pub pos: Pos,
}

impl<T> At<T> {
    /// A value the manifest did not write (a default).
    pub fn unwritten(value: T) -> At<T> {
        At {
            value,
            pos: Pos::default(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Spanned::<T>::deserialize(d).map(at)
    }
}

impl<T: Serialize> Serialize for At<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

/// A manifest that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: Pos,
    pub message: String,
}

/// Parses one manifest's text into `T` (the kinds' `Sections`: one list
/// per job kind, [`super::kinds::parse_manifest`]); text with nothing but
/// comments is `T::default()`.
pub fn parse<T: serde::de::DeserializeOwned + Default>(text: &str) -> Result<T, ParseError> {
    // Lines as YAML sees them: a lone carriage return ends one too (a
    // manifest saved with old Mac line ends is not one long comment).
    if text.split(['\n', '\r']).all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l == "---"
    }) {
        return Ok(T::default());
    }
    serde_saphyr::from_str_with_options(text, yaml_options()).map_err(|e| {
        let pos = e.location().map(pos_of).unwrap_or_default();
        ParseError {
            pos,
            message: describe_error(&e),
        }
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
        Error::DuplicateMappingKey { key, .. } => match key {
            Some(k) => format!(
                "`{k}` is given twice in one mapping; keep one (a YAML mapping holds each key once)"
            ),
            None => {
                "a key is given twice in one mapping; keep one (a YAML mapping holds each key once)"
                    .into()
            }
        },
        Error::AliasReplayLimitExceeded { .. } | Error::AliasExpansionLimitExceeded { .. } => {
            too_large(format!(
                "its aliases expand to more than {MAX_YAML_REPLAYED_EVENTS} YAML events"
            ))
        }
        Error::AliasReplayStackDepthExceeded { max_depth, .. } => {
            format!("manifest aliases nested too deeply: more than {max_depth} levels")
        }
        _ => plain_words(&first_line(&e.without_snippet().to_string())),
    }
}

/// serde's sentences, made into ones a manifest author can act on: an
/// unknown key or value gains the nearest accepted ones ("did you mean"),
/// and an untagged enum's "did not match any variant" says what the value
/// may be.
fn plain_words(message: &str) -> String {
    const UNTAGGED: [(&str, &str); 2] = [
        (
            "untagged enum MetaValue",
            "a metadata value must be a string, true or false, a list of strings, or a map of \
             one GGUF type to its value or to a list of values: \
             {uint8|int8|uint16|int16|uint32|int32|uint64|int64|float32|float64: a number or \
             [numbers]}, {bool: true or [true, false]}, {string: text or [texts]} \
             (a list holds one type; lists of lists are not written)",
        ),
        (
            "untagged enum Animation",
            "`animation` must be a clip's name (text) or its index (a whole number from 0)",
        ),
    ];
    for (enum_name, words) in UNTAGGED {
        if message.contains("did not match any variant") && message.contains(enum_name) {
            return words.to_string();
        }
    }
    for what in ["unknown field `", "unknown variant `"] {
        let Some(rest) = message.strip_prefix(what) else {
            continue;
        };
        let Some((name, rest)) = rest.split_once('`') else {
            break;
        };
        // "expected one of a, b, c", "expected `a` or `b`", "expected `a`".
        let accepted: Vec<&str> = rest
            .split_once("expected")
            .map(|(_, list)| {
                let list = list.trim_start();
                list.strip_prefix("one of")
                    .unwrap_or(list)
                    .split(',')
                    .flat_map(|part| part.split(" or "))
                    .map(|name| name.trim().trim_matches('`'))
                    .filter(|name| !name.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let near = super::names::nearest(name, accepted.iter().copied());
        if let Some(first) = near.first() {
            return format!("{message}; did you mean `{first}`?");
        }
        break;
    }
    message.to_string()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::kinds::{Sections, manifest_keys as keys};

    /// The kinds' manifests, as the build parses them.
    fn parse(text: &str) -> Result<Sections, ParseError> {
        super::parse(text)
    }

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
    fn parses_entries_with_positions_and_defaults_without() {
        use crate::bake::pose_cache::EntitySet;
        use crate::formats::ospc::Shape;
        use crate::pipeline::kinds::pose_cache::Animation;
        let m = parse(GOOD).unwrap();
        assert_eq!(m.pose_caches.len(), 2);
        assert_eq!(m.pose_caches[0].pos, Pos { line: 2, column: 5 });
        let a = &m.pose_caches[0].value;
        assert_eq!(a.id.value, "fox-run");
        assert_eq!(a.id.pos, Pos { line: 2, column: 9 });
        assert_eq!(
            a.animation.as_ref().unwrap().value,
            Animation::Name("Run".into())
        );
        assert_eq!(a.animation.as_ref().unwrap().pos.line, 4);
        assert_eq!(a.entities, At::unwritten(EntitySet::Joints));
        assert_eq!(a.dimensions, At::unwritten(3));
        let b = &m.pose_caches[1].value;
        assert_eq!(b.animation.as_ref().unwrap().value, Animation::Index(0));
        assert_eq!(b.shape.value, Shape::Capsule);
        assert_eq!(b.shape.pos.line, 10);
        assert_eq!(b.size.as_ref().unwrap().value, [0.1, 0.2, 0.0]);
        assert_eq!(b.rate_hz.as_ref().unwrap().value, 30.5);
    }

    /// The baker's settings are the manifest's: `atlas` reads into
    /// `atlas::Settings` (defaults for what is left out) and a value out
    /// of its range is refused as the manifest is read, at its line.
    #[test]
    fn atlas_settings_are_read_once_with_their_ranges() {
        use crate::bake::atlas::Settings;
        let level = |atlas: &str| {
            format!(
                "characters:\n  - level: l\n    banks: [{{ id: b }}]\n    models:\n      - {{ id: m, source: m.glb, bank: b, atlas: {atlas} }}\n"
            )
        };
        let m = parse(&level("{ padding: 8 }")).unwrap();
        let model = &m.characters[0].value.models.value[0].value;
        assert_eq!(
            model.atlas.as_ref().unwrap().value,
            Settings {
                padding: 8,
                ..Settings::default()
            }
        );
        for (atlas, rule) in [
            (
                "{ max_size: 0 }",
                "atlas max_size must be 1 to 2048, found 0",
            ),
            (
                "{ max_size: 2049 }",
                "atlas max_size must be 1 to 2048, found 2049",
            ),
            (
                "{ padding: 65 }",
                "atlas padding must be at most 64, found 65",
            ),
            (
                "{ max_tile_repeat: 0 }",
                "atlas max_tile_repeat must be 1 to 64, found 0",
            ),
            (
                "{ max_tile_repeat: 65 }",
                "atlas max_tile_repeat must be 1 to 64, found 65",
            ),
            (
                "{ max_size: 4294967296 }",
                "atlas max_size must be 1 to 2048, found 4294967296",
            ),
        ] {
            let e = parse(&level(atlas)).unwrap_err();
            assert_eq!((e.pos.line, e.message.as_str()), (5, rule), "{atlas}");
        }
        for edge in [
            "{ max_size: 1, padding: 0, max_tile_repeat: 1 }",
            "{ max_size: 2048, padding: 64, max_tile_repeat: 64 }",
        ] {
            assert!(parse(&level(edge)).is_ok(), "{edge}");
        }
        let e = parse(&level("{ size: 3 }")).unwrap_err();
        assert!(e.message.contains("unknown field `size`"), "{}", e.message);
    }

    #[test]
    fn a_value_serializes_without_its_position() {
        let m = parse(GOOD).unwrap();
        let json = serde_json::to_string(&m.pose_caches[0].value.rate_hz).unwrap();
        assert_eq!(json, "60.0");
    }

    #[test]
    fn the_keys_are_read_off_the_schema() {
        let keys = keys();
        assert_eq!(keys[0], "pose_caches");
        assert!(keys.contains(&"pose_caches.rate_hz".to_string()));
        assert!(keys.contains(&"pose_caches.replay".to_string()));
    }

    #[test]
    fn unknown_key_is_an_error_with_its_position() {
        let text = GOOD.replace("    rate_hz: 60\n", "    rate_hz: 60\n    speed: 2\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.pos.line, 6, "{e:?}");
        assert!(e.message.contains("speed"), "{e:?}");
    }

    #[test]
    fn an_unknown_key_or_value_suggests_the_nearest() {
        let text = GOOD.replace("    rate_hz: 60\n", "    rate_zh: 60\n");
        let e = parse(&text).unwrap_err();
        assert!(
            e.message
                .starts_with("unknown field `rate_zh`, expected one of ")
                && e.message.ends_with("; did you mean `rate_hz`?"),
            "{e:?}"
        );
        let text = GOOD.replace("shape: capsule", "shape: capsul");
        let e = parse(&text).unwrap_err();
        assert!(e.message.ends_with("; did you mean `capsule`?"), "{e:?}");
        // Nothing near: serde's sentence, with what is accepted.
        let text = GOOD.replace("    rate_hz: 60\n", "    rate_hz: 60\n    colour: red\n");
        let e = parse(&text).unwrap_err();
        assert!(
            e.message
                .starts_with("unknown field `colour`, expected one of id, source, "),
            "{e:?}"
        );
        assert!(!e.message.contains("did you mean"), "{e:?}");
    }

    #[test]
    fn an_untagged_value_says_what_it_may_be() {
        let text = "model_bundles:\n  - id: m\n    profile: generic\n    source: a.safetensors\n    architecture: x\n    metadata: { a: [1, [2]] }\n";
        let e = parse(text).unwrap_err();
        assert!(
            e.message.starts_with(
                "a metadata value must be a string, true or false, a list of strings, or a map"
            ),
            "{e:?}"
        );
        let text = GOOD.replace("animation: Run", "animation: [Run]");
        let e = parse(&text).unwrap_err();
        assert!(
            e.message.starts_with("`animation` must be a clip's name"),
            "{e:?}"
        );
        assert_eq!(
            plain_words("unknown field `x`"),
            "unknown field `x`",
            "no list, no suggestion"
        );
    }

    #[test]
    fn wrong_type_is_an_error_with_its_position() {
        let text = GOOD.replace("rate_hz: 60", "rate_hz: fast");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.pos.line, 5, "{e:?}");
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
        assert_eq!(parse("# nothing yet\n").unwrap(), Sections::default());
        assert_eq!(parse("").unwrap(), Sections::default());
    }
}
