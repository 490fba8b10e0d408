//! The QOI codec (`formats::qoi`): hand-built golden bytes, the reference
//! edge case of phoboslab/qoi#258, every rule's variant and offset, every
//! truncation, hostile headers without big allocations, and round trips
//! of generated images checked against two independent implementations:
//! the `qoi` crate built with its `reference` feature (byte-identical to
//! `qoi.h`'s encoder) and Pillow's QOI decoder.

use crate::alloc_support;
use crate::pillow_support;
use alloc_support::{big_allocs_in, largest_alloc_in};

use kiln::formats::qoi::{self, Channels, Colorspace, Error, Header, Image};

fn header_bytes(width: u32, height: u32, channels: u8, colorspace: u8) -> Vec<u8> {
    let mut b = b"qoif".to_vec();
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&[channels, colorspace]);
    b
}

fn file(width: u32, height: u32, ops: &[u8]) -> Vec<u8> {
    let mut b = header_bytes(width, height, 4, 0);
    b.extend_from_slice(ops);
    b.extend_from_slice(&qoi::END_MARKER);
    b
}

fn rgba(width: u32, height: u32, pixels: &[[u8; 4]]) -> Image {
    Image {
        header: Header {
            width,
            height,
            channels: Channels::Rgba,
            colorspace: Colorspace::Srgb,
        },
        rgba: pixels.as_flattened().to_vec(),
    }
}

/// Eight pixels that use every op: a run of the implicit opaque black,
/// DIFF, LUMA, RGBA, INDEX of a seen pixel, INDEX 0 of the zero-initialised
/// index (transparent black), and a final run. Worked by hand:
/// hash(1,1,1,255) = 2820 % 64 = 4; hash(0,0,0,0) = 0.
fn golden() -> (Image, Vec<u8>) {
    let pixels = [
        [0, 0, 0, 255],
        [0, 0, 0, 255],
        [1, 1, 1, 255],
        [21, 20, 19, 255],
        [200, 10, 10, 128],
        [1, 1, 1, 255],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ];
    let ops = [
        0xc1, // RUN 2
        0x7f, // DIFF +1 +1 +1
        0xb3, 0x97, // LUMA vg 19, vr-vg +1, vb-vg -1
        0xff, 200, 10, 10, 128,  // RGBA
        0x04, // INDEX 4
        0x00, // INDEX 0: the zero-initialised slot
        0xc0, // RUN 1, the last pixel
    ];
    (rgba(4, 2, &pixels), file(4, 2, &ops))
}

#[test]
fn golden_bytes_encode_and_decode() {
    let (image, bytes) = golden();
    assert_eq!(qoi::encode(&image).unwrap(), bytes);
    assert_eq!(qoi::decode(&bytes).unwrap(), image);
    // The reference encoder agrees.
    assert_eq!(qoi::encode(&image).unwrap(), reference_encode(&image));
}

#[test]
fn a_first_run_puts_opaque_black_into_the_index() {
    // phoboslab/qoi#258 (the reference suite's `edgecase.qoi`): RUN 1 of
    // the implicit opaque black, an RGB pixel, then INDEX 53, the slot of
    // opaque black (hash 255 * 11 = 2805 % 64 = 53). A decoder that skips
    // the run's pixel reads transparent black there.
    let bytes = file(3, 1, &[0xc0, 0xfe, 5, 5, 5, 53]);
    let image = qoi::decode(&bytes).unwrap();
    assert_eq!(image.rgba, [0, 0, 0, 255, 5, 5, 5, 255, 0, 0, 0, 255]);
}

#[test]
fn an_index_op_on_a_slot_never_written_stores_transparent_black() {
    // As the reference decoder does after every op: INDEX 7 of a slot
    // never written gives transparent black, which is then stored at its
    // hash, slot 0, over the pixel there; so INDEX 0 gives it too.
    // (2, 1, 0, 255) has hash 6 + 5 + 2805 = 2816 = 44 * 64: slot 0.
    let bytes = file(4, 1, &[0xff, 2, 1, 0, 255, 0x00, 0x07, 0x00]);
    let image = qoi::decode(&bytes).unwrap();
    assert_eq!(
        image.rgba,
        [2, 1, 0, 255, 2, 1, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0]
    );
}

