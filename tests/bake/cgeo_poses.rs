//! CGeo sequences into pose caches, driven like a user drives it: rigid
//! bodies with known motion come back as that motion (the origin's path and
//! the rotation) on one clock, absent outside their time; a deforming mesh
//! fails naming the file, the snapshot and the vertex, at the tolerance's
//! line; files on different clocks need `rate_hz`, which resamples; the
//! glob is an input; settings that do not apply are refused; a file larger
//! than the memory kiln may use is read a snapshot at a time.

use crate::cli_support;

use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::process::Command;

use cli_support::{KILN, Project, stderr};
use kiln::formats::cgeo::{self, Header, Mesh, Sequence, Snapshot, Triangle};
use kiln::formats::ospc;

type Quat = [f64; 4];

/// An asymmetric body (no symmetry a fit could confuse), in units, around
/// its bounds' centre `(10, 20, 30)` before the offset.
fn body() -> Vec<[f64; 3]> {
    vec![
        [-4.0, -2.0, -1.0],
        [4.0, -2.0, -1.0],
        [4.0, 2.0, -1.0],
        [-4.0, 2.0, -1.0],
        [-4.0, -2.0, 1.0],
        [4.0, -2.0, 1.0],
        [4.0, 2.0, 1.0],
        [-4.0, 2.0, 1.0],
        [1.5, 0.5, 1.0],
        [-2.5, 1.5, -0.25],
    ]
    .into_iter()
    .map(|[x, y, z]| [x + 10.0, y + 20.0, z + 30.0])
    .collect()
}

const CENTRE: [f64; 3] = [10.0, 20.0, 30.0];

fn quat_axis_angle(axis: [f64; 3], angle: f64) -> Quat {
    let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let s = (angle / 2.0).sin() / n;
    let q = [axis[0] * s, axis[1] * s, axis[2] * s, (angle / 2.0).cos()];
    if q[3] < 0.0 { q.map(|c| -c) } else { q }
}

fn rotate(q: Quat, v: [f64; 3]) -> [f64; 3] {
    let [x, y, z, w] = q;
    let t = [
        2.0 * (y * v[2] - z * v[1]),
        2.0 * (z * v[0] - x * v[2]),
        2.0 * (x * v[1] - y * v[0]),
    ];
    [
        v[0] + w * t[0] + (y * t[2] - z * t[1]),
        v[1] + w * t[1] + (z * t[0] - x * t[2]),
        v[2] + w * t[2] + (x * t[1] - y * t[0]),
    ]
}

/// The known motion of snapshot `k`: a spin about a tilted axis and a
/// throw.
fn motion(k: usize) -> (Quat, [f64; 3]) {
    let t = k as f64 / 30.0;
    (
        quat_axis_angle([0.3, 1.0, 0.2], 2.5 * t),
        [5.0 * t, -3.0 * t, 8.0 * t - 4.9 * t * t],
    )
}

struct Spec {
    object: &'static str,
    start_us: i64,
    step_us: u64,
    snapshots: usize,
    scale: f64,
    compressed: bool,
    /// (snapshot, vertex, offset in units): one vertex pulled off the body.
    deform: Option<(usize, usize, f64)>,
}

fn spec(object: &'static str, start_us: i64, snapshots: usize) -> Spec {
    Spec {
        object,
        start_us,
        step_us: 33_333,
        snapshots,
        scale: 10.0,
        compressed: false,
        deform: None,
    }
}

