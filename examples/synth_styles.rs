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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: synth_styles OUT_DIR [FRAMES]");
        std::process::exit(2);
    };
    let frames: usize = args
        .get(1)
        .map_or(100_000, |s| s.parse().expect("FRAMES is a number"));
    let dir = std::path::Path::new(dir);
    std::fs::create_dir_all(dir).expect("create OUT_DIR");
    let counts: Vec<i32> = (0..15).map(|c| 300 + 20 * c).collect();
    synth::write_clips(&dir.join("clips.safetensors"), &counts, 600).expect("write clips");
    std::fs::write(dir.join("g1-walk.glb"), synth::g1_walk_glb(frames)).expect("write glb");
    println!(
        "wrote {}/clips.safetensors and g1-walk.glb ({frames} frames)",
        dir.display()
    );
}
