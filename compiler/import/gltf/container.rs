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

pub(crate) fn parse(bytes: &[u8]) -> Result<Container<'_>, Error> {
    let text = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        return Ok(Container {
            json: text,
            bin: None,
        });
    }
    match glb::decode(bytes) {
        Ok(g) => Ok(Container {
            json: g.json_text(),
            bin: g.bin,
        }),
        Err(e) => Err(glb_error(e)),
    }
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

    #[test]
    fn accepts_gltf_text_with_bom() {
        let c = parse(b"\xEF\xBB\xBF \n{\"asset\":{}}").unwrap();
        assert_eq!(c.json, b" \n{\"asset\":{}}");
        assert!(c.bin.is_none());
    }

    #[test]
    fn glb_json_loses_its_padding_and_bin_keeps_it() {
        let bytes = glb::encode(b"\xEF\xBB\xBF{}\0", Some(&[1, 2]));
        let c = parse(&bytes).unwrap();
        assert_eq!(c.json, b"{}");
        assert_eq!(c.bin, Some(&[1u8, 2, 0, 0][..]));
    }

    #[test]
    fn neither_glb_nor_gltf() {
        let e = parse(b"glTF").unwrap_err();
        assert!(
            e.0.starts_with("at byte 0: not a glb (12-byte header)"),
            "{e}"
        );
        let e = parse(b"GLTF\x02\0\0\0\x0c\0\0\0").unwrap_err();
        assert!(e.0.starts_with("at byte 0: not a glb (magic"), "{e}");
    }

    #[test]
    fn rejects_length_mismatch() {
        let mut bytes = glb::encode(b"{}", None);
        bytes.extend_from_slice(&[0; 4]);
        let e = parse(&bytes).unwrap_err();
        assert!(e.0.starts_with("at byte 8:"), "{e}");
    }
}
