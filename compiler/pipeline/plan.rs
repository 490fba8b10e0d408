//! The plan: every manifest entry checked and turned into a job, in a fixed
//! order (manifests by path, entries in file order).
//!
//! Everything that can be checked without running a job is checked here,
//! and every problem is reported (not just the first) with its manifest
//! line and column.

use std::collections::BTreeMap;

use super::jobs::{Job, JobSpec, pose_cache::PoseCacheJob};
use super::manifest::{self, AnimationKey, EntitiesKey, Manifest, Pos, ShapeKey};
use super::paths::{RelPath, Resolver};
use super::state::ManifestCache;
use crate::bake::pose_cache::{self as bake, ClipRef, EntitySet, Settings};
use crate::formats::ospc::{self, Shape};

/// A problem with a manifest: which file, where, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The manifest, relative to the project root.
    pub file: String,
    pub pos: Pos,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.pos.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.pos.line, self.pos.column, self.message
            )
        }
    }
}

/// A manifest's text and its path relative to the root.
pub struct ManifestText {
    pub file: String,
    pub text: String,
}

/// Parses and checks every manifest; the jobs in build order, or every
/// problem found.
pub fn plan(
    resolver: &Resolver,
    manifests: &[ManifestText],
    cache: &mut ManifestCache,
) -> Result<Vec<Job>, Vec<Diagnostic>> {
    let mut jobs = Vec::new();
    let mut problems = Vec::new();
    for m in manifests {
        match parse_cached(&m.text, cache) {
            Ok(parsed) => plan_manifest(resolver, &m.file, &parsed, &mut jobs, &mut problems),
            Err(e) => problems.push(Diagnostic {
                file: m.file.clone(),
                pos: e.pos,
                message: e.message,
            }),
        }
    }
    check_unique_ids(&jobs, &mut problems);
    if problems.is_empty() {
        Ok(jobs)
    } else {
        Err(problems)
    }
}

/// A manifest's parsed form from the cache, else parsed (and cached).
fn parse_cached(text: &str, cache: &mut ManifestCache) -> Result<Manifest, manifest::ParseError> {
    let hash = *blake3::hash(text.as_bytes()).as_bytes();
    if let Some(parsed) = cache.get(&hash).and_then(manifest::decode_parsed) {
        return Ok(parsed);
    }
    let parsed = manifest::parse(text)?;
    cache.put(hash, manifest::encode_parsed(&parsed));
    Ok(parsed)
}

fn check_unique_ids(jobs: &[Job], problems: &mut Vec<Diagnostic>) {
    let mut first: BTreeMap<&str, &Job> = BTreeMap::new();
    for job in jobs {
        if let Some(prev) = first.insert(&job.id, job) {
            problems.push(Diagnostic {
                file: job.manifest.clone(),
                pos: job.pos,
                message: format!(
                    "job id {:?} is already used at {}:{}:{}; ids name output files and must be unique",
                    job.id, prev.manifest, prev.pos.line, prev.pos.column
                ),
            });
            first.insert(&prev.id, prev);
        }
    }
}

/// Longest job id: ids name output files, and 128 bytes leaves room for
/// the folder and extension within every file system's name limit.
pub const MAX_ID_BYTES: usize = 128;

/// Job ids become file names: letters, digits, `-`, `_`, `.`; not starting
/// with `.`; at most [`MAX_ID_BYTES`] bytes.
pub fn check_id(id: &str) -> Result<(), String> {
    let ok_chars = id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if id.is_empty() || id.len() > MAX_ID_BYTES || !ok_chars || id.starts_with('.') {
        return Err(format!(
            "id {id:?} must be 1 to {MAX_ID_BYTES} letters, digits, '-', '_' or '.', not starting with '.' (it names the output file)"
        ));
    }
    Ok(())
}

