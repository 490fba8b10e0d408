//! QOI, the "Quite OK Image" format (qoiformat.org, specification 1.0).
//! Spec and kiln's strict readings: `docs/formats/qoi.md`.
//!
//! A 14-byte header (the magic `qoif`, width and height as big-endian u32,
//! channels 3 or 4, colorspace 0 (sRGB with linear alpha) or 1 (all
//! linear)), a stream of ops that together make exactly width × height
//! pixels, and the 8-byte end marker `00 00 00 00 00 00 00 01`.
//!
//! The decoder is kiln's own, not the `qoi` crate's, because it is strict
//! where decoders usually are lenient (see `ARCHITECTURE.md`):
//! - the header's dimensions are checked before anything is allocated:
//!   neither is 0, their product is at most [`MAX_PIXELS`], and at most 62
//!   pixels per byte of op data (a run, the densest op, makes 62 from one
//!   byte), so a 20-byte file cannot ask for gigabytes; and the pixels are
//!   made room for in pieces that follow what the ops really make;
//! - an op that needs more bytes than are left is an error (truncated op);
//! - a run that would make more pixels than the image has left is an error;
//! - after the last pixel comes exactly the end marker, then nothing;
//! - every pixel, including the implicit opaque black a first `QOI_OP_RUN`
//!   repeats, goes into the index (phoboslab/qoi#258: decoders that skip
//!   it turn a later `QOI_OP_INDEX 53` into transparent black).
//!
//! The encoder writes what the reference encoder (`qoi.h`) writes, byte
//! for byte. Decoding always gives RGBA (4 bytes a pixel); `channels`
//! is kept as the header said (the spec makes it informative only).

use std::fmt;

use super::cursor::{self, Cursor};
pub use super::problem::Problem;
use crate::memory;

pub const MAGIC: [u8; 4] = *b"qoif";
pub const HEADER_BYTES: usize = 14;
pub const END_MARKER: [u8; 8] = [0, 0, 0, 0, 0, 0, 0, 1];
/// Most pixels an image may have: 400 million, the reference
/// implementation's `QOI_PIXELS_MAX` (a 20,000 × 20,000 image; kiln's
/// atlases are at most 2,048 × 2,048).
pub const MAX_PIXELS: u64 = 400_000_000;
/// Most pixels one op byte can make: a `QOI_OP_RUN` of 62.
pub const MAX_PIXELS_PER_BYTE: u64 = 62;

const OP_INDEX: u8 = 0x00;
const OP_DIFF: u8 = 0x40;
const OP_LUMA: u8 = 0x80;
const OP_RUN: u8 = 0xc0;
const OP_RGB: u8 = 0xfe;
const OP_RGBA: u8 = 0xff;

/// Byte offsets of the header fields.
pub mod offsets {
    pub const MAGIC: usize = 0;
    pub const WIDTH: usize = 4;
    pub const HEIGHT: usize = 8;
    pub const CHANNELS: usize = 12;
    pub const COLORSPACE: usize = 13;
    /// The first op.
    pub const DATA: usize = 14;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    Rgb = 3,
    Rgba = 4,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colorspace {
    /// sRGB colour with linear alpha (0).
    Srgb = 0,
    /// Every channel linear (1).
    Linear = 1,
}

/// The 14-byte header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub width: u32,
    pub height: u32,
    pub channels: Channels,
    pub colorspace: Colorspace,
}

impl Header {
    /// Width × height.
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

/// A decoded image: RGBA8, row-major, top row first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub header: Header,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

impl Image {
    /// Every pixel's alpha is 255.
    pub fn is_opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p[3] == 255)
    }
}

