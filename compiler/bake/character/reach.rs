//! How far each joint reaches: the distance at which a clip's error is
//! measured (the skin's radius about the joint, down its chain).

use std::collections::BTreeMap;

use crate::bake::skinning;
use crate::formats::kchr;
use crate::model::math::{self, Mat4};
use crate::model::sample::Evaluation;
use crate::model::{Clip, LocalTransform, Scene};

use super::model::IDENTITY;

/// Reach below this counts as this (metres): a leaf joint's rotation still
/// moves what hangs from it (an attachment, a camera).
const MIN_REACH_M: f64 = 0.1;

/// How far the skin of `model` reaches from each of its nodes, by node
/// name: the largest distance, in the bind pose (world space), between a
/// node and a vertex it carries (a vertex with weight on it, as that joint
/// alone would place it). The characters kind gives a bank's clips the
/// largest of these over the models bound to the bank ([`clip`](fn@super::clip)'s
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
pub(super) fn chain_worst(scene: &Scene, per_node: &[f64]) -> f64 {
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
pub(super) fn reach(scene: &Scene, radius: &[f64]) -> Vec<Reach> {
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
pub(super) struct Reach {
    /// How far from the node the farthest thing it moves can be (world
    /// space).
    pub(super) reach: f64,
    /// The largest world scale of its parent.
    pub(super) parent_scale: f64,
    /// The smallest of its own rest scale's factors.
    pub(super) rest_scale: f64,
    /// The share of `position_m` each of its channels may use.
    pub(super) share: f64,
}
