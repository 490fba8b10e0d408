//! The property each fuzz target checks, one function per target (the
//! target is a one-line `fuzz_target!` calling it). `tests/end_to_end/fuzz_regressions.rs`
//! includes this file too and runs every input kept in
//! `tests/corpus/fuzz-regressions/<target>/` through the same function, so
//! a fixed crash stays fixed on stable, in the test suite.
#![allow(dead_code)] // each target uses one function

use kiln::bake::atlas::Settings;
use kiln::bake::atlas::material_stage;
use kiln::bake::character::{self as bake, ClipSettings, NodeMap, Tolerance};
use kiln::formats::action_result;
use kiln::formats::cgeo;
use kiln::formats::gguf;
use kiln::formats::glb;
use kiln::formats::kchr;
use kiln::formats::mbreplay;
use kiln::formats::mbstyle;
use kiln::formats::ospc;
use kiln::formats::qoi;
use kiln::formats::safetensors;
use kiln::formats::sentencepiece;
use kiln::import::gltf::{self, Asset};
use kiln::import::image;
use kiln::pipeline::paths::Resolver;
use kiln::pipeline::plan::{self, ManifestText};
use kiln::pipeline::sources::IMAGES;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::OnceLock;

const DRACO_HOST: &[u8] = include_bytes!("../tests/corpus/glb-variants/SimpleSkin.draco-fine.glb");

/// The repository (this file is built in `fuzz/` and in the tests).
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let repo = if dir.join("manifests").is_dir() {
            dir
        } else {
            dir.parent().unwrap()
        };
        std::fs::canonicalize(repo).unwrap()
    })
}

/// A refusal names a byte of the input: its first `at byte N` has N at
/// most the input's length (RELIABILITY.md, "Where errors point").
fn assert_placed(e: impl std::fmt::Display, len: usize) {
    let e = e.to_string();
    let at = e
        .split_once("at byte ")
        .and_then(|(_, after)| {
            let digits = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            after[..digits].parse::<usize>().ok()
        })
        .unwrap_or_else(|| panic!("no byte offset in {e:?}"));
    assert!(at <= len, "byte {at} of {len} in {e:?}");
}

const MESHOPT_HOST: &[u8] = include_bytes!("../tests/corpus/glb-meshopt/SimpleSkin.cc.glb");
const MODES: [&str; 3] = ["ATTRIBUTES", "TRIANGLES", "INDICES"];
const FILTERS: [&str; 5] = ["NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR"];

/// The `atlas_stage` target's property (its file in `fuzz_targets/` says what).
pub fn atlas_stage(bytes: &[u8]) {
    let Ok(source) = gltf::Source::parse(bytes) else {
        return;
    };
    let Ok(meshes) = gltf::import_meshes(source, &[], &[], None) else {
        return;
    };
    let prims: Vec<_> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let settings = Settings {
        max_size: 256,
        ..Settings::default()
    };
    if let Ok(a) = material_stage(&meshes, &prims, &settings, &IMAGES) {
        assert!(a.image.width <= 256 && a.image.height <= 256);
        assert!(a.image.pixels.chunks_exact(4).all(|p| p[3] == 255));
        for p in &a.primitives {
            assert!(
                p.uv.iter().flatten().all(|v| (0.0..=1.0).contains(v)),
                "a UV outside the atlas"
            );
        }
    }
}

/// The `cgeo_decode` target's property (its file in `fuzz_targets/` says what).
pub fn cgeo_decode(bytes: &[u8]) {
    match cgeo::Reader::new(bytes) {
        Ok(mut r) => {
            for k in 0..r.len() {
                if let Err(e) = r.snapshot(k) {
                    assert_placed(e, bytes.len());
                }
            }
        }
        Err(e) => assert_placed(e, bytes.len()),
    }
    if let Ok(seq) = cgeo::decode(bytes) {
        assert!(cgeo::validate(&seq).is_empty());
        let again = cgeo::decode(&cgeo::encode(&seq).unwrap()).unwrap();
        // Complete snapshots come back exactly; a difference snapshot to
        // f32 rounding ((a - f) + f), so only its shape is compared.
        if seq.topology_changing || seq.snapshots.len() == 1 {
            assert_eq!(again, seq);
        } else {
            assert_eq!(again.snapshots.len(), seq.snapshots.len());
        }
    }
}

