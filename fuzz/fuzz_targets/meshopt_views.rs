//! Fuzz the meshopt buffer-view decoder (`import/gltf/meshopt.rs` over
//! meshoptimizer's C decoders, then kiln's filters). The input's first four
//! bytes choose a compressed view of `SimpleSkin.cc.glb` and may override
//! its mode, filter, extension (EXT or KHR), byteStride and count; the rest
//! replaces that view's compressed bytes. The scene is imported. Nothing
//! may panic; what decodes keeps the importer's promises (indices in
//! range).
//!
//! Run: `bash fuzz/run.sh meshopt_views 600` (seeds: `bash fuzz/seed.sh`).

#![no_main]

use kiln::formats::glb;
use kiln::import::gltf::{self, Asset};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const HOST: &[u8] = include_bytes!("../../tests/corpus/glb-meshopt/SimpleSkin.cc.glb");
const MODES: [&str; 3] = ["ATTRIBUTES", "TRIANGLES", "INDICES"];
const FILTERS: [&str; 5] = ["NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR"];

fuzz_target!(|input: &[u8]| {
    let [pick, how, stride, count, stream @ ..] = input else {
        return;
    };
    let host = glb::decode(HOST).unwrap();
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
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    ext["byteOffset"] = json!(bin.len());
    ext["byteLength"] = json!(stream.len());
    bin.extend_from_slice(stream);
    while bin.len() % 4 != 0 {
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
});