#[test]
fn every_rule_has_its_own_variant_and_offset() {
    let cases: Vec<(Vec<u8>, Error)> = vec![
        (
            {
                let mut b = file(1, 1, &[0xc0]);
                b[0] = b'Q';
                b
            },
            Error::Magic { found: *b"Qoif" },
        ),
        (
            file(0, 5, &[0xc0]),
            Error::ZeroDimension {
                width: 0,
                height: 5,
            },
        ),
        (
            file(7, 0, &[0xc0]),
            Error::ZeroDimension {
                width: 7,
                height: 0,
            },
        ),
        (
            file(20_001, 20_000, &[0xc0]),
            Error::TooManyPixels {
                width: 20_001,
                height: 20_000,
            },
        ),
        (
            file(63, 1, &[0xfd]),
            Error::TooFewBytes {
                pixels: 63,
                data_bytes: 1,
            },
        ),
        (
            {
                let mut b = file(1, 1, &[0xc0]);
                b[12] = 5;
                b
            },
            Error::Channels { found: 5 },
        ),
        (
            {
                let mut b = file(1, 1, &[0xc0]);
                b[13] = 2;
                b
            },
            Error::Colorspace { found: 2 },
        ),
        (
            file(2, 1, &[0xc2, 0, 0, 0, 0]),
            Error::RunPastImage {
                offset: 14,
                run: 3,
                left: 2,
            },
        ),
        (
            file(2, 1, &[0xc0, 0xc1]),
            Error::RunPastImage {
                offset: 15,
                run: 2,
                left: 1,
            },
        ),
        (
            {
                let mut b = file(1, 1, &[0xc0]);
                *b.last_mut().unwrap() = 2;
                b
            },
            Error::EndMarker { offset: 15 },
        ),
    ];
    let offsets = [0, 4, 4, 4, 14, 12, 13, 14, 15, 15];
    let messages = [
        "magic is [51, 6f, 69, 66], expected \"qoif\"",
        "image is 0 x 5: width and height must be at least 1",
        "image is 7 x 0: width and height must be at least 1",
        "image is 20001 x 20000, more than the limit of 400000000 pixels",
        "63 pixels cannot come from 1 bytes of ops (at most 62 pixels a byte)",
        "channels is 5, expected 3 or 4",
        "colorspace is 2, expected 0 or 1",
        "a run of 3 pixels, but only 2 pixels of the image are left",
        "a run of 2 pixels, but only 1 pixels of the image are left",
        "the end marker 00 00 00 00 00 00 00 01 must follow the last pixel",
    ];
    for (((bytes, want), offset), message) in cases.into_iter().zip(offsets).zip(messages) {
        let got = qoi::decode(&bytes).unwrap_err();
        assert_eq!(got, want);
        assert_eq!(got.offset(), Some(offset), "{want:?}");
        assert_eq!(got.to_string(), format!("at byte {offset}: {message}"));
    }
    // Truncated ops, each named at the byte where it starts: eight runs
    // of one pixel (so the file is long enough for the header's size
    // check), then the cut op as the file's last bytes.
    for (op, name, need) in [
        (&[0xfe, 1, 2][..], "QOI_OP_RGB", 4),
        (&[0xff, 1, 2, 3][..], "QOI_OP_RGBA", 5),
        (&[0x80][..], "QOI_OP_LUMA", 2),
    ] {
        let mut bytes = header_bytes(20, 1, 4, 0);
        bytes.extend_from_slice(&[0xc0; 8]);
        bytes.extend_from_slice(op);
        let got = qoi::decode(&bytes).unwrap_err();
        assert_eq!(
            got,
            Error::TruncatedOp {
                offset: 22,
                op: name,
                need,
                have: op.len()
            },
            "{name}"
        );
        assert_eq!(
            got.to_string(),
            format!(
                "at byte 22: {name} needs {need} bytes, only {} left: the op is truncated",
                op.len()
            )
        );
    }
    let mut bytes = header_bytes(20, 1, 4, 0);
    bytes.extend_from_slice(&[0xc0; 9]);
    assert_eq!(
        qoi::decode(&bytes).unwrap_err(),
        Error::TruncatedOp {
            offset: 23,
            op: "an op",
            need: 1,
            have: 0
        }
    );
    let got = qoi::decode(&header_bytes(1, 1, 4, 0)).unwrap_err();
    assert!(matches!(got, Error::TooFewBytes { .. }), "{got:?}");
}

