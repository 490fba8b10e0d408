//! Writing a valid pose cache.

use super::rules::pose_values;
use super::validate::validate;
use super::{Error, MAGIC, PoseCache, VERSION};

/// Writes a pose cache. Fails with [`Error::Invalid`] (every problem that
/// [`validate`] finds) rather than write a file that [`decode`](fn@super::decode) rejects.
pub fn encode(cache: &PoseCache) -> Result<Vec<u8>, Error> {
    let problems = validate(cache);
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    // Validation bounds the length by MAX_FILE_BYTES.
    let len = cache.encoded_len().unwrap_or(0);
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // flags
    out.push(cache.dimensions);
    out.push(0); // reserved u8
    out.extend_from_slice(&0u16.to_le_bytes()); // reserved u16
    // Counts fit in u32: validation checked them against their limits.
    out.extend_from_slice(&(cache.entities.len() as u32).to_le_bytes());
    out.extend_from_slice(&(cache.n_frames() as u32).to_le_bytes());
    out.extend_from_slice(&cache.start_step.to_le_bytes());
    out.extend_from_slice(&cache.metres_per_unit.to_bits().to_le_bytes());
    for t in cache.texts() {
        write_text(&mut out, t);
    }
    for e in &cache.entities {
        out.extend_from_slice(&e.id.to_le_bytes());
        out.push(e.shape.code());
        out.extend_from_slice(&[0, 0, 0]);
        for v in e.size {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
        write_text(&mut out, &e.name);
    }
    for p in &cache.poses {
        for v in pose_values(p) {
            out.extend_from_slice(&v.to_bits().to_le_bytes());
        }
    }
    debug_assert_eq!(out.len(), len);
    Ok(out)
}

fn write_text(out: &mut Vec<u8>, t: &str) {
    // Validation checked t.len() <= MAX_TEXT_BYTES, which fits in u16.
    out.extend_from_slice(&(t.len() as u16).to_le_bytes());
    out.extend_from_slice(t.as_bytes());
}