/// Why [`decode`] or [`encode`] failed: one variant per rule, each with its
/// byte offset ([`Error::offset`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    Magic {
        found: [u8; 4],
    },
    /// Width or height is 0.
    ZeroDimension {
        width: u32,
        height: u32,
    },
    /// More than [`MAX_PIXELS`] pixels.
    TooManyPixels {
        width: u32,
        height: u32,
    },
    /// More pixels than the op bytes could make (62 per byte).
    TooFewBytes {
        pixels: u64,
        data_bytes: usize,
    },
    Channels {
        found: u8,
    },
    Colorspace {
        found: u8,
    },
    /// An op that needs more bytes than the input has left.
    TruncatedOp {
        offset: u64,
        op: &'static str,
        need: usize,
        have: usize,
    },
    /// A run longer than the pixels the image has left.
    RunPastImage {
        offset: u64,
        run: u32,
        left: u64,
    },
    /// After the last pixel, the end marker is missing or wrong.
    EndMarker {
        offset: u64,
    },
    /// The pixels the ops make need more memory than could be had.
    NoMemory {
        offset: u64,
        bytes: u64,
    },
    /// A byte-level rule (the header cut short, bytes after the marker).
    Bytes(cursor::Error),
    /// [`encode`] was given an image [`validate`] rejects.
    Invalid(Vec<Problem>),
}

impl Error {
    /// The byte the error is about (`None` for an image to encode).
    pub fn offset(&self) -> Option<u64> {
        Some(match self {
            Error::Magic { .. } => offsets::MAGIC as u64,
            Error::ZeroDimension { .. } | Error::TooManyPixels { .. } => offsets::WIDTH as u64,
            Error::TooFewBytes { .. } => offsets::DATA as u64,
            Error::Channels { .. } => offsets::CHANNELS as u64,
            Error::Colorspace { .. } => offsets::COLORSPACE as u64,
            Error::TruncatedOp { offset, .. }
            | Error::RunPastImage { offset, .. }
            | Error::EndMarker { offset }
            | Error::NoMemory { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
            Error::Invalid(_) => return None,
        })
    }

    fn rule(&self) -> String {
        match self {
            Error::Magic { found } => format!("magic is {found:02x?}, expected \"qoif\""),
            Error::ZeroDimension { width, height } => {
                format!("image is {width} x {height}: width and height must be at least 1")
            }
            Error::TooManyPixels { width, height } => {
                format!("image is {width} x {height}, more than the limit of {MAX_PIXELS} pixels")
            }
            Error::TooFewBytes { pixels, data_bytes } => format!(
                "{pixels} pixels cannot come from {data_bytes} bytes of ops (at most {MAX_PIXELS_PER_BYTE} pixels a byte)"
            ),
            Error::Channels { found } => format!("channels is {found}, expected 3 or 4"),
            Error::Colorspace { found } => format!("colorspace is {found}, expected 0 or 1"),
            Error::TruncatedOp { op, need, have, .. } => {
                format!("{op} needs {need} bytes, only {have} left: the op is truncated")
            }
            Error::RunPastImage { run, left, .. } => {
                format!("a run of {run} pixels, but only {left} pixels of the image are left")
            }
            Error::EndMarker { .. } => {
                "the end marker 00 00 00 00 00 00 00 01 must follow the last pixel".into()
            }
            Error::NoMemory { bytes, .. } => format!(
                "the pixels, grown as the ops make them, need {bytes} bytes of memory, which could not be had: give kiln more memory"
            ),
            Error::Bytes(e) => e.to_string(),
            Error::Invalid(problems) => super::problem::join(problems),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::Invalid(p) => write!(f, "image is not valid: {}", super::problem::join(p)),
            e => write!(f, "at byte {}: {}", e.offset().unwrap_or(0), e.rule()),
        }
    }
}

impl std::error::Error for Error {}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

/// Reads and checks the header only: the magic, the dimensions (non-zero,
/// at most [`MAX_PIXELS`], and no more than the rest of `bytes` could
/// encode), channels and colorspace. Cheap: a caller that has its own
/// limit on the dimensions checks them here before [`decode`] allocates.
pub fn header(bytes: &[u8]) -> Result<Header, Error> {
    let mut c = Cursor::new(bytes);
    let magic = c.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let width = u32::from_be_bytes(c.array("width")?);
    let height = u32::from_be_bytes(c.array("height")?);
    let [channels, colorspace] = c.array("channels and colorspace")?;
    if width == 0 || height == 0 {
        return Err(Error::ZeroDimension { width, height });
    }
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(Error::TooManyPixels { width, height });
    }
    let channels = match channels {
        3 => Channels::Rgb,
        4 => Channels::Rgba,
        found => return Err(Error::Channels { found }),
    };
    let colorspace = match colorspace {
        0 => Colorspace::Srgb,
        1 => Colorspace::Linear,
        found => return Err(Error::Colorspace { found }),
    };
    let data_bytes = bytes.len().saturating_sub(HEADER_BYTES + END_MARKER.len());
    if pixels > data_bytes as u64 * MAX_PIXELS_PER_BYTE {
        return Err(Error::TooFewBytes { pixels, data_bytes });
    }
    Ok(Header {
        width,
        height,
        channels,
        colorspace,
    })
}

