//! Compiled characters (`bake::character`, `bake::skinning`): every corpus
//! character and its meshopt and Draco twins compiles to a valid KCHR document; the
//! `.c` and `.q` twins give the same geometry; every compiled clip, skinned
//! on the CPU at several times, matches the source glTF skinned by this
//! file's own reference (its own sampler, matrices, slerp and skinning over
//! the imported accessors, all eight influences); banks bind models whose
//! node order differs, and models whose node names differ only through a
//! node map.

use kiln::bake::atlas::{self, Atlas};
use kiln::bake::character::{self as bake, ClipSettings, NodeMap, Selection, Tolerance};
use kiln::bake::skinning;
use kiln::formats::kchr;
use kiln::import::gltf;
use kiln::model::material::Meshes;
use kiln::model::{Channel, Interpolation, LocalTransform, Scene, Target};
use kiln::pipeline::sources;

#[allow(dead_code)]
use crate::gltf_support;
use gltf_support::Fixture;
use serde_json::json;

fn corpus(rel: &str) -> Vec<u8> {
    let path = format!("{}/tests/corpus/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A file compiled as a model with a bank of its own clips: what the
/// characters kind does, without the files.
struct Compiled {
    scene: Scene,
    sel: Selection,
    meshes: Meshes,
    atlas: Atlas,
    doc: kchr::Document,
    warnings: Vec<String>,
}

fn bank_of(rel: &str, settings: &ClipSettings) -> kchr::Bank {
    bank_of_named(rel, &corpus(rel), settings)
}

fn bank_of_bytes(bytes: &[u8], settings: &ClipSettings) -> kchr::Bank {
    bank_of_named("a fixture", bytes, settings)
}

/// A bank of every clip of `bytes` (`what` names them in a failure).
fn bank_of_named(what: &str, bytes: &[u8], settings: &ClipSettings) -> kchr::Bank {
    let scene = gltf::import_scene(bytes, &[]).unwrap();
    let names = bake::node_names(&scene);
    let clips = scene
        .clips
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let compiled = bake::clip(
                &scene,
                &names,
                c,
                settings,
                &[],
                kiln::formats::kchr::MAX_KEYS,
            )
            .unwrap_or_else(|e| panic!("{what} clip {i}: {e}"));
            kchr::Clip {
                name: c.name.clone().unwrap_or(format!("animation{i}")),
                ..compiled.clip
            }
        })
        .collect();
    kchr::Bank {
        id: "bank".into(),
        clips,
    }
}

fn compile_with(rel: &str, bank: kchr::Bank, map: &NodeMap) -> Result<Compiled, String> {
    compile_bytes(&corpus(rel), bank, map)
}

fn compile_bytes(bytes: &[u8], bank: kchr::Bank, map: &NodeMap) -> Result<Compiled, String> {
    let scene = gltf::import_scene(bytes, &[]).map_err(|e| e.to_string())?;
    let names = bake::node_names(&scene);
    let (sel, mut warnings) = bake::select(&scene, None).map_err(|e| e.to_string())?;
    let meshes = gltf::import_meshes(
        gltf::Source::parse(bytes).unwrap(),
        &[],
        &[],
        Some(&sel.meshes),
    )
    .map_err(|e| e.to_string())?;
    let prims = bake::primitives(&scene, &sel, &meshes);
    let atlas = atlas::material_stage(
        &meshes,
        &prims,
        &atlas::Settings::default(),
        &sources::IMAGES,
    )?;
    let (names, animated) = bake::bind(&names, &bank.id, &bake::bank_animated(&bank), map)
        .map_err(|e| e.to_string())?;
    let compiled =
        bake::model(&scene, &names, &sel, &meshes, &atlas, &animated).map_err(|e| e.to_string())?;
    warnings.extend(compiled.warnings);
    let doc = kchr::Document {
        models: vec![kchr::Model {
            id: "model".into(),
            ..compiled.model
        }],
        banks: vec![bank],
    };
    Ok(Compiled {
        scene,
        sel,
        meshes,
        atlas,
        doc,
        warnings,
    })
}

const RAW: ClipSettings = ClipSettings {
    resample_hz: 30.0,
    resample_all: false,
    tolerance: None,
};

