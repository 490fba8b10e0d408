//! The GLB container of glTF 2.0 (`.glb`). Spec: `docs/formats/glb.md`.
//!
//! A GLB is a 12-byte header (magic `glTF`, version 2, total length) and
//! then chunks, each an 8-byte header (length, type) and its data: first
//! the JSON chunk, then optionally the BIN chunk, then chunks of other
//! types, which readers skip. This module reads and writes that framing
//! only; what the JSON says is the importer's business
//! (`import::gltf`).
//!
//! The codec is pure: bytes in, values out. It touches no files, spawns no
//! threads and prints nothing. Errors name the byte offset and the rule;
//! the caller prefixes the input's name.
//!
//! # Guarantees
//!
//! - [`decode`] allocates nothing: a [`Glb`] borrows its chunks from the
//!   input. Every length is checked against the bytes that are there, with
//!   checked arithmetic, before it is used.
//! - [`decode`] returns the chunks exactly as stored, padding included, so
//!   [`encode`] of a decoded GLB gives back the input bytes when the input
//!   has no skipped chunks (and its JSON and BIN prefix otherwise, with the
//!   header's length adjusted).
//! - [`validate`] accepts every decoded [`Glb`], and [`encode`] of anything
//!   [`validate`] accepts succeeds and decodes to the same chunks (padded
//!   to 4 bytes).
//!
//! # Limits
//!
//! [`MAX_FILE_BYTES`]: the header's length is a `u32`.
//!
//! # Lenient readings
//!
//! The rules are glTF 2.0's (section 4.4, "GLB File Format
//! Specification"), read strictly, with two exceptions that real writers
//! need, both confined to [`Glb::json_text`]: JSON padding of NUL bytes
//! (the spec says spaces) and a UTF-8 byte order mark (the spec forbids
//! one) are dropped rather than rejected.

pub use super::problem::Problem;
use std::fmt;

use super::cursor::{self, Cursor};

/// The first four bytes of every GLB: `glTF`.
pub const MAGIC: [u8; 4] = *b"glTF";
/// The only container version this codec reads and writes (glTF 2.0).
pub const VERSION: u32 = 2;
/// Bytes of the file header: magic, version, length.
pub const HEADER_BYTES: usize = 12;
/// Bytes of a chunk header: length, type.
pub const CHUNK_HEADER_BYTES: usize = 8;
/// Every chunk starts and ends on a multiple of this many bytes.
pub const ALIGNMENT: usize = 4;
/// The JSON chunk's type: `JSON` read as a little-endian `u32`.
pub const CHUNK_JSON: u32 = u32::from_le_bytes(*b"JSON");
/// The BIN chunk's type: `BIN\0` read as a little-endian `u32`.
pub const CHUNK_BIN: u32 = u32::from_le_bytes(*b"BIN\0");
/// Most bytes a GLB may have: the header stores the total length as a
/// `u32`, so a larger file cannot be described (4 GiB - 1).
pub const MAX_FILE_BYTES: usize = u32::MAX as usize;
/// The byte [`encode`] pads the JSON chunk with (a space, as glTF says).
pub const JSON_PADDING: u8 = b' ';
/// The byte [`encode`] pads the BIN chunk with (zero, as glTF says).
pub const BIN_PADDING: u8 = 0;

/// Byte offsets of the header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 4;
    pub const LENGTH: usize = 8;
    /// The JSON chunk's header.
    pub const FIRST_CHUNK: usize = 12;
}

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// A decoded GLB: the data of its JSON chunk and of its BIN chunk, if any,
/// borrowed from the input, each exactly as stored (a multiple of 4 bytes,
/// padding included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glb<'a> {
    /// The JSON chunk's data, with its padding; see [`Glb::json_text`].
    pub json: &'a [u8],
    /// The BIN chunk's data, with its padding (a buffer's `byteLength` may
    /// be up to 3 bytes shorter).
    pub bin: Option<&'a [u8]>,
}

impl<'a> Glb<'a> {
    /// The JSON text without its chunk padding: trailing spaces and NULs
    /// dropped (glTF pads with spaces; some writers use NULs), then a
    /// leading UTF-8 byte order mark dropped.
    pub fn json_text(&self) -> &'a [u8] {
        let end = self
            .json
            .iter()
            .rposition(|&b| b != 0 && b != b' ')
            .map_or(0, |p| p + 1);
        let json = &self.json[..end];
        json.strip_prefix(UTF8_BOM).unwrap_or(json)
    }

    /// The number of bytes [`encode`] writes for this GLB, if it fits
    /// [`MAX_FILE_BYTES`].
    pub fn encoded_len(&self) -> Option<usize> {
        encoded_len(self.json, self.bin)
    }
}