/// The CGeo file of `s`: snapshot k is the body moved by `motion(k)` about
/// its centre, written as a complete snapshot 0 and differences.
fn sequence(s: &Spec) -> Vec<u8> {
    let base: Vec<[f32; 3]> = body().iter().map(|v| v.map(|x| x as f32)).collect();
    let snapshots = (0..s.snapshots)
        .map(|k| {
            let (q, t) = motion(k);
            let mut vertices: Vec<[f32; 3]> = body()
                .iter()
                .map(|v| {
                    let r = rotate(q, [v[0] - CENTRE[0], v[1] - CENTRE[1], v[2] - CENTRE[2]]);
                    std::array::from_fn(|i| (CENTRE[i] + r[i] + t[i]) as f32)
                })
                .collect();
            if let Some((at, vertex, by)) = s.deform
                && at == k
            {
                vertices[vertex][0] += by as f32;
            }
            let complete = k == 0;
            let mesh = Mesh {
                vertices: if complete {
                    vertices
                } else {
                    // A difference snapshot stores v - v0; the reader adds.
                    vertices
                        .iter()
                        .zip(&base)
                        .map(|(v, b)| std::array::from_fn(|i| v[i] - b[i]))
                        .collect()
                },
                normals: vec![[0.0, 0.0, if complete { 1.0 } else { 0.0 }]],
                channels: vec![],
                triangles: if complete {
                    vec![Triangle {
                        vertices: [0, 1, 2],
                        normals: [0, 0, 0],
                        material: 0,
                        edges: 7,
                    }]
                } else {
                    vec![]
                },
                map_indices: vec![],
            };
            Snapshot {
                complete,
                mesh,
                bounding_box: None,
                point_cloud: None,
                unknown: vec![],
                order: vec![],
            }
        })
        .collect();
    let seq = Sequence {
        header: Header {
            snapshots: s.snapshots as u32,
            time_per_snapshot_us: s.step_us,
            start_us: s.start_us,
            scale: s.scale,
            material: "m".into(),
            object: s.object.into(),
            compressed: s.compressed,
            other: vec![],
        },
        topology_changing: false,
        snapshots: encode_differences(snapshots),
    };
    cgeo::encode(&seq).unwrap()
}

/// `cgeo::encode` takes absolute values (a difference snapshot's as the
/// reader gives them): add snapshot 0 back.
fn encode_differences(mut snapshots: Vec<Snapshot>) -> Vec<Snapshot> {
    let base = snapshots[0].mesh.clone();
    for s in snapshots.iter_mut().skip(1) {
        for (v, b) in s.mesh.vertices.iter_mut().zip(&base.vertices) {
            *v = std::array::from_fn(|i| v[i] + b[i]);
        }
        for (n, b) in s.mesh.normals.iter_mut().zip(&base.normals) {
            *n = std::array::from_fn(|i| n[i] + b[i]);
        }
    }
    snapshots
}

fn project(files: &[(&str, &Spec)], entry: &str) -> Project {
    let p = Project::empty();
    for (name, s) in files {
        p.write_bytes(&format!("sources/seq/{name}"), &sequence(s));
    }
    p.write("manifests/poses.yaml", entry);
    p
}

const ENTRY: &str = "pose_caches:
  - id: debris
    source: sources/seq/piece-*.cgeo
    shape: box
    rigid_tolerance_m: 0.001
";

fn cache(p: &Project, id: &str) -> ospc::PoseCache {
    ospc::decode(&fs::read(p.path(&format!("out/poses/{id}.ospc"))).unwrap()).unwrap()
}

fn close(a: &[f32], b: &[f64], tolerance: f64) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (f64::from(*x) - y).abs() <= tolerance)
}