fn compile(rel: &str) -> Compiled {
    compile_with(rel, bank_of(rel, &RAW), &NodeMap::default())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every `.glb` of the corpus (plain, meshopt twins, variants).
fn characters() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["glb", "glb-meshopt", "glb-variants"] {
        let path = format!("{}/tests/corpus/{dir}", env!("CARGO_MANIFEST_DIR"));
        for e in std::fs::read_dir(path).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.ends_with(".glb") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_character_and_twin_compiles_to_a_valid_document() {
    let all = characters();
    assert!(all.len() >= 30, "{all:?}");
    for rel in &all {
        let c = compile(rel);
        let problems = kchr::validate(&c.doc);
        assert!(problems.is_empty(), "{rel}: {problems:?}");
        let bytes = kchr::encode(&c.doc).unwrap();
        assert_eq!(kchr::decode(&bytes).unwrap(), c.doc, "{rel}");
        let m = &c.doc.models[0];
        assert!(!m.vertices.is_empty() && !m.joints.is_empty(), "{rel}");
    }
}

#[test]
fn compressed_and_quantized_twins_give_the_same_geometry() {
    // `.c` is `.q` (gltfpack's quantization) with meshopt compression: the
    // decoded attributes are the same numbers.
    for name in [
        "CesiumMan-blender",
        "Fox",
        "RiggedSimple-blender",
        "RobotExpressive",
        "SimpleSkin",
        "MorphStressTest",
    ] {
        let c = compile(&format!("glb-meshopt/{name}.c.glb"));
        let q = compile(&format!("glb-meshopt/{name}.q.glb"));
        let (mc, mq) = (&c.doc.models[0], &q.doc.models[0]);
        assert_eq!(mc.vertices.len(), mq.vertices.len(), "{name}");
        // The compressed twin orders vertices for its codec: compare the
        // triangles as a set, each by its corners' positions, normals and
        // skin (not UVs: each twin has its own atlas), winding kept.
        let triangles = |m: &kchr::Model| -> Vec<Vec<u32>> {
            let joint = |v: &[f32; 16], k: usize| m.joints[v[8 + k] as usize];
            let mut out: Vec<Vec<u32>> = m
                .indices
                .chunks_exact(3)
                .map(|t| {
                    let corner = |i: usize| -> Vec<u32> {
                        let v = &m.vertices[t[i] as usize];
                        let mut c: Vec<u32> = v[..6].iter().map(|x| x.to_bits()).collect();
                        for k in 0..4 {
                            if v[12 + k] > 0.0 {
                                c.extend([joint(v, k), v[12 + k].to_bits()]);
                            }
                        }
                        c
                    };
                    let mut cs = [corner(0), corner(1), corner(2)];
                    let first = (0..3).min_by_key(|&i| cs[i].clone()).unwrap();
                    cs.rotate_left(first);
                    cs.concat()
                })
                .collect();
            out.sort();
            out
        };
        assert!(
            triangles(mc) == triangles(mq),
            "{name}: the triangles differ"
        );
        let names = |m: &kchr::Model| m.nodes.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(mc), names(mq), "{name}");
    }
}

// ------------------------------------------------------- the reference

/// The test's own quaternion slerp (shorter arc; std's trigonometry): a
/// constant rate of turn from `a` to `b`, as glTF's LINEAR rotations ask.
/// The half-angle is taken as `atan2(|a − b|, |a + b|)`, exact however
/// close the ends (a normalized lerp near them turns at a varying rate).
fn slerp(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let b = if d < 0.0 { b.map(|x| -x) } else { b };
    let len = |v: [f64; 4]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    let th = 2.0
        * len(std::array::from_fn(|i| a[i] - b[i]))
            .atan2(len(std::array::from_fn(|i| a[i] + b[i])));
    let (wa, wb) = if th == 0.0 {
        (1.0 - t, t)
    } else {
        (((1.0 - t) * th).sin() / th.sin(), (t * th).sin() / th.sin())
    };
    norm4(std::array::from_fn(|i| wa * a[i] + wb * b[i]))
}

fn norm4(q: [f64; 4]) -> [f64; 4] {
    let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    q.map(|x| x / l)
}

/// A glTF channel at `t`, by glTF's rules, written here from the spec
/// (rotations normalized: quantized ones are unit only to 16 bits).
fn channel_at(c: &Channel, t: f64) -> Vec<f64> {
    let v = channel_raw(c, t);
    if c.target == Target::Rotation {
        norm4([v[0], v[1], v[2], v[3]]).to_vec()
    } else {
        v
    }
}

fn channel_raw(c: &Channel, t: f64) -> Vec<f64> {
    let w = c.target.width();
    let times: Vec<f64> = c.times_s.iter().map(|&x| f64::from(x)).collect();
    let cubic = c.interpolation == Interpolation::CubicSpline;
    let val = |k: usize, part: usize| -> Vec<f64> {
        let base = if cubic { (3 * k + part) * w } else { k * w };
        (0..w).map(|i| f64::from(c.values[base + i])).collect()
    };
    let n = times.len();
    let mid = usize::from(cubic);
    if t <= times[0] {
        return val(0, mid);
    }
    if t >= times[n - 1] {
        return val(n - 1, mid);
    }
    let k = times.iter().rposition(|&x| x <= t).unwrap();
    let (t0, t1) = (times[k], times[k + 1]);
    let u = (t - t0) / (t1 - t0);
    match c.interpolation {
        Interpolation::Step => val(k, 0),
        Interpolation::Linear if c.target == Target::Rotation => {
            let q = |v: Vec<f64>| norm4([v[0], v[1], v[2], v[3]]);
            slerp(q(val(k, 0)), q(val(k + 1, 0)), u).to_vec()
        }
        Interpolation::Linear => {
            let (a, b) = (val(k, 0), val(k + 1, 0));
            (0..w).map(|i| a[i] + (b[i] - a[i]) * u).collect()
        }
        Interpolation::CubicSpline => {
            let dt = t1 - t0;
            let (v0, b0, a1, v1) = (val(k, 1), val(k, 2), val(k + 1, 0), val(k + 1, 1));
            let (u2, u3) = (u * u, u * u * u);
            let out: Vec<f64> = (0..w)
                .map(|i| {
                    (2.0 * u3 - 3.0 * u2 + 1.0) * v0[i]
                        + (u3 - 2.0 * u2 + u) * dt * b0[i]
                        + (-2.0 * u3 + 3.0 * u2) * v1[i]
                        + (u3 - u2) * dt * a1[i]
                })
                .collect();
            if c.target == Target::Rotation {
                norm4([out[0], out[1], out[2], out[3]]).to_vec()
            } else {
                out
            }
        }
    }
}

type M4 = [f64; 16];

fn mul(a: &M4, b: &M4) -> M4 {
    std::array::from_fn(|i| {
        let (r, c) = (i % 4, i / 4);
        (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum()
    })
}

fn trs(t: &[f64], q: &[f64], s: &[f64]) -> M4 {
    let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
    let r = [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y + z * w),
        2.0 * (x * z - y * w),
        2.0 * (x * y - z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z + x * w),
        2.0 * (x * z + y * w),
        2.0 * (y * z - x * w),
        1.0 - 2.0 * (x * x + y * y),
    ];
    [
        r[0] * s[0],
        r[1] * s[0],
        r[2] * s[0],
        0.0,
        r[3] * s[1],
        r[4] * s[1],
        r[5] * s[1],
        0.0,
        r[6] * s[2],
        r[7] * s[2],
        r[8] * s[2],
        0.0,
        t[0],
        t[1],
        t[2],
        1.0,
    ]
}

/// Every node's world matrix of the source scene at `t` of clip `clip`.
fn source_world(scene: &Scene, clip: Option<usize>, t: f64) -> Vec<M4> {
    let n = scene.nodes.len();
    let mut local: Vec<M4> = Vec::with_capacity(n);
    for (i, node) in scene.nodes.iter().enumerate() {
        match node.local {
            LocalTransform::Matrix(m) => local.push(m.map(f64::from)),
            LocalTransform::Trs(x) => {
                let mut tr = x.translation.map(f64::from).to_vec();
                let mut ro = norm4(x.rotation.map(f64::from)).to_vec();
                let mut sc = x.scale.map(f64::from).to_vec();
                if let Some(c) = clip {
                    for ch in scene.clips[c].channels.iter().filter(|ch| ch.node == i) {
                        match ch.target {
                            Target::Translation => tr = channel_at(ch, t),
                            Target::Rotation => ro = channel_at(ch, t),
                            Target::Scale => sc = channel_at(ch, t),
                            Target::Weights { .. } => {}
                        }
                    }
                }
                local.push(trs(&tr, &ro, &sc));
            }
        }
    }
    let mut world: Vec<Option<M4>> = vec![None; n];
    fn at(i: usize, scene: &Scene, local: &[M4], world: &mut Vec<Option<M4>>) -> M4 {
        if let Some(m) = world[i] {
            return m;
        }
        let m = match scene.nodes[i].parent {
            Some(p) => mul(&at(p, scene, local, world), &local[i]),
            None => local[i],
        };
        world[i] = Some(m);
        m
    }
    (0..n).map(|i| at(i, scene, &local, &mut world)).collect()
}

fn apply(m: &M4, p: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i])
}

