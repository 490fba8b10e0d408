//! The fast tier's importers and bakers: the glTF importer on the corpus,
//! pose caches, compiled characters, atlases, styles, CGeo sequences and
//! model bundles, each through its library API and the binary. Tests that
//! need an outside oracle or a download are `#[ignore = "full tier: ..."]`
//! and run by `bash tests/full.sh`.

#[allow(dead_code)]
#[path = "../alloc_support/mod.rs"]
mod alloc_support;
#[path = "../cli_support/mod.rs"]
mod cli_support;
#[allow(dead_code)]
#[path = "../gltf_support/mod.rs"]
mod gltf_support;
#[allow(dead_code)]
#[path = "../guard_support/mod.rs"]
mod guard_support;
#[path = "../json_support/mod.rs"]
mod json_support;
#[allow(dead_code)]
#[path = "../pillow_support/mod.rs"]
mod pillow_support;
#[path = "../../examples/synth/mod.rs"]
mod synth;

#[global_allocator]
static ALLOC: alloc_support::Tracking = alloc_support::Tracking;

mod atlas;
mod cgeo_poses;
mod cgeo_sequences;
mod characters;
mod draco;
mod gltf_import;
mod minilm;
mod model_bundle;
mod pose_cache_bake;
mod replay_pose_cache;
mod styles;
mod styles_gltf;