#[test]
fn rigid_bodies_with_known_motion_come_back_as_that_motion() {
    let a = spec("Alpha", 0, 30);
    let mut b = spec("Beta", 5 * 33_333, 10);
    b.compressed = true;
    let p = project(&[("piece-a.cgeo", &a), ("piece-b.cgeo", &b)], ENTRY);
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let notes = report["jobs"][0]["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0]
            .as_str()
            .unwrap()
            .contains("sources/seq/piece-a.cgeo (\"Alpha\"): 30 snapshots, worst rigid residual"),
        "{notes:?}"
    );

    let c = cache(&p, "debris");
    assert_eq!(c.metres_per_unit, 0.01, "Scale 10: centimetres");
    assert_eq!(c.unit_name, "centimetre");
    assert_eq!(c.scene, "piece-*.cgeo");
    let names: Vec<&str> = c.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Alpha", "Beta"], "in file name order");
    assert_eq!(c.entities[0].shape, ospc::Shape::Box);
    assert_eq!(
        c.entities[0].size,
        [4.0, 2.0, 1.0],
        "half extents of snapshot 0"
    );
    assert_eq!(c.entities[0].id, kiln::bake::pose_cache::entity_id("Alpha"));
    assert_eq!(c.n_frames(), 30);
    for f in 0..30 {
        for (e, offset, n) in [(0, 0, 30), (1, 5, 10)] {
            let pose = c.poses[f * 2 + e];
            if f < offset || f >= offset + n {
                assert!(pose.position[0].is_nan(), "frame {f} entity {e}: absent");
                continue;
            }
            let (q, t) = motion(f - offset);
            let want: Vec<f64> = (0..3).map(|i| CENTRE[i] + t[i]).collect();
            assert!(
                close(&pose.position, &want, 2e-5),
                "frame {f} entity {e}: {:?} vs {want:?}",
                pose.position
            );
            assert!(
                close(&pose.rotation, &q, 2e-6),
                "frame {f} entity {e}: {:?} vs {q:?}",
                pose.rotation
            );
        }
    }
    // Snapshot 0 is the origin and the identity, exactly.
    assert_eq!(c.poses[0].position, [10.0, 20.0, 30.0]);
    assert_eq!(c.poses[0].rotation, [0.0, 0.0, 0.0, 1.0]);

    // The same inputs give the same bytes; nothing changed, nothing built.
    let before = fs::read(p.path("out/poses/debris.ospc")).unwrap();
    let (report, out) = p.build_json(&["--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(report["jobs"][0]["status"], "built");
    assert_eq!(fs::read(p.path("out/poses/debris.ospc")).unwrap(), before);
}

#[test]
fn a_deforming_mesh_fails_naming_the_file_the_snapshot_and_the_vertex() {
    let mut a = spec("Alpha", 0, 12);
    // 0.3 units of Scale 10 is 3 mm: above the 1 mm tolerance.
    a.deform = Some((7, 3, 0.3));
    let p = project(&[("piece-a.cgeo", &a)], ENTRY);
    let (report, out) = p.build_json(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let error = &report["jobs"][0]["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(
            "sources/seq/piece-a.cgeo: snapshot 7 is not a rigid motion of snapshot 0: vertex 3 is"
        ),
        "{message}"
    );
    assert!(
        message.contains("above rigid_tolerance_m 1e-3"),
        "{message}"
    );
    assert_eq!(error["line"], 5, "at rigid_tolerance_m: {error}");
    assert!(!p.path("out/poses/debris.ospc").exists());

    // A looser tolerance takes it, and the note says how far off it was.
    p.edit("manifests/poses.yaml", "0.001", "0.01");
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let note = report["jobs"][0]["notes"][0].as_str().unwrap();
    assert!(note.contains("(snapshot 7, vertex 3)"), "{note}");
}

#[test]
fn a_snapshot_with_other_vertices_fails() {
    // A topology-changing file whose vertex count changes.
    let mut seq = cgeo::decode(&sequence(&spec("Alpha", 0, 3))).unwrap();
    seq.topology_changing = true;
    let first = seq.snapshots[0].mesh.clone();
    for s in &mut seq.snapshots {
        s.complete = true;
        s.mesh.triangles = first.triangles.clone();
    }
    seq.snapshots[2].mesh.vertices.pop();
    let p = project(&[], ENTRY);
    p.write_bytes("sources/seq/piece-a.cgeo", &cgeo::encode(&seq).unwrap());
    let (report, _) = p.build_json(&[]);
    let message = report["jobs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("snapshot 2 has 9 vertices, snapshot 0 has 10"),
        "{message}"
    );
}

#[test]
fn files_on_different_clocks_need_rate_hz_which_resamples() {
    let a = spec("Alpha", 0, 31);
    let mut b = spec("Beta", 0, 21);
    // Alpha's 30 steps of 33,333 µs end 10 µs short of 1 s: frame 20 (at
    // 1 s) still takes its last snapshot (a whole-microsecond step's
    // shortfall).
    b.step_us = 50_000;
    let p = project(&[("piece-a.cgeo", &a), ("piece-b.cgeo", &b)], ENTRY);
    let (report, out) = p.build_json(&[]);
    assert_eq!(out.status.code(), Some(1));
    let error = &report["jobs"][0]["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("sources/seq/piece-a.cgeo has a snapshot every 33333 µs and sources/seq/piece-b.cgeo every 50000 µs: the files are on different clocks; set rate_hz"),
        "{message}"
    );
    assert_eq!(error["line"], 3, "at the source: {error}");

    // Starts off the grid are on different clocks too.
    let c = spec("Gamma", 1_000, 5);
    p.write_bytes("sources/seq/piece-b.cgeo", &sequence(&c));
    let (report, _) = p.build_json(&[]);
    let message = report["jobs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("starts at 1000 µs, off the 33333 µs grid"),
        "{message}"
    );

    // With rate_hz every file is resampled from the earliest start to the
    // latest end: 1 s at 20 Hz is 21 frames.
    p.write_bytes("sources/seq/piece-b.cgeo", &sequence(&b));
    p.edit(
        "manifests/poses.yaml",
        "shape: box",
        "shape: box\n    rate_hz: 20",
    );
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cache = cache(&p, "debris");
    assert_eq!(cache.n_frames(), 21);
    // Beta (every 50 ms) lands on snapshots; Alpha (every 33.333 ms) falls
    // between its own and is interpolated.
    for f in 0..21 {
        let beta = cache.poses[f * 2 + 1];
        // Beta's snapshot f is at f * 50 ms; its motion is motion(f) in
        // snapshot units (30 per second of *its* count), by construction.
        let (q, t) = motion(f);
        let want: Vec<f64> = (0..3).map(|i| CENTRE[i] + t[i]).collect();
        assert!(close(&beta.position, &want, 2e-5), "frame {f}");
        assert!(close(&beta.rotation, &q, 2e-6), "frame {f}");
        // Alpha at f * 50 ms is snapshot 1.5 f: between its snapshots the
        // position is linear, so at a half step the mean of the two.
        let alpha = cache.poses[f * 2];
        let u = f as f64 * 50_000.0 / 33_333.0;
        let k = u.floor() as usize;
        let w = u - k as f64;
        let (_, t0) = motion(k);
        let (_, t1) = motion((k + 1).min(30));
        let w = if k >= 30 { 0.0 } else { w };
        let want: Vec<f64> = (0..3)
            .map(|i| CENTRE[i] + t0[i] + (t1[i] - t0[i]) * w)
            .collect();
        assert!(
            close(&alpha.position, &want, 1e-4),
            "frame {f}: {:?} vs {want:?}",
            alpha.position
        );
    }
}

#[test]
fn the_glob_is_an_input_and_matching_nothing_is_an_error_at_its_line() {
    let p = project(&[], ENTRY);
    fs::create_dir_all(p.path("sources/seq")).unwrap();
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "manifests/poses.yaml:3:13: source \"sources/seq/piece-*.cgeo\" matches no file"
        ),
        "{}",
        stderr(&out)
    );
    p.write_bytes("sources/seq/piece-a.cgeo", &sequence(&spec("Alpha", 0, 4)));
    let (report, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(report["jobs"][0]["status"], "built");
    assert_eq!(cache(&p, "debris").entities.len(), 1);
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["jobs"][0]["status"], "fresh");
    // A new matching file dirties the job; one that does not match does not.
    p.write_bytes("sources/seq/other.cgeo", &sequence(&spec("Other", 0, 4)));
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["jobs"][0]["status"], "fresh");
    p.write_bytes("sources/seq/piece-b.cgeo", &sequence(&spec("Beta", 0, 4)));
    let (report, _) = p.build_json(&[]);
    assert_eq!(report["jobs"][0]["status"], "built");
    assert_eq!(cache(&p, "debris").entities.len(), 2);
    // Two files naming one object are refused.
    p.write_bytes("sources/seq/piece-c.cgeo", &sequence(&spec("Beta", 0, 4)));
    let (report, _) = p.build_json(&[]);
    let message = report["jobs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "sources/seq/piece-b.cgeo and sources/seq/piece-c.cgeo both name the object \"Beta\""
        ),
        "{message}"
    );
}