/// Why [`decode`] or [`validate`] failed. Every decode error has the byte
/// offset of the field that broke the rule ([`Error::offset`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Fewer than [`HEADER_BYTES`] bytes.
    TooShort { len: usize },
    /// The first four bytes are not [`MAGIC`].
    Magic { found: [u8; 4] },
    /// The version is not [`VERSION`].
    Version { found: u32 },
    /// The header's total length is not the input's length.
    Length { declared: u32, len: usize },
    /// A byte-level rule of the shared cursor: a chunk header cut off.
    Bytes(cursor::Error),
    /// Chunk `index`'s data runs past the end of the input.
    ChunkOverrun {
        offset: u64,
        index: usize,
        length: u32,
        len: usize,
    },
    /// Chunk `index`'s length is not a multiple of [`ALIGNMENT`].
    ChunkUnaligned {
        offset: u64,
        index: usize,
        length: u32,
    },
    /// The first chunk is not [`CHUNK_JSON`].
    FirstNotJson { offset: u64, kind: u32 },
    /// A second JSON chunk.
    SecondJson { offset: u64 },
    /// A BIN chunk that is not the second chunk (a second BIN, or one after
    /// a chunk of another type).
    MisplacedBin { offset: u64 },
    /// A header and no chunk at all.
    NoJson,
    /// [`validate`]: the chunks would make a GLB longer than
    /// [`MAX_FILE_BYTES`].
    TooLarge,
}

impl Error {
    /// The rule broken, without the byte it was found at ([`Error::offset`]).
    pub fn rule(&self) -> String {
        match self {
            Error::TooShort { len } => {
                format!("a glb starts with a 12-byte header, the file has only {len} bytes")
            }
            Error::Magic { found } => {
                format!("glb magic must be \"glTF\", found {}", show_magic(found))
            }
            Error::Version { found } => {
                format!("glb version is {found}, only version 2 is supported")
            }
            Error::Length { declared, len } => {
                format!("glb header length {declared} differs from the file's {len} bytes")
            }
            Error::Bytes(e) => e.rule(),
            Error::ChunkOverrun {
                index, length, len, ..
            } => format!("glb chunk {index} of {length} bytes overruns the file's {len} bytes"),
            Error::ChunkUnaligned { index, length, .. } => {
                format!("glb chunk {index} length {length} is not a multiple of 4")
            }
            Error::FirstNotJson { kind, .. } => {
                format!("the first glb chunk must be JSON, found type 0x{kind:08x}")
            }
            Error::SecondJson { .. } => "a glb may hold only one JSON chunk".to_string(),
            Error::MisplacedBin { .. } => {
                "the BIN chunk must be the second glb chunk, and only one is allowed".to_string()
            }
            Error::NoJson => "glb has no JSON chunk".to_string(),
            Error::TooLarge => {
                format!("a glb of these chunks would exceed the limit of {MAX_FILE_BYTES} bytes")
            }
        }
    }
}

super::at_byte_error!(Error);

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

fn show_magic(found: &[u8; 4]) -> String {
    format!("{:?} ({})", String::from_utf8_lossy(found), hex(found))
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Error {
    /// The byte offset a decode error points at (`None` for
    /// [`Error::TooLarge`], which is about chunks, not bytes).
    pub fn offset(&self) -> Option<u64> {
        Some(match self {
            Error::TooShort { .. } | Error::Magic { .. } => offsets::MAGIC as u64,
            Error::Version { .. } => offsets::VERSION as u64,
            Error::Length { .. } => offsets::LENGTH as u64,
            Error::NoJson => offsets::FIRST_CHUNK as u64,
            Error::Bytes(e) => e.offset(),
            Error::ChunkOverrun { offset, .. }
            | Error::ChunkUnaligned { offset, .. }
            | Error::FirstNotJson { offset, .. }
            | Error::SecondJson { offset }
            | Error::MisplacedBin { offset } => *offset,
            Error::TooLarge => return None,
        })
    }
}

impl fmt::Display for Glb<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bin {
            Some(bin) => write!(
                f,
                "glb: {} bytes of json, {} bytes of bin",
                self.json.len(),
                bin.len()
            ),
            None => write!(f, "glb: {} bytes of json, no bin", self.json.len()),
        }
    }
}

