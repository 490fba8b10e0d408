//! PNG and JPEG images into RGBA8, the same pixels on every machine.
//!
//! The format is told by the bytes' signature (a glTF `mimeType` may be
//! absent or wrong). PNG through the `png` crate: palette, grey and
//! low-bit-depth images expanded, `tRNS` into alpha, 16-bit samples
//! rounded to 8 (`(v · 255 + 32767) / 65535`), the first frame of an
//! APNG. JPEG through `zune-jpeg` built without its `x86` and `neon`
//! features, so only its scalar code exists: with them, it picks AVX2 code
//! for its IDCT, upsampling and colour conversion at run time by the CPU
//! (and `set_use_unsafe(false)` does not stop that in zune-core 0.5.3),
//! and a compiler's output must not depend on the CPU. `tests/formats/images.rs`
//! decodes the corpus JPEGs with a build that has the SIMD paths
//! (`tests/oracles/jpeg_simd`) and finds the same bytes today, which
//! this choice does not rely on.
//!
//! Colour management is not applied: glTF defines base colour images as
//! sRGB, and gAMA, cHRM, iCCP or an ICC profile in a JPEG are ignored. An
//! EXIF orientation is not applied either: a texture's UVs address its
//! texels as stored. Adam7 interlacing, palettes (with `tRNS`), 16-bit
//! samples, progressive and greyscale JPEGs are read; CMYK and YCCK JPEGs
//! are refused by name (`tests/formats/images.rs` decides each).
//!
//! [`complete_len`] finds where a complete image ends when bytes follow
//! it, for a reader of images embedded in other people's files (the
//! pipeline decodes the image and warns about the rest); [`decode`]
//! itself takes exactly one image.
//!
//! [`encode_png`] writes an RGBA8 image as a PNG, for previews (`kiln
//! inspect --atlas-png`, `--png`).
//!
//! Rejects, each before any pixel buffer is allocated: bytes that are
//! neither PNG nor JPEG, a header of more than [`MAX_SIDE`] texels on a
//! side, and a header claiming more pixels than the file's bytes can
//! encode (a dimension bomb: a few hundred bytes claiming 16,384 x 16,384):
//! a PNG's scanlines need at least `1 / MAX_DEFLATE_RATIO` of their bytes
//! in the file, a JPEG at least a bit per 8 x 8 block
//! ([`MAX_JPEG_PIXELS_PER_BYTE`]). Then any decoding error, and a file
//! that does not end where the image does: a PNG must end with its `IEND`
//! chunk, a JPEG with its EOI marker (a cut file, or bytes after the
//! image, are refused like those of kiln's own formats).
//!
//! Every refusal starts `at byte N`: where the header gives what broke a
//! header rule (a PNG's IHDR, a JPEG's frame header), where the end marker
//! was wanted, or for the decoders' own errors, which carry no position,
//! the furthest byte the decoder had read.

use zune_core::bytestream::{ZByteIoError, ZSeekFrom};

use crate::memory;
use crate::model::material::Rgba8;

/// Largest width or height decoded: 16,384 texels (a 1 GiB RGBA image;
/// GPUs stop there too).
pub const MAX_SIDE: u32 = 16_384;

/// Deflate's largest expansion: a stored byte of a 258-byte match costs
/// at least 2 bits, so one compressed byte inflates to at most 1,032.
pub const MAX_DEFLATE_RATIO: u64 = 1032;

/// A JPEG codes each 8 x 8 block of each component with at least one bit
/// (its DC difference, in a progressive file's first scan; a baseline
/// block needs two), so a byte holds at most 8 blocks of 64 pixels.
pub const MAX_JPEG_PIXELS_PER_BYTE: u64 = 512;

/// Most bytes a PNG's decoded samples may take (1 GiB: the largest RGBA8
/// image, 16,384 x 16,384; a 16-bit RGBA one that size would need 2 GiB).
pub const MAX_DECODE_BYTES: usize = 1 << 30;

/// A PNG's last 12 bytes: the `IEND` chunk (no data, a fixed CRC).
const PNG_END: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82];

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
const JPEG_SIGNATURE: [u8; 3] = [0xff, 0xd8, 0xff];

