//! The pose cache baker: known answers on hand-made scenes, and every real
//! GLB in the corpus baked, validated and compared across its meshopt and
//! quantized twins.

use std::path::Path;

use crate::{alloc_support, guard_support};

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
        instances: vec![],
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
    assert!(matches!(e, pose_cache::Error::TooManyFrames { .. }), "{e}");
}

/// A scene of `n` nodes: node 0 the root, then `chain` nodes each the
/// child of the one before, then the rest children of the root; every node
/// animated by its own translation channel, and the joint `joint`.
fn big_rig(n: usize, chain: usize, joint: usize, duration_s: f32) -> Scene {
    let mut nodes = vec![node("root", None, [0.0; 3])];
    for i in 1..n {
        let parent = if i <= chain { i - 1 } else { 0 };
        nodes.push(node(&format!("n{i}"), Some(parent), [1.0, 0.0, 0.0]));
        nodes[parent].children.push(i);
    }
    let channels = (0..n)
        .map(|i| Channel {
            node: i,
            target: Target::Translation,
            interpolation: Interpolation::Linear,
            times_s: vec![0.0, duration_s],
            values: vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0],
        })
        .collect();
    Scene {
        instances: vec![],
        nodes,
        roots: vec![0],
        skins: vec![Skin {
            name: None,
            joints: vec![joint],
            inverse_bind: vec![[0.0; 16]],
            skeleton: None,
        }],
        clips: vec![Clip {
            name: Some("all".into()),
            channels,
        }],
    }
}

/// Work follows the entities: 50,000 animated nodes, one joint under the
/// root, two million frames.
#[test]
fn many_nodes_and_one_joint_bake_millions_of_frames_in_seconds() {
    let scene = big_rig(50_000, 1, 1, 200.0);
    // The evaluation limit counts nodes and channels a frame times frames
    // before any work starts: the bake passing it shows the work follows
    // the one joint's two nodes, not the 50,000.
    let cache = guard_support::no_hang("a bake of 2,000,001 frames", || {
        pose_cache::bake(
            &scene,
            &ClipRef::Index(0),
            &settings(10_000.0, EntitySet::Joints),
        )
    })
    .unwrap();
    assert_eq!(cache.n_frames(), 2_000_001);
    assert_eq!(cache.entities.len(), 1);
    // The joint at the end: root (1,2,3) + its own (1,2,3).
    assert_eq!(cache.poses.last().unwrap().position, [2.0, 4.0, 6.0]);
}

#[test]
fn work_past_the_evaluation_limit_is_refused_before_it_starts() {
    // A joint at the end of a 40,000-node chain: 40,000 nodes and channels
    // a frame.
    let scene = big_rig(40_001, 40_000, 40_000, 10.0);
    let (e, counts) = alloc_support::counts_in(|| {
        pose_cache::bake(
            &scene,
            &ClipRef::Index(0),
            &settings(10_000.0, EntitySet::Joints),
        )
        .unwrap_err()
    });
    assert!(matches!(e, pose_cache::Error::TooMuchWork { .. }), "{e}");
    assert!(e.to_string().contains("lower rate_hz"), "{e}");
    // Refused before it starts: what was allocated follows the scene's
    // 40,001 nodes (tables of a few MB, about 100 allocations), not its
    // 100,001 frames times 40,000 nodes of work.
    assert!(
        counts.allocs < 1_000 && counts.bytes < 64 << 20,
        "{counts:?}"
    );
}

#[test]
fn the_evaluation_limit_is_exact() {
    let max = pose_cache::MAX_EVALUATIONS;
    assert_eq!(max % 4, 0);
    assert_eq!(pose_cache::check_work(max / 4, 4), Ok(()));
    assert_eq!(
        pose_cache::check_work(max / 4 + 1, 4),
        Err(pose_cache::Error::TooMuchWork {
            n_frames: max / 4 + 1,
            per_frame: 4,
            max
        })
    );
    assert!(pose_cache::check_work(u64::MAX, u64::MAX).is_err());
    assert_eq!(pose_cache::check_work(0, u64::MAX), Ok(()));
    // sample_poses checks before it works: 2 nodes and 2 channels a frame.
    let scene = big_rig(2, 1, 1, 0.0);
    let s = settings(1.0, EntitySet::Joints);
    let (nodes, _) = pose_cache::select_entities(&scene, &s).unwrap();
    let over = vec![0.0; (max / 4 + 1) as usize];
    assert!(matches!(
        pose_cache::sample_poses(&scene, &scene.clips[0], &nodes, &over, 1.0, 3),
        Err(pose_cache::Error::TooMuchWork { per_frame: 4, .. })
    ));
}