/// The source's skinned positions, in the compiled vertices' order: each
/// compiled vertex comes from one source vertex of one primitive (in the
/// order the model reads them: instances, primitives, the atlas's
/// vertices, or triangle corners where flat normals were made).
fn source_skinned(c: &Compiled, clip: Option<usize>, t: f64) -> Vec<[f64; 3]> {
    let world = source_world(&c.scene, clip, t);
    let mut out = Vec::new();
    let mut region = 0;
    for &k in &c.sel.instances {
        let inst = &c.scene.instances[k];
        let m = c.sel.meshes.binary_search(&inst.mesh).unwrap();
        let mesh = &c.meshes.meshes[m];
        for prim in &mesh.primitives {
            let remap = &c.atlas.primitives[region];
            region += 1;
            let sources: Vec<usize> = if prim.normals.is_some() {
                remap.vertices.iter().map(|&v| v as usize).collect()
            } else {
                remap
                    .indices
                    .iter()
                    .map(|&i| remap.vertices[i as usize] as usize)
                    .collect()
            };
            for v in sources {
                // Morph targets at the default weights.
                let weights = inst.morph_weights.as_deref().unwrap_or(&mesh.weights);
                let mut p = prim.positions[v].map(f64::from);
                for (ti, target) in prim.targets.iter().enumerate() {
                    if let Some(d) = &target.positions {
                        let w = f64::from(weights.get(ti).copied().unwrap_or(0.0));
                        for i in 0..3 {
                            p[i] += w * f64::from(d[v][i]);
                        }
                    }
                }
                let Some(skin) = inst.skin else {
                    out.push(apply(&world[inst.node], p));
                    continue;
                };
                let skin = &c.scene.skins[skin];
                // The documented rule, written here again: both sets'
                // influences summed per joint, the 4 largest kept (equal
                // weights: lower joint first), renormalised.
                let mut per_joint: Vec<(usize, f64)> = Vec::new();
                for (j, w) in [
                    (&prim.joints, &prim.weights),
                    (&prim.joints_1, &prim.weights_1),
                ] {
                    let (Some(j), Some(w)) = (j, w) else { continue };
                    for s in 0..4 {
                        let weight = f64::from(w[v][s]);
                        if weight <= 0.0 {
                            continue;
                        }
                        let joint = j[v][s] as usize;
                        match per_joint.iter_mut().find(|x| x.0 == joint) {
                            Some(x) => x.1 += weight,
                            None => per_joint.push((joint, weight)),
                        }
                    }
                }
                per_joint.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                per_joint.truncate(4);
                let total: f64 = per_joint.iter().map(|x| x.1).sum();
                let mut acc = [0.0; 3];
                for &(joint, weight) in &per_joint {
                    let m = mul(
                        &world[skin.joints[joint]],
                        &skin.inverse_bind[joint].map(f64::from),
                    );
                    let q = apply(&m, p);
                    for i in 0..3 {
                        acc[i] += weight * q[i];
                    }
                }
                out.push(acc.map(|x| x / total));
            }
        }
    }
    out
}

/// Largest distance between the compiled skinning and the reference over
/// several times of every clip, and the model's extent.
fn worst_error(c: &Compiled) -> (f64, f64) {
    let model = &c.doc.models[0];
    let bank = &c.doc.banks[0];
    let bind = source_skinned(c, None, 0.0);
    let extent = bind
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |a, &x| a.max(x.abs()));
    let mut worst = 0.0f64;
    let mut check = |compiled: Vec<[f64; 3]>, reference: Vec<[f64; 3]>| {
        assert_eq!(compiled.len(), reference.len());
        for (a, b) in compiled.iter().zip(&reference) {
            let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            worst = worst.max(d);
        }
    };
    check(skinning::pose(model, None, 0.0), bind);
    for (i, clip) in bank.clips.iter().enumerate() {
        // Times shifted to 0 in the bank: the source's first key.
        let start = c.scene.clips[i]
            .channels
            .iter()
            .map(|ch| f64::from(ch.times_s[0]))
            .fold(f64::INFINITY, f64::min);
        let d = f64::from(clip.duration_s);
        for f in [0.0, 0.13, 0.5, 0.77, 1.0] {
            // Resampled cubic tracks are exact at multiples of 1/30 s.
            let t = (d * f * 30.0).round() / 30.0;
            let t = t.min(d);
            check(
                skinning::pose(model, Some(clip), t),
                source_skinned(c, Some(i), t + start),
            );
        }
    }
    (worst, extent)
}

#[test]
fn compiled_clips_skin_like_the_source_at_every_sampled_time() {
    // Float32 storage of positions, inverse binds and keys is the only
    // difference: within 2e-7 of the model's extent (measured: at most
    // 1e-7).
    for rel in [
        "glb/CesiumMan-blender.glb",
        "glb/Fox.glb",
        "glb/RiggedSimple-blender.glb",
        "glb/SimpleSkin.glb",
        "glb/RobotExpressive.glb",
        "glb/MorphStressTest.glb",
        "glb-meshopt/Fox.cc.glb",
        "glb-meshopt/CesiumMan-blender.c.glb",
        "glb-meshopt/RobotExpressive.cc.glb",
        "glb-variants/Fox.draco.glb",
        "glb-variants/RobotExpressive.draco-valence.glb",
    ] {
        let c = compile(rel);
        let (worst, extent) = worst_error(&c);
        eprintln!("{rel}: worst {worst:.3e} of extent {extent:.3}");
        assert!(
            worst <= 2e-7 * extent.max(1.0),
            "{rel}: {worst} of {extent}"
        );
    }
}

#[test]
fn key_reduction_keeps_every_joint_within_the_tolerance() {
    // The promise: every joint's world position, at any time, within
    // `position_m` of where the unreduced clip puts it (sampled every
    // 1/120 s, between keys too).
    let tol = Tolerance {
        position_m: 0.001,
        rotation_deg: 0.5,
        scale: 0.001,
    };
    let settings = ClipSettings {
        tolerance: Some(tol),
        ..RAW
    };
    for rel in [
        "glb/CesiumMan-blender.glb",
        "glb/Fox.glb",
        "glb/RobotExpressive.glb",
    ] {
        let raw = bank_of(rel, &RAW);
        let reduced = bank_of(rel, &settings);
        let keys = |b: &kchr::Bank| -> usize {
            b.clips
                .iter()
                .flat_map(|c| &c.tracks)
                .map(|t| t.keys())
                .sum()
        };
        let model = compile(rel).doc.models.remove(0);
        let mut worst = 0.0f64;
        for (a, b) in raw.clips.iter().zip(&reduced.clips) {
            assert_eq!(a.duration_s, b.duration_s);
            let frames = (f64::from(a.duration_s) * 120.0).ceil() as usize;
            for f in 0..=frames {
                let t = (f as f64 / 120.0).min(f64::from(a.duration_s));
                let wa =
                    skinning::world_matrices(&model, &skinning::local_poses(&model, Some(a), t));
                let wb =
                    skinning::world_matrices(&model, &skinning::local_poses(&model, Some(b), t));
                for (x, y) in wa.iter().zip(&wb) {
                    let d = (12..15).map(|i| (x[i] - y[i]).powi(2)).sum::<f64>().sqrt();
                    worst = worst.max(d);
                }
            }
        }
        eprintln!(
            "{rel}: keys {} -> {}, worst joint error {worst:.3e}",
            keys(&raw),
            keys(&reduced)
        );
        assert!(keys(&reduced) < keys(&raw), "{rel}: nothing reduced");
        assert!(worst <= tol.position_m, "{rel}: a joint moved {worst}");
    }
}

