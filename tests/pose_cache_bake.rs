//! The pose cache baker: known answers on hand-made scenes, and every real
//! GLB in the corpus baked, validated and compared across its meshopt and
//! quantized twins.

use std::path::Path;

use kiln::bake::pose_cache::{self, ClipRef, EntitySet, Settings};
use kiln::formats::ospc::{self, PoseCache, Shape};
use kiln::import::gltf;
use kiln::model::{Channel, Clip, Interpolation, LocalTransform, Node, Scene, Skin, Target, Trs};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

fn settings(rate_hz: f64, entities: EntitySet) -> Settings {
    Settings {
        rate_hz,
        entities,
        shape: Shape::Point,
        size: [0.0; 3],
        dimensions: 3,
        start_step: 0,
        label: String::new(),
        scene: "test.glb".into(),
        replay: String::new(),
        library_version: kiln::VERSION.into(),
    }
}

fn node(name: &str, parent: Option<usize>, translation: [f32; 3]) -> Node {
    Node {
        name: Some(name.into()),
        parent,
        children: vec![],
        local: LocalTransform::Trs(Trs {
            translation,
            ..Trs::IDENTITY
        }),
    }
}

/// root at the origin spinning 90 degrees about z over one second; a child
/// one unit along x.
fn spinning_arm() -> Scene {
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let mut root = node("root", None, [0.0; 3]);
    root.children = vec![1];
    Scene {
        nodes: vec![root, node("hand", Some(0), [1.0, 0.0, 0.0])],
        roots: vec![0],
        skins: vec![Skin {
            name: None,
            joints: vec![0, 1],
            inverse_bind: vec![[0.0; 16]; 2],
            skeleton: None,
        }],
        clips: vec![Clip {
            name: Some("spin".into()),
            channels: vec![Channel {
                node: 0,
                target: Target::Rotation,
                interpolation: Interpolation::Linear,
                times_s: vec![0.0, 1.0],
                values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s, s],
            }],
        }],
    }
}

#[test]
fn spinning_arm_has_known_world_poses() {
    let scene = spinning_arm();
    let cache = pose_cache::bake(
        &scene,
        &ClipRef::Name("spin".into()),
        &settings(2.0, EntitySet::Joints),
    )
    .unwrap();
    assert_eq!(cache.n_frames(), 3); // 0, 0.5, 1.0 s
    assert_eq!(cache.entities.len(), 2);
    assert_eq!(cache.entities[1].name, "hand");
    let hand = |frame: usize| cache.poses[frame * 2 + 1];
    let close = |a: [f32; 3], b: [f32; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
    assert!(close(hand(0).position, [1.0, 0.0, 0.0]));
    // Slerp: halfway is 45 degrees.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(close(hand(1).position, [h, h, 0.0]), "{:?}", hand(1));
    assert!(close(hand(2).position, [0.0, 1.0, 0.0]), "{:?}", hand(2));
    let r = hand(1).rotation;
    let (s, c) = (22.5f32.to_radians().sin(), 22.5f32.to_radians().cos());
    assert!((r[2] - s).abs() < 1e-6 && (r[3] - c).abs() < 1e-6, "{r:?}");
    // The document is valid and round-trips.
    let bytes = ospc::encode(&cache).unwrap();
    assert_eq!(ospc::decode(&bytes).unwrap(), cache);
    assert_eq!(cache.unit_name, "metre");
    assert_eq!(cache.metres_per_unit, 1.0);
    assert_eq!(cache.module_id, "kiln");
}

#[test]
fn two_dimensional_caches_drop_z_and_keep_the_twist() {
    let mut scene = spinning_arm();
    if let LocalTransform::Trs(t) = &mut scene.nodes[1].local {
        t.translation = [1.0, 0.0, 5.0];
    }
    let mut s = settings(1.0, EntitySet::Joints);
    s.dimensions = 2;
    let cache = pose_cache::bake(&scene, &ClipRef::Index(0), &s).unwrap();
    assert_eq!(cache.dimensions, 2);
    for pose in &cache.poses {
        assert_eq!(pose.position[2], 0.0);
        assert_eq!(pose.rotation[0], 0.0);
        assert_eq!(pose.rotation[1], 0.0);
    }
}

#[test]
fn entity_ids_come_from_names_not_indices() {
    let scene = spinning_arm();
    let mut reordered = spinning_arm();
    // Same rig, nodes listed the other way round.
    reordered.nodes.reverse();
    reordered.nodes[0].parent = Some(1);
    reordered.nodes[1].parent = None;
    reordered.nodes[1].children = vec![0];
    reordered.nodes[0].children = vec![];
    reordered.roots = vec![1];
    reordered.skins[0].joints = vec![1, 0];
    reordered.clips[0].channels[0].node = 1;
    let s = settings(2.0, EntitySet::Nodes);
    let a = pose_cache::bake(&scene, &ClipRef::Index(0), &s).unwrap();
    let b = pose_cache::bake(&reordered, &ClipRef::Index(0), &s).unwrap();
    let id = |c: &PoseCache, name: &str| c.entities.iter().find(|e| e.name == name).unwrap().id;
    assert_eq!(id(&a, "hand"), id(&b, "hand"));
    assert_eq!(id(&a, "root"), id(&b, "root"));
    assert_ne!(id(&a, "hand"), id(&a, "root"));
}

#[test]
fn repeated_names_get_paths_and_stay_unique() {
    let mut scene = spinning_arm();
    scene.nodes.push(node("hand", Some(1), [1.0, 0.0, 0.0]));
    scene.nodes[1].children = vec![2];
    let cache =
        pose_cache::bake(&scene, &ClipRef::Index(0), &settings(1.0, EntitySet::Nodes)).unwrap();
    let names: Vec<&str> = cache.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["root", "root/hand", "root/hand/hand"]);
}