#[test]
fn settings_that_do_not_apply_to_cgeo_are_refused_at_their_line() {
    let p = project(&[("piece-a.cgeo", &spec("Alpha", 0, 2))], ENTRY);
    for (add, want) in [
        ("size: [1, 1, 1]", "size does not apply to a .cgeo source"),
        (
            "entities: nodes",
            "entities does not apply to a .cgeo source",
        ),
        ("animation: 0", "animation does not apply to a .cgeo source"),
        (
            "joint_names: [a]",
            "joint_names does not apply to a .cgeo source",
        ),
        ("rate_hz: 0", "rate_hz must be a number above 0"),
    ] {
        p.write("manifests/poses.yaml", &format!("{ENTRY}    {add}\n"));
        let out = p.kiln(&["build"]);
        assert_eq!(out.status.code(), Some(1), "{add}");
        assert!(
            stderr(&out).contains("manifests/poses.yaml:6:") && stderr(&out).contains(want),
            "{add}: {}",
            stderr(&out)
        );
    }
    for (from, to, want) in [
        (
            "shape: box",
            "shape: sphere",
            "a .cgeo source's entities are a point or a box",
        ),
        (
            "0.001",
            "-1",
            "rigid_tolerance_m must be a finite distance of 0 or more",
        ),
    ] {
        p.write("manifests/poses.yaml", &ENTRY.replace(from, to));
        let out = p.kiln(&["build"]);
        assert_eq!(out.status.code(), Some(1), "{to}");
        assert!(stderr(&out).contains(want), "{to}: {}", stderr(&out));
    }
    // And the tolerance is for CGeo only.
    p.write(
        "manifests/poses.yaml",
        "pose_caches:\n  - id: r\n    source: sources/x.mbreplay\n    rigid_tolerance_m: 1\n",
    );
    let out = p.kiln(&["build"]);
    assert!(
        stderr(&out).contains("poses.yaml:4:24: rigid_tolerance_m is for a .cgeo source"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn scale_zero_has_no_physical_size_and_the_tolerance_is_in_units() {
    let mut a = spec("Alpha", 0, 5);
    a.scale = 0.0;
    a.deform = Some((3, 0, 0.002)); // 0.002 units: above 0.001 taken as units
    let p = project(&[("piece-a.cgeo", &a)], ENTRY);
    let (report, _) = p.build_json(&[]);
    let message = report["jobs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("units (Scale 0: no physical size)"),
        "{message}"
    );
    p.edit("manifests/poses.yaml", "0.001", "0.01");
    let (_, out) = p.build_json(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let c = cache(&p, "debris");
    assert_eq!(c.metres_per_unit, 0.0);
    // Files of different Scales are refused.
    let b = spec("Beta", 0, 5);
    p.write_bytes("sources/seq/piece-b.cgeo", &sequence(&b));
    let (report, _) = p.build_json(&[]);
    let message = report["jobs"][0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("every file of one pose cache needs the same Scale"),
        "{message}"
    );
}

/// A 1.3 GB file (sparse: difference snapshots of zeros, the body still)
/// baked and verified under a 1 GiB address-space cap: a kiln that held
/// the file would die; one that reads a snapshot at a time builds it
/// (peak RSS measured by hand with `/usr/bin/time`: 48 MB for the build,
/// 27 MB for verify).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "full tier: a 1.3 GB sparse file under prlimit"]
fn a_file_larger_than_kilns_memory_cap_is_read_a_snapshot_at_a_time() {
    const VERTICES: u64 = 500_000;
    const SNAPSHOTS: u64 = 220;
    let p = Project::empty();
    let path = p.path("sources/seq/piece-big.cgeo");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let header = format!(
        "Version: 7\nAnimation snapshot count: {SNAPSHOTS}\nTime per animation snapshot [microseconds]: 33333\nAnimation time start: 0\nScale: 1\nOriginal material name: m\nOriginal object name: Big\nCompressed: False\n"
    );
    let mut f = fs::File::create(&path).unwrap();
    let mut head = vec![cgeo::MAGIC];
    head.extend((header.len() as u32).to_le_bytes());
    head.extend(header.as_bytes());
    head.extend(0u32.to_le_bytes());
    head.extend(cgeo::TAG_ANIM_TABLE_START.to_le_bytes());
    let table_at = head.len() as u64;
    head.resize(head.len() + 8 * SNAPSHOTS as usize, 0);
    head.extend(cgeo::TAG_ANIM_TABLE_END.to_le_bytes());
    f.write_all(&head).unwrap();
    let mut offsets = Vec::new();
    for k in 0..SNAPSHOTS {
        f.write_all(&cgeo::TAG_ANIMATION_SNAPSHOT_START.to_le_bytes())
            .unwrap();
        offsets.push(f.stream_position().unwrap());
        let body = if k == 0 { 1 + 16 } else { 1 } + VERTICES * 12 + 4 + 12 + 4 + 4;
        f.write_all(&cgeo::TAG_MESH_DATA.to_le_bytes()).unwrap();
        f.write_all(&body.to_le_bytes()).unwrap();
        if k == 0 {
            let mut m = vec![1u8];
            for n in [VERTICES as u32, 1, 0, 0] {
                m.extend(n.to_le_bytes());
            }
            for i in 0..VERTICES {
                for c in [i % 1000, i / 1000, i % 7] {
                    m.extend((c as f32).to_le_bytes());
                }
            }
            f.write_all(&m).unwrap();
        } else {
            f.write_all(&[0u8]).unwrap();
            // Zero differences: a hole, no disk.
            f.seek(SeekFrom::Current((VERTICES * 12) as i64)).unwrap();
        }
        f.write_all(&cgeo::TAG_MESH_VERTICES_END.to_le_bytes())
            .unwrap();
        let normal: [f32; 3] = if k == 0 { [0.0, 0.0, 1.0] } else { [0.0; 3] };
        for c in normal {
            f.write_all(&c.to_le_bytes()).unwrap();
        }
        f.write_all(&cgeo::TAG_MESH_NORMALS_END.to_le_bytes())
            .unwrap();
        f.write_all(&cgeo::TAG_MESH_MAP_COORDS_END.to_le_bytes())
            .unwrap();
        f.write_all(&cgeo::TAG_ANIMATION_SNAPSHOT_END.to_le_bytes())
            .unwrap();
    }
    f.seek(SeekFrom::Start(table_at)).unwrap();
    for o in offsets {
        f.write_all(&o.to_le_bytes()).unwrap();
    }
    drop(f);
    let size = fs::metadata(&path).unwrap().len();
    assert!(size > 1_300_000_000, "{size}");
    p.write(
        "manifests/poses.yaml",
        "pose_caches:\n  - id: big\n    source: sources/seq/piece-*.cgeo\n",
    );
    let out = Command::new("prlimit")
        .args(["--as=1073741824", "--", KILN, "build", "-j", "1"])
        .current_dir(p.root())
        .env_remove("CI")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let c = cache(&p, "big");
    assert_eq!(c.n_frames(), SNAPSHOTS as usize);
    assert_eq!(c.poses[219].rotation, [0.0, 0.0, 0.0, 1.0]);
    // `kiln verify` reads it the same way.
    let out = Command::new("prlimit")
        .args([
            "--as=1073741824",
            "--",
            KILN,
            "verify",
            "sources/seq/piece-big.cgeo",
        ])
        .current_dir(p.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}
