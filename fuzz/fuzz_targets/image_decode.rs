//! Fuzz `kiln::import::image::decode` (PNG through `png`, JPEG through
//! `zune-jpeg`): never a panic; an image it returns has a side of at most
//! `MAX_SIDE` texels and exactly `width * height * 4` bytes.
//!
//! Run: `bash fuzz/run.sh image_decode 600` (seeds: `bash fuzz/seed.sh`,
//! the corpus glTFs' images and the tests' PNGs).

#![no_main]

use kiln::import::image;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(img) = image::decode(bytes) {
        assert!(img.width >= 1 && img.width <= image::MAX_SIDE);
        assert!(img.height >= 1 && img.height <= image::MAX_SIDE);
        assert_eq!(img.pixels.len(), img.width as usize * img.height as usize * 4);
    }
});