#[test]
fn missing_clips_and_joints_are_reported() {
    let scene = spinning_arm();
    let s = settings(30.0, EntitySet::Joints);
    let e = pose_cache::bake(&scene, &ClipRef::Name("walk".into()), &s).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no animation named \"walk\"; the source has \"spin\""
    );
    let e = pose_cache::bake(&scene, &ClipRef::Index(3), &s).unwrap_err();
    assert_eq!(e.to_string(), "no animation with index 3; the source has 1");
    let mut no_skin = scene.clone();
    no_skin.skins.clear();
    assert_eq!(
        pose_cache::bake(&no_skin, &ClipRef::Index(0), &s).unwrap_err(),
        pose_cache::Error::NoJoints
    );
}

#[test]
fn frame_counts_past_the_format_limit_are_refused() {
    let mut scene = spinning_arm();
    scene.clips[0].channels[0].times_s[1] = 1.0e6;
    let e = pose_cache::bake(
        &scene,
        &ClipRef::Index(0),
        &settings(10_000.0, EntitySet::Joints),
    )
    .unwrap_err();
    assert!(matches!(e, pose_cache::Error::TooLarge { .. }), "{e}");
}

fn import(rel: &str) -> Scene {
    let bytes = std::fs::read(Path::new(CORPUS).join(rel)).unwrap();
    let uris = gltf::external_uris(&bytes).unwrap();
    assert!(uris.is_empty(), "{rel} refers to external files");
    gltf::import_scene(&bytes, &[]).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn glb_files() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["glb", "glb-meshopt", "glb-variants"] {
        for entry in std::fs::read_dir(Path::new(CORPUS).join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".glb") || name.ends_with(".gltf") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_bakes_every_clip_into_a_valid_cache() {
    let files = glb_files();
    assert!(files.len() >= 35, "{}", files.len());
    let mut baked = 0;
    for rel in files {
        let scene = import(&rel);
        for (i, _) in scene.clips.iter().enumerate() {
            let cache = pose_cache::bake(
                &scene,
                &ClipRef::Index(i),
                &settings(30.0, EntitySet::Nodes),
            )
            .unwrap_or_else(|e| panic!("{rel} clip {i}: {e}"));
            let bytes = ospc::encode(&cache).unwrap_or_else(|e| panic!("{rel} clip {i}: {e}"));
            let back = ospc::decode(&bytes).unwrap();
            assert_eq!(ospc::encode(&back).unwrap(), bytes);
            baked += 1;
        }
    }
    assert!(baked > 100, "{baked}");
}

/// Largest distance between matching entity positions, and largest
/// rotation difference (1 - |dot|), over all frames.
/// Over the frames both have (resampling may add or drop the last one).
fn max_difference(a: &PoseCache, b: &PoseCache) -> (f32, f32) {
    assert!(a.n_frames().abs_diff(b.n_frames()) <= 1);
    let ids_a: Vec<u64> = a.entities.iter().map(|e| e.id).collect();
    let ids_b: Vec<u64> = b.entities.iter().map(|e| e.id).collect();
    assert_eq!(ids_a, ids_b);
    let (mut dp, mut dr) = (0.0f32, 0.0f32);
    for (pa, pb) in a.poses.iter().zip(&b.poses) {
        let d: f32 = (0..3)
            .map(|i| (pa.position[i] - pb.position[i]).powi(2))
            .sum::<f32>()
            .sqrt();
        dp = dp.max(d);
        let dot: f32 = (0..4).map(|i| pa.rotation[i] * pb.rotation[i]).sum();
        dr = dr.max(1.0 - dot.abs());
    }
    (dp, dr)
}

/// Size of the rig: the largest distance of any joint from the origin.
fn extent(c: &PoseCache) -> f32 {
    c.poses
        .iter()
        .map(|p| p.position.iter().map(|v| v * v).sum::<f32>().sqrt())
        .fold(0.0, f32::max)
}

/// The meshopt path. A cache baked from gltfpack's compressed file without
/// filters (`.c`) equals, bit for bit, the one baked from its
/// quantized-only twin (`.q`): the vertex codec is lossless. With filters
/// (`.cc`: QUATERNION on rotations, EXPONENTIAL on translations and scales,
/// both lossy by design) positions agree within 1e-3 of the rig's extent
/// (measured worst case: 8e-4, Fox) and rotations within 1e-6 in
/// 1 - |dot|, about 0.16 degrees (measured worst case: 4.2e-7).
/// KHR_meshopt_compression (`Fox.cc-khr`, vertex codec v1) equals the EXT
/// file bit for bit.
#[test]
fn meshopt_twins_bake_the_same_cache() {
    let bake_all = |scene: &Scene| -> Vec<PoseCache> {
        (0..scene.clips.len())
            .map(|clip| {
                pose_cache::bake(
                    scene,
                    &ClipRef::Index(clip),
                    &settings(30.0, EntitySet::Joints),
                )
                .unwrap()
            })
            .collect()
    };
    for model in [
        "Fox",
        "CesiumMan-blender",
        "RiggedSimple-blender",
        "SimpleSkin",
        "RobotExpressive",
    ] {
        let quantized = bake_all(&import(&format!("glb-meshopt/{model}.q.glb")));
        let compressed = bake_all(&import(&format!("glb-meshopt/{model}.c.glb")));
        let filtered = bake_all(&import(&format!("glb-meshopt/{model}.cc.glb")));
        assert_eq!(quantized.len(), filtered.len());
        for (clip, ((q, c), f)) in quantized.iter().zip(&compressed).zip(&filtered).enumerate() {
            assert!(q == c, "{model}.c clip {clip} differs from .q");
            let (dp, dr) = max_difference(q, f);
            let tol = 1e-3 * extent(q).max(1e-3);
            assert!(
                dp <= tol,
                "{model}.cc clip {clip}: position off by {dp} (tolerance {tol})"
            );
            assert!(dr <= 1e-6, "{model}.cc clip {clip}: rotation off by {dr}");
        }
    }
    let ext = bake_all(&import("glb-meshopt/Fox.cc.glb"));
    let khr = bake_all(&import("glb-meshopt/Fox.cc-khr.glb"));
    assert!(ext == khr, "KHR_meshopt_compression file bakes differently");
}

/// gltfpack resamples at 30 Hz and quantizes, so the original and its
/// gltfpack twin agree only approximately: within 2e-3 of the rig's extent
/// (measured: 5.8e-4 for Fox, 6.1e-4 for CesiumMan).
#[test]
fn gltfpack_output_stays_close_to_the_original() {
    for model in ["Fox", "CesiumMan-blender"] {
        let original = import(&format!("glb/{model}.glb"));
        let packed = import(&format!("glb-meshopt/{model}.cc.glb"));
        let s = settings(30.0, EntitySet::Joints);
        let a = pose_cache::bake(&original, &ClipRef::Index(0), &s).unwrap();
        let b = pose_cache::bake(&packed, &ClipRef::Index(0), &s).unwrap();
        let (dp, _) = max_difference(&a, &b);
        let tol = 2e-3 * extent(&a);
        assert!(dp <= tol, "{model}: {dp} > {tol}");
    }
}

/// The same rig rewritten by other tools (gltfpack reorders and prunes
/// nodes; glTF-Transform rewrites every buffer) keeps its entity ids, since
/// ids follow joint names. (three.js's exporter renames bones, "Palm2.R" to
/// "Palm2R", so its re-export is a different rig to kiln, as to any
/// name-based retargeting.)
#[test]
fn a_rewritten_rig_keeps_its_entity_ids() {
    let s = settings(30.0, EntitySet::Joints);
    let ids = |rel: &str| {
        let c = pose_cache::bake(&import(rel), &ClipRef::Name("Run".into()), &s).unwrap();
        let mut v: Vec<(u64, String)> = c.entities.iter().map(|e| (e.id, e.name.clone())).collect();
        v.sort();
        v
    };
    let original = ids("glb/Fox.glb");
    assert_eq!(original.len(), 24);
    assert_eq!(ids("glb-meshopt/Fox.cc.glb"), original);
    assert_eq!(ids("glb-meshopt/Fox.gt-meshopt.glb"), original);
}
