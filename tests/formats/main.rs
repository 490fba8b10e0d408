//! The fast tier's codecs: every format kiln reads or writes, on its golden
//! files, its rule tables, truncations and hostile counts (one module per
//! format). Tests that need an outside oracle (Pillow, gguf-py, the SIMD
//! JPEG build, the spec-written Python encoders) are
//! `#[ignore = "full tier: ..."]` and run by `bash tests/full.sh`.

#[allow(dead_code)]
#[path = "../alloc_support/mod.rs"]
mod alloc_support;
#[allow(dead_code)]
#[path = "../guard_support/mod.rs"]
mod guard_support;
#[allow(dead_code)]
#[path = "../pillow_support/mod.rs"]
mod pillow_support;
#[path = "../../examples/synth/mod.rs"]
mod synth;

#[global_allocator]
static ALLOC: alloc_support::Tracking = alloc_support::Tracking;

mod action_result;
mod cgeo;
mod glb;
mod images;
mod kchr;
mod mbreplay;
mod mbstyle;
mod model_formats;
mod ospc;
mod qoi;
mod sentencepiece;