/// The `characters_compile` target's property (its file in `fuzz_targets/` says what).
pub fn characters_compile(bytes: &[u8]) {
    let Ok(scene) = gltf::import_scene(bytes, &[]) else {
        return;
    };
    let names = bake::node_names(&scene);
    let settings = ClipSettings {
        resample_hz: 30.0,
        resample_all: bytes.len().is_multiple_of(2),
        tolerance: bytes.len().is_multiple_of(3).then_some(Tolerance {
            position_m: 0.001,
            rotation_deg: 0.1,
            scale: 0.001,
        }),
    };
    let mut clips = Vec::new();
    for (i, c) in scene.clips.iter().enumerate().take(kchr::MAX_CLIPS) {
        if let Ok(compiled) = bake::clip(
            &scene,
            &names,
            c,
            &settings,
            &[],
            kiln::formats::kchr::MAX_KEYS,
        ) {
            clips.push(kchr::Clip {
                name: format!("c{i}"),
                ..compiled.clip
            });
        }
    }
    let bank = kchr::Bank {
        id: "b".into(),
        clips,
    };
    let Ok((sel, _)) = bake::select(&scene, None) else {
        return;
    };
    let Ok(source) = gltf::Source::parse(bytes) else {
        return;
    };
    let Ok(meshes) = gltf::import_meshes(source, &[], &[], Some(&sel.meshes)) else {
        return;
    };
    let prims = bake::primitives(&scene, &sel, &meshes);
    let atlas_settings = Settings {
        max_size: 128,
        ..Settings::default()
    };
    let Ok(atlas) = material_stage(&meshes, &prims, &atlas_settings, &IMAGES) else {
        return;
    };
    let Ok((names, animated)) = bake::bind(
        &names,
        &bank.id,
        &bake::bank_animated(&bank),
        &NodeMap::default(),
    ) else {
        return;
    };
    let Ok(compiled) = bake::model(&scene, &names, &sel, &meshes, &atlas, &animated) else {
        return;
    };
    let doc = kchr::Document {
        models: vec![kchr::Model {
            id: "m".into(),
            ..compiled.model
        }],
        banks: vec![bank],
    };
    if let Ok(out) = kchr::encode(&doc) {
        assert_eq!(
            kchr::decode(&out).expect("an encoded document decodes"),
            doc
        );
    }
}

/// The `draco_primitive` target's property (its file in `fuzz_targets/` says what).
pub fn draco_primitive(stream: &[u8]) {
    let host = glb::decode(DRACO_HOST).unwrap();
    let mut doc: Value = serde_json::from_slice(host.json_text()).unwrap();
    let view =
        doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["bufferView"]
            .as_u64()
            .unwrap() as usize;
    // The stream goes at the end of the BIN chunk, 4-aligned.
    let mut bin = host.bin.unwrap().to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    doc["bufferViews"][view] =
        json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": stream.len()});
    bin.extend_from_slice(stream);
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let text = serde_json::to_vec(&doc).unwrap();
    let bytes = glb::encode(&text, Some(&bin));
    let Ok(asset) = Asset::load(&bytes, &[]) else {
        return;
    };
    for m in 0..asset.document().meshes.len() {
        if let Ok(mesh) = asset.mesh(m) {
            for p in mesh.primitives {
                let n = p.positions.len() as u32;
                assert!(p.indices.iter().all(|&i| i < n));
            }
        }
    }
}

/// The `gguf_decode` target's property (its file in `fuzz_targets/` says what).
pub fn gguf_decode(bytes: &[u8]) {
    let decoded = gguf::decode_header(bytes, bytes.len() as u64);
    if let Err(e) = &decoded {
        assert_placed(e, bytes.len());
    }
    if let Ok(h) = decoded {
        let (again, h2) =
            gguf::encode_header(&h.metadata, &h.descs()).expect("an accepted header encodes");
        assert!(h2.tensors().eq(h.tensors()), "the tensors differ");
        assert_eq!(
            (h2.alignment, h2.data_start, &h2.places),
            (h.alignment, h.data_start, &h.places)
        );
        assert_eq!(again, bytes[..h.data_start as usize]);
    }
}

