//! kiln as a library: import a GLB, bake one clip into a OneScope pose
//! cache, encode it and read it back, with no manifest and no build engine.
//!
//! cargo run --example bake_pose_cache -- sources/characters/Fox.glb Run

use kiln::bake::pose_cache::{self, ClipRef, EntitySet, Settings};
use kiln::formats::ospc::{self, Shape};
use kiln::import::gltf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "sources/characters/Fox.glb".into());
    let clip = args.next().unwrap_or_else(|| "Run".into());

    let bytes = std::fs::read(&path)?;
    anyhow::ensure!(
        gltf::external_uris(&bytes)?.is_empty(),
        "this example reads self-contained files only"
    );
    let scene = gltf::import_scene(&bytes, &[])?;
    let settings = Settings {
        rate_hz: 30.0,
        entities: EntitySet::Joints,
        shape: Shape::Point,
        size: [0.0; 3],
        dimensions: 3,
        start_step: 0,
        label: format!("{clip}, baked by the example"),
        scene: path.rsplit('/').next().unwrap_or(&path).to_string(),
        replay: String::new(),
        library_version: kiln::VERSION.to_string(),
    };
    let cache = pose_cache::bake(&scene, &ClipRef::Name(clip.clone()), &settings)?;
    let encoded = ospc::encode(&cache)?;
    let decoded = ospc::decode(&encoded)?;
    assert_eq!(decoded, cache);
    println!(
        "{path} {clip}: {} entities x {} frames, {} bytes",
        cache.entities.len(),
        cache.n_frames(),
        encoded.len()
    );
    Ok(())
}
