//! Pure format codecs: bytes in, values out.
//!
//! Nothing under `formats/` touches the file system, spawns threads, reads
//! the environment or prints. Each module names its spec (under
//! `docs/formats/`), states its limits as named constants, and offers
//! `decode`, `encode` and `validate`.

pub mod action_result;
pub mod cgeo;
pub mod cursor;
pub mod gguf;
pub mod glb;
pub mod kchr;
pub mod mbreplay;
pub mod mbstyle;
pub mod motionbricks;
pub mod ospc;
pub mod qoi;
pub mod safetensors;

/// Lowercase hex of `bytes` (hashes in metadata, manifests and reports).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}
