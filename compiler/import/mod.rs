//! Importers: source formats in, the in-memory model out.
//!
//! Importers are pure like the codecs: they take bytes (and, for sources
//! that refer to other files, those files' bytes, fetched by the caller),
//! never paths.

pub mod gltf;
pub mod image;
