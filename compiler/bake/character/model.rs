//! The model stage: the node hierarchy a character needs, one merged mesh
//! with the atlas's UVs, and the palette of joints that carry weight.

use std::collections::BTreeMap;

use crate::bake::atlas::{Atlas, Remapped};
use crate::formats::kchr;
use crate::model::material::{Meshes, Primitive};
use crate::model::math;
use crate::model::{LocalTransform, Scene};

use super::{Error, Selection, err};

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
///
/// [`bind`]: fn@super::bind
pub fn model(
    scene: &Scene,
    names: &[String],
    sel: &Selection,
    meshes: &Meshes,
    atlas: &Atlas,
    animated: &[usize],
) -> Result<CompiledModel, Error> {
    let mut warnings = Vec::new();
    let candidates = joint_candidates(scene, sel);
    let mut merged = merge_mesh(scene, sel, meshes, atlas, &candidates, &mut warnings)?;
    check_merged(&merged, &mut warnings)?;
    let retained = palette(&candidates, &mut merged)?;

    // Nodes: the palette's, the instances' and those the bank animates,
    // with their ancestors.
    let mut wanted: Vec<usize> = sel
        .instances
        .iter()
        .map(|&k| scene.instances[k].node)
        .collect();
    wanted.extend(retained.iter().map(|&c| candidates.joints[c].0));
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
        let (joint, ibm) = candidates.joints[c];
        inverse_bind.push(affine(ibm).ok_or_else(|| {
            Error(format!(
                "the inverse-bind matrix of joint node {joint} \"{}\" is not affine (its last row is not 0 0 0 1)",
                names[joint]
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
            .map(|&c| index_of[candidates.joints[c].0])
            .collect(),
        inverse_bind,
        vertices: merged.vertices,
        indices: merged.indices.into_iter().map(|i| i as u16).collect(),
        image,
    };
    Ok(CompiledModel {
        model,
        warnings,
        renormalised: merged.renormalised,
        truncated: merged.truncated,
    })
}

/// The joints a model's palette may hold, before it knows which carry
/// weight: each skin's joints in its order (a joint with the same node
/// and inverse bind as an earlier one is that one), then each rigid
/// instance's node (identity inverse bind: its vertices are in the node's
/// space).
struct Candidates {
    /// (node, inverse bind), in candidate order.
    joints: Vec<(usize, [f32; 16])>,
    /// Each selected skin's joints, as candidate indices.
    skin_slots: BTreeMap<usize, Vec<usize>>,
    /// Each rigid instance's node's candidate.
    rigid_slot: BTreeMap<usize, usize>,
}

fn joint_candidates(scene: &Scene, sel: &Selection) -> Candidates {
    let mut joints: Vec<(usize, [f32; 16])> = Vec::new();
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
                        joints.push((node, ibm));
                        joints.len() - 1
                    })
            })
            .collect();
        skin_slots.insert(s, slots);
    }
    let mut rigid_slot = BTreeMap::new();
    for &k in &sel.instances {
        let inst = &scene.instances[k];
        if inst.skin.is_none() && !rigid_slot.contains_key(&inst.node) {
            rigid_slot.insert(inst.node, joints.len());
            joints.push((inst.node, IDENTITY));
        }
    }
    Candidates {
        joints,
        skin_slots,
        rigid_slot,
    }
}

/// One mesh of every selected instance's primitives: KCHR vertices (the
/// joint slots still to be filled by [`palette`]), with each vertex's
/// influences as candidate indices.
struct Merged {
    vertices: Vec<[f32; 16]>,
    influences: Vec<[(usize, f32); 4]>,
    indices: Vec<u32>,
    renormalised: usize,
    truncated: usize,
}

fn merge_mesh(
    scene: &Scene,
    sel: &Selection,
    meshes: &Meshes,
    atlas: &Atlas,
    candidates: &Candidates,
    warnings: &mut Vec<String>,
) -> Result<Merged, Error> {
    let mut merged = Merged {
        vertices: Vec::new(),
        influences: Vec::new(),
        indices: Vec::new(),
        renormalised: 0,
        truncated: 0,
    };
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
        // A selected instance is rigid or of a selected skin.
        let rigid = candidates.rigid_slot.get(&inst.node).copied();
        let slots = inst.skin.and_then(|s| candidates.skin_slots.get(&s));
        let binding = match (rigid, slots) {
            (Some(slot), _) => Binding::Rigid(slot),
            (None, Some(slots)) => Binding::Skinned(slots),
            (None, None) => return err("a selected instance has no skin and no slot"),
        };
        for prim in &mesh.primitives {
            let remap = &atlas.primitives[region];
            region += 1;
            add_primitive(&mut merged, prim, remap, weights, binding)
                .map_err(|e| Error(format!("mesh {}: {e}", inst.mesh)))?;
        }
    }
    Ok(merged)
}

