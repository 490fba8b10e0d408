//! Tests of the GLB container codec (`kiln::formats::glb`) against the spec
//! in `docs/formats/glb.md`, on every GLB of the corpus and a golden file,
//! and a deterministic mutation run of the glTF importer.
//!
//! Regenerate the golden file with `KILN_BLESS=1 cargo test --release --test formats glb::`.

use std::path::{Path, PathBuf};

use kiln::formats::glb::{
    self, CHUNK_BIN, CHUNK_JSON, Error, Glb, MAX_FILE_BYTES, decode, encode, validate,
};
use kiln::import::gltf::import_scene;
use kiln::model::{Interpolation, Target};

// Hostile inputs must not allocate: the tracking allocator shows it.
use crate::alloc_support;
use alloc_support::largest_alloc_in;

// ---------------------------------------------------------------------------
// Corpus access

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(corpus().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every file under tests/corpus with extension `ext`, relative, sorted.
fn corpus_files(ext: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![corpus()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().and_then(|e| e.to_str()) == Some(ext) {
                let rel = path.strip_prefix(corpus()).unwrap();
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn put_u32(bytes: &mut [u8], at: usize, v: u32) {
    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// `bytes` with the header's total length set to the byte count.
fn fix_length(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() as u32;
    put_u32(&mut bytes, 8, n);
    bytes
}

#[track_caller]
fn assert_rejects(bytes: &[u8], offset: usize, part: &str) -> Error {
    let e = decode(bytes).expect_err("accepted");
    assert_eq!(e.offset(), Some(offset as u64), "{e}");
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("at byte {offset}: ")), "{msg}");
    assert!(msg.contains(part), "{msg:?} lacks {part:?}");
    e
}

// ---------------------------------------------------------------------------
// The corpus

/// Every real GLB decodes, and encoding its chunks gives back the file byte
/// for byte: no file has skipped chunks, and every writer padded its chunks
/// to 4 bytes, which `decode` returns as stored.
#[test]
fn every_corpus_glb_round_trips_byte_for_byte() {
    let files = corpus_files("glb");
    assert!(files.len() >= 40, "{files:?}");
    for rel in &files {
        let bytes = read(rel);
        let g = decode(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert!(g.json.len().is_multiple_of(4) && g.bin.is_some(), "{rel}");
        assert!(validate(g.json, g.bin).is_empty(), "{rel}");
        assert_eq!(g.encoded_len(), Some(bytes.len()), "{rel}");
        assert!(
            encode(g.json, g.bin) == bytes,
            "{rel}: re-encoded bytes differ"
        );
        let text = g.json_text();
        assert!(text.starts_with(b"{") && text.ends_with(b"}"), "{rel}");
        serde_json::from_slice::<serde_json::Value>(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
    }
}

// ---------------------------------------------------------------------------
// The golden file, built by `encode`

const GOLDEN_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/glb/tiny.glb");

/// One node moved by a 3-key LINEAR translation, stored quantized (normalized
/// i16, KHR_mesh_quantization): times 0, 0.5, 1 s as f32 at bin byte 0,
/// translations (0,0,0), (1,0,-1), (0,1,0) at bin byte 12. 30 bytes of bin.
const GOLDEN_JSON: &str = concat!(
    r#"{"asset":{"version":"2.0","generator":"kiln tests"},"#,
    r#""extensionsUsed":["KHR_mesh_quantization"],"#,
    r#""extensionsRequired":["KHR_mesh_quantization"],"#,
    r#""scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"mover"}],"#,
    r#""animations":[{"name":"move","#,
    r#""samplers":[{"input":0,"output":1,"interpolation":"LINEAR"}],"#,
    r#""channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}],"#,
    r#""accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[1]},"#,
    r#"{"bufferView":1,"componentType":5122,"normalized":true,"count":3,"type":"VEC3"}],"#,
    r#""bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":12},"#,
    r#"{"buffer":0,"byteOffset":12,"byteLength":18}],"#,
    r#""buffers":[{"byteLength":30}]}"#
);

fn golden_bin() -> Vec<u8> {
    let mut bin = Vec::new();
    for t in [0.0f32, 0.5, 1.0] {
        bin.extend_from_slice(&t.to_le_bytes());
    }
    for c in [0i16, 0, 0, 32767, 0, -32767, 0, 32767, 0] {
        bin.extend_from_slice(&c.to_le_bytes());
    }
    assert_eq!(bin.len(), 30);
    bin
}

fn golden_bytes() -> Vec<u8> {
    encode(GOLDEN_JSON.as_bytes(), Some(&golden_bin()))
}

#[test]
fn golden_file_matches_encode() {
    let bytes = golden_bytes();
    if std::env::var_os("KILN_BLESS").is_some() {
        std::fs::create_dir_all(Path::new(GOLDEN_PATH).parent().unwrap()).unwrap();
        std::fs::write(GOLDEN_PATH, &bytes).unwrap();
    }
    let on_disk = std::fs::read(GOLDEN_PATH).expect(
        "golden file missing: run `KILN_BLESS=1 cargo test --release --test formats glb::`",
    );
    assert!(on_disk == bytes, "golden file differs from encode's bytes");
}

/// The golden bytes field by field, as the spec lays them out.
#[test]
fn golden_layout_follows_the_spec() {
    let b = golden_bytes();
    let json_len = GOLDEN_JSON.len();
    let json_padded = json_len.next_multiple_of(4);
    assert_ne!(json_len, json_padded, "the golden json exercises padding");
    let bin_at = 20 + json_padded;
    assert_eq!(b.len(), bin_at + 8 + 32);

    assert_eq!(&b[0..4], b"glTF");
    assert_eq!(u32_at(&b, 4), 2);
    assert_eq!(u32_at(&b, 8) as usize, b.len());
    assert_eq!(u32_at(&b, 12) as usize, json_padded);
    assert_eq!(u32_at(&b, 16), CHUNK_JSON);
    assert_eq!(&b[16..20], b"JSON");
    assert_eq!(&b[20..20 + json_len], GOLDEN_JSON.as_bytes());
    assert!(b[20 + json_len..bin_at].iter().all(|&c| c == b' '));
    assert_eq!(u32_at(&b, bin_at), 32);
    assert_eq!(u32_at(&b, bin_at + 4), CHUNK_BIN);
    assert_eq!(&b[bin_at + 4..bin_at + 8], b"BIN\0");
    assert_eq!(&b[bin_at + 8..bin_at + 38], golden_bin());
    assert_eq!(&b[bin_at + 38..], [0, 0]);
}

#[test]
fn golden_decodes_and_imports() {
    let bytes = std::fs::read(GOLDEN_PATH).unwrap_or_else(|_| golden_bytes());
    let g = decode(&bytes).unwrap();
    assert_eq!(g.json_text(), GOLDEN_JSON.as_bytes());
    let mut bin = golden_bin();
    bin.extend_from_slice(&[0, 0]);
    assert_eq!(g.bin, Some(bin.as_slice()));
    assert_eq!(encode(g.json, g.bin), bytes);

    let scene = import_scene(&bytes, &[]).unwrap();
    assert_eq!(scene.nodes.len(), 1);
    assert_eq!(scene.roots, [0]);
    let clip = &scene.clips[0];
    assert_eq!(clip.name.as_deref(), Some("move"));
    let ch = &clip.channels[0];
    assert_eq!(ch.target, Target::Translation);
    assert_eq!(ch.interpolation, Interpolation::Linear);
    assert_eq!(ch.times_s, [0.0, 0.5, 1.0]);
    assert_eq!(ch.values, [0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0]);
}

#[test]
fn encode_then_decode_gives_the_padded_chunks() {
    for json_len in 0..9 {
        for bin_len in [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(5)] {
            let json = vec![b'x'; json_len];
            let bin = bin_len.map(|n| vec![7u8; n]);
            let bytes = encode(&json, bin.as_deref());
            let g = decode(&bytes).unwrap();
            assert_eq!(&g.json[..json_len], json.as_slice());
            assert!(g.json[json_len..].iter().all(|&c| c == b' '));
            assert_eq!(g.json.len(), json_len.next_multiple_of(4));
            match (g.bin, &bin) {
                (None, None) => {}
                (Some(got), Some(want)) => {
                    assert_eq!(&got[..want.len()], want.as_slice());
                    assert!(got[want.len()..].iter().all(|&c| c == 0));
                    assert_eq!(got.len(), want.len().next_multiple_of(4));
                }
                other => panic!("{other:?}"),
            }
            // Once padded, a second round trip is exact.
            assert_eq!(encode(g.json, g.bin), bytes);
        }
    }
}

// ---------------------------------------------------------------------------
// Truncation and trailing bytes

/// Every proper prefix is rejected by the header length. With the length
/// fixed up to the prefix's, every prefix is still rejected (the chunk walk
/// finds the cut, at or before its end), except the one that ends right
/// after the JSON chunk, which is a GLB without BIN.
#[test]
fn every_proper_prefix_is_rejected() {
    for bytes in [
        golden_bytes(),
        read("glb/SimpleSkin.glb"),
        read("glb-meshopt/SimpleSkin.cc.glb"),
    ] {
        decode(&bytes).unwrap();
        let json_end = 20 + u32_at(&bytes, 12) as usize;
        for n in 0..bytes.len() {
            let e = decode(&bytes[..n]).expect_err("prefix accepted");
            if n < 12 {
                assert_eq!(e, Error::TooShort { len: n });
            } else {
                assert_eq!(
                    e,
                    Error::Length {
                        declared: bytes.len() as u32,
                        len: n
                    }
                );
            }
            if n < 12 {
                continue;
            }
            let fixed = fix_length(bytes[..n].to_vec());
            match decode(&fixed) {
                Ok(g) => {
                    assert_eq!(n, json_end, "prefix of {n} bytes accepted");
                    assert_eq!(g.bin, None);
                }
                Err(e) => {
                    let at = e.offset().unwrap();
                    assert!(at <= n as u64, "{e} (prefix {n})");
                    assert!(n != json_end, "{e}");
                    assert_eq!(e.to_string(), format!("at byte {at}: {}", e.rule()));
                }
            }
        }
    }
}

#[test]
fn trailing_bytes_are_rejected() {
    let bytes = golden_bytes();
    let len = bytes.len();
    for extra in 1..=8 {
        let mut b = bytes.clone();
        b.extend(std::iter::repeat_n(0xAB, extra));
        assert_rejects(
            &b,
            8,
            &format!("differs from the file's {} bytes", len + extra),
        );
        // Length fixed up: the bytes must then be a whole chunk, and these
        // are not (a chunk header needs 8; with 8, 0xABABABAB overruns).
        let b = fix_length(b);
        if extra < 4 {
            assert_rejects(&b, len, "bytes of glb chunk length, found");
        } else if extra < 8 {
            assert_rejects(&b, len + 4, "bytes of glb chunk type, found");
        } else {
            assert_rejects(&b, len, "overruns");
        }
    }
}

/// Trailing bytes that do form a chunk of an unknown type are a chunk: they
/// are skipped, as glTF says, and `encode` leaves them out.
#[test]
fn unknown_chunks_at_the_end_are_skipped() {
    let bytes = golden_bytes();
    let mut b = bytes.clone();
    for (kind, data) in [(0u32, &[][..]), (0x5458_4554, &[1, 2, 3, 4][..])] {
        b.extend_from_slice(&(data.len() as u32).to_le_bytes());
        b.extend_from_slice(&kind.to_le_bytes());
        b.extend_from_slice(data);
    }
    let b = fix_length(b);
    let g = decode(&b).unwrap();
    assert_eq!(g, decode(&bytes).unwrap());
    assert_eq!(encode(g.json, g.bin), bytes);
    import_scene(&b, &[]).unwrap();
}

// ---------------------------------------------------------------------------
// Header and chunk rules, one by one

#[test]
fn rule_magic() {
    let mut b = golden_bytes();
    b[0..4].copy_from_slice(b"GLTF");
    let e = assert_rejects(&b, 0, "magic must be \"glTF\"");
    assert_eq!(e, Error::Magic { found: *b"GLTF" });
    assert!(e.to_string().contains("47 4c 54 46"), "{e}");
    assert_rejects(&b"glT"[..], 0, "only 3 bytes");
}

#[test]
fn rule_version() {
    for v in [0, 1, 3, u32::MAX] {
        let mut b = golden_bytes();
        put_u32(&mut b, 4, v);
        assert_rejects(&b, 4, &format!("glb version is {v}, only version 2"));
    }
}

#[test]
fn rule_total_length() {
    let bytes = golden_bytes();
    for declared in [
        0,
        12,
        bytes.len() as u32 - 4,
        bytes.len() as u32 + 4,
        u32::MAX,
    ] {
        let mut b = bytes.clone();
        put_u32(&mut b, 8, declared);
        let e = assert_rejects(&b, 8, "differs from the file's");
        assert_eq!(
            e,
            Error::Length {
                declared,
                len: bytes.len()
            }
        );
    }
}

#[test]
fn rule_chunk_order() {
    let json = b"{}  ";
    let chunk = |kind: u32, data: &[u8]| {
        let mut c = (data.len() as u32).to_le_bytes().to_vec();
        c.extend_from_slice(&kind.to_le_bytes());
        c.extend_from_slice(data);
        c
    };
    let file = |chunks: &[Vec<u8>]| {
        let mut b = b"glTF\x02\0\0\0\0\0\0\0".to_vec();
        for c in chunks {
            b.extend_from_slice(c);
        }
        fix_length(b)
    };
    // Only a header.
    assert_rejects(&file(&[]), 12, "no JSON chunk");
    // BIN or an unknown chunk first.
    assert_rejects(&file(&[chunk(CHUNK_BIN, &[0; 4])]), 12, "must be JSON");
    assert_rejects(&file(&[chunk(7, &[0; 4])]), 12, "found type 0x00000007");
    // Two JSON chunks.
    let b = file(&[chunk(CHUNK_JSON, json), chunk(CHUNK_JSON, json)]);
    assert_rejects(&b, 24, "only one JSON chunk");
    // Two BIN chunks; BIN after an unknown chunk.
    let b = file(&[
        chunk(CHUNK_JSON, json),
        chunk(CHUNK_BIN, &[1; 4]),
        chunk(CHUNK_BIN, &[2; 4]),
    ]);
    assert_rejects(&b, 36, "BIN chunk must be the second");
    let b = file(&[
        chunk(CHUNK_JSON, json),
        chunk(9, &[]),
        chunk(CHUNK_BIN, &[2; 4]),
    ]);
    assert_rejects(&b, 32, "BIN chunk must be the second");
    // JSON alone, JSON + BIN, JSON + BIN + unknown, JSON + unknown.
    let b = file(&[chunk(CHUNK_JSON, json)]);
    let g = decode(&b).unwrap();
    assert_eq!((g.json, g.bin), (&json[..], None));
    let b = file(&[chunk(CHUNK_JSON, json), chunk(CHUNK_BIN, &[1; 8])]);
    assert_eq!(decode(&b).unwrap().bin, Some(&[1u8; 8][..]));
    let b = file(&[
        chunk(CHUNK_JSON, json),
        chunk(CHUNK_BIN, &[1; 8]),
        chunk(9, &[3; 12]),
    ]);
    assert_eq!(decode(&b).unwrap().bin, Some(&[1u8; 8][..]));
    let b = file(&[chunk(CHUNK_JSON, json), chunk(9, &[3; 12])]);
    assert_eq!(decode(&b).unwrap().bin, None);
    // Unaligned lengths, of JSON and of BIN.
    let b = file(&[chunk(CHUNK_JSON, b"{} ")]);
    assert_rejects(&b, 12, "chunk 0 length 3 is not a multiple of 4");
    let b = file(&[chunk(CHUNK_JSON, json), chunk(CHUNK_BIN, &[0; 5])]);
    assert_rejects(&b, 24, "chunk 1 length 5 is not a multiple of 4");
}

// ---------------------------------------------------------------------------
// Hostile lengths

/// Chunk lengths that point past the end (u32::MAX, the largest aligned
/// value, one word too many, a BIN chunk's likewise) are rejected with the
/// chunk's offset, and neither `decode` nor the importer allocates for them.
#[test]
fn hostile_chunk_lengths_are_rejected_without_allocating() {
    let bytes = golden_bytes();
    let len = bytes.len();
    let json_len = u32_at(&bytes, 12);
    let bin_at = 20 + json_len as usize;
    let bin_len = u32_at(&bytes, bin_at);
    let cases = [
        (12, u32::MAX),
        (12, u32::MAX - 3),
        (12, 1 << 31),
        (12, (len - 20 + 4) as u32),
        (12, json_len + 4),
        (bin_at, u32::MAX),
        (bin_at, u32::MAX - 3),
        (bin_at, bin_len + 4),
    ];
    // The tracker does see allocations.
    let (v, largest) = largest_alloc_in(|| vec![1u8; 100_000]);
    assert!(largest >= 100_000 && v.len() == 100_000);
    for (at, length) in cases {
        let mut b = bytes.clone();
        put_u32(&mut b, at, length);
        let (result, largest) = largest_alloc_in(|| decode(&b));
        let e = result.expect_err("hostile length accepted");
        let index = usize::from(at != 12);
        if length == json_len + 4 {
            // The JSON chunk swallows the BIN chunk's header, so the
            // declared end still fits: the walk stops on the next header.
            assert_eq!(e.offset(), Some((bin_at + 4) as u64), "{e}");
        } else {
            assert_eq!(
                e,
                Error::ChunkOverrun {
                    offset: at as u64,
                    index,
                    length,
                    len
                },
                "{e}"
            );
        }
        assert_eq!(largest, 0, "decode allocated for {e}");
        let (result, largest) = largest_alloc_in(|| import_scene(&b, &[]));
        let e = result.expect_err("importer accepted a hostile length");
        assert!(e.to_string().starts_with("at byte "), "{e}");
        assert!(largest < 4096, "import allocated {largest} bytes for {e}");
    }
}

#[test]
fn length_limit_is_the_u32_header_field() {
    assert_eq!(MAX_FILE_BYTES, u32::MAX as usize);
    assert_eq!(glb::encoded_len(b"{}", None), Some(24));
    assert_eq!(glb::encoded_len(b"{}", Some(&[1])), Some(36));
    let g = Glb {
        json: b"{}",
        bin: None,
    };
    assert_eq!(g.to_string(), "glb: 2 bytes of json, no bin");
}

// ---------------------------------------------------------------------------
// A deterministic fuzz run of the importer on stable Rust

/// xorshift64*: a fixed-seed generator, so every run mutates alike.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const INTERESTING_U32: [u32; 8] = [0, 1, 3, 4, 0x7FFF_FFFF, 0x8000_0000, u32::MAX - 3, u32::MAX];
const INTERESTING_NUMBERS: [&str; 12] = [
    "0",
    "1",
    "2",
    "3",
    "-1",
    "255",
    "65535",
    "4294967295",
    "18446744073709551615",
    "268435456",
    "1e300",
    "0.5",
];

/// One random mutation of `bytes`: raw byte and word changes, cuts and
/// splices anywhere, or (to get past the JSON parser) a number of the JSON
/// text replaced and the GLB re-encoded around it.
fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    if b.is_empty() {
        return vec![rng.next() as u8];
    }
    match rng.below(7) {
        0 => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        1 => {
            let i = rng.below(b.len());
            b[i] = *rng.pick(&[0, 0x7F, 0x80, 0xFF, b'{', b'"', b'9']);
        }
        2 if b.len() >= 4 => {
            let i = rng.below(b.len() - 3);
            b[i..i + 4].copy_from_slice(&rng.pick(&INTERESTING_U32).to_le_bytes());
        }
        3 => b.truncate(rng.below(b.len())),
        4 => {
            let (from, to) = (rng.below(b.len()), rng.below(b.len()));
            let n = rng.below(64).min(b.len() - from);
            let piece = b[from..from + n].to_vec();
            b.splice(to..to, piece);
        }
        _ => return mutate_json_number(rng, &b).unwrap_or(b),
    }
    b
}

/// Replaces one number of the JSON text (of a GLB or a `.gltf`) with an
/// interesting one, keeping the container well-formed.
fn mutate_json_number(rng: &mut Rng, bytes: &[u8]) -> Option<Vec<u8>> {
    let (text, bin) = match decode(bytes) {
        Ok(g) => (g.json_text().to_vec(), g.bin),
        Err(_) => (bytes.to_vec(), None),
    };
    let starts: Vec<usize> = (0..text.len())
        .filter(|&i| text[i].is_ascii_digit() && (i == 0 || !text[i - 1].is_ascii_alphanumeric()))
        .collect();
    if starts.is_empty() {
        return None;
    }
    let start = *rng.pick(&starts);
    let end = (start..text.len())
        .find(|&i| !text[i].is_ascii_digit() && text[i] != b'.')
        .unwrap_or(text.len());
    let mut out = text[..start].to_vec();
    out.extend_from_slice(rng.pick(&INTERESTING_NUMBERS).as_bytes());
    out.extend_from_slice(&text[end..]);
    Some(if decode(bytes).is_ok() {
        encode(&out, bin)
    } else {
        out
    })
}

/// Thousands of mutations of small corpus files (plain, meshopt-compressed,
/// quantized, `.gltf` text) through `import_scene`: errors are fine, a panic
/// is a bug. Mutations stack (each input mutates the previous one with
/// some chance), so some get past several checks at once.
#[test]
fn mutated_corpus_files_never_panic_the_importer() {
    let mut seeds: Vec<Vec<u8>> = [
        "glb/SimpleSkin.glb",
        "glb/SimpleSkin.gltf",
        "glb-meshopt/SimpleSkin.cc.glb",
        "glb-meshopt/SimpleSkin.q.glb",
        "glb-meshopt/SimpleSkin.c-noq.glb",
    ]
    .iter()
    .map(|rel| read(rel))
    .collect();
    seeds.push(golden_bytes());
    let mut rng = Rng(0x6b69_6c6e_2e67_6c62);
    let (mut ok, mut err) = (0, 0);
    for seed in &seeds {
        let mut current = seed.clone();
        for i in 0..800 {
            if rng.below(4) == 0 {
                current = seed.clone();
            }
            current = mutate(&mut rng, &current);
            let input = current.clone();
            let result = std::panic::catch_unwind(|| import_scene(&input, &[]).is_ok());
            match result {
                Ok(true) => ok += 1,
                Ok(false) => err += 1,
                Err(_) => {
                    let path = std::env::temp_dir().join(format!("kiln-glb-mutant-{i}.bin"));
                    let _ = std::fs::write(&path, &input);
                    panic!("import_scene panicked on mutation {i}; input saved to {path:?}");
                }
            }
            if let Ok(g) = decode(&current) {
                let again = encode(g.json, g.bin);
                assert_eq!(decode(&again), Ok(g));
            }
        }
    }
    assert!(ok > 100 && err > 100, "{ok} imported, {err} rejected");
}
