//! Pure format codecs: bytes in, values out.
//!
//! Nothing under `formats/` touches the file system, spawns threads, reads
//! the environment or prints. Each module names its spec (under
//! `docs/formats/`), states its limits as named constants, and offers
//! `decode`, `encode` and `validate`.

pub mod cursor;
pub mod glb;
pub mod ospc;
