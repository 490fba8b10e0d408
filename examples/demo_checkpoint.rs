//! Writes the demo project's checkpoint, a small seeded MLP in safetensors
//! form, to `sources/weights/tiny-mlp.safetensors` (or the path given).
//! The demo's `manifests/models.yaml` converts it to GGUF.
//!
//! ```sh
//! cargo run --release --example demo_checkpoint
//! ```

#[path = "synth/mod.rs"]
mod synth;

/// Writes the demo project's checkpoint (a small seeded MLP, safetensors).
#[derive(clap::Parser)]
struct Args {
    /// Where to write it.
    #[arg(default_value = "sources/weights/tiny-mlp.safetensors")]
    path: std::path::PathBuf,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let path = args.path.as_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("the folder can be made");
    }
    synth::write_checkpoint(path, &synth::demo_checkpoint(), synth::DEMO_SEED)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("wrote {}", path.display());
}