/// Reads a GLB's header and chunks.
///
/// Rejects: fewer than 12 bytes, a wrong magic or version, a header length
/// that is not the input's length, a chunk header cut off, a chunk that
/// overruns the input or whose length is not a multiple of 4, a first
/// chunk that is not JSON, a second JSON chunk, a BIN chunk anywhere but
/// second, no chunk at all. Chunks of other types are skipped (glTF 2.0,
/// 4.4.3.1).
pub fn decode(bytes: &[u8]) -> Result<Glb<'_>, Error> {
    let prefix = decode_prefix(bytes, bytes.len())?;
    debug_assert_eq!(prefix.need, bytes.len());
    prefix.glb.ok_or(Error::NoJson)
}

/// What [`decode_prefix`] found in the first bytes of a GLB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefix<'a> {
    /// The chunks, once the JSON chunk is in the prefix; `bin` holds what
    /// the prefix has of the BIN chunk's data (all of it, or its start).
    pub glb: Option<Glb<'a>>,
    /// How many leading bytes the framing needs to be read (the header,
    /// the JSON chunk and the chunk headers up to the BIN chunk's data):
    /// more than the prefix while something is missing.
    pub need: usize,
    /// Where the BIN chunk's data starts in the file, and its length.
    pub bin_at: Option<(usize, usize)>,
}

/// Reads the framing of a GLB of `file_len` bytes from its first bytes:
/// [`decode`]'s rules, on what the prefix holds. The BIN chunk's data may
/// be cut short (a reader takes of it what the asset's buffer needs), and
/// chunks after the first one the prefix does not hold whole are not read.
/// With the whole file it is [`decode`].
pub fn decode_prefix(bytes: &[u8], file_len: usize) -> Result<Prefix<'_>, Error> {
    let have = bytes.len().min(file_len);
    let bytes = &bytes[..have];
    let more = |need: usize| Prefix {
        glb: None,
        need: need.min(file_len),
        bin_at: None,
    };
    if have < HEADER_BYTES && have < file_len {
        return Ok(more(HEADER_BYTES));
    }
    if have < HEADER_BYTES {
        return Err(Error::TooShort { len: have });
    }
    let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let mut header = Cursor::at(bytes, offsets::VERSION);
    let version = header.u32("glb version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let declared = header.u32("glb length")?;
    if usize::try_from(declared) != Ok(file_len) {
        return Err(Error::Length {
            declared,
            len: file_len,
        });
    }

    let mut json = None;
    let mut bin = None;
    let mut bin_at = None;
    let mut at = HEADER_BYTES;
    let mut index = 0usize;
    while at < file_len {
        if at + CHUNK_HEADER_BYTES > have && have < file_len {
            // The JSON chunk's header, and the next one's (the BIN chunk,
            // if any) are needed; later ones are not.
            if index <= 1 {
                return Ok(more(at + CHUNK_HEADER_BYTES));
            }
            break;
        }
        let mut chunk = Cursor::at(bytes, at);
        let length = chunk.u32("glb chunk length")?;
        let kind = chunk.u32("glb chunk type")?;
        // `at + 8 <= have` now, so `start` cannot overflow.
        let start = at + CHUNK_HEADER_BYTES;
        let end = usize::try_from(length)
            .ok()
            .and_then(|l| start.checked_add(l))
            .filter(|&end| end <= file_len);
        let Some(end) = end else {
            return Err(Error::ChunkOverrun {
                offset: at as u64,
                index,
                length,
                len: file_len,
            });
        };
        if !(length as usize).is_multiple_of(ALIGNMENT) {
            return Err(Error::ChunkUnaligned {
                offset: at as u64,
                index,
                length,
            });
        }
        let data = &bytes[start.min(have)..end.min(have)];
        match (index, kind) {
            (0, CHUNK_JSON) if end > have => return Ok(more(end)),
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                return Err(Error::FirstNotJson {
                    offset: at as u64,
                    kind,
                });
            }
            (_, CHUNK_JSON) => return Err(Error::SecondJson { offset: at as u64 }),
            (1, CHUNK_BIN) => {
                bin = Some(data);
                bin_at = Some((start, end - start));
            }
            (_, CHUNK_BIN) => return Err(Error::MisplacedBin { offset: at as u64 }),
            // Unknown chunk types must be ignored (glTF 2.0, 4.4.3.1).
            _ => {}
        }
        if end > have {
            break;
        }
        at = end;
        index += 1;
    }
    match json {
        Some(json) => Ok(Prefix {
            glb: Some(Glb { json, bin }),
            need: have,
            bin_at,
        }),
        None => Err(Error::NoJson),
    }
}

/// Every problem that keeps `json` and `bin` from making a GLB: its
/// length, padding included, must be at most [`MAX_FILE_BYTES`]. Every
/// [`Glb`] that [`decode`] returns has none.
pub fn validate(json: &[u8], bin: Option<&[u8]>) -> Vec<Problem> {
    match encoded_len(json, bin) {
        Some(_) => Vec::new(),
        None => vec![Problem::of("", Error::TooLarge.to_string())],
    }
}