#[inline(always)]
fn hash(p: [u8; 4]) -> usize {
    (p[0]
        .wrapping_mul(3)
        .wrapping_add(p[1].wrapping_mul(5))
        .wrapping_add(p[2].wrapping_mul(7))
        .wrapping_add(p[3].wrapping_mul(11))
        & 63) as usize
}

/// Pixels the decoder first makes room for, at least: 4 M (16 MiB, a
/// 2,048 × 2,048 atlas in one piece). A file that claims more grows its
/// pixels in pieces, each at most the size of what was already decoded,
/// so memory follows what the ops really make, never just the header.
const FIRST_PIECE: usize = 1 << 22;

/// The decoder's state between pieces of the output.
struct State {
    index: [[u8; 4]; 64],
    px: [u8; 4],
    pos: usize,
    /// Pixels of a run not yet written (a run that crossed a piece).
    run: usize,
}

/// Decodes a whole QOI file strictly (see the module docs).
pub fn decode(bytes: &[u8]) -> Result<Image, Error> {
    let header = header(bytes)?;
    let total = header.pixels() as usize;
    let data_bytes = bytes.len() - HEADER_BYTES;
    let mut out: Vec<[u8; 4]> = Vec::new();
    let mut state = State {
        index: [[0; 4]; 64],
        px: [0, 0, 0, 255],
        pos: HEADER_BYTES,
        run: 0,
    };
    // Every pixel goes into the index, runs included; a run's pixel is
    // the one the op before it stored, except when the file starts with a
    // run of the implicit opaque black (phoboslab/qoi#258).
    if bytes
        .get(HEADER_BYTES)
        .is_some_and(|&b| (0xc0..=0xfd).contains(&b))
    {
        state.index[hash(state.px)] = state.px;
    }
    while out.len() < total {
        let done = out.len();
        let piece = (total - done).min(done.max(FIRST_PIECE.max(data_bytes)));
        memory::grow(&mut out, done + piece).map_err(|e| Error::NoMemory {
            offset: state.pos as u64,
            bytes: e.bytes,
        })?;
        decode_piece(bytes, &mut out[done..], total - done, &mut state)?;
    }
    let pos = state.pos;
    if bytes.get(pos..pos + END_MARKER.len()) != Some(&END_MARKER[..]) {
        return Err(Error::EndMarker { offset: pos as u64 });
    }
    Cursor::at(bytes, pos + END_MARKER.len()).finish("end marker")?;
    Ok(Image {
        header,
        rgba: out.into_flattened(),
    })
}