#[test]
fn a_long_chain_of_one_name_is_named_in_linear_time() {
    let n = 60_000;
    let mut scene = big_rig(n, n - 1, n - 1, 1.0);
    for node in &mut scene.nodes {
        node.name = Some("bone".into());
    }
    let (e, counts) = alloc_support::counts_in(|| {
        pose_cache::select_entities(&scene, &settings(1.0, EntitySet::Nodes)).unwrap_err()
    });
    // Linear: a path built for each node of the chain would be 60,000
    // strings of up to 300 KB (about 9 GB in all).
    assert!(counts.bytes < 64 << 20, "{counts:?}");
    match e {
        pose_cache::Error::NameTooLong { name, len, max } => {
            assert_eq!(max, ospc::MAX_TEXT_BYTES);
            assert!(len > max && name.len() < 80, "{len} {name}");
            assert!(name.ends_with("bone/bone"), "{name}");
        }
        e => panic!("{e}"),
    }
    // The same names side by side: paths, then #k, for every node.
    let mut wide = big_rig(n, 0, 1, 1.0);
    for node in wide.nodes.iter_mut().skip(1) {
        node.name = Some("bone".into());
    }
    let ((_, entities), counts) = alloc_support::counts_in(|| {
        pose_cache::select_entities(&wide, &settings(1.0, EntitySet::Nodes)).unwrap()
    });
    // Linear: a search for a free `#k` from 1 for each node would try
    // n²/2 names.
    assert!(counts.allocs < 40 * n, "{counts:?}");
    assert_eq!(entities[1].name, "root/bone");
    assert_eq!(entities[2].name, "root/bone#1");
    assert_eq!(entities[n - 1].name, format!("root/bone#{}", n - 2));
}

#[test]
fn three_of_one_name_count_their_repeats() {
    let mut scene = big_rig(4, 0, 1, 1.0);
    for node in scene.nodes.iter_mut().skip(1) {
        node.name = Some("tip".into());
    }
    let (_, entities) =
        pose_cache::select_entities(&scene, &settings(1.0, EntitySet::Nodes)).unwrap();
    let names: Vec<&str> = entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["root", "root/tip", "root/tip#1", "root/tip#2"]);
}

#[test]
fn entity_count_and_name_length_limits_are_exact() {
    let max = ospc::MAX_ENTITIES as usize;
    let s = settings(1.0, EntitySet::Nodes);
    let scene = big_rig(max, 0, 1, 0.0);
    assert_eq!(
        pose_cache::select_entities(&scene, &s).unwrap().1.len(),
        max
    );
    let scene = big_rig(max + 1, 0, 1, 0.0);
    assert_eq!(
        pose_cache::select_entities(&scene, &s).unwrap_err(),
        pose_cache::Error::TooManyEntities {
            n_entities: max + 1,
            max: ospc::MAX_ENTITIES
        }
    );
    let mut scene = big_rig(2, 0, 1, 0.0);
    scene.nodes[1].name = Some("x".repeat(ospc::MAX_TEXT_BYTES));
    assert!(pose_cache::select_entities(&scene, &s).is_ok());
    scene.nodes[1].name = Some("x".repeat(ospc::MAX_TEXT_BYTES + 1));
    assert!(matches!(
        pose_cache::select_entities(&scene, &s),
        Err(pose_cache::Error::NameTooLong { len, .. }) if len == ospc::MAX_TEXT_BYTES + 1
    ));
    // Repeated names become paths: one exactly at the limit
    // ("root/a/" + 1017 bytes), then one byte over.
    let mut scene = big_rig(4, 2, 1, 0.0);
    scene.nodes[1].name = Some("a".into());
    let long = "y".repeat(ospc::MAX_TEXT_BYTES - 7);
    scene.nodes[2].name = Some(long.clone());
    scene.nodes[3].name = Some(long.clone());
    let (_, entities) = pose_cache::select_entities(&scene, &s).unwrap();
    assert_eq!(entities[2].name.len(), ospc::MAX_TEXT_BYTES);
    assert_eq!(entities[2].name, format!("root/a/{long}"));
    assert_eq!(entities[3].name, format!("root/{long}"));
    scene.nodes[2].name = Some(format!("{long}y"));
    scene.nodes[3].name = Some(format!("{long}y"));
    assert!(matches!(
        pose_cache::select_entities(&scene, &s),
        Err(pose_cache::Error::NameTooLong { len, .. }) if len == ospc::MAX_TEXT_BYTES + 1
    ));
}

