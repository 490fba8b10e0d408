//! Compiled characters: a glTF scene, its meshes and their atlas into a
//! KCHR model, and glTF clips into a KCHR bank (`formats::kchr`).
//!
//! Stages, in the order the characters kind calls them:
//! [`node_names`] (unique, non-empty, at most 128 bytes, the same for a
//! file whether it gives a model or clips) -> [`select`] (the skin and the
//! mesh instances a model draws) -> [`model`] (the node hierarchy those
//! need, decomposed to TRS; one merged mesh with the atlas's UVs, morph
//! targets baked, flat normals where none; the palette of joints that carry
//! weight and their inverse binds) -> [`clip`] (tracks by node name, times
//! from 0, CUBICSPLINE resampled, keys reduced within a tolerance measured
//! at a distance from the joint) -> [`bind`] (a model file's node names
//! matched to its bank's, by a node map, before [`model`] takes them).
//!
//! Pure: bytes were read by the caller. All arithmetic is f64 with IEEE
//! basic operations (and `libm` for one cosine), so the output is the same
//! on every machine.

use std::collections::{BTreeMap, BTreeSet};

use crate::bake::atlas::Atlas;
use crate::bake::skinning;
use crate::formats::kchr;
use crate::model::material::{Meshes, Primitive};
use crate::model::math::{self, Mat4};
use crate::model::sample::{self, Evaluation};
use crate::model::{Channel, Clip, Interpolation, LocalTransform, Scene, Target};

/// Why a stage failed (the caller names the file and the setting).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

fn err<T>(m: impl Into<String>) -> Result<T, Error> {
    Err(Error(m.into()))
}

// ------------------------------------------------------------ node names