/// Why an image could not be read: at byte `offset` of its bytes, `what`
/// (lowercase, no file name: the caller names the image, and knows where
/// its bytes start in their file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {what}")]
pub struct Error {
    pub offset: u64,
    pub what: String,
}

impl Error {
    fn at(offset: impl Into<u64>, what: impl Into<String>) -> Error {
        Error {
            offset: offset.into(),
            what: what.into(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Png,
    Jpeg,
}

/// The image format `bytes` start with.
pub fn kind(bytes: &[u8]) -> Result<Kind, Error> {
    if bytes.starts_with(&PNG_SIGNATURE) {
        Ok(Kind::Png)
    } else if bytes.starts_with(&JPEG_SIGNATURE) {
        Ok(Kind::Jpeg)
    } else {
        let head = &bytes[..bytes.len().min(8)];
        Err(Error::at(
            0u64,
            format!("not a PNG or JPEG image (it starts with {head:02x?})"),
        ))
    }
}

/// `[width, height]` as the header gives them, nothing decoded: a PNG's
/// IHDR, a JPEG's first frame header. `None` when `bytes` are not a PNG
/// or JPEG, the header cannot be found, or a side is 0 or more than
/// [`MAX_SIDE`] ([`decode`] says why, before allocating). A header that
/// [`decode`] accepts gives the sides of what it decodes.
pub fn header_sides(bytes: &[u8]) -> Option<[u32; 2]> {
    let sides = match kind(bytes).ok()? {
        Kind::Png => {
            let at = PNG_IHDR_WIDTH as usize;
            let b = bytes.get(at..at + 8)?;
            Some([
                u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
                u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
            ])
        }
        Kind::Jpeg => jpeg_sides(bytes).map(|(width, height, _)| [width, height]),
    }?;
    sides
        .iter()
        .all(|s| (1..=MAX_SIDE).contains(s))
        .then_some(sides)
}

/// The texels `bytes` claim, read from the header alone (nothing is
/// decoded): [`header_sides`], or, for a JPEG whose frame header cannot
/// be found, the most its bytes can code. At most [`MAX_SIDE`]², which
/// [`decode`] enforces; 0 for what [`decode`] refuses from its header
/// alone (not a PNG or JPEG, a PNG side of 0 or over [`MAX_SIDE`]). For a caller that bounds the sum over many images before
/// decoding any.
pub fn claimed_texels(bytes: &[u8]) -> u64 {
    let texels = match (kind(bytes), header_sides(bytes)) {
        (_, Some([w, h])) => u64::from(w) * u64::from(h),
        (Ok(Kind::Jpeg), None) => MAX_JPEG_PIXELS_PER_BYTE * bytes.len() as u64,
        _ => 0,
    };
    texels.min(u64::from(MAX_SIDE) * u64::from(MAX_SIDE))
}

/// How many bytes the image at the start of `bytes` takes, when it is
/// complete and followed by more: a PNG's chunks walked by their lengths
/// to the end of its `IEND` chunk, a JPEG's marker segments and
/// entropy-coded scans walked to its EOI marker. `None` when the walk
/// does not find the end before the bytes do, or finds it at their end.
/// For a reader of other people's files, which may pad an embedded image:
/// the caller decodes `bytes[..n]` and says what came after.
pub fn complete_len(bytes: &[u8]) -> Option<usize> {
    let end = match kind(bytes).ok()? {
        Kind::Png => png_end(bytes)?,
        Kind::Jpeg => jpeg_end(bytes)?,
    };
    (end < bytes.len()).then_some(end)
}

fn png_end(bytes: &[u8]) -> Option<usize> {
    let mut at = PNG_SIGNATURE.len();
    loop {
        let head = bytes.get(at..at + 8)?;
        let len = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let next = at.checked_add(12)?.checked_add(len)?;
        if next > bytes.len() {
            return None;
        }
        if &head[4..8] == b"IEND" {
            return Some(next);
        }
        at = next;
    }
}

fn jpeg_end(bytes: &[u8]) -> Option<usize> {
    jpeg_markers(bytes)
        .find(|&(_, marker)| marker == 0xd9)
        .map(|(at, _)| at + 2)
}

/// A JPEG's markers after its SOI, in order, as (the byte of their 0xff,
/// the marker): segments walked by their lengths, fill bytes skipped, an
/// SOS's entropy-coded scan walked to the marker that ends it. Ends at the
/// EOI, or where the walk leaves the bytes or meets a byte that is not a
/// marker. Each step is taken only when the next marker is asked for.
fn jpeg_markers(bytes: &[u8]) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut first = Some(2usize);
    let mut last: Option<(usize, u8)> = None;
    std::iter::from_fn(move || {
        let mut at = match last {
            None => first.take()?,
            Some((at, marker)) => jpeg_after(bytes, at, marker)?,
        };
        // Fill bytes before a marker.
        while *bytes.get(at)? == 0xff && *bytes.get(at + 1)? == 0xff {
            at += 1;
        }
        if *bytes.get(at)? != 0xff {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        last = Some((at, marker));
        last
    })
}

/// Where the marker after `marker` (at `at`) may start.
fn jpeg_after(bytes: &[u8], at: usize, marker: u8) -> Option<usize> {
    match marker {
        0xd9 => None,
        // Markers without a length: TEM, RST0..7, SOI.
        0x01 | 0xd0..=0xd8 => Some(at + 2),
        _ => {
            let len = u16::from_be_bytes([*bytes.get(at + 2)?, *bytes.get(at + 3)?]);
            let mut at = at + 2 + usize::from(len);
            if marker == 0xda {
                // The entropy-coded scan: 0xff is followed by 0x00 (a
                // stuffed byte) or a restart marker inside it; any other
                // marker ends it.
                while *bytes.get(at)? != 0xff || matches!(*bytes.get(at + 1)?, 0x00 | 0xd0..=0xd7) {
                    at += if bytes[at] == 0xff { 2 } else { 1 };
                }
            }
            Some(at)
        }
    }
}

/// Decodes a PNG or JPEG into RGBA8.
pub fn decode(bytes: &[u8]) -> Result<Rgba8, Error> {
    match kind(bytes)? {
        Kind::Png => png(bytes),
        Kind::Jpeg => jpeg(bytes),
    }
}

/// A side of zero never gets here: both decoders refuse it in the header
/// (tests/formats/images.rs `an_image_with_a_side_of_zero_is_refused`). `at` is
/// where the header gives the sides.
fn check_side(width: u32, height: u32, at: u64) -> Result<(), Error> {
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(Error::at(
            at,
            format!("image is {width} x {height}, more than {MAX_SIDE} x {MAX_SIDE}"),
        ));
    }
    Ok(())
}

/// Where a PNG's header gives its width (the IHDR chunk's data, after the
/// signature and the chunk's length and type), then its height, bit depth
/// and colour type.
const PNG_IHDR_WIDTH: u64 = 16;
const PNG_IHDR_BIT_DEPTH: u64 = 24;
const PNG_IHDR_COLOR_TYPE: u64 = 25;

fn png(bytes: &[u8]) -> Result<Rgba8, Error> {
    let (buf, frame) = png_frame(bytes)?;
    check_side(frame.width, frame.height, PNG_IHDR_WIDTH)?;
    let (depth, channels) = png_samples(&frame)?;
    png_to_rgba8(buf, &frame, depth, channels)
}

/// The decoded samples of a PNG's image and their layout: the file ends
/// with its IEND, its sides and scanlines are bounded before the decoder
/// inflates them, palettes and low bit depths expanded.
fn png_frame(bytes: &[u8]) -> Result<(Vec<u8>, png::OutputInfo), Error> {
    if !bytes.ends_with(&PNG_END) {
        return Err(Error::at(
            bytes.len() as u64,
            "PNG does not end with its IEND chunk: the file is cut short or has bytes after the image",
        ));
    }
    // The decoder's errors carry no position: the furthest byte it read
    // stands for one (it reads a chunk at a time).
    let read = std::cell::Cell::new(0u64);
    let bad = |e: png::DecodingError| Error::at(read.get(), format!("PNG does not decode: {e}"));
    let mut decoder = png::Decoder::new(Tracked {
        inner: std::io::Cursor::new(bytes),
        furthest: &read,
    });
    // Room for the largest image allowed at 16 bits, RGBA, plus the
    // decoder's own buffers.
    decoder.set_limits(png::Limits {
        bytes: (MAX_SIDE as usize * MAX_SIDE as usize * 8) + (64 << 20),
    });
    let info = decoder.read_header_info().map_err(bad)?;
    check_side(info.width, info.height, PNG_IHDR_WIDTH)?;
    // The scanlines (a filter byte and the packed pixels of each row; an
    // interlaced image has more) are inflated from at most the file.
    let scanlines = u64::from(info.height) * (info.raw_row_length() as u64);
    if scanlines > MAX_DEFLATE_RATIO * bytes.len() as u64 {
        return Err(Error::at(
            PNG_IHDR_WIDTH,
            format!(
                "PNG claims {} x {} pixels, {scanlines} bytes of scanlines, more than its {} bytes can inflate to (deflate expands at most {MAX_DEFLATE_RATIO}:1)",
                info.width,
                info.height,
                bytes.len()
            ),
        ));
    }
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(bad)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Error::at(PNG_IHDR_WIDTH, "PNG output size overflows"))?;
    // The decoded samples are held once before they become RGBA8: at 16
    // bits they may be twice the largest RGBA8 image.
    if size > MAX_DECODE_BYTES {
        return Err(Error::at(
            PNG_IHDR_WIDTH,
            format!(
                "PNG of {} x {} needs {size} bytes to decode, more than {MAX_DECODE_BYTES} (a 16-bit image this large is not a texture)",
                reader.info().width,
                reader.info().height
            ),
        ));
    }
    let mut buf = alloc_zeroed(size, PNG_IHDR_WIDTH)?;
    let frame = reader.next_frame(&mut buf).map_err(bad)?;
    Ok((buf, frame))
}

/// Bytes a sample (1 or 2) and samples a texel (1 to 4) of an expanded
/// frame.
fn png_samples(frame: &png::OutputInfo) -> Result<(usize, usize), Error> {
    let depth = match frame.bit_depth {
        png::BitDepth::Eight => 1,
        png::BitDepth::Sixteen => 2,
        other => {
            return Err(Error::at(
                PNG_IHDR_BIT_DEPTH,
                format!("PNG bit depth {other:?} was not expanded"),
            ));
        }
    };
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => {
            return Err(Error::at(
                PNG_IHDR_COLOR_TYPE,
                "PNG palette was not expanded",
            ));
        }
    };
    Ok((depth, channels))
}

