//! KCHR v1 (`formats::kchr`): canonical bytes pinned by a golden file and by
//! an independent encoder written from the spec (`tests/oracles/kchr_encode.py`),
//! round trips of random valid documents, every rule of the seed built as a
//! violation and rejected by name (by `validate`, by `encode`, and by
//! `decode` of the oracle's bytes with the item's offset), truncation,
//! trailing bytes and hostile counts that must not allocate. The oracle's
//! answers are recorded (`tests/golden/kchr/oracle/`) so the fast tier needs
//! no Python; the full tier runs the encoder and checks it against each.

use crate::alloc_support;

use kiln::formats::kchr::{self, Bank, Clip, Document, Error, Image, Model, Node, Path, Track};
use kiln::formats::qoi;
use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Stdio};

fn qoi_image(width: u32, height: u32, seed: u8) -> Image {
    let mut rgba = Vec::new();
    for i in 0..width * height {
        let v = (i as u8).wrapping_mul(37).wrapping_add(seed);
        rgba.extend_from_slice(&[v, v / 2, 255 - v, 255]);
    }
    let image = qoi::Image {
        header: qoi::Header {
            width,
            height,
            channels: qoi::Channels::Rgba,
            colorspace: qoi::Colorspace::Srgb,
        },
        rgba,
    };
    Image {
        width,
        height,
        qoi: qoi::encode(&image).unwrap(),
    }
}

fn node(name: &str, parent: Option<u32>, t: [f32; 3]) -> Node {
    Node {
        name: name.into(),
        parent,
        translation: t,
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    }
}

fn identity() -> [f32; 16] {
    let mut m = [0.0; 16];
    for i in 0..4 {
        m[5 * i] = 1.0;
    }
    m
}

fn vertex(p: [f32; 3], joint: f32) -> [f32; 16] {
    [
        p[0], p[1], p[2], 0.0, 0.0, 1.0, 0.25, 0.75, joint, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
    ]
}

/// A small valid document: one model of three nodes (root, hip, spine),
/// two joints, one triangle, a 2 × 2 atlas, and a bank with one clip of
/// two tracks.
fn sample() -> Document {
    let half = std::f32::consts::FRAC_1_SQRT_2;
    Document {
        models: vec![Model {
            id: "fox".into(),
            bank: 0,
            nodes: vec![
                node("root", None, [0.0; 3]),
                node("hip", Some(0), [0.0, 1.0, 0.0]),
                node("spine", Some(1), [0.0, 0.5, 0.0]),
            ],
            mesh_node: 0,
            joints: vec![1, 2],
            inverse_bind: vec![identity(), identity()],
            vertices: vec![
                vertex([0.0, 0.0, 0.0], 0.0),
                vertex([1.0, 0.0, 0.0], 1.0),
                vertex([0.0, 1.0, 0.0], 1.0),
            ],
            indices: vec![0, 1, 2],
            image: qoi_image(2, 2, 0),
        }],
        banks: vec![Bank {
            id: "fox-anims".into(),
            clips: vec![Clip {
                name: "run".into(),
                duration_s: 1.0,
                tracks: vec![
                    Track {
                        node: "hip".into(),
                        path: Path::Translation,
                        step: false,
                        times_s: vec![0.0, 1.0],
                        values: vec![0.0, 1.0, 0.0, 0.0, 1.2, 0.0],
                    },
                    Track {
                        node: "spine".into(),
                        path: Path::Rotation,
                        step: true,
                        times_s: vec![0.0, 0.5],
                        values: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, half, half],
                    },
                ],
            }],
        }],
    }
}

// ------------------------------------------------------- the oracle

fn bits(v: &[f32]) -> serde_json::Value {
    v.iter().map(|f| f.to_bits()).collect::<Vec<_>>().into()
}