/// The length of `encode(json, bin)`, if it is at most
/// [`MAX_FILE_BYTES`].
pub fn encoded_len(json: &[u8], bin: Option<&[u8]>) -> Option<usize> {
    encoded_len_of(json.len(), bin.map(<[u8]>::len))
}

/// [`encoded_len`] from the chunks' lengths.
fn encoded_len_of(json: usize, bin: Option<usize>) -> Option<usize> {
    let chunk = |len: usize| {
        len.checked_next_multiple_of(ALIGNMENT)?
            .checked_add(CHUNK_HEADER_BYTES)
    };
    let mut total = HEADER_BYTES.checked_add(chunk(json)?)?;
    if let Some(bin) = bin {
        total = total.checked_add(chunk(bin)?)?;
    }
    (total <= MAX_FILE_BYTES).then_some(total)
}

/// Writes a GLB of a JSON chunk holding `json` padded with spaces and, if
/// given, a BIN chunk holding `bin` padded with zeros, each to a multiple
/// of 4 bytes. (`Some(&[])` writes an empty BIN chunk.)
///
/// # Panics
///
/// If [`validate`] rejects the chunks: a GLB cannot be longer than
/// [`MAX_FILE_BYTES`].
pub fn encode(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let Some(total) = encoded_len(json, bin) else {
        panic!("{}", Error::TooLarge);
    };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&u32_len(total).to_le_bytes());
    write_chunk(&mut out, CHUNK_JSON, json, JSON_PADDING);
    if let Some(bin) = bin {
        write_chunk(&mut out, CHUNK_BIN, bin, BIN_PADDING);
    }
    debug_assert_eq!(out.len(), total);
    out
}

