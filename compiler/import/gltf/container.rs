//! The container: a binary GLB (header, JSON chunk, optional BIN chunk) or
//! a `.gltf` JSON text.
//!
//! Rejects: a wrong magic or version, a total length that differs from the
//! byte count, a chunk that overruns the file or is not 4-byte aligned, a
//! first chunk that is not JSON, a second BIN chunk or a BIN chunk that is
//! not the second chunk. Unknown chunk types are skipped, as the GLB spec
//! says. A `.gltf` is recognized by `{` after an optional UTF-8 BOM and
//! whitespace.

use super::Error;

/// `glTF` in little-endian.
const GLB_MAGIC: u32 = 0x4654_6C67;
const GLB_VERSION: u32 = 2;
const HEADER_BYTES: usize = 12;
const CHUNK_HEADER_BYTES: usize = 8;
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// The JSON text and the GLB-stored binary buffer, if any.
#[derive(Debug)]
pub(crate) struct Container<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Container<'_>, Error> {
    let text = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        return Ok(Container {
            json: text,
            bin: None,
        });
    }
    parse_glb(bytes)
}

fn u32_at(bytes: &[u8], at: usize) -> Result<u32, Error> {
    let end = at.checked_add(4);
    match end.and_then(|end| bytes.get(at..end)) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(Error::at(
            format!("at byte {at}"),
            format!(
                "glb is truncated: needs 4 more bytes, the file has {}",
                bytes.len()
            ),
        )),
    }
}

fn parse_glb(bytes: &[u8]) -> Result<Container<'_>, Error> {
    if bytes.len() < HEADER_BYTES {
        return Err(Error::at(
            "at byte 0",
            format!(
                "not a glb (12-byte header) nor a .gltf (json object): only {} bytes",
                bytes.len()
            ),
        ));
    }
    if u32_at(bytes, 0)? != GLB_MAGIC {
        return Err(Error::at(
            "at byte 0",
            "not a glb (magic is not \"glTF\") nor a .gltf (json object)",
        ));
    }
    let version = u32_at(bytes, 4)?;
    if version != GLB_VERSION {
        return Err(Error::at(
            "at byte 4",
            format!("glb version is {version}, only version 2 is supported"),
        ));
    }
    let total = u32_at(bytes, 8)? as usize;
    if total != bytes.len() {
        return Err(Error::at(
            "at byte 8",
            format!(
                "glb header length {total} differs from the file's {} bytes",
                bytes.len()
            ),
        ));
    }

    let mut json = None;
    let mut bin = None;
    let mut at = HEADER_BYTES;
    let mut chunk_index = 0usize;
    while at < bytes.len() {
        let length = u32_at(bytes, at)? as usize;
        let kind = u32_at(bytes, at + 4)?;
        let start = at + CHUNK_HEADER_BYTES;
        let end = start.checked_add(length).filter(|&e| e <= bytes.len());
        let Some(end) = end else {
            return Err(Error::at(
                format!("at byte {at}"),
                format!(
                    "glb chunk {chunk_index} of {length} bytes overruns the file's {} bytes",
                    bytes.len()
                ),
            ));
        };
        if !length.is_multiple_of(4) {
            return Err(Error::at(
                format!("at byte {at}"),
                format!("glb chunk {chunk_index} length {length} is not a multiple of 4"),
            ));
        }
        let data = &bytes[start..end];
        match (chunk_index, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                return Err(Error::at(
                    format!("at byte {at}"),
                    format!("the first glb chunk must be JSON, found type 0x{kind:08x}"),
                ));
            }
            (_, CHUNK_JSON) => {
                return Err(Error::at(
                    format!("at byte {at}"),
                    "a glb may hold only one JSON chunk",
                ));
            }
            (1, CHUNK_BIN) => bin = Some(data),
            (_, CHUNK_BIN) => {
                return Err(Error::at(
                    format!("at byte {at}"),
                    "the BIN chunk must be the second glb chunk, and only one is allowed",
                ));
            }
            // Unknown chunk types must be ignored (glTF 2.0, 4.4.3.1).
            _ => {}
        }
        at = end;
        chunk_index += 1;
    }
    let Some(json) = json else {
        return Err(Error::at(
            format!("at byte {HEADER_BYTES}"),
            "glb has no JSON chunk",
        ));
    };
    Ok(Container {
        json: trim_json_padding(json),
        bin,
    })
}

/// Writers pad the JSON chunk with spaces (correct) or NULs (seen in the
/// wild): drop trailing padding so the JSON parser sees only the text.
fn trim_json_padding(json: &[u8]) -> &[u8] {
    let end = json
        .iter()
        .rposition(|&b| b != 0 && b != b' ')
        .map_or(0, |p| p + 1);
    let json = &json[..end];
    json.strip_prefix(UTF8_BOM).unwrap_or(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(chunks: &[(u32, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&GLB_MAGIC.to_le_bytes());
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for (kind, data) in chunks {
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(data);
        }
        let n = out.len() as u32;
        out[8..12].copy_from_slice(&n.to_le_bytes());
        out
    }

    #[test]
    fn reads_json_and_bin_and_skips_unknown_chunks() {
        let bytes = glb(&[
            (CHUNK_JSON, b"{}  "),
            (CHUNK_BIN, &[1, 2, 3, 4]),
            (0x1234_5678, &[9; 8]),
        ]);
        let c = parse(&bytes).unwrap();
        assert_eq!(c.json, b"{}");
        assert_eq!(c.bin, Some(&[1u8, 2, 3, 4][..]));
    }

    #[test]
    fn rejects_misplaced_and_unaligned_chunks() {
        let e = parse(&glb(&[(CHUNK_BIN, &[0; 4])])).unwrap_err();
        assert!(e.0.contains("first glb chunk must be JSON"), "{e}");
        let e = parse(&glb(&[(CHUNK_JSON, b"{} ")])).unwrap_err();
        assert!(e.0.contains("not a multiple of 4"), "{e}");
        let e = parse(&glb(&[
            (CHUNK_JSON, b"{}  "),
            (0x55, &[0; 4]),
            (CHUNK_BIN, &[0; 4]),
        ]))
        .unwrap_err();
        assert!(e.0.contains("second glb chunk"), "{e}");
    }

    #[test]
    fn accepts_gltf_text_with_bom() {
        let c = parse(b"\xEF\xBB\xBF \n{\"asset\":{}}").unwrap();
        assert_eq!(c.json, b" \n{\"asset\":{}}");
        assert!(c.bin.is_none());
    }

    #[test]
    fn rejects_length_mismatch() {
        let mut bytes = glb(&[(CHUNK_JSON, b"{}  ")]);
        bytes.extend_from_slice(&[0; 4]);
        let e = parse(&bytes).unwrap_err();
        assert!(e.0.starts_with("at byte 8:"), "{e}");
    }
}
