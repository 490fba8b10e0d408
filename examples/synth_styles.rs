//! Writes the style benchmark's inputs: a synthetic upstream clip file
//! (`clips.safetensors`: 15 clips of the official shapes, 600 frames each
//! at most, consistent values) and `g1-walk.glb` (a G1 rig walking for
//! FRAMES frames at 30 fps, every joint animated).
//!
//! ```sh
//! cargo run --release --example synth_styles -- OUT_DIR [FRAMES]
//! ```

#[path = "synth/mod.rs"]
mod synth;

/// Writes the style benchmark's inputs: `clips.safetensors` and
/// `g1-walk.glb`.
#[derive(clap::Parser)]
struct Args {
    /// The folder to write them in (made if missing).
    out_dir: std::path::PathBuf,
    /// Frames of the walk, at 30 fps.
    #[arg(default_value_t = 100_000)]
    frames: usize,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let frames = args.frames;
    let dir = args.out_dir.as_path();
    std::fs::create_dir_all(dir).expect("create OUT_DIR");
    let counts: Vec<i32> = (0..15).map(|c| 300 + 20 * c).collect();
    synth::write_clips(&dir.join("clips.safetensors"), &counts, 600).expect("write clips");
    std::fs::write(dir.join("g1-walk.glb"), synth::g1_walk_glb(frames)).expect("write glb");
    println!(
        "wrote {}/clips.safetensors and g1-walk.glb ({frames} frames)",
        dir.display()
    );
}