fn write_chunk(out: &mut Vec<u8>, kind: u32, data: &[u8], pad: u8) {
    let padded = data.len().next_multiple_of(ALIGNMENT);
    out.extend_from_slice(&u32_len(padded).to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(data);
    out.resize(out.len() + (padded - data.len()), pad);
}

/// A length already checked against [`MAX_FILE_BYTES`].
fn u32_len(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest JSON chunk that fits, and one byte more. The zeroed
    /// buffers are mapped lazily: they cost address space, not memory.
    #[test]
    fn validate_refuses_one_byte_past_the_file_limit() {
        let fits = MAX_FILE_BYTES - HEADER_BYTES - CHUNK_HEADER_BYTES - 3; // 4294967272
        assert_eq!(fits % ALIGNMENT, 0);
        let json = vec![0u8; fits + 1];
        assert!(validate(&json[..fits], None).is_empty());
        let too_large = vec![Problem::of("", Error::TooLarge.to_string())];
        assert_eq!(validate(&json, None), too_large);
        assert_eq!(validate(&json[..8], Some(&json[..fits])), too_large);
        assert!(validate(b"{}", Some(b"")).is_empty());
    }

    /// A GLB of raw chunks, header length fixed up.
    fn glb(chunks: &[(u32, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
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
        let g = decode(&bytes).unwrap();
        assert_eq!(g.json, b"{}  ");
        assert_eq!(g.json_text(), b"{}");
        assert_eq!(g.bin, Some(&[1u8, 2, 3, 4][..]));
        // Re-encoding drops the skipped chunk.
        let again = encode(g.json, g.bin);
        assert_eq!(
            again,
            glb(&[(CHUNK_JSON, b"{}  "), (CHUNK_BIN, &[1, 2, 3, 4])])
        );
    }

    #[test]
    fn unknown_chunk_in_second_place_means_no_bin() {
        let bytes = glb(&[(CHUNK_JSON, b"{}  "), (0x55, &[0; 4])]);
        assert_eq!(decode(&bytes).unwrap().bin, None);
    }

    #[test]
    fn rejects_misplaced_and_unaligned_chunks() {
        let e = decode(&glb(&[(CHUNK_BIN, &[0; 4])])).unwrap_err();
        assert_eq!(
            e,
            Error::FirstNotJson {
                offset: 12,
                kind: CHUNK_BIN
            }
        );
        let e = decode(&glb(&[(CHUNK_JSON, b"{} ")])).unwrap_err();
        assert!(e.to_string().contains("not a multiple of 4"), "{e}");
        let e = decode(&glb(&[
            (CHUNK_JSON, b"{}  "),
            (0x55, &[0; 4]),
            (CHUNK_BIN, &[0; 4]),
        ]))
        .unwrap_err();
        assert_eq!(e, Error::MisplacedBin { offset: 36 });
        let e = decode(&glb(&[(CHUNK_JSON, b"{}  "), (CHUNK_JSON, b"{}  ")])).unwrap_err();
        assert_eq!(e, Error::SecondJson { offset: 24 });
        let e = decode(&glb(&[])).unwrap_err();
        assert_eq!(e, Error::NoJson);
        assert_eq!(e.offset(), Some(12));
    }

    /// Every prefix of a GLB: the framing asks for the header, the JSON
    /// chunk and the next chunk's header, then is done; the BIN chunk's
    /// data is given as far as the prefix holds it; rules broken in the
    /// prefix are refused from it. The whole file is `decode`.
    #[test]
    fn a_prefix_asks_for_the_framing_and_no_more() {
        let bytes = glb(&[
            (CHUNK_JSON, b"{}  "),
            (CHUNK_BIN, &[1, 2, 3, 4, 5, 6, 7, 8]),
            (0x55, &[9; 4]),
        ]);
        let len = bytes.len();
        let mut asked = Vec::new();
        for cut in 0..=len {
            let p = decode_prefix(&bytes[..cut], len).unwrap();
            if p.need > cut {
                assert!(p.glb.is_none(), "{cut}");
                asked.push(p.need);
                continue;
            }
            let g = p.glb.unwrap();
            assert_eq!(g.json, b"{}  ");
            assert_eq!(p.bin_at, Some((32, 8)));
            let bin = g.bin.unwrap();
            assert_eq!(bin, &[1, 2, 3, 4, 5, 6, 7, 8][..(cut.min(40) - 32)]);
        }
        asked.dedup();
        assert_eq!(
            asked,
            [12, 20, 24, 32],
            "header, chunk header, JSON, BIN header"
        );
        assert_eq!(
            decode_prefix(&bytes, len).unwrap().glb,
            Some(decode(&bytes).unwrap())
        );
        // A header length that is not the file's, or a chunk past its end,
        // is refused from the first bytes.
        assert_eq!(
            decode_prefix(&bytes[..12], len + 4).unwrap_err(),
            Error::Length {
                declared: len as u32,
                len: len + 4
            }
        );
        let mut huge = bytes.clone();
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = decode_prefix(&huge[..20], len).unwrap_err();
        assert_eq!(e.offset(), Some(12), "{e}");
        // Only a whole file may lack a JSON chunk.
        assert_eq!(
            decode_prefix(&glb(&[])[..12], 12).unwrap_err(),
            Error::NoJson
        );
    }

    #[test]
    fn json_text_drops_nul_and_space_padding_and_a_bom() {
        let g = Glb {
            json: b"\xEF\xBB\xBF{}\0 ",
            bin: None,
        };
        assert_eq!(g.json_text(), b"{}");
        let g = Glb {
            json: b"    ",
            bin: None,
        };
        assert_eq!(g.json_text(), b"");
    }

    #[test]
    fn encode_pads_json_with_spaces_and_bin_with_zeros() {
        let out = encode(b"{\"a\":1}", Some(&[7]));
        let g = decode(&out).unwrap();
        assert_eq!(g.json, b"{\"a\":1} ");
        assert_eq!(g.bin, Some(&[7u8, 0, 0, 0][..]));
        assert_eq!(out.len(), 12 + 8 + 8 + 8 + 4);
        assert_eq!(g.encoded_len(), Some(out.len()));
        let out = encode(b"{}", Some(&[]));
        assert_eq!(decode(&out).unwrap().bin, Some(&[][..]));
        let out = encode(b"{}", None);
        assert_eq!(decode(&out).unwrap().bin, None);
    }

    #[test]
    fn the_length_limit() {
        assert_eq!(encoded_len(&[], None), Some(20));
        assert!(validate(&[], None).is_empty());
        assert!(validate(&[], Some(&[])).is_empty());
        // Lengths too large to allocate: the arithmetic alone.
        let max = MAX_FILE_BYTES;
        assert_eq!(encoded_len_of(max - 23, None), Some(max - 3));
        assert_eq!(encoded_len_of(max - 20, None), None, "pads to 4");
        assert_eq!(encoded_len_of(max - 23, Some(0)), None);
        assert_eq!(encoded_len_of(4, Some(max - 35)), Some(max - 3));
        assert_eq!(encoded_len_of(4, Some(max - 34)), None);
        assert_eq!(encoded_len_of(usize::MAX, None), None);
        assert_eq!(encoded_len_of(4, Some(usize::MAX - 2)), None);
        assert_eq!(Error::TooLarge.offset(), None);
    }
}