/// A file's clips compiled with `settings`, each measured where the skin
/// is (what the characters kind does for a bank of one model), with each
/// clip's reported bound; or the first refusal.
fn bank_within(rel: &str, settings: &ClipSettings) -> Result<(kchr::Bank, Vec<f64>), String> {
    let own = compile(rel);
    let radius = bake::skin_radius(&own.doc.models[0]);
    let scene = gltf::import_scene(&corpus(rel), &[]).unwrap();
    let names = bake::node_names(&scene);
    let per_node: Vec<f64> = names
        .iter()
        .map(|n| radius.get(n).copied().unwrap_or(0.0))
        .collect();
    let mut clips = Vec::new();
    let mut worst = Vec::new();
    for (i, c) in scene.clips.iter().enumerate() {
        let compiled = bake::clip(&scene, &names, c, settings, &per_node, kchr::MAX_KEYS)
            .map_err(|e| e.to_string())?;
        worst.push(compiled.worst_m);
        clips.push(kchr::Clip {
            name: c.name.clone().unwrap_or(format!("animation{i}")),
            ..compiled.clip
        });
    }
    let bank = kchr::Bank {
        id: "bank".into(),
        clips,
    };
    Ok((bank, worst))
}

/// The farthest any compiled vertex is from the source's skin over clip
/// `i`: at 240 Hz, at every source key time and between neighbouring keys.
fn skin_error(c: &Compiled, i: usize) -> f64 {
    let clip = &c.doc.banks[0].clips[i];
    let source = &c.scene.clips[i];
    let start = source
        .channels
        .iter()
        .map(|ch| f64::from(ch.times_s[0]))
        .fold(f64::INFINITY, f64::min);
    let d = f64::from(clip.duration_s);
    let mut times: Vec<f64> = (0..=(d * 240.0).ceil() as usize)
        .map(|f| (f as f64 / 240.0).min(d))
        .collect();
    for ch in &source.channels {
        for w in ch.times_s.windows(2) {
            let (a, b) = (f64::from(w[0]) - start, f64::from(w[1]) - start);
            times.extend([a, (a + b) / 2.0, b]);
        }
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    let model = &c.doc.models[0];
    let mut worst = 0.0f64;
    for t in times {
        let compiled = skinning::pose(model, Some(clip), t);
        let reference = source_skinned(c, Some(i), t + start);
        for (a, b) in compiled.iter().zip(&reference) {
            let e = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            worst = worst.max(e);
        }
    }
    worst
}

/// Each clip's measured skin error against its reported bound and the
/// tolerance; returns the worst measured.
fn assert_within(rel: &str, bank: kchr::Bank, reported: &[f64], position_m: f64) -> f64 {
    let c = compile_with(rel, bank, &NodeMap::default()).unwrap();
    let extent = source_skinned(&c, None, 0.0)
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |a, &x| a.max(x.abs()));
    // Float32 storage of positions, inverse binds and keys: within 2e-7 of
    // the model's extent (see compiled_clips_skin_like_the_source_...).
    let slack = 2e-7 * extent.max(1.0);
    let mut all = 0.0f64;
    for (i, &bound) in reported.iter().enumerate() {
        let measured = skin_error(&c, i);
        let name = &c.doc.banks[0].clips[i].name;
        eprintln!(
            "{rel} {name}: measured {measured:.3e}, reported {bound:.3e}, tolerance {position_m}"
        );
        assert!(
            bound <= position_m,
            "{rel} {name}: reported {bound} > {position_m}"
        );
        assert!(
            measured <= bound + slack,
            "{rel} {name}: the skin moved {measured}, more than the reported {bound}"
        );
        all = all.max(measured);
    }
    all
}

#[test]
fn the_tolerance_bounds_how_far_the_skin_moves() {
    // The promise of `tolerance`: no vertex of the skin moves farther than
    // `position_m` from where the source clip puts it, resampling and key
    // reduction both counted; the reported bound is never below what a
    // dense sampling measures.
    let readme = Tolerance {
        position_m: 0.0001,
        rotation_deg: 0.01,
        scale: 0.0001,
    };
    let mm = Tolerance {
        position_m: 0.001,
        rotation_deg: 0.1,
        scale: 0.001,
    };
    let cases = [
        ("glb/Fox.glb", RAW.resample_hz, false, readme),
        ("glb/CesiumMan-blender.glb", RAW.resample_hz, false, mm),
        ("glb/RobotExpressive.glb", 120.0, true, mm),
    ];
    for (rel, hz, all, tol) in cases {
        let settings = ClipSettings {
            resample_hz: hz,
            resample_all: all,
            tolerance: Some(tol),
        };
        let (bank, reported) = bank_within(rel, &settings).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let raw = bank_of(
            rel,
            &ClipSettings {
                tolerance: None,
                ..settings
            },
        );
        let keys = |b: &kchr::Bank| -> usize {
            b.clips
                .iter()
                .flat_map(|c| &c.tracks)
                .map(|t| t.keys())
                .sum()
        };
        assert!(keys(&bank) < keys(&raw), "{rel}: nothing reduced");
        assert_within(rel, bank, &reported, tol.position_m);
    }
    // RobotExpressive's 24 fps keys on a 30 Hz grid move the skin by
    // centimetres: refused, naming what meets the tolerance, which does.
    let rel = "glb/RobotExpressive.glb";
    let at30 = ClipSettings {
        resample_hz: 30.0,
        resample_all: true,
        tolerance: Some(mm),
    };
    let error = bank_within(rel, &at30).unwrap_err();
    assert!(
        error.contains("more than the tolerance's position_m"),
        "{error}"
    );
    let named = remedies(&error, &at30);
    assert!(!named.is_empty(), "{error}");
    for settings in named {
        let (bank, reported) = bank_within(rel, &settings).unwrap_or_else(|e| panic!("{e}"));
        assert_within(rel, bank, &reported, mm.position_m);
    }
    // And the refusal is not idle: at 30 Hz, without a tolerance, the skin
    // really is farther than 1 mm from the source.
    let raw = bank_of(
        rel,
        &ClipSettings {
            tolerance: None,
            ..at30
        },
    );
    let c = compile_with(rel, raw, &NodeMap::default()).unwrap();
    let worst = (0..c.doc.banks[0].clips.len())
        .map(|i| skin_error(&c, i))
        .fold(0.0f64, f64::max);
    assert!(worst > mm.position_m, "{worst}");
}