/// Every node's name in the compiled document: the source's name, or
/// `node<i>` without one; cut to [`kchr::MAX_NAME`] bytes on a character
/// boundary; a name taken by an earlier node gets `~2`, `~3`, … (the first
/// free). Over every node of the file in index order, so a file names its
/// nodes alike whether it gives a model or a bank's clips.
pub fn node_names(scene: &Scene) -> Vec<String> {
    let mut taken = BTreeSet::new();
    let mut out = Vec::with_capacity(scene.nodes.len());
    for (i, node) in scene.nodes.iter().enumerate() {
        let base = match node.name.as_deref() {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => format!("node{i}"),
        };
        let mut name = cut(&base, kchr::MAX_NAME);
        let mut k = 2u32;
        while taken.contains(&name) {
            let suffix = format!("~{k}");
            name = cut(&base, kchr::MAX_NAME - suffix.len()) + &suffix;
            k += 1;
        }
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

fn cut(s: &str, max: usize) -> String {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

// ------------------------------------------------------------ selection

/// What a model draws: the skin (if any) and the scene's mesh instances.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// The skins the model's instances use: one, or several over the same
    /// joints (a rig split into parts, as RobotExpressive's hands are).
    pub skins: Vec<usize>,
    /// Indices into `scene.instances`, in node order.
    pub instances: Vec<usize>,
    /// The meshes those instances draw, ascending, each once (what to
    /// import).
    pub meshes: Vec<usize>,
}

/// The model's skins and instances: instances skinned by `skin`, and
/// every unskinned instance (rigid parts, bound to their node). Without
/// `skin`, the skins the file draws with, if they are all over the same
/// joints (else the caller must choose). Instances of other skins are left
/// out, with a warning.
pub fn select(scene: &Scene, skin: Option<usize>) -> Result<(Selection, Vec<String>), Error> {
    let used: BTreeSet<usize> = scene.instances.iter().filter_map(|i| i.skin).collect();
    let joint_set = |s: usize| {
        scene.skins[s]
            .joints
            .iter()
            .copied()
            .collect::<BTreeSet<_>>()
    };
    let same_joints = used
        .iter()
        .all(|&s| Some(joint_set(s)) == used.first().map(|&f| joint_set(f)));
    let skins: Vec<usize> = match skin {
        Some(s) if s >= scene.skins.len() => {
            return err(format!(
                "skin {s} does not exist (the file has {} skins)",
                scene.skins.len()
            ));
        }
        Some(s) => vec![s],
        None if used.len() > 1 && !same_joints => {
            return err(format!(
                "the file draws meshes with {} skins ({}): choose one with `skin:`",
                used.len(),
                used.iter()
                    .map(|s| skin_label(scene, *s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        None => used.iter().copied().collect(),
    };
    let mut warnings = Vec::new();
    let mut instances = Vec::new();
    for (k, inst) in scene.instances.iter().enumerate() {
        match inst.skin {
            Some(s) if !skins.contains(&s) => warnings.push(format!(
                "node {} draws its mesh with {}, not the model's skin: left out",
                inst.node,
                skin_label(scene, s)
            )),
            _ => instances.push(k),
        }
    }
    if instances.is_empty() {
        return err("the file has no node with a mesh: a character needs one");
    }
    let meshes: BTreeSet<usize> = instances.iter().map(|&k| scene.instances[k].mesh).collect();
    Ok((
        Selection {
            skins,
            instances,
            meshes: meshes.into_iter().collect(),
        },
        warnings,
    ))
}

fn skin_label(scene: &Scene, s: usize) -> String {
    match scene.skins.get(s).and_then(|k| k.name.as_deref()) {
        Some(n) => format!("skin {s} \"{n}\""),
        None => format!("skin {s}"),
    }
}

// ------------------------------------------------------------ the model

/// What [`model`] made, with what a user should know.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledModel {
    /// `id` and `bank` are the caller's to set.
    pub model: kchr::Model,
    pub warnings: Vec<String>,
    /// Vertices whose weights did not sum to 1 (renormalised).
    pub renormalised: usize,
    /// Vertices that had more than 4 influences (the 4 largest kept).
    pub truncated: usize,
}

/// How far a decomposed matrix may differ from the matrix, relative to its
/// largest element, and still be TRS.
const TRS_TOLERANCE: f64 = 1e-5;
/// Weights summing this close to 1 are not counted as renormalised.
const WEIGHT_SUM_TOLERANCE: f64 = 1e-5;

/// The model from `scene` (its nodes named `names`), the instances `sel`
/// picked, `meshes` (imported for `sel.meshes`, in that order) and `atlas`
/// (built over the instances' primitives in [`primitives`] order), holding
/// also the nodes `animated` (what its bank animates, from [`bind`]).
pub fn model(
    scene: &Scene,
    names: &[String],
    sel: &Selection,
    meshes: &Meshes,
    atlas: &Atlas,
    animated: &[usize],
) -> Result<CompiledModel, Error> {
    let mut warnings = Vec::new();
    // Palette candidates: each skin's joints in its order (a joint with
    // the same node and inverse bind as an earlier one is that one), then
    // each rigid instance's node (identity inverse bind: its vertices are
    // in the node's space).
    let mut candidates: Vec<(usize, [f32; 16])> = Vec::new();
    let mut seen: BTreeMap<(usize, [u32; 16]), usize> = BTreeMap::new();
    let mut skin_slots: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &s in &sel.skins {
        let skin = &scene.skins[s];
        let slots = skin
            .joints
            .iter()
            .enumerate()
            .map(|(j, &node)| {
                let ibm = skin.inverse_bind[j];
                *seen
                    .entry((node, ibm.map(f32::to_bits)))
                    .or_insert_with(|| {
                        candidates.push((node, ibm));
                        candidates.len() - 1
                    })
            })
            .collect();
        skin_slots.insert(s, slots);
    }
    let mut rigid_slot = BTreeMap::new();
    for &k in &sel.instances {
        let inst = &scene.instances[k];
        if inst.skin.is_none() && !rigid_slot.contains_key(&inst.node) {
            rigid_slot.insert(inst.node, candidates.len());
            candidates.push((inst.node, IDENTITY));
        }
    }

    // Vertices, with influences as candidate indices.
    let mut vertices: Vec<[f32; 16]> = Vec::new();
    let mut influences: Vec<[(usize, f32); 4]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut renormalised = 0;
    let mut truncated = 0;
    let mut region = 0;
    for &k in &sel.instances {
        let inst = &scene.instances[k];
        let m = sel
            .meshes
            .binary_search(&inst.mesh)
            .map_err(|_| Error("a selected mesh was not imported".into()))?;
        let mesh = &meshes.meshes[m];
        let weights = inst.morph_weights.as_deref().unwrap_or(&mesh.weights);
        let targets = mesh
            .primitives
            .iter()
            .map(|p| p.targets.len())
            .max()
            .unwrap_or(0);
        if targets > 0 {
            warnings.push(format!(
                "mesh {}{}: {targets} morph targets baked at the default weights {weights:?}",
                inst.mesh,
                mesh.name
                    .as_ref()
                    .map(|n| format!(" \"{n}\""))
                    .unwrap_or_default()
            ));
        }
        for prim in &mesh.primitives {
            let remap = &atlas.primitives[region];
            region += 1;
            let (positions, normals) = morphed(prim, weights);
            let base = vertices.len();
            let rigid = rigid_slot.get(&inst.node).copied();
            let flat = normals.is_none();
            // Flat normals need one vertex per triangle corner.
            let corners: Vec<usize> = if flat {
                (0..remap.indices.len()).collect()
            } else {
                (0..remap.vertices.len()).collect()
            };
            for &c in &corners {
                let new = if flat { remap.indices[c] as usize } else { c };
                let src = remap.vertices[new] as usize;
                let normal = match &normals {
                    Some(n) => normalized(n[src]),
                    None => {
                        let t = c / 3 * 3;
                        let p = |i: usize| {
                            positions[remap.vertices[remap.indices[t + i] as usize] as usize]
                        };
                        face_normal(p(0), p(1), p(2))
                    }
                };
                // A selected instance is rigid or of a selected skin.
                let infl = match (rigid, inst.skin.and_then(|s| skin_slots.get(&s))) {
                    (Some(slot), _) => [(slot, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)],
                    (None, None) => return err("a selected instance has no skin and no slot"),
                    (None, Some(slots)) => {
                        let (infl, off, cut) = vertex_influences(prim, src, slots)
                            .map_err(|e| Error(format!("mesh {}: {e}", inst.mesh)))?;
                        renormalised += usize::from(off);
                        truncated += usize::from(cut);
                        infl
                    }
                };
                let p = positions[src];
                let uv = remap.uv[new];
                vertices.push([
                    p[0] as f32,
                    p[1] as f32,
                    p[2] as f32,
                    normal[0] as f32,
                    normal[1] as f32,
                    normal[2] as f32,
                    uv[0],
                    uv[1],
                    0.0,
                    0.0,
                    0.0,
                    0.0,
                    infl[0].1,
                    infl[1].1,
                    infl[2].1,
                    infl[3].1,
                ]);
                influences.push(infl);
            }
            if flat {
                indices.extend((0..corners.len()).map(|c| (base + c) as u32));
            } else {
                indices.extend(remap.indices.iter().map(|&i| base as u32 + i));
            }
        }
    }
    if vertices.len() > kchr::MAX_VERTICES {
        return err(format!(
            "the merged mesh has {} vertices, more than the {} a compiled model holds (flat normals and vertex-colour baking split vertices; simplify the mesh or give it normals)",
            vertices.len(),
            kchr::MAX_VERTICES
        ));
    }
    if indices.len() > kchr::MAX_INDICES {
        return err(format!(
            "the merged mesh has {} triangle indices, more than the {} a compiled model holds",
            indices.len(),
            kchr::MAX_INDICES
        ));
    }
    if renormalised > 0 {
        warnings.push(format!(
            "{renormalised} vertices' weights did not sum to 1: renormalised"
        ));
    }
    if truncated > 0 {
        warnings.push(format!(
            "{truncated} vertices had more than 4 influences: the 4 largest kept, renormalised"
        ));
    }

    // The palette: candidates that carry weight, in candidate order.
    let mut weighted = vec![false; candidates.len()];
    for infl in &influences {
        for &(c, w) in infl {
            if w > 0.0 {
                weighted[c] = true;
            }
        }
    }
    let retained: Vec<usize> = (0..candidates.len()).filter(|&c| weighted[c]).collect();
    if retained.len() > kchr::MAX_JOINTS {
        return err(format!(
            "the rig has {} joints that carry weight; a compiled model holds at most {} (split the character or merge joints)",
            retained.len(),
            kchr::MAX_JOINTS
        ));
    }
    let mut palette_of = vec![0usize; candidates.len()];
    for (p, &c) in retained.iter().enumerate() {
        palette_of[c] = p;
    }
    for (v, infl) in vertices.iter_mut().zip(&influences) {
        for (slot, &(c, w)) in infl.iter().enumerate() {
            v[8 + slot] = if w > 0.0 { palette_of[c] as f32 } else { 0.0 };
        }
    }

    // Nodes: the palette's, the instances' and those the bank animates,
    // with their ancestors.
    let mut wanted: Vec<usize> = sel
        .instances
        .iter()
        .map(|&k| scene.instances[k].node)
        .collect();
    wanted.extend(retained.iter().map(|&c| candidates[c].0));
    wanted.extend_from_slice(animated);
    let order = scene.with_ancestors(&wanted);
    let mut index_of = vec![u32::MAX; scene.nodes.len()];
    for (i, &n) in order.iter().enumerate() {
        index_of[n] = i as u32;
    }
    let nodes = order
        .iter()
        .map(|&n| node(scene, names, n, &index_of))
        .collect::<Result<Vec<_>, _>>()?;
    let mut inverse_bind = Vec::with_capacity(retained.len());
    for &c in &retained {
        inverse_bind.push(affine(candidates[c].1).ok_or_else(|| {
            Error(format!(
                "the inverse-bind matrix of joint node {} \"{}\" is not affine (its last row is not 0 0 0 1)",
                candidates[c].0, names[candidates[c].0]
            ))
        })?);
    }
    let image = kchr::Image {
        width: atlas.image.width,
        height: atlas.image.height,
        qoi: crate::bake::atlas::encode_qoi(&atlas.image),
    };
    let model = kchr::Model {
        id: String::new(),
        bank: 0,
        nodes,
        mesh_node: index_of[scene.instances[sel.instances[0]].node],
        joints: retained
            .iter()
            .map(|&c| index_of[candidates[c].0])
            .collect(),
        inverse_bind,
        vertices,
        indices: indices.into_iter().map(|i| i as u16).collect(),
        image,
    };
    Ok(CompiledModel {
        model,
        warnings,
        renormalised,
        truncated,
    })
}

/// The primitives of the selected instances, in the order [`model`] reads
/// them (what the atlas is built over).
pub fn primitives<'a>(scene: &Scene, sel: &Selection, meshes: &'a Meshes) -> Vec<&'a Primitive> {
    let mut out = Vec::new();
    for &k in &sel.instances {
        let mesh = scene.instances[k].mesh;
        if let Ok(m) = sel.meshes.binary_search(&mesh) {
            out.extend(meshes.meshes[m].primitives.iter());
        }
    }
    out
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The matrix with its last row made exactly `0 0 0 1`, if it is that
/// within rounding.
fn affine(mut m: [f32; 16]) -> Option<[f32; 16]> {
    for (i, want) in [(3, 0.0), (7, 0.0), (11, 0.0), (15, 1.0)] {
        if (m[i] - want).abs() > 1e-6 {
            return None;
        }
        m[i] = want;
    }
    Some(m)
}

/// Positions and normals with the morph targets applied at `weights`.
#[allow(clippy::type_complexity)]
fn morphed(prim: &Primitive, weights: &[f32]) -> (Vec<[f64; 3]>, Option<Vec<[f64; 3]>>) {
    let mut positions: Vec<[f64; 3]> = prim.positions.iter().map(|p| p.map(f64::from)).collect();
    let mut normals: Option<Vec<[f64; 3]>> = prim
        .normals
        .as_ref()
        .map(|n| n.iter().map(|v| v.map(f64::from)).collect());
    for (t, target) in prim.targets.iter().enumerate() {
        let w = f64::from(weights.get(t).copied().unwrap_or(0.0));
        if w == 0.0 {
            continue;
        }
        if let Some(d) = &target.positions {
            for (p, d) in positions.iter_mut().zip(d) {
                for i in 0..3 {
                    p[i] += w * f64::from(d[i]);
                }
            }
        }
        if let (Some(n), Some(d)) = (&mut normals, &target.normals) {
            for (v, d) in n.iter_mut().zip(d) {
                for i in 0..3 {
                    v[i] += w * f64::from(d[i]);
                }
            }
        }
    }
    (positions, normals)
}

fn normalized(v: [f64; 3]) -> [f64; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        [v[0] / len, v[1] / len, v[2] / len]
    } else {
        [0.0, 0.0, 1.0]
    }
}

fn face_normal(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> [f64; 3] {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    normalized([
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ])
}

/// The vertex's four largest influences (candidate index, weight), summed
/// per joint over `JOINTS_0`/`WEIGHTS_0` and `JOINTS_1`/`WEIGHTS_1`
/// (joint `j` is candidate `slots[j]`), renormalised; whether the sum was off
/// 1 (of those not cut), whether more than 4 were cut.
#[allow(clippy::type_complexity)]
fn vertex_influences(
    prim: &Primitive,
    v: usize,
    slots: &[usize],
) -> Result<([(usize, f32); 4], bool, bool), String> {
    let joints = slots.len();
    let mut all: BTreeMap<usize, f64> = BTreeMap::new();
    let sets = [
        (prim.joints.as_ref(), prim.weights.as_ref()),
        (prim.joints_1.as_ref(), prim.weights_1.as_ref()),
    ];
    for (j, w) in sets {
        let (Some(j), Some(w)) = (j, w) else { continue };
        for slot in 0..4 {
            let weight = f64::from(w[v][slot]);
            if weight < -1e-6 {
                return Err(format!("vertex {v} has a negative weight {weight}"));
            }
            if weight <= 0.0 {
                continue;
            }
            let joint = usize::from(j[v][slot]);
            if joint >= joints {
                return Err(format!(
                    "vertex {v} names joint {joint}, but the skin has {joints}"
                ));
            }
            *all.entry(slots[joint]).or_insert(0.0) += weight;
        }
    }
    if prim.joints.is_none() {
        return Err("a skinned mesh's primitive has no JOINTS_0/WEIGHTS_0".into());
    }
    let mut list: Vec<(usize, f64)> = all.into_iter().collect();
    // Largest first; equal weights by joint index (the map's order).
    list.sort_by(|a, b| b.1.total_cmp(&a.1));
    let cut = list.len() > 4;
    list.truncate(4);
    let sum: f64 = list.iter().map(|x| x.1).sum();
    if sum <= 0.0 {
        return Err(format!("vertex {v} has no weight on any joint"));
    }
    let off = !cut && (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE;
    let mut out = [(0usize, 0.0f32); 4];
    for (slot, &(j, w)) in list.iter().enumerate() {
        out[slot] = (j, (w / sum) as f32);
    }
    Ok((out, off, cut))
}

fn node(scene: &Scene, names: &[String], n: usize, index_of: &[u32]) -> Result<kchr::Node, Error> {
    let src = &scene.nodes[n];
    let (translation, rotation, scale) = match src.local {
        LocalTransform::Trs(t) => {
            let q = math::quat_normalize(t.rotation.map(f64::from));
            (t.translation, q.map(|c| c as f32), t.scale)
        }
        LocalTransform::Matrix(m) => {
            let m = m.map(f64::from);
            let (t, q, s) = math::mat4_decompose(&m);
            let back = math::mat4_from_trs(t, q, s);
            let big = m.iter().fold(1.0f64, |a, v| a.max(v.abs()));
            if m.iter()
                .zip(&back)
                .any(|(a, b)| (a - b).abs() > TRS_TOLERANCE * big)
            {
                return err(format!(
                    "node {n} \"{}\": its matrix is not a translation, rotation and scale (it shears or projects); re-export it with TRS",
                    names[n]
                ));
            }
            (
                t.map(|c| c as f32),
                q.map(|c| c as f32),
                s.map(|c| c as f32),
            )
        }
    };
    Ok(kchr::Node {
        name: names[n].clone(),
        parent: src.parent.map(|p| index_of[p]),
        translation,
        rotation,
        scale,
    })
}

// ------------------------------------------------------------ clips

/// Key reduction's tolerances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// World-space error of any joint, in metres.
    pub position_m: f64,
    /// Rotation error of a joint, in degrees.
    pub rotation_deg: f64,
    /// Scale error of a joint (a factor's difference).
    pub scale: f64,
}

/// How a bank's clips are made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipSettings {
    /// Rate for resampling CUBICSPLINE tracks (and every track when
    /// `resample_all`).
    pub resample_hz: f64,
    pub resample_all: bool,
    /// `None`: keys stay as they are.
    pub tolerance: Option<Tolerance>,
}

/// What [`clip`] made.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledClip {
    /// `name` is the caller's to set.
    pub clip: kchr::Clip,
    /// Keys after resampling, before reduction.
    pub keys_before: usize,
    /// Morph weight channels left out (KCHR has no morph targets).
    pub dropped_weights: usize,
    pub warnings: Vec<String>,
    /// At most this far (metres) does any vertex of the skin, or any
    /// joint, move from where the source clip puts it, at any time: the
    /// errors of resampling and of key reduction, each measured at the
    /// distance from its joint of what the joint moves, added along every
    /// chain of joints (see [`reach`]).
    pub worst_m: f64,
}

/// Reach below this counts as this (metres): a leaf joint's rotation still
/// moves what hangs from it (an attachment, a camera).
const MIN_REACH_M: f64 = 0.1;

/// The clip `clip` of `scene` as a bank's clip: one track per channel, by
/// node name (`names`), times from 0, rotations normalized, CUBICSPLINE
/// evaluated (Hermite with its tangents) at `resample_hz` into LINEAR
/// keys, then keys reduced within what the tolerance leaves after
/// resampling. `radius` is, per node of `scene`, how far the skin it
/// carries reaches from it ([`skin_radius`]; missing or 0 where unknown).
/// A clip whose resampling alone moves the skin by more than
/// `position_m` is refused, naming a setting that would meet it. Morph
/// weight channels are dropped (and counted): KCHR has no morph targets.
pub fn clip(
    scene: &Scene,
    names: &[String],
    clip: &Clip,
    settings: &ClipSettings,
    radius: &[f64],
    max_keys: usize,
) -> Result<CompiledClip, Error> {
    let mut warnings = Vec::new();
    let mut kept = 0usize;
    let start = clip
        .channels
        .iter()
        .filter_map(|c| c.times_s.first())
        .fold(f32::INFINITY, |a, &t| a.min(t));
    let start = if start.is_finite() {
        f64::from(start)
    } else {
        0.0
    };
    if start != 0.0 {
        warnings.push(format!("keys start at {start} s: shifted to start at 0"));
    }
    let reach = reach(scene, radius);
    // Resampling's and storage's errors are the floor: reduction may use
    // what is left.
    let budget = match settings.tolerance {
        None => None,
        Some(tol) => {
            let resampling = chain_worst(
                scene,
                &floor_errors(clip, start, settings, &reach, usize::MAX)?.0,
            );
            if resampling > tol.position_m {
                return err(cannot_meet(
                    clip, start, settings, &reach, resampling, &tol, scene,
                ));
            }
            Some(Tolerance {
                position_m: tol.position_m - resampling,
                ..tol
            })
        }
    };
    let mut node_error = vec![0.0f64; scene.nodes.len()];
    let mut tracks = Vec::new();
    let mut dropped = 0;
    let mut keys_before = 0;
    for channel in &clip.channels {
        let Some(path) = track_path(channel) else {
            dropped += 1;
            continue;
        };
        let (times, values, step) = keys(channel, path, start, settings)?;
        keys_before += times.len();
        let at = reach[channel.node];
        if resampled(channel, settings) {
            node_error[channel.node] += resample_error(channel, path, start, &times, &values, at);
        }
        let (times, values) = match &budget {
            Some(tol) if !step => {
                let (t, v, e) = reduce(&times, &values, path, tol, at);
                node_error[channel.node] += e;
                (t, v)
            }
            _ => (times, values),
        };
        node_error[channel.node] += storage_error(&times, &values, path, at);
        // The bank's limit holds as the keys are made, not once all exist.
        kept += times.len();
        if kept > max_keys {
            return err(format!(
                "with this clip the bank holds more than {max_keys} keys{}; a bank holds at most {} (set a `tolerance:` to reduce them, or take fewer animations)",
                match max_keys < kchr::MAX_KEYS {
                    true => " more",
                    false => "",
                },
                kchr::MAX_KEYS
            ));
        }
        let (times_s, values, merged) = in_float32(&times, &values, path.width());
        if merged > 0 {
            warnings.push(format!(
                "node \"{}\" {}: {merged} key(s) fell on the float32 time of the key after them once the clip starts at 0, and were merged into it",
                names[channel.node],
                path.name()
            ));
        }
        tracks.push(kchr::Track {
            node: names[channel.node].clone(),
            path,
            step,
            times_s,
            values,
        });
    }
    tracks.sort_by(|a, b| (a.node.as_bytes(), a.path).cmp(&(b.node.as_bytes(), b.path)));
    if let Some(w) = tracks
        .windows(2)
        .find(|w| w[0].node == w[1].node && w[0].path == w[1].path)
    {
        return err(format!(
            "two channels animate the {} of node \"{}\"",
            w[0].path.name(),
            w[0].node
        ));
    }
    let duration = tracks
        .iter()
        .filter_map(|t| t.times_s.last().copied())
        .fold(0.0f32, f32::max);
    if duration > kchr::MAX_DURATION_S {
        return err(format!(
            "the clip lasts {duration} s, more than the {} s a compiled clip may",
            kchr::MAX_DURATION_S
        ));
    }
    Ok(CompiledClip {
        clip: kchr::Clip {
            name: String::new(),
            duration_s: duration,
            tracks,
        },
        keys_before,
        dropped_weights: dropped,
        warnings,
        worst_m: chain_worst(scene, &node_error),
    })
}

/// The KCHR path a channel becomes; `None` for morph weights (dropped).
fn track_path(channel: &Channel) -> Option<kchr::Path> {
    match channel.target {
        Target::Translation => Some(kchr::Path::Translation),
        Target::Rotation => Some(kchr::Path::Rotation),
        Target::Scale => Some(kchr::Path::Scale),
        Target::Weights { .. } => None,
    }
}

/// The node names a clip animates (its tracks' nodes), by `names`.
pub fn clip_animated<'a>(names: &'a [String], clip: &'a Clip) -> impl Iterator<Item = &'a str> {
    clip.channels
        .iter()
        .filter(|c| track_path(c).is_some())
        .map(|c| names[c.node].as_str())
}

/// Per node, the error no key reduction can take back, added: its
/// resampled channels' resampling error ([`resample_error`]) and every
/// channel's float32 storage error over all its keys ([`storage_error`]:
/// reduction keeps a subset of them, whose storage error is no larger).
/// Also the keys resampling made: the channels resampled one at a time,
/// stopping (`None`) once more than `max_keys` are made.
fn floor_errors(
    clip: &Clip,
    start: f64,
    settings: &ClipSettings,
    reach: &[Reach],
    max_keys: usize,
) -> Result<(Vec<f64>, Option<usize>), Error> {
    let mut per_node = vec![0.0f64; reach.len()];
    let mut made = 0usize;
    for channel in &clip.channels {
        let Some(path) = track_path(channel) else {
            continue;
        };
        let resampled = resampled(channel, settings);
        if resampled {
            made = made.saturating_add(source_keys(channel, settings)?);
            if made > max_keys {
                return Ok((per_node, None));
            }
        }
        let (times, values, _) = keys(channel, path, start, settings)?;
        let at = reach[channel.node];
        if resampled {
            per_node[channel.node] += resample_error(channel, path, start, &times, &values, at);
        }
        per_node[channel.node] += storage_error(&times, &values, path, at);
    }
    Ok((per_node, Some(made)))
}

/// Rates offered when a clip's resampling misses its tolerance: common
/// frame rates and their multiples, up to the most the characters kind
/// takes (1,000 Hz).
const RATES_HZ: [f64; 25] = [
    24.0, 25.0, 30.0, 48.0, 50.0, 60.0, 72.0, 90.0, 96.0, 100.0, 120.0, 144.0, 150.0, 180.0, 192.0,
    200.0, 240.0, 300.0, 360.0, 384.0, 480.0, 600.0, 720.0, 960.0, 1000.0,
];

/// Why a clip's resampling misses the tolerance, and what would meet it:
/// `resample: cubic` (LINEAR keys kept as they are) when that does at
/// this rate, and the lowest rate of [`RATES_HZ`] above this one that
/// does (trying rates while their keys together stay under
/// [`MAX_BANK_SOURCE_KEYS`]); when neither does, a larger `position_m`.
fn cannot_meet(
    clip: &Clip,
    start: f64,
    settings: &ClipSettings,
    reach: &[Reach],
    resampling: f64,
    tol: &Tolerance,
    scene: &Scene,
) -> String {
    let meets = |s: &ClipSettings, budget: &mut usize| -> Option<bool> {
        let (per_node, made) = floor_errors(clip, start, s, reach, *budget).ok()?;
        *budget -= made?;
        Some(chain_worst(scene, &per_node) <= tol.position_m)
    };
    let mut budget = MAX_BANK_SOURCE_KEYS;
    let cubic = settings.resample_all
        && meets(
            &ClipSettings {
                resample_all: false,
                ..*settings
            },
            &mut budget,
        ) == Some(true);
    let mut rate = None;
    for &r in RATES_HZ.iter().filter(|&&r| r > settings.resample_hz) {
        let s = ClipSettings {
            resample_hz: r,
            ..*settings
        };
        match meets(&s, &mut budget) {
            Some(true) => {
                rate = Some(r);
                break;
            }
            Some(false) => {}
            None => break,
        }
    }
    let hint = match (cubic, rate) {
        (true, Some(r)) => format!(
            "`resample: cubic` (LINEAR keys kept as they are) meets it, and so does `resample_hz: {r}`"
        ),
        (true, None) => "`resample: cubic` (LINEAR keys kept as they are) meets it".to_string(),
        (false, Some(r)) => format!("`resample_hz: {r}` meets it"),
        (false, None) => format!(
            "no rate up to {} Hz meets it: raise position_m",
            RATES_HZ[RATES_HZ.len() - 1]
        ),
    };
    format!(
        "resampled at {} Hz, the clip moves the skin up to {} from the source, more than the tolerance's position_m {} ({}); {hint}",
        settings.resample_hz,
        millimetres(resampling),
        tol.position_m,
        millimetres(tol.position_m)
    )
}

/// A distance in metres written in millimetres for a person: two decimals,
/// or two significant digits below 0.01 mm.
pub fn millimetres(m: f64) -> String {
    let mm = m * 1000.0;
    match mm {
        0.0 => "0 mm".to_string(),
        x if x >= 0.01 => format!("{x:.2} mm"),
        x => format!("{x:.1e} mm"),
    }
}

/// How far the linear keys `times`/`values` (from the clip's start) made
/// from `channel` stray from the channel itself, in metres where the skin
/// is ([`error_m`]). Checked at every source key inside each step; a
/// CUBICSPLINE source also at 7 points across each step (it is sampled);
/// a LINEAR one's rotations also halfway between each two neighbouring
/// key times of either (two slerps part most near their keys, not only
/// at them). A LINEAR translation or scale needs no more: the difference
/// of two piecewise linear functions is linear between their keys, so it
/// is largest at one of them, and at the output's keys it is zero.
fn resample_error(
    channel: &Channel,
    path: kchr::Path,
    start: f64,
    times: &[f64],
    values: &[f64],
    at: Reach,
) -> f64 {
    let w = path.width();
    let key = |i: usize| -> [f64; 4] { as4(&values[i * w..(i + 1) * w]) };
    let source = |t: f64| -> [f64; 4] {
        match path {
            kchr::Path::Rotation => sample::sample_rotation(channel, t + start, 0.0),
            _ => {
                let v = sample::sample3(channel, t + start, 0.0);
                [v[0], v[1], v[2], 0.0]
            }
        }
    };
    let cubic = channel.interpolation == Interpolation::CubicSpline;
    let halves = !cubic && path == kchr::Path::Rotation;
    let mut worst = 0.0f64;
    let mut src = 0;
    for k in 0..times.len().saturating_sub(1) {
        let (t0, t1) = (times[k], times[k + 1]);
        let mut check = |t: f64| {
            let u = (t - t0) / (t1 - t0);
            let out = lerp_key(path, key(k), key(k + 1), u);
            worst = worst.max(error_m(path, out, source(t), at));
        };
        if cubic {
            for j in 1..8 {
                check(t0 + (t1 - t0) * f64::from(j) / 8.0);
            }
        }
        while src < channel.times_s.len() && f64::from(channel.times_s[src]) - start <= t0 {
            src += 1;
        }
        let mut before = t0;
        while src < channel.times_s.len() && f64::from(channel.times_s[src]) - start < t1 {
            let t = f64::from(channel.times_s[src]) - start;
            if halves {
                check((before + t) / 2.0);
            }
            check(t);
            before = t;
            src += 1;
        }
        if halves {
            check((before + t1) / 2.0);
        }
    }
    worst
}

fn as4(k: &[f64]) -> [f64; 4] {
    [k[0], k[1], k[2], if k.len() == 4 { k[3] } else { 0.0 }]
}

/// Linear interpolation of two keys as the runtime does it: lerp, or
/// slerp for rotations.
fn lerp_key(path: kchr::Path, a: [f64; 4], b: [f64; 4], u: f64) -> [f64; 4] {
    match path {
        kchr::Path::Rotation => math::quat_slerp(a, b, u),
        _ => [
            a[0] + (b[0] - a[0]) * u,
            a[1] + (b[1] - a[1]) * u,
            a[2] + (b[2] - a[2]) * u,
            0.0,
        ],
    }
}

/// How far (metres) the difference between two values of one channel
/// moves what the node carries: a translation's difference times the
/// parent's scale; a rotation's by the chord it sweeps at the reach
/// (`2·sin(angle/2)·reach = 2·sqrt(1 − dot²)·reach`); a scale's relative
/// difference (to the node's rest scale) times the reach.
fn error_m(path: kchr::Path, a: [f64; 4], b: [f64; 4], at: Reach) -> f64 {
    match path {
        kchr::Path::Translation => {
            (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt() * at.parent_scale
        }
        kchr::Path::Scale => {
            let d = (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0f64, f64::max);
            d / at.rest_scale * at.reach
        }
        kchr::Path::Rotation => {
            let dot = math::quat_dot(a, b).abs().min(1.0);
            2.0 * (1.0 - dot * dot).sqrt() * at.reach
        }
    }
}

/// How far storing keys in float32 moves what the node carries, at most:
/// each key's value as a reader takes it (rotations normalized), and its
/// time, which moves the key along its neighbouring segments (by the
/// segment's change times the time's share of it). Between two keys the
/// interpolation of the stored values stays within the larger of their
/// two errors.
fn storage_error(times: &[f64], values: &[f64], path: kchr::Path, at: Reach) -> f64 {
    let width = path.width();
    let key = |i: usize| as4(&values[i * width..(i + 1) * width]);
    let n = times.len().min(values.len() / width);
    let mut worst = 0.0f64;
    for i in 0..n {
        let a = key(i);
        let mut b = a.map(|x| f64::from(x as f32));
        if path == kchr::Path::Rotation {
            b = math::quat_normalize(b);
        }
        let mut e = error_m(path, a, b, at);
        let shift = (f64::from(times[i] as f32) - times[i]).abs();
        if shift > 0.0 {
            let mut slope = 0.0f64;
            for (j, k) in [(i.wrapping_sub(1), i), (i, i + 1)] {
                if k < n && j < n && times[k] > times[j] {
                    slope = slope.max(error_m(path, key(j), key(k), at) / (times[k] - times[j]));
                }
            }
            e += slope * shift;
        }
        worst = worst.max(e);
    }
    worst
}

/// A track's keys (f64 times from the clip's start, flat values `width`
/// wide) in the output's float32, and how many were merged: times are
/// shifted in f64 and rounded once, so two source keys closer than a
/// float32 step at their time can meet; the later of them is kept (it
/// holds from that time on), so the times strictly increase.
fn in_float32(times: &[f64], values: &[f64], width: usize) -> (Vec<f32>, Vec<f32>, usize) {
    let mut t32: Vec<f32> = Vec::with_capacity(times.len());
    let mut v32: Vec<f32> = Vec::with_capacity(values.len());
    let mut merged = 0;
    for (k, &t) in times.iter().enumerate() {
        let t = t as f32;
        let value = values[k * width..(k + 1) * width].iter().map(|&v| v as f32);
        if t32.last() == Some(&t) {
            merged += 1;
            let at = v32.len() - width;
            v32.truncate(at);
            t32.pop();
        }
        t32.push(t);
        v32.extend(value);
    }
    (t32, v32, merged)
}

/// Most keys one track of a source may have (or make, resampled) before
/// reduction: a minute at 10 kHz, far beyond any clip; it bounds one
/// track's memory (about 40 MB) and its reduction's work.
pub const MAX_TRACK_SOURCE_KEYS: usize = 1 << 20;

/// Most keys all the tracks of a bank's clips may have (or make) before
/// reduction, checked clip by clip before a clip's keys are made: the
/// bank's work (a reduction visits each key a few dozen times).
pub const MAX_BANK_SOURCE_KEYS: usize = 1 << 24;

/// Whether `channel`'s keys are made by resampling it at `resample_hz`:
/// CUBICSPLINE always, LINEAR with `resample_all`.
fn resampled(channel: &Channel, settings: &ClipSettings) -> bool {
    channel.interpolation == Interpolation::CubicSpline
        || (settings.resample_all && channel.interpolation == Interpolation::Linear)
}

/// How many keys `channel` has before reduction: its own, or, resampled,
/// one per step of `1 / resample_hz` from its first key to its last and
/// the last. Refused beyond [`MAX_TRACK_SOURCE_KEYS`].
fn source_keys(channel: &Channel, settings: &ClipSettings) -> Result<usize, Error> {
    let n = match resampled(channel, settings) {
        false => channel.times_s.len(),
        true => {
            let first = f64::from(channel.times_s[0]);
            let last = f64::from(*channel.times_s.last().expect("a channel has keys"));
            let (rate, span) = (settings.resample_hz, last - first);
            let steps = (span * rate).ceil();
            if !(steps.is_finite() && steps < MAX_TRACK_SOURCE_KEYS as f64) {
                return err(format!(
                    "resampling {span} s at {rate} Hz makes more than the {MAX_TRACK_SOURCE_KEYS} keys a track may have"
                ));
            }
            steps as usize + 1
        }
    };
    if n > MAX_TRACK_SOURCE_KEYS {
        return err(format!(
            "a channel has {n} keys, more than the {MAX_TRACK_SOURCE_KEYS} a track may have"
        ));
    }
    Ok(n)
}

/// The keys the clip's tracks have (or make, resampled) before reduction,
/// counted without making them: what [`clip`] will hold, one track at a
/// time, and the work of reducing them. Morph weight channels are not
/// counted (they are dropped).
pub fn clip_source_keys(clip: &Clip, settings: &ClipSettings) -> Result<usize, Error> {
    let mut total = 0usize;
    for channel in &clip.channels {
        if !matches!(channel.target, Target::Weights { .. }) {
            total = total.saturating_add(source_keys(channel, settings)?);
        }
    }
    Ok(total)
}

/// A channel's keys as (times from 0, flat values, step), in f64:
/// STEP and LINEAR as they are (rotations normalized), CUBICSPLINE (or any,
/// with `resample_all`) evaluated at `resample_hz` from its first key to
/// its last (which is always a key).
fn keys(
    channel: &Channel,
    path: kchr::Path,
    start: f64,
    settings: &ClipSettings,
) -> Result<(Vec<f64>, Vec<f64>, bool), Error> {
    let width = path.width();
    let first = f64::from(channel.times_s[0]);
    let last = f64::from(*channel.times_s.last().expect("a channel has keys"));
    let resample = resampled(channel, settings);
    let sample = |t: f64, tol: f64| -> Vec<f64> {
        match path {
            kchr::Path::Rotation => sample::sample_rotation(channel, t, tol).to_vec(),
            _ => sample::sample3(channel, t, tol).to_vec(),
        }
    };
    if !resample {
        source_keys(channel, settings)?;
        let mut values = Vec::with_capacity(channel.times_s.len() * width);
        for &t in &channel.times_s {
            values.extend(sample(f64::from(t), 0.0));
        }
        let times = channel
            .times_s
            .iter()
            .map(|&t| f64::from(t) - start)
            .collect();
        return Ok((times, values, channel.interpolation == Interpolation::Step));
    }
    let rate = settings.resample_hz;
    let n = source_keys(channel, settings)? - 1;
    let mut times = Vec::with_capacity(n + 1);
    let mut values = Vec::with_capacity((n + 1) * width);
    // The grid and the last key meet in the time domain the output uses
    // (float32 seconds from the clip's start): a grid time that is not
    // before the last key's there is the last key's (at 24 or 30 Hz the
    // grid time 55/30 and a last key of f32(55/30) are different f64s
    // but one float32).
    let last_out = (last - start) as f32;
    for k in 0..n {
        // Each key is the source at the time the output stores for it.
        let out = (first + k as f64 / rate - start) as f32;
        if out >= last_out {
            break;
        }
        times.push(f64::from(out));
        values.extend(sample(f64::from(out) + start, 0.0));
    }
    times.push(last - start);
    values.extend(sample(last, 0.0));
    Ok((times, values, false))
}

/// How far the skin of `model` reaches from each of its nodes, by node
/// name: the largest distance, in the bind pose (world space), between a
/// node and a vertex it carries (a vertex with weight on it, as that joint
/// alone would place it). The characters kind gives a bank's clips the
/// largest of these over the models bound to the bank ([`clip`]'s
/// `radius`).
pub fn skin_radius(model: &kchr::Model) -> BTreeMap<String, f64> {
    let world = skinning::world_matrices(model, &skinning::local_poses(model, None, 0.0));
    let carried: Vec<Mat4> = model
        .joints
        .iter()
        .zip(&model.inverse_bind)
        .map(|(&j, ibm)| {
            let w = world
                .get(j as usize)
                .copied()
                .unwrap_or(IDENTITY.map(f64::from));
            math::mat4_mul(&w, &ibm.map(f64::from))
        })
        .collect();
    let mut radius = vec![0.0f64; model.nodes.len()];
    for v in &model.vertices {
        let p = [v[0], v[1], v[2]].map(f64::from);
        for k in 0..4 {
            let j = v[8 + k] as usize;
            let (Some(m), Some(&node)) = (carried.get(j), model.joints.get(j)) else {
                continue;
            };
            let (Some(r), Some(w)) = (radius.get_mut(node as usize), world.get(node as usize))
            else {
                continue;
            };
            if v[12 + k] == 0.0 {
                continue;
            }
            let q: [f64; 3] = std::array::from_fn(|i| {
                m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i]
            });
            *r = r.max(distance(q, math::mat4_translation(w)));
        }
    }
    model
        .nodes
        .iter()
        .zip(radius)
        .map(|(n, r)| (n.name.clone(), r))
        .collect()
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Each node's depth (edges up to its root), in O(nodes): every parent
/// chain walked once.
fn depths(scene: &Scene) -> Vec<usize> {
    let n = scene.nodes.len();
    let mut depth: Vec<Option<usize>> = vec![None; n];
    let mut stack = Vec::new();
    for i in 0..n {
        let mut at = Some(i);
        while let Some(x) = at {
            if depth[x].is_some() || stack.len() > n {
                break;
            }
            stack.push(x);
            at = scene.nodes[x].parent;
        }
        while let Some(x) = stack.pop() {
            let above = scene.nodes[x].parent.and_then(|p| depth[p]);
            depth[x] = Some(above.map_or(0, |d| d + 1));
        }
    }
    depth.into_iter().map(|d| d.unwrap_or(0)).collect()
}

/// The largest sum of `per_node` along any chain from a root down: how
/// far errors at each node (each moving everything below it) can add up.
fn chain_worst(scene: &Scene, per_node: &[f64]) -> f64 {
    let depth = depths(scene);
    let mut order: Vec<usize> = (0..scene.nodes.len()).collect();
    order.sort_by_key(|&i| depth[i]);
    let mut sum = vec![0.0f64; order.len()];
    let mut worst = 0.0f64;
    for i in order {
        let above = scene.nodes[i].parent.map_or(0.0, |p| sum[p]);
        sum[i] = above + per_node.get(i).copied().unwrap_or(0.0);
        worst = worst.max(sum[i]);
    }
    worst
}

/// For each node: how far from it (world space, in the rest pose) the
/// farthest thing it moves can be (at least [`MIN_REACH_M`]): its own
/// skin's `radius`, or a descendant's reach plus the bones' lengths down
/// to it (a bent limb's vertices stay within that in every pose); the
/// largest world scale of its parent (which turns a local translation
/// error into a world one); its rest scale (a scale error is relative to
/// it); and its share of the tolerance.
fn reach(scene: &Scene, radius: &[f64]) -> Vec<Reach> {
    let empty = Clip {
        name: None,
        channels: vec![],
    };
    let n = scene.nodes.len();
    let all: Vec<usize> = (0..n).collect();
    let mut eval = Evaluation::new(scene, &empty, &all);
    eval.evaluate(0.0, 0.0);
    let world: Vec<Mat4> = all.iter().map(|&i| *eval.world(i)).collect();
    let pos = |i: usize| math::mat4_translation(&world[i]);
    let scale = |m: &Mat4| {
        (0..3)
            .map(|c| {
                (m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] + m[4 * c + 2] * m[4 * c + 2])
                    .sqrt()
            })
            .fold(0.0f64, f64::max)
    };
    // Deepest first: a node's reach and height are final before its
    // parent takes them.
    let depth = depths(scene);
    let mut order: Vec<usize> = all.clone();
    order.sort_by_key(|&i| std::cmp::Reverse(depth[i]));
    let mut far: Vec<f64> = (0..n)
        .map(|i| radius.get(i).copied().unwrap_or(0.0))
        .collect();
    let mut height = vec![0usize; n];
    for &i in &order {
        if let Some(p) = scene.nodes[i].parent {
            far[p] = far[p].max(far[i] + distance(pos(i), pos(p)));
            height[p] = height[p].max(height[i] + 1);
        }
    }
    // The longest root-to-leaf chain through each node: its nodes' errors
    // add up along it, so each of a node's three channels gets a share of
    // the tolerance no larger than 1 / (3 × that chain's length).
    (0..n)
        .map(|i| {
            let parent = scene.nodes[i].parent.map_or(1.0, |p| scale(&world[p]));
            let rest = match &scene.nodes[i].local {
                LocalTransform::Trs(t) => t
                    .scale
                    .iter()
                    .fold(f64::INFINITY, |a, &s| a.min(f64::from(s).abs())),
                LocalTransform::Matrix(m) => math::mat4_decompose(&m.map(f64::from))
                    .2
                    .iter()
                    .fold(f64::INFINITY, |a, &s| a.min(s.abs())),
            };
            let chain = (depth[i] + height[i] + 1) as f64;
            Reach {
                reach: far[i].max(MIN_REACH_M),
                parent_scale: parent,
                rest_scale: rest.max(MIN_REST_SCALE),
                share: 1.0 / (3.0 * chain),
            }
        })
        .collect()
}

/// A rest scale below this counts as this when a scale error is taken
/// relative to it (a node scaled to nothing at rest keeps its keys).
const MIN_REST_SCALE: f64 = 1e-6;

/// What an error at one node amounts to (see [`reach`]).
#[derive(Clone, Copy, Debug)]
struct Reach {
    /// How far from the node the farthest thing it moves can be (world
    /// space).
    reach: f64,
    /// The largest world scale of its parent.
    parent_scale: f64,
    /// The smallest of its own rest scale's factors.
    rest_scale: f64,
    /// The share of `position_m` each of its channels may use.
    share: f64,
}

/// Most keys one reduced segment may span: with the galloping search of
/// [`reduce`], a track's work is at most about `keys × 2·log2(MAX_SPAN)`
/// error checks (20 a key).
const MAX_SPAN: usize = 1024;

/// Removes keys that linear interpolation between the kept ones reproduces
/// within `tol` (greedy, from the first key: each segment ends at a key
/// that a galloping then halving search finds, every key it spans
/// checked). The error of a key is measured where it matters
/// ([`error_m`]); each channel may use its node's share of `position_m`,
/// so that the errors along any chain of joints add up to at most
/// `position_m`; a rotation also within `rotation_deg` and a scale within
/// `scale`. A track whose keys all equal its first within the tolerance
/// keeps one key. Returns the kept keys and the largest error (metres) of
/// a dropped key.
fn reduce(
    times: &[f64],
    values: &[f64],
    path: kchr::Path,
    tol: &Tolerance,
    at: Reach,
) -> (Vec<f64>, Vec<f64>, f64) {
    reduce_counted(times, values, path, tol, at, &mut 0)
}

/// [`reduce`], adding the error checks it made to `checks` (its work).
fn reduce_counted(
    times: &[f64],
    values: &[f64],
    path: kchr::Path,
    tol: &Tolerance,
    at: Reach,
    checks: &mut usize,
) -> (Vec<f64>, Vec<f64>, f64) {
    let position_m = tol.position_m * at.share;
    let w = path.width();
    let n = times.len();
    if n <= 2 {
        return (times.to_vec(), values.to_vec(), 0.0);
    }
    let key = |i: usize| -> [f64; 4] { as4(&values[i * w..(i + 1) * w]) };
    let cos_half = libm::cos(tol.rotation_deg.to_radians() / 2.0);
    let close = |a: [f64; 4], b: [f64; 4]| -> bool {
        let local = match path {
            kchr::Path::Translation => true,
            kchr::Path::Scale => (0..3).all(|i| (a[i] - b[i]).abs() <= tol.scale),
            kchr::Path::Rotation => math::quat_dot(a, b).abs().min(1.0) >= cos_half,
        };
        local && error_m(path, a, b, at) <= position_m
    };
    let lerp = |a: usize, b: usize, t: f64| -> [f64; 4] {
        let u = (t - times[a]) / (times[b] - times[a]);
        lerp_key(path, key(a), key(b), u)
    };
    let k0 = key(0);
    if (1..n).all(|i| close(key(i), k0)) {
        let worst = (1..n)
            .map(|i| error_m(path, key(i), k0, at))
            .fold(0.0f64, f64::max);
        return (vec![times[0]], values[..w].to_vec(), worst);
    }
    // Every key strictly between a and c is reproduced by a segment a–c.
    let mut holds = |a: usize, c: usize| {
        ((a + 1)..c).all(|i| {
            *checks += 1;
            close(lerp(a, c, times[i]), key(i))
        })
    };
    let mut kept = vec![0usize];
    let mut a = 0;
    while a < n - 1 {
        // The end of the segment from a: galloping (spans 2, 4, 8, … while
        // they hold), then halving between the last that held and the first
        // that did not. Each try checks the keys it spans, so a key is
        // checked O(log MAX_SPAN) times, not O(MAX_SPAN).
        let last = (n - 1).min(a + MAX_SPAN);
        let (mut good, mut bad) = (a + 1, None);
        let mut span = 2;
        while bad.is_none() && good < last {
            let c = (a + span).min(last);
            match holds(a, c) {
                true => good = c,
                false => bad = Some(c),
            }
            span *= 2;
        }
        if let Some(mut bad) = bad {
            while bad - good > 1 {
                let mid = good + (bad - good) / 2;
                match holds(a, mid) {
                    true => good = mid,
                    false => bad = mid,
                }
            }
        }
        kept.push(good);
        a = good;
    }
    let worst = kept
        .windows(2)
        .flat_map(|s| ((s[0] + 1)..s[1]).map(move |i| (s[0], s[1], i)))
        .map(|(a, c, i)| error_m(path, lerp(a, c, times[i]), key(i), at))
        .fold(0.0f64, f64::max);
    let t = kept.iter().map(|&i| times[i]).collect();
    let v = kept
        .iter()
        .flat_map(|&i| values[i * w..(i + 1) * w].iter().copied())
        .collect();
    (t, v, worst)
}

// ------------------------------------------------------------ binding

/// How a bank's track names find a model's nodes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeMap {
    /// Characters ignored when comparing names (e.g. `"."`: `Foot.L`
    /// finds `FootL`).
    pub ignore: String,
    /// Model node name -> bank track name, taking precedence.
    pub pairs: BTreeMap<String, String>,
}

/// The node names a compiled bank animates.
pub fn bank_animated(bank: &kchr::Bank) -> BTreeSet<String> {
    bank.clips
        .iter()
        .flat_map(|c| c.tracks.iter().map(|t| t.node.clone()))
        .collect()
}

/// The file's node names (`names`, from [`node_names`]) renamed to the
/// names the bank `bank_id` animates them by (`animated`: its tracks'
/// nodes, from [`clip_animated`] or [`bank_animated`]), under `map`, and
/// the nodes the bank animates (which the model must hold). Every name the
/// bank animates must be a node of the file, or the error lists those
/// missing.
pub fn bind(
    names: &[String],
    bank_id: &str,
    animated: &BTreeSet<String>,
    map: &NodeMap,
) -> Result<(Vec<String>, Vec<usize>), Error> {
    let animated: BTreeSet<&str> = animated.iter().map(String::as_str).collect();
    let mut renamed = names.to_vec();
    if !map.ignore.is_empty() || !map.pairs.is_empty() {
        let strip =
            |s: &str| -> String { s.chars().filter(|c| !map.ignore.contains(*c)).collect() };
        // Bank names by their stripped form; a stripped form two names
        // share is ambiguous and matches nothing.
        let mut by_key: BTreeMap<String, Option<&str>> = BTreeMap::new();
        for &a in &animated {
            by_key
                .entry(strip(a))
                .and_modify(|v| *v = None)
                .or_insert(Some(a));
        }
        for from in map.pairs.keys() {
            if !names.contains(from) {
                return err(format!(
                    "node_map pairs name node \"{from}\", which the model's file does not have"
                ));
            }
        }
        for name in &mut renamed {
            let target = match map.pairs.get(name.as_str()) {
                Some(t) => Some(t.clone()),
                None if animated.contains(name.as_str()) => None,
                None if map.ignore.is_empty() => None,
                None => by_key
                    .get(&strip(name))
                    .copied()
                    .flatten()
                    .map(str::to_string),
            };
            if let Some(t) = target {
                *name = t;
            }
        }
        let mut seen = BTreeMap::new();
        for (i, n) in renamed.iter().enumerate() {
            if let Some(first) = seen.insert(n.as_str(), i) {
                return err(format!(
                    "node_map gives nodes {first} (\"{}\") and {i} (\"{}\") the one name \"{n}\"",
                    names[first], names[i]
                ));
            }
        }
    }
    let index: BTreeMap<&str, usize> = renamed
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let missing: Vec<&str> = animated
        .iter()
        .copied()
        .filter(|a| !index.contains_key(a))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing
            .iter()
            .take(20)
            .map(|m| format!("\"{m}\""))
            .collect();
        return err(format!(
            "the model lacks {} of the {} nodes its bank \"{}\" animates: {}{}; map them with `node_map` (pairs, or `ignore` characters)",
            missing.len(),
            animated.len(),
            bank_id,
            shown.join(", "),
            if missing.len() > 20 { ", …" } else { "" }
        ));
    }
    let nodes = animated.iter().map(|a| index[a]).collect();
    Ok((renamed, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Node, Skin, Trs};

    fn scene_named(names: &[Option<&str>]) -> Scene {
        Scene {
            nodes: names
                .iter()
                .map(|n| Node {
                    name: n.map(str::to_string),
                    parent: None,
                    children: vec![],
                    local: LocalTransform::Trs(Trs::IDENTITY),
                })
                .collect(),
            ..Scene::default()
        }
    }

    #[test]
    fn names_are_made_unique_non_empty_and_short_the_same_way_every_time() {
        let long = "é".repeat(70); // 140 bytes
        let s = scene_named(&[
            Some("a"),
            Some("a"),
            None,
            Some(""),
            Some("a"),
            Some("a~2"),
            Some(&long),
            Some(&long),
        ]);
        let n = node_names(&s);
        assert_eq!(&n[..6], ["a", "a~2", "node2", "node3", "a~3", "a~2~2"]);
        assert_eq!(n[6], "é".repeat(64));
        // Cut to leave room for the suffix, on a character boundary.
        assert_eq!(n[7], "é".repeat(63) + "~2");
        assert!(n.iter().all(|x| x.len() <= kchr::MAX_NAME));
        assert_eq!(node_names(&s), n);
    }

    #[test]
    fn skins_over_different_joints_need_a_choice_and_the_same_joints_merge() {
        let mut s = scene_named(&[Some("a"), Some("b"), Some("c"), Some("m1"), Some("m2")]);
        let skin = |joints: Vec<usize>| Skin {
            name: None,
            inverse_bind: vec![IDENTITY; joints.len()],
            joints,
            skeleton: None,
        };
        s.skins = vec![skin(vec![0, 1]), skin(vec![1, 0]), skin(vec![2])];
        let inst = |node, skin| crate::model::Instance {
            node,
            mesh: node - 3,
            skin: Some(skin),
            morph_weights: None,
        };
        s.instances = vec![inst(3, 0), inst(4, 1)];
        let (sel, warnings) = select(&s, None).unwrap();
        assert_eq!(sel.skins, [0, 1]);
        assert_eq!(sel.instances, [0, 1]);
        assert!(warnings.is_empty());
        s.instances[1].skin = Some(2);
        let e = select(&s, None).unwrap_err();
        assert_eq!(
            e.0,
            "the file draws meshes with 2 skins (skin 0, skin 2): choose one with `skin:`"
        );
        let (sel, warnings) = select(&s, Some(2)).unwrap();
        assert_eq!(
            (sel.skins, sel.instances, sel.meshes),
            (vec![2], vec![1], vec![1])
        );
        assert_eq!(warnings.len(), 1);
        assert!(select(&s, Some(3)).is_err());
    }

    fn tol() -> Tolerance {
        Tolerance {
            position_m: 0.01,
            rotation_deg: 1.0,
            scale: 0.01,
        }
    }

    const AT: Reach = Reach {
        reach: 1.0,
        parent_scale: 1.0,
        rest_scale: 1.0,
        share: 1.0,
    };

    /// The work of a reduction is a few dozen checks a key, not hundreds:
    /// a million-key straight line (every segment as long as it may be,
    /// the worst case of a greedy search) and a million keys of noise
    /// (every key kept). Counted, not timed.
    #[test]
    fn reduction_checks_each_key_a_bounded_number_of_times() {
        let n = 1_000_000usize;
        let times: Vec<f64> = (0..n).map(|k| k as f64 / 1000.0).collect();
        let line: Vec<f64> = (0..n).flat_map(|k| [k as f64 * 1e-3, 0.0, 0.0]).collect();
        let counted = |values: &[f64]| {
            let mut checks = 0;
            let (t, v, _) = reduce_counted(
                &times,
                values,
                kchr::Path::Translation,
                &tol(),
                AT,
                &mut checks,
            );
            (t, v, checks)
        };
        let (t, _, checks) = counted(&line);
        assert_eq!(
            t.len(),
            (n - 1).div_ceil(MAX_SPAN) + 1,
            "segments of MAX_SPAN keys"
        );
        assert!(checks <= 2 * n, "{checks} checks for {n} keys");
        let noise: Vec<f64> = (0..n)
            .flat_map(|k| [if k % 2 == 0 { 0.0 } else { 1.0 }, 0.0, 0.0])
            .collect();
        let (t, _, checks) = counted(&noise);
        assert_eq!(t.len(), n, "nothing to drop");
        assert!(checks <= 2 * n, "{checks} checks for {n} keys");
        // Between those, a slow wave: every dropped key still within the
        // tolerance of the kept keys' interpolation, and work bounded.
        let wave: Vec<f64> = (0..n)
            .flat_map(|k| [libm::sin(k as f64 * 1e-3), 0.0, 0.0])
            .collect();
        let (t, v, checks) = counted(&wave);
        assert!(checks <= 24 * n, "{checks} checks for {n} keys");
        assert!(t.len() < n / 10, "{} keys kept", t.len());
        let mut seg = 0;
        for (k, &time) in times.iter().enumerate() {
            while t[seg + 1] < time {
                seg += 1;
            }
            let u = (time - t[seg]) / (t[seg + 1] - t[seg]);
            let x = v[seg * 3] + (v[seg * 3 + 3] - v[seg * 3]) * u;
            assert!((x - wave[k * 3]).abs() <= 0.01 + 1e-12, "key {k}");
        }
    }

    #[test]
    fn reduction_keeps_what_linear_interpolation_cannot_reproduce() {
        let times: Vec<f64> = (0..5).map(f64::from).collect();
        // A ramp: its ends reproduce it.
        let ramp: Vec<f64> = (0..5).flat_map(|k| [f64::from(k), 0.0, 0.0]).collect();
        let (t, v, _) = reduce(&times, &ramp, kchr::Path::Translation, &tol(), AT);
        assert_eq!((t, v), (vec![0.0, 4.0], vec![0.0, 0.0, 0.0, 4.0, 0.0, 0.0]));
        // A kink at key 2 stays; a wobble within the tolerance does not.
        let kink = [0.0, 1.0, 2.0, 1.0, 0.0];
        let v: Vec<f64> = kink.iter().flat_map(|&x| [x, 0.0, 0.0]).collect();
        let (t, _, _) = reduce(&times, &v, kink_path(), &tol(), AT);
        assert_eq!(t, [0.0, 2.0, 4.0]);
        let wobble = [0.0, 0.005, 0.0, -0.005, 0.0];
        let v: Vec<f64> = wobble.iter().flat_map(|&x| [x, 0.0, 0.0]).collect();
        let (t, v, _) = reduce(&times, &v, kink_path(), &tol(), AT);
        assert_eq!(
            (t, v),
            (vec![0.0], vec![0.0, 0.0, 0.0]),
            "constant within tolerance: one key"
        );
        // The share scales the tolerance: at a tenth of it the wobble
        // stays, but for key 2, which its neighbours' lerp gives exactly.
        let tight = Reach { share: 0.1, ..AT };
        let v: Vec<f64> = wobble.iter().flat_map(|&x| [x, 0.0, 0.0]).collect();
        assert_eq!(
            reduce(&times, &v, kink_path(), &tol(), tight).0,
            [0.0, 1.0, 3.0, 4.0]
        );
        // Two keys are never reduced.
        assert_eq!(
            reduce(&times[..2], &ramp[..6], kink_path(), &tol(), AT)
                .0
                .len(),
            2
        );
    }

    fn kink_path() -> kchr::Path {
        kchr::Path::Translation
    }

    #[test]
    fn a_rotation_error_counts_at_the_reach() {
        let times = [0.0, 1.0, 2.0];
        // 0°, 0.5°, 0° about z: within 1° locally, but at a reach of 10 m
        // the middle key moves a point by 2·sin(0.25°)·10 ≈ 8.7 cm.
        let h = (0.5f64.to_radians() / 2.0).sin();
        let c = (0.5f64.to_radians() / 2.0).cos();
        let v = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, h, c, 0.0, 0.0, 0.0, 1.0];
        let near = reduce(
            &times,
            &v,
            kchr::Path::Rotation,
            &tol(),
            Reach { reach: 0.1, ..AT },
        );
        assert_eq!(near.0.len(), 1);
        let far = reduce(
            &times,
            &v,
            kchr::Path::Rotation,
            &tol(),
            Reach { reach: 10.0, ..AT },
        );
        assert_eq!(far.0.len(), 3);
    }

    /// Keys that meet in float32 once shifted are merged into the later
    /// one, whose value holds from that time; the times strictly increase.
    #[test]
    fn keys_that_meet_in_float32_are_merged_into_the_later() {
        let a = 100.0f64;
        let b = a + 1e-6; // less than float32's step at 100 (7.6e-6)
        let (t, v, merged) = in_float32(&[0.0, a, b, 200.0], &[1., 1., 2., 2., 3., 3., 4., 4.], 2);
        assert_eq!(merged, 1);
        assert_eq!(t, [0.0, a as f32, 200.0]);
        assert_eq!(v, [1., 1., 3., 3., 4., 4.]);
        let (t, _, merged) = in_float32(&[0.0, 0.5, 1.0], &[0.0; 3], 1);
        assert_eq!((t.len(), merged), (3, 0));
    }

    #[test]
    fn cubic_tracks_are_resampled_to_the_rate_ending_on_the_last_key() {
        let channel = Channel {
            node: 0,
            target: Target::Translation,
            interpolation: Interpolation::CubicSpline,
            times_s: vec![0.5, 1.55],
            // (in, value, out) per key.
            values: vec![0.0; 9]
                .into_iter()
                .chain([0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0])
                .collect(),
        };
        let settings = ClipSettings {
            resample_hz: 10.0,
            resample_all: false,
            tolerance: None,
        };
        let (t, v, step) = keys(&channel, kchr::Path::Translation, 0.5, &settings).unwrap();
        assert!(!step);
        // 1.05 s at 10 Hz: 0, 0.1, …, 1.0 and the last key at 1.05.
        assert_eq!(t.len(), 12);
        assert_eq!(t[0], 0.0);
        assert!((t[10] - 1.0).abs() < 1e-12);
        assert!((t[11] - 1.05).abs() < 1e-6);
        assert_eq!(&v[33..36], &[1.0, 2.0, 3.0]);
        assert_eq!(&v[..3], &[0.0, 0.0, 0.0]);
    }
    fn one_node_clip(times: Vec<f32>, values: Vec<f32>) -> (Scene, Clip) {
        let scene = scene_named(&[Some("a")]);
        let clip = Clip {
            name: Some("c".into()),
            channels: vec![Channel {
                node: 0,
                target: Target::Translation,
                interpolation: Interpolation::Linear,
                times_s: times,
                values,
            }],
        };
        (scene, clip)
    }

    #[test]
    fn a_clip_starts_at_zero_and_lasts_at_most_600_s() {
        let settings = ClipSettings {
            resample_hz: 30.0,
            resample_all: false,
            tolerance: None,
        };
        let (scene, c) = one_node_clip(vec![0.25, 1.25], vec![0.0; 6]);
        let names = node_names(&scene);
        let out = clip(&scene, &names, &c, &settings, &[], kchr::MAX_KEYS).unwrap();
        assert_eq!(out.clip.tracks[0].times_s, [0.0, 1.0]);
        assert_eq!(out.clip.duration_s, 1.0);
        assert_eq!(
            out.warnings,
            ["keys start at 0.25 s: shifted to start at 0"]
        );
        let (scene, c) = one_node_clip(vec![0.0, 600.0], vec![0.0; 6]);
        assert!(clip(&scene, &names, &c, &settings, &[], kchr::MAX_KEYS).is_ok());
        let (scene, c) = one_node_clip(vec![0.0, 600.5], vec![0.0; 6]);
        let e = clip(&scene, &names, &c, &settings, &[], kchr::MAX_KEYS).unwrap_err();
        assert_eq!(
            e.0,
            "the clip lasts 600.5 s, more than the 600 s a compiled clip may"
        );
    }

    #[test]
    fn a_matrix_node_is_decomposed_and_one_that_shears_is_refused() {
        let mut scene = scene_named(&[Some("m")]);
        // Translation (1, 2, 3), 90° about z, scale 2: TRS.
        scene.nodes[0].local = LocalTransform::Matrix([
            0.0, 2.0, 0.0, 0.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 2.0, 3.0, 1.0,
        ]);
        let names = node_names(&scene);
        let n = node(&scene, &names, 0, &[0]).unwrap();
        assert_eq!(n.translation, [1.0, 2.0, 3.0]);
        assert_eq!(n.scale, [2.0, 2.0, 2.0]);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!((n.rotation[2] - h).abs() < 1e-6 && (n.rotation[3] - h).abs() < 1e-6);
        // A shear: x' = x + 0.5 y.
        scene.nodes[0].local = LocalTransform::Matrix([
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ]);
        let e = node(&scene, &names, 0, &[0]).unwrap_err();
        assert!(
            e.0.contains("node 0 \"m\": its matrix is not a translation, rotation and scale"),
            "{e}"
        );
    }
}