/// The frame's samples in `buf` as RGBA8 (grey spread to RGB, opaque
/// without alpha, 16 bits rounded to 8).
fn png_to_rgba8(
    mut buf: Vec<u8>,
    frame: &png::OutputInfo,
    depth: usize,
    channels: usize,
) -> Result<Rgba8, Error> {
    let (width, height) = (frame.width, frame.height);
    let texels = width as usize * height as usize;
    let row_bytes = width as usize * channels * depth;
    let rgba = |s: [u8; 4]| match channels {
        1 => [s[0], s[0], s[0], 255],
        2 => [s[0], s[0], s[0], s[1]],
        3 => [s[0], s[1], s[2], 255],
        _ => s,
    };
    if depth == 1 && frame.line_size == row_bytes {
        // 8-bit samples become RGBA8 in the decoder's own buffer, from the
        // last texel back: texel p's samples start at `channels · p`, at or
        // before where its RGBA goes (`4 · p`), so each is read before it
        // is written over, and only one image is held.
        let len = (texels * 4).max(buf.len());
        memory::grow(&mut buf, len).map_err(|_| out_of_memory(len, PNG_IHDR_WIDTH))?;
        for p in (0..texels).rev() {
            let mut s = [0u8; 4];
            s[..channels].copy_from_slice(&buf[p * channels..][..channels]);
            buf[p * 4..p * 4 + 4].copy_from_slice(&rgba(s));
        }
        buf.truncate(texels * 4);
        return Ok(Rgba8 {
            width,
            height,
            pixels: buf,
        });
    }
    let mut pixels =
        memory::with_capacity(texels * 4).map_err(|_| out_of_memory(texels * 4, PNG_IHDR_WIDTH))?;
    let mut sample = [0u8; 4];
    for y in 0..height as usize {
        let line = &buf[y * frame.line_size..][..row_bytes];
        for p in line.chunks_exact(channels * depth) {
            for (c, s) in sample.iter_mut().take(channels).enumerate() {
                *s = if depth == 1 {
                    p[c]
                } else {
                    let v = u32::from(u16::from_be_bytes([p[2 * c], p[2 * c + 1]]));
                    ((v * 255 + 32767) / 65535) as u8
                };
            }
            pixels.extend_from_slice(&rgba(sample));
        }
    }
    Ok(Rgba8 {
        width,
        height,
        pixels,
    })
}

