//! Buffers: where each glTF buffer's bytes come from.
//!
//! A buffer is one of: the GLB BIN chunk (buffer 0 without `uri` in a GLB),
//! a `data:` URI (base64, media type `application/octet-stream` or
//! `application/gltf-buffer`), an external file given by a plain name next
//! to the source (percent-escapes such as `%20` are decoded), or a meshopt
//! fallback buffer (`fallback: true`, no `uri`) whose bytes only ever come
//! from decoding compressed buffer views and so has no data here.
//!
//! Rejects: a `uri` that is a path, absolute, has a scheme other than
//! `data:`, or is longer than [`MAX_URI_BYTES`]; an external file the caller
//! did not provide; a `byteLength` larger than the data.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use super::Error;
use super::json::Document;

/// Longest external `uri` accepted, in bytes: file names are short; a long
/// one is a mistake or an attack (data URIs are not limited by this).
pub const MAX_URI_BYTES: usize = 1024;

const DATA_MEDIA_TYPES: [&str; 2] = ["application/octet-stream", "application/gltf-buffer"];

/// Base64 as in RFC 4648, with or without `=` padding (writers differ).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What a buffer's bytes are. `Data` holds exactly `byteLength` bytes.
pub(crate) enum BufferData<'a> {
    Data(Cow<'a, [u8]>),
    /// A meshopt fallback buffer without a `uri`: no bytes.
    Fallback,
}

/// The decoded, validated external buffer file names, in first-use order
/// without repeats, each with the bytes the asset needs of it (the largest
/// `byteLength` of a buffer that names it).
pub(crate) fn external_needs(doc: &Document) -> Result<Vec<(String, usize)>, Error> {
    let uris = doc.buffers.iter().enumerate();
    file_needs(
        uris.filter_map(|(i, b)| {
            Some((format!("buffers[{i}].uri"), b.uri.as_ref()?, b.byte_length))
        }),
    )
}

/// The decoded, validated file names of the images that materials use as
/// base colour textures (the only images kiln reads), in first-use order
/// without repeats, each needed whole (`usize::MAX`).
pub(crate) fn image_needs(doc: &Document) -> Result<Vec<(String, usize)>, Error> {
    let uris = base_color_images(doc).into_iter();
    file_needs(uris.filter_map(|i| {
        Some((
            format!("images[{i}].uri"),
            doc.images.get(i)?.uri.as_ref()?,
            usize::MAX,
        ))
    }))
}

/// The plain file names of `uris` (each with its JSON path and the bytes
/// it needs) that are not data URIs, checked, in order, each once with the
/// most any of its uses needs.
fn file_needs<'a>(
    uris: impl Iterator<Item = (String, &'a String, usize)>,
) -> Result<Vec<(String, usize)>, Error> {
    let mut needs: Vec<(String, usize)> = Vec::new();
    for (path, uri, need) in uris {
        if is_data_uri(uri) {
            continue;
        }
        let name = plain_name(uri).map_err(|e| e.context(path))?;
        match needs.iter_mut().find(|(n, _)| *n == name) {
            Some(found) => found.1 = found.1.max(need),
            None => needs.push((name, need)),
        }
    }
    Ok(needs)
}

/// The indices of the images some material's base colour texture shows,
/// ascending (indices out of range are left for the material reader to
/// reject).
pub(crate) fn base_color_images(doc: &Document) -> Vec<usize> {
    let mut used: Vec<usize> = doc
        .materials
        .iter()
        .filter_map(|m| {
            m.pbr_metallic_roughness
                .as_ref()?
                .base_color_texture
                .as_ref()
        })
        .filter_map(|t| doc.textures.get(t.index)?.source)
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// The bytes of image `i` given by `uri`: a `data:` URI of a PNG or JPEG,
/// or a file beside the source that the caller provided in `files`.
pub(crate) fn image_uri_bytes<'a>(
    i: usize,
    uri: &str,
    files: &'a [(String, Vec<u8>)],
) -> Result<Cow<'a, [u8]>, Error> {
    let path = format!("images[{i}].uri");
    if is_data_uri(uri) {
        return decode_data_uri(uri, &IMAGE_MEDIA_TYPES)
            .map(Cow::Owned)
            .map_err(|e| e.context(path));
    }
    let name = plain_name(uri).map_err(|e| e.context(&path))?;
    match files.iter().find(|(n, _)| *n == name) {
        Some((_, bytes)) => Ok(Cow::Borrowed(bytes.as_slice())),
        None => Err(Error::at(
            path,
            format!("external image file {name:?} was not provided"),
        )),
    }
}

const IMAGE_MEDIA_TYPES: [&str; 2] = ["image/png", "image/jpeg"];

