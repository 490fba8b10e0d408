//! CPU skinning of a compiled character (`formats::kchr`): a clip sampled
//! at a time by the runtime's rules (STEP holds the previous key; LINEAR
//! lerps translation and scale and slerps rotation along the shorter arc;
//! a track holds its first key before it and its last after it; a node no
//! track animates keeps its bind transform), the world matrix of every
//! node, and each vertex moved by its weighted joints:
//! `Σ wᵢ · world(jointᵢ) · inverse_bind(jointᵢ) · p`.
//!
//! In f64 with IEEE basic operations (`libm` for slerp), so the same on
//! every machine. Used by the tests of compiled characters and by CGeo
//! sequences baked from characters.

use crate::formats::kchr;
use crate::model::math::{self, Mat4, Quat};
use crate::model::sample;

/// The local TRS of every node at `time_s` under `clip` (`None`: the bind
/// pose).
pub fn local_poses(model: &kchr::Model, clip: Option<&kchr::Clip>, time_s: f64) -> Vec<Mat4> {
    let mut t: Vec<[f64; 3]> = model
        .nodes
        .iter()
        .map(|n| n.translation.map(f64::from))
        .collect();
    let mut r: Vec<Quat> = model
        .nodes
        .iter()
        .map(|n| math::quat_normalize(n.rotation.map(f64::from)))
        .collect();
    let mut s: Vec<[f64; 3]> = model.nodes.iter().map(|n| n.scale.map(f64::from)).collect();
    if let Some(clip) = clip {
        for track in &clip.tracks {
            let Some(n) = model.nodes.iter().position(|x| x.name == track.node) else {
                continue;
            };
            match track.path {
                kchr::Path::Translation => t[n] = sample3(track, time_s),
                kchr::Path::Scale => s[n] = sample3(track, time_s),
                kchr::Path::Rotation => r[n] = sample_rotation(track, time_s),
            }
        }
    }
    (0..model.nodes.len())
        .map(|n| math::mat4_from_trs(t[n], r[n], s[n]))
        .collect()
}

/// World matrices from local ones over the model's hierarchy (in any node
/// order; a valid model has no cycle).
pub fn world_matrices(model: &kchr::Model, local: &[Mat4]) -> Vec<Mat4> {
    let n = model.nodes.len();
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    for start in 0..n {
        let mut chain = vec![start];
        while let Some(p) = model.nodes[*chain.last().unwrap()].parent {
            if world[p as usize].is_some() || chain.len() > n {
                break;
            }
            chain.push(p as usize);
        }
        while let Some(x) = chain.pop() {
            if world[x].is_some() {
                continue;
            }
            world[x] = Some(match model.nodes[x].parent {
                Some(p) => math::mat4_mul(&world[p as usize].unwrap_or(IDENTITY), &local[x]),
                None => local[x],
            });
        }
    }
    world.into_iter().map(|w| w.unwrap_or(IDENTITY)).collect()
}

const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// Each palette joint's skinning matrix, `world(joint) · inverse_bind`.
fn joint_matrices(model: &kchr::Model, world: &[Mat4]) -> Vec<Mat4> {
    model
        .joints
        .iter()
        .zip(&model.inverse_bind)
        .map(|(&j, ibm)| math::mat4_mul(&world[j as usize], &ibm.map(f64::from)))
        .collect()
}

/// Every vertex's normal under the node world matrices `world`: the
/// weighted joints' linear parts applied, renormalised (exact for
/// rotation and uniform scale, as runtimes skin normals); a normal that
/// vanishes keeps its bind value.
pub fn skin_normals(model: &kchr::Model, world: &[Mat4]) -> Vec<[f64; 3]> {
    let joints = joint_matrices(model, world);
    model
        .vertices
        .iter()
        .map(|v| {
            let n = [f64::from(v[3]), f64::from(v[4]), f64::from(v[5])];
            let out = blend(v, &joints, |m, i| {
                m[i] * n[0] + m[4 + i] * n[1] + m[8 + i] * n[2]
            });
            let len = (out[0] * out[0] + out[1] * out[1] + out[2] * out[2]).sqrt();
            if len > 1e-12 && len.is_finite() {
                out.map(|x| x / len)
            } else {
                n
            }
        })
        .collect()
}

/// Every vertex's skinned position under the node world matrices `world`.
pub fn skin(model: &kchr::Model, world: &[Mat4]) -> Vec<[f64; 3]> {
    let joints = joint_matrices(model, world);
    model
        .vertices
        .iter()
        .map(|v| {
            let p = [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])];
            blend(v, &joints, |m, i| {
                m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i]
            })
        })
        .collect()
}

/// `Σ wₖ · moved(jointₖ, i)` for each component `i`, over the vertex's
/// weighted joints (slots 8..12 joints, 12..16 weights; zero weights
/// skipped).
fn blend(
    v: &[f32; kchr::VERTEX_STRIDE],
    joints: &[Mat4],
    moved: impl Fn(&Mat4, usize) -> f64,
) -> [f64; 3] {
    let mut out = [0.0; 3];
    for k in 0..4 {
        let w = f64::from(v[12 + k]);
        if w == 0.0 {
            continue;
        }
        let m = &joints[v[8 + k] as usize];
        for (i, o) in out.iter_mut().enumerate() {
            *o += w * moved(m, i);
        }
    }
    out
}

/// The skinned positions of `model` at `time_s` of `clip`.
pub fn pose(model: &kchr::Model, clip: Option<&kchr::Clip>, time_s: f64) -> Vec<[f64; 3]> {
    let local = local_poses(model, clip, time_s);
    skin(model, &world_matrices(model, &local))
}

fn sample3(track: &kchr::Track, t: f64) -> [f64; 3] {
    let (k, u, _) = sample::locate(&track.times_s, t, 0.0);
    let v = |i: usize| -> [f64; 3] { std::array::from_fn(|c| f64::from(track.values[3 * i + c])) };
    if u == 0.0 || track.step {
        return v(k);
    }
    let (a, b) = (v(k), v(k + 1));
    std::array::from_fn(|c| a[c] + (b[c] - a[c]) * u)
}

fn sample_rotation(track: &kchr::Track, t: f64) -> Quat {
    let (k, u, _) = sample::locate(&track.times_s, t, 0.0);
    let q = |i: usize| -> Quat {
        math::quat_normalize(std::array::from_fn(|c| f64::from(track.values[4 * i + c])))
    };
    if u == 0.0 || track.step {
        return q(k);
    }
    math::quat_slerp(q(k), q(k + 1), u)
}
