//! Fuzz the Draco primitive reader (`import/gltf/draco.rs` over
//! `draco-core`): the input is a Draco stream, put in place of the stream
//! of `SimpleSkin.draco-fine.glb` (its JSON kept, the buffer view resized),
//! and the mesh is read. Nothing may panic; what decodes keeps the
//! importer's promises (indices in range).
//!
//! Run (nightly), in `fuzz/`, seeded with the Draco streams of
//! `tests/corpus/glb-variants`:
//! `python3 draco_seeds.py corpus/draco_primitive && cargo +nightly fuzz run
//! draco_primitive corpus/draco_primitive`.

#![no_main]

use kiln::formats::glb;
use kiln::import::gltf::Asset;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const HOST: &[u8] = include_bytes!("../../tests/corpus/glb-variants/SimpleSkin.draco-fine.glb");

fuzz_target!(|stream: &[u8]| {
    let host = glb::decode(HOST).unwrap();
    let mut doc: Value = serde_json::from_slice(host.json_text()).unwrap();
    let view = doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]
        ["bufferView"]
        .as_u64()
        .unwrap() as usize;
    // The stream goes at the end of the BIN chunk, 4-aligned.
    let mut bin = host.bin.unwrap().to_vec();
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    doc["bufferViews"][view] = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": stream.len()});
    bin.extend_from_slice(stream);
    while bin.len() % 4 != 0 {
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
});
