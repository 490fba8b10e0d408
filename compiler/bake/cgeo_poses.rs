//! CGeo sequences of rigid objects into a OneScope pose cache: one entity
//! per file.
//!
//! Stages, in order (the pose cache kind calls them, reading one snapshot
//! at a time):
//! 1. [`Fitter::new`]: snapshot 0 is the reference; the entity's origin is
//!    the centre of its bounds (the snapshot's bounding box if it has one,
//!    else its vertices'), its box the half extents of those bounds.
//! 2. [`Fitter::pose`]: each snapshot's pose is the best rigid fit of its
//!    vertices to snapshot 0's ([`rigid::fit`], paired by index): the
//!    origin moved, and the rotation. Snapshot 0's pose is the origin and
//!    the identity, exactly.
//! 3. [`check_rigid`]: the fit's worst residual, in metres, against the
//!    tolerance: above it, the object deforms and a pose cache cannot hold
//!    it.
//! 4. [`bake`]: every file's poses on one clock (see [`Clock`]), names and
//!    ids, the header fields.
//!
//! **Units.** CGeo's Scale is relative to millimetres: metres per unit is
//! Scale / 1000, and Scale 0 is the pose cache's "no physical size" (0);
//! the tolerance is then taken in the file's own units. Every file of one
//! cache has the same Scale.

use crate::formats::cgeo::Mesh;
use crate::formats::ospc::{self, Entity, Pose, PoseCache, Shape};
use crate::model::math::{self, Quat, Vec3};

use super::pose_cache::{MODULE_ID, entity_id, frame_count, rate_rule};
use super::rigid;

/// One file's object, fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// The entity's name (the original object name, or the file's stem).
    pub name: String,
    /// The file, for messages.
    pub file: String,
    /// The time of snapshot 0, and between snapshots, in microseconds.
    pub start_us: i64,
    pub step_us: u64,
    /// The file's Scale (relative to millimetres; 0: no physical size).
    pub scale: f64,
    /// Half the extents of snapshot 0's bounds (the entity's box).
    pub half_extents: [f32; 3],
    /// One pose per snapshot, in the file's units.
    pub poses: Vec<(Vec3, Quat)>,
    /// The fits' worst residual.
    pub worst: Worst,
}

/// The largest residual of a file's fits (in its units), and where.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Worst {
    pub residual: f64,
    pub snapshot: usize,
    pub vertex: usize,
}

