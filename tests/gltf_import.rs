//! Tests of the glTF importer against the real-world corpus in
//! `tests/corpus/` and hand-written fixtures.

use std::path::{Path, PathBuf};

use kiln::import::gltf::{Asset, external_uris, import_scene};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(rel)
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(corpus(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every .glb / .gltf under tests/corpus, relative paths, sorted.
fn all_corpus_files() -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![corpus("")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("glb" | "gltf")
            ) {
                let rel = path.strip_prefix(corpus("")).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_imports() {
    let files = all_corpus_files();
    assert!(files.len() >= 40, "{files:?}");
    for rel in &files {
        let bytes = read(rel);
        assert_eq!(
            external_uris(&bytes).unwrap(),
            Vec::<String>::new(),
            "{rel}"
        );
        let scene = import_scene(&bytes, &[]).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let asset = Asset::load(&bytes, &[]).unwrap();
        for i in 0..asset.document().accessors.len() {
            asset.accessor(i).unwrap_or_else(|e| panic!("{rel}: {e}"));
        }
        eprintln!(
            "{rel}: {} nodes {} skins {} clips",
            scene.nodes.len(),
            scene.skins.len(),
            scene.clips.len()
        );
    }
}

// ---------------------------------------------------------------------------
// meshopt decoding against meshoptimizer's JS decoder (tests/corpus/glb-meshopt/decoded)

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The (mesh, primitive) whose indices are accessor `i`, if any.
fn indices_user(asset: &Asset<'_>, i: usize) -> Option<(usize, usize)> {
    let doc = asset.document();
    doc.meshes.iter().enumerate().find_map(|(m, mesh)| {
        let p = mesh.primitives.iter().position(|p| p.indices == Some(i))?;
        Some((m, p))
    })
}

/// Triangles with each triangle rotated to its lexicographically smallest
/// rotation (winding kept), so two decoders that start triangles at
/// different corners compare equal.
fn canonical_triangles(indices: &[u32]) -> Vec<[u32; 3]> {
    assert_eq!(indices.len() % 3, 0);
    indices
        .chunks_exact(3)
        .map(|t| {
            let r = [[t[0], t[1], t[2]], [t[1], t[2], t[0]], [t[2], t[0], t[1]]];
            *r.iter().min().unwrap()
        })
        .collect()
}

#[test]
fn meshopt_decodes_match_reference_digests() {
    let dir = corpus("glb-meshopt/decoded");
    let mut digests: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".digest.json"))
        .collect();
    digests.sort();
    assert_eq!(digests.len(), 6, "{digests:?}");
    let (mut exact, mut rotated) = (0, 0);
    for name in &digests {
        let stem = name.trim_end_matches(".digest.json");
        let list: Vec<serde_json::Value> =
            serde_json::from_slice(&read(&format!("glb-meshopt/decoded/{name}"))).unwrap();
        let compressed = read(&format!("glb-meshopt/{stem}.glb"));
        let reference = read(&format!("glb-meshopt/decoded/{stem}.decoded.glb"));
        let ours = Asset::load(&compressed, &[]).unwrap();
        let theirs = Asset::load(&reference, &[]).unwrap();
        assert_eq!(list.len(), ours.document().accessors.len(), "{stem}");
        for entry in &list {
            let i = entry["i"].as_u64().unwrap() as usize;
            let want = entry["sha256"].as_str().unwrap();
            let got = ours.accessor(i).unwrap();
            let meta = (
                entry["count"].as_u64().unwrap() as usize,
                entry["type"].as_str().unwrap(),
                entry["componentType"].as_u64().unwrap(),
                entry["normalized"].as_bool().unwrap(),
            );
            let a = &ours.document().accessors[i];
            let ours_meta = (
                got.count,
                a.element_type.as_str(),
                a.component_type as u64,
                a.normalized,
            );
            assert_eq!(ours_meta, meta, "{stem} accessor {i}");
            if sha256_hex(&got.bytes) == want {
                exact += 1;
                continue;
            }
            // Not bit-equal: must be an index buffer whose triangles equal
            // the reference's modulo rotation. The reference file orders
            // its accessors differently, so find its accessor through the
            // mesh primitive that uses it, and check that one has the digest.
            let Some((m, p)) = indices_user(&ours, i) else {
                panic!("{stem} accessor {i}: digest differs and it is not an index buffer");
            };
            let j = theirs.document().meshes[m].primitives[p].indices.unwrap();
            assert_eq!(
                sha256_hex(&theirs.accessor(j).unwrap().bytes),
                want,
                "{stem} reference accessor {j}"
            );
            let (a, _) = ours.accessor_u32(i).unwrap();
            let (b, _) = theirs.accessor_u32(j).unwrap();
            assert_eq!(
                canonical_triangles(&a),
                canonical_triangles(&b),
                "{stem} accessor {i}"
            );
            rotated += 1;
        }
    }
    eprintln!(
        "{exact} accessors equal bit for bit, {rotated} index accessors equal modulo rotation"
    );
    assert!(exact > 500);
}

// ---------------------------------------------------------------------------
// Twins: the same model through different encoders agrees within tolerance

use kiln::model::{Channel, Scene, Target};

fn scene(rel: &str) -> Scene {
    import_scene(&read(rel), &[]).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Largest difference between two channels' values, relative to the
/// key's largest component when that exceeds 1 (lossy float filters keep
/// a number of significant bits, not an absolute error); rotations
/// compare each key modulo sign (q and -q are the same rotation, and the
/// quaternion filter may flip it).
fn channel_difference(a: &Channel, b: &Channel) -> f32 {
    assert_eq!(a.target, b.target);
    assert_eq!(a.values.len(), b.values.len());
    let width = a.target.width();
    a.values
        .chunks(width)
        .zip(b.values.chunks(width))
        .map(|(x, y)| {
            let magnitude = x.iter().map(|v| v.abs()).fold(1.0, f32::max);
            let diff = |sign: f32| {
                x.iter()
                    .zip(y)
                    .map(|(p, q)| (p - sign * q).abs() / magnitude)
                    .fold(0.0, f32::max)
            };
            if a.target == Target::Rotation {
                diff(1.0).min(diff(-1.0))
            } else {
                diff(1.0)
            }
        })
        .fold(0.0, f32::max)
}

/// Compares every clip of `a` and `b` (same clips, channels, nodes, key
/// times up to `time_tolerance`), returning the largest value difference
/// per target kind (translation, rotation, scale, weights).
fn compare_animations(a: &Scene, b: &Scene, time_tolerance: f32, what: &str) -> [f32; 4] {
    assert_eq!(a.clips.len(), b.clips.len(), "{what}");
    let mut worst = [0.0f32; 4];
    for (ca, cb) in a.clips.iter().zip(&b.clips) {
        assert_eq!(ca.name, cb.name, "{what}");
        assert_eq!(ca.channels.len(), cb.channels.len(), "{what} {:?}", ca.name);
        for (x, y) in ca.channels.iter().zip(&cb.channels) {
            assert_eq!(a.nodes[x.node].name, b.nodes[y.node].name, "{what}");
            assert_eq!((x.target, x.interpolation), (y.target, y.interpolation), "{what}");
            assert_eq!(x.times_s.len(), y.times_s.len(), "{what}");
            for (t, u) in x.times_s.iter().zip(&y.times_s) {
                assert!((t - u).abs() <= time_tolerance, "{what}: time {t} vs {u}");
            }
            let k = match x.target {
                Target::Translation => 0,
                Target::Rotation => 1,
                Target::Scale => 2,
                Target::Weights { .. } => 3,
            };
            worst[k] = worst[k].max(channel_difference(x, y));
        }
    }
    worst
}

/// gltfpack's `.q` (quantized), `.c` (plus lossless meshopt compression)
/// and `.c-noq` (compression, float geometry) carry the same animation
/// bytes: equal exactly. `.cc` adds lossy filters: QUATERNION at
/// gltfpack's 12-bit rotation default (one step is about 3.5e-4; we allow
/// 1e-3, observed 4.3e-4) and EXPONENTIAL for translation and scale
/// (relative 1e-4, observed 2.8e-5). Key times are never filtered: equal.
#[test]
fn gltfpack_twins_agree_within_quantization_error() {
    let models = [
        "Fox",
        "SimpleSkin",
        "RiggedSimple-blender",
        "RobotExpressive",
        "MorphStressTest",
        "CesiumMan-blender",
    ];
    for m in models {
        let q = scene(&format!("glb-meshopt/{m}.q.glb"));
        let c = scene(&format!("glb-meshopt/{m}.c.glb"));
        assert_eq!(q.clips, c.clips, "{m}: .q vs .c");
        if m != "MorphStressTest" {
            // (MorphStressTest.c-noq has one node less, so node indices differ.)
            let noq = scene(&format!("glb-meshopt/{m}.c-noq.glb"));
            let worst = compare_animations(&q, &noq, 0.0, m);
            assert_eq!(worst, [0.0; 4], "{m}: .q vs .c-noq");
        }
        let cc = scene(&format!("glb-meshopt/{m}.cc.glb"));
        let [t, r, s, w] = compare_animations(&q, &cc, 0.0, m);
        assert!(t <= 1e-4 && s <= 1e-4, "{m}: .q vs .cc translation {t} scale {s}");
        assert!(r <= 1e-3, "{m}: .q vs .cc rotation {r}");
        assert_eq!(w, 0.0, "{m}: .q vs .cc weights");
    }
}

/// glTF-Transform's meshopt encoder (an independent implementation)
/// against the original: key times equal, rotations as normalized i16
/// (one step 3.05e-5; allowed 1e-4, observed 3.3e-5), translation and
/// scale relative 1e-3 (observed 4.4e-4), weights 1e-4; the hierarchy
/// and skin joints are equal. (Inverse bind matrices are not compared:
/// quantizing skinned positions folds the dequantization into them.)
#[test]
fn gltf_transform_meshopt_agrees_with_original() {
    for m in ["Fox", "RobotExpressive", "CesiumMan-blender"] {
        let a = scene(&format!("glb/{m}.glb"));
        let b = scene(&format!("glb-meshopt/{m}.gt-meshopt.glb"));
        let [t, r, s, w] = compare_animations(&a, &b, 0.0, m);
        assert!(t <= 1e-3 && s <= 1e-3, "{m}: translation {t} scale {s}");
        assert!(r <= 1e-4 && w <= 1e-4, "{m}: rotation {r} weights {w}");
        let names = |s: &Scene| -> Vec<_> {
            s.nodes.iter().map(|n| (n.name.clone(), n.parent)).collect()
        };
        assert_eq!(names(&a), names(&b), "{m}");
        assert_eq!(a.skins.len(), b.skins.len(), "{m}");
        for (x, y) in a.skins.iter().zip(&b.skins) {
            assert_eq!((&x.joints, x.skeleton), (&y.joints, y.skeleton), "{m}");
        }
    }
}

/// KHR_meshopt_compression (vertex codec v1) and EXT (v0) of the same
/// gltfpack run decode to the same bytes, accessor for accessor.
#[test]
fn khr_meshopt_equals_ext_meshopt() {
    let ext_bytes = read("glb-meshopt/Fox.cc.glb");
    let khr_bytes = read("glb-meshopt/Fox.cc-khr.glb");
    let ext = Asset::load(&ext_bytes, &[]).unwrap();
    let khr = Asset::load(&khr_bytes, &[]).unwrap();
    let n = ext.document().accessors.len();
    assert_eq!(n, khr.document().accessors.len());
    for i in 0..n {
        assert_eq!(ext.accessor(i).unwrap(), khr.accessor(i).unwrap(), "accessor {i}");
    }
    assert_eq!(scene("glb-meshopt/Fox.cc.glb"), scene("glb-meshopt/Fox.cc-khr.glb"));
}

// ---------------------------------------------------------------------------
// Sparse accessors and accessors without a buffer view

/// Every accessor the document uses, keyed by what uses it, so two files
/// that order their accessors differently can be compared.
fn accessors_by_use(asset: &Asset<'_>) -> Vec<(String, usize)> {
    let doc = asset.document();
    let mut out = Vec::new();
    for (m, mesh) in doc.meshes.iter().enumerate() {
        for (p, prim) in mesh.primitives.iter().enumerate() {
            let at = format!("meshes[{m}].primitives[{p}]");
            for (name, &a) in &prim.attributes {
                out.push((format!("{at}.attributes.{name}"), a));
            }
            if let Some(a) = prim.indices {
                out.push((format!("{at}.indices"), a));
            }
            for (t, target) in prim.targets.iter().enumerate() {
                for (name, &a) in target {
                    out.push((format!("{at}.targets[{t}].{name}"), a));
                }
            }
        }
    }
    for (s, skin) in doc.skins.iter().enumerate() {
        if let Some(a) = skin.inverse_bind_matrices {
            out.push((format!("skins[{s}].inverseBindMatrices"), a));
        }
    }
    for (i, anim) in doc.animations.iter().enumerate() {
        for (s, sampler) in anim.samplers.iter().enumerate() {
            out.push((format!("animations[{i}].samplers[{s}].input"), sampler.input));
            out.push((format!("animations[{i}].samplers[{s}].output"), sampler.output));
        }
    }
    out
}

/// `gltf-transform sparse` output reads back to exactly the original
/// values, accessor for accessor (sparse substitution over zeros or over
/// a base buffer view, and RobotExpressive's accessors with no buffer view
/// at all).
#[test]
fn sparse_accessors_equal_the_originals() {
    for m in ["MorphStressTest", "RobotExpressive"] {
        let orig_bytes = read(&format!("glb/{m}.glb"));
        let sparse_bytes = read(&format!("glb-variants/{m}.sparse.glb"));
        let orig = Asset::load(&orig_bytes, &[]).unwrap();
        let sparse = Asset::load(&sparse_bytes, &[]).unwrap();
        let doc = sparse.document();
        let n_sparse = doc.accessors.iter().filter(|a| a.sparse.is_some()).count();
        let n_zero = doc.accessors.iter().filter(|a| a.buffer_view.is_none()).count();
        eprintln!("{m}: {n_sparse} sparse accessors, {n_zero} without a buffer view");
        assert!(n_sparse + n_zero > 0, "{m}");
        let (a, b) = (accessors_by_use(&orig), accessors_by_use(&sparse));
        assert_eq!(
            a.iter().map(|x| &x.0).collect::<Vec<_>>(),
            b.iter().map(|x| &x.0).collect::<Vec<_>>(),
            "{m}"
        );
        let mut covered = (0, 0);
        for ((what, i), (_, j)) in a.iter().zip(&b) {
            let sj = &doc.accessors[*j];
            covered.0 += usize::from(sj.sparse.is_some());
            covered.1 += usize::from(sj.buffer_view.is_none());
            let x = orig.accessor_f32(*i).unwrap();
            let y = sparse.accessor_f32(*j).unwrap();
            assert!(x == y, "{m} {what}: accessors[{i}] vs sparse accessors[{j}]");
        }
        assert_eq!(covered, (n_sparse, n_zero), "{m}: every sparse and zero accessor compared");
    }
}
