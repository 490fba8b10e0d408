//! A character's clip baked into a CGeo sequence, for rendering (Corona):
//! the skinned mesh at each frame.
//!
//! Stages, in order:
//! 1. [`prepare`]: the model as compiled characters make it
//!    ([`character::select`], [`character::model`]), but with the
//!    primitives' own `TEXCOORD_0` (no atlas: a renderer keeps the glTF
//!    materials, so each triangle's material id is its glTF material's
//!    index); the clip compiled with its keys exact
//!    ([`character::clip`], CUBICSPLINE resampled at the frame rate); the
//!    frame count ([`frame_count`]) and the header.
//! 2. [`Prepared::snapshot`]: frame `k` at `k / rate_hz` s, skinned on the
//!    CPU ([`skinning`]: the same skinning the compiled characters' tests
//!    check), with normals through the joints' linear parts; bounds and a
//!    point cloud. Frame 0 is a complete snapshot, every later one a
//!    difference (the vertex, normal and UV counts never change).
//!
//! A caller writes the snapshots one at a time (`cgeo::encode_prefix`,
//! `cgeo::encode_snapshot`), so memory is one frame's, whatever the clip's
//! length.
//!
//! **Axes and units.** Positions are glTF's metres (`Scale: 1000`); with
//! [`UpAxis::Z`] glTF's Y-up axes become Z-up ones (x, −z, y), as 3ds Max
//! has them. UVs are written `(u, 1 − v, 0)`: glTF's origin is the top left
//! of an image, 3ds Max's (whose U, V, W CGeo stores) the bottom left.

use crate::bake::atlas::{Atlas, Remapped};
use crate::bake::character::{self, ClipSettings, Selection};
use crate::bake::pose_cache::{ClipRef, frame_count, select_clip};
use crate::bake::skinning;
use crate::formats::cgeo::{self, Header, Line, Mesh, Snapshot, Triangle};
use crate::formats::kchr;
use crate::model::Scene;
use crate::model::material::{Meshes, Rgba8};

/// Metres in CGeo's Scale (relative to millimetres).
pub const SCALE_METRES: f64 = 1000.0;
/// Most points in a snapshot's point cloud: the vertices, every n-th.
pub const MAX_CLOUD_POINTS: usize = 1024;
/// Most frames a sequence may have (an hour at 30 Hz; CGeo allows
/// `cgeo::MAX_SNAPSHOTS`).
pub const MAX_FRAMES: u64 = 108_000;
/// The material id of a triangle whose primitive has no material (glTF's
/// default material).
pub const DEFAULT_MATERIAL_ID: u16 = u16::MAX;

/// The manifest's `up_axis` (`y` or `z`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UpAxis {
    /// glTF's: Y up.
    Y,
    /// 3ds Max's: Z up.
    Z,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub rate_hz: f64,
    pub compressed: bool,
    pub up_axis: UpAxis,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Error {
    #[error("{0}")]
    Clip(String),
    #[error("{0}")]
    Model(String),
    #[error(
        "a clip of {duration_s} s at {rate_hz} Hz is {frames} frames, more than the {max} a sequence may have; lower rate_hz"
    )]
    TooManyFrames {
        duration_s: f32,
        rate_hz: f64,
        frames: u64,
        max: u64,
    },
    #[error("material {index} is past the {max} material ids CGeo holds")]
    MaterialId { index: usize, max: u16 },
}

/// Everything a frame needs.
pub struct Prepared {
    pub header: Header,
    model: kchr::Model,
    clip: kchr::Clip,
    rate_hz: f64,
    up_axis: UpAxis,
    /// One per triangle of the model.
    materials: Vec<u16>,
    /// Snapshot 0's mesh (a difference snapshot's are stored against it).
    first: Mesh,
    pub warnings: Vec<String>,
}

/// What the model draws ([`character::select`], no skin chosen), with what
/// a user should know: the meshes to import for [`prepare`].
pub fn select(scene: &Scene) -> Result<(Selection, Vec<String>), Error> {
    character::select(scene, None).map_err(|e| Error::Model(e.0))
}

