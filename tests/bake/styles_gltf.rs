//! A style from a G1 animation in a GLB, built by the binary: a synthetic
//! G1 rig (the 34 joints, named and parented as g1skel34) whose pelvis walks
//! a straight line at a known speed and heading while the left knee turns
//! at a known rate; the style's values checked against those computed by
//! hand here, within 1e-5.

use std::fs;

use kiln::bake::model_bundle::G1_JOINTS;
use kiln::formats::mbstyle;
use serde_json::{Value, json};

use crate::cli_support;
#[allow(dead_code)]
use crate::gltf_support;
use cli_support::{Project, stderr};
use gltf_support::{Fixture, le_f32};

/// Every joint sits this far from its parent (metres, in the parent's
/// frame): legs down, the spine and arms up, so chains are easy to follow.
fn offset(j: usize) -> [f32; 3] {
    match j {
        0 => [0.0, 0.0, 0.0],
        1..=7 => [0.05, -0.1, 0.0],
        8..=14 => [-0.05, -0.1, 0.0],
        _ => [0.0, 0.05, 0.01],
    }
}

const PELVIS_Y: f32 = 0.9;
/// Metres per second along +Z.
const WALK: f32 = 1.2;
/// The pelvis's constant yaw about +Y (radians): its heading.
const YAW: f32 = 0.5;
/// Radians per second the left knee (joint 4) turns about its X axis.
const KNEE_RATE: f32 = 0.8;
const KNEE: usize = 4;

fn quat_axis(axis: [f32; 3], angle: f32) -> [f32; 4] {
    let (s, c) = ((angle / 2.0).sin(), (angle / 2.0).cos());
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

/// The rig as a GLB, with joint `rename.0` named `rename.1` if given.
fn rig(rename: Option<(usize, &str)>) -> Vec<u8> {
    let mut f = Fixture::new();
    for (j, (name, _)) in G1_JOINTS.iter().enumerate() {
        let name = match rename {
            Some((k, other)) if k == j => other.to_string(),
            _ => name.to_string(),
        };
        let children = synth::g1_children(j);
        let mut node = json!({"name": name, "translation": offset(j)});
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        if j == 0 {
            node["translation"] = json!([0.0, PELVIS_Y, 0.0]);
            node["rotation"] = json!(quat_axis([0.0, 1.0, 0.0], YAW));
        }
        f.push("nodes", node);
    }
    f.json["scenes"] = json!([{"nodes": [0]}]);
    f.json["scene"] = json!(0);
    let times = f.floats(&[0.0, 1.0], "SCALAR", 1);
    f.json["accessors"][times]["min"] = json!([0.0]);
    f.json["accessors"][times]["max"] = json!([1.0]);
    let walk = f.floats(&[0.0, PELVIS_Y, 0.0, 0.0, PELVIS_Y, WALK], "VEC3", 3);
    let mut knee = quat_axis([1.0, 0.0, 0.0], 0.0).to_vec();
    knee.extend(quat_axis([1.0, 0.0, 0.0], KNEE_RATE));
    let view = f.view(&le_f32(&knee), None);
    let knee = f.push(
        "accessors",
        json!({"bufferView": view, "componentType": 5126, "type": "VEC4", "count": 2}),
    );
    f.push(
        "animations",
        json!({"name": "Sneak",
               "samplers": [{"input": times, "output": walk, "interpolation": "LINEAR"},
                            {"input": times, "output": knee, "interpolation": "LINEAR"}],
               "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                            {"sampler": 1, "target": {"node": KNEE, "path": "rotation"}}]}),
    );
    f.glb()
}

/// An empty project with `glb` and a `styles` entry for it.
fn project(glb: &[u8], entry: &str) -> Project {
    let p = Project::empty();
    p.write_bytes("sources/styles/g1-sneak.glb", glb);
    p.write(
        "manifests/styles.yaml",
        &format!("styles:\n  - id: custom\n    source: sources/styles/g1-sneak.glb\n{entry}"),
    );
    p
}

/// The style `name` the entry built.
fn built(p: &Project, name: &str) -> mbstyle::Style {
    let bytes = fs::read(p.path(&format!("out/styles/custom/{name}.mbstyle"))).unwrap();
    mbstyle::decode(&bytes).unwrap()
}

/// Row-major rotation of `q` (x, y, z, w).
fn rows(q: [f64; 4]) -> [f64; 9] {
    let [x, y, z, w] = q;
    [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - z * w),
        2.0 * (x * z + y * w),
        2.0 * (x * y + z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - x * w),
        2.0 * (x * z - y * w),
        2.0 * (y * z + x * w),
        1.0 - 2.0 * (x * x + y * y),
    ]
}

fn mat_mul(a: [f64; 9], b: [f64; 9]) -> [f64; 9] {
    std::array::from_fn(|i| (0..3).map(|k| a[i / 3 * 3 + k] * b[k * 3 + i % 3]).sum())
}

fn mat_vec(a: [f64; 9], v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| (0..3).map(|k| a[i * 3 + k] * v[k]).sum())
}

#[track_caller]
fn close(got: &[f32], want: &[f64], what: &str) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(*g) - w).abs() < 1e-5,
            "{what}[{i}]: {g} against {w}"
        );
    }
}