/// `n` zero bytes, or an error at byte `at` (where the header sized them)
/// when the memory cannot be had.
fn alloc_zeroed(n: usize, at: u64) -> Result<Vec<u8>, Error> {
    memory::zeroed(n).map_err(|_| out_of_memory(n, at))
}

fn out_of_memory(n: usize, at: u64) -> Error {
    Error::at(
        at,
        format!(
            "decoding the image needs {n} bytes of memory, which could not be had: make the image smaller or give kiln more memory"
        ),
    )
}

fn jpeg(bytes: &[u8]) -> Result<Rgba8, Error> {
    if !bytes.ends_with(&[0xff, 0xd9]) {
        return Err(Error::at(
            bytes.len() as u64,
            "JPEG does not end with its EOI marker (ff d9): the file is cut short or has bytes after the image",
        ));
    }
    // The sides where the frame header gives them (the marker segments
    // walked to it), before the decoder runs; then as the decoder read
    // them, named at the same byte.
    let frame = jpeg_frame(bytes);
    let sides_at = frame.map(|sof| sof as u64 + 5);
    if let Some((width, height, at)) = jpeg_sides(bytes) {
        check_jpeg_sides(width, height, at, bytes.len())?;
    }
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize)
        .set_strict_mode(true);
    // The decoder's errors carry no position: the furthest byte it read
    // stands for one (its bit reader reads at most a few bytes ahead).
    let read = std::cell::Cell::new(0u64);
    let bad = |e: zune_jpeg::errors::DecodeErrors| {
        Error::at(read.get(), format!("JPEG does not decode: {e}"))
    };
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(
        JpegReader {
            bytes,
            at: 0,
            furthest: &read,
        },
        options,
    );
    decoder.decode_headers().map_err(bad)?;
    let info = decoder
        .info()
        .ok_or_else(|| Error::at(read.get(), "JPEG has no frame header"))?;
    let (width, height) = (u32::from(info.width), u32::from(info.height));
    let sides_at = sides_at.unwrap_or(read.get());
    check_jpeg_sides(width, height, sides_at, bytes.len())?;
    // Four-component JPEGs (CMYK, or YCCK: as Photoshop and Pillow write
    // them, with an Adobe marker and inverted ink) are refused by name:
    // the decoder's RGB of them rotates the channels.
    if let Some(space @ (ColorSpace::CMYK | ColorSpace::YCCK)) = decoder.input_colorspace() {
        return Err(Error::at(
            sides_at + 4,
            format!(
                "JPEG is {space:?} (four ink components), which kiln does not convert; save the texture as an RGB (or greyscale) JPEG or a PNG"
            ),
        ));
    }
    // The output is allocated here, fallibly; the decoder's own working
    // buffers (a few rows of blocks, or a progressive image's
    // coefficients) are its own.
    let size = width as usize * height as usize * 4;
    if decoder.output_buffer_size() != Some(size) {
        return Err(Error::at(
            sides_at,
            format!(
                "JPEG decodes to {:?} bytes, expected {width} x {height} x 4",
                decoder.output_buffer_size()
            ),
        ));
    }
    let mut pixels = alloc_zeroed(size, sides_at)?;
    // zune-jpeg's own working memory is allocated inside it, with
    // allocations that abort: asked for first (and given back), so a
    // machine without it gets an error here.
    let working = jpeg_working_bytes(
        width as usize,
        height as usize,
        usize::from(info.components),
        info.sof.is_progressive(),
        frame.and_then(|sof| jpeg_samplings(bytes, sof)),
    );
    memory::probe(working).map_err(|_| out_of_memory(working, sides_at))?;
    decoder.decode_into(&mut pixels).map_err(bad)?;
    Ok(Rgba8 {
        width,
        height,
        pixels,
    })
}

