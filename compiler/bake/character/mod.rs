//! Compiled characters: a glTF scene, its meshes and their atlas into a
//! KCHR model, and glTF clips into a KCHR bank (`formats::kchr`).
//!
//! Stages, in the order the characters kind calls them:
//! [`node_names`] (unique, non-empty, at most 128 bytes, the same for a
//! file whether it gives a model or clips) -> [`select`] (the skin and the
//! mesh instances a model draws) -> [`model`](fn@model) (the node hierarchy those
//! need, decomposed to TRS; one merged mesh with the atlas's UVs, morph
//! targets baked, flat normals where none; the palette of joints that carry
//! weight and their inverse binds) -> [`clip`](fn@clip) (tracks by node name, times
//! from 0, CUBICSPLINE resampled, keys reduced within a tolerance measured
//! at a distance from the joint) -> [`bind`](fn@bind) (a model file's node names
//! matched to its bank's, by a node map, before [`model`](fn@model) takes them).
//!
//! Pure: bytes were read by the caller. All arithmetic is f64 with IEEE
//! basic operations (and `libm` for one cosine), so the output is the same
//! on every machine.

use std::collections::BTreeSet;

use crate::formats::kchr;
use crate::model::Scene;

mod bind;
mod clip;
mod model;
mod reach;
mod reduce;

pub use bind::{NodeMap, bank_animated, bind};
pub use clip::{
    ClipSettings, CompiledClip, MAX_BANK_SOURCE_KEYS, MAX_TRACK_SOURCE_KEYS, clip, clip_animated,
    clip_source_keys, millimetres,
};
pub use model::{CompiledModel, model, primitives};
pub use reach::skin_radius;
pub use reduce::Tolerance;

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

#[cfg(test)]
mod tests {
    use super::*;
    use super::{clip::*, model::*, reach::*, reduce::*};
    use crate::model::{Channel, Clip, Interpolation, LocalTransform, Node, Skin, Target, Trs};

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