#[test]
fn a_walking_rig_gives_the_hand_computed_style() {
    let p = project(
        &rig(None),
        "    animation: Sneak\n    name: sneak\n    tokens: [6, 12]\n",
    );
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The speed was measured, and the build says so.
    assert!(
        stderr(&out).contains(
            "style \"sneak\": speed 1.200 m/s measured (the clip's average horizontal root speed)"
        ),
        "{}",
        stderr(&out)
    );
    let s = built(&p, "sneak");
    assert_eq!(s.frames(), 31, "1 s at 30 fps, both ends");
    use sha2::Digest;
    let glb = fs::read(p.path("sources/styles/g1-sneak.glb")).unwrap();
    assert_eq!(
        s.source_sha256,
        kiln::formats::hex(&sha2::Sha256::digest(glb))
    );
    assert_eq!(s.allowed_tokens, mbstyle::mask(6, 12));
    assert!((s.speed - WALK).abs() < 1e-5, "{}", s.speed);
    let yaw = rows([
        0.0,
        f64::from(YAW / 2.0).sin(),
        0.0,
        f64::from(YAW / 2.0).cos(),
    ]);
    for f in [0usize, 7, 15, 30] {
        let t = f as f64 / 30.0;
        let z = f64::from(WALK) * t;
        close(&s.root_positions[f], &[0.0, 0.0, z], "root");
        close(&[s.headings[f]], &[f64::from(YAW)], "heading");
        // Joint 0 keeps the pelvis height; joints are relative to the root.
        close(
            &s.joint_positions[34 * f],
            &[0.0, f64::from(PELVIS_Y), 0.0],
            "pelvis",
        );
        close(&s.joint_rotations[34 * f], &yaw, "pelvis rotation");
        // Down the left leg: the chain's offsets turned by the yaw, then
        // the knee's own turn for what hangs below it.
        let a = f64::from(KNEE_RATE) * t;
        let knee_local = rows([(a / 2.0).sin(), 0.0, 0.0, (a / 2.0).cos()]);
        let knee_global = mat_mul(yaw, knee_local);
        let step = [0.05, -0.1, 0.0];
        let mut pos = [0.0, f64::from(PELVIS_Y), 0.0];
        for j in 1..=7 {
            let turn = if j <= KNEE { yaw } else { knee_global };
            let d = mat_vec(turn, step);
            pos = [pos[0] + d[0], pos[1] + d[1], pos[2] + d[2]];
            close(
                &s.joint_positions[34 * f + j],
                &pos,
                &format!("frame {f} joint {j}"),
            );
        }
        close(
            &s.joint_rotations[34 * f + KNEE],
            &knee_global,
            "knee rotation",
        );
        close(&s.joint_rotations[34 * f + 7], &knee_global, "toe rotation");
        close(&s.joint_rotations[34 * f + 20], &yaw, "shoulder rotation");
    }
    let manifest = fs::read_to_string(p.path("out/styles/custom/manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["styles"]["sneak"]["parameter_count"], 412 * 31 + 11);
    let out = p.kiln(&["verify", "out/styles/custom/sneak.mbstyle"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_given_speed_is_kept_and_renamed_joints_are_mapped() {
    let p = project(
        &rig(Some((0, "Hips"))),
        "    animation: 0\n    name: sneak\n    speed: 0.6\n    tokens: [6, 12]\n    joints: { pelvis_skel: Hips }\n",
    );
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("measured"), "{}", stderr(&out));
    let s = built(&p, "sneak");
    assert_eq!(s.speed, 0.6);
    close(&s.root_positions[30], &[0.0, 0.0, f64::from(WALK)], "root");
}

#[test]
fn missing_joints_are_listed_and_bad_settings_refused() {
    let p = project(
        &rig(Some((21, "LeftElbow"))),
        "    animation: Sneak\n    name: sneak\n    tokens: [6, 12]\n",
    );
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(
            "1 of the 34 G1 joints are not in the source: left_elbow_skel; name them in `joints:`"
        ),
        "{}",
        stderr(&out)
    );
    let cases = [
        (
            "    name: sneak\n    tokens: [6, 12]\n",
            "manifests/styles.yaml:3:13: a glTF source needs `animation`",
        ),
        (
            "    animation: Sneak\n    tokens: [6, 12]\n",
            "a glTF source needs `name`",
        ),
        (
            "    animation: Sneak\n    name: sneak\n",
            "a glTF source needs `tokens: [min, max]`",
        ),
        (
            "    animation: Sneak\n    name: sneak\n    tokens: [6, 17]\n",
            "manifests/styles.yaml:6:13: tokens must be [min, max] with 6 <= min <= max <= 16, found [6, 17]",
        ),
        (
            "    animation: Sneak\n    name: sneak\n    tokens: [6, 8]\n    table: motionbricks-g1\n",
            "manifests/styles.yaml:7:12: table is for a clip file",
        ),
        (
            "    animation: Walk\n    name: sneak\n    tokens: [6, 8]\n",
            "manifests/styles.yaml:4:16: job \"custom\": sources/styles/g1-sneak.glb: no animation named \"Walk\"",
        ),
        (
            "    animation: Sneak\n    name: sneak\n    tokens: [6, 8]\n    joints: { pelvis: Hips }\n",
            "manifests/styles.yaml:7:13: job \"custom\": sources/styles/g1-sneak.glb: `joints:` maps \"pelvis\", which is not a G1 joint name",
        ),
    ];
    for (entry, want) in cases {
        let p = project(&rig(None), entry);
        let out = p.kiln(&["build"]);
        assert_eq!(out.status.code(), Some(1), "{entry}");
        assert!(stderr(&out).contains(want), "{entry}: {}", stderr(&out));
    }
}

// ---------------------------------------------------------------------------
// Round trip: clip file -> styles -> a GLB written from a style -> a style.

use crate::synth;

fn quat_normalized(q: [f64; 4]) -> [f64; 4] {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// Joint `j`'s world rotation at frame `f` of clip `c`: a unit quaternion
/// that moves with time.
fn motion_quat(c: u64, f: u64, j: u64) -> [f64; 4] {
    let t = f as f64 * 0.05 + c as f64 + j as f64 * 0.3;
    quat_normalized([
        t.sin() * 0.4,
        (t * 0.7).cos() * 0.6,
        (t * 1.3).sin() * 0.3,
        1.0,
    ])
}

/// A consistent motion for the clip file: rotations that are rotations,
/// a root on the ground under the pelvis, headings from the pelvis's +Z
/// axis (what a real clip holds).
fn motion_value(a: usize, c: u64, f: u64, k: u64) -> f32 {
    let pelvis = [(f as f64 * 0.1).sin() * 0.3, 0.9, 0.04 * f as f64];
    let v = match a {
        0 => {
            let r = rows(motion_quat(c, f, 0));
            libm::atan2(r[2], r[8])
        }
        1 => {
            let (j, i) = (k / 3, (k % 3) as usize);
            if j == 0 {
                [0.0, pelvis[1], 0.0][i]
            } else {
                let x = (j as f64 * 0.37 + f as f64 * 0.02 + c as f64).sin();
                [x * 0.3, 0.9 - j as f64 * 0.02, x * 0.1][i]
            }
        }
        2 => rows(motion_quat(c, f, k / 9))[(k % 9) as usize],
        _ => [pelvis[0], 0.0, pelvis[2]][k as usize],
    };
    v as f32
}

/// A quaternion from a row-major rotation matrix (Shepperd's method).
fn quat_of(m: [f64; 9]) -> [f64; 4] {
    let (m00, m01, m02, m10, m11, m12, m20, m21, m22) =
        (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
    let trace = m00 + m11 + m22;
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25 * s]
    } else if m00 > m11 && m00 > m22 {
        let s = (1.0 + m00 - m11 - m22).sqrt() * 2.0;
        [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s]
    } else if m11 > m22 {
        let s = (1.0 + m11 - m00 - m22).sqrt() * 2.0;
        [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s]
    } else {
        let s = (1.0 + m22 - m00 - m11).sqrt() * 2.0;
        [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s]
    };
    quat_normalized(q)
}

fn transpose(m: [f64; 9]) -> [f64; 9] {
    std::array::from_fn(|i| m[i % 3 * 3 + i / 3])
}

/// A G1 rig GLB whose animation "Style" plays `s` at 30 fps: per joint a
/// translation and a rotation channel, local to the parent (the inverse of
/// forward kinematics).
fn glb_of(s: &mbstyle::Style) -> Vec<u8> {
    let mut f = Fixture::new();
    for (j, (name, _)) in G1_JOINTS.iter().enumerate() {
        let children = synth::g1_children(j);
        let mut node = json!({"name": name});
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        f.push("nodes", node);
    }
    f.json["scenes"] = json!([{"nodes": [0]}]);
    let n = s.frames();
    let times: Vec<f32> = (0..n).map(|k| k as f32 / 30.0).collect();
    let input = f.floats(&times, "SCALAR", 1);
    f.json["accessors"][input]["min"] = json!([0.0]);
    f.json["accessors"][input]["max"] = json!([times[n - 1]]);
    let world = |k: usize, j: usize| {
        let r = s.joint_rotations[34 * k + j].map(f64::from);
        let root = s.root_positions[k].map(f64::from);
        let p = s.joint_positions[34 * k + j].map(f64::from);
        (r, [root[0] + p[0], root[1] + p[1], root[2] + p[2]])
    };
    let (mut samplers, mut channels) = (Vec::new(), Vec::new());
    for (j, &(_, parent)) in G1_JOINTS.iter().enumerate() {
        let (mut ts, mut qs) = (Vec::new(), Vec::new());
        for k in 0..n {
            let (r, p) = world(k, j);
            let (t, q) = if parent < 0 {
                (p, quat_of(r))
            } else {
                let (rp, pp) = world(k, parent as usize);
                let inv = transpose(rp);
                let d = [p[0] - pp[0], p[1] - pp[1], p[2] - pp[2]];
                (mat_vec(inv, d), quat_of(mat_mul(inv, r)))
            };
            ts.extend(t.map(|v| v as f32));
            qs.extend(q.map(|v| v as f32));
        }
        let t_out = f.floats(&ts, "VEC3", 3);
        let q_out = f.floats(&qs, "VEC4", 4);
        for (out, path) in [(t_out, "translation"), (q_out, "rotation")] {
            channels.push(json!({"sampler": samplers.len(), "target": {"node": j, "path": path}}));
            samplers.push(json!({"input": input, "output": out, "interpolation": "LINEAR"}));
        }
    }
    f.push(
        "animations",
        json!({"name": "Style", "samplers": samplers, "channels": channels}),
    );
    f.glb()
}

#[test]
fn styles_from_a_clip_file_survive_a_trip_through_a_glb() {
    let p = Project::empty();
    let root = p.root();
    fs::create_dir_all(root.join("sources/styles")).unwrap();
    synth::write_clips_with(
        &root.join("sources/styles/clips.safetensors"),
        &[30, 45],
        48,
        &motion_value,
    )
    .unwrap();
    p.write(
        "manifests/styles.yaml",
        "styles:\n  - id: clips\n    source: sources/styles/clips.safetensors\n    table:\n      - { clip: 0, name: a, speed: 0.5, tokens: [6, 10] }\n      - { clip: 1, name: b, speed: 0.8, tokens: [7, 16] }\n",
    );
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let read = |rel: &str| mbstyle::decode(&fs::read(root.join(rel)).unwrap()).unwrap();
    let mut entries = String::from("styles:\n");
    for (name, speed, tokens) in [("a", 0.5, "[6, 10]"), ("b", 0.8, "[7, 16]")] {
        let s = read(&format!("out/styles/clips/{name}.mbstyle"));
        fs::write(root.join(format!("sources/styles/{name}.glb")), glb_of(&s)).unwrap();
        entries.push_str(&format!(
            "  - id: back-{name}\n    source: sources/styles/{name}.glb\n    animation: Style\n    name: {name}\n    speed: {speed}\n    tokens: {tokens}\n"
        ));
    }
    fs::write(root.join("manifests/styles.yaml"), entries).unwrap();
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for name in ["a", "b"] {
        let (back, orig) = (
            read(&format!("out/styles/back-{name}/{name}.mbstyle")),
            // The clip-file build was removed with its entry; rebuild the
            // expectation from the clip file's values.
            expected_style(name),
        );
        assert_eq!(back.frames(), orig.frames());
        assert_eq!(back.allowed_tokens, orig.allowed_tokens);
        assert_eq!(back.speed, orig.speed);
        let flat = |v: &mbstyle::Style| {
            (
                v.headings.clone(),
                v.joint_positions.as_flattened().to_vec(),
                v.joint_rotations.as_flattened().to_vec(),
                v.root_positions.as_flattened().to_vec(),
            )
        };
        let (b, o) = (flat(&back), flat(&orig));
        for (what, got, want) in [
            ("headings", &b.0, &o.0),
            ("joint positions", &b.1, &o.1),
            ("joint rotations", &b.2, &o.2),
            ("root positions", &b.3, &o.3),
        ] {
            let want: Vec<f64> = want.iter().map(|&v| f64::from(v)).collect();
            close(got, &want, &format!("{name} {what}"));
        }
    }
}

/// The style the clip file's values give for `name` (a: clip 0, 30
/// frames; b: clip 1, 45 frames).
fn expected_style(name: &str) -> mbstyle::Style {
    let (clip, frames, speed, tokens) = match name {
        "a" => (0, 30u64, 0.5, (6, 10)),
        _ => (1, 45, 0.8, (7, 16)),
    };
    let values = |a: usize, per: u64| -> Vec<f32> {
        (0..frames)
            .flat_map(|f| (0..per).map(move |k| motion_value(a, clip, f, k)))
            .collect()
    };
    mbstyle::Style {
        name: name.into(),
        speed,
        index: 0,
        source_sha256: String::new(),
        allowed_tokens: mbstyle::mask(tokens.0, tokens.1),
        headings: values(0, 1),
        joint_positions: values(1, 102)
            .chunks(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect(),
        joint_rotations: values(2, 306)
            .chunks(9)
            .map(|c| c.try_into().unwrap())
            .collect(),
        root_positions: values(3, 3).chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
    }
}
