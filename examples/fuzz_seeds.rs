//! Writes seeds for the fuzz targets whose formats no demo build or test
//! fixture holds as a file: `.mbstyle` styles (small, every value
//! distinct). Used by `fuzz/seed.sh`.
//!
//! ```sh
//! cargo run --release --example fuzz_seeds -- OUT_DIR
//! ```

use kiln::formats::mbstyle::{self, Style, mask};

fn style(name: &str, frames: usize, tokens: (u32, u32)) -> Style {
    let v = |i: usize| (i as f32 * 0.37).sin();
    Style {
        name: name.into(),
        speed: 0.6,
        index: 10,
        source_sha256: "7ea40c20130c8a9799d83c0438750b51a5be9b1e09357c4928887961fc992d33".into(),
        allowed_tokens: mask(tokens.0, tokens.1),
        headings: (0..frames).map(|f| v(f) * 3.0).collect(),
        joint_positions: (0..frames * 34)
            .map(|i| [v(3 * i), v(3 * i + 1), v(3 * i + 2)])
            .collect(),
        joint_rotations: (0..frames * 34)
            .map(|i| std::array::from_fn(|k| v(9 * i + k + 7)))
            .collect(),
        root_positions: (0..frames).map(|f| [v(f), 0.0, v(f + 1)]).collect(),
    }
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: fuzz_seeds OUT_DIR");
        std::process::exit(2);
    };
    let dir = std::path::Path::new(&dir);
    std::fs::create_dir_all(dir).expect("create OUT_DIR");
    for (name, frames, tokens) in [
        ("walk_zombie", 4, (6, 11)),
        ("idle", 5, (6, 6)),
        ("run", 8, (7, 16)),
    ] {
        let bytes = mbstyle::encode(&style(name, frames, tokens)).expect("a valid style");
        std::fs::write(dir.join(format!("{name}.mbstyle")), bytes).expect("write");
    }
}