#[test]
fn opaque_means_every_alpha_is_255() {
    let (image, _) = golden();
    assert!(!image.is_opaque());
    let opaque = rgba(2, 1, &[[1, 2, 3, 255], [4, 5, 6, 255]]);
    assert!(opaque.is_opaque());
}

#[test]
fn the_marker_must_end_the_file() {
    let (_, bytes) = golden();
    let mut longer = bytes.clone();
    longer.push(0);
    let e = qoi::decode(&longer).unwrap_err();
    assert!(
        matches!(&e, Error::Bytes(b) if b.offset() == bytes.len() as u64),
        "{e:?}"
    );
    // A missing marker, ops running into a marker that is only partly
    // there: every proper prefix fails, never panics.
    for n in 0..bytes.len() {
        assert!(
            qoi::decode(&bytes[..n]).is_err(),
            "prefix of {n} bytes decoded"
        );
    }
    // Pixels finished early, then more ops before the marker.
    let mut extra = file(1, 1, &[0xc0, 0xc0]);
    let e = qoi::decode(&extra).unwrap_err();
    assert_eq!(e, Error::EndMarker { offset: 15 });
    extra.truncate(15);
    assert!(qoi::decode(&extra).is_err());
}

#[test]
fn limits_are_exact() {
    // 62 pixels from one op byte is the densest a file can be.
    let image = qoi::decode(&file(62, 1, &[0xfd])).unwrap();
    assert_eq!(image.rgba.len(), 62 * 4);
    assert!(image.rgba.chunks(4).all(|p| p == [0, 0, 0, 255]));
    // The pixel limit: exactly MAX_PIXELS passes the header (given the
    // bytes a run-only file needs), one row more does not.
    let data = qoi::MAX_PIXELS.div_ceil(qoi::MAX_PIXELS_PER_BYTE) as usize;
    let mut big = header_bytes(20_000, 20_000, 4, 0);
    big.resize(qoi::HEADER_BYTES + data + 8, 0xfd);
    let h = qoi::header(&big).unwrap();
    assert_eq!(h.pixels(), qoi::MAX_PIXELS);
    big[4..8].copy_from_slice(&20_001u32.to_be_bytes());
    assert!(matches!(
        qoi::header(&big),
        Err(Error::TooManyPixels { .. })
    ));
    // One byte fewer than the pixels need.
    let mut tight = header_bytes(20_000, 20_000, 4, 0);
    tight.resize(qoi::HEADER_BYTES + data - 1 + 8, 0xfd);
    assert!(matches!(
        qoi::header(&tight),
        Err(Error::TooFewBytes { .. })
    ));
}

#[test]
fn hostile_headers_allocate_only_what_the_ops_make() {
    // The largest header u32 allows, a few bytes of data: rejected from
    // the header alone.
    for (w, h) in [(u32::MAX, u32::MAX), (u32::MAX, 1), (20_000, 20_000)] {
        let bytes = file(w, h, &[0; 16]);
        let (r, largest) = largest_alloc_in(|| qoi::decode(&bytes));
        assert!(r.is_err());
        assert!(largest < 1024, "{w} x {h}: allocated {largest} bytes");
    }
    // A 20,000 x 20,000 header with 8 MiB of INDEX ops (one pixel each):
    // the header check passes (62 pixels a byte could make 496 M), the
    // ops run out after 8 M pixels. What was allocated follows the pixels
    // the ops make: pieces that at most double what was decoded (8 bytes
    // per op byte here), not the 1.6 GB the header claims.
    let data = 8 << 20;
    let bytes = file(20_000, 20_000, &vec![0u8; data]);
    let (r, largest) = largest_alloc_in(|| qoi::decode(&bytes));
    assert!(matches!(r, Err(Error::TruncatedOp { .. })), "{r:?}");
    // Exactly: a first piece of one pixel per op byte (the 8 M zeros and
    // the marker's 8 bytes, which decode as INDEX ops too), filled, then
    // one more of the same size, then the ops run out.
    assert_eq!(largest, 8 * (data + 8), "allocated {largest} bytes");
    // A run that crosses from one piece into the next (the first piece is
    // 4 M pixels): the image decodes whole and exactly.
    // Then a second colour from an op in the second piece, and its runs.
    let total = (1usize << 22) + 100;
    let second = (1usize << 22) + 50;
    let mut ops = vec![0xfe, 1, 2, 3];
    let mut made = 1;
    while made < total {
        if made == second {
            ops.extend([0xfe, 4, 5, 6]);
            made += 1;
            continue;
        }
        let run = (if made < second { second } else { total } - made).min(62);
        ops.push(0xc0 | (run as u8 - 1));
        made += run;
    }
    let image = qoi::decode(&file(total as u32, 1, &ops)).unwrap();
    assert_eq!(image.rgba.len(), total * 4);
    let (first, rest) = image.rgba.split_at(second * 4);
    assert!(first.chunks_exact(4).all(|p| p == [1, 2, 3, 255]));
    assert!(rest.chunks_exact(4).all(|p| p == [4, 5, 6, 255]));
    // A 2,048 x 2,048 atlas of runs (67 kB) decodes into one piece: one
    // big allocation, no regrowth.
    let mut ops = vec![0xfe, 9, 9, 9];
    let total = 2048 * 2048;
    let mut made = 1;
    while made < total {
        let run = (total - made).min(62);
        ops.push(0xc0 | (run as u8 - 1));
        made += run;
    }
    let bytes = file(2048, 2048, &ops);
    let (r, big) = big_allocs_in(|| qoi::decode(&bytes));
    assert_eq!(r.unwrap().rgba.len(), total * 4);
    assert_eq!(big, 1, "the pixels were allocated {big} times");
}