#[test]
fn the_size_limit_and_the_frame_limit_are_each_enough_to_refuse() {
    let max_frames = u64::from(ospc::MAX_FRAMES);
    // Frames within their limit, bytes over theirs.
    let clip = |duration_s: f32| Clip {
        name: None,
        channels: vec![Channel {
            node: 0,
            target: Target::Translation,
            interpolation: Interpolation::Step,
            times_s: vec![duration_s],
            values: vec![0.0; 3],
        }],
    };
    let per_mib = (1 << 20) / ospc::POSE_BYTES as u64;
    let entities = 1000;
    let frames_over_bytes = (ospc::MAX_FILE_BYTES as u64 >> 20) * per_mib / entities + 10;
    assert!(frames_over_bytes < max_frames);
    let e = pose_cache::frame_times(&clip(frames_over_bytes as f32), 1.0, entities as usize)
        .unwrap_err();
    assert_eq!(
        e,
        pose_cache::Error::TooLarge {
            n_frames: frames_over_bytes + 1,
            n_entities: entities as usize,
            max_mib: 256
        }
    );
    // Bytes within their limit (one entity), frames over.
    let e = pose_cache::frame_times(&clip(max_frames as f32), 1.0, 1).unwrap_err();
    assert!(matches!(e, pose_cache::Error::TooManyFrames { .. }), "{e}");
    // Exactly the frame limit is fine.
    let times = pose_cache::frame_times(&clip((max_frames - 1) as f32), 1.0, 1).unwrap();
    assert_eq!(times.len() as u64, max_frames);
}

#[test]
fn an_endless_clip_is_too_many_frames_not_a_wrapped_count() {
    for duration_s in [1.0e30f32, f32::MAX] {
        let clip = Clip {
            name: None,
            channels: vec![Channel {
                node: 0,
                target: Target::Translation,
                interpolation: Interpolation::Linear,
                times_s: vec![0.0, duration_s],
                values: vec![0.0; 6],
            }],
        };
        let e = pose_cache::frame_times(&clip, 10_000.0, 1).unwrap_err();
        assert_eq!(
            e,
            pose_cache::Error::TooManyFrames {
                duration_s,
                rate_hz: 10_000.0,
                max: ospc::MAX_FRAMES
            }
        );
    }
    assert_eq!(pose_cache::frame_count(1.0e30, 10_000.0), u64::MAX);
}

#[test]
fn a_clip_ending_on_float32_of_a_frame_time_includes_that_frame() {
    for rate in [24.0f64, 25.0, 30.0, 50.0, 60.0, 120.0] {
        for k in 0..2000u64 {
            let last = (k as f64 / rate) as f32;
            assert_eq!(
                pose_cache::frame_count(f64::from(last), rate),
                k + 1,
                "{k}/{rate}"
            );
            // One float32 step either side still counts as that frame.
            for near in [
                f32::from_bits(last.to_bits() + 1),
                f32::from_bits(last.to_bits().saturating_sub(1)),
            ] {
                if k > 0 {
                    assert_eq!(
                        pose_cache::frame_count(f64::from(near), rate),
                        k + 1,
                        "{k}/{rate}"
                    );
                }
            }
        }
        // A third of a frame past is not a frame.
        assert_eq!(
            pose_cache::frame_count(10.0 + 1.0 / (3.0 * rate), rate),
            10 * rate as u64 + 1
        );
    }
    // The case from InterpolationTest: float32(50/30).
    assert_eq!(pose_cache::frame_count(f64::from(1.666_666_6f32), 30.0), 51);
}