/// More than zune-jpeg's working memory for a `width` x `height` JPEG of
/// `components`: its rows of blocks (a few MCU rows: 64 rows of every
/// component, at 2 bytes a coefficient), and for a progressive one every
/// coefficient of the image, held until the last scan: 2 bytes a sample
/// of each component, each padded to whole MCUs as the frame header's
/// `samplings` (horizontal, vertical) lay them out, or, without them,
/// every component at full resolution padded by 32. Measured: the 8192²
/// progressive JPEG of a solid colour Pillow writes (4:2:0) aborted
/// inside zune-jpeg under caps of 288 to 448 MiB before this was asked
/// for.
fn jpeg_working_bytes(
    width: usize,
    height: usize,
    components: usize,
    progressive: bool,
    samplings: Option<([u8; 2], Vec<[u8; 2]>)>,
) -> usize {
    let rows = components * (width + 32) * 64 * 2;
    if !progressive {
        return rows;
    }
    let samples = match samplings {
        Some(([h_max, v_max], each)) => {
            let mcus_across = width.div_ceil(8 * usize::from(h_max));
            let mcus_down = height.div_ceil(8 * usize::from(v_max));
            each.iter()
                .map(|&[h, v]| mcus_across * 8 * usize::from(h) * mcus_down * 8 * usize::from(v))
                .sum()
        }
        None => components * (width + 32) * (height + 32),
    };
    rows + samples * 2
}

