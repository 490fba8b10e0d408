//! Writes a synthetic MotionBricks extraction (the real tensor names and
//! shapes, seeded values) for trying the `motionbricks-g1` profile without
//! the upstream weights, which may not be redistributed.
//!
//! ```sh
//! cargo run --release --example synth_motionbricks -- OUT_DIR [--small] [--seed N]
//! ```
//!
//! Full size is about 730 MB. Convert it with a manifest entry using
//! `pins: record` (the files are not the official extraction).

#[path = "synth/mod.rs"]
mod synth;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: synth_motionbricks OUT_DIR [--small] [--seed N]");
        std::process::exit(2);
    };
    let scale = if args.iter().any(|a| a == "--small") {
        synth::Scale::Small
    } else {
        synth::Scale::Full
    };
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .map_or(1, |s| s.parse().expect("--seed takes a number"));
    let inventory = include_str!("../tests/corpus/motionbricks/inventory.json");
    if let Err(e) = synth::write_extraction(std::path::Path::new(dir), inventory, scale, seed) {
        eprintln!("error: {dir}: {e}");
        std::process::exit(1);
    }
    println!("wrote a synthetic extraction ({scale:?}, seed {seed}) to {dir}");
}
