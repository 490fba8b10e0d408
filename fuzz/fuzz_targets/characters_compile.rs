//! Fuzz the character compiler from glTF bytes: import the scene, compile
//! every clip into a bank, select the skin and meshes, run the material
//! stage, bind and compile the model. Nothing may panic, and a document the
//! stages make either encodes (so it is valid) or is refused by
//! `kchr::encode` with problems, never with a panic.
//!
//! Run: `bash fuzz/run.sh SECONDS characters_compile` (after `bash fuzz/seed.sh`); a crash
//! found is kept in `tests/corpus/fuzz-regressions/characters_compile/`.

#![no_main]

#[path = "../properties.rs"]
mod properties;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| properties::characters_compile(bytes));
