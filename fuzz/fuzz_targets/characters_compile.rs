//! Fuzz the character compiler from glTF bytes: import the scene, compile
//! every clip into a bank, select the skin and meshes, run the material
//! stage, bind and compile the model. Nothing may panic, and a document the
//! stages make either encodes (so it is valid) or is refused by
//! `kchr::encode` with problems, never with a panic.
//!
//! Run (nightly): `cargo +nightly fuzz run characters_compile -- -dict=gltf.dict`
//! in `fuzz/`, seeded with `tests/corpus/glb`.

#![no_main]

use kiln::bake::atlas::Settings;
use kiln::bake::character::{self as bake, ClipSettings, NodeMap, Tolerance};
use kiln::formats::kchr;
use kiln::import::gltf;
use kiln::pipeline::sources::material_stage;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(scene) = gltf::import_scene(bytes, &[]) else {
        return;
    };
    let names = bake::node_names(&scene);
    let settings = ClipSettings {
        resample_hz: 30.0,
        resample_all: bytes.len() % 2 == 0,
        tolerance: (bytes.len() % 3 == 0).then_some(Tolerance {
            position_m: 0.001,
            rotation_deg: 0.1,
            scale: 0.001,
        }),
    };
    let mut clips = Vec::new();
    for (i, c) in scene.clips.iter().enumerate().take(kchr::MAX_CLIPS) {
        if let Ok(compiled) = bake::clip(&scene, &names, c, &settings) {
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
    let Ok(atlas) = material_stage(&meshes, &prims, &atlas_settings) else {
        return;
    };
    let Ok((names, animated)) = bake::bind(&names, &bank, &NodeMap::default()) else {
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
});