/// Whether entities are points or boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeKind {
    Point,
    Box,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub shape: ShapeKind,
    /// Resample every file at this rate; `None`: the files' own clock.
    pub rate_hz: Option<f64>,
    /// 2 or 3.
    pub dimensions: u8,
    pub start_step: i64,
    pub label: String,
    /// What the cache names as its scene (the glob's file name).
    pub scene: String,
    /// A plain file name or empty.
    pub replay: String,
    pub library_version: String,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    #[error("{file}: snapshot 0 has no vertices, so it has no pose")]
    NoVertices { file: String },

    #[error(
        "{file}: snapshot {snapshot} has {found} vertices, snapshot 0 has {want}; a rigid object keeps its vertices"
    )]
    VertexCount {
        file: String,
        snapshot: usize,
        found: usize,
        want: usize,
    },
    #[error(
        "{file}: snapshot {snapshot} is not a rigid motion of snapshot 0: vertex {vertex} is {residual:e} {unit} from the best fit, above rigid_tolerance_m {tolerance:e} (the object deforms, so a pose cache cannot hold it)"
    )]
    Deforms {
        file: String,
        snapshot: usize,
        vertex: usize,
        residual: f64,
        unit: &'static str,
        tolerance: f64,
    },
    #[error(
        "{file}: snapshot {snapshot}: its coordinates are so far from the origin that the rigid fit is only good to {precision:e} {unit}, above rigid_tolerance_m {tolerance:e}; the check cannot tell a rigid motion from a deformation there (move the object nearer the origin, or raise rigid_tolerance_m)"
    )]
    TooFar {
        file: String,
        snapshot: usize,
        precision: f64,
        unit: &'static str,
        tolerance: f64,
    },
    #[error(
        "{a} has Scale {scale_a} and {b} has Scale {scale_b}; every file of one pose cache needs the same Scale"
    )]
    Scales {
        a: String,
        scale_a: f64,
        b: String,
        scale_b: f64,
    },
    #[error(
        "{a} has a snapshot every {step_a} µs and {b} every {step_b} µs: the files are on different clocks; set rate_hz to resample them"
    )]
    Steps {
        a: String,
        step_a: u64,
        b: String,
        step_b: u64,
    },
    #[error(
        "{file} starts at {start_us} µs, off the {step_us} µs grid that starts at {origin_us} µs ({first}): the files are on different clocks; set rate_hz to resample them"
    )]
    OffGrid {
        file: String,
        start_us: i64,
        step_us: u64,
        origin_us: i64,
        first: String,
    },
    #[error(
        "every file holds one snapshot, at different times ({a} at {start_a} µs, {b} at {start_b} µs); set rate_hz to put them on one clock"
    )]
    NoClock {
        a: String,
        start_a: i64,
        b: String,
        start_b: i64,
    },
    #[error("{a} and {b} both name the object {name:?}; entity names must be unique")]
    SameName { a: String, b: String, name: String },
    #[error("entity names {a:?} and {b:?} hash to the same id")]
    IdCollision { a: String, b: String },
    #[error("object name {name:?} is {len} bytes; a pose cache allows {max}")]
    NameTooLong {
        name: String,
        len: usize,
        max: usize,
    },
    #[error("{n} files is more than the {max} entities a pose cache holds")]
    TooManyEntities { n: usize, max: u32 },
    #[error("the files span {frames} frames, more than the {max} a pose cache holds{hint}")]
    TooManyFrames {
        frames: u128,
        max: u32,
        hint: &'static str,
    },
    #[error(
        "{frames} frames of {entities} entities would exceed the pose cache's {max_mib} MiB limit"
    )]
    TooLarge {
        frames: u64,
        entities: usize,
        max_mib: usize,
    },
    /// [`rate_rule`]'s words.
    #[error("{0}")]
    Rate(String),
}

/// Fits one file's snapshots against its snapshot 0.
pub struct Fitter {
    file: String,
    /// Snapshot 0's vertex count (its vertices are the reference each
    /// [`Fitter::pose`] is given: never copied).
    vertices: usize,
    origin: Vec3,
    half_extents: [f32; 3],
}

impl Fitter {
    /// The reference: snapshot 0's vertices and bounds.
    pub fn new(file: &str, first: &Mesh, bounds: Option<[f32; 6]>) -> Result<Fitter, Error> {
        if first.vertices.is_empty() {
            return Err(Error::NoVertices {
                file: file.to_string(),
            });
        }
        let bounds = bounds.unwrap_or_else(|| vertex_bounds(&first.vertices));
        let lo = [bounds[0], bounds[1], bounds[2]].map(f64::from);
        let hi = [bounds[3], bounds[4], bounds[5]].map(f64::from);
        Ok(Fitter {
            file: file.to_string(),
            vertices: first.vertices.len(),
            origin: std::array::from_fn(|i| (lo[i] + hi[i]) / 2.0),
            half_extents: std::array::from_fn(|i| ((hi[i] - lo[i]) / 2.0) as f32),
        })
    }

    pub fn half_extents(&self) -> [f32; 3] {
        self.half_extents
    }

    /// Snapshot `k`'s pose (the origin moved, the rotation) in the file's
    /// units, and the fit: its worst residual and where.
    /// `first` is snapshot 0's mesh (the one [`Fitter::new`] was given).
    pub fn pose(
        &self,
        k: usize,
        first: &Mesh,
        mesh: &Mesh,
    ) -> Result<((Vec3, Quat), rigid::Fit), Error> {
        if mesh.vertices.len() != self.vertices || first.vertices.len() != self.vertices {
            return Err(Error::VertexCount {
                file: self.file.clone(),
                snapshot: k,
                found: mesh.vertices.len(),
                want: self.vertices,
            });
        }
        let fit = rigid::fit(&first.vertices, &mesh.vertices);
        if k == 0 {
            return Ok(((self.origin, math::QUAT_IDENTITY), fit));
        }
        let r = math::quat_to_mat3(fit.rotation);
        let o = self.origin;
        let moved: Vec3 = std::array::from_fn(|i| {
            r[3 * i] * o[0] + r[3 * i + 1] * o[1] + r[3 * i + 2] * o[2] + fit.translation[i]
        });
        Ok(((moved, fit.rotation), fit))
    }
}