#[test]
fn a_bank_from_fox_binds_the_fox_whose_nodes_gltfpack_reordered() {
    let bank = bank_of("glb/Fox.glb", &RAW);
    let c = compile_with("glb-meshopt/Fox.cc.glb", bank.clone(), &NodeMap::default()).unwrap();
    assert!(kchr::validate(&c.doc).is_empty());
    // Same names, other indices: the bank's tracks find them by name.
    let own = compile("glb/Fox.glb");
    let names = |d: &kchr::Document| -> Vec<String> {
        let mut n: Vec<String> = d.models[0].nodes.iter().map(|n| n.name.clone()).collect();
        n.sort();
        n
    };
    let order = |d: &kchr::Document| -> Vec<String> {
        d.models[0].nodes.iter().map(|n| n.name.clone()).collect()
    };
    assert_ne!(order(&c.doc), order(&own.doc), "gltfpack reorders nodes");
    assert!(names(&own.doc).iter().all(|n| names(&c.doc).contains(n)));
    // Posed by the same clips, every node of the two foxes is in the same
    // place: the tracks found their nodes by name.
    let world = |d: &kchr::Document, clip: usize, t: f64| -> Vec<(String, [f64; 3])> {
        let m = &d.models[0];
        let local = skinning::local_poses(m, Some(&bank.clips[clip]), t);
        let w = skinning::world_matrices(m, &local);
        let mut out: Vec<(String, [f64; 3])> = m
            .nodes
            .iter()
            .zip(&w)
            .map(|(n, w)| (n.name.clone(), [w[12], w[13], w[14]]))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    let mut worst = 0.0f64;
    for clip in 0..bank.clips.len() {
        for t in [0.0, 0.3, 0.71] {
            let (a, b) = (world(&own.doc, clip, t), world(&c.doc, clip, t));
            for (x, y) in a
                .iter()
                .filter_map(|x| b.iter().find(|y| y.0 == x.0).map(|y| (x, y)))
            {
                let d = (0..3)
                    .map(|i| (x.1[i] - y.1[i]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                worst = worst.max(d);
            }
        }
    }
    assert!(worst < 1e-3, "nodes differ by {worst}");
}

#[test]
fn renamed_rigs_bind_only_through_a_node_map() {
    let bank = bank_of("glb/RobotExpressive.glb", &RAW);
    let three = "glb/RobotExpressive-threeexporter.glb";
    let e = compile_with(three, bank.clone(), &NodeMap::default())
        .err()
        .unwrap();
    assert!(
        e.contains(
            "the model lacks 22 of the 25 nodes its bank \"bank\" animates: \"Foot.L\", \"Foot.R\""
        ),
        "{e}"
    );
    let map = NodeMap {
        ignore: ".".into(),
        ..NodeMap::default()
    };
    let c = compile_with(three, bank.clone(), &map).unwrap_or_else(|e| panic!("{e}"));
    assert!(kchr::validate(&c.doc).is_empty());
    // Explicit pairs work too, and a pair naming a node the file lacks is
    // refused.
    let bad = NodeMap {
        pairs: [("Nope".to_string(), "Foot.L".to_string())].into(),
        ..NodeMap::default()
    };
    let e = compile_with(three, bank, &bad).err().unwrap();
    assert!(e.contains("node_map pairs name node \"Nope\""), "{e}");
}

#[test]
fn node_names_are_unique_non_empty_and_short() {
    let c = compile("glb-variants/Fox.unnamed.glb");
    for n in &c.doc.models[0].nodes {
        assert!(!n.name.is_empty() && n.name.len() <= kchr::MAX_NAME);
    }
    let robot = gltf::import_scene(&corpus("glb/RobotExpressive.glb"), &[]).unwrap();
    let names = bake::node_names(&robot);
    assert_eq!(names[3], "Foot.L");
    assert_eq!(names[4], "Foot.L~2");
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
}

#[test]
fn what_the_compiler_changed_is_said() {
    let morph = compile("glb/MorphStressTest.glb");
    assert!(
        morph
            .warnings
            .iter()
            .any(|w| w.contains("morph targets baked at the default weights")),
        "{:?}",
        morph.warnings
    );
    // RobotExpressive's exporter wrote weights that do not sum to 1:
    // renormalised, and counted.
    let q = compile("glb/RobotExpressive.glb");
    assert!(
        q.warnings
            .iter()
            .any(|w| w == "752 vertices' weights did not sum to 1: renormalised"),
        "{:?}",
        q.warnings
    );
    for v in &q.doc.models[0].vertices {
        let sum: f64 = v[12..16].iter().map(|&w| f64::from(w)).sum();
        assert!((sum - 1.0).abs() <= 1e-6, "{sum}");
    }
}

/// A chain of six joints skinning a strip without normals: eight
/// influences a vertex over JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1 (six
/// distinct joints, some repeated across the sets), and one animation with
/// a CUBICSPLINE rotation (tangents not zero), a LINEAR translation and a
/// STEP scale.
fn rig_fixture() -> Vec<u8> {
    let mut f = Fixture::new();
    let rows = 6usize;
    let mut pos = Vec::new();
    let (mut j0, mut w0, mut j1, mut w1) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..rows {
        for x in [-0.5f32, 0.5] {
            pos.extend([x, i as f32, 0.0]);
            let (up, down) = ((i + 1).min(rows - 1) as u16, i.saturating_sub(1) as u16);
            j0.extend([i as u16, up, down, 0]);
            w0.extend([0.45f32, 0.2, 0.1, 0.0]);
            j1.extend([i as u16, 3, 4, 5]);
            w1.extend([0.1f32, 0.08, 0.04, 0.03]);
        }
    }
    let p = f.floats(&pos, "VEC3", 3);
    let u16s = |v: &[u16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let ja = f.accessor(&u16s(&j0), 5123, "VEC4", 2 * rows, false);
    let wa = f.floats(&w0, "VEC4", 4);
    let jb = f.accessor(&u16s(&j1), 5123, "VEC4", 2 * rows, false);
    let wb = f.floats(&w1, "VEC4", 4);
    let mut idx = Vec::new();
    for i in 0..rows - 1 {
        let a = (2 * i) as u16;
        idx.extend([a, a + 1, a + 3, a, a + 3, a + 2]);
    }
    let ia = f.accessor(&u16s(&idx), 5123, "SCALAR", idx.len(), false);
    f.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": ja, "WEIGHTS_0": wa,
            "JOINTS_1": jb, "WEIGHTS_1": wb}, "indices": ia}]}),
    );
    // Node 0 draws the mesh; nodes 1..=6 are the chain.
    f.push("nodes", json!({"name": "body", "mesh": 0, "skin": 0}));
    for i in 0..rows {
        let y = if i == 0 { 0.0 } else { 1.0 };
        let mut n = json!({"name": format!("j{i}"), "translation": [0.0, y, 0.0]});
        if i + 1 < rows {
            n["children"] = json!([i + 2]);
        }
        f.push("nodes", n);
    }
    let mut ibm = Vec::new();
    for i in 0..rows {
        ibm.extend([
            1.0f32,
            0.,
            0.,
            0.,
            0.,
            1.,
            0.,
            0.,
            0.,
            0.,
            1.,
            0.,
            0.,
            -(i as f32),
            0.,
            1.,
        ]);
    }
    let ib = f.floats(&ibm, "MAT4", 16);
    f.json["skins"] =
        json!([{"joints": (1..=rows).collect::<Vec<_>>(), "inverseBindMatrices": ib}]);
    f.json["scenes"] = json!([{"nodes": [0, 1]}]);
    f.json["scene"] = json!(0);
    // CUBICSPLINE rotation of j1 about z: (in, value, out) per key.
    let q = |deg: f32| {
        let h = deg.to_radians() / 2.0;
        [0.0, 0.0, h.sin(), h.cos()]
    };
    let t3 = f.floats(&[0.0, 0.5, 1.0], "SCALAR", 1);
    let mut cubic = Vec::new();
    for (k, deg) in [0.0f32, 40.0, -20.0].iter().enumerate() {
        let tangent = [0.0, 0.0, 0.2 * (k as f32 - 1.0), 0.0];
        cubic.extend(tangent);
        cubic.extend(q(*deg));
        cubic.extend(tangent.map(|x| -x));
    }
    let rot = f.floats(&cubic, "VEC4", 4);
    let lin = f.floats(&[0.0, 0.0, 0.0, 0.3, 0.0, 0.0, 0.0, 0.2, 0.0], "VEC3", 3);
    let t2 = f.floats(&[0.0, 0.6], "SCALAR", 1);
    let step = f.floats(&[1.0, 1.0, 1.0, 1.2, 0.9, 1.0], "VEC3", 3);
    f.push(
        "animations",
        json!({"name": "wave",
            "samplers": [
                {"input": t3, "output": rot, "interpolation": "CUBICSPLINE"},
                {"input": t3, "output": lin, "interpolation": "LINEAR"},
                {"input": t2, "output": step, "interpolation": "STEP"}],
            "channels": [
                {"sampler": 0, "target": {"node": 2, "path": "rotation"}},
                {"sampler": 1, "target": {"node": 1, "path": "translation"}},
                {"sampler": 2, "target": {"node": 4, "path": "scale"}}]}),
    );
    f.glb()
}