#[test]
fn step_keys_at_float32_frame_times_take_effect_at_that_frame() {
    // gltfpack writes 13/30 as 0.433333367, one float32 step above
    // float32(13/30); a key exactly at float32(k/30) or a step either side
    // changes the value at frame k, not k + 1.
    let rate = 30.0;
    for k in [1u32, 7, 13, 29, 50, 299] {
        let exact = (f64::from(k) / rate) as f32;
        for key in [
            exact,
            f32::from_bits(exact.to_bits() + 1),
            f32::from_bits(exact.to_bits() - 1),
        ] {
            let mut scene = spinning_arm();
            scene.clips[0].channels = vec![Channel {
                node: 1,
                target: Target::Translation,
                interpolation: Interpolation::Step,
                times_s: vec![0.0, key, key + 1.0],
                values: vec![0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 5.0, 0.0, 0.0],
            }];
            let cache = pose_cache::bake(
                &scene,
                &ClipRef::Index(0),
                &settings(rate, EntitySet::Joints),
            )
            .unwrap();
            let hand_x = |frame: u32| cache.poses[frame as usize * 2 + 1].position[0];
            assert_eq!(hand_x(k - 1), 0.0, "frame {} before key {key}", k - 1);
            assert_eq!(hand_x(k), 5.0, "frame {k} at key {key}");
        }
    }
}

#[test]
fn linear_keys_at_float32_frame_times_give_the_key_value_exactly() {
    let rate = 30.0;
    let k = 13u32;
    let exact = (f64::from(k) / rate) as f32;
    let key = f32::from_bits(exact.to_bits() + 1);
    let mut scene = spinning_arm();
    scene.clips[0].channels = vec![Channel {
        node: 1,
        target: Target::Translation,
        interpolation: Interpolation::Linear,
        times_s: vec![0.0, key, 1.0],
        values: vec![0.0, 0.0, 0.0, 0.123_456_7, 0.0, 0.0, 0.0, 0.0, 0.0],
    }];
    let cache = pose_cache::bake(
        &scene,
        &ClipRef::Index(0),
        &settings(rate, EntitySet::Joints),
    )
    .unwrap();
    assert_eq!(cache.poses[k as usize * 2 + 1].position[0], 0.123_456_7);
}

#[test]
fn unnamed_joints_are_named_by_skin_and_palette_index_and_survive_reordering() {
    let mut scene = spinning_arm();
    for node in &mut scene.nodes {
        node.name = None;
    }
    // An unnamed node outside the skin, and a second root.
    scene.nodes.push(Node {
        name: None,
        ..node("x", Some(1), [0.0; 3])
    });
    scene.nodes[1].children = vec![2];
    scene.nodes.push(Node {
        name: None,
        ..node("x", None, [0.0; 3])
    });
    let s = settings(2.0, EntitySet::Nodes);
    let a = pose_cache::bake(&scene, &ClipRef::Index(0), &s).unwrap();
    let names: Vec<&str> = a.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["skin0.joint0", "skin0.joint1", "child0", "root1"]);
    // A tool that renumbers nodes (and adds one in front) keeps the joints'
    // names and ids: they follow the skin, not the node index.
    let mut renumbered = scene.clone();
    renumbered.nodes.insert(0, node("added", None, [0.0; 3]));
    for n in &mut renumbered.nodes {
        n.parent = n.parent.map(|p| p + 1);
        n.children.iter_mut().for_each(|c| *c += 1);
    }
    renumbered.roots = vec![0, 1, 4];
    renumbered.skins[0].joints = vec![1, 2];
    renumbered.clips[0].channels[0].node = 1;
    let b = pose_cache::bake(
        &renumbered,
        &ClipRef::Index(0),
        &settings(2.0, EntitySet::Joints),
    )
    .unwrap();
    let joints_a = pose_cache::bake(
        &scene,
        &ClipRef::Index(0),
        &settings(2.0, EntitySet::Joints),
    )
    .unwrap();
    assert_eq!(b.entities, joints_a.entities);
    assert_eq!(b.poses, joints_a.poses);
}

