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
//! and a compiler's output must not depend on the CPU. `tests/images.rs`
//! decodes the corpus JPEGs with a build that has the SIMD paths
//! (`tests/oracles/jpeg_simd`) and finds the same bytes today, which
//! this choice does not rely on.
//!
//! Colour management is not applied: glTF defines base colour images as
//! sRGB, and gAMA, cHRM, iCCP or an ICC profile in a JPEG are ignored.
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

/// Why an image could not be read (lowercase, no file name: the caller
/// names the image).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

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
        Err(Error(format!(
            "at byte 0: not a PNG or JPEG image (it starts with {head:02x?})"
        )))
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
/// (tests/images.rs `an_image_with_a_side_of_zero_is_refused`).
fn check_side(width: u32, height: u32) -> Result<(), Error> {
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(Error(format!(
            "image is {width} x {height}, more than {MAX_SIDE} x {MAX_SIDE}"
        )));
    }
    Ok(())
}

fn png(bytes: &[u8]) -> Result<Rgba8, Error> {
    if !bytes.ends_with(&PNG_END) {
        return Err(Error(format!(
            "at byte {}: PNG does not end with its IEND chunk: the file is cut short or has bytes after the image",
            bytes.len()
        )));
    }
    // The decoder's errors carry no position: the furthest byte it read
    // stands for one (it reads a chunk at a time).
    let read = std::cell::Cell::new(0u64);
    let bad =
        |e: png::DecodingError| Error(format!("at byte {}: PNG does not decode: {e}", read.get()));
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
    check_side(info.width, info.height)?;
    // The scanlines (a filter byte and the packed pixels of each row; an
    // interlaced image has more) are inflated from at most the file.
    let scanlines = u64::from(info.height) * (info.raw_row_length() as u64);
    if scanlines > MAX_DEFLATE_RATIO * bytes.len() as u64 {
        return Err(Error(format!(
            "PNG claims {} x {} pixels, {scanlines} bytes of scanlines, more than its {} bytes can inflate to (deflate expands at most {MAX_DEFLATE_RATIO}:1)",
            info.width,
            info.height,
            bytes.len()
        )));
    }
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(bad)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Error("PNG output size overflows".into()))?;
    // The decoded samples are held once before they become RGBA8: at 16
    // bits they may be twice the largest RGBA8 image.
    if size > MAX_DECODE_BYTES {
        return Err(Error(format!(
            "at byte 16: PNG of {} x {} needs {size} bytes to decode, more than {MAX_DECODE_BYTES} (a 16-bit image this large is not a texture)",
            reader.info().width,
            reader.info().height
        )));
    }
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(bad)?;
    let (width, height) = (frame.width, frame.height);
    check_side(width, height)?;
    let depth = match frame.bit_depth {
        png::BitDepth::Eight => 1,
        png::BitDepth::Sixteen => 2,
        other => return Err(Error(format!("PNG bit depth {other:?} was not expanded"))),
    };
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err(Error("PNG palette was not expanded".into())),
    };
    let row_bytes = width as usize * channels * depth;
    let mut pixels = Vec::with_capacity(width as usize * height as usize * 4);
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
            let s = sample;
            pixels.extend_from_slice(&match channels {
                1 => [s[0], s[0], s[0], 255],
                2 => [s[0], s[0], s[0], s[1]],
                3 => [s[0], s[1], s[2], 255],
                _ => s,
            });
        }
    }
    Ok(Rgba8 {
        width,
        height,
        pixels,
    })
}

fn jpeg(bytes: &[u8]) -> Result<Rgba8, Error> {
    if !bytes.ends_with(&[0xff, 0xd9]) {
        return Err(Error(format!(
            "at byte {}: JPEG does not end with its EOI marker (ff d9): the file is cut short or has bytes after the image",
            bytes.len()
        )));
    }
    use zune_core::bytestream::ZCursor;
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGBA)
        .set_max_width(MAX_SIDE as usize)
        .set_max_height(MAX_SIDE as usize)
        .set_strict_mode(true);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    let bad = |e: zune_jpeg::errors::DecodeErrors| Error(format!("JPEG does not decode: {e}"));
    decoder.decode_headers().map_err(bad)?;
    let info = decoder
        .info()
        .ok_or_else(|| Error("JPEG has no frame header".into()))?;
    let (width, height) = (u32::from(info.width), u32::from(info.height));
    check_side(width, height)?;
    let claimed = u64::from(width) * u64::from(height);
    if claimed > MAX_JPEG_PIXELS_PER_BYTE * bytes.len() as u64 {
        return Err(Error(format!(
            "JPEG claims {width} x {height} pixels, more than its {} bytes can code (at least a bit per 8 x 8 block: {MAX_JPEG_PIXELS_PER_BYTE} pixels a byte)",
            bytes.len()
        )));
    }
    let pixels = decoder.decode().map_err(bad)?;
    if pixels.len() != width as usize * height as usize * 4 {
        return Err(Error(format!(
            "JPEG decoded to {} bytes, expected {width} x {height} x 4",
            pixels.len()
        )));
    }
    Ok(Rgba8 {
        width,
        height,
        pixels,
    })
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

/// `image` as an 8-bit RGBA PNG (fixed settings: the same bytes for the
/// same pixels).
pub fn encode_png(image: &Rgba8) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let bad = |e: png::EncodingError| Error(format!("PNG does not encode: {e}"));
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
