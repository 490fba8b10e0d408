//! `jpeg-simd-oracle FILE...`: each JPEG decoded to RGBA by zune-jpeg on
//! the SIMD paths this CPU has, written to stdout as an 8-byte
//! little-endian length and the pixels. First line on stderr: whether
//! AVX2 was available (the test refuses to pass without it on x86-64).

use std::io::Write;

use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;

fn main() {
    #[cfg(target_arch = "x86_64")]
    eprintln!("avx2: {}", std::is_x86_feature_detected!("avx2"));
    let mut out = std::io::stdout().lock();
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap();
        let options = DecoderOptions::default()
            .jpeg_set_out_colorspace(ColorSpace::RGBA)
            .set_strict_mode(true);
        let mut d = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(&bytes), options);
        let pixels = d.decode().unwrap();
        out.write_all(&(pixels.len() as u64).to_le_bytes()).unwrap();
        out.write_all(&pixels).unwrap();
    }
}
