//! A MotionBricks replay (`.mbreplay`) baked into a pose cache by `kiln
//! build`, driven like a user drives it; with `inspect` and `verify` on the
//! replay, and the settings a replay does not take refused at their line.

use std::fs;

use kiln::formats::mbreplay::{self, Replay};
use kiln::formats::ospc::{self, Shape};

use crate::cli_support;
use cli_support::{Project, stderr};

fn replay() -> Replay {
    crate::synth::replay()
}

/// An empty project with the replay, a glTF skin, and `manifest`.
fn project(manifest: &str) -> Project {
    let p = Project::empty();
    p.write_bytes(
        "sources/session.mbreplay",
        &mbreplay::encode(&replay()).unwrap(),
    );
    p.write_bytes(
        "sources/skin.glb",
        &fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb/SimpleSkin.glb"
        ))
        .unwrap(),
    );
    p.write("manifests/poses.yaml", manifest);
    p
}

#[test]
fn a_replay_bakes_one_entity_per_joint_and_one_frame_per_replay_frame() {
    let p = project(
        "pose_caches:\n  - id: ghost\n    source: sources/session.mbreplay\n    label: captured\n",
    );
    let out = p.kiln(&["build", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(p.path("out/poses/ghost.ospc")).unwrap();
    let cache = ospc::decode(&bytes).unwrap();
    assert_eq!(cache.n_frames(), 5);
    assert_eq!(cache.dimensions, 3);
    assert_eq!(cache.label, "captured");
    assert_eq!(cache.scene, "session.mbreplay");
    let entities: Vec<(u64, &str, Shape)> = cache
        .entities
        .iter()
        .map(|e| (e.id, e.name.as_str(), e.shape))
        .collect();
    assert_eq!(
        entities,
        [
            (1, "joint_0", Shape::Point),
            (2, "joint_1", Shape::Point),
            (3, "joint_2", Shape::Point)
        ]
    );
    for f in 0..5 {
        for j in 0..3 {
            let pose = cache.pose(f, j).unwrap();
            let want = [f as f32 / 10.0, 1.0 - j as f32 / 4.0, j as f32 / 2.0];
            assert_eq!(
                pose.position.map(f32::to_bits),
                want.map(f32::to_bits),
                "{f} {j}"
            );
            assert_eq!(pose.rotation, [0.0, 0.0, 0.0, 1.0]);
        }
    }
    // A second build does nothing.
    let again = p.kiln(&["build", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["jobs"][0]["status"], "fresh", "{report}");
}

#[test]
fn joint_names_dimensions_and_shape_apply() {
    let p = project(
        "pose_caches:\n  - id: ghost\n    source: sources/session.mbreplay\n    joint_names: [pelvis, hip, knee]\n    dimensions: 2\n    shape: sphere\n    size: [0.05, 0, 0]\n",
    );
    let out = p.kiln(&["build", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cache = ospc::decode(&fs::read(p.path("out/poses/ghost.ospc")).unwrap()).unwrap();
    let names: Vec<&str> = cache.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["pelvis", "hip", "knee"]);
    assert_eq!(cache.entities[2].id, 3);
    assert_eq!(cache.entities[0].shape, Shape::Sphere);
    assert_eq!(cache.entities[0].size, [0.05, 0.0, 0.0]);
    assert_eq!(cache.dimensions, 2);
    assert_eq!(cache.pose(4, 2).unwrap().position, [0.4, 0.5, 0.0]);
}

#[test]
fn settings_a_replay_does_not_take_are_refused_at_their_line() {
    let cases = [
        (
            "    animation: Run\n",
            "manifests/poses.yaml:4:16: animation does not apply to a .mbreplay source",
        ),
        (
            "    rate_hz: 30\n",
            "manifests/poses.yaml:4:14: rate_hz does not apply to a .mbreplay source",
        ),
        (
            "    entities: nodes\n",
            "manifests/poses.yaml:4:15: entities does not apply to a .mbreplay source",
        ),
    ];
    for (line, want) in cases {
        let p = project(&format!(
            "pose_caches:\n  - id: ghost\n    source: sources/session.mbreplay\n{line}"
        ));
        let out = p.kiln(&["build"]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains(want), "{}", stderr(&out));
        assert!(!p.path("out/poses/ghost.ospc").exists());
    }
    // joint_names of the wrong length: found while running, blamed on the
    // setting's line.
    let p = project(
        "pose_caches:\n  - id: ghost\n    source: sources/session.mbreplay\n    joint_names: [a, b]\n",
    );
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "manifests/poses.yaml:4:18: job \"ghost\": joint_names has 2 names; the replay has 3 joints"
        ),
        "{}",
        stderr(&out)
    );
    // A glTF source: no joint_names, and rate_hz and animation required.
    let p =
        project("pose_caches:\n  - id: skin\n    source: sources/skin.glb\n    joint_names: [a]\n");
    let out = p.kiln(&["build"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("manifests/poses.yaml:4:18: joint_names is for a .mbreplay source"),
        "{err}"
    );
    assert!(
        err.contains("manifests/poses.yaml:3:13: a glTF source needs `rate_hz`"),
        "{err}"
    );
    assert!(
        err.contains("manifests/poses.yaml:3:13: a glTF source needs `animation`"),
        "{err}"
    );
}

#[test]
fn a_broken_replay_is_an_error_naming_the_file_rule_and_offset() {
    let p = project("pose_caches:\n  - id: ghost\n    source: sources/session.mbreplay\n");
    let path = p.path("sources/session.mbreplay");
    let mut bytes = fs::read(&path).unwrap();
    bytes.push(0);
    fs::write(&path, &bytes).unwrap();
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "manifests/poses.yaml:3:13: job \"ghost\": sources/session.mbreplay: at byte 468"
        ),
        "{err}"
    );
    assert!(err.contains("bytes for the header's dimensions"), "{err}");
    let out = p.kiln(&["verify", "sources/session.mbreplay"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("invalid MotionBricks replay: at byte"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn inspect_and_verify_read_a_replay() {
    let p = project("pose_caches: []\n");
    let out = p.kiln(&["verify", "sources/session.mbreplay"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("valid MotionBricks replay v1 (5 frames at 50 fps, 3 joints, 1 plans)"),
        "{text}"
    );
    let out = p.kiln(&["inspect", "--json", "sources/session.mbreplay"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "motionbricks replay");
    assert_eq!(v["frames"], 5);
    assert_eq!(v["duration_s"], 0.1);
    assert_eq!(v["joints"], 3);
    assert_eq!(v["pre_roll_frames"], 2);
    assert_eq!(v["parents"], serde_json::json!([-1, 0, 1]));
    assert_eq!(v["position_bounds"]["max"][0], 0.4000000059604645);
    assert_eq!(v["plans"][0]["length"], 24);
    let out = p.kiln(&["inspect", "sources/session.mbreplay"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("5 frames at 50 fps (0.10 s), 3 joints, 2 qpos values per frame"),
        "{text}"
    );
    assert!(
        text.contains("plan 0: from frame 2, mode 1, 24 frames generated"),
        "{text}"
    );
}