/// The model, the clip, the frames and the header, for the selection
/// `sel` ([`select`]) and `meshes` imported for `sel.meshes`.
pub fn prepare(
    scene: &Scene,
    sel: &Selection,
    meshes: &Meshes,
    clip_ref: &ClipRef,
    object: &str,
    settings: &Settings,
) -> Result<Prepared, Error> {
    let source_clip = select_clip(scene, clip_ref).map_err(|e| Error::Clip(e.to_string()))?;
    let mut warnings = Vec::new();
    let names = character::node_names(scene);
    let primitives = character::primitives(scene, sel, meshes);
    let own_uvs = Atlas {
        image: Rgba8 {
            width: 1,
            height: 1,
            pixels: vec![255; 4],
        },
        regions: Vec::new(),
        primitives: primitives
            .iter()
            .map(|p| Remapped {
                vertices: (0..p.positions.len() as u32).collect(),
                uv: p
                    .tex_coords
                    .first()
                    .cloned()
                    .unwrap_or_else(|| vec![[0.0, 0.0]; p.positions.len()]),
                indices: p.indices.clone(),
                region: 0,
            })
            .collect(),
        fit_scale: 1.0,
        warnings: Vec::new(),
    };
    let mut animated: Vec<usize> = source_clip.channels.iter().map(|c| c.node).collect();
    animated.sort_unstable();
    animated.dedup();
    let compiled = character::model(scene, &names, sel, meshes, &own_uvs, &animated)
        .map_err(|e| Error::Model(e.0))?;
    warnings.extend(compiled.warnings);
    let clip_settings = ClipSettings {
        resample_hz: settings.rate_hz,
        resample_all: false,
        tolerance: None,
    };
    let compiled_clip = character::clip(
        scene,
        &names,
        source_clip,
        &clip_settings,
        &[],
        character::MAX_BANK_SOURCE_KEYS,
    )
    .map_err(|e| Error::Clip(e.0))?;
    warnings.extend(compiled_clip.warnings);
    let clip = compiled_clip.clip;
    let frames = frame_count(f64::from(clip.duration_s), settings.rate_hz);
    if frames > MAX_FRAMES {
        return Err(Error::TooManyFrames {
            duration_s: clip.duration_s,
            rate_hz: settings.rate_hz,
            frames,
            max: MAX_FRAMES,
        });
    }
    // Each primitive's triangles, in the order the model merged them.
    let mut materials = Vec::with_capacity(compiled.model.indices.len() / 3);
    for p in &primitives {
        let id = match p.material {
            None => DEFAULT_MATERIAL_ID,
            Some(i) => u16::try_from(i)
                .ok()
                .filter(|&id| id < DEFAULT_MATERIAL_ID)
                .ok_or(Error::MaterialId {
                    index: i,
                    max: DEFAULT_MATERIAL_ID,
                })?,
        };
        materials.extend(std::iter::repeat_n(id, p.indices.len() / 3));
    }
    let used: std::collections::BTreeSet<usize> =
        primitives.iter().filter_map(|p| p.material).collect();
    let material = if used.is_empty() {
        "[none]".to_string()
    } else {
        used.iter()
            .map(|&i| match &meshes.materials[i].name {
                Some(n) => one_line(n),
                None => format!("material {i}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let time_per_snapshot_us = ((1e6 / settings.rate_hz).round() as u64).max(1);
    let header = Header {
        snapshots: frames as u32,
        time_per_snapshot_us,
        start_us: 0,
        scale: SCALE_METRES,
        material,
        object: one_line(object),
        compressed: settings.compressed,
        other: vec![Line::Text("Written by kiln".into())],
    };
    let mut prepared = Prepared {
        header,
        model: compiled.model,
        clip,
        rate_hz: settings.rate_hz,
        up_axis: settings.up_axis,
        materials,
        first: Mesh::default(),
        warnings,
    };
    prepared.first = prepared.posed(0).0;
    Ok(prepared)
}

/// Text for a one-line header value: line breaks as spaces, trimmed.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ").trim().to_string()
}

impl Prepared {
    pub fn frames(&self) -> usize {
        self.header.snapshots as usize
    }

    /// Snapshot 0's mesh.
    pub fn first(&self) -> &Mesh {
        &self.first
    }

    /// Frame `k` as a snapshot: complete for frame 0, else a difference
    /// (absolute values, topology empty), with its bounds and point cloud.
    pub fn snapshot(&self, k: usize) -> Snapshot {
        let (mut mesh, bounds) = self.posed(k);
        let complete = k == 0;
        if !complete {
            mesh.triangles.clear();
            mesh.map_indices.clear();
        }
        let step = mesh.vertices.len().div_ceil(MAX_CLOUD_POINTS).max(1);
        let cloud = mesh.vertices.iter().step_by(step).copied().collect();
        Snapshot {
            complete,
            mesh,
            bounding_box: Some(bounds),
            point_cloud: Some(cloud),
            unknown: Vec::new(),
            order: Vec::new(),
        }
    }

    /// The complete mesh at frame `k`, and its bounds.
    fn posed(&self, k: usize) -> (Mesh, [f32; 6]) {
        let t = k as f64 / self.rate_hz;
        let local = skinning::local_poses(&self.model, Some(&self.clip), t);
        let world = skinning::world_matrices(&self.model, &local);
        let positions = skinning::skin(&self.model, &world);
        let normals = skinning::skin_normals(&self.model, &world);
        let axes = |v: [f64; 3]| -> [f32; 3] {
            let v = match self.up_axis {
                UpAxis::Y => v,
                UpAxis::Z => [v[0], -v[2], v[1]],
            };
            v.map(|x| x as f32)
        };
        let vertices: Vec<[f32; 3]> = positions.into_iter().map(axes).collect();
        let normals: Vec<[f32; 3]> = normals.into_iter().map(axes).collect();
        let uvs: Vec<[f32; 3]> = self
            .model
            .vertices
            .iter()
            .map(|v| [v[6], 1.0 - v[7], 0.0])
            .collect();
        let mut bounds = [f32::MAX, f32::MAX, f32::MAX, f32::MIN, f32::MIN, f32::MIN];
        for v in &vertices {
            for i in 0..3 {
                bounds[i] = bounds[i].min(v[i]);
                bounds[i + 3] = bounds[i + 3].max(v[i]);
            }
        }
        let triangles = self
            .model
            .indices
            .chunks_exact(3)
            .zip(&self.materials)
            .map(|(t, &material)| {
                let v = [u32::from(t[0]), u32::from(t[1]), u32::from(t[2])];
                Triangle {
                    vertices: v,
                    normals: v,
                    material,
                    edges: 0b111,
                }
            })
            .collect::<Vec<_>>();
        let map_indices = triangles.iter().map(|t| t.vertices).collect();
        (
            Mesh {
                vertices,
                normals,
                channels: vec![uvs],
                triangles,
                map_indices,
            },
            bounds,
        )
    }

    /// Every problem the snapshot would have in a file (none for a
    /// snapshot this made: a check, not a rule).
    pub fn check(&self, k: usize, s: &Snapshot) -> Vec<cgeo::Problem> {
        cgeo::validate_snapshot(k, s, &self.first, false, self.header.compressed)
    }
}
