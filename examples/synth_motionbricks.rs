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

/// Writes a synthetic MotionBricks extraction (the real tensor names and
/// shapes, seeded values).
#[derive(clap::Parser)]
struct Args {
    /// The folder to write it in.
    out_dir: String,
    /// A small extraction (the same names, small shapes) instead of the
    /// full 730 MB.
    #[arg(long)]
    small: bool,
    /// The seed of the values.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let dir = &args.out_dir;
    let scale = if args.small {
        synth::Scale::Small
    } else {
        synth::Scale::Full
    };
    let seed = args.seed;
    let inventory = include_str!("../tests/corpus/motionbricks/inventory.json");
    if let Err(e) = synth::write_extraction(std::path::Path::new(dir), inventory, scale, seed) {
        eprintln!("error: {dir}: {e}");
        std::process::exit(1);
    }
    println!("wrote a synthetic extraction ({scale:?}, seed {seed}) to {dir}");
}