/// The `glb_decode` target's property (its file in `fuzz_targets/` says what).
pub fn glb_decode(data: &[u8]) {
    let decoded = match glb::decode(data) {
        Ok(decoded) => decoded,
        Err(e) => return assert_placed(e, data.len()),
    };
    assert!(glb::validate(decoded.json, decoded.bin).is_empty());
    let again = glb::encode(decoded.json, decoded.bin);
    assert_eq!(glb::decode(&again), Ok(decoded));
    assert!(again.len() <= data.len());
    assert_eq!(again[..8], data[..8]);
    assert_eq!(again[12..], data[12..again.len()]);
}

/// The `gltf_import` target's property (its file in `fuzz_targets/` says what).
pub fn gltf_import(data: &[u8]) {
    if let Err(e) = kiln::import::gltf::import_scene(data, &[]) {
        assert_placed(e, data.len());
    }
}

/// The `image_decode` target's property (its file in `fuzz_targets/` says what).
pub fn image_decode(bytes: &[u8]) {
    match image::decode(bytes) {
        Ok(img) => {
            assert!(img.width >= 1 && img.width <= image::MAX_SIDE);
            assert!(img.height >= 1 && img.height <= image::MAX_SIDE);
            assert_eq!(
                img.pixels.len(),
                img.width as usize * img.height as usize * 4
            );
        }
        Err(e) => assert_placed(e, bytes.len()),
    }
}

/// The `kchr_decode` target's property (its file in `fuzz_targets/` says what).
pub fn kchr_decode(bytes: &[u8]) {
    let decoded = kchr::decode(bytes);
    if let Err(e) = &decoded {
        assert_placed(e, bytes.len());
    }
    if let Ok(doc) = decoded {
        assert!(
            kchr::validate(&doc).is_empty(),
            "decoded document is not valid"
        );
        assert_eq!(kchr::encode(&doc).expect("decoded document encodes"), bytes);
    }
}

/// The `manifest_plan` target's property (its file in `fuzz_targets/` says what).
pub fn manifest_plan(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let resolver = Resolver::new(root());
    let manifests = [ManifestText {
        file: "manifests/fuzz.yaml".into(),
        text: text.to_string(),
    }];
    match plan::plan(&resolver, &manifests) {
        Ok(jobs) => {
            for job in &jobs {
                for p in job.outputs.files.iter().chain(&job.inputs) {
                    let p = p.as_str();
                    assert!(
                        !p.starts_with('/') && !p.split('/').any(|c| c == ".."),
                        "{p}"
                    );
                }
                for p in &job.inputs {
                    assert!(root().join(p.as_str()).is_file(), "{p}");
                }
            }
        }
        Err(problems) => {
            // YAML's lines: \r\n, \r and \n each end one.
            let lines = text.replace("\r\n", "\n").split(['\n', '\r']).count();
            for d in &problems {
                assert!(d.pos.line as usize <= lines + 1, "{d} beyond {lines} lines");
            }
        }
    }
}

/// The `mbreplay_decode` target's property (its file in `fuzz_targets/` says what).
pub fn mbreplay_decode(bytes: &[u8]) {
    let decoded = mbreplay::decode(bytes);
    if let Err(e) = &decoded {
        assert_placed(e, bytes.len());
    }
    if let Ok(replay) = decoded {
        assert!(
            mbreplay::validate(&replay).is_empty(),
            "decoded replay is not valid"
        );
        let again = mbreplay::encode(&replay).expect("decoded replay does not encode");
        assert_eq!(again, bytes, "decode -> encode changed the bytes");
    }
}

