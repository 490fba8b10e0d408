//! Writes the demo project's checkpoint, a small seeded MLP in safetensors
//! form, to `sources/weights/tiny-mlp.safetensors` (or the path given).
//! The demo's `manifests/models.yaml` converts it to GGUF.
//!
//! ```sh
//! cargo run --release --example demo_checkpoint
//! ```

#[path = "synth/mod.rs"]
mod synth;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "sources/weights/tiny-mlp.safetensors".into());
    let path = std::path::Path::new(&path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("the folder can be made");
    }
    synth::write_checkpoint(path, &synth::demo_checkpoint(), synth::DEMO_SEED)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("wrote {}", path.display());
}