/// The bounds of some vertices: min x, y, z, then max x, y, z.
fn vertex_bounds(vertices: &[[f32; 3]]) -> [f32; 6] {
    let mut b = [f32::MAX, f32::MAX, f32::MAX, f32::MIN, f32::MIN, f32::MIN];
    for v in vertices {
        for i in 0..3 {
            b[i] = b[i].min(v[i]);
            b[i + 3] = b[i + 3].max(v[i]);
        }
    }
    b
}

/// Metres per unit of a CGeo Scale (relative to millimetres; 0 stays 0).
pub fn metres_per_unit(scale: f64) -> f64 {
    scale / 1000.0
}

/// A worst residual (in the file's units) against the tolerance (metres;
/// the file's units when Scale is 0). Returns it as it is compared.
pub fn check_rigid(
    file: &str,
    snapshot: usize,
    fit: &rigid::Fit,
    scale: f64,
    tolerance_m: f64,
) -> Result<f64, Error> {
    let (precision, unit) = residual_of(fit.precision, scale);
    if precision > tolerance_m {
        return Err(Error::TooFar {
            file: file.to_string(),
            snapshot,
            precision,
            unit,
            tolerance: tolerance_m,
        });
    }
    let (residual, unit) = residual_of(fit.worst_residual, scale);
    if residual > tolerance_m {
        return Err(Error::Deforms {
            file: file.to_string(),
            snapshot,
            vertex: fit.worst_index,
            residual,
            unit,
            tolerance: tolerance_m,
        });
    }
    Ok(residual)
}

/// A distance in a file's units as the tolerance is compared with it:
/// metres, or the file's units when it has no physical size.
pub fn residual_of(units: f64, scale: f64) -> (f64, &'static str) {
    let mpu = metres_per_unit(scale);
    if mpu > 0.0 {
        (units * mpu, "m")
    } else {
        (units, "units (Scale 0: no physical size)")
    }
}

/// The unit name a cache of Scale `scale` says.
pub fn unit_name(scale: f64) -> String {
    match scale {
        0.0 => "none (CGeo Scale 0)".to_string(),
        1.0 => "millimetre".to_string(),
        10.0 => "centimetre".to_string(),
        1000.0 => "metre".to_string(),
        s => format!("{s} mm (CGeo Scale {s})"),
    }
}

/// When each track's snapshots are, as frames of the cache.
#[derive(Clone, Debug, PartialEq)]
pub enum Clock {
    /// The files' own: snapshot `k` of track `i` is frame `offsets[i] + k`.
    Shared { frames: u64, offsets: Vec<u64> },
    /// Resampled: frame `f` is `origin_us + f / rate_hz` seconds.
    Resampled {
        frames: u64,
        origin_us: i64,
        rate_hz: f64,
    },
}

