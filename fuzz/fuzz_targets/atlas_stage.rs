//! Fuzz the material stage from glTF bytes: `import::gltf::import_meshes`
//! then `pipeline::sources::material_stage` (image decoding and
//! `bake::atlas`) must never panic, and an atlas they make is opaque and
//! every UV lies inside it.
//!
//! Run (nightly): `cargo +nightly fuzz run atlas_stage -- -dict=gltf.dict`
//! in `fuzz/`. The same property runs on stable over deterministic inputs
//! in `tests/atlas.rs` (`the_fuzz_property_holds_on_a_textured_quad`).

#![no_main]

use kiln::bake::atlas::Settings;
use kiln::import::gltf;
use kiln::pipeline::sources::material_stage;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(source) = gltf::Source::parse(bytes) else { return };
    let Ok(meshes) = gltf::import_meshes(source, &[], &[], None) else { return };
    let prims: Vec<_> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    let settings = Settings { max_size: 256, ..Settings::default() };
    if let Ok(a) = material_stage(&meshes, &prims, &settings) {
        assert!(a.image.width <= 256 && a.image.height <= 256);
        assert!(a.image.pixels.chunks_exact(4).all(|p| p[3] == 255));
        for p in &a.primitives {
            assert!(p.uv.iter().flatten().all(|v| (0.0..=1.0).contains(v)), "a UV outside the atlas");
        }
    }
});
