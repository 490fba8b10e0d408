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

/// Pixels the decoder first makes room for, at least: 4 M (16 MiB, a
/// 2,048 × 2,048 atlas in one piece). A file that claims more grows its
/// pixels in pieces, each at most the size of what was already decoded,
/// so memory follows what the ops really make, never just the header.
const FIRST_PIECE: usize = 1 << 22;

/// The decoder's state between pieces of the output.
struct State {
    /// Pixels as little-endian u32s, as the encoder holds them.
    index: [u32; 64],
    px: u32,
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
        index: [0; 64],
        px: u32::from_le_bytes([0, 0, 0, 255]),
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
        let room = if done == 0 {
            memory::zeroed_bytes(piece).map(|v| out = v)
        } else {
            memory::grow(&mut out, done + piece)
        };
        room.map_err(|e| Error::NoMemory {
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
/// remain from its start) with the pixels of the next ops. Not inlined
/// into `decode`: apart, its loop keeps its state in registers (inlined,
/// 3,000 decodes of Fox's atlas took 1.33 s against 1.15 s).
#[inline(never)]
fn decode_piece(
    bytes: &[u8],
    slots: &mut [[u8; 4]],
    left: usize,
    s: &mut State,
) -> Result<(), Error> {
    let n = slots.len();
    // Pixels of the image after this piece.
    let beyond = left - n;
    let mut px = s.px;
    let index = &mut s.index;
    let mut data = &bytes[s.pos..];
    let first = s.run.min(n);
    slots[..first].fill(px.to_le_bytes());
    let mut carry = s.run - first;
    let mut i = first;
    while i < n {
        let at = i;
        i += 1;
        // Slice patterns: each op's length is checked by the match itself.
        match data {
            [b1 @ 0x00..=0x3f, rest @ ..] => {
                // Storing the pixel at its hash changes the index only for
                // a slot never written (transparent black, whose hash is
                // 0): every written slot holds a pixel of its own hash.
                px = index[usize::from(*b1)];
                // Without a branch: index[0] becomes 0 when px is 0.
                index[0] &= u32::from(px != 0).wrapping_neg();
                data = rest;
                slots[at] = px.to_le_bytes();
                continue;
            }
            [OP_RGB, r, g, b, rest @ ..] => {
                px = u32::from_le_bytes([*r, *g, *b, 0]) | (px & 0xff00_0000);
                data = rest;
            }
            [OP_RGBA, r, g, b, a, rest @ ..] => {
                px = u32::from_le_bytes([*r, *g, *b, *a]);
                data = rest;
            }
            [b1 @ 0xc0..=0xfd, rest @ ..] => {
                // QOI_OP_RUN: 1..=62 copies of the previous pixel. It is
                // in the index already: every other op stores its pixel,
                // and `decode` stores the implicit first one when the
                // file starts with a run.
                let copies = usize::from(b1 & 0x3f);
                let room = n - i + beyond;
                if copies > room {
                    return Err(Error::RunPastImage {
                        offset: (bytes.len() - data.len()) as u64,
                        run: copies as u32 + 1,
                        left: room as u64 + 1,
                    });
                }
                let v = px.to_le_bytes();
                slots[at] = v;
                let after = &mut slots[i..];
                if let Some(longest) = after.first_chunk_mut::<61>() {
                    // Room for any run: a fixed-size fill, no loop (the
                    // slots past this run are written again by what follows).
                    longest.fill(v);
                    i += copies;
                } else if copies <= after.len() {
                    after[..copies].fill(v);
                    i += copies;
                } else {
                    // The run goes on past this piece.
                    after.fill(v);
                    carry = copies - after.len();
                    i = n;
                }
                data = rest;
                continue;
            }
            [b1 @ 0x40..=0x7f, rest @ ..] => {
                let [r, g, b, a] = px.to_le_bytes();
                px = u32::from_le_bytes([
                    r.wrapping_add((b1 >> 4) & 3).wrapping_sub(2),
                    g.wrapping_add((b1 >> 2) & 3).wrapping_sub(2),
                    b.wrapping_add(b1 & 3).wrapping_sub(2),
                    a,
                ]);
                data = rest;
            }
            [b1 @ 0x80..=0xbf, b2, rest @ ..] => {
                let vg = (b1 & 0x3f).wrapping_sub(32);
                let [r, g, b, a] = px.to_le_bytes();
                px = u32::from_le_bytes([
                    r.wrapping_add(vg.wrapping_sub(8).wrapping_add(b2 >> 4)),
                    g.wrapping_add(vg),
                    b.wrapping_add(vg.wrapping_sub(8).wrapping_add(b2 & 0x0f)),
                    a,
                ]);
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
        slots[at] = px.to_le_bytes();
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
    reference_ops(rgba.as_chunks::<4>().0, |ops| {
        out.extend_from_slice(ops);
        true
    });
    out.extend_from_slice(&END_MARKER);
    Ok(out)
}

/// Whether `bytes` are exactly what [`encode`] writes for `image` (the one
/// canonical encoding of its pixels): compared as the reference encoder
/// makes them, a block of ops at a time, without writing an encoding,
/// stopping at the first block that differs.
pub fn is_reference_encoding(image: &Image, bytes: &[u8]) -> bool {
    if !validate(image).is_empty() || !bytes.starts_with(&header_bytes(&image.header)) {
        return false;
    }
    let mut pos = HEADER_BYTES;
    let same = reference_ops(image.rgba.as_chunks::<4>().0, |ops| {
        let hit = bytes[pos..].starts_with(ops);
        pos += ops.len();
        hit
    });
    same && bytes[pos..] == END_MARKER
}

/// Bytes of ops [`reference_ops`] gathers before handing them on.
const OPS_BLOCK: usize = 1 << 14;

/// The index position of the pixel whose bytes, read little-endian, are
/// `v`: `(r * 3 + g * 5 + b * 7 + a * 11) % 64`. One multiplication
/// gathers the sum into the top byte (the channels spread so that no
/// partial product carries into it).
#[inline(always)]
fn hash(v: u32) -> usize {
    let v = u64::from(v);
    let spread = ((v & 0xff00_ff00) << 32) | (v & 0x00ff_00ff);
    (spread.wrapping_mul(0x0300_0700_0005_000b) >> 56) as usize & 63
}

/// The reference encoder's ops for `pixels`, in order, handed to `emit` a
/// block at a time (at most [`OPS_BLOCK`] bytes, whole ops); `emit`
/// returns false to stop, and then so does this.
fn reference_ops(pixels: &[[u8; 4]], mut emit: impl FnMut(&[u8]) -> bool) -> bool {
    let total = pixels.len();
    let mut block = [0u8; OPS_BLOCK];
    let mut n = 0;
    // Pixels as little-endian u32s: one compare, one multiply for the hash.
    let mut index = [0u32; 64];
    let mut prev = u32::from_le_bytes([0, 0, 0, 255]);
    let mut i = 0;
    while i < total {
        // Room for the longest op (5 bytes).
        if n > OPS_BLOCK - 5 {
            if !emit(&block[..n]) {
                return false;
            }
            n = 0;
        }
        let px = pixels[i];
        let v = u32::from_le_bytes(px);
        if v == prev {
            // A run: this pixel and the equal ones after it, at most 62.
            let end = total.min(i + 62);
            let mut j = i + 1;
            while j < end && u32::from_le_bytes(pixels[j]) == prev {
                j += 1;
            }
            block[n] = OP_RUN | (j - i - 1) as u8;
            n += 1;
            i = j;
            continue;
        }
        let at = hash(v);
        if index[at] == v {
            block[n] = OP_INDEX | at as u8;
            n += 1;
        } else {
            index[at] = v;
            let [r, g, b, a] = px;
            let [pr, pg, pb, pa] = prev.to_le_bytes();
            if a == pa {
                let vr = r.wrapping_sub(pr);
                let vg = g.wrapping_sub(pg);
                let vb = b.wrapping_sub(pb);
                // Each difference plus its bias fits the op's field when
                // no bit above the field is set.
                let (vr2, vg2, vb2) = (vr.wrapping_add(2), vg.wrapping_add(2), vb.wrapping_add(2));
                let vg32 = vg.wrapping_add(32);
                let vg_r8 = vr.wrapping_sub(vg).wrapping_add(8);
                let vg_b8 = vb.wrapping_sub(vg).wrapping_add(8);
                if (vr2 | vg2 | vb2) < 4 {
                    block[n] = OP_DIFF | (vr2 << 4) | (vg2 << 2) | vb2;
                    n += 1;
                } else if vg32 < 64 && (vg_r8 | vg_b8) < 16 {
                    block[n..n + 2].copy_from_slice(&[OP_LUMA | vg32, (vg_r8 << 4) | vg_b8]);
                    n += 2;
                } else {
                    block[n..n + 4].copy_from_slice(&[OP_RGB, r, g, b]);
                    n += 4;
                }
            } else {
                block[n..n + 5].copy_from_slice(&[OP_RGBA, r, g, b, a]);
                n += 5;
            }
        }
        prev = v;
        i += 1;
    }
    emit(&block[..n])
}