/// A deterministic image with the structure real images have: flat runs,
/// gradients (DIFF and LUMA), repeats of earlier colours (INDEX), noise
/// (RGB) and alpha changes (RGBA).
fn generated(width: u32, height: u32, seed: u64) -> Image {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let palette: Vec<[u8; 4]> = (0..8)
        .map(|_| next().to_le_bytes()[..4].try_into().unwrap())
        .collect();
    let mut px = [0u8, 0, 0, 255];
    let mut pixels = Vec::new();
    for _ in 0..width * height {
        let r = next();
        match r % 16 {
            0..=5 => {}
            6..=8 => {
                px[0] = px[0].wrapping_add((r >> 8) as u8 % 3).wrapping_sub(1);
                px[1] = px[1].wrapping_add((r >> 16) as u8 % 3).wrapping_sub(1);
            }
            9..=10 => {
                let d = (r >> 8) as u8 % 40;
                px[0] = px[0].wrapping_add(d);
                px[1] = px[1].wrapping_add(d);
                px[2] = px[2].wrapping_add(d ^ 3);
            }
            11..=12 => px = palette[(r >> 8) as usize % 8],
            13 => px[3] = (r >> 8) as u8,
            _ => px = (r >> 8).to_le_bytes()[..4].try_into().unwrap(),
        }
        pixels.push(px);
    }
    rgba(width, height, &pixels)
}

fn reference_encode(image: &Image) -> Vec<u8> {
    qoi::encode(image).unwrap(); // ours must accept it too
    ::qoi::encode_to_vec(&image.rgba, image.header.width, image.header.height).unwrap()
}

#[test]
fn generated_images_round_trip_and_match_the_reference_encoder() {
    let sizes = [
        (1, 1),
        (1, 63),
        (62, 1),
        (63, 2),
        (17, 13),
        (256, 64),
        (31, 257),
    ];
    for (k, &(w, h)) in sizes.iter().enumerate() {
        for seed in 0..8 {
            let image = generated(w, h, (k * 100 + seed) as u64);
            let bytes = qoi::encode(&image).unwrap();
            assert_eq!(bytes, reference_encode(&image), "{w} x {h} seed {seed}");
            assert_eq!(qoi::decode(&bytes).unwrap(), image, "{w} x {h} seed {seed}");
            let (_, theirs) = ::qoi::decode_to_vec(&bytes).unwrap();
            assert_eq!(theirs, image.rgba);
        }
    }
    // A single-colour image of many pixels: runs of 62 and a last short one.
    let flat = rgba(1000, 1, &[[9, 9, 9, 255]; 1000]);
    let bytes = qoi::encode(&flat).unwrap();
    assert_eq!(bytes, reference_encode(&flat));
    assert_eq!(qoi::decode(&bytes).unwrap(), flat);
}

