//! docs/json.md stays true: its tables are read, and real `--json`
//! output of every documented document (built, fresh, failed, removed;
//! whole-build errors; dry runs and checks; verify) is checked against
//! them both ways: no field undocumented or of another type, no field
//! marked "always" missing, and every documented section seen.

use std::collections::BTreeSet;
use std::fs;

use serde_json::Value;

use crate::cli_support::{Project, stderr};
use crate::json_support::{check, schema};

/// Documents checked by other tests: a MotionBricks bundle folder needs a
/// full-size extraction (the full tier's
/// `bake/model_bundle.rs` `a_full_size_synthetic_bundle_…`); the watch's
/// lines come from a running watch (`watch.rs`); the view's from `view.rs`
/// (a server's line among them).
const CHECKED_ELSEWHERE: [&str; 5] = ["inspect-bundle", "watch", "view", "view-data", "view-serve"];

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

#[test]
fn every_documented_json_document_matches_what_kiln_prints() {
    let schema = schema();
    let mut seen = BTreeSet::new();
    let p = Project::demo();
    // Beside the demo: a style table and a GGUF that claims to be a
    // MotionBricks component (so inspect names it and what the runtime
    // would refuse).
    crate::synth::write_clips(
        &p.path("sources/clips.safetensors"),
        &[40, 4, 17, 33, 25, 12, 40, 9, 30, 5, 21, 38, 14, 27, 8],
        40,
    )
    .unwrap();
    p.write(
        "manifests/extra.yaml",
        "styles:\n  - { id: official, source: sources/clips.safetensors, table: motionbricks-g1, pins: record }\n\
         model_bundles:\n  - { id: fake-pose, profile: generic, source: sources/weights/tiny-mlp.safetensors, architecture: motionbricks, metadata: { motionbricks.component: pose } }\n",
    );
    let mut run = |doc: &str, args: &[&str], code: i32| {
        let out = p.kiln(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["schema"], 1, "{args:?}");
        assert_eq!(v["kiln"], env!("CARGO_PKG_VERSION"));
        check(&schema, doc, ".", &v, &mut seen);
    };
    // A dry run of nothing built, a failing check, a clean build (with
    // warnings and notes), a no-op, a passing check.
    run("dry-run", &["build", "--dry-run", "--json"], 0);
    run("dry-run", &["build", "--check", "--json"], 1);
    run("build", &["build", "--json"], 0);
    run("build", &["build", "--json"], 0);
    run("dry-run", &["build", "--check", "--json"], 0);
    // With a remote cache: every job stored, then restored elsewhere.
    let server = crate::remote::Server::start();
    run(
        "build",
        &["build", "--json", "--force", "--remote-cache", &server.url],
        0,
    );
    run(
        "build",
        &[
            "build",
            "--json",
            "--out",
            "out-restored",
            "--remote-cache",
            &server.url,
            "--remote-cache-read-only",
        ],
        0,
    );
    // A build whose state cannot be saved (a folder where the plan
    // summary's temporary file goes; a new manifest changes the plan).
    fs::create_dir_all(p.path("out/.kiln/.plan.kiln-tmp/in-the-way")).unwrap();
    p.write("manifests/empty.yaml", "pose_caches: []\n");
    run("build", &["build", "--json"], 1);
    fs::remove_dir_all(p.path("out/.kiln/.plan.kiln-tmp")).unwrap();
    fs::remove_file(p.path("manifests/empty.yaml")).unwrap();
    // Every file type inspect reads, from the build and beside it.
    let corpus = |rel: &str| format!("{}/tests/corpus/{rel}", env!("CARGO_MANIFEST_DIR"));
    p.write_bytes(
        "replay.mbreplay",
        &kiln::formats::mbreplay::encode(&crate::synth::replay()).unwrap(),
    );
    // A 2 x 2 QOI: one RGB pixel, then a run of three.
    let mut qoi = b"qoif\0\0\0\x02\0\0\0\x02\x04\0\xfe\x0a\x14\x1e\xc2".to_vec();
    qoi.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1]);
    p.write_bytes("t.qoi", &qoi);
    // A CGeo whose header has a key=value line.
    let mut seq = kiln::formats::cgeo::decode(
        &fs::read(p.path("sources/sequences/debris-crate.cgeo")).unwrap(),
    )
    .unwrap();
    seq.header.other.push(kiln::formats::cgeo::Line::Property(
        "Exporter".into(),
        "kiln test".into(),
    ));
    p.write_bytes("props.cgeo", &kiln::formats::cgeo::encode(&seq).unwrap());
    // A style the runtime loads with an optional key kiln does not write.
    let idle = fs::read(p.path("out/styles/official/idle.mbstyle")).unwrap();
    let h = kiln::formats::gguf::decode_header(&idle, idle.len() as u64).unwrap();
    let mut metadata = h.metadata.clone();
    metadata.push((
        "motionbricks.style_tempo".into(),
        kiln::formats::gguf::Value::F32(1.5),
    ));
    let (mut tempo, _) = kiln::formats::gguf::encode_header(&metadata, &h.descs()).unwrap();
    tempo.extend_from_slice(&idle[h.data_start as usize..]);
    p.write_bytes("tempo.mbstyle", &tempo);
    let characters = "out/levels/forest/@world/characters";
    for (doc, file) in [
        ("inspect-pose-cache", "out/poses/fox-run.ospc".to_string()),
        ("inspect-pose-cache", "out/poses/debris.ospc".into()),
        ("inspect-style", "out/styles/official/idle.mbstyle".into()),
        ("inspect-style", "tempo.mbstyle".into()),
        ("inspect-replay", "replay.mbreplay".into()),
        ("inspect-gguf", "out/models/tiny-mlp/tiny-mlp.gguf".into()),
        ("inspect-gguf", "out/models/fake-pose/fake-pose.gguf".into()),
        ("inspect-gguf", corpus("gguf/tiny_alltypes.gguf")),
        (
            "inspect-safetensors",
            "sources/weights/tiny-mlp.safetensors".into(),
        ),
        (
            "inspect-safetensors",
            corpus("safetensors/mixed_edgecases.safetensors"),
        ),
        ("inspect-qoi", "t.qoi".into()),
        ("inspect-cgeo", "out/cgeo/fox-run-cgeo.cgeo".into()),
        ("inspect-cgeo", "props.cgeo".into()),
        ("inspect-cgeo", "sources/sequences/debris-rock.cgeo".into()),
        ("inspect-characters", characters.into()),
    ] {
        run(doc, &["inspect", "--json", &file], 0);
    }
    run(
        "inspect-atlas",
        &[
            "inspect",
            "--json",
            "--atlas-png",
            "a.png",
            "sources/characters/Fox.glb",
        ],
        0,
    );
    run(
        "inspect-atlas",
        &[
            "inspect",
            "--json",
            "--atlas-png",
            "r.png",
            "sources/characters/RobotExpressive.glb",
        ],
        0,
    );
    run(
        "inspect-atlases",
        &["inspect", "--json", "--atlas-png", "c.png", characters],
        0,
    );
    run(
        "inspect-png",
        &["inspect", "--json", "--png", "t.png", "t.qoi"],
        0,
    );
    // A failed job and removed outputs.
    p.edit(
        "manifests/robot.yaml",
        "animation: Wave",
        "animation: NoSuchClip",
    );
    fs::remove_file(p.path("manifests/sequences.yaml")).unwrap();
    fs::remove_file(p.path("manifests/extra.yaml")).unwrap();
    run("build", &["build", "--json"], 1);
    // Whole-build errors: a manifest problem, a usage error.
    run("errors", &["build", "--json", "no-such-target"], 2);
    p.write(
        "manifests/bad.yaml",
        "pose_caches:\n  - id: x\n    colour: red\n",
    );
    run("errors", &["build", "--json"], 1);
    fs::remove_file(p.path("manifests/bad.yaml")).unwrap();
    // Verify: a valid file and an invalid one.
    fs::write(p.path("bad.qoi"), b"qoif").unwrap();
    run(
        "verify",
        &["verify", "--json", "out/poses/fox-run.ospc", "bad.qoi"],
        1,
    );

    // glTF sources: skins, clips of every target, morphs, named and
    // external images, a generator, Draco.
    crate::cli_support::split_fox(&p);
    for file in [
        "split/fox.gltf",
        "sources/characters/RobotExpressive.glb",
        "sources/characters/CesiumMan-blender.glb",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb/MorphStressTest.glb"
        ),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/glb-variants/Fox.draco.glb"
        ),
    ] {
        run("inspect-gltf", &["inspect", "--json", file], 0);
    }

    // Every section was met, and every field but a few optional ones.
    for key in schema
        .keys()
        .filter(|(doc, _)| !CHECKED_ELSEWHERE.contains(&doc.as_str()))
    {
        assert!(
            seen.iter().any(|(d, p, _)| (d, p) == (&key.0, &key.1)),
            "docs/json.md section {key:?} was never printed"
        );
    }
    for ((doc, path), fields) in schema
        .iter()
        .filter(|((doc, _), _)| !CHECKED_ELSEWHERE.contains(&doc.as_str()))
    {
        for name in fields.keys() {
            assert!(
                seen.contains(&(doc.clone(), path.clone(), name.clone())),
                "{doc} {path} `{name}` was never printed"
            );
        }
    }
}
