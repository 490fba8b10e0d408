//! Pure format codecs: bytes in, values out.
//!
//! Nothing under `formats/` touches the file system, spawns threads, reads
//! the environment or prints. Each module names its spec (under
//! `docs/formats/`), states its limits as named constants, and offers
//! `decode`, `encode` and `validate`. `cursor` (the checked byte cursor),
//! `problem` (the one shape of a problem `validate` returns) and
//! `protobuf` (the protocol-buffer wire format) are what codecs share.

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
pub mod problem;
pub mod protobuf;
pub mod qoi;
pub mod safetensors;
pub mod sentencepiece;

/// The one `Display` of a format's error: `at byte N: ` then its rule,
/// from the error's `offset()` (a `u64`, or an `Option<u64>` when some
/// rules have no byte: then the rule alone) and `rule()`; and
/// `std::error::Error`.
macro_rules! at_byte_error {
    ($error:ty) => {
        impl std::fmt::Display for $error {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match Option::<u64>::from(self.offset()) {
                    Some(offset) => write!(f, "at byte {offset}: {}", self.rule()),
                    None => f.write_str(&self.rule()),
                }
            }
        }

        impl std::error::Error for $error {}
    };
}
pub(crate) use at_byte_error;

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

/// A SHA-256 from the 64 lowercase hex digits [`hex`] writes; `None` for
/// anything else.
pub fn sha256_from_hex(text: &str) -> Option<[u8; 32]> {
    let digits = text.as_bytes();
    if digits.len() != 64 {
        return None;
    }
    let nibble = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (k, pair) in digits.chunks_exact(2).enumerate() {
        out[k] = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Some(out)
}