/// Resolves every buffer of `doc`.
pub(crate) fn resolve<'a>(
    doc: &Document,
    bin: Option<&'a [u8]>,
    externals: &'a [(String, Vec<u8>)],
) -> Result<Vec<BufferData<'a>>, Error> {
    let mut out = Vec::with_capacity(doc.buffers.len());
    for (i, buffer) in doc.buffers.iter().enumerate() {
        let path = format!("buffers[{i}]");
        let data: Cow<'a, [u8]> = match &buffer.uri {
            None if buffer.is_meshopt_fallback() => {
                out.push(BufferData::Fallback);
                continue;
            }
            None => match bin {
                Some(bin) if i == 0 => Cow::Borrowed(bin),
                _ => {
                    return Err(Error::at(
                        &path,
                        "has no uri, and only buffer 0 of a glb with a BIN chunk may omit it",
                    ));
                }
            },
            Some(uri) if is_data_uri(uri) => Cow::Owned(
                decode_data_uri(uri, &DATA_MEDIA_TYPES)
                    .map_err(|e| e.context(format!("{path}.uri")))?,
            ),
            Some(uri) => {
                let name = plain_name(uri).map_err(|e| e.context(format!("{path}.uri")))?;
                let found = externals.iter().find(|(n, _)| *n == name);
                let Some((_, bytes)) = found else {
                    return Err(Error::at(
                        format!("{path}.uri"),
                        format!("external file {name:?} was not provided"),
                    ));
                };
                Cow::Borrowed(bytes.as_slice())
            }
        };
        if buffer.byte_length > data.len() {
            return Err(Error::at(
                format!("{path}.byteLength"),
                format!(
                    "byteLength {} exceeds the {} bytes of data",
                    buffer.byte_length,
                    data.len()
                ),
            ));
        }
        // Only the declared bytes are part of the buffer (the rest is
        // padding, e.g. up to 3 bytes of the BIN chunk).
        let data = match data {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..buffer.byte_length]),
            Cow::Owned(mut v) => {
                v.truncate(buffer.byte_length);
                Cow::Owned(v)
            }
        };
        out.push(BufferData::Data(data));
    }
    Ok(out)
}

fn is_data_uri(uri: &str) -> bool {
    uri.get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
}

fn decode_data_uri(uri: &str, media_types: &[&str]) -> Result<Vec<u8>, Error> {
    let rest = &uri[5..];
    let Some((header, payload)) = rest.split_once(',') else {
        return Err(Error("a data uri needs a ',' before its payload".into()));
    };
    let Some(media) = header.strip_suffix(";base64") else {
        return Err(Error(format!(
            "data uri {header:?} is not base64 (needs \";base64\")"
        )));
    };
    if !media_types.iter().any(|m| m.eq_ignore_ascii_case(media)) {
        return Err(Error(format!(
            "data uri media type {media:?} is not one of {media_types:?}"
        )));
    }
    BASE64
        .decode(payload.trim_end())
        .map_err(|e| Error(format!("data uri base64 is invalid: {e}")))
}

/// A `uri` that names a file beside the source, percent-decoded. Anything
/// that could reach elsewhere (a directory part, `..`, a scheme, a drive
/// letter, an absolute path) is rejected.
fn plain_name(uri: &str) -> Result<String, Error> {
    if uri.len() > MAX_URI_BYTES {
        return Err(Error(format!(
            "uri is {} bytes, longer than {MAX_URI_BYTES}",
            uri.len()
        )));
    }
    let name = percent_decode(uri)?;
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.contains(['/', '\\', ':'])
        || name.chars().any(char::is_control);
    if bad {
        return Err(Error(format!(
            "uri {uri:?} must be a plain file name beside the source (no directory, scheme or \"..\")"
        )));
    }
    Ok(name)
}

fn percent_decode(uri: &str) -> Result<String, Error> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            let Some(b) = hex else {
                return Err(Error(format!("uri {uri:?} has a bad percent-escape")));
            };
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| Error(format!("uri {uri:?} is not utf-8 once decoded")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names() {
        assert_eq!(plain_name("a%20b.bin").unwrap(), "a b.bin");
        for bad in [
            "../x.bin",
            "dir/x.bin",
            "a%2Fb",
            "c:\\x.bin",
            "/abs.bin",
            "http://x/y",
            "..",
            "",
            "%zz",
        ] {
            assert!(plain_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn data_uris() {
        let v = decode_data_uri(
            "data:application/octet-stream;base64,AAEC",
            &DATA_MEDIA_TYPES,
        )
        .unwrap();
        assert_eq!(v, [0, 1, 2]);
        let v = decode_data_uri(
            "data:application/gltf-buffer;base64,AAECAw",
            &DATA_MEDIA_TYPES,
        )
        .unwrap();
        assert_eq!(v, [0, 1, 2, 3]);
        assert!(decode_data_uri("data:text/plain;base64,AAEC", &DATA_MEDIA_TYPES).is_err());
        assert!(decode_data_uri("data:application/octet-stream,AAEC", &DATA_MEDIA_TYPES).is_err());
        assert!(
            decode_data_uri("data:application/octet-stream;base64,@@", &DATA_MEDIA_TYPES).is_err()
        );
        let png = decode_data_uri("data:image/png;base64,iVBO", &IMAGE_MEDIA_TYPES).unwrap();
        assert_eq!(png, [0x89, 0x50, 0x4e]);
        assert!(decode_data_uri("data:image/png;base64,iVBO", &DATA_MEDIA_TYPES).is_err());
        assert!(decode_data_uri("data:image/webp;base64,iVBO", &IMAGE_MEDIA_TYPES).is_err());
    }
}