/// The sampling factors of each component in the frame header at `sof`,
/// with their maximum (each 1 to 4); `None` when the header is cut off or
/// a factor is outside 1 to 4 (the decoder refuses it).
fn jpeg_samplings(bytes: &[u8], sof: usize) -> Option<([u8; 2], Vec<[u8; 2]>)> {
    let n = usize::from(*bytes.get(sof + 9)?);
    let table = bytes.get(sof + 10..sof + 10 + 3 * n)?;
    let each: Vec<[u8; 2]> = table
        .chunks_exact(3)
        .map(|c| [c[1] >> 4, c[1] & 15])
        .collect();
    if each.iter().flatten().any(|f| !(1..=4).contains(f)) {
        return None;
    }
    let max = each
        .iter()
        .fold([1, 1], |m, f| [m[0].max(f[0]), m[1].max(f[1])]);
    Some((max, each))
}

/// A JPEG's sides (given at byte `at`) against [`MAX_SIDE`] and against
/// what its `len` bytes can code.
fn check_jpeg_sides(width: u32, height: u32, at: u64, len: usize) -> Result<(), Error> {
    check_side(width, height, at)?;
    let claimed = u64::from(width) * u64::from(height);
    if claimed > MAX_JPEG_PIXELS_PER_BYTE * len as u64 {
        return Err(Error::at(
            at,
            format!(
                "JPEG claims {width} x {height} pixels, more than its {len} bytes can code (at least a bit per 8 x 8 block: {MAX_JPEG_PIXELS_PER_BYTE} pixels a byte)"
            ),
        ));
    }
    Ok(())
}

/// A JPEG's sides as its first frame header gives them, and the byte they
/// are at (`None` when the frame header cannot be found or is cut off).
fn jpeg_sides(bytes: &[u8]) -> Option<(u32, u32, u64)> {
    let at = jpeg_frame(bytes)? + 5;
    match *bytes.get(at..at + 4)? {
        [h0, h1, w0, w1] => Some((
            u16::from_be_bytes([w0, w1]).into(),
            u16::from_be_bytes([h0, h1]).into(),
            at as u64,
        )),
        _ => None,
    }
}