/// How an instance's vertices follow the rig: all by one candidate, or by
/// their skin's joints.
#[derive(Clone, Copy)]
enum Binding<'a> {
    Rigid(usize),
    Skinned(&'a [usize]),
}

/// Appends one primitive (its morph targets at `weights`, its UVs and
/// triangles as the atlas remapped them) to `merged`; flat normals, one
/// vertex per triangle corner, where it has none.
fn add_primitive(
    merged: &mut Merged,
    prim: &Primitive,
    remap: &Remapped,
    weights: &[f32],
    binding: Binding,
) -> Result<(), String> {
    let (positions, normals) = morphed(prim, weights);
    let base = merged.vertices.len();
    let flat = normals.is_none();
    let corners = match flat {
        true => remap.indices.len(),
        false => remap.vertices.len(),
    };
    for c in 0..corners {
        let new = if flat { remap.indices[c] as usize } else { c };
        let src = remap.vertices[new] as usize;
        let normal = match &normals {
            Some(n) => normalized(n[src]),
            None => {
                let t = c / 3 * 3;
                let p =
                    |i: usize| positions[remap.vertices[remap.indices[t + i] as usize] as usize];
                face_normal(p(0), p(1), p(2))
            }
        };
        let infl = match binding {
            Binding::Rigid(slot) => [(slot, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)],
            Binding::Skinned(slots) => {
                let (infl, off, cut) = vertex_influences(prim, src, slots)?;
                merged.renormalised += usize::from(off);
                merged.truncated += usize::from(cut);
                infl
            }
        };
        let p = positions[src];
        let uv = remap.uv[new];
        merged.vertices.push([
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
        merged.influences.push(infl);
    }
    if flat {
        merged
            .indices
            .extend((0..corners).map(|c| (base + c) as u32));
    } else {
        merged
            .indices
            .extend(remap.indices.iter().map(|&i| base as u32 + i));
    }
    Ok(())
}

/// The merged mesh fits a compiled model; what was renormalised or
/// truncated, as warnings.
fn check_merged(merged: &Merged, warnings: &mut Vec<String>) -> Result<(), Error> {
    if merged.vertices.len() > kchr::MAX_VERTICES {
        return err(format!(
            "the merged mesh has {} vertices, more than the {} a compiled model holds (flat normals and vertex-colour baking split vertices; simplify the mesh or give it normals)",
            merged.vertices.len(),
            kchr::MAX_VERTICES
        ));
    }
    if merged.indices.len() > kchr::MAX_INDICES {
        return err(format!(
            "the merged mesh has {} triangle indices, more than the {} a compiled model holds",
            merged.indices.len(),
            kchr::MAX_INDICES
        ));
    }
    let renormalised = merged.renormalised;
    if renormalised > 0 {
        warnings.push(format!(
            "{renormalised} vertices' weights did not sum to 1: renormalised"
        ));
    }
    let truncated = merged.truncated;
    if truncated > 0 {
        warnings.push(format!(
            "{truncated} vertices had more than 4 influences: the 4 largest kept, renormalised"
        ));
    }
    Ok(())
}

/// The palette: the candidates that carry weight, in candidate order (at
/// most `kchr::MAX_JOINTS`); each vertex's joint slots set to palette
/// indices.
fn palette(candidates: &Candidates, merged: &mut Merged) -> Result<Vec<usize>, Error> {
    let n = candidates.joints.len();
    let mut weighted = vec![false; n];
    for infl in &merged.influences {
        for &(c, w) in infl {
            if w > 0.0 {
                weighted[c] = true;
            }
        }
    }
    let retained: Vec<usize> = (0..n).filter(|&c| weighted[c]).collect();
    if retained.len() > kchr::MAX_JOINTS {
        return err(format!(
            "the rig has {} joints that carry weight; a compiled model holds at most {} (split the character or merge joints)",
            retained.len(),
            kchr::MAX_JOINTS
        ));
    }
    let mut palette_of = vec![0usize; n];
    for (p, &c) in retained.iter().enumerate() {
        palette_of[c] = p;
    }
    for (v, infl) in merged.vertices.iter_mut().zip(&merged.influences) {
        for (slot, &(c, w)) in infl.iter().enumerate() {
            v[8 + slot] = if w > 0.0 { palette_of[c] as f32 } else { 0.0 };
        }
    }
    Ok(retained)
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

pub(super) const IDENTITY: [f32; 16] = [
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

pub(super) fn node(
    scene: &Scene,
    names: &[String],
    n: usize,
    index_of: &[u32],
) -> Result<kchr::Node, Error> {
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