/// Fills `slots` (the next piece of the image; `left` pixels of the image
/// remain from its start) with the pixels of the next ops.
fn decode_piece(
    bytes: &[u8],
    slots: &mut [[u8; 4]],
    left: usize,
    s: &mut State,
) -> Result<(), Error> {
    let n = slots.len();
    let mut px = s.px;
    let index = &mut s.index;
    let mut data = &bytes[s.pos..];
    let mut i = s.run.min(n);
    slots[..i].fill(px);
    let mut carry = s.run - i;
    while i < n {
        // Slice patterns: each op's length is checked by the match itself.
        match data {
            [b1 @ 0x00..=0x3f, rest @ ..] => {
                // Storing the pixel at its hash changes the index only for
                // a slot never written (transparent black, whose hash is
                // 0): every written slot holds a pixel of its own hash.
                px = index[usize::from(*b1)];
                if px == [0; 4] {
                    index[0] = px;
                }
                data = rest;
                slots[i] = px;
                i += 1;
                continue;
            }
            [OP_RGB, r, g, b, rest @ ..] => {
                px = [*r, *g, *b, px[3]];
                data = rest;
            }
            [OP_RGBA, r, g, b, a, rest @ ..] => {
                px = [*r, *g, *b, *a];
                data = rest;
            }
            [b1 @ 0xc0..=0xfd, rest @ ..] => {
                // QOI_OP_RUN: 1..=62 copies of the previous pixel. It is
                // in the index already: every other op stores its pixel,
                // and `decode` stores the implicit first one when the
                // file starts with a run.
                let run = usize::from(b1 & 0x3f) + 1;
                if run > left - i {
                    return Err(Error::RunPastImage {
                        offset: (bytes.len() - data.len()) as u64,
                        run: run as u32,
                        left: (left - i) as u64,
                    });
                }
                let k = run.min(n - i);
                slots[i..i + k].fill(px);
                i += k;
                carry = run - k;
                data = rest;
                continue;
            }
            [b1 @ 0x40..=0x7f, rest @ ..] => {
                px[0] = px[0].wrapping_add((b1 >> 4) & 3).wrapping_sub(2);
                px[1] = px[1].wrapping_add((b1 >> 2) & 3).wrapping_sub(2);
                px[2] = px[2].wrapping_add(b1 & 3).wrapping_sub(2);
                data = rest;
            }
            [b1 @ 0x80..=0xbf, b2, rest @ ..] => {
                let vg = (b1 & 0x3f).wrapping_sub(32);
                px[0] = px[0].wrapping_add(vg.wrapping_sub(8).wrapping_add(b2 >> 4));
                px[1] = px[1].wrapping_add(vg);
                px[2] = px[2].wrapping_add(vg.wrapping_sub(8).wrapping_add(b2 & 0x0f));
                data = rest;
            }
            _ => {
                let (op, need) = match data.first() {
                    None => ("an op", 1),
                    Some(&OP_RGB) => ("QOI_OP_RGB", 4),
                    Some(&OP_RGBA) => ("QOI_OP_RGBA", 5),
                    Some(_) => ("QOI_OP_LUMA", 2),
                };
                return Err(Error::TruncatedOp {
                    offset: (bytes.len() - data.len()) as u64,
                    op,
                    need,
                    have: data.len(),
                });
            }
        }
        index[hash(px)] = px;
        slots[i] = px;
        i += 1;
    }
    s.px = px;
    s.run = carry;
    s.pos = bytes.len() - data.len();
    Ok(())
}

/// What is wrong with `image` as something to encode: dimensions out of
/// range or a pixel buffer of the wrong length.
pub fn validate(image: &Image) -> Vec<Problem> {
    validate_parts(&image.header, image.rgba.len())
}

fn validate_parts(h: &Header, rgba_len: usize) -> Vec<Problem> {
    let mut problems = Vec::new();
    if h.width == 0 || h.height == 0 {
        problems.push(Problem::of(
            "",
            format!(
                "image is {} x {}: width and height must be at least 1",
                h.width, h.height
            ),
        ));
    }
    if h.pixels() > MAX_PIXELS {
        problems.push(Problem::of(
            "",
            format!(
                "image is {} x {}, more than the limit of {MAX_PIXELS} pixels",
                h.width, h.height
            ),
        ));
    }
    if rgba_len as u64 != h.pixels() * 4 {
        problems.push(Problem::of(
            "",
            format!(
                "rgba holds {} bytes, expected width x height x 4 = {}",
                rgba_len,
                h.pixels() * 4
            ),
        ));
    }
    problems
}

/// The header's 14 bytes.
fn header_bytes(h: &Header) -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..4].copy_from_slice(&MAGIC);
    out[4..8].copy_from_slice(&h.width.to_be_bytes());
    out[8..12].copy_from_slice(&h.height.to_be_bytes());
    out[12] = h.channels as u8;
    out[13] = h.colorspace as u8;
    out
}

