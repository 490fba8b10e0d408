//! kiln as a library: import a GLB, bake one clip into a OneScope pose
//! cache, encode it and read it back, with no manifest and no build engine.
//!
//! cargo run --example bake_pose_cache -- sources/characters/Fox.glb Run

use kiln::bake::pose_cache::{self, ClipRef, EntitySet, Settings};
use kiln::formats::ospc::{self, Shape};
use kiln::import::gltf;

/// Imports a self-contained GLB, bakes one clip into a OneScope pose cache,
/// encodes it and reads it back.
#[derive(clap::Parser)]
struct Args {
    /// The GLB to read.
    #[arg(default_value = "sources/characters/Fox.glb")]
    path: String,
    /// The animation to bake, by name.
    #[arg(default_value = "Run")]
    clip: String,
}

fn main() -> anyhow::Result<()> {
    let Args { path, clip } = clap::Parser::parse();

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