#[test]
fn a_mirrored_world_transform_puts_the_reflection_on_z() {
    let mut scene = spinning_arm();
    scene.clips[0].channels.clear();
    // Mirror x at the root: the hand's world x axis is -x, y stays, and the
    // rotation kiln reports is the matrix with its z axis negated:
    // diag(-1, 1, -1), 180 degrees about y.
    if let LocalTransform::Trs(t) = &mut scene.nodes[0].local {
        t.scale = [-1.0, 1.0, 1.0];
    }
    let cache = pose_cache::bake(
        &scene,
        &ClipRef::Index(0),
        &settings(1.0, EntitySet::Joints),
    )
    .unwrap();
    let hand = cache.poses[1];
    assert_eq!(hand.position, [-1.0, 0.0, 0.0]);
    let r = hand.rotation;
    assert!(
        r[0].abs() < 1e-7
            && (r[1].abs() - 1.0).abs() < 1e-7
            && r[2].abs() < 1e-7
            && r[3].abs() < 1e-7,
        "{r:?}"
    );
    // Mirroring z itself leaves no rotation at all.
    if let LocalTransform::Trs(t) = &mut scene.nodes[0].local {
        t.scale = [1.0, 1.0, -1.0];
    }
    let cache = pose_cache::bake(
        &scene,
        &ClipRef::Index(0),
        &settings(1.0, EntitySet::Joints),
    )
    .unwrap();
    assert_eq!(cache.poses[1].rotation, [0.0, 0.0, 0.0, 1.0]);
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

/// A Draco file (`KHR_draco_mesh_compression` required) bakes: a pose cache
/// reads no meshes. Every clip equals its plain twin's, bit for bit.
#[test]
fn draco_files_bake_and_equal_their_plain_twins() {
    for model in ["Fox", "CesiumMan-blender"] {
        let plain = import(&format!("glb/{model}.glb"));
        let draco = import(&format!("glb-variants/{model}.draco.glb"));
        assert!(!plain.clips.is_empty());
        for clip in 0..plain.clips.len() {
            for entities in [EntitySet::Joints, EntitySet::Nodes] {
                let s = settings(30.0, entities);
                let a = pose_cache::bake(&plain, &ClipRef::Index(clip), &s).unwrap();
                let b = pose_cache::bake(&draco, &ClipRef::Index(clip), &s).unwrap();
                assert!(a == b, "{model} clip {clip} {entities:?}");
            }
        }
    }
}

/// Unnamed joints keep their names and ids through gltfpack, which adds a
/// root node and renumbers every node: they are named by skin and palette
/// index, not node index.
#[test]
fn unnamed_joints_keep_their_ids_through_gltfpack() {
    let original = import("glb-variants/Fox.unnamed.glb");
    let packed = import("glb-variants/Fox.unnamed.q.glb");
    assert!(original.nodes.iter().all(|n| n.name.is_none()));
    assert_ne!(
        original.nodes.len(),
        packed.nodes.len(),
        "gltfpack renumbered the nodes"
    );
    let s = settings(30.0, EntitySet::Joints);
    let (_, a) = pose_cache::select_entities(&original, &s).unwrap();
    let (_, b) = pose_cache::select_entities(&packed, &s).unwrap();
    assert_eq!(a.len(), 24);
    assert_eq!(a, b);
    assert_eq!(a[3].name, "skin0.joint3");
    // And the poses agree within gltfpack's quantization.
    let pa = pose_cache::bake(&original, &ClipRef::Name("Run".into()), &s).unwrap();
    let pb = pose_cache::bake(&packed, &ClipRef::Name("Run".into()), &s).unwrap();
    let (dp, _) = max_difference(&pa, &pb);
    assert!(dp <= 1e-3 * extent(&pa), "{dp}");
}

/// A name too long is shown by its last 60 bytes or so, cut at a character
/// boundary (never inside a UTF-8 sequence).
#[test]
fn a_name_too_long_is_shown_by_its_end_cut_at_a_character() {
    let mut scene = big_rig(2, 0, 1, 0.0);
    let name = format!("{}a", "é".repeat(600)); // 1201 bytes
    scene.nodes[1].name = Some(name.clone());
    match pose_cache::select_entities(&scene, &settings(1.0, EntitySet::Nodes)) {
        Err(pose_cache::Error::NameTooLong {
            name: shown, len, ..
        }) => {
            assert_eq!(len, 1201);
            // 1201 - 60 = 1141 is inside an "é": the cut moves on to 1142.
            assert_eq!(shown, format!("...{}a", "é".repeat(29)));
        }
        other => panic!("{other:?}"),
    }
}