fn to_json(doc: &Document) -> serde_json::Value {
    use serde_json::json;
    let models: Vec<_> = doc
        .models
        .iter()
        .map(|m| {
            json!({
                "id": m.id, "bank": m.bank, "mesh_node": m.mesh_node, "joints": m.joints,
                "nodes": m.nodes.iter().map(|n| json!({
                    "name": n.name, "parent": n.parent,
                    "t": bits(&n.translation), "r": bits(&n.rotation), "s": bits(&n.scale),
                })).collect::<Vec<_>>(),
                "inverse_bind": m.inverse_bind.iter().map(|x| bits(x)).collect::<Vec<_>>(),
                "vertices": m.vertices.iter().map(|x| bits(x)).collect::<Vec<_>>(),
                "indices": m.indices,
                "image": {"width": m.image.width, "height": m.image.height,
                          "qoi": kiln::formats::hex(&m.image.qoi)},
            })
        })
        .collect();
    let banks: Vec<_> = doc
        .banks
        .iter()
        .map(|b| {
            json!({"id": b.id, "clips": b.clips.iter().map(|c| json!({
                "name": c.name, "duration": c.duration_s.to_bits(),
                "tracks": c.tracks.iter().map(|t| json!({
                    "node": t.node, "path": t.path as u8, "step": t.step,
                    "times": bits(&t.times_s), "values": bits(&t.values),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>()})
        })
        .collect();
    json!({"models": models, "banks": banks})
}

/// Where the independent encoder's recorded answers are kept: what it
/// wrote for each input, zlib-compressed, as `<sha256 of the input>.out.zz`.
/// The fast tier reads these; the full tier (`KILN_ORACLES=live`, set by
/// `tests/full.sh`) runs the encoder on every input and fails on a
/// difference; `KILN_BLESS=1` runs it and records its answers.
const RECORDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/kchr/oracle");

/// Runs `tests/oracles/kchr_encode.py` on a JSON input; its raw output.
fn run_encoder(input: &str) -> Vec<u8> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracles/kchr_encode.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (bash tests/full.sh puts one on the PATH)");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "oracle: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The independent encoder's bytes for each document (it checks nothing,
/// so it also writes invalid documents for `decode` to reject): as recorded,
/// or run now (see [`RECORDED`]).
fn oracle(docs: &[Document]) -> Vec<Vec<u8>> {
    use sha2::Digest;
    let input = serde_json::Value::Array(docs.iter().map(to_json).collect()).to_string();
    let key: String = sha2::Sha256::digest(input.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = std::path::Path::new(RECORDED).join(format!("{key}.out.zz"));
    let recorded = std::fs::read(&path)
        .map(|z| miniz_oxide::inflate::decompress_to_vec_zlib(&z).expect("a zlib recording"));
    let out = if std::env::var_os("KILN_BLESS").is_some() {
        let out = run_encoder(&input);
        std::fs::create_dir_all(RECORDED).unwrap();
        std::fs::write(&path, miniz_oxide::deflate::compress_to_vec_zlib(&out, 9)).unwrap();
        out
    } else if std::env::var("KILN_ORACLES").is_ok_and(|v| v == "live") {
        let out = run_encoder(&input);
        let recorded = recorded.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            out == recorded,
            "the independent encoder now writes other bytes than recorded in {}",
            path.display()
        );
        out
    } else {
        recorded.unwrap_or_else(|e| {
            panic!(
                "no recorded answer of the independent encoder for this input \
                 ({}: {e}); record it with python3 on the PATH: \
                 KILN_BLESS=1 cargo test --release --test formats kchr",
                path.display()
            )
        })
    };
    let mut rest = &out[..];
    let mut all = Vec::new();
    while !rest.is_empty() {
        let n = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        all.push(rest[4..4 + n].to_vec());
        rest = &rest[4 + n..];
    }
    assert_eq!(all.len(), docs.len());
    all
}

// ------------------------------------------------------- canonical bytes

#[test]
fn the_sample_matches_its_golden_bytes_and_the_independent_encoder() {
    let doc = sample();
    let bytes = kchr::encode(&doc).unwrap();
    let golden_path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/kchr/sample.kchr");
    if std::env::var_os("KILN_BLESS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(golden_path).parent().unwrap()).unwrap();
        std::fs::write(golden_path, &bytes).unwrap();
    }
    let golden = std::fs::read(golden_path).expect("golden file (bless with KILN_BLESS=1)");
    assert_eq!(bytes, golden, "canonical bytes changed");
    assert_eq!(oracle(std::slice::from_ref(&doc))[0], bytes);
    assert_eq!(kchr::decode(&bytes).unwrap(), doc);
    // The header, by hand.
    assert_eq!(&bytes[..4], b"KCHR");
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 1);
    assert_eq!(bytes[8..12], [0; 4]);
    assert_eq!(
        u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize,
        bytes.len()
    );
    assert_eq!(bytes[16..20], [1, 0, 1, 0]);
    assert_eq!(doc.encoded_len(), Some(bytes.len()));
}

#[test]
fn an_empty_document_is_its_header() {
    let bytes = kchr::encode(&Document::default()).unwrap();
    assert_eq!(
        bytes,
        [
            b'K', b'C', b'H', b'R', 1, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0
        ]
    );
    assert_eq!(kchr::decode(&bytes).unwrap(), Document::default());
}

fn arb_name(prefix: &'static str) -> impl Strategy<Value = String> {
    // Up to 128 bytes of UTF-8 with multi-byte characters.
    proptest::collection::vec(
        prop_oneof![Just('a'), Just('Z'), Just('é'), Just('脚')],
        0..40,
    )
    .prop_map(move |cs| {
        let mut s: String = prefix.to_string();
        s.extend(cs);
        while s.len() > 128 {
            s.pop();
        }
        s
    })
}

fn unit_quat() -> impl Strategy<Value = [f32; 4]> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, 0.1f64..1.0).prop_map(|(x, y, z, w)| {
        let n = (x * x + y * y + z * z + w * w).sqrt();
        [
            (x / n) as f32,
            (y / n) as f32,
            (z / n) as f32,
            (w / n) as f32,
        ]
    })
}

/// Random valid documents: 1-3 models on 1-2 banks, chains of nodes
/// whose names the banks' tracks use.
fn arb_document() -> impl Strategy<Value = Document> {
    let model = (
        arb_name("m"),
        2usize..12,
        proptest::collection::vec(unit_quat(), 12),
        1usize..5,
        proptest::collection::vec((-10.0f32..10.0, 0u8..4, 0.0f32..1.0), 3..30),
        0u8..255,
        (1u32..9, 1u32..9),
    );
    let track = (0usize..12, 0u8..3, any::<bool>(), 1usize..6, unit_quat());
    let clip = (
        arb_name("c"),
        proptest::collection::vec(track, 0..8),
        0.5f32..600.0,
    );
    let bank = (arb_name("b"), proptest::collection::vec(clip, 0..4));
    (
        proptest::collection::vec(model, 0..4),
        proptest::collection::vec(bank, 1..3),
    )
        .prop_map(|(models, banks)| {
            let banks: Vec<Bank> = banks
                .into_iter()
                .enumerate()
                .map(|(b, (id, clips))| Bank {
                    id: format!("{b}{id}"),
                    clips: clips
                        .into_iter()
                        .enumerate()
                        .map(|(c, (name, tracks, duration))| {
                            let mut tracks: Vec<Track> = tracks
                                .into_iter()
                                .map(|(n, path, step, keys, q)| {
                                    let path = Path::from_code(path).unwrap();
                                    let times_s: Vec<f32> = (0..keys)
                                        .map(|k| duration * k as f32 / keys as f32)
                                        .collect();
                                    let values = (0..keys)
                                        .flat_map(|k| match path {
                                            Path::Rotation => q.to_vec(),
                                            Path::Translation => vec![k as f32, -0.0, 0.5],
                                            Path::Scale => vec![1.0 + k as f32, 2.0, 0.5],
                                        })
                                        .collect();
                                    Track {
                                        node: format!("n{n}"),
                                        path,
                                        step,
                                        times_s,
                                        values,
                                    }
                                })
                                .collect();
                            tracks.sort_by(|a, z| {
                                (a.node.as_bytes(), a.path).cmp(&(z.node.as_bytes(), z.path))
                            });
                            tracks.dedup_by(|a, z| a.node == z.node && a.path == z.path);
                            Clip {
                                name: format!("{c}{name}"),
                                duration_s: duration,
                                tracks,
                            }
                        })
                        .collect(),
                })
                .collect();
            let n_banks = banks.len();
            let models = models
                .into_iter()
                .enumerate()
                .map(
                    |(m, (id, n_nodes, quats, n_joints, verts, seed, (w, h)))| Model {
                        id: format!("{m}{id}"),
                        bank: (m % n_banks) as u32,
                        // Every name a bank can use exists: 12 nodes at least.
                        nodes: (0..n_nodes.max(12))
                            .map(|i| Node {
                                name: format!("n{i}"),
                                parent: i.checked_sub(1).map(|p| p as u32),
                                translation: [i as f32, 0.5, -1.0],
                                rotation: quats[i % quats.len()],
                                scale: [1.0, 1.5, 0.75],
                            })
                            .collect(),
                        mesh_node: 0,
                        joints: (0..n_joints as u32).collect(),
                        inverse_bind: vec![identity(); n_joints],
                        vertices: verts
                            .iter()
                            .map(|&(x, j, u)| {
                                let j = f32::from(j % n_joints as u8);
                                [
                                    x,
                                    1.0,
                                    2.0,
                                    0.0,
                                    1.0,
                                    0.0,
                                    u,
                                    1.0 - u,
                                    j,
                                    0.0,
                                    0.0,
                                    0.0,
                                    0.5,
                                    0.25,
                                    0.25,
                                    0.0,
                                ]
                            })
                            .collect(),
                        indices: (0..verts.len() / 3 * 3).map(|i| i as u16).collect(),
                        image: qoi_image(w, h, seed),
                    },
                )
                .collect();
            Document { models, banks }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_documents_round_trip_exactly(doc in arb_document()) {
        let problems = kchr::validate(&doc);
        prop_assert!(problems.is_empty(), "{problems:?}");
        let bytes = kchr::encode(&doc).unwrap();
        let back = kchr::decode(&bytes).unwrap();
        prop_assert_eq!(kchr::encode(&back).unwrap(), bytes.clone());
        prop_assert_eq!(back, doc);
    }
}

#[test]
fn random_documents_match_the_independent_encoder() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let docs: Vec<Document> = (0..40)
        .map(|_| arb_document().new_tree(&mut runner).unwrap().current())
        .collect();
    let theirs = oracle(&docs);
    for (doc, bytes) in docs.iter().zip(theirs) {
        assert_eq!(kchr::encode(doc).unwrap(), bytes);
    }
}

// ------------------------------------------------------- every rule

struct Case {
    rule: &'static str,
    path: &'static str,
    says: &'static str,
    mutate: fn(&mut Document),
}

fn m0(d: &mut Document) -> &mut Model {
    &mut d.models[0]
}

fn t0(d: &mut Document) -> &mut Track {
    &mut d.banks[0].clips[0].tracks[0]
}

fn t1(d: &mut Document) -> &mut Track {
    &mut d.banks[0].clips[0].tracks[1]
}

fn chain(d: &mut Document, scale: f32, t: f32) {
    let m = m0(d);
    for n in &mut m.nodes {
        n.scale = [scale; 3];
        n.translation = [t, 0.0, 0.0];
    }
}

const CASES: &[Case] = &[
    Case {
        rule: "more than 8 models",
        path: "document.models",
        says: "0 to 8 items, found 9",
        mutate: |d| {
            let m = d.models[0].clone();
            d.models = (0..9)
                .map(|i| Model {
                    id: format!("m{i}"),
                    ..m.clone()
                })
                .collect();
        },
    },
    Case {
        rule: "more than 8 banks",
        path: "document.banks",
        says: "0 to 8 items, found 9",
        mutate: |d| {
            let b = d.banks[0].clone();
            d.banks = (0..9)
                .map(|i| Bank {
                    id: format!("b{i}"),
                    ..b.clone()
                })
                .collect();
        },
    },
    Case {
        rule: "more than 512 nodes",
        path: "models[0].nodes",
        says: "1 to 512 items, found 513",
        mutate: |d| {
            let m = m0(d);
            for i in 3..513 {
                m.nodes.push(node(&format!("extra{i}"), Some(0), [0.0; 3]));
            }
        },
    },
    Case {
        rule: "no nodes",
        path: "models[0].nodes",
        says: "1 to 512 items, found 0",
        mutate: |d| {
            let m = m0(d);
            m.nodes.clear();
        },
    },
    Case {
        rule: "more than 64 joints",
        path: "models[0].joints",
        says: "1 to 64 items, found 65",
        mutate: |d| {
            let m = m0(d);
            m.joints = vec![1; 65];
            m.inverse_bind = vec![identity(); 65];
        },
    },
    Case {
        rule: "more than 65,536 vertices",
        path: "models[0].vertices",
        says: "1 to 65536 items, found 65537",
        mutate: |d| {
            let m = m0(d);
            m.vertices = vec![vertex([0.0; 3], 0.0); 65_537];
        },
    },
    Case {
        rule: "more than 393,216 indices",
        path: "models[0].indices",
        says: "3 to 393216 items, found 393219",
        mutate: |d| m0(d).indices = vec![0; 393_219],
    },
    Case {
        rule: "indices not whole triangles",
        path: "models[0].indices",
        says: "multiple of 3",
        mutate: |d| m0(d).indices.push(0),
    },
    Case {
        rule: "more than 32 clips",
        path: "banks[0].clips",
        says: "0 to 32 items, found 33",
        mutate: |d| {
            let c = d.banks[0].clips[0].clone();
            d.banks[0].clips = (0..33)
                .map(|i| Clip {
                    name: format!("c{i}"),
                    ..c.clone()
                })
                .collect();
        },
    },
    Case {
        rule: "more than 1,536 tracks",
        path: "banks[0].clips[0].tracks",
        says: "0 to 1536 items, found 1537",
        mutate: |d| {
            let t = t0(d).clone();
            d.banks[0].clips[0].tracks = (0..1537)
                .map(|i| Track {
                    node: format!("n{i:05}"),
                    ..t.clone()
                })
                .collect();
        },
    },
    Case {
        rule: "more than 100,000 keys in a bank",
        path: "banks[0]",
        says: "holds 100001 keys, more than the limit of 100000",
        mutate: |d| {
            let t = t0(d);
            t.times_s = (0..99_999).map(|k| k as f32 / 100_000.0).collect();
            t.values = vec![0.0; 3 * 99_999];
        },
    },
    Case {
        rule: "texture wider than 2,048",
        path: "models[0].image.width",
        says: "must be 1 to 2048, found 2049",
        mutate: |d| m0(d).image = qoi_image(2049, 1, 0),
    },
    Case {
        rule: "texture of height 0",
        path: "models[0].image.height",
        says: "must be 1 to 2048, found 0",
        mutate: |d| m0(d).image.height = 0,
    },
    Case {
        rule: "clip longer than 600 s",
        path: "banks[0].clips[0].duration",
        says: "0 to 600 seconds, found 600.0001",
        mutate: |d| d.banks[0].clips[0].duration_s = 600.0001,
    },
    Case {
        rule: "name over 128 bytes",
        path: "models[0].nodes[1].name",
        says: "1 to 128 bytes of UTF-8, found 129 bytes",
        mutate: |d| m0(d).nodes[1].name = "é".repeat(64) + "x",
    },
    Case {
        rule: "empty id",
        path: "models[0].id",
        says: "1 to 128 bytes",
        mutate: |d| m0(d).id.clear(),
    },
    Case {
        rule: "duplicate model ids",
        path: "models[1].id",
        says: "duplicate id \"fox\" (models[0] has it)",
        mutate: |d| d.models.push(d.models[0].clone()),
    },
    Case {
        rule: "duplicate bank ids",
        path: "banks[1].id",
        says: "duplicate id \"fox-anims\"",
        mutate: |d| d.banks.push(d.banks[0].clone()),
    },
    Case {
        rule: "duplicate node names",
        path: "models[0].nodes[2].name",
        says: "duplicate node name \"hip\" (nodes[1] has it)",
        mutate: |d| m0(d).nodes[2].name = "hip".into(),
    },
    Case {
        rule: "duplicate clip names",
        path: "banks[0].clips[1].name",
        says: "duplicate clip name \"run\"",
        mutate: |d| {
            let c = d.banks[0].clips[0].clone();
            d.banks[0].clips.push(c);
        },
    },
    Case {
        rule: "hierarchy cycle",
        path: "models[0].nodes[0].parent",
        says: "hierarchy cycle",
        mutate: |d| m0(d).nodes[0].parent = Some(2),
    },
    Case {
        rule: "a node its own parent",
        path: "models[0].nodes[1].parent",
        says: "hierarchy cycle",
        mutate: |d| m0(d).nodes[1].parent = Some(1),
    },
    Case {
        rule: "parent out of range",
        path: "models[0].nodes[2].parent",
        says: "node 3 does not exist",
        mutate: |d| m0(d).nodes[2].parent = Some(3),
    },
    Case {
        rule: "palette entry out of range",
        path: "models[0].joints[1]",
        says: "names node 3, which does not exist",
        mutate: |d| m0(d).joints[1] = 3,
    },
    Case {
        rule: "mesh node out of range",
        path: "models[0].mesh_node",
        says: "node 7 does not exist",
        mutate: |d| m0(d).mesh_node = 7,
    },
    Case {
        rule: "bank index out of range",
        path: "models[0].bank",
        says: "bank 1 does not exist",
        mutate: |d| m0(d).bank = 1,
    },
    Case {
        rule: "inverse-bind matrices not one per joint",
        path: "models[0].inverse_bind",
        says: "one matrix per joint (2), found 1",
        mutate: |d| {
            m0(d).inverse_bind.pop();
        },
    },
    Case {
        rule: "non-finite node translation",
        path: "models[0].nodes[1].translation",
        says: "must be finite, found NaN",
        mutate: |d| m0(d).nodes[1].translation[2] = f32::NAN,
    },
    Case {
        rule: "non-finite node scale",
        path: "models[0].nodes[2].scale",
        says: "must be finite, found inf",
        mutate: |d| m0(d).nodes[2].scale[0] = f32::INFINITY,
    },
    Case {
        rule: "non-finite vertex",
        path: "models[0].vertices[2]",
        says: "must be finite, found -inf",
        mutate: |d| m0(d).vertices[2][4] = f32::NEG_INFINITY,
    },
    Case {
        rule: "non-finite inverse-bind matrix",
        path: "models[0].inverse_bind[0]",
        says: "must be finite",
        mutate: |d| m0(d).inverse_bind[0][12] = f32::NAN,
    },
    Case {
        rule: "non-finite key value",
        path: "banks[0].clips[0].tracks[0].values[1]",
        says: "must be finite",
        mutate: |d| t0(d).values[4] = f32::NAN,
    },
    Case {
        rule: "non-finite duration",
        path: "banks[0].clips[0].duration",
        says: "0 to 600 seconds, found NaN",
        mutate: |d| d.banks[0].clips[0].duration_s = f32::NAN,
    },
    Case {
        rule: "singular inverse-bind matrix",
        path: "models[0].inverse_bind[1]",
        says: "singular",
        mutate: |d| m0(d).inverse_bind[1][10] = 0.0,
    },
    Case {
        rule: "inverse-bind matrix scaled below 1e-6",
        path: "models[0].inverse_bind[0]",
        says: "singular",
        mutate: |d| {
            for i in [0, 5, 10] {
                m0(d).inverse_bind[0][i] = 9e-7;
            }
        },
    },
    Case {
        rule: "inverse-bind matrix not affine",
        path: "models[0].inverse_bind[0]",
        says: "the last row must be 0 0 0 1",
        mutate: |d| m0(d).inverse_bind[0][3] = 0.5,
    },
    Case {
        rule: "triangle index out of range",
        path: "models[0].indices[2]",
        says: "triangle index 3 is out of range (the model has 3 vertices)",
        mutate: |d| m0(d).indices[2] = 3,
    },
    Case {
        rule: "malformed QOI",
        path: "models[0].image.qoi",
        says: "malformed QOI",
        mutate: |d| {
            let q = &mut m0(d).image.qoi;
            q.truncate(q.len() - 3);
        },
    },
    Case {
        rule: "QOI header disagrees with the declared size",
        path: "models[0].image.qoi",
        says: "the QOI header says 2 x 2, the model declares 2 x 3",
        mutate: |d| m0(d).image.height = 3,
    },
    Case {
        rule: "QOI with 3 channels",
        path: "models[0].image.qoi",
        says: "4 channels and colorspace 0",
        mutate: |d| m0(d).image.qoi[12] = 3,
    },
    Case {
        rule: "QOI in linear colorspace",
        path: "models[0].image.qoi",
        says: "found 4 channels and colorspace 1",
        mutate: |d| m0(d).image.qoi[13] = 1,
    },
    Case {
        rule: "QOI not opaque",
        path: "models[0].image.qoi",
        says: "must be opaque",
        mutate: |d| {
            // One RGBA op with alpha 254, then a run of the rest.
            let mut q = d.models[0].image.qoi[..14].to_vec();
            q.extend_from_slice(&[0xff, 1, 2, 3, 254, 0xc0 | 2]);
            q.extend_from_slice(&qoi::END_MARKER);
            m0(d).image.qoi = q;
        },
    },
    Case {
        rule: "QOI not the canonical encoding",
        path: "models[0].image.qoi",
        says: "not the canonical encoding",
        mutate: |d| {
            // Four RGB ops of one colour where the reference writes a run.
            let mut q = d.models[0].image.qoi[..14].to_vec();
            for _ in 0..4 {
                q.extend_from_slice(&[0xfe, 9, 9, 9]);
            }
            q.extend_from_slice(&qoi::END_MARKER);
            m0(d).image.qoi = q;
        },
    },
    Case {
        rule: "key times not strictly increasing",
        path: "banks[0].clips[0].tracks[1].times[1]",
        says: "strictly increase: 0 follows 0",
        mutate: |d| t1(d).times_s[1] = 0.0,
    },
    Case {
        rule: "key time after the duration",
        path: "banks[0].clips[0].tracks[0].times[1]",
        says: "duration 0.9 s, found 1",
        mutate: |d| d.banks[0].clips[0].duration_s = 0.9,
    },
    Case {
        rule: "negative key time",
        path: "banks[0].clips[0].tracks[0].times[0]",
        says: "found -0.1",
        mutate: |d| t0(d).times_s[0] = -0.1,
    },
    Case {
        rule: "a track without keys",
        path: "banks[0].clips[0].tracks[0].times",
        says: "at least 1 key",
        mutate: |d| {
            let t = t0(d);
            t.times_s.clear();
            t.values.clear();
        },
    },
    Case {
        rule: "values not one per key and component",
        path: "banks[0].clips[0].tracks[0].values",
        says: "3 values per key (6), found 5",
        mutate: |d| {
            t0(d).values.pop();
        },
    },
    Case {
        rule: "key rotation not a unit quaternion",
        path: "banks[0].clips[0].tracks[1].values[1]",
        says: "unit quaternion",
        mutate: |d| t1(d).values[7] = 0.8,
    },
    Case {
        rule: "node rotation not a unit quaternion",
        path: "models[0].nodes[0].rotation",
        says: "unit quaternion",
        mutate: |d| m0(d).nodes[0].rotation = [0.0, 0.0, 0.0, 1.001],
    },
    Case {
        rule: "a track naming a node the model lacks",
        path: "models[0].bank",
        says: "lacks 2 nodes its bank \"fox-anims\" animates: \"chest\", \"tail\"",
        mutate: |d| {
            t0(d).node = "chest".into();
            t1(d).node = "tail".into();
        },
    },
    Case {
        rule: "a node/path pair twice in a clip",
        path: "banks[0].clips[0].tracks[1]",
        says: "node \"hip\" and path translation appear twice",
        mutate: |d| {
            let t = t0(d).clone();
            *t1(d) = t;
        },
    },
    Case {
        rule: "tracks out of order",
        path: "banks[0].clips[0].tracks[1]",
        says: "ordered by node name then path",
        mutate: |d| d.banks[0].clips[0].tracks.reverse(),
    },
    Case {
        rule: "accumulated scale above 1e6",
        path: "models[0].nodes[2].scale",
        says: "accumulated scale magnitude may reach",
        // 101³ > 1e6 at the third node, not before.
        mutate: |d| chain(d, 101.0, 0.0),
    },
    Case {
        rule: "accumulated scale below 1e-6",
        path: "models[0].nodes[2].scale",
        says: "it must stay within 1e-6 and 1e6",
        mutate: |d| chain(d, 0.0099, 0.0),
    },
    Case {
        rule: "accumulated scale above 1e6 only through an animated key",
        path: "models[0].nodes[1].scale",
        says: "over the bind pose and bank \"fox-anims\"",
        mutate: |d| {
            let t = t0(d);
            t.path = Path::Scale;
            t.values = vec![1.0, 1.0, 1.0, 2e6, 1.0, 1.0];
        },
    },
    Case {
        rule: "accumulated translation reaching 1e9",
        path: "models[0].nodes[2].translation",
        says: "accumulated translation may reach",
        // 3e8, then + 1.5 × 3e8, then + 2.25 × 3e8 = 1.425e9 at the third.
        mutate: |d| chain(d, 1.5, 3e8),
    },
    Case {
        rule: "a scale track through zero",
        path: "banks[0].clips[0].tracks[0].values[1]",
        says: "crosses the bind scale -1 through zero",
        mutate: |d| {
            m0(d).nodes[1].scale[0] = -1.0;
            let t = t0(d);
            t.path = Path::Scale;
            t.values = vec![-1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        },
    },
    Case {
        rule: "a scale key of zero",
        path: "banks[0].clips[0].tracks[0].values[0]",
        says: "through zero",
        mutate: |d| {
            let t = t0(d);
            t.path = Path::Scale;
            t.values = vec![1.0, 0.0, 1.0, 1.0, 1.0, 1.0];
        },
    },
    Case {
        rule: "palette index not integral",
        path: "models[0].vertices[1].joints",
        says: "integral value below the palette length 2, found 0.5",
        mutate: |d| m0(d).vertices[1][9] = 0.5,
    },
    Case {
        rule: "palette index past the palette",
        path: "models[0].vertices[0].joints",
        says: "found 2",
        mutate: |d| m0(d).vertices[0][11] = 2.0,
    },
    Case {
        rule: "negative weight",
        path: "models[0].vertices[0].weights",
        says: "must not be negative, found -0.25",
        mutate: |d| {
            m0(d).vertices[0][12..16].copy_from_slice(&[1.0, 0.25, -0.25, 0.0]);
        },
    },
    Case {
        rule: "weights not summing to 1",
        path: "models[0].vertices[2].weights",
        says: "sum to 1 (within 0.00001), found 0.8999",
        mutate: |d| m0(d).vertices[2][12] = 0.9,
    },
    Case {
        rule: "atlas UV outside [0, 1]",
        path: "models[0].vertices[1].uv",
        says: "within [0, 1], found (1.01, 0.75)",
        mutate: |d| m0(d).vertices[1][6] = 1.01,
    },
];

#[test]
fn the_sample_is_valid() {
    assert_eq!(kchr::validate(&sample()), vec![]);
}

/// `ImageCheck::Header` (for atlases the caller just encoded) leaves out
/// exactly the rules that need the pixels decoded (a whole body, opaque,
/// canonical bytes); every other rule, the QOI header's included, still
/// refuses.
#[test]
fn a_header_check_skips_only_the_rules_of_decoded_pixels() {
    use kchr::ImageCheck;
    let pixel_rules = [
        "malformed QOI",
        "QOI not opaque",
        "QOI not the canonical encoding",
    ];
    let mut skipped = 0;
    for case in CASES {
        let mut doc = sample();
        (case.mutate)(&mut doc);
        let full = kchr::encode(&doc);
        let header = kchr::encode_with(&doc, ImageCheck::Header);
        assert_eq!(
            full,
            kchr::encode_with(&doc, ImageCheck::Full),
            "{}",
            case.rule
        );
        if pixel_rules.contains(&case.rule) {
            assert!(full.is_err(), "{}", case.rule);
            assert!(header.is_ok(), "{}: {header:?}", case.rule);
            skipped += 1;
        } else {
            assert_eq!(header, full, "{}", case.rule);
        }
    }
    assert_eq!(skipped, pixel_rules.len());
    assert_eq!(
        kchr::encode_with(&sample(), ImageCheck::Header).unwrap(),
        kchr::encode(&sample()).unwrap()
    );
}

#[test]
fn every_rule_rejects_its_violation_by_path_in_validate_encode_and_decode() {
    let mut broken = Vec::new();
    for case in CASES {
        let mut doc = sample();
        (case.mutate)(&mut doc);
        let problems = kchr::validate(&doc);
        let hit = problems
            .iter()
            .find(|p| p.path == case.path && p.message.contains(case.says));
        assert!(
            hit.is_some(),
            "{}: expected {} saying {:?}, found {problems:#?}",
            case.rule,
            case.path,
            case.says
        );
        match kchr::encode(&doc) {
            Err(Error::Invalid(p)) => assert_eq!(p, problems, "{}", case.rule),
            other => panic!("{}: encode gave {other:?}", case.rule),
        }
        broken.push(doc);
    }
    // The independent encoder writes what kiln's refuses; decode rejects
    // each with the same problems, now with the offset of the item.
    // A few violations are of the byte layout itself: a count over its
    // limit or a name's length is refused as it is read.
    let all = oracle(&broken);
    for ((case, doc), bytes) in CASES.iter().zip(&broken).zip(&all) {
        let result = kchr::decode(bytes);
        if let Some(says) = byte_level(case.rule) {
            let e = result.expect_err(case.rule);
            assert!(!matches!(e, Error::Invalid(_)), "{}: {e}", case.rule);
            assert!(e.to_string().contains(says), "{}: {e}", case.rule);
            continue;
        }
        let Err(Error::Invalid(problems)) = result else {
            panic!("{}: decode gave {result:?}", case.rule)
        };
        let expected = kchr::validate(doc);
        assert_eq!(problems.len(), expected.len(), "{}", case.rule);
        for (got, want) in problems.iter().zip(&expected) {
            assert_eq!((&got.path, &got.message), (&want.path, &want.message));
            let offset = got
                .offset
                .unwrap_or_else(|| panic!("{}: no offset", case.rule));
            assert!(offset < bytes.len() as u64, "{}", case.rule);
        }
    }
}

/// What decode says of the violations that break the byte layout.
fn byte_level(rule: &str) -> Option<&'static str> {
    Some(match rule {
        "more than 8 models" => "at byte 16: model count is 9, more than the limit of 8",
        "more than 8 banks" => "at byte 18: bank count is 9, more than the limit of 8",
        "more than 512 nodes" => "node count is 513, more than the limit of 512",
        "more than 64 joints" => "joint count is 65, more than the limit of 64",
        "more than 65,536 vertices" => "vertex count is 65537, more than the limit of 65536",
        "more than 393,216 indices" => "index count is 393219, more than the limit of 393216",
        "more than 32 clips" => "clip count is 33, more than the limit of 32",
        "more than 1,536 tracks" => "track count is 1537, more than the limit of 1536",
        "name over 128 bytes" => "node name must be 1 to 128 bytes long, found a length of 129",
        "empty id" => "model id must be 1 to 128 bytes long, found a length of 0",
        // The layout has one count for both: the rest is misread.
        "inverse-bind matrices not one per joint" | "values not one per key and component" => "",
        _ => return None,
    })
}

#[test]
fn offsets_point_at_the_item() {
    // Renaming "spine" also leaves its track unbound: four problems.
    let mut doc = sample();
    doc.models[0].nodes[2].name = "hip".into();
    doc.models[0].indices[1] = 9;
    t1(&mut doc).values[7] = 0.8;
    let bytes = oracle(&[doc])[0].clone();
    let Err(Error::Invalid(problems)) = kchr::decode(&bytes) else {
        panic!()
    };
    let at = |path: &str| {
        problems
            .iter()
            .find(|p| p.path == path)
            .unwrap()
            .offset
            .map(|o| o as usize)
    };
    // Node 2 starts with its name: length byte 3, then "hip".
    let node = at("models[0].nodes[2].name").unwrap();
    assert_eq!(&bytes[node..node + 4], b"\x03hip");
    let index = at("models[0].indices[1]").unwrap();
    assert_eq!(&bytes[index..index + 2], &9u16.to_le_bytes());
    let value = at("banks[0].clips[0].tracks[1].values[1]").unwrap();
    let half = std::f32::consts::FRAC_1_SQRT_2;
    // Key 1 of the rotation track: x y z w, with z = 1/√2 and w = 0.8.
    assert_eq!(&bytes[value + 8..value + 12], &half.to_le_bytes());
    assert_eq!(&bytes[value + 12..value + 16], &0.8f32.to_le_bytes());
    let e = kchr::decode(&bytes).unwrap_err();
    assert_eq!(e.offset(), Some(node as u64));
    assert!(
        e.to_string()
            .starts_with("character document is not valid (4 problems): at byte")
    );
}

#[test]
fn problems_past_the_limit_are_counted_not_listed() {
    let mut doc = sample();
    m0(&mut doc).indices = vec![7; 999];
    let problems = kchr::validate(&doc);
    assert_eq!(problems.len(), kchr::MAX_PROBLEMS);
    assert_eq!(
        problems.last().unwrap().message,
        "744 more problems not listed (at most 256 are)"
    );
}

#[test]
fn a_document_over_64_mib_is_refused_before_and_after_encoding() {
    let mut doc = sample();
    let m = doc.models[0].clone();
    // Four images of the largest size allowed: over 64 MiB together.
    doc.models = (0..4)
        .map(|i| Model {
            id: format!("m{i}"),
            image: Image {
                width: 2048,
                height: 2048,
                qoi: vec![0; kchr::MAX_IMAGE_BYTES],
            },
            ..m.clone()
        })
        .collect();
    let problems = kchr::validate(&doc);
    assert!(
        problems
            .iter()
            .any(|p| p.path == "document" && p.message.contains("more than the limit of 67108864"))
    );
    let big = vec![0u8; kchr::MAX_BYTES + 1];
    assert_eq!(
        kchr::decode(&big),
        Err(Error::TooLarge {
            len: kchr::MAX_BYTES + 1
        })
    );
}

// ------------------------------------------------------- bytes

#[test]
fn byte_level_rules_name_their_offset() {
    let good = kchr::encode(&sample()).unwrap();
    let patch = |at: usize, with: &[u8]| {
        let mut b = good.clone();
        b[at..at + with.len()].copy_from_slice(with);
        b
    };
    let decode_err = |b: &[u8]| kchr::decode(b).unwrap_err();
    assert_eq!(
        decode_err(&patch(0, b"KCHX")),
        Error::Magic { found: *b"KCHX" }
    );
    assert_eq!(
        decode_err(&patch(4, &2u32.to_le_bytes())),
        Error::Version { found: 2 }
    );
    assert_eq!(
        decode_err(&patch(8, &[1])),
        Error::Reserved {
            offset: 8,
            found: 1
        }
    );
    let e = decode_err(&patch(12, &5u32.to_le_bytes()));
    assert_eq!(
        e,
        Error::Length {
            declared: 5,
            actual: good.len()
        }
    );
    assert_eq!(
        e.to_string(),
        format!(
            "at byte 12: document length says 5 bytes but the input has {}",
            good.len()
        )
    );
    // The model id's length byte (offset 20): 0 and 129.
    for len in [0u8, 129] {
        assert_eq!(
            decode_err(&patch(20, &[len])),
            Error::NameLength {
                offset: 20,
                what: "model id",
                len
            }
        );
    }
    // "fox" with an invalid second byte.
    assert_eq!(
        decode_err(&patch(22, &[0xff])),
        Error::NameUtf8 {
            offset: 22,
            what: "model id"
        }
    );
    // The first track: after the bank id and the clip's head.
    let track = good.len() - (1 + 3 + 8 + 4 * 2 + 4 * 6) - (1 + 5 + 8 + 4 * 2 + 4 * 8);
    assert_eq!(&good[track..track + 4], b"\x03hip");
    assert_eq!(
        decode_err(&patch(track + 4, &[3])),
        Error::PathCode {
            offset: (track + 4) as u64,
            code: 3
        }
    );
    assert_eq!(
        decode_err(&patch(track + 5, &[2])),
        Error::StepFlag {
            offset: (track + 5) as u64,
            code: 2
        }
    );
    assert_eq!(
        decode_err(&patch(track + 6, &[0, 1])),
        Error::Reserved {
            offset: (track + 6) as u64,
            found: 256
        }
    );
}

#[test]
fn every_truncation_and_any_trailing_byte_is_an_error() {
    let good = kchr::encode(&sample()).unwrap();
    for n in 0..good.len() {
        let mut cut = good[..n].to_vec();
        // With the length field patched to match, so the structure itself
        // is what runs out.
        if n >= 16 {
            cut[12..16].copy_from_slice(&(n as u32).to_le_bytes());
        }
        let e = kchr::decode(&cut).expect_err(&format!("{n} bytes decoded"));
        assert!(e.offset().unwrap_or(0) <= n as u64, "{n}: {e}");
    }
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(kchr::decode(&long), Err(Error::Length { .. })));
    let len = long.len() as u32;
    long[12..16].copy_from_slice(&len.to_le_bytes());
    let e = kchr::decode(&long).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "at byte {}: 1 byte after the end of the document",
            good.len()
        )
    );
}

/// Every count field of the sample: (offset, name, u32 rather than u16),
/// found by walking the spec's layout over the sample's contents.
fn count_fields(bytes: &[u8]) -> Vec<(usize, &'static str, bool)> {
    let doc = sample();
    let m = &doc.models[0];
    let mut at = 20 + 1 + m.id.len() + 4;
    let nodes = at;
    at += 4;
    for n in &m.nodes {
        at += 1 + n.name.len() + 44;
    }
    at += 4; // mesh node
    let joints = at;
    at += 4 + 68 * m.joints.len();
    let vertices = at;
    at += 4 + 64 * m.vertices.len();
    let indices = at;
    at += 4 + 2 * m.indices.len() + 8;
    let image = at;
    at += 4 + m.image.qoi.len();
    at += 1 + doc.banks[0].id.len();
    let clips = at;
    at += 4 + 1 + doc.banks[0].clips[0].name.len() + 4;
    let tracks = at;
    at += 4 + 1 + 3 + 4;
    let keys = at;
    assert_eq!(&bytes[tracks + 4..tracks + 8], b"\x03hip");
    vec![
        (16, "model count", false),
        (18, "bank count", false),
        (nodes, "node count", true),
        (joints, "joint count", true),
        (vertices, "vertex count", true),
        (indices, "index count", true),
        (image, "image byte length", true),
        (clips, "clip count", true),
        (tracks, "track count", true),
        (keys, "key count", true),
    ]
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    let good = kchr::encode(&sample()).unwrap();
    let fields = count_fields(&good);
    // Each field as the sample has it, to show the offsets are right.
    let read = |at: usize, wide: bool| {
        if wide {
            u32::from_le_bytes(good[at..at + 4].try_into().unwrap()) as u64
        } else {
            u64::from(u16::from_le_bytes(good[at..at + 2].try_into().unwrap()))
        }
    };
    let as_sample: Vec<u64> = fields.iter().map(|&(at, _, w)| read(at, w)).collect();
    let qoi_len = sample().models[0].image.qoi.len() as u64;
    assert_eq!(as_sample, [1, 1, 3, 2, 3, 3, qoi_len, 1, 2, 2]);
    for &(at, what, wide) in &fields {
        let limits = if wide {
            vec![u64::from(u32::MAX), 1 << 31, 1_000_000]
        } else {
            vec![u64::from(u16::MAX), 9]
        };
        for value in limits {
            let mut b = good.clone();
            if wide {
                b[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            } else {
                b[at..at + 2].copy_from_slice(&(value as u16).to_le_bytes());
            }
            let (result, largest) = alloc_support::largest_alloc_in(|| kchr::decode(&b));
            let e = result.expect_err(what);
            assert!(
                largest < 64 << 10,
                "{what} = {value}: allocated {largest} bytes ({e})"
            );
            assert_eq!(e.offset(), Some(at as u64), "{what} = {value}: {e}");
            assert!(e.to_string().contains(what), "{what}: {e}");
        }
    }
}

#[test]
fn the_fuzz_property_holds_on_every_byte_of_the_sample() {
    // What fuzz/fuzz_targets/kchr_decode.rs asserts, over deterministic
    // inputs: decode never panics, and what it accepts re-encodes to the
    // same bytes. Most single-byte changes are refused; the ones accepted
    // (a float's low bits, a name's letter) must be canonical too.
    let good = kchr::encode(&sample()).unwrap();
    let mut accepted = 0;
    for i in 0..good.len() {
        for v in [0x00, 0x01, 0x03, 0x7f, 0x80, 0xfe, 0xff] {
            let mut b = good.clone();
            b[i] = v;
            if let Ok(doc) = kchr::decode(&b) {
                assert_eq!(kchr::encode(&doc).unwrap(), b, "byte {i} = {v:#x}");
                accepted += 1;
            }
        }
    }
    assert!(accepted > 0, "some changes are valid documents");
}

#[test]
fn counts_under_their_limit_are_bounded_by_each_items_least_size() {
    use kiln::formats::cursor::Error as Bytes;
    let past_end = |b: &[u8]| match kchr::decode(b) {
        Err(Error::Bytes(Bytes::PastEnd {
            item_bytes, count, ..
        })) => (count, item_bytes),
        other => panic!("{other:?}"),
    };
    // The header alone, claiming one model (then one bank): the least
    // model is 38 bytes (a 1-byte name and nine u32), the least bank 6.
    let mut header = kchr::encode(&Document::default()).unwrap();
    header[16] = 1;
    assert_eq!(past_end(&header), (1, 38));
    header[16] = 0;
    header[18] = 1;
    assert_eq!(past_end(&header), (1, 6));
    // A bank of one clip with one translation track of one key.
    let doc = Document {
        models: vec![],
        banks: vec![Bank {
            id: "b".into(),
            clips: vec![Clip {
                name: "c".into(),
                duration_s: 1.0,
                tracks: vec![Track {
                    node: "n".into(),
                    path: Path::Translation,
                    step: false,
                    times_s: vec![0.0],
                    values: vec![0.0; 3],
                }],
            }],
        }],
    };
    let good = kchr::encode(&doc).unwrap();
    let set = |at: usize, n: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&n.to_le_bytes());
        b
    };
    let clips = 20 + 2;
    let tracks = clips + 4 + 2 + 4;
    let keys = tracks + 4 + 2 + 4;
    assert_eq!(
        u32::from_le_bytes(good[keys..keys + 4].try_into().unwrap()),
        1
    );
    // A clip is at least 10 bytes (name, duration, track count), a track
    // 10 (name, path, step, reserved, key count), a translation key 16.
    assert_eq!(past_end(&set(clips, 32)), (32, 10));
    assert_eq!(past_end(&set(tracks, 1536)), (1536, 10));
    assert_eq!(past_end(&set(keys, 99_999)), (99_999, 16));
    // A rotation key is 20.
    let mut rot = set(keys, 99_999);
    rot[tracks + 4 + 2] = 1;
    assert_eq!(past_end(&rot), (99_999, 20));
    // A node is at least 46 bytes: the sample's node count set to 512.
    let bytes = kchr::encode(&sample()).unwrap();
    let mut b = bytes.clone();
    let nodes = 20 + 4 + 4;
    b[nodes..nodes + 4].copy_from_slice(&512u32.to_le_bytes());
    assert_eq!(past_end(&b), (512, 46));
    // The image's byte length: at its limit it is only past the end; one
    // more is over the limit.
    let image = bytes.windows(4).position(|w| w == b"qoif").unwrap() - 4;
    let mut b = bytes.clone();
    b[image..image + 4].copy_from_slice(&(kchr::MAX_IMAGE_BYTES as u32).to_le_bytes());
    assert_eq!(past_end(&b), (kchr::MAX_IMAGE_BYTES as u64, 1));
    b[image..image + 4].copy_from_slice(&(kchr::MAX_IMAGE_BYTES as u32 + 1).to_le_bytes());
    assert!(matches!(
        kchr::decode(&b),
        Err(Error::Bytes(Bytes::TooMany {
            limit: 20_971_542,
            ..
        }))
    ));
}
