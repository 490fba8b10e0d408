//! Sampling a clip: each node's local and world transform at a time.
//!
//! Follows the glTF 2.0 animation rules: before the first key a channel
//! holds its first value, after the last its last; STEP holds the previous
//! key; LINEAR lerps translation and scale and slerps rotation (see
//! [`math::quat_slerp`]); CUBICSPLINE evaluates the Hermite spline and
//! normalizes rotations. Nodes without a channel keep their rest transform.

use super::math::{self, Mat4, Quat, Vec3};
use super::scene::{Channel, Clip, Interpolation, LocalTransform, Scene, Target};

/// A node's local transform while sampling, in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalPose {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

/// The rest pose of every node (matrix nodes are decomposed, so a channel
/// that targets one still has something to override).
pub fn rest_pose(scene: &Scene) -> Vec<LocalPose> {
    scene
        .nodes
        .iter()
        .map(|node| match node.local {
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
        })
        .collect()
}

/// Local matrices of every node at `time_s`: channels of `clip` applied
/// over the rest pose. Untouched matrix nodes keep their exact matrix.
pub fn local_matrices(scene: &Scene, rest: &[LocalPose], clip: &Clip, time_s: f64) -> Vec<Mat4> {
    let mut poses = rest.to_vec();
    let mut animated = vec![false; scene.nodes.len()];
    for channel in &clip.channels {
        let pose = &mut poses[channel.node];
        match channel.target {
            Target::Translation => pose.translation = sample3(channel, time_s),
            Target::Scale => pose.scale = sample3(channel, time_s),
            Target::Rotation => pose.rotation = sample_rotation(channel, time_s),
            Target::Weights { .. } => continue,
        }
        animated[channel.node] = true;
    }
    scene
        .nodes
        .iter()
        .zip(&poses)
        .zip(&animated)
        .map(|((node, pose), &is_animated)| match node.local {
            LocalTransform::Matrix(m) if !is_animated => m.map(f64::from),
            _ => math::mat4_from_trs(pose.translation, pose.rotation, pose.scale),
        })
        .collect()
}

/// World matrices from local ones: `world[n] = world[parent] * local[n]`.
/// Parents are computed before children whatever their indices.
pub fn world_matrices(scene: &Scene, local: &[Mat4]) -> Vec<Mat4> {
    let n = scene.nodes.len();
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    let mut stack = Vec::new();
    for start in 0..n {
        // Walk up to the first ancestor already computed, then back down.
        let mut node = start;
        while world[node].is_none() {
            stack.push(node);
            match scene.nodes[node].parent {
                Some(p) if world[p].is_none() => node = p,
                _ => break,
            }
        }
        while let Some(node) = stack.pop() {
            let m = match scene.nodes[node].parent {
                Some(p) => math::mat4_mul(world[p].as_ref().expect("parent first"), &local[node]),
                None => local[node],
            };
            world[node] = Some(m);
        }
    }
    world
        .into_iter()
        .map(|m| m.expect("every node visited"))
        .collect()
}

/// Index of the last key at or before `t`, and the blend factor towards the
/// next key (0 when clamped).
fn locate(times: &[f32], t: f64) -> (usize, f64, f64) {
    let last = times.len() - 1;
    if t <= f64::from(times[0]) {
        return (0, 0.0, 0.0);
    }
    if t >= f64::from(times[last]) {
        return (last, 0.0, 0.0);
    }
    // times strictly increase: partition_point finds the first key after t.
    let next = times.partition_point(|&k| f64::from(k) <= t);
    let k = next - 1;
    let (t0, t1) = (f64::from(times[k]), f64::from(times[next]));
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

fn sample_n<const N: usize>(channel: &Channel, t: f64) -> [f64; N] {
    let (k, u, dt) = locate(&channel.times_s, t);
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

fn sample3(channel: &Channel, t: f64) -> Vec3 {
    sample_n::<3>(channel, t)
}

fn sample_rotation(channel: &Channel, t: f64) -> Quat {
    if channel.interpolation == Interpolation::Linear {
        let (k, u, _) = locate(&channel.times_s, t);
        let a = value::<4>(channel, k, 0);
        if u == 0.0 {
            return math::quat_normalize(a);
        }
        let b = value::<4>(channel, k + 1, 0);
        return math::quat_slerp(math::quat_normalize(a), math::quat_normalize(b), u);
    }
    math::quat_normalize(sample_n::<4>(channel, t))
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
        assert_eq!(sample3(&c, 0.0), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&c, 2.0), [1.0, 2.0, 3.0]);
        assert_eq!(sample3(&c, 9.0), [2.0, 4.0, 6.0]);
        let s = Channel {
            interpolation: Interpolation::Step,
            ..c
        };
        assert_eq!(sample3(&s, 2.9), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&s, 3.0), [2.0, 4.0, 6.0]);
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
        assert_eq!(sample3(&c, 0.0), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&c, 1.0), [1.0, 0.0, 0.0]);
        // h00*0 + h10*1*1 + h01*1 + h11*0 at u = 0.5: 0.125 + 0.5
        let mid = sample3(&c, 0.5);
        assert!((mid[0] - 0.625).abs() < 1e-12, "{mid:?}");
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
        let rest = rest_pose(&scene);
        let clip = Clip {
            name: None,
            channels: vec![],
        };
        let world = world_matrices(&scene, &local_matrices(&scene, &rest, &clip, 0.0));
        assert_eq!(math::mat4_translation(&world[0]), [3.0, 0.0, 0.0]);
        assert_eq!(math::mat4_translation(&world[1]), [2.0, 0.0, 0.0]);
    }
}
