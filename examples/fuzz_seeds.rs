//! Writes seeds for the fuzz targets whose formats no demo build or test
//! fixture holds as a file: `.mbstyle` styles (small, every value
//! distinct) and remote-cache action results (`.acresult`, REAPI
//! `ActionResult`). Used by `fuzz/seed.sh`.
//!
//! ```sh
//! cargo run --release --example fuzz_seeds -- OUT_DIR
//! ```

#[path = "synth/mod.rs"]
mod synth;

use kiln::formats::action_result::{self, ActionResult, Digest, OutputFile};
use kiln::formats::mbstyle;

/// Writes `.mbstyle` and `.acresult` seeds for the fuzz targets.
#[derive(clap::Parser)]
struct Args {
    /// The folder to write them in (made if missing).
    out_dir: std::path::PathBuf,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let dir = args.out_dir.as_path();
    std::fs::create_dir_all(dir).expect("create OUT_DIR");
    for (name, frames, tokens) in [
        ("walk_zombie", 4, (6, 11)),
        ("idle", 5, (6, 6)),
        ("run", 8, (7, 16)),
    ] {
        let bytes = mbstyle::encode(&synth::style(name, frames, tokens)).expect("a valid style");
        std::fs::write(dir.join(format!("{name}.mbstyle")), bytes).expect("write");
    }
    for files in [1usize, 3] {
        let result = ActionResult {
            output_files: (0..files)
                .map(|k| OutputFile {
                    path: format!("characters/c{k}.kchr"),
                    digest: Digest {
                        sha256: [k as u8 * 17; 32],
                        size: 1000 * k as u64 + 7,
                    },
                    is_executable: k == 2,
                })
                .collect(),
            exit_code: 0,
        };
        let bytes = action_result::encode(&result);
        std::fs::write(dir.join(format!("outputs{files}.acresult")), bytes).expect("write");
    }
}
