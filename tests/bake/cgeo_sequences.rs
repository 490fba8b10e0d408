//! Characters into CGeo sequences (`cgeo_sequences`), driven like a user
//! drives it: the file reads back as a complete snapshot and differences
//! with the header, material ids, UVs, bounds and point cloud the docs
//! promise; Z-up is the Y-up file's axes turned; compressed and not give
//! the same values; the same inputs the same bytes; settings blamed at
//! their line. (That the vertices are the source skinned at each frame is
//! `tests/bake/characters.rs`'s `cgeo_sequences_skin_like_the_source_at_every_frame`.)

use crate::cli_support;

use std::fs;

use cli_support::{Project, REPO, stderr};
use kiln::formats::cgeo;
use kiln::import::gltf;

const ENTRIES: &str = "cgeo_sequences:
  - id: fox-y
    source: sources/characters/Fox.glb
    animation: Run
    rate_hz: 30
  - id: fox-z
    source: sources/characters/Fox.glb
    animation: Run
    rate_hz: 30
    compressed: true
    up_axis: z
";

fn project(manifest: &str) -> Project {
    let p = Project::empty();
    let fox = fs::read(format!("{REPO}/sources/characters/Fox.glb")).unwrap();
    p.write_bytes("sources/characters/Fox.glb", &fox);
    p.write("manifests/cgeo.yaml", manifest);
    p
}

#[test]
fn a_character_reads_back_as_the_sequence_the_docs_describe() {
    let p = project(ENTRIES);
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(report["totals"]["built"], 2);
    let y = cgeo::decode(&fs::read(p.path("out/cgeo/fox-y.cgeo")).unwrap()).unwrap();
    let z = cgeo::decode(&fs::read(p.path("out/cgeo/fox-z.cgeo")).unwrap()).unwrap();

    let fox = fs::read(format!("{REPO}/sources/characters/Fox.glb")).unwrap();
    let scene = gltf::import_scene(&fox, &[]).unwrap();
    let run = scene
        .clips
        .iter()
        .find(|c| c.name.as_deref() == Some("Run"))
        .unwrap();
    let frames = kiln::bake::pose_cache::frame_count(f64::from(run.duration_s()), 30.0);
    let h = &y.header;
    assert_eq!(h.snapshots as u64, frames);
    assert_eq!(
        (h.time_per_snapshot_us, h.start_us, h.scale),
        (33_333, 0, 1000.0)
    );
    assert_eq!(
        (h.object.as_str(), h.material.as_str()),
        ("fox", "fox_material")
    );
    assert!(!h.compressed && z.header.compressed);
    assert!(!y.topology_changing);

    // Snapshot 0 complete, the rest differences over its topology.
    let first = &y.snapshots[0];
    assert!(first.complete);
    assert!(y.snapshots[1..].iter().all(|s| !s.complete));
    let mesh = &first.mesh;
    let meshes = gltf::import_meshes(gltf::Source::parse(&fox).unwrap(), &[], &[], None).unwrap();
    let prim = &meshes.meshes[0].primitives[0];
    assert_eq!(mesh.vertices.len(), prim.positions.len());
    assert_eq!(mesh.normals.len(), mesh.vertices.len());
    assert_eq!(mesh.triangles.len() * 3, prim.indices.len());
    for (t, tri) in mesh.triangles.iter().enumerate() {
        let want: Vec<u32> = prim.indices[3 * t..3 * t + 3].to_vec();
        assert_eq!(tri.vertices.to_vec(), want);
        assert_eq!(tri.normals, tri.vertices);
        assert_eq!(mesh.map_indices[t], tri.vertices);
        assert_eq!((tri.material, tri.edges), (0, 0b111), "glTF material 0");
    }
    // One UV channel: glTF's TEXCOORD_0 with v flipped, w 0.
    assert_eq!(mesh.channels.len(), 1);
    for (uv, src) in mesh.channels[0].iter().zip(&prim.tex_coords[0]) {
        assert_eq!(*uv, [src[0], 1.0 - src[1], 0.0]);
    }
    for (k, s) in y.snapshots.iter().enumerate() {
        // The UVs do not move; bounds are the vertices'; the cloud is
        // every n-th vertex, n = ceil(vertices / 1,024): at most 1,024.
        // (A difference snapshot's values are snapshot 0's plus a float32
        // difference: within a float32 step of the skinned values that the
        // bounds and the cloud were made from.)
        assert_eq!(s.mesh.channels, mesh.channels, "frame {k}");
        let near = |a: f32, b: f32| (a - b).abs() <= 1e-5 * a.abs().max(1.0);
        let b = s.bounding_box.unwrap();
        for i in 0..3 {
            let lo = s
                .mesh
                .vertices
                .iter()
                .map(|v| v[i])
                .fold(f32::MAX, f32::min);
            let hi = s
                .mesh
                .vertices
                .iter()
                .map(|v| v[i])
                .fold(f32::MIN, f32::max);
            assert!(near(b[i], lo) && near(b[i + 3], hi), "frame {k}: {b:?}");
            if k == 0 {
                assert_eq!([b[i], b[i + 3]], [lo, hi]);
            }
        }
        let cloud = s.point_cloud.as_ref().unwrap();
        let step = s.mesh.vertices.len().div_ceil(1024);
        let want: Vec<[f32; 3]> = s.mesh.vertices.iter().step_by(step).copied().collect();
        assert_eq!(cloud.len(), want.len());
        for (c, w) in cloud.iter().zip(&want) {
            assert!((0..3).all(|i| near(c[i], w[i])), "frame {k}: {c:?} {w:?}");
        }
        // Z up is (x, -z, y) of Y up, zlib or not.
        let zs = &z.snapshots[k];
        for (a, b) in s.mesh.vertices.iter().zip(&zs.mesh.vertices) {
            assert_eq!(*b, [a[0], -a[2], a[1]], "frame {k}");
        }
        assert_eq!(
            zs.point_cloud.as_ref().unwrap().len(),
            s.point_cloud.as_ref().unwrap().len()
        );
        for (a, b) in s.mesh.normals.iter().zip(&zs.mesh.normals) {
            assert_eq!(*b, [a[0], -a[2], a[1]], "frame {k}");
            let len = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-5, "frame {k}: a unit normal");
        }
    }
    // The animation moves the mesh.
    assert_ne!(y.snapshots[0].mesh.vertices, y.snapshots[10].mesh.vertices);

    // The same inputs give the same bytes.
    let before = fs::read(p.path("out/cgeo/fox-z.cgeo")).unwrap();
    let (_, out) = p.build_json(&["--force"]);
    assert!(out.status.success());
    assert_eq!(fs::read(p.path("out/cgeo/fox-z.cgeo")).unwrap(), before);
    // And kiln's own reader and verify take them.
    let out = p.kiln(&["verify", "out/cgeo/fox-z.cgeo"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn settings_are_blamed_at_their_line() {
    for (from, to, line, want) in [
        (
            "animation: Run",
            "animation: Jump",
            4,
            "no animation named \"Jump\"",
        ),
        (
            "rate_hz: 30",
            "rate_hz: 0",
            5,
            "rate_hz must be a number above 0",
        ),
        ("rate_hz: 30", "rate_hz: 20000", 5, "at most 10000"),
        ("up_axis: z", "up_axis: x", 11, "unknown variant `x`"),
    ] {
        let p = project(&ENTRIES.replace(from, to));
        let out = p.kiln(&["build"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{to}: {err}");
        assert!(
            err.contains(&format!("manifests/cgeo.yaml:{line}:")) && err.contains(want),
            "{to}: {err}"
        );
    }
}