fn plan_manifest(
    resolver: &Resolver,
    file: &str,
    m: &Manifest,
    jobs: &mut Vec<Job>,
    problems: &mut Vec<Diagnostic>,
) {
    for entry in &m.pose_caches {
        let mut errors: Vec<(Pos, String)> = Vec::new();
        let mut fail = |pos: Pos, message: String| errors.push((pos, message));

        if let Err(e) = check_id(&entry.id.value) {
            fail(entry.id.pos, e);
        }
        let source = match RelPath::parse(&entry.source.value) {
            Ok(p) => match resolver.resolve(&p) {
                Ok((_, stat)) if stat.is_file => Some(p),
                Ok(_) => {
                    fail(entry.source.pos, format!("source {p} is not a file"));
                    None
                }
                Err(e) => {
                    fail(entry.source.pos, format!("source {e}"));
                    None
                }
            },
            Err(e) => {
                fail(entry.source.pos, format!("source {e}"));
                None
            }
        };
        let rate_hz = entry.rate_hz.value;
        if !(rate_hz.is_finite() && rate_hz > 0.0 && rate_hz <= bake::MAX_RATE_HZ) {
            fail(
                entry.rate_hz.pos,
                format!(
                    "rate_hz must be a number above 0 and at most {}, found {rate_hz}",
                    bake::MAX_RATE_HZ
                ),
            );
        }
        let clip = match &entry.animation.value {
            AnimationKey::Name(n) => ClipRef::Name(n.clone()),
            AnimationKey::Index(i) => match usize::try_from(*i) {
                Ok(i) => ClipRef::Index(i),
                Err(_) => {
                    fail(
                        entry.animation.pos,
                        format!("animation index {i} is too large"),
                    );
                    ClipRef::Index(0)
                }
            },
        };
        let shape = match entry.shape.as_ref().map(|s| s.value) {
            None | Some(ShapeKey::Point) => Shape::Point,
            Some(ShapeKey::Sphere) => Shape::Sphere,
            Some(ShapeKey::Box) => Shape::Box,
            Some(ShapeKey::Capsule) => Shape::Capsule,
        };
        let size = match (&entry.size, shape) {
            (None, Shape::Point) => [0.0; 3],
            (Some(s), Shape::Point) => {
                fail(
                    s.pos,
                    "size is only for sphere, box and capsule shapes; a point has none".into(),
                );
                [0.0; 3]
            }
            (None, _) => {
                let pos = entry.shape.as_ref().map_or(entry.pos, |s| s.pos);
                fail(pos, "this shape needs `size: [x, y, z]`".into());
                [0.0; 3]
            }
            (Some(s), _) => {
                if s.value.iter().any(|v| !v.is_finite()) {
                    fail(s.pos, "size values must be finite".into());
                }
                s.value
            }
        };
        let dimensions = entry.dimensions.as_ref().map_or(3, |d| d.value);
        if dimensions != 2 && dimensions != 3 {
            let pos = entry.dimensions.as_ref().map_or(entry.pos, |d| d.pos);
            fail(
                pos,
                format!("dimensions must be 2 or 3, found {dimensions}"),
            );
        }
        let start_step = entry.start_step.as_ref().map_or(0, |s| s.value);
        if start_step < 0 {
            let pos = entry.start_step.as_ref().map_or(entry.pos, |s| s.pos);
            fail(
                pos,
                format!("start_step must be 0 or more, found {start_step}"),
            );
        }
        let label = entry
            .label
            .as_ref()
            .map_or_else(String::new, |l| l.value.clone());
        if label.len() > ospc::MAX_TEXT_BYTES {
            let pos = entry.label.as_ref().map_or(entry.pos, |l| l.pos);
            fail(
                pos,
                format!(
                    "label is {} bytes; a pose cache allows {}",
                    label.len(),
                    ospc::MAX_TEXT_BYTES
                ),
            );
        }
        let replay = entry
            .replay
            .as_ref()
            .map_or_else(String::new, |r| r.value.clone());
        if let Some(r) = &entry.replay
            && (!ospc::is_plain_file_name(&r.value) || r.value.len() > ospc::MAX_TEXT_BYTES)
        {
            fail(
                r.pos,
                format!(
                    "replay {:?} must be a plain file name (no directory part), found next to the cache",
                    r.value
                ),
            );
        }
        let entities = match entry.entities.as_ref().map(|e| e.value) {
            None | Some(EntitiesKey::Joints) => EntitySet::Joints,
            Some(EntitiesKey::Nodes) => EntitySet::Nodes,
        };

        if !errors.is_empty() {
            problems.extend(errors.into_iter().map(|(pos, message)| Diagnostic {
                file: file.to_string(),
                pos,
                message,
            }));
            continue;
        }
        let Some(source) = source else { continue };
        let output = RelPath::parse(&format!("poses/{}.ospc", entry.id.value))
            .expect("a checked id makes a valid path");
        let settings = Settings {
            rate_hz,
            entities,
            shape,
            size,
            dimensions,
            start_step,
            label,
            scene: source.file_name().to_string(),
            replay,
            library_version: crate::VERSION.to_string(),
        };
        let mut positions = vec![
            ("id", entry.id.pos),
            ("source", entry.source.pos),
            ("animation", entry.animation.pos),
            ("rate_hz", entry.rate_hz.pos),
        ];
        if let Some(e) = &entry.entities {
            positions.push(("entities", e.pos));
        }
        jobs.push(Job {
            id: entry.id.value.clone(),
            manifest: file.to_string(),
            pos: entry.pos,
            positions,
            spec: JobSpec::PoseCache(PoseCacheJob {
                source,
                clip,
                settings,
                output,
            }),
        });
    }
}
