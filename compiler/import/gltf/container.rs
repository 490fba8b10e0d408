//! The container: a binary GLB (read by [`crate::formats::glb`]) or a
//! `.gltf` JSON text.
//!
//! A `.gltf` is recognized by `{` after an optional UTF-8 BOM and
//! whitespace; anything else must be a GLB. Of a GLB, the JSON text is the
//! JSON chunk without its padding ([`glb::Glb::json_text`]) and the BIN
//! chunk is handed on with its padding (a buffer's `byteLength` says how
//! much of it is data). GLB errors keep the codec's byte offsets; input
//! that is neither a GLB nor JSON says so.

use crate::formats::glb;

use super::Error;

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// The JSON text and the GLB-stored binary buffer, if any.
#[derive(Debug)]
pub(crate) struct Container<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

/// Parses the container of the first bytes of a file of `file_len` bytes, as
/// [`parse_head`] asked for them: of a GLB, the BIN chunk may be cut
/// short (to what the buffer needs) and later chunks left unread.
pub(crate) fn parse_prefix(bytes: &[u8], file_len: usize) -> Result<Container<'_>, Error> {
    if let Some(json) = text(bytes) {
        if bytes.len() != file_len {
            return Err(Error(format!(
                "a .gltf is read whole: {} of its {file_len} bytes were given (a bug in kiln)",
                bytes.len()
            )));
        }
        return Ok(Container { json, bin: None });
    }
    match glb::decode_prefix(bytes, file_len).map_err(glb_error)?.glb {
        Some(g) => Ok(Container {
            json: g.json_text(),
            bin: g.bin,
        }),
        None => Err(Error(format!(
            "the first {} bytes do not hold the glb's json chunk (a bug in kiln)",
            bytes.len()
        ))),
    }
}

/// What the first bytes of a file say about reading it.
pub(crate) enum Head<'a> {
    /// Read the first `n` bytes (more than were given) and ask again.
    More(usize),
    /// The JSON text is there; of a GLB, the BIN chunk's data starts at
    /// this byte and is this long.
    Json {
        json: &'a [u8],
        bin_at: Option<(usize, usize)>,
    },
}

/// Reads the framing of a file of `file_len` bytes from its first bytes
/// `head`: a `.gltf` is read whole; of a GLB, the header, the JSON chunk
/// and the chunk headers up to the BIN chunk's data. A GLB's header and
/// chunk lengths are checked against `file_len` here, before any more of
/// it is read.
pub(crate) fn parse_head(head: &[u8], file_len: usize) -> Result<Head<'_>, Error> {
    let have = head.len().min(file_len);
    let head = &head[..have];
    if let Some(json) = text(head) {
        return Ok(match have < file_len {
            true => Head::More(file_len),
            false => Head::Json { json, bin_at: None },
        });
    }
    // Nothing but white space yet: a `.gltf`, or not a glTF file at all.
    let blank = |b: &[u8]| {
        b.strip_prefix(UTF8_BOM)
            .unwrap_or(b)
            .iter()
            .all(u8::is_ascii_whitespace)
    };
    if have < file_len && blank(head) {
        return Ok(Head::More(file_len));
    }
    let prefix = glb::decode_prefix(head, file_len).map_err(glb_error)?;
    match prefix.glb {
        Some(g) if prefix.need <= have => Ok(Head::Json {
            json: g.json_text(),
            bin_at: prefix.bin_at,
        }),
        _ => Ok(Head::More(prefix.need.max(have + 1).min(file_len))),
    }
}

/// The JSON text of a `.gltf` (without its byte order mark), if `bytes`
/// is one: `{` after an optional UTF-8 BOM and white space.
fn text(bytes: &[u8]) -> Option<&[u8]> {
    let text = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    (first == Some(&b'{')).then_some(text)
}

/// The JSON text in the first bytes of a file, for placing an error: of a
/// GLB, the JSON chunk's data (as much of it as `bytes` holds).
pub(crate) fn json_within(bytes: &[u8]) -> Option<&[u8]> {
    if let Some(json) = text(bytes) {
        return Some(json);
    }
    let length = bytes.get(glb::offsets::FIRST_CHUNK..glb::offsets::FIRST_CHUNK + 4)?;
    let length = u32::from_le_bytes(length.try_into().ok()?) as usize;
    let start = glb::HEADER_BYTES + glb::CHUNK_HEADER_BYTES;
    let end = start.saturating_add(length).min(bytes.len());
    let json = bytes.get(start..end)?;
    Some(glb::Glb { json, bin: None }.json_text())
}

/// The codec's error as an import error. The two that mean "not a GLB at
/// all" also say that the input is not a `.gltf` either.
fn glb_error(e: glb::Error) -> Error {
    match e {
        glb::Error::TooShort { len } => Error::at(
            "at byte 0",
            format!("not a glb (12-byte header) nor a .gltf (json object): only {len} bytes"),
        ),
        glb::Error::Magic { .. } => Error::at(
            "at byte 0",
            "not a glb (magic is not \"glTF\") nor a .gltf (json object)",
        ),
        other => Error(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_whole(bytes: &[u8]) -> Result<Container<'_>, Error> {
        parse_prefix(bytes, bytes.len())
    }

    #[test]
    fn accepts_gltf_text_with_bom() {
        let c = parse_whole(b"\xEF\xBB\xBF \n{\"asset\":{}}").unwrap();
        assert_eq!(c.json, b" \n{\"asset\":{}}");
        assert!(c.bin.is_none());
    }

    #[test]
    fn glb_json_loses_its_padding_and_bin_keeps_it() {
        let bytes = glb::encode(b"\xEF\xBB\xBF{}\0", Some(&[1, 2]));
        let c = parse_whole(&bytes).unwrap();
        assert_eq!(c.json, b"{}");
        assert_eq!(c.bin, Some(&[1u8, 2, 0, 0][..]));
    }

    #[test]
    fn neither_glb_nor_gltf() {
        let e = parse_whole(b"glTF").unwrap_err();
        assert!(
            e.0.starts_with("at byte 0: not a glb (12-byte header)"),
            "{e}"
        );
        let e = parse_whole(b"GLTF\x02\0\0\0\x0c\0\0\0").unwrap_err();
        assert!(e.0.starts_with("at byte 0: not a glb (magic"), "{e}");
    }

    #[test]
    fn rejects_length_mismatch() {
        let mut bytes = glb::encode(b"{}", None);
        bytes.extend_from_slice(&[0; 4]);
        let e = parse_whole(&bytes).unwrap_err();
        assert!(e.0.starts_with("at byte 8:"), "{e}");
    }
}
