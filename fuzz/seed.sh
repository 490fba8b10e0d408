#!/usr/bin/env bash
# Seeds every fuzz target's corpus: builds the demo into target/fuzz-seed-out
# (for outputs only a build makes: KCHR and the QOI atlases in them, GGUF)
# and the seeds examples/fuzz_seeds.rs writes (.mbstyle, .acresult, .model) and
# runs fuzz/seeds.py over it and the repository's own files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
rm -rf target/fuzz-seed-out
target/release/kiln build --quiet --out target/fuzz-seed-out
cargo run --release --quiet --example fuzz_seeds -- target/fuzz-seed-out/seeds
python3 fuzz/seeds.py target/fuzz-seed-out
