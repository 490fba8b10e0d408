//! Fuzz SentencePiece's model decoder (`formats::sentencepiece`): any
//! bytes named as a `tokenizer.model` must decode to a valid model or be
//! refused at a byte within them, never panic; what decodes encodes and
//! reads back the same.
//!
//! Run: `bash fuzz/run.sh SECONDS sentencepiece_decode` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/sentencepiece_decode/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::sentencepiece_decode(bytes));