#[test]
fn eight_influences_cubic_splines_and_flat_normals_compile_and_skin_like_the_source() {
    let bytes = rig_fixture();
    let bank = bank_of_bytes(&bytes, &RAW);
    let clip = &bank.clips[0];
    // CUBICSPLINE resampled at 30 Hz: 31 keys over 1 s; LINEAR and STEP
    // keep theirs.
    let keys: Vec<(String, usize, bool)> = clip
        .tracks
        .iter()
        .map(|t| (t.node.clone(), t.keys(), t.step))
        .collect();
    assert_eq!(
        keys,
        [
            ("j0".to_string(), 3, false),
            ("j1".to_string(), 31, false),
            ("j3".to_string(), 2, true)
        ]
    );
    let c = compile_bytes(&bytes, bank, &NodeMap::default()).unwrap();
    let m = &c.doc.models[0];
    assert!(kchr::validate(&c.doc).is_empty());
    // Flat normals: one vertex per triangle corner, each on its face.
    assert_eq!(m.vertices.len(), m.indices.len());
    assert!(m.vertices.iter().all(|v| v[3..6] == [0.0, 0.0, 1.0]));
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("vertices had more than 4 influences")),
        "{:?}",
        c.warnings
    );
    let (worst, extent) = worst_error(&c);
    assert!(worst <= 2e-7 * extent.max(1.0), "{worst} of {extent}");
    // Between the resampled keys the cubic is approximated by lines: close,
    // not exact (measured 0.0113 at 0.51 s on this 5-unit rig, whose
    // tangents bend hard; 30 Hz keys).
    let reference = source_skinned(&c, Some(0), 0.51);
    let compiled = skinning::pose(m, Some(&c.doc.banks[0].clips[0]), 0.51);
    let err = compiled
        .iter()
        .zip(&reference)
        .map(|(a, b)| (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    assert!(err > 0.0 && err < 2e-2, "{err}");
}

#[test]
fn morph_targets_are_baked_at_the_default_weights() {
    // MorphStressTest with default weights that are not zero: the compiled
    // bind pose is the morphed mesh (the reference applies the targets
    // itself).
    let bytes = gltf_support::patched("glb/MorphStressTest.glb", |j| {
        j["meshes"][0]["weights"] = json!([0.5, 0.25, 0.0, 0.0, 1.0, 0.0, 0.0, 0.75]);
    });
    let c = compile_bytes(
        &bytes,
        kchr::Bank {
            id: "b".into(),
            clips: vec![],
        },
        &NodeMap::default(),
    )
    .unwrap();
    let (worst, extent) = worst_error(&c);
    assert!(worst <= 2e-7 * extent.max(1.0), "{worst}");
    let plain = compile("glb/MorphStressTest.glb");
    let moved = c.doc.models[0]
        .vertices
        .iter()
        .zip(&plain.doc.models[0].vertices)
        .filter(|(a, b)| a[..3] != b[..3])
        .count();
    assert!(moved > 100, "the targets moved {moved} vertices");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("[0.5, 0.25, 0.0, 0.0, 1.0, 0.0, 0.0, 0.75]"))
    );
}

/// A rigid grid mesh of exactly `n` vertices (with normals, so none is
/// split), in rows of 256.
fn grid_fixture(n: usize) -> Vec<u8> {
    let mut f = Fixture::new();
    let (mut pos, mut nrm) = (Vec::with_capacity(3 * n), Vec::with_capacity(3 * n));
    for k in 0..n {
        pos.extend([(k % 256) as f32, (k / 256) as f32, 0.0]);
        nrm.extend([0.0f32, 0.0, 1.0]);
    }
    let p = f.floats(&pos, "VEC3", 3);
    let q = f.floats(&nrm, "VEC3", 3);
    let mut idx: Vec<u32> = Vec::new();
    for k in 0..n.saturating_sub(257) {
        if k % 256 != 255 {
            let k = k as u32;
            idx.extend([k, k + 1, k + 257]);
        }
    }
    let bytes: Vec<u8> = idx.iter().flat_map(|i| i.to_le_bytes()).collect();
    let ia = f.accessor(&bytes, 5125, "SCALAR", idx.len(), false);
    f.push(
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": p, "NORMAL": q}, "indices": ia}]}),
    );
    f.push("nodes", json!({"name": "grid", "mesh": 0}));
    f.glb()
}

#[test]
fn a_model_holds_exactly_65536_vertices_and_no_more() {
    let empty = || kchr::Bank {
        id: "b".into(),
        clips: vec![],
    };
    let c = compile_bytes(
        &grid_fixture(kchr::MAX_VERTICES),
        empty(),
        &NodeMap::default(),
    )
    .unwrap();
    let m = &c.doc.models[0];
    assert_eq!(m.vertices.len(), 65_536);
    assert!(m.indices.contains(&u16::MAX), "the last vertex is reached");
    assert!(kchr::validate(&c.doc).is_empty());
    let e = compile_bytes(
        &grid_fixture(kchr::MAX_VERTICES + 1),
        empty(),
        &NodeMap::default(),
    )
    .err()
    .unwrap();
    assert!(
        e.starts_with(
            "the merged mesh has 65537 vertices, more than the 65536 a compiled model holds"
        ),
        "{e}"
    );
}