/// `is_reference_encoding` compares block by block (16 KiB of ops at a
/// time): the canonical bytes of an image of many blocks pass; a changed
/// byte in the first, a middle or the last block, a trailing byte, a
/// truncation or another header fail.
#[test]
fn the_reference_check_compares_every_block() {
    let image = generated(256, 256, 42);
    let bytes = qoi::encode(&image).unwrap();
    assert!(
        bytes.len() > 4 * (1 << 14),
        "{} bytes: several blocks",
        bytes.len()
    );
    assert!(qoi::is_reference_encoding(&image, &bytes));
    let ops_end = bytes.len() - 8;
    for at in [
        14,
        20,
        1 << 14,
        (1 << 14) + 1,
        bytes.len() / 2,
        ops_end - 1,
        ops_end,
        bytes.len() - 1,
    ] {
        let mut changed = bytes.clone();
        changed[at] ^= 1;
        assert!(
            !qoi::is_reference_encoding(&image, &changed),
            "byte {at} changed"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(!qoi::is_reference_encoding(&image, &longer));
    for cut in [1, 8, 9, bytes.len() / 2, bytes.len() - 14] {
        assert!(
            !qoi::is_reference_encoding(&image, &bytes[..bytes.len() - cut]),
            "{cut} bytes cut"
        );
    }
    // Another image of the same size: other pixels fail, and so does a
    // header that says linear instead.
    assert!(!qoi::is_reference_encoding(
        &generated(256, 256, 43),
        &bytes
    ));
    let mut linear = image.clone();
    linear.header.colorspace = Colorspace::Linear;
    assert!(!qoi::is_reference_encoding(&linear, &bytes));
    assert!(qoi::is_reference_encoding(
        &linear,
        &qoi::encode(&linear).unwrap()
    ));
}

#[test]
fn every_truncation_of_a_generated_image_is_rejected() {
    let image = generated(23, 19, 7);
    let bytes = qoi::encode(&image).unwrap();
    for n in 0..bytes.len() {
        let e = qoi::decode(&bytes[..n]).unwrap_err();
        assert!(e.offset().unwrap() <= n as u64, "prefix {n}: {e}");
    }
}

#[test]
fn encode_refuses_what_validate_rejects() {
    let mut image = rgba(2, 2, &[[1, 2, 3, 4]; 4]);
    assert!(qoi::validate(&image).is_empty());
    image.rgba.pop();
    assert_eq!(qoi::validate(&image).len(), 1);
    assert!(matches!(qoi::encode(&image), Err(Error::Invalid(_))));
    image.header.width = 0;
    image.rgba.clear();
    assert!(!qoi::validate(&image).is_empty());
    let big = Image {
        header: Header {
            width: 20_001,
            height: 20_000,
            ..image.header
        },
        rgba: vec![],
    };
    assert_eq!(qoi::validate(&big).len(), 2);
    // Exactly the limit: only the missing pixels are a problem.
    let limit = Image {
        header: Header {
            width: 20_000,
            height: 20_000,
            ..image.header
        },
        rgba: vec![],
    };
    assert_eq!(
        qoi::validate(&limit).len(),
        1,
        "{:?}",
        qoi::validate(&limit)
    );
}

#[test]
fn the_fuzz_property_holds_on_every_byte_of_the_golden_file() {
    // What fuzz/fuzz_targets/qoi_decode.rs asserts, over deterministic
    // inputs: decode never panics, and what it accepts re-encodes to a
    // file that decodes to the same image.
    let (_, bytes) = golden();
    for i in qoi::HEADER_BYTES..bytes.len() {
        for v in [
            0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xfd, 0xfe, 0xff,
        ] {
            let mut b = bytes.clone();
            b[i] = v;
            if let Ok(image) = qoi::decode(&b) {
                let again = qoi::encode(&image).unwrap();
                assert_eq!(qoi::decode(&again).unwrap(), image);
            }
        }
    }
}

/// Pillow (an implementation written by others) decodes every image kiln
/// encodes to the same pixels. `tests/full.sh` installs Pillow.
#[test]
#[ignore = "full tier: Pillow"]
fn pillow_decodes_what_kiln_encodes() {
    let (golden, _) = golden();
    let mut images = vec![golden];
    for (k, (w, h)) in [(64, 64), (300, 7), (5, 333)].into_iter().enumerate() {
        images.push(generated(w, h, 1000 + k as u64));
    }
    let files: Vec<Vec<u8>> = images.iter().map(|i| qoi::encode(i).unwrap()).collect();
    let theirs = pillow_support::qoi_rgba(&files);
    let want: Vec<u8> = images.iter().flat_map(|i| i.rgba.iter().copied()).collect();
    assert_eq!(theirs.len(), want.len());
    assert!(theirs == want, "Pillow's pixels differ from kiln's");
}
