//! Writes seeds for the fuzz targets whose formats no demo build or test
//! fixture holds as a file: `.mbstyle` styles (small, every value
//! distinct), remote-cache action results (`.acresult`, REAPI
//! `ActionResult`) and SentencePiece models (`.model`). Used by
//! `fuzz/seed.sh`.
//!
//! ```sh
//! cargo run --release --example fuzz_seeds -- OUT_DIR
//! ```

#[path = "synth/mod.rs"]
mod synth;

use kiln::formats::action_result::{self, ActionResult, Digest, OutputFile};
use kiln::formats::mbstyle;
use kiln::formats::sentencepiece::{self, Model, ModelType, Piece, PieceType};

/// Writes `.mbstyle`, `.acresult` and `.model` seeds for the fuzz targets.
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
                    contents: Vec::new(),
                })
                .collect(),
            exit_code: 0,
        };
        let bytes = action_result::encode(&result);
        std::fs::write(dir.join(format!("outputs{files}.acresult")), bytes).expect("write");
    }
    // A byte-fallback BPE model's shape: unknown, control, 256 bytes, words.
    let mut pieces = vec![
        piece("<unk>", 0.0, PieceType::Unknown),
        piece("<s>", 0.0, PieceType::Control),
        piece("</s>", 0.0, PieceType::Control),
    ];
    pieces.extend((0..=255u8).map(|b| piece(&format!("<0x{b:02X}>"), 0.0, PieceType::Byte)));
    for (k, w) in ["\u{2581}the", "\u{2581}a", "in", "é", "\u{2581}kiln"]
        .iter()
        .enumerate()
    {
        pieces.push(piece(w, -(k as f32) - 0.5, PieceType::Normal));
    }
    pieces.push(piece("<mask>", 0.0, PieceType::UserDefined));
    let model = Model {
        pieces,
        model_type: ModelType::Bpe,
        ..Model::default()
    };
    std::fs::write(dir.join("bpe.model"), sentencepiece::encode(&model)).expect("write");
}

fn piece(text: &str, score: f32, kind: PieceType) -> Piece {
    Piece {
        piece: text.into(),
        score,
        kind,
    }
}
