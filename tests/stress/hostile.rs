//! The hostile-input suite: every format kiln reads, through the same
//! mutations, each ending in an error (or a value the codec's own
//! `validate` accepts) within stated bounds of time and memory. See
//! RELIABILITY.md for the table this suite backs.
//!
//! For each format's sample (a real file, from the test corpus or made by
//! kiln's encoder):
//! - truncation at every byte (a dense sample of the cuts for files over
//!   4 KiB: every cut in the first 2 KiB, the last 64, and 1,000 spread
//!   over the rest): always an error;
//! - trailing bytes (1 and 7): an error for every format whose length is
//!   exact (not GLB, whose header gives the length kiln reads: the
//!   importer takes a buffer view's bytes, not the file's);
//! - every u32 in the first 256 bytes set to u32::MAX, 2^31 and 2^31 − 1,
//!   every u64 there to u64::MAX (count fields at their maximum);
//! - every 4-byte word of the file (a spread sample of at most 1,500; 300
//!   for the 205 KiB JPEG) set to NaN, +inf and −inf (float fields).
//!
//! Bounds asserted on every input, by counting (never by the clock, which a
//! loaded machine moves): no panic; no single allocation over
//! [`alloc_bound`] (the format's largest expansion × the input + 1 MiB; 16
//! for kiln's own formats) and no more than [`BYTES_PER_BOUND`] times that
//! allocated in all (work that allocates is bounded with it). Every refusal
//! names a byte of the input (`at byte N`, N at most its length). Each
//! format's sweep runs under a hang guard (`guard_support::no_hang`); the
//! slowest decode is reported, not asserted.

use std::time::{Duration, Instant};

use kiln::formats::{cgeo, gguf, glb, kchr, mbreplay, mbstyle, ospc, qoi, safetensors};
use kiln::import::{gltf, image};

use crate::synth;
use crate::{alloc_support, guard_support};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

/// All that one decode of a hostile input may allocate, in units of its
/// [`alloc_bound`].
const BYTES_PER_BOUND: usize = 2;

/// The largest single allocation allowed for an input of `len` bytes of
/// a format that expands at most `ratio` times.
fn alloc_bound(len: usize, ratio: usize) -> usize {
    ratio * len + (1 << 20)
}

type Decode = fn(&[u8]) -> Result<(), String>;

struct Format {
    name: &'static str,
    sample: Vec<u8>,
    decode: Decode,
    /// Trailing bytes are refused.
    exact_end: bool,
    /// Its largest expansion, bytes decoded per byte read: 16 for kiln's
    /// own formats (a value is never smaller than its encoding by more);
    /// images' RGBA8 pixels by the rules in `import::image` (a 1-bit PNG
    /// inflates 1,032:1 to 8 pixels a byte, 4 bytes each).
    ratio: usize,
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(format!("{REPO}/{rel}")).unwrap()
}