/// Encodes `image` exactly as the reference encoder does.
pub fn encode(image: &Image) -> Result<Vec<u8>, Error> {
    encode_pixels(&image.header, &image.rgba)
}

/// [`encode`] of the image `header` describes with pixels `rgba` (RGBA8,
/// rows top first), for a caller that holds them elsewhere.
pub fn encode_pixels(header: &Header, rgba: &[u8]) -> Result<Vec<u8>, Error> {
    let problems = validate_parts(header, rgba.len());
    if !problems.is_empty() {
        return Err(Error::Invalid(problems));
    }
    let total = header.pixels() as usize;
    // Room for the worst case (5 bytes a pixel) reserved, not written: the
    // pages the ops never reach are never touched.
    let mut out = Vec::with_capacity(HEADER_BYTES + 5 * total + END_MARKER.len());
    out.extend_from_slice(&header_bytes(header));
    reference_ops(rgba.as_chunks::<4>().0, |op| {
        out.extend_from_slice(op);
        true
    });
    out.extend_from_slice(&END_MARKER);
    Ok(out)
}

/// Whether `bytes` are exactly what [`encode`] writes for `image` (the one
/// canonical encoding of its pixels): compared op by op as the reference
/// encoder makes them, without writing an encoding, stopping at the first
/// difference.
pub fn is_reference_encoding(image: &Image, bytes: &[u8]) -> bool {
    if !validate(image).is_empty() || !bytes.starts_with(&header_bytes(&image.header)) {
        return false;
    }
    let mut pos = HEADER_BYTES;
    let same = reference_ops(image.rgba.as_chunks::<4>().0, |op| {
        let hit = bytes[pos..].starts_with(op);
        pos += op.len();
        hit
    });
    same && bytes[pos..] == END_MARKER
}

/// The reference encoder's ops for `pixels`, in order, each handed to
/// `emit` (which returns false to stop; then so does this).
fn reference_ops(pixels: &[[u8; 4]], mut emit: impl FnMut(&[u8]) -> bool) -> bool {
    let total = pixels.len();
    let mut index = [[0u8; 4]; 64];
    let mut prev = [0u8, 0, 0, 255];
    let mut run = 0u8;
    for (i, &px) in pixels.iter().enumerate() {
        if px == prev {
            run += 1;
            if run == 62 || i + 1 == total {
                if !emit(&[OP_RUN | (run - 1)]) {
                    return false;
                }
                run = 0;
            }
            continue;
        }
        if run > 0 {
            if !emit(&[OP_RUN | (run - 1)]) {
                return false;
            }
            run = 0;
        }
        let at = hash(px);
        let ok = if index[at] == px {
            emit(&[OP_INDEX | at as u8])
        } else {
            index[at] = px;
            if px[3] == prev[3] {
                let vr = px[0].wrapping_sub(prev[0]) as i8;
                let vg = px[1].wrapping_sub(prev[1]) as i8;
                let vb = px[2].wrapping_sub(prev[2]) as i8;
                let vg_r = i16::from(vr) - i16::from(vg);
                let vg_b = i16::from(vb) - i16::from(vg);
                if (-2..=1).contains(&vr) && (-2..=1).contains(&vg) && (-2..=1).contains(&vb) {
                    emit(&[OP_DIFF
                        | (((vr + 2) as u8) << 4)
                        | (((vg + 2) as u8) << 2)
                        | ((vb + 2) as u8)])
                } else if (-8..=7).contains(&vg_r)
                    && (-32..=31).contains(&vg)
                    && (-8..=7).contains(&vg_b)
                {
                    emit(&[
                        OP_LUMA | ((vg + 32) as u8),
                        (((vg_r + 8) as u8) << 4) | ((vg_b + 8) as u8),
                    ])
                } else {
                    emit(&[OP_RGB, px[0], px[1], px[2]])
                }
            } else {
                emit(&[OP_RGBA, px[0], px[1], px[2], px[3]])
            }
        };
        if !ok {
            return false;
        }
        prev = px;
    }
    true
}