/// The tracks' common clock: their own when they share one (one time per
/// snapshot, starts on one grid), else an error that says to resample;
/// with a rate, frames at that rate from the earliest start to the latest
/// end.
pub fn clock(tracks: &[Track], rate_hz: Option<f64>) -> Result<Clock, Error> {
    let span = |t: &Track| i128::from(t.step_us) * (t.poses.len() as i128 - 1);
    let origin = tracks.iter().map(|t| t.start_us).min().unwrap_or(0);
    let end = tracks
        .iter()
        .map(|t| i128::from(t.start_us) + span(t))
        .max()
        .unwrap_or(0);
    let too_many = |frames: u128, hint| Error::TooManyFrames {
        frames,
        max: ospc::MAX_FRAMES,
        hint,
    };
    if let Some(rate_hz) = rate_hz {
        rate_rule(rate_hz).map_err(Error::Rate)?;
        let duration_s = (end - i128::from(origin)) as f64 / 1e6;
        let frames = frame_count(duration_s, rate_hz);
        if frames > u64::from(ospc::MAX_FRAMES) {
            return Err(too_many(u128::from(frames), "; lower rate_hz"));
        }
        return Ok(Clock::Resampled {
            frames,
            origin_us: origin,
            rate_hz,
        });
    }
    let stepping: Vec<&Track> = tracks.iter().filter(|t| t.poses.len() > 1).collect();
    let Some(first) = stepping.first() else {
        // One snapshot each: one frame, if they are at one time.
        let a = &tracks[0];
        if let Some(b) = tracks.iter().find(|t| t.start_us != a.start_us) {
            return Err(Error::NoClock {
                a: a.file.clone(),
                start_a: a.start_us,
                b: b.file.clone(),
                start_b: b.start_us,
            });
        }
        return Ok(Clock::Shared {
            frames: 1,
            offsets: vec![0; tracks.len()],
        });
    };
    if let Some(other) = stepping.iter().find(|t| t.step_us != first.step_us) {
        return Err(Error::Steps {
            a: first.file.clone(),
            step_a: first.step_us,
            b: other.file.clone(),
            step_b: other.step_us,
        });
    }
    let step = i128::from(first.step_us);
    let earliest = tracks
        .iter()
        .find(|t| t.start_us == origin)
        .expect("the minimum is one of them");
    let mut offsets = Vec::with_capacity(tracks.len());
    for t in tracks {
        let from_origin = i128::from(t.start_us) - i128::from(origin);
        if from_origin % step != 0 {
            return Err(Error::OffGrid {
                file: t.file.clone(),
                start_us: t.start_us,
                step_us: first.step_us,
                origin_us: origin,
                first: earliest.file.clone(),
            });
        }
        offsets.push((from_origin / step) as u64);
    }
    let frames = ((end - i128::from(origin)) / step + 1) as u128;
    if frames > u128::from(ospc::MAX_FRAMES) {
        return Err(too_many(frames, "; set rate_hz to resample them"));
    }
    Ok(Clock::Shared {
        frames: frames as u64,
        offsets,
    })
}