/// A CGeo sequence baked from a character (`bake::cgeo_sequence`) is the
/// source skinned by this file's reference at every frame: the primitives'
/// own UVs (no atlas), so the vertices are the source's in primitive
/// order.
#[test]
fn cgeo_sequences_skin_like_the_source_at_every_frame() {
    use kiln::bake::cgeo_sequence::{self as seq, Settings, UpAxis};
    use kiln::bake::pose_cache::ClipRef;
    for rel in [
        "glb/Fox.glb",
        "glb/CesiumMan-blender.glb",
        "glb/RobotExpressive.glb",
        "glb-variants/Fox.draco.glb",
    ] {
        let bytes = corpus(rel);
        let scene = gltf::import_scene(&bytes, &[]).unwrap();
        let (sel, _) = seq::select(&scene).unwrap();
        let meshes = gltf::import_meshes(
            gltf::Source::parse(&bytes).unwrap(),
            &[],
            &[],
            Some(&sel.meshes),
        )
        .unwrap();
        let settings = Settings {
            rate_hz: 30.0,
            compressed: false,
            up_axis: UpAxis::Y,
        };
        let prepared = seq::prepare(&scene, &sel, &meshes, &ClipRef::Index(0), "x", &settings)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        // The reference reads the vertices through an atlas's remap: the
        // identity one, primitive by primitive.
        let prims = bake::primitives(&scene, &sel, &meshes);
        let identity = Atlas {
            image: kiln::model::material::Rgba8 {
                width: 1,
                height: 1,
                pixels: vec![0; 4],
            },
            regions: vec![],
            primitives: prims
                .iter()
                .map(|p| atlas::Remapped {
                    vertices: (0..p.positions.len() as u32).collect(),
                    uv: vec![[0.0; 2]; p.positions.len()],
                    indices: p.indices.clone(),
                    region: 0,
                })
                .collect(),
            fit_scale: 1.0,
            warnings: vec![],
        };
        let c = Compiled {
            scene,
            sel,
            meshes,
            atlas: identity,
            doc: kchr::Document {
                models: vec![],
                banks: vec![],
            },
            warnings: vec![],
        };
        let start = c.scene.clips[0]
            .channels
            .iter()
            .map(|ch| f64::from(ch.times_s[0]))
            .fold(f64::INFINITY, f64::min);
        let mut worst = 0.0f64;
        let mut extent = 0.0f64;
        for k in 0..prepared.frames() {
            let s = prepared.snapshot(k);
            assert_eq!(s.complete, k == 0);
            let reference = source_skinned(&c, Some(0), k as f64 / 30.0 + start);
            assert_eq!(s.mesh.vertices.len(), reference.len(), "{rel}");
            for (a, b) in s.mesh.vertices.iter().zip(&reference) {
                let d: f64 = (0..3)
                    .map(|i| (f64::from(a[i]) - b[i]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                worst = worst.max(d);
                extent = extent.max(b.iter().fold(0.0f64, |m, x| m.max(x.abs())));
            }
            let bb = s.bounding_box.unwrap();
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
                assert_eq!([bb[i], bb[i + 3]], [lo, hi], "{rel} frame {k}: bounds");
            }
        }
        eprintln!(
            "{rel}: {} frames, worst {worst:.3e} of extent {extent:.3}",
            prepared.frames()
        );
        // Float32 positions and keys: within 4e-7 of the extent.
        assert!(
            worst <= 4e-7 * extent.max(1.0),
            "{rel}: {worst} of {extent}"
        );
    }
}

/// Clips that real exporters' rates reach: one node per clip, a
/// CUBICSPLINE translation from 0 to each end time (the f32 of `k / 10`
/// and `k / 30` and `k / 24` that rounds up or down), for the rate sweep.
fn cubic_ends_fixture() -> Vec<u8> {
    let mut f = Fixture::new();
    let mut ends: Vec<f32> = vec![0.1, 1.1, 2.2, 1.0, 0.5, 3.3, 55.0 / 30.0, 7.0 / 24.0];
    ends.extend((1..=40).map(|k| k as f32 / 30.0));
    ends.extend((1..=30).map(|k| k as f32 / 24.0));
    for (i, &end) in ends.iter().enumerate() {
        let node = f.push("nodes", json!({"name": format!("n{i}")}));
        let input = f.floats(&[0.0, end * 0.4, end], "SCALAR", 1);
        // (in-tangent, value, out-tangent) per key.
        let output = f.floats(
            &[
                0., 0., 0., 0., 0., 0., 1., 0., 0., //
                0., 0., 0., 1., 2., 0., 0., 1., 0., //
                0., 0., 0., 3., 1., 0.5, 0., 0., 0.,
            ],
            "VEC3",
            3,
        );
        f.channel(
            &format!("ends at {end}"),
            node,
            "translation",
            "CUBICSPLINE",
            input,
            output,
        );
    }
    f.glb()
}

/// Every rate from 1 to 240 Hz compiles every corpus clip (and the clips
/// of [`cubic_ends_fixture`]), resampling CUBICSPLINE tracks only and
/// every track, with and without a tolerance. A resampled track's keys are
/// the grid times `k / rate` that fall before its last key in float32
/// seconds from the clip's start, then the last key: 24 and 30 Hz once
/// gave a grid time and a last key that were one float32.
#[test]
fn every_rate_from_1_to_240_hz_compiles_every_clip() {
    let tol = Tolerance {
        position_m: 0.001,
        rotation_deg: 0.5,
        scale: 0.001,
    };
    let mut files: Vec<(String, Vec<u8>)> = [
        "glb/CesiumMan-blender.glb",
        "glb/Fox.glb",
        "glb/MorphStressTest.glb",
        "glb/RiggedSimple-blender.glb",
        "glb/RobotExpressive.glb",
        "glb/SimpleSkin.glb",
    ]
    .iter()
    .map(|rel| (rel.to_string(), corpus(rel)))
    .collect();
    files.push(("the cubic ends fixture".into(), cubic_ends_fixture()));
    let mut compiled = 0usize;
    let mut refused = 0usize;
    let mut within = 0usize;
    let mut checked = std::collections::BTreeSet::new();
    let mut resampled_tracks = 0usize;
    for (what, bytes) in &files {
        let scene = gltf::import_scene(bytes, &[]).unwrap();
        let names = bake::node_names(&scene);
        for rate in 1..=240u32 {
            for resample_all in [false, true] {
                for tolerance in [None, Some(tol)] {
                    let settings = ClipSettings {
                        resample_hz: f64::from(rate),
                        resample_all,
                        tolerance,
                    };
                    for (i, clip) in scene.clips.iter().enumerate() {
                        let when = format!(
                            "{what} clip {i} at {rate} Hz (resample all {resample_all}, tolerance {})",
                            tolerance.is_some()
                        );
                        let c = match bake::clip(&scene, &names, clip, &settings, &[], usize::MAX) {
                            Ok(c) => c,
                            // A tolerance the rate cannot meet is an error
                            // that names what does: that setting compiles
                            // within the tolerance.
                            Err(e) if tolerance.is_some() => {
                                let e = e.to_string();
                                if e.ends_with("no rate up to 1000 Hz meets it: raise position_m") {
                                    // The claim holds at the highest rate.
                                    let top = ClipSettings {
                                        resample_hz: 1000.0,
                                        ..settings
                                    };
                                    let r = bake::clip(&scene, &names, clip, &top, &[], usize::MAX);
                                    assert!(r.is_err(), "{when}: {e}");
                                    refused += 1;
                                    continue;
                                }
                                let remedies = remedies(&e, &settings);
                                assert!(!remedies.is_empty(), "{when}: {e}");
                                for remedy in remedies {
                                    // Many rates name one remedy: each is
                                    // compiled once per clip.
                                    let key = (
                                        what.clone(),
                                        i,
                                        remedy.resample_hz.to_bits(),
                                        remedy.resample_all,
                                    );
                                    if !checked.insert(key) {
                                        continue;
                                    }
                                    let c =
                                        bake::clip(&scene, &names, clip, &remedy, &[], usize::MAX)
                                            .unwrap_or_else(|e| {
                                                panic!("{when}, remedy {remedy:?}: {e}")
                                            });
                                    assert!(c.worst_m <= tol.position_m, "{when}: {}", c.worst_m);
                                }
                                refused += 1;
                                continue;
                            }
                            Err(e) => panic!("{when}: {e}"),
                        };
                        compiled += 1;
                        if let Some(tol) = tolerance {
                            assert!(c.worst_m <= tol.position_m, "{when}: {}", c.worst_m);
                            within += 1;
                            continue;
                        }
                        let start = clip
                            .channels
                            .iter()
                            .map(|ch| f64::from(ch.times_s[0]))
                            .fold(f64::INFINITY, f64::min);
                        for ch in &clip.channels {
                            let cubic = ch.interpolation == Interpolation::CubicSpline;
                            if matches!(ch.target, Target::Weights { .. })
                                || !(cubic
                                    || (resample_all && ch.interpolation == Interpolation::Linear))
                            {
                                continue;
                            }
                            let path = match ch.target {
                                Target::Translation => kchr::Path::Translation,
                                Target::Rotation => kchr::Path::Rotation,
                                _ => kchr::Path::Scale,
                            };
                            let track = c
                                .clip
                                .tracks
                                .iter()
                                .find(|t| t.node == names[ch.node] && t.path == path)
                                .unwrap();
                            let first = f64::from(ch.times_s[0]);
                            let last_out = (f64::from(*ch.times_s.last().unwrap()) - start) as f32;
                            let want: Vec<f32> = (0..)
                                .map(|k| (first + f64::from(k) / f64::from(rate) - start) as f32)
                                .take_while(|&t| t < last_out)
                                .chain([last_out])
                                .collect();
                            assert_eq!(
                                track.times_s,
                                want,
                                "{when}: {} {}",
                                track.node,
                                path.name()
                            );
                            resampled_tracks += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{compiled} clips compiled ({within} within the tolerance), {refused} refused for a \
         tolerance their rate cannot meet (each remedy checked), {resampled_tracks} resampled \
         tracks checked key by key"
    );
    assert!(resampled_tracks > 10_000, "{resampled_tracks}");
    assert!(refused > 1000 && within > 1000, "{within} {refused}");
}

/// The settings a "cannot meet its tolerance" error names: `resample:
/// cubic`, `resample_hz: R`, or both.
fn remedies(error: &str, settings: &ClipSettings) -> Vec<ClipSettings> {
    let mut found = Vec::new();
    if error.contains("`resample: cubic` (LINEAR keys kept as they are) meets it") {
        found.push(ClipSettings {
            resample_all: false,
            ..*settings
        });
    }
    let rate = error
        .split("`resample_hz: ")
        .nth(1)
        .and_then(|r| r.split('`').next());
    if let Some(rate) = rate {
        found.push(ClipSettings {
            resample_hz: rate.parse().expect("a rate"),
            ..*settings
        });
    }
    found
}

#[test]
fn a_skinned_model_without_animation_compiles_with_an_empty_bank() {
    // The WebXR hand's case: a skinned model posed at runtime (hand
    // tracking) has no animation. Seed 003 sets no least number of clips
    // per bank, so its bank may hold none (`clips: []`, or no `clips`).
    use crate::cli_support::{Project, stderr};
    let p = Project::empty();
    let still = gltf_support::patched("glb/CesiumMan-blender.glb", |j| {
        j.as_object_mut().unwrap().remove("animations");
    });
    assert!(gltf::import_scene(&still, &[]).unwrap().clips.is_empty());
    p.write_bytes("sources/hand.glb", &still);
    let level = |bank: &str| {
        format!(
            "characters:\n  - level: hands\n    banks:\n      - id: tracked\n{bank}    models:\n      - id: hand\n        source: sources/hand.glb\n        bank: tracked\n"
        )
    };
    for bank in ["        clips: []\n", ""] {
        p.write("manifests/hands.yaml", &level(bank));
        let out = p.kiln(&["build"]);
        assert!(out.status.success(), "{bank:?}: {}", stderr(&out));
        let bytes = std::fs::read(p.path("out/levels/hands/@world/characters")).unwrap();
        let doc = kchr::decode(&bytes).unwrap();
        assert_eq!(doc.banks.len(), 1);
        assert!(doc.banks[0].clips.is_empty());
        assert_eq!(doc.models[0].bank, 0);
        assert!(!doc.models[0].vertices.is_empty() && !doc.models[0].joints.is_empty());
        assert!(
            p.kiln(&["verify", "out/levels/hands/@world/characters"])
                .status
                .success()
        );
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(p.path("out/levels/hands/level.json")).unwrap())
                .unwrap();
        assert_eq!(
            index["characters"]["banks"][0]["clips"],
            json!([]),
            "{index}"
        );
    }
    // Naming the still file as a clip source is a mistake, said with its
    // line and what to write instead; so is taking none of a file's
    // animations.
    p.write(
        "manifests/hands.yaml",
        &level("        clips:\n          - source: sources/hand.glb\n"),
    );
    let e = p.fails(&["build"]);
    assert!(
        e.contains("hands.yaml:6:21")
            && e.contains("sources/hand.glb has no animation; leave the source out of `clips`")
            && e.contains("`clips: []`"),
        "{e}"
    );
    p.write_bytes("sources/fox.glb", &corpus("glb/Fox.glb"));
    p.write(
        "manifests/hands.yaml",
        &level("        clips:\n          - source: sources/fox.glb\n            animations: []\n"),
    );
    let e = p.fails(&["build"]);
    assert!(
        e.contains("hands.yaml:7:25: animations: an empty list takes nothing"),
        "{e}"
    );
}
