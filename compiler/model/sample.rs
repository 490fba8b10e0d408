//! Sampling a clip: each node's local and world transform at a time.
//!
//! Follows the glTF 2.0 animation rules: before the first key a channel
//! holds its first value, after the last its last; STEP holds the previous
//! key; LINEAR lerps translation and scale and slerps rotation (see
//! [`math::quat_slerp`]); CUBICSPLINE evaluates the Hermite spline and
//! normalizes rotations. Nodes without a channel keep their rest transform.
//!
//! Key times are float32 and sample times are not: a key within
//! `tolerance_s` of the sample time counts as being at that time (its value
//! exactly, for every interpolation). See [`key_tolerance_s`].
//!
//! An [`Evaluation`] computes only what its targets need: the target nodes
//! and their ancestors (each once per sample, shared ancestors too), and the
//! channels that animate those nodes. Its cost per sample is
//! [`Evaluation::cost_per_sample`].

use super::math::{self, Mat4, Quat, Vec3};
use super::scene::{Channel, Clip, Interpolation, LocalTransform, Scene, Target};

/// A node's local transform while sampling, in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalPose {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

/// Relative distance within which a float32 key time counts as a sample
/// time: 2^-21, four float32 steps. A key written as float32(k / rate), or
/// computed in float32 a rounding or two away (gltfpack writes 13/30 as
/// 0.433333367, one step above float32(13/30)), is within it.
pub const KEY_TIME_TOLERANCE: f64 = 1.0 / (1u64 << 21) as f64;

/// How far a key may be from a sample at `time_s`, taken every
/// `1 / rate_hz` seconds, and still count as at it: [`KEY_TIME_TOLERANCE`]
/// of the time, and never more than a quarter of the sample spacing (so a
/// key counts for one sample at most).
pub fn key_tolerance_s(time_s: f64, rate_hz: f64) -> f64 {
    (time_s.abs() * KEY_TIME_TOLERANCE).min(0.25 / rate_hz)
}

/// Evaluates the world transforms of some target nodes at any time,
/// touching only the targets, their ancestors and the channels that
/// animate them.
pub struct Evaluation<'a> {
    /// The nodes evaluated: targets and ancestors, parents before children.
    order: Vec<usize>,
    /// Each evaluated node's parent, as a position in `order`.
    parent_slot: Vec<Option<usize>>,
    /// Position in `order` of each scene node (`usize::MAX` when unused).
    slot: Vec<usize>,
    /// The rest pose and the fixed matrix (for untouched matrix nodes) of
    /// each evaluated node.
    rest: Vec<LocalPose>,
    fixed: Vec<Option<Mat4>>,
    /// The channels that animate an evaluated node, with its slot.
    channels: Vec<(usize, &'a Channel)>,
    /// Scratch: the pose and world matrix of each evaluated node.
    poses: Vec<LocalPose>,
    world: Vec<Mat4>,
}