/// Every file's poses on one clock, into the finished cache.
pub fn bake(tracks: &[Track], settings: &Settings) -> Result<PoseCache, Error> {
    let Some(first) = tracks.first() else {
        // Planning refuses a glob that matches nothing.
        return Err(Error::TooManyEntities {
            n: 0,
            max: ospc::MAX_ENTITIES,
        });
    };
    if tracks.len() > ospc::MAX_ENTITIES as usize {
        return Err(Error::TooManyEntities {
            n: tracks.len(),
            max: ospc::MAX_ENTITIES,
        });
    }
    if let Some(t) = tracks.iter().find(|t| t.scale != first.scale) {
        return Err(Error::Scales {
            a: first.file.clone(),
            scale_a: first.scale,
            b: t.file.clone(),
            scale_b: t.scale,
        });
    }
    let entities = entities(tracks, settings.shape)?;
    let clock = clock(tracks, settings.rate_hz)?;
    let frames = match clock {
        Clock::Shared { frames, .. } | Clock::Resampled { frames, .. } => frames,
    };
    let poses_bytes = frames
        .checked_mul(tracks.len() as u64)
        .and_then(|n| n.checked_mul(ospc::POSE_BYTES as u64));
    if poses_bytes.is_none_or(|b| b > ospc::MAX_FILE_BYTES as u64) {
        return Err(Error::TooLarge {
            frames,
            entities: tracks.len(),
            max_mib: ospc::MAX_FILE_BYTES >> 20,
        });
    }
    let mut poses = Vec::with_capacity((frames as usize) * tracks.len());
    for f in 0..frames {
        for (i, t) in tracks.iter().enumerate() {
            let at = match &clock {
                Clock::Shared { offsets, .. } => f
                    .checked_sub(offsets[i])
                    .and_then(|k| t.poses.get(k as usize).copied()),
                Clock::Resampled {
                    origin_us, rate_hz, ..
                } => resample(t, *origin_us, f as f64 / rate_hz),
            };
            poses.push(match at {
                Some(pose) => to_pose(pose, settings.dimensions),
                None => Pose {
                    position: [f32::NAN, 0.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
            });
        }
    }
    Ok(PoseCache {
        dimensions: settings.dimensions,
        start_step: settings.start_step,
        metres_per_unit: metres_per_unit(first.scale),
        unit_name: unit_name(first.scale),
        module_id: MODULE_ID.to_string(),
        library_version: settings.library_version.clone(),
        scene: settings.scene.clone(),
        replay: settings.replay.clone(),
        label: settings.label.clone(),
        entities,
        poses,
    })
}

/// One entity per track, in track order; names unique, ids their hashes.
fn entities(tracks: &[Track], shape: ShapeKind) -> Result<Vec<Entity>, Error> {
    let mut by_name: std::collections::BTreeMap<&str, &Track> = Default::default();
    let mut by_id: std::collections::BTreeMap<u64, &str> = Default::default();
    let mut out = Vec::with_capacity(tracks.len());
    for t in tracks {
        if t.name.len() > ospc::MAX_TEXT_BYTES {
            return Err(Error::NameTooLong {
                name: t.name.chars().take(60).collect(),
                len: t.name.len(),
                max: ospc::MAX_TEXT_BYTES,
            });
        }
        if let Some(prev) = by_name.insert(&t.name, t) {
            return Err(Error::SameName {
                a: prev.file.clone(),
                b: t.file.clone(),
                name: t.name.clone(),
            });
        }
        let id = entity_id(&t.name);
        if let Some(prev) = by_id.insert(id, &t.name) {
            return Err(Error::IdCollision {
                a: prev.to_string(),
                b: t.name.clone(),
            });
        }
        out.push(match shape {
            ShapeKind::Point => Entity {
                id,
                shape: Shape::Point,
                size: [0.0; 3],
                name: t.name.clone(),
            },
            ShapeKind::Box => Entity {
                id,
                shape: Shape::Box,
                size: t.half_extents,
                name: t.name.clone(),
            },
        });
    }
    Ok(out)
}

/// How far (µs) a resampled frame may be outside a file's time range and
/// still take its first or last pose: half a microsecond per step (a
/// step is a whole number of microseconds, so a 30 Hz file's 33,333 µs
/// falls 10 µs short of a second after 30 steps), and a nanosecond for
/// f64's rounding of a frame time.
fn edge_us(steps: usize) -> f64 {
    0.5 * steps as f64 + 1e-3
}

/// A track's pose at `t_s` seconds after `origin_us`: between the two
/// snapshots around it, the position linear and the rotation by slerp;
/// `None` outside the file's time range.
fn resample(t: &Track, origin_us: i64, t_s: f64) -> Option<(Vec3, Quat)> {
    let since_start = t_s * 1e6 - (t.start_us as f64 - origin_us as f64);
    let last = t.poses.len() - 1;
    let span = t.step_us as f64 * last as f64;
    let edge = edge_us(last);
    if !(-edge..=span + edge).contains(&since_start) {
        return None;
    }
    if last == 0 || t.step_us == 0 {
        return Some(t.poses[0]);
    }
    let u = (since_start / t.step_us as f64).clamp(0.0, last as f64);
    let k = (u.floor() as usize).min(last);
    let w = u - k as f64;
    if k == last || w == 0.0 {
        return Some(t.poses[k]);
    }
    let ((p0, q0), (p1, q1)) = (t.poses[k], t.poses[k + 1]);
    let p = std::array::from_fn(|i| p0[i] + (p1[i] - p0[i]) * w);
    Some((p, math::quat_slerp(q0, q1, w)))
}

fn to_pose((p, q): (Vec3, Quat), dimensions: u8) -> Pose {
    let (p, q) = if dimensions == 2 {
        ([p[0], p[1], 0.0], math::quat_twist_z(q))
    } else {
        (p, q)
    };
    Pose {
        position: p.map(|v| v as f32),
        rotation: q.map(|v| v as f32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cube far from the origin (10^16 mm) that collapsed to a point:
    /// at a millimetre tolerance the fit cannot be trusted there, and the
    /// check refuses it by saying so rather than pass it.
    #[test]
    fn coordinates_too_far_for_the_tolerance_are_refused() {
        let far = 1e16;
        let cube: Vec<[f64; 3]> = (0..8)
            .map(|k| std::array::from_fn(|b| if k & (1 << b) == 0 { far } else { far + 1e4 }))
            .collect();
        let fit = rigid::fit(&cube, &[[far; 3]; 8]);
        let e = check_rigid("far.cgeo", 3, &fit, 1.0, 0.001).unwrap_err();
        assert!(matches!(e, Error::TooFar { snapshot: 3, .. }), "{e}");
        assert!(e.to_string().contains("so far from the origin"), "{e}");
        // Near the origin the same collapse is a deformation.
        let near: Vec<[f64; 3]> = cube.iter().map(|p| p.map(|x| x - far)).collect();
        let fit = rigid::fit(&near, &[[0.0; 3]; 8]);
        let e = check_rigid("near.cgeo", 3, &fit, 1.0, 0.001).unwrap_err();
        assert!(matches!(e, Error::Deforms { .. }), "{e}");
    }

    fn track(file: &str, start_us: i64, step_us: u64, n: usize) -> Track {
        Track {
            name: file.to_string(),
            file: file.to_string(),
            start_us,
            step_us,
            scale: 1.0,
            half_extents: [1.0; 3],
            poses: (0..n)
                .map(|k| ([k as f64, 0.0, 0.0], math::QUAT_IDENTITY))
                .collect(),
            worst: Worst::default(),
        }
    }

    #[test]
    fn files_on_one_grid_share_its_frames() {
        let tracks = [track("a", 100, 10, 3), track("b", 120, 10, 4)];
        assert_eq!(
            clock(&tracks, None).unwrap(),
            Clock::Shared {
                frames: 6,
                offsets: vec![0, 2]
            }
        );
        let off = [track("a", 100, 10, 3), track("b", 125, 10, 4)];
        assert!(matches!(clock(&off, None), Err(Error::OffGrid { .. })));
        let steps = [track("a", 100, 10, 3), track("b", 100, 20, 4)];
        assert!(matches!(clock(&steps, None), Err(Error::Steps { .. })));
        // A one-snapshot file takes the others' step.
        let single = [track("a", 100, 0, 1), track("b", 100, 20, 4)];
        assert!(clock(&single, None).is_ok());
        let apart = [track("a", 100, 0, 1), track("b", 101, 0, 1)];
        assert!(matches!(clock(&apart, None), Err(Error::NoClock { .. })));
    }

    #[test]
    fn resampling_interpolates_and_leaves_absent_outside() {
        let t = track("a", 1_000_000, 100_000, 11); // x = k, 10 Hz, from 1 s
        assert_eq!(resample(&t, 0, 0.5), None);
        assert_eq!(resample(&t, 0, 1.0).unwrap().0, [0.0, 0.0, 0.0]);
        let mid = resample(&t, 0, 1.25).unwrap().0;
        assert!((mid[0] - 2.5).abs() < 1e-9, "{mid:?}");
        assert_eq!(resample(&t, 0, 2.0).unwrap().0, [10.0, 0.0, 0.0]);
        assert_eq!(resample(&t, 0, 2.01), None);
        // A whole-microsecond step's shortfall still takes the last pose.
        let t = track("a", 0, 33_333, 31);
        assert_eq!(resample(&t, 0, 1.0).unwrap().0, [30.0, 0.0, 0.0]);
        assert_eq!(resample(&t, 0, 1.0 + 20e-6), None);
    }

    #[test]
    fn scale_gives_metres_per_unit() {
        assert_eq!(metres_per_unit(10.0), 0.01);
        assert_eq!(metres_per_unit(0.0), 0.0);
        assert_eq!(residual_of(2.0, 0.0).0, 2.0);
        assert_eq!(residual_of(2.0, 1000.0).0, 2.0);
        assert_eq!(residual_of(2.0, 1.0).0, 0.002);
    }
}