/// Where a JPEG's first frame header (an SOFn marker) starts: the marker
/// segments from the SOI walked by their lengths; `None` when the walk
/// leaves the file or meets a byte that is not a marker first.
fn jpeg_frame(bytes: &[u8]) -> Option<usize> {
    jpeg_markers(bytes)
        // A second SOI, EOI, or SOS before any frame: no frame header.
        .take_while(|&(_, marker)| !matches!(marker, 0xd8..=0xda))
        // SOF0..SOF15, which DHT (c4), JPG (c8) and DAC (cc) interleave.
        .find(|&(_, m)| (0xc0..=0xcf).contains(&m) && !matches!(m, 0xc4 | 0xc8 | 0xcc))
        .map(|(at, _)| at)
}

/// A reader that remembers the furthest byte read, for errors.
struct Tracked<'a> {
    inner: std::io::Cursor<&'a [u8]>,
    furthest: &'a std::cell::Cell<u64>,
}

impl Tracked<'_> {
    fn note(&self) {
        self.furthest
            .set(self.furthest.get().max(self.inner.position()));
    }
}

impl std::io::Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.note();
        Ok(n)
    }
}

impl std::io::BufRead for Tracked<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.note();
    }
}

impl std::io::Seek for Tracked<'_> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(to)?;
        self.note();
        Ok(at)
    }
}

/// The JPEG decoder's reader: a position in the bytes (which, like a
/// `std::io::Cursor`'s, may be sought past the end) that remembers the
/// furthest byte read, for errors. zune-jpeg would read a `BufRead + Seek`
/// (its own cursor included) a byte at a time through `io::Read`; this
/// reads the slice directly.
struct JpegReader<'a> {
    bytes: &'a [u8],
    at: usize,
    furthest: &'a std::cell::Cell<u64>,
}

impl JpegReader<'_> {
    /// The bytes from the position on (none past the end).
    fn rest(&self) -> &[u8] {
        self.bytes.get(self.at..).unwrap_or(&[])
    }

    fn advance(&mut self, n: usize) {
        self.at += n;
        if self.at as u64 > self.furthest.get() {
            self.furthest.set(self.at as u64);
        }
    }
}

impl zune_core::bytestream::ZByteReaderTrait for JpegReader<'_> {
    fn read_byte_no_error(&mut self) -> u8 {
        match self.rest().first() {
            Some(&b) => {
                self.advance(1);
                b
            }
            None => 0,
        }
    }

    fn read_exact_bytes(&mut self, buf: &mut [u8]) -> Result<(), ZByteIoError> {
        self.peek_exact_bytes(buf)?;
        self.advance(buf.len());
        Ok(())
    }

    fn read_bytes(&mut self, buf: &mut [u8]) -> Result<usize, ZByteIoError> {
        let n = self.peek_bytes(buf)?;
        self.advance(n);
        Ok(n)
    }

    fn peek_bytes(&mut self, buf: &mut [u8]) -> Result<usize, ZByteIoError> {
        let rest = self.rest();
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        Ok(n)
    }

    fn peek_exact_bytes(&mut self, buf: &mut [u8]) -> Result<(), ZByteIoError> {
        let rest = self.rest();
        match rest.get(..buf.len()) {
            Some(b) => {
                buf.copy_from_slice(b);
                Ok(())
            }
            None => Err(ZByteIoError::NotEnoughBytes(rest.len(), buf.len())),
        }
    }

    fn z_seek(&mut self, from: ZSeekFrom) -> Result<u64, ZByteIoError> {
        let to = match from {
            ZSeekFrom::Start(n) => usize::try_from(n).ok(),
            ZSeekFrom::End(n) => self.bytes.len().checked_add_signed(n as isize),
            ZSeekFrom::Current(n) => self.at.checked_add_signed(n as isize),
        };
        let to = to.ok_or(ZByteIoError::SeekError("a seek before byte 0"))?;
        // A seek reads nothing: only reads move the furthest byte.
        self.at = to;
        Ok(to as u64)
    }

    fn is_eof(&mut self) -> Result<bool, ZByteIoError> {
        Ok(self.rest().is_empty())
    }

    fn z_position(&mut self) -> Result<u64, ZByteIoError> {
        Ok(self.at as u64)
    }

    fn read_remaining(&mut self, sink: &mut Vec<u8>) -> Result<usize, ZByteIoError> {
        let rest = self.rest();
        let n = rest.len();
        sink.extend_from_slice(rest);
        self.advance(n);
        Ok(n)
    }
}