/// The `mbstyle_decode` target's property (its file in `fuzz_targets/` says what).
pub fn mbstyle_decode(bytes: &[u8]) {
    // `read` (what the runtime loads) and `decode` (canonical only) agree:
    // decode fails exactly where read does, or with read's departure.
    let decoded = mbstyle::decode(bytes);
    match mbstyle::read(bytes) {
        Ok(read) => match read.not_canonical {
            None => assert_eq!(decoded.as_ref(), Ok(&read.style), "read and decode differ"),
            Some(e) => assert_eq!(decoded.as_ref(), Err(&e), "read and decode differ"),
        },
        Err(e) => assert_eq!(decoded.as_ref(), Err(&e), "read and decode differ"),
    }
    match decoded {
        Ok(style) => {
            assert!(
                mbstyle::validate(&style).is_empty(),
                "decoded style is not valid"
            );
            let again = mbstyle::encode(&style).expect("decoded style does not encode");
            assert_eq!(again, bytes, "decode -> encode changed the bytes");
        }
        Err(e) => {
            let at = e
                .offset()
                .unwrap_or_else(|| panic!("no byte offset in {e}"));
            assert!(at <= bytes.len() as u64, "{e} is past the file's end");
        }
    }
}

/// The `meshopt_views` target's property (its file in `fuzz_targets/` says what).
pub fn meshopt_views(input: &[u8]) {
    let [pick, how, stride, count, stream @ ..] = input else {
        return;
    };
    let host = glb::decode(MESHOPT_HOST).unwrap();
    let mut doc: Value = serde_json::from_slice(host.json_text()).unwrap();
    let compressed: Vec<usize> = (0..doc["bufferViews"].as_array().unwrap().len())
        .filter(|&i| doc["bufferViews"][i]["extensions"].is_object())
        .collect();
    let view = compressed[usize::from(*pick) % compressed.len()];
    let mut ext = doc["bufferViews"][view]["extensions"]["EXT_meshopt_compression"].take();
    if how & 3 != 0 {
        ext["mode"] = json!(MODES[usize::from(how & 3) - 1]);
    }
    match (how >> 2) & 7 {
        0 => {}
        f if usize::from(f) <= FILTERS.len() => ext["filter"] = json!(FILTERS[usize::from(f) - 1]),
        _ => {
            ext.as_object_mut().unwrap().remove("filter");
        }
    }
    if *stride != 0 {
        ext["byteStride"] = json!(stride);
    }
    if *count != 0 {
        ext["count"] = json!(count);
    }
    // The new stream goes at the end of the BIN chunk, 4-aligned.
    let mut bin = host.bin.unwrap().to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    ext["byteOffset"] = json!(bin.len());
    ext["byteLength"] = json!(stream.len());
    bin.extend_from_slice(stream);
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    doc["buffers"][0]["byteLength"] = json!(bin.len());
    let name = if how & 0x20 != 0 {
        for list in ["extensionsUsed", "extensionsRequired"] {
            if let Some(l) = doc[list].as_array_mut() {
                l.push(json!("KHR_meshopt_compression"));
            }
        }
        "KHR_meshopt_compression"
    } else {
        "EXT_meshopt_compression"
    };
    doc["bufferViews"][view]["extensions"] = json!({ name: ext });
    let text = serde_json::to_vec(&doc).unwrap();
    let bytes = glb::encode(&text, Some(&bin));
    if let Ok(asset) = Asset::load(&bytes, &[]) {
        for m in 0..asset.document().meshes.len() {
            if let Ok(mesh) = asset.mesh(m) {
                for p in mesh.primitives {
                    let n = p.positions.len() as u32;
                    assert!(p.indices.iter().all(|&i| i < n));
                }
            }
        }
    }
    let _ = gltf::import_scene(&bytes, &[]);
}

/// The `ospc_decode` target's property (its file in `fuzz_targets/` says what).
pub fn ospc_decode(bytes: &[u8]) {
    let decoded = ospc::decode(bytes);
    if let Err(e) = &decoded {
        assert_placed(e, bytes.len());
    }
    if let Ok(cache) = decoded {
        assert!(
            ospc::validate(&cache).is_empty(),
            "decoded cache is not valid"
        );
        let again = ospc::encode(&cache).expect("decoded cache does not encode");
        assert_eq!(again, bytes, "decode -> encode changed the bytes");
    }
}