impl<'a> Evaluation<'a> {
    /// Prepares to evaluate `targets` of `scene` under `clip`.
    pub fn new(scene: &Scene, clip: &'a Clip, targets: &[usize]) -> Evaluation<'a> {
        let order = scene.with_ancestors(targets);
        let mut slot = vec![usize::MAX; scene.nodes.len()];
        for (i, &x) in order.iter().enumerate() {
            slot[x] = i;
        }
        let parent_slot = order
            .iter()
            .map(|&x| scene.nodes[x].parent.map(|p| slot[p]))
            .collect();
        let rest: Vec<LocalPose> = order
            .iter()
            .map(|&x| local_rest(&scene.nodes[x].local))
            .collect();
        let channels: Vec<(usize, &Channel)> = clip
            .channels
            .iter()
            .filter(|c| slot[c.node] != usize::MAX && !matches!(c.target, Target::Weights { .. }))
            .map(|c| (slot[c.node], c))
            .collect();
        let mut animated = vec![false; order.len()];
        for &(s, _) in &channels {
            animated[s] = true;
        }
        let fixed = order
            .iter()
            .zip(&animated)
            .map(|(&x, &is_animated)| match scene.nodes[x].local {
                LocalTransform::Matrix(m) if !is_animated => Some(m.map(f64::from)),
                _ => None,
            })
            .collect();
        Evaluation {
            poses: rest.clone(),
            world: vec![[0.0; 16]; order.len()],
            order,
            parent_slot,
            slot,
            rest,
            fixed,
            channels,
        }
    }

    /// Nodes evaluated and channels sampled per sample: the unit of work.
    pub fn cost_per_sample(&self) -> u64 {
        (self.order.len() + self.channels.len()) as u64
    }

    /// Evaluates every node at `time_s` (keys within `tolerance_s` count as
    /// at it); then [`Evaluation::world`] reads the results.
    pub fn evaluate(&mut self, time_s: f64, tolerance_s: f64) {
        self.poses.copy_from_slice(&self.rest);
        for &(s, channel) in &self.channels {
            let pose = &mut self.poses[s];
            match channel.target {
                Target::Translation => pose.translation = sample3(channel, time_s, tolerance_s),
                Target::Scale => pose.scale = sample3(channel, time_s, tolerance_s),
                Target::Rotation => {
                    pose.rotation = sample_rotation(channel, time_s, tolerance_s);
                }
                Target::Weights { .. } => {}
            }
        }
        for i in 0..self.order.len() {
            let local = match self.fixed[i] {
                Some(m) => m,
                None => {
                    let p = &self.poses[i];
                    math::mat4_from_trs(p.translation, p.rotation, p.scale)
                }
            };
            self.world[i] = match self.parent_slot[i] {
                Some(ps) => math::mat4_mul(&self.world[ps], &local),
                None => local,
            };
        }
    }

    /// The world matrix of `node` (one of the targets or their ancestors)
    /// at the last evaluated time.
    pub fn world(&self, node: usize) -> &Mat4 {
        &self.world[self.slot[node]]
    }
}

fn local_rest(local: &LocalTransform) -> LocalPose {
    match *local {
        LocalTransform::Trs(trs) => LocalPose {
            translation: trs.translation.map(f64::from),
            rotation: math::quat_normalize(trs.rotation.map(f64::from)),
            scale: trs.scale.map(f64::from),
        },
        LocalTransform::Matrix(m) => {
            let (translation, rotation, scale) = math::mat4_decompose(&m.map(f64::from));
            LocalPose {
                translation,
                rotation,
                scale,
            }
        }
    }
}

/// Index of the last key at or before `t`, and the blend factor towards the
/// next key (0 when clamped, or when a key is within `tol` of `t`: that key
/// is then the answer).
pub fn locate(times: &[f32], t: f64, tol: f64) -> (usize, f64, f64) {
    let last = times.len() - 1;
    if t <= f64::from(times[0]) {
        return (0, 0.0, 0.0);
    }
    if t >= f64::from(times[last]) {
        return (last, 0.0, 0.0);
    }
    // Inside: a key within `tol` on either side is the answer (the first
    // and last keys included, so the clamps above need no tolerance).
    // times strictly increase: partition_point finds the first key after t.
    let next = times.partition_point(|&k| f64::from(k) <= t);
    let k = next - 1;
    let (t0, t1) = (f64::from(times[k]), f64::from(times[next]));
    if t1 - t <= tol {
        return (next, 0.0, 0.0);
    }
    if t - t0 <= tol {
        return (k, 0.0, 0.0);
    }
    let dt = t1 - t0;
    (k, (t - t0) / dt, dt)
}

fn value<const N: usize>(channel: &Channel, key: usize, part: usize) -> [f64; N] {
    let stride = if channel.interpolation == Interpolation::CubicSpline {
        3 * N
    } else {
        N
    };
    let base = key * stride + part * N;
    std::array::from_fn(|i| f64::from(channel.values[base + i]))
}

fn sample_n<const N: usize>(channel: &Channel, t: f64, tol: f64) -> [f64; N] {
    let (k, u, dt) = locate(&channel.times_s, t, tol);
    match channel.interpolation {
        Interpolation::Step => value::<N>(channel, k, 0),
        Interpolation::Linear => {
            let a = value::<N>(channel, k, 0);
            if u == 0.0 {
                return a;
            }
            let b = value::<N>(channel, k + 1, 0);
            std::array::from_fn(|i| a[i] + (b[i] - a[i]) * u)
        }
        Interpolation::CubicSpline => {
            // (in-tangent, value, out-tangent) per key.
            let v0 = value::<N>(channel, k, 1);
            if u == 0.0 {
                return v0;
            }
            let b0 = value::<N>(channel, k, 2);
            let a1 = value::<N>(channel, k + 1, 0);
            let v1 = value::<N>(channel, k + 1, 1);
            let (u2, u3) = (u * u, u * u * u);
            let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
            let h10 = u3 - 2.0 * u2 + u;
            let h01 = -2.0 * u3 + 3.0 * u2;
            let h11 = u3 - u2;
            std::array::from_fn(|i| h00 * v0[i] + h10 * dt * b0[i] + h01 * v1[i] + h11 * dt * a1[i])
        }
    }
}

/// A translation or scale channel at `t` (keys within `tol` count as at it).
pub fn sample3(channel: &Channel, t: f64, tol: f64) -> Vec3 {
    sample_n::<3>(channel, t, tol)
}

/// A rotation channel at `t`, normalized.
pub fn sample_rotation(channel: &Channel, t: f64, tol: f64) -> Quat {
    if channel.interpolation == Interpolation::Linear {
        let (k, u, _) = locate(&channel.times_s, t, tol);
        let a = value::<4>(channel, k, 0);
        if u == 0.0 {
            return math::quat_normalize(a);
        }
        let b = value::<4>(channel, k + 1, 0);
        return math::quat_slerp(math::quat_normalize(a), math::quat_normalize(b), u);
    }
    math::quat_normalize(sample_n::<4>(channel, t, tol))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scene::{Node, Trs};

    fn channel(
        interpolation: Interpolation,
        target: Target,
        times: &[f32],
        values: &[f32],
    ) -> Channel {
        Channel {
            node: 0,
            target,
            interpolation,
            times_s: times.to_vec(),
            values: values.to_vec(),
        }
    }

    #[test]
    fn linear_step_and_clamping() {
        let c = channel(
            Interpolation::Linear,
            Target::Translation,
            &[1.0, 3.0],
            &[0., 0., 0., 2., 4., 6.],
        );
        assert_eq!(sample3(&c, 0.0, 0.0), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&c, 2.0, 0.0), [1.0, 2.0, 3.0]);
        assert_eq!(sample3(&c, 9.0, 0.0), [2.0, 4.0, 6.0]);
        let s = Channel {
            interpolation: Interpolation::Step,
            ..c
        };
        assert_eq!(sample3(&s, 2.9, 0.0), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&s, 3.0, 0.0), [2.0, 4.0, 6.0]);
    }

    #[test]
    fn cubic_spline_hits_keys_and_uses_tangents() {
        // One component in x; in-tangent, value, out-tangent per key.
        let values = [
            0., 0., 0., 0., 0., 0., 1., 0., 0., //
            0., 0., 0., 1., 0., 0., 0., 0., 0.,
        ];
        let c = channel(
            Interpolation::CubicSpline,
            Target::Translation,
            &[0.0, 1.0],
            &values,
        );
        assert_eq!(sample3(&c, 0.0, 0.0), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&c, 1.0, 0.0), [1.0, 0.0, 0.0]);
        // h00*0 + h10*1*1 + h01*1 + h11*0 at u = 0.5: 0.125 + 0.5
        let mid = sample3(&c, 0.5, 0.0);
        assert!((mid[0] - 0.625).abs() < 1e-12, "{mid:?}");
    }

    #[test]
    fn cubic_spline_uses_every_hermite_basis_with_the_key_spacing() {
        // Keys at 1 s and 3 s (dt = 2): v0 = 2, out-tangent 0.5; in-tangent
        // -1, v1 = 5. At u = 0.25: h00 = 0.84375, h10 = 0.140625,
        // h01 = 0.15625, h11 = -0.046875, so
        // 0.84375*2 + 0.140625*2*0.5 + 0.15625*5 + (-0.046875)*2*(-1).
        let values = [
            0., 0., 0., 2., 0., 0., 0.5, 0., 0., //
            -1., 0., 0., 5., 0., 0., 0., 0., 0.,
        ];
        let c = channel(
            Interpolation::CubicSpline,
            Target::Translation,
            &[1.0, 3.0],
            &values,
        );
        assert_eq!(sample3(&c, 1.5, 0.0), [2.703125, 0.0, 0.0]);
    }

    #[test]
    fn a_key_within_the_tolerance_on_either_side_is_the_value() {
        let c = channel(
            Interpolation::Linear,
            Target::Translation,
            &[0.0, 1.0, 2.0],
            &[0., 0., 0., 1000., 0., 0., 0., 0., 0.],
        );
        for t in [1.0 - 1e-7, 1.0 + 1e-7] {
            assert_eq!(sample3(&c, t, 2e-7), [1000.0, 0.0, 0.0], "{t}");
            assert_ne!(sample3(&c, t, 0.0), [1000.0, 0.0, 0.0], "{t}");
        }
        // Just beyond the tolerance: interpolated.
        assert_ne!(sample3(&c, 1.0 + 3e-7, 2e-7), [1000.0, 0.0, 0.0]);
        // A first key just after the time, or a last just before: clamped
        // to it either way.
        let late = channel(
            Interpolation::Step,
            Target::Translation,
            &[0.5, 0.75],
            &[7., 0., 0., 9., 0., 0.],
        );
        assert_eq!(sample3(&late, 0.5 - 1e-7, 2e-7), [7.0, 0.0, 0.0]);
        assert_eq!(sample3(&late, 0.75 - 1e-7, 2e-7), [9.0, 0.0, 0.0]);
        assert_eq!(sample3(&late, 0.75 - 1e-7, 0.0), [7.0, 0.0, 0.0]);
    }

    #[test]
    fn the_key_tolerance_is_relative_and_at_most_a_quarter_sample() {
        assert_eq!(key_tolerance_s(0.0, 30.0), 0.0);
        assert_eq!(key_tolerance_s(2.0, 30.0), 2.0 * KEY_TIME_TOLERANCE);
        assert_eq!(key_tolerance_s(-2.0, 30.0), 2.0 * KEY_TIME_TOLERANCE);
        // 1000 s at 10 kHz: 2^-21 of it is 4.8e-4 s, more than a quarter of
        // the 1e-4 s spacing.
        assert_eq!(key_tolerance_s(1000.0, 10_000.0), 0.25 / 10_000.0);
    }

    #[test]
    fn world_matrices_follow_parents_whatever_the_order() {
        let node = |parent, x: f32| Node {
            name: None,
            parent,
            children: vec![],
            local: LocalTransform::Trs(Trs {
                translation: [x, 0.0, 0.0],
                ..Trs::IDENTITY
            }),
        };
        // Child (0) listed before its parent (1).
        let scene = Scene {
            nodes: vec![node(Some(1), 1.0), node(None, 2.0)],
            roots: vec![1],
            ..Scene::default()
        };
        let clip = Clip {
            name: None,
            channels: vec![],
        };
        let mut eval = Evaluation::new(&scene, &clip, &[0, 1]);
        eval.evaluate(0.0, 0.0);
        assert_eq!(math::mat4_translation(eval.world(0)), [3.0, 0.0, 0.0]);
        assert_eq!(math::mat4_translation(eval.world(1)), [2.0, 0.0, 0.0]);
        assert_eq!(eval.cost_per_sample(), 2);
    }
}