fn glb_image(rel: &str, index: usize) -> Vec<u8> {
    let bytes = read(rel);
    let g = glb::decode(&bytes).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(g.json_text()).unwrap();
    let view = &doc["bufferViews"][doc["images"][index]["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    g.bin.unwrap()[start..start + view["byteLength"].as_u64().unwrap() as usize].to_vec()
}

/// The 264-byte replay of docs/formats/mbreplay.md's example.
fn replay() -> Vec<u8> {
    let mut b = b"MBRPLY1\0".to_vec();
    let mut put = |words: &[u32]| words.iter().for_each(|w| b.extend(w.to_le_bytes()));
    put(&[1, 30, 3, 2, 1, 1, 4, 0]);
    put(&[-1i32 as u32, 0, 7, 7, 8, -1i32 as u32, 0, 0]);
    put(&[0.5f32.to_bits(), 0.25f32.to_bits(), (-0.0f32).to_bits()]);
    for f in 0..3 {
        let x = (f as f32 * 0.1).to_bits();
        put(&[
            x,
            0.9f32.to_bits(),
            0,
            x,
            0.4f32.to_bits(),
            0.2f32.to_bits(),
        ]);
    }
    put(&[1, 2, 24]);
    for k in 0..4 {
        let z = k as f32;
        put(&[
            0,
            0.9f32.to_bits(),
            z.to_bits(),
            0,
            0.4f32.to_bits(),
            (z + 0.2).to_bits(),
        ]);
    }
    assert_eq!(b.len(), 264);
    b
}

fn string<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

fn formats() -> Vec<Format> {
    let kchr_sample = read("tests/golden/kchr/sample.kchr");
    // 24 x 16 pixels that use every QOI op: runs, the index, small and
    // luma differences, full RGB and RGBA.
    let qoi_sample = qoi::encode(&qoi::Image {
        header: qoi::Header {
            width: 24,
            height: 16,
            channels: qoi::Channels::Rgba,
            colorspace: qoi::Colorspace::Srgb,
        },
        rgba: (0..24 * 16u32)
            .flat_map(|i| match i % 7 {
                0 | 1 => [10, 20, 30, 255],
                2 => [(i % 251) as u8, (i * 3 % 256) as u8, 7, 255],
                3 => [11, 21, 31, 255],
                4 => [40, 50, 60, 255],
                5 => [(i * 7 % 256) as u8, 9, (i % 13) as u8, (i % 200) as u8],
                _ => [10, 20, 30, 255],
            })
            .collect(),
    })
    .unwrap();
    vec![
        Format {
            name: "GLB container",
            sample: read("tests/golden/glb/tiny.glb"),
            decode: |b| {
                let g = glb::decode(b).map_err(string)?;
                match glb::validate(g.json, g.bin).first() {
                    Some(p) => Err(p.to_string()),
                    None => Ok(()),
                }
            },
            exact_end: false,
            ratio: 16,
        },
        Format {
            name: "glTF (GLB, accessors, skins, clips)",
            sample: read("tests/corpus/glb/SimpleSkin.glb"),
            decode: |b| gltf::import_scene(b, &[]).map(drop).map_err(string),
            exact_end: false,
            ratio: 16,
        },
        Format {
            name: "glTF, meshopt-compressed views (gltfpack -cc)",
            sample: read("tests/corpus/glb-meshopt/SimpleSkin.cc.glb"),
            decode: |b| gltf::import_scene(b, &[]).map(drop).map_err(string),
            exact_end: false,
            ratio: 16,
        },
        Format {
            name: "glTF, Draco (KHR_draco_mesh_compression)",
            sample: read("tests/corpus/glb-variants/SimpleSkin.draco-fine.glb"),
            decode: |b| gltf::import_scene(b, &[]).map(drop).map_err(string),
            exact_end: false,
            ratio: 16,
        },
        Format {
            name: "PNG",
            sample: glb_image("tests/corpus/glb/MorphStressTest.glb", 2),
            decode: |b| image::decode(b).map(drop).map_err(string),
            exact_end: true,
            ratio: 4 * 8 * image::MAX_DEFLATE_RATIO as usize,
        },
        Format {
            name: "JPEG",
            sample: glb_image("tests/corpus/glb/CesiumMan-blender.glb", 0),
            decode: |b| image::decode(b).map(drop).map_err(string),
            exact_end: true,
            ratio: 4 * image::MAX_JPEG_PIXELS_PER_BYTE as usize,
        },
        Format {
            name: "QOI",
            sample: qoi_sample,
            decode: |b| {
                let i = qoi::decode(b).map_err(string)?;
                assert!(qoi::validate(&i).is_empty());
                Ok(())
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "pose cache (.ospc)",
            sample: read("tests/golden/ospc/tiny.ospc"),
            decode: |b| {
                let c = ospc::decode(b).map_err(string)?;
                assert!(ospc::validate(&c).is_empty());
                Ok(())
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "compiled characters (KCHR)",
            sample: kchr_sample,
            decode: |b| {
                let d = kchr::decode(b).map_err(string)?;
                assert!(kchr::validate(&d).is_empty());
                Ok(())
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "safetensors header",
            sample: read("tests/corpus/safetensors/mixed_edgecases.safetensors"),
            decode: |b| safetensors::decode(b).map(drop).map_err(string),
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "GGUF header",
            sample: read("tests/corpus/gguf/tiny_alltypes.gguf"),
            decode: |b| {
                gguf::decode_header(b, b.len() as u64)
                    .map(drop)
                    .map_err(string)
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "MotionBricks style (.mbstyle)",
            sample: mbstyle::encode(&synth::style("walk", 4, (6, 11))).unwrap(),
            decode: |b| {
                let s = mbstyle::decode(b).map_err(string)?;
                assert!(mbstyle::validate(&s).is_empty());
                Ok(())
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "MotionBricks replay (.mbreplay)",
            sample: replay(),
            decode: |b| {
                let r = mbreplay::decode(b).map_err(string)?;
                assert!(mbreplay::validate(&r).is_empty());
                Ok(())
            },
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "CGeo, uncompressed",
            sample: read("sources/sequences/debris-plank.cgeo"),
            decode: cgeo_decode,
            exact_end: true,
            ratio: 16,
        },
        Format {
            name: "CGeo, zlib",
            sample: read("sources/sequences/debris-rock.cgeo"),
            decode: cgeo_decode,
            exact_end: true,
            ratio: 16,
        },
    ]
}

fn cgeo_decode(b: &[u8]) -> Result<(), String> {
    let mut r = cgeo::Reader::new(b).map_err(string)?;
    for k in 0..r.len() {
        r.snapshot(k).map_err(string)?;
    }
    let seq = cgeo::decode(b).map_err(string)?;
    assert!(cgeo::validate(&seq).is_empty());
    Ok(())
}

fn cuts(len: usize) -> Vec<usize> {
    if len <= 4096 {
        return (0..len).collect();
    }
    let mut c: Vec<usize> = (0..2048).chain(len - 64..len).collect();
    c.extend((0..1000).map(|k| 2048 + k * (len - 2112) / 1000));
    c.sort_unstable();
    c.dedup();
    c
}

struct Tally {
    inputs: usize,
    errors: usize,
    slowest: Duration,
    largest: usize,
    /// The most bytes one decode allocated in all.
    most_bytes: usize,
}

/// Decodes `input`, checking the bounds; whether it was refused.
fn run(f: &Format, what: &str, input: &[u8], tally: &mut Tally) -> Result<(), String> {
    let start = Instant::now();
    let (result, counts) = alloc_support::counts_in(|| {
        std::panic::catch_unwind(|| (f.decode)(input))
            .unwrap_or_else(|_| panic!("{}: {what}: a panic", f.name))
    });
    let took = start.elapsed();
    let largest = counts.largest;
    assert!(
        largest <= alloc_bound(input.len(), f.ratio),
        "{}: {what}: an allocation of {largest} bytes for {} input bytes",
        f.name,
        input.len()
    );
    assert!(
        counts.bytes <= BYTES_PER_BOUND * alloc_bound(input.len(), f.ratio),
        "{}: {what}: {} bytes allocated in all for {} input bytes",
        f.name,
        counts.bytes,
        input.len()
    );
    tally.most_bytes = tally.most_bytes.max(counts.bytes);
    tally.inputs += 1;
    tally.errors += usize::from(result.is_err());
    tally.slowest = tally.slowest.max(took);
    tally.largest = tally.largest.max(largest);
    if let Err(e) = &result {
        assert!(!e.trim().is_empty(), "{}: {what}: an empty message", f.name);
        // Every refusal names where: a byte of the input.
        match place_of(e) {
            Some(at) => assert!(
                at <= input.len(),
                "{}: {what}: byte {at} of {} in {e:?}",
                f.name,
                input.len()
            ),
            None => panic!("{}: {what}: no byte offset in {e:?}", f.name),
        }
    }
    result
}

/// The byte an error names: the `N` of its first `at byte N`.
fn place_of(e: &str) -> Option<usize> {
    let (_, after) = e.split_once("at byte ")?;
    let digits = after
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(after.len());
    after[..digits].parse().ok()
}

#[test]
fn place_of_reads_the_first_at_byte() {
    assert_eq!(place_of("at byte 12: x"), Some(12));
    assert_eq!(place_of("invalid GGUF: at byte 3: y at byte 9"), Some(3));
    assert_eq!(place_of("at byte 0"), Some(0));
    for none in ["no place", "at byte x: y", "at byte : y", "the byte 7", ""] {
        assert_eq!(place_of(none), None, "{none:?}");
    }
}

fn patched(sample: &[u8], at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut b = sample.to_vec();
    b[at..at + bytes.len()].copy_from_slice(bytes);
    b
}

/// Runs every mutation of the format named `name` through its decoder.
fn check(name: &str) {
    let f = formats()
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no format {name}"));
    let mut t = Tally {
        inputs: 0,
        errors: 0,
        slowest: Duration::ZERO,
        largest: 0,
        most_bytes: 0,
    };
    let s = &f.sample;
    run(&f, "the sample", s, &mut t).unwrap_or_else(|e| panic!("{}: the sample: {e}", f.name));
    for cut in cuts(s.len()) {
        let r = run(&f, &format!("cut at {cut}"), &s[..cut], &mut t);
        assert!(
            r.is_err(),
            "{}: the file cut at byte {cut} of {} decodes",
            f.name,
            s.len()
        );
    }
    for extra in [&[0u8][..], b"trailer"] {
        let mut long = s.clone();
        long.extend_from_slice(extra);
        let r = run(
            &f,
            &format!("{} trailing bytes", extra.len()),
            &long,
            &mut t,
        );
        if f.exact_end {
            assert!(
                r.is_err(),
                "{}: {} trailing bytes accepted",
                f.name,
                extra.len()
            );
        }
    }
    let head = s.len().min(256);
    for at in 0..head.saturating_sub(3) {
        for v in [u32::MAX, 1 << 31, (1 << 31) - 1] {
            let _ = run(
                &f,
                &format!("u32 {v:#x} at {at}"),
                &patched(s, at, &v.to_le_bytes()),
                &mut t,
            );
        }
        if at + 8 <= head {
            let _ = run(
                &f,
                &format!("u64::MAX at {at}"),
                &patched(s, at, &u64::MAX.to_le_bytes()),
                &mut t,
            );
        }
    }
    let words = s.len() / 4;
    // A large sample (the JPEG) gets a sparser spread.
    let step = words
        .div_ceil(if s.len() > 1 << 16 { 300 } else { 1500 })
        .max(1);
    for w in (0..words).step_by(step) {
        for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let _ = run(
                &f,
                &format!("{v} at {}", 4 * w),
                &patched(s, 4 * w, &v.to_le_bytes()),
                &mut t,
            );
        }
    }
    // The figures RELIABILITY.md quotes (`--nocapture`).
    eprintln!(
        "{}: {} bytes; {} inputs, {} refused; slowest {:.1} ms; largest allocation {} KiB; most allocated by one decode {} KiB",
        f.name,
        s.len(),
        t.inputs,
        t.errors,
        t.slowest.as_secs_f64() * 1e3,
        t.largest / 1024,
        t.most_bytes / 1024
    );
}

macro_rules! formats_tested {
    ($($test:ident: $name:literal,)*) => {
        $(#[test]
        fn $test() {
            guard_support::no_hang($name, || check($name));
        })*

        #[test]
        fn every_format_is_tested() {
            let tested = [$($name),*];
            for f in formats() {
                assert!(tested.contains(&f.name), "{} has no test", f.name);
            }
        }
    };
}

formats_tested! {
    glb_container: "GLB container",
    gltf: "glTF (GLB, accessors, skins, clips)",
    gltf_meshopt: "glTF, meshopt-compressed views (gltfpack -cc)",
    gltf_draco: "glTF, Draco (KHR_draco_mesh_compression)",
    png: "PNG",
    jpeg: "JPEG",
    qoi_image: "QOI",
    pose_cache: "pose cache (.ospc)",
    compiled_characters: "compiled characters (KCHR)",
    safetensors_header: "safetensors header",
    gguf_header: "GGUF header",
    motionbricks_style: "MotionBricks style (.mbstyle)",
    motionbricks_replay: "MotionBricks replay (.mbreplay)",
    cgeo_uncompressed: "CGeo, uncompressed",
    cgeo_zlib: "CGeo, zlib",
}

/// Cycles in every graph a format holds. glTF's node hierarchy (a cycle,
/// a node its own child, one with two parents) is in tests/bake/gltf_import.rs
/// (`broken_hierarchies_are_rejected`), KCHR's node parents in
/// tests/formats/kchr.rs (`hierarchy cycle`, `a node its own parent`); here the
/// replay's joint tree, whose rule (a parent is an earlier joint) leaves no
/// room for a cycle: a joint its own parent, a later parent, the root with
/// a parent.
#[test]
fn a_replays_joint_tree_cannot_hold_a_cycle() {
    let r = replay();
    for (parents, says) in [
        ([-1i32, 1], "parents[1] must be an earlier joint"),
        ([-1, 2], "parents[1] must be an earlier joint"),
        ([0, 0], "parents[0] must be -1"),
        ([1, 0], "parents[0] must be -1"),
    ] {
        let mut b = r.clone();
        b[40..44].copy_from_slice(&parents[0].to_le_bytes());
        b[44..48].copy_from_slice(&parents[1].to_le_bytes());
        let e = mbreplay::decode(&b)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains(says), "{parents:?}: {e:?}");
    }
}

/// Names per GGUF in the duplicate checks below: a check that scanned
/// every earlier name would make 5 * 10^11 comparisons (hours), so the
/// hang guard fails it; a check by lookup takes a moment.
const MANY_NAMES: usize = 1_000_000;

/// A GGUF header of `MANY_NAMES` fixed-width tensor names or metadata
/// keys, the last patched to equal the first: decoded, the duplicate is
/// found at the last one's byte, naming the first.
#[test]
fn duplicate_names_among_a_million_are_found_by_lookup_not_by_scanning() {
    let name = |i: usize| format!("n{i:07}");
    // Tensors.
    let names: Vec<String> = (0..MANY_NAMES).map(name).collect();
    let tensors: Vec<gguf::TensorDesc> = names
        .iter()
        .map(|n| gguf::TensorDesc {
            name: n,
            dims: &[1],
            ty: gguf::TensorType::F32,
        })
        .collect();
    let (mut bytes, header) = gguf::encode_header(&[], &tensors).unwrap();
    let last = header.tensor_info_at(MANY_NAMES - 1) as usize;
    // The name's bytes follow its 8-byte length.
    bytes[last + 8..last + 16].copy_from_slice(name(0).as_bytes());
    let len = bytes.len() as u64 + MANY_NAMES as u64 * 32;
    let err = guard_support::no_hang("a million tensor names", || {
        gguf::decode_header(&bytes, len).unwrap_err()
    });
    assert!(
        matches!(&err, gguf::Error::DuplicateTensor { offset, first: 0, .. } if *offset == last as u64),
        "{err}"
    );
    // Metadata keys: as many as a header may have (a million is refused
    // at its count).
    let most = gguf::MAX_METADATA_ENTRIES as usize;
    let metadata: Vec<(String, gguf::Value)> =
        (0..most).map(|i| (name(i), gguf::Value::U8(1))).collect();
    let (mut bytes, header) = gguf::encode_header(&metadata, &[]).unwrap();
    let last = header.metadata_at(most - 1) as usize;
    bytes[last + 8..last + 16].copy_from_slice(name(0).as_bytes());
    let len = bytes.len() as u64;
    let err = guard_support::no_hang("65,536 metadata keys", || {
        gguf::decode_header(&bytes, len).unwrap_err()
    });
    assert!(
        matches!(&err, gguf::Error::DuplicateKey { offset, first: 0, .. } if *offset == last as u64),
        "{err}"
    );
    let metadata: Vec<(String, gguf::Value)> = (0..MANY_NAMES)
        .map(|i| (name(i), gguf::Value::U8(1)))
        .collect();
    let (bytes, _) = gguf::encode_header(&metadata, &[]).unwrap();
    let err = gguf::decode_header(&bytes, bytes.len() as u64).unwrap_err();
    assert!(
        matches!(&err, gguf::Error::TooMany { offset: 16, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("1000000 metadata entries, more than the 65536 kiln reads"),
        "{err}"
    );
}