/// `image` as an 8-bit RGBA PNG (fixed settings: the same bytes for the
/// same pixels).
pub fn encode_png(image: &Rgba8) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let bad = |e: png::EncodingError| format!("PNG does not encode: {e}");
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    let mut writer = encoder.write_header().map_err(bad)?;
    writer.write_image_data(&image.pixels).map_err(bad)?;
    writer.finish().map_err(bad)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{jpeg_frame, jpeg_samplings, jpeg_working_bytes};

    /// zune-jpeg's working memory as its allocations size it: a
    /// progressive 8192² 4:2:0 JPEG holds 512 x 512 MCUs of 16 x 16 luma
    /// samples and 8 x 8 of each chroma (100,663,296 coefficients, 2 bytes
    /// each), plus 64 rows of each component; a baseline one the rows only;
    /// without the frame's samplings, every component at full resolution.
    #[test]
    fn the_working_memory_asked_for_follows_the_frame_header() {
        // SOF2: length 17, 8 bits, 8192 x 8192, 3 components: Y 2x2, Cb
        // and Cr 1x1.
        let sof = [
            0xff, 0xc2, 0, 17, 8, 0x20, 0, 0x20, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
        ];
        let samplings = jpeg_samplings(&sof, 0);
        assert_eq!(samplings, Some(([2, 2], vec![[2, 2], [1, 1], [1, 1]])));
        let rows = 3 * (8192 + 32) * 64 * 2;
        assert_eq!(
            jpeg_working_bytes(8192, 8192, 3, true, samplings.clone()),
            rows + 100_663_296 * 2
        );
        assert_eq!(jpeg_working_bytes(8192, 8192, 3, false, samplings), rows);
        assert_eq!(
            jpeg_working_bytes(8192, 8192, 3, true, None),
            rows + 3 * 8224 * 8224 * 2
        );
        // A side that is not a whole MCU is padded to one: 17 x 9 of 2x1
        // luma and 1x1 chroma: 2 x 2 MCUs of 16 x 8.
        let padded = jpeg_working_bytes(17, 9, 2, true, Some(([2, 1], vec![[2, 1], [1, 1]])));
        assert_eq!(padded, 2 * (17 + 32) * 64 * 2 + (32 * 16 + 16 * 16) * 2);
        // A factor the decoder refuses, or a header cut short: none.
        let mut bad = sof;
        bad[11] = 0x52;
        assert_eq!(jpeg_samplings(&bad, 0), None);
        assert_eq!(jpeg_samplings(&sof[..15], 0), None);
    }

    #[test]
    fn the_frame_header_is_found_past_segments_fill_bytes_and_restart_markers() {
        // SOI, APP0 of 4 bytes, fill, RST0, DHT (c4, not a frame), SOF2.
        let mut b = vec![0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0xff, 0xd0];
        b.extend_from_slice(&[0xff, 0xc4, 0, 2, 0xff, 0xc2, 0, 11]);
        assert_eq!(jpeg_frame(&b), Some(15));
        // A scan, the end, or a second SOI before any frame: none.
        // (Even when what follows would read as a segment length and a
        // frame: the walk stops at the marker.)
        for m in [0xda, 0xd9, 0xd8] {
            assert_eq!(jpeg_frame(&[0xff, 0xd8, 0xff, m, 0, 2]), None, "{m:x}");
            let b = [0xff, 0xd8, 0xff, m, 0, 2, 0xff, 0xc0, 0, 11];
            assert_eq!(jpeg_frame(&b), None, "{m:x}");
        }
        // A segment longer than the file, a byte that is no marker, a cut.
        assert_eq!(jpeg_frame(&[0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff]), None);
        assert_eq!(jpeg_frame(&[0xff, 0xd8, 0x00, 0xc0]), None);
        assert_eq!(jpeg_frame(&[0xff, 0xd8, 0xff]), None);
        assert_eq!(jpeg_frame(&[0xff, 0xd8, 0xff, 0xc0]), Some(2));
    }
}