/// The `action_result_decode` target's property (its file in `fuzz_targets/` says what).
pub fn action_result_decode(bytes: &[u8]) {
    match action_result::decode(bytes) {
        Err(e) => assert_placed(e, bytes.len()),
        Ok(result) => {
            // kiln's own encoding of what was read reads back the same
            // (the input's bytes may differ: skipped fields, merges).
            let again = action_result::encode(&result);
            assert_eq!(
                action_result::decode(&again).expect("re-encoded result decodes"),
                result
            );
        }
    }
}

/// The `sentencepiece_decode` target's property (its file in `fuzz_targets/` says what).
pub fn sentencepiece_decode(bytes: &[u8]) {
    match sentencepiece::decode(bytes) {
        Err(e) => assert_placed(e, bytes.len()),
        Ok(model) => {
            // What decodes is valid, and kiln's own encoding of it reads
            // back the same (the input may differ: skipped fields, merges).
            assert!(
                sentencepiece::validate(&model).is_empty(),
                "decoded model is not valid"
            );
            let again = sentencepiece::encode(&model);
            let back = sentencepiece::decode(&again).expect("re-encoded model decodes");
            // NaN scores compare unequal: compare their bits.
            let bits = |m: &sentencepiece::Model| {
                m.pieces
                    .iter()
                    .map(|p| (p.piece.clone(), p.score.to_bits(), p.kind))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&back), bits(&model));
            assert_eq!(
                (
                    back.model_type,
                    back.unk_id,
                    back.bos_id,
                    back.eos_id,
                    back.pad_id
                ),
                (
                    model.model_type,
                    model.unk_id,
                    model.bos_id,
                    model.eos_id,
                    model.pad_id
                )
            );
        }
    }
}

/// The `qoi_decode` target's property (its file in `fuzz_targets/` says what).
pub fn qoi_decode(bytes: &[u8]) {
    let decoded = qoi::decode(bytes);
    if let Err(e) = &decoded {
        assert_placed(e, bytes.len());
    }
    if let Ok(image) = decoded {
        assert!(
            qoi::validate(&image).is_empty(),
            "decoded image is not valid"
        );
        let again = qoi::encode(&image).expect("decoded image does not encode");
        assert_eq!(
            qoi::decode(&again).expect("re-encoded image decodes"),
            image
        );
    }
}

/// The `safetensors_decode` target's property (its file in `fuzz_targets/` says what).
pub fn safetensors_decode(bytes: &[u8]) {
    match safetensors::decode(bytes) {
        Err(e) => assert_placed(e, bytes.len()),
        Ok(h) => {
            assert_eq!(h.data_start() + h.data_bytes(), bytes.len() as u64);
            let mut previous: Option<&str> = None;
            for t in h.tensors() {
                assert_eq!(t.bytes(), t.elements() * t.dtype.size());
                // Sorted by name, each once; each findable by it.
                assert!(previous < Some(t.name), "{previous:?} then {:?}", t.name);
                assert_eq!(h.tensor(t.name), Some(t));
                previous = Some(t.name);
            }
        }
    }
}

/// The property of the target named `name`.
pub fn by_name(name: &str) -> Option<fn(&[u8])> {
    Some(match name {
        "action_result_decode" => action_result_decode,
        "atlas_stage" => atlas_stage,
        "cgeo_decode" => cgeo_decode,
        "characters_compile" => characters_compile,
        "draco_primitive" => draco_primitive,
        "gguf_decode" => gguf_decode,
        "glb_decode" => glb_decode,
        "gltf_import" => gltf_import,
        "image_decode" => image_decode,
        "kchr_decode" => kchr_decode,
        "manifest_plan" => manifest_plan,
        "mbreplay_decode" => mbreplay_decode,
        "mbstyle_decode" => mbstyle_decode,
        "meshopt_views" => meshopt_views,
        "ospc_decode" => ospc_decode,
        "qoi_decode" => qoi_decode,
        "safetensors_decode" => safetensors_decode,
        "sentencepiece_decode" => sentencepiece_decode,
        _ => return None,
    })
}
