//! Tests of the `.ospc` pose cache codec (`kiln::formats::ospc`), against
//! the spec in `docs/formats/ospc.md`.
//!
//! Regenerate the golden file with `KILN_BLESS=1 cargo test --release --test formats ospc::`.

use kiln::formats::ospc::{
    self, Entity, Error, MAX_FILE_BYTES, MAX_FRAMES, MAX_TEXT_BYTES, Pose, PoseCache, Shape,
    check_file_size, decode, encode, offsets, validate,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

// Hostile inputs must not allocate: the tracking allocator shows it.
use crate::alloc_support;
use alloc_support::largest_alloc_in;

// ---------------------------------------------------------------------------
// The golden file, built by hand.

const GOLDEN_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/ospc/tiny.ospc");

/// The NaN payload of the absent pose in the golden file (a quiet NaN with a
/// non-default payload, so a round trip that canonicalizes NaN would fail).
const GOLDEN_NAN_BITS: u32 = 0x7fc0_0001;

struct Bytes(Vec<u8>);

impl Bytes {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i64(&mut self, v: i64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.u32(v.to_bits())
    }
    fn f64(&mut self, v: f64) -> &mut Self {
        self.u64(v.to_bits())
    }
    fn text(&mut self, s: &str) -> &mut Self {
        self.u16(s.len() as u16);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    fn raw(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }
}

/// The golden file's bytes, written field by field from the spec.
fn golden_bytes() -> Vec<u8> {
    let mut b = Bytes(Vec::new());
    b.raw(b"OSPC") // 0 magic
        .u16(1) // 4 version
        .u16(0) // 6 flags
        .u8(3) // 8 dimensions
        .u8(0) // 9 reserved
        .u16(0) // 10 reserved
        .u32(2) // 12 entity count
        .u32(2) // 16 frame count
        .i64(100) // 20 start step
        .f64(0.5) // 28 metres per unit
        .text("m") // 36 unit name
        .text("demo") // 39 module id
        .text("1.0") // 45 library version
        .text("") // 50 scene
        .text("run.osr") // 52 replay
        .text(""); // 61 label
    // 63: entity 0
    b.u64(7).u8(1).raw(&[0, 0, 0]);
    b.f32(0.25).f32(0.0).f32(0.0).text("ball");
    // 93: entity 1
    b.u64(9).u8(2).raw(&[0, 0, 0]);
    b.f32(1.0).f32(0.5).f32(2.0).text("crate");
    // 124: frame 0 (step 100)
    b.f32(0.0)
        .f32(1.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(1.0); // ball
    b.f32(2.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0); // crate, zero rotation
    // 180: frame 1 (step 101)
    b.u32(GOLDEN_NAN_BITS)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0); // ball absent
    b.f32(2.0)
        .f32(0.0)
        .f32(-0.5)
        .f32(0.0)
        .f32(0.0)
        .f32(1.0)
        .f32(0.0); // crate, 180 deg about z
    // 236: end
    b.0
}

/// Offsets in the golden file (see `golden_bytes`).
const G_UNIT_NAME: usize = 36;
const G_REPLAY: usize = 52;
const G_ENTITY0: usize = 63;
const G_ENTITY1: usize = 93;
const G_POSES: usize = 124;
const G_LEN: usize = 236;

fn golden_value() -> PoseCache {
    PoseCache {
        dimensions: 3,
        start_step: 100,
        metres_per_unit: 0.5,
        unit_name: "m".into(),
        module_id: "demo".into(),
        library_version: "1.0".into(),
        scene: "".into(),
        replay: "run.osr".into(),
        label: "".into(),
        entities: vec![
            Entity {
                id: 7,
                shape: Shape::Sphere,
                size: [0.25, 0.0, 0.0],
                name: "ball".into(),
            },
            Entity {
                id: 9,
                shape: Shape::Box,
                size: [1.0, 0.5, 2.0],
                name: "crate".into(),
            },
        ],
        poses: vec![
            Pose {
                position: [0.0, 1.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
            Pose {
                position: [2.0, 0.0, 0.0],
                rotation: [0.0; 4],
            },
            Pose {
                position: [f32::from_bits(GOLDEN_NAN_BITS), 0.0, 0.0],
                rotation: [0.0; 4],
            },
            Pose {
                position: [2.0, 0.0, -0.5],
                rotation: [0.0, 0.0, 1.0, 0.0],
            },
        ],
    }
}

/// Bit-exact comparison of two caches (the derived `PartialEq` says NaN != NaN).
fn same_bits(a: &PoseCache, b: &PoseCache) -> bool {
    let pose_bits = |p: &Pose| {
        let mut v = [0u32; 7];
        for (i, x) in p.position.iter().chain(&p.rotation).enumerate() {
            v[i] = x.to_bits();
        }
        v
    };
    let entity_bits = |e: &Entity| (e.id, e.shape, e.size.map(f32::to_bits), e.name.clone());
    a.dimensions == b.dimensions
        && a.start_step == b.start_step
        && a.metres_per_unit.to_bits() == b.metres_per_unit.to_bits()
        && a.texts() == b.texts()
        && a.entities
            .iter()
            .map(entity_bits)
            .eq(b.entities.iter().map(entity_bits))
        && a.poses
            .iter()
            .map(pose_bits)
            .eq(b.poses.iter().map(pose_bits))
}

fn malformed(bytes: &[u8]) -> (u64, String) {
    match decode(bytes) {
        Err(e @ Error::Invalid(_)) => panic!("decode gave a non-decode error: {e}"),
        Err(e) => (
            e.offset().expect("a decode error has an offset"),
            e.to_string(),
        ),
        Ok(_) => panic!("decode accepted bytes it should reject"),
    }
}

/// Asserts that decoding `bytes` fails at `offset` with a message containing
/// every one of `parts`.
#[track_caller]
fn assert_rejects(bytes: &[u8], offset: usize, parts: &[&str]) {
    let (at, msg) = malformed(bytes);
    assert_eq!(at, offset as u64, "wrong offset in: {msg}");
    assert!(
        msg.starts_with(&format!("at byte {offset}: ")),
        "message does not start with the offset: {msg}"
    );
    for p in parts {
        assert!(msg.contains(p), "message {msg:?} lacks {p:?}");
    }
    let first = msg[format!("at byte {offset}: ").len()..].chars().next();
    assert!(
        !first.is_some_and(char::is_uppercase),
        "message is not lowercase: {msg}"
    );
}

/// Golden bytes with `patch` written at `offset`.
fn patched(offset: usize, patch: &[u8]) -> Vec<u8> {
    let mut b = golden_bytes();
    b[offset..offset + patch.len()].copy_from_slice(patch);
    b
}

// ---------------------------------------------------------------------------
// Golden file.

#[test]
fn golden_file_matches_hand_built_bytes() {
    let bytes = golden_bytes();
    assert_eq!(bytes.len(), G_LEN);
    if std::env::var_os("KILN_BLESS").is_some() {
        std::fs::create_dir_all(std::path::Path::new(GOLDEN_PATH).parent().unwrap()).unwrap();
        std::fs::write(GOLDEN_PATH, &bytes).unwrap();
    }
    let on_disk = std::fs::read(GOLDEN_PATH).expect(
        "golden file missing: run `KILN_BLESS=1 cargo test --release --test formats ospc::`",
    );
    assert_eq!(
        on_disk, bytes,
        "golden file differs from the hand-built bytes"
    );
}

#[test]
fn golden_decodes_to_expected_value() {
    let bytes = std::fs::read(GOLDEN_PATH).unwrap_or_else(|_| golden_bytes());
    let cache = decode(&bytes).unwrap();
    assert!(same_bits(&cache, &golden_value()), "{cache:#?}");
    assert!(validate(&cache).is_empty());
    assert_eq!(cache.n_frames(), 2);
    assert!(!cache.poses[0].is_absent());
    assert!(cache.poses[2].is_absent());
    assert_eq!(cache.poses[2].position[0].to_bits(), GOLDEN_NAN_BITS);
    assert_eq!(
        cache.pose(1, 0).unwrap().position[0].to_bits(),
        GOLDEN_NAN_BITS
    );
    assert_eq!(
        cache.pose(0, 1).unwrap().rotation_or_identity(),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        cache.pose(1, 1).unwrap().rotation_or_identity(),
        [0.0, 0.0, 1.0, 0.0]
    );
    assert_eq!(cache.step_of(1), Some(101));
    assert_eq!(cache.replay_file_name(), Some("run.osr"));
}

#[test]
fn golden_round_trips() {
    let bytes = golden_bytes();
    let again = encode(&decode(&bytes).unwrap()).unwrap();
    assert_eq!(again, bytes);
    assert_eq!(encode(&golden_value()).unwrap(), bytes);
}

// ---------------------------------------------------------------------------
// Length: truncation, trailing bytes, size limit, hostile counts.

#[test]
fn every_proper_prefix_is_rejected() {
    let mut samples = vec![golden_bytes()];
    // Also a file whose texts and names are non-empty everywhere.
    let mut c = golden_value();
    c.scene = "scène".into();
    c.label = "l".into();
    samples.push(encode(&c).unwrap());
    for bytes in samples {
        for n in 0..bytes.len() {
            match decode(&bytes[..n]) {
                Err(e @ Error::Invalid(_)) => panic!("prefix of {n} bytes: {e:?}"),
                Err(e) => {
                    let offset = e.offset().unwrap();
                    assert!(
                        offset <= n as u64,
                        "prefix {n}: offset {offset} past the end"
                    )
                }
                other => panic!("prefix of {n} bytes: {other:?}"),
            }
        }
    }
}

#[test]
fn truncation_errors_name_offset_and_what() {
    let b = golden_bytes();
    assert_rejects(&b[..0], 0, &["4 bytes of magic", "0 bytes before the end"]);
    assert_rejects(
        &b[..13],
        12,
        &["4 bytes of entity count", "1 byte before the end"],
    );
    assert_rejects(&b[..G_UNIT_NAME + 1], G_UNIT_NAME, &["unit name length"]);
    // A cut inside the entities' names is seen by the up-front check only
    // when less than 26 bytes per entity remain; here it is seen as a short
    // name.
    assert_rejects(
        &b[..G_ENTITY1 + 26 + 2],
        G_ENTITY1 + 26,
        &["5 bytes of entities[1].name", "2 bytes before the end"],
    );
    assert_rejects(
        &b[..G_LEN - 1],
        G_POSES,
        &[
            "exactly 112 bytes of poses (2 frames x 2 entities x 28 bytes)",
            "found 111 bytes",
        ],
    );
}

#[test]
fn trailing_bytes_are_rejected() {
    let mut b = golden_bytes();
    b.push(0);
    assert_rejects(
        &b,
        G_POSES,
        &["exactly 112 bytes of poses", "found 113 bytes"],
    );
    // A whole extra pose, or a whole extra frame, is trailing bytes too.
    let mut b = golden_bytes();
    b.extend_from_slice(&golden_bytes()[G_POSES..G_POSES + 56]);
    assert_rejects(&b, G_POSES, &["found 168 bytes"]);
}

#[test]
fn file_over_256_mib_is_rejected_first() {
    assert!(check_file_size(MAX_FILE_BYTES as u64).is_ok());
    let e = check_file_size(MAX_FILE_BYTES as u64 + 1).unwrap_err();
    assert_eq!(e.offset(), Some(MAX_FILE_BYTES as u64));
    assert_eq!(
        e.to_string(),
        "at byte 268435456: a file of at most 268435456 bytes (256 MiB), found 268435457 bytes"
    );
    assert!(check_file_size(u64::MAX).is_err());
    // Through decode itself: a zeroed allocation is lazily mapped, and the
    // size check comes before any byte is read (the bytes here are not even
    // a valid magic, yet the error is about the size).
    let big = vec![0u8; MAX_FILE_BYTES + 1];
    let (at, msg) = malformed(&big);
    assert_eq!(at, MAX_FILE_BYTES as u64);
    assert!(msg.contains("at most 268435456 bytes"), "{msg}");
}

/// A header with the given counts, empty texts, followed by `rest`.
fn header(entities: u32, frames: u32, rest: &[u8]) -> Vec<u8> {
    let mut b = Bytes(Vec::new());
    b.raw(b"OSPC").u16(1).u16(0).u8(3).u8(0).u16(0);
    b.u32(entities).u32(frames).i64(0).f64(0.0);
    for _ in 0..6 {
        b.text("");
    }
    b.raw(rest);
    b.0
}

/// One valid entity record with an empty name.
fn entity_record(id: u64) -> Vec<u8> {
    let mut b = Bytes(Vec::new());
    b.u64(id)
        .u8(0)
        .raw(&[0, 0, 0])
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .text("");
    b.0
}

#[test]
fn hostile_counts_fail_fast_without_big_allocations() {
    let cases: Vec<(Vec<u8>, usize, &str)> = vec![
        // Most entities and frames in a 100-byte file.
        (
            header(65_536, MAX_FRAMES, &[0; 52]),
            48,
            "for 65536 entities",
        ),
        // Most entities, room for a few.
        (
            header(65_536, 1, &entity_record(1).repeat(3)),
            48,
            "for 65536 entities",
        ),
        // One entity, most frames, no poses.
        (
            header(1, MAX_FRAMES, &entity_record(1)),
            74,
            "exactly 117440512 bytes of poses (4194304 frames x 1 entity x 28 bytes)",
        ),
        // Text length at the limit in a short file.
        (
            {
                let mut b = header(1, 1, &[]);
                b.truncate(36);
                b.extend_from_slice(&1024u16.to_le_bytes());
                b
            },
            38,
            "1024 bytes of unit name",
        ),
    ];
    // The tracker does see a big allocation.
    let (v, largest) = largest_alloc_in(|| vec![1u8; 100_000]);
    assert!(largest >= 100_000 && v.len() == 100_000);
    for (bytes, offset, part) in cases {
        assert!(bytes.len() < 200);
        let (result, counts) = alloc_support::counts_in(|| decode(&bytes));
        let largest = counts.largest;
        let e = result.expect_err("hostile header accepted");
        assert_eq!(e.offset(), Some(offset as u64), "{e}");
        assert!(e.to_string().contains(part), "{e}");
        assert!(
            largest < 4096,
            "decode allocated {largest} bytes at once for {e}"
        );
        // Work before the refusal is a few small allocations, not one per
        // item the header claims.
        assert!(
            counts.allocs < 64 && counts.bytes < 16 << 10,
            "{counts:?} for {e}"
        );
    }
}

#[test]
fn largest_valid_counts_decode() {
    // 65 536 entities in one frame: the entity table is allocated once the
    // bytes are known to be there.
    let n = 65_536u32;
    let mut rest = Vec::new();
    for id in 1..=u64::from(n) {
        rest.extend_from_slice(&entity_record(id));
    }
    let mut pose = Vec::new();
    for v in [0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] {
        pose.extend_from_slice(&v.to_le_bytes());
    }
    rest.extend_from_slice(&pose.repeat(n as usize));
    let bytes = header(n, 1, &rest);
    let cache = decode(&bytes).unwrap();
    assert_eq!(cache.entities.len(), 65_536);
    assert_eq!(encode(&cache).unwrap(), bytes);
    // One more entity is over the limit.
    let mut b = bytes.clone();
    b[12..16].copy_from_slice(&65_537u32.to_le_bytes());
    assert_rejects(&b, 12, &["entity count must be 1 to 65536", "found 65537"]);
}

// ---------------------------------------------------------------------------
// One test per header rule.

#[test]
fn rule_magic() {
    assert_rejects(
        &patched(0, b"OSPD"),
        0,
        &["magic must be \"OSPC\"", "found \"OSPD\""],
    );
    assert_rejects(&patched(0, b"\0\xffPC"), 0, &["found \"\\x00\\xffPC\""]);
}

#[test]
fn rule_version() {
    assert_rejects(
        &patched(4, &0u16.to_le_bytes()),
        4,
        &["version must be 1, found 0"],
    );
    assert_rejects(
        &patched(4, &2u16.to_le_bytes()),
        4,
        &["version must be 1, found 2"],
    );
}

#[test]
fn rule_flags() {
    let (_, msg) = malformed(&patched(6, &3u16.to_le_bytes()));
    assert_eq!(msg, "at byte 6: flags must be 0, found 3");
    assert_rejects(&patched(6, &0x8000u16.to_le_bytes()), 6, &["found 32768"]);
}

#[test]
fn rule_dimensions() {
    for d in [0u8, 1, 4, 255] {
        assert_rejects(
            &patched(8, &[d]),
            8,
            &["dimensions must be 2 or 3", &format!("found {d}")],
        );
    }
    let c = decode(&patched(8, &[2])).unwrap();
    assert_eq!(c.dimensions, 2);
}

#[test]
fn rule_reserved() {
    assert_rejects(&patched(9, &[1]), 9, &["reserved byte must be 0, found 1"]);
    assert_rejects(
        &patched(10, &[0, 1]),
        10,
        &["reserved u16 must be 0, found 256"],
    );
    assert_rejects(
        &patched(10, &[1, 0]),
        10,
        &["reserved u16 must be 0, found 1"],
    );
}

#[test]
fn rule_entity_count() {
    assert_rejects(
        &patched(12, &0u32.to_le_bytes()),
        12,
        &["entity count must be 1 to 65536, found 0"],
    );
    assert_rejects(&patched(12, &65_537u32.to_le_bytes()), 12, &["found 65537"]);
    assert_rejects(
        &patched(12, &u32::MAX.to_le_bytes()),
        12,
        &["found 4294967295"],
    );
    // In range but not what the file holds.
    assert_rejects(
        &patched(12, &1u32.to_le_bytes()),
        G_ENTITY1,
        &["exactly 56 bytes of poses"],
    );
}

#[test]
fn rule_frame_count() {
    assert_rejects(
        &patched(16, &0u32.to_le_bytes()),
        16,
        &["frame count must be 1 to 4194304, found 0"],
    );
    assert_rejects(
        &patched(16, &4_194_305u32.to_le_bytes()),
        16,
        &["found 4194305"],
    );
    assert_rejects(
        &patched(16, &3u32.to_le_bytes()),
        G_POSES,
        &["exactly 168 bytes of poses"],
    );
}

#[test]
fn rule_start_step() {
    assert_rejects(
        &patched(20, &(-1i64).to_le_bytes()),
        20,
        &["start step must be 0 or more, found -1"],
    );
    assert_rejects(
        &patched(20, &i64::MIN.to_le_bytes()),
        20,
        &["found -9223372036854775808"],
    );
    for s in [0, i64::MAX] {
        assert_eq!(
            decode(&patched(20, &s.to_le_bytes())).unwrap().start_step,
            s
        );
    }
}

#[test]
fn rule_metres_per_unit() {
    for bad in [
        -1.0,
        -f64::MIN_POSITIVE,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert_rejects(
            &patched(28, &bad.to_le_bytes()),
            28,
            &["metres per unit must be 0 or a positive finite number"],
        );
    }
    // 0, -0 (counts as 0, and keeps its sign bit), the smallest subnormal,
    // the largest finite.
    for good in [0.0, -0.0, f64::from_bits(1), f64::MAX] {
        let b = patched(28, &good.to_le_bytes());
        let c = decode(&b).unwrap();
        assert_eq!(c.metres_per_unit.to_bits(), good.to_bits());
        assert_eq!(encode(&c).unwrap(), b);
    }
}

// ---------------------------------------------------------------------------
// Text rules.

#[test]
fn rule_text_utf8() {
    // "run.osr" -> "ru\xff.osr": the offset is that of the bad byte.
    assert_rejects(
        &patched(G_REPLAY + 4, &[0xff]),
        G_REPLAY + 4,
        &["replay must be UTF-8", "invalid byte 0xff"],
    );
    // A truncated multi-byte sequence: "demo" -> "de\xc3o".
    assert_rejects(&patched(41 + 2, &[0xc3]), 43, &["module id must be UTF-8"]);
    // An entity name: "ball" -> "\xc0all" (overlong encodings are not UTF-8).
    assert_rejects(
        &patched(G_ENTITY0 + 26, &[0xc0]),
        G_ENTITY0 + 26,
        &["entities[0].name must be UTF-8"],
    );
    // Surrogates encoded as UTF-8 (CESU) are not UTF-8 either.
    let mut c = golden_value();
    c.label = "xyz".into();
    let mut b = encode(&c).unwrap();
    let at = b.windows(3).position(|w| w == b"xyz").unwrap();
    b[at..at + 3].copy_from_slice(&[0xed, 0xa0, 0x80]);
    assert_rejects(&b, at, &["label must be UTF-8"]);
}

#[test]
fn rule_text_length() {
    let mut c = golden_value();
    for (i, name) in ospc::TEXT_NAMES.iter().enumerate() {
        // At the limit: fine, and round trips.
        let long = "é".repeat(MAX_TEXT_BYTES / 2);
        set_text(&mut c, i, long.clone());
        let b = encode(&c).unwrap();
        assert!(same_bits(&decode(&b).unwrap(), &c));
        // One byte over: rejected even though the bytes are all there.
        set_text(&mut c, i, long + "x");
        assert!(encode(&c).is_err());
        let b = force_encode(&c);
        let at = text_offset(&b, i);
        assert_rejects(
            &b,
            at,
            &[&format!(
                "{name} must be at most 1024 bytes long, found 1025 bytes"
            )],
        );
        set_text(&mut c, i, String::new());
    }
    // An entity name.
    let mut c = golden_value();
    c.entities[1].name = "n".repeat(1025);
    assert!(encode(&c).is_err());
    assert_rejects(
        &force_encode(&c),
        G_ENTITY1 + 24,
        &["entities[1].name must be at most 1024 bytes long"],
    );
    // A length of 65535 in a short file is a length error, not a truncation.
    assert_rejects(
        &patched(G_UNIT_NAME, &u16::MAX.to_le_bytes()),
        G_UNIT_NAME,
        &["found 65535 bytes"],
    );
}

fn set_text(c: &mut PoseCache, i: usize, s: String) {
    *[
        &mut c.unit_name,
        &mut c.module_id,
        &mut c.library_version,
        &mut c.scene,
        &mut c.replay,
        &mut c.label,
    ][i] = s;
}

/// The offset of text field `i` in an encoded cache.
fn text_offset(b: &[u8], i: usize) -> usize {
    let mut at = offsets::TEXTS;
    for _ in 0..i {
        at += 2 + usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    }
    at
}

/// Writes a cache without validating it, as a buggy or hostile writer would
/// (only lengths must fit their fields).
fn force_encode(c: &PoseCache) -> Vec<u8> {
    let mut b = Bytes(Vec::new());
    b.raw(b"OSPC").u16(1).u16(0).u8(c.dimensions).u8(0).u16(0);
    b.u32(c.entities.len() as u32).u32(c.n_frames() as u32);
    b.i64(c.start_step).f64(c.metres_per_unit);
    for t in c.texts() {
        b.text(t);
    }
    for e in &c.entities {
        b.u64(e.id).u8(e.shape.code()).raw(&[0, 0, 0]);
        b.f32(e.size[0]).f32(e.size[1]).f32(e.size[2]).text(&e.name);
    }
    for p in &c.poses {
        for v in p.position.iter().chain(&p.rotation) {
            b.f32(*v);
        }
    }
    b.0
}

// ---------------------------------------------------------------------------
// Entity rules.

#[test]
fn rule_entity_id_not_zero() {
    assert_rejects(
        &patched(G_ENTITY1, &0u64.to_le_bytes()),
        G_ENTITY1,
        &["entities[1].id: entity id must not be 0, found 0"],
    );
}

#[test]
fn rule_entity_ids_unique() {
    assert_rejects(
        &patched(G_ENTITY1, &7u64.to_le_bytes()),
        G_ENTITY1,
        &["entities[1].id: entity id must be unique, found 7 again (first at entities[0])"],
    );
    // Ids are compared as whole u64s: ids that differ only in high bits are fine.
    let b = patched(G_ENTITY1, &(7u64 | 1 << 63).to_le_bytes());
    assert_eq!(decode(&b).unwrap().entities[1].id, 7 | 1 << 63);
}

#[test]
fn rule_entity_shape() {
    for code in [4u8, 5, 255] {
        assert_rejects(
            &patched(G_ENTITY0 + 8, &[code]),
            G_ENTITY0 + 8,
            &[
                "entities[0].shape: shape must be 0 (point)",
                &format!("found {code}"),
            ],
        );
    }
    for (code, shape) in [
        (0, Shape::Point),
        (1, Shape::Sphere),
        (2, Shape::Box),
        (3, Shape::Capsule),
    ] {
        assert_eq!(Shape::from_code(code), Some(shape));
        assert_eq!(shape.code(), code);
        assert_eq!(
            decode(&patched(G_ENTITY0 + 8, &[code])).unwrap().entities[0].shape,
            shape
        );
    }
    assert_eq!(Shape::from_code(4), None);
}

#[test]
fn rule_entity_padding() {
    for k in 0..3 {
        assert_rejects(
            &patched(G_ENTITY1 + 9 + k, &[0x80]),
            G_ENTITY1 + 9 + k,
            &["entities[1].padding: the 3 bytes after the shape must be 0, found 128"],
        );
    }
}

#[test]
fn rule_entity_size_finite() {
    for k in 0..3 {
        for bad in [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0xffc0_1234),
        ] {
            let at = G_ENTITY0 + 12 + 4 * k;
            assert_rejects(
                &patched(at, &bad.to_le_bytes()),
                at,
                &[&format!(
                    "entities[0].size: size {} must be finite",
                    ["x", "y", "z"][k]
                )],
            );
        }
    }
    // Any finite value is fine: negative, -0, subnormal, huge.
    for good in [-1.0f32, -0.0, f32::from_bits(1), f32::MAX, f32::MIN] {
        let b = patched(G_ENTITY0 + 16, &good.to_le_bytes());
        let c = decode(&b).unwrap();
        assert_eq!(c.entities[0].size[1].to_bits(), good.to_bits());
        assert_eq!(encode(&c).unwrap(), b);
    }
}

// ---------------------------------------------------------------------------
// Pose rules.

/// Offset of value `k` (0..7) of the pose of `entity` at `frame` in the golden file.
fn pose_at(frame: usize, entity: usize, k: usize) -> usize {
    G_POSES + (frame * 2 + entity) * 28 + 4 * k
}

#[test]
fn rule_pose_values_finite() {
    let names = [
        "position x",
        "position y",
        "position z",
        "rotation x",
        "rotation y",
        "rotation z",
        "rotation w",
    ];
    for (k, name) in names.iter().enumerate().skip(1) {
        // In a present pose (frame 0, entity 1) and in the absent pose
        // (frame 1, entity 0): strict reading, the rest of an absent pose
        // must be finite too.
        for (f, e) in [(0, 1), (1, 0)] {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let at = pose_at(f, e, k);
                let part = if k < 3 { "position" } else { "rotation" };
                assert_rejects(
                    &patched(at, &bad.to_le_bytes()),
                    at,
                    &[&format!(
                        "poses[frame {f}, entity {e}].{part}: {name} must be finite"
                    )],
                );
            }
        }
    }
}

#[test]
fn rule_infinite_position_x() {
    for bad in [f32::INFINITY, f32::NEG_INFINITY] {
        let at = pose_at(1, 1, 0);
        assert_rejects(
            &patched(at, &bad.to_le_bytes()),
            at,
            &["poses[frame 1, entity 1].position: position x must be finite or NaN (absent)"],
        );
    }
}

#[test]
fn nan_position_x_is_absent_and_keeps_its_bits() {
    // Quiet and signalling NaNs, either sign, any payload.
    for bits in [
        0x7fc0_0000u32,
        0x7f80_0001,
        0xffff_ffff,
        0xff80_0001,
        0x7fbf_ffff,
        0xffc0_dead,
    ] {
        let at = pose_at(0, 1, 0);
        let b = patched(at, &bits.to_le_bytes());
        let c = decode(&b).unwrap();
        assert!(c.poses[1].is_absent());
        assert_eq!(c.poses[1].position[0].to_bits(), bits);
        assert_eq!(encode(&c).unwrap(), b);
    }
}

#[test]
fn zero_rotation_reads_as_identity() {
    let id = [0.0, 0.0, 0.0, 1.0];
    let p = |r: [f32; 4]| Pose {
        position: [0.0; 3],
        rotation: r,
    };
    assert_eq!(p([0.0; 4]).rotation_or_identity(), id);
    assert_eq!(p([-0.0, 0.0, -0.0, -0.0]).rotation_or_identity(), id);
    assert_eq!(
        p([0.0, 0.0, 0.0, 2.0]).rotation_or_identity(),
        [0.0, 0.0, 0.0, 2.0]
    );
    assert_eq!(
        p([1e-30, 0.0, 0.0, 0.0]).rotation_or_identity(),
        [1e-30, 0.0, 0.0, 0.0]
    );
    assert!(Pose::absent().is_absent());
    assert!(!Pose::at([1.0, 2.0, 3.0]).is_absent());
    assert!(
        !Pose {
            position: [f32::INFINITY, 0.0, 0.0],
            rotation: id
        }
        .is_absent()
    );
}

#[test]
fn replay_file_name_is_plain_names_only() {
    let mut c = golden_value();
    for (replay, plain) in [
        ("run.osr", true),
        ("a b.replay", true),
        ("", false),
        (".", false),
        ("..", false),
        ("dir/run.osr", false),
        ("/run.osr", false),
        ("dir\\run.osr", false),
        ("C:run.osr", false),
    ] {
        c.replay = replay.into();
        assert_eq!(c.replay_file_name().is_some(), plain, "{replay:?}");
    }
}

// ---------------------------------------------------------------------------
// Validate and encode.

/// No entities is one problem, not two: with no entity to divide by, the
/// poses are not also counted as a frame count of 0.
#[test]
fn validate_of_a_cache_without_entities_names_only_the_entities() {
    let mut c = golden_value();
    c.entities.clear();
    c.poses.clear();
    let got: Vec<String> = validate(&c).iter().map(|p| p.to_string()).collect();
    assert_eq!(got, ["entities: entity count must be 1 to 65536, found 0"]);
}

/// Zero (either sign) and every positive finite number; nothing else.
#[test]
fn metres_per_unit_takes_zero_and_positive_finite_numbers() {
    for (m, ok) in [
        (0.0, true),
        (-0.0, true),
        (f64::MIN_POSITIVE, true),
        (1.0, true),
        (f64::MAX, true),
        (-f64::MIN_POSITIVE, false),
        (f64::INFINITY, false),
        (f64::NAN, false),
    ] {
        let mut c = golden_value();
        c.metres_per_unit = m;
        assert_eq!(validate(&c).is_empty(), ok, "{m:?}");
    }
}

#[test]
fn validate_collects_every_problem_with_its_path() {
    let mut c = golden_value();
    c.dimensions = 4;
    c.start_step = -3;
    c.metres_per_unit = f64::NAN;
    c.label = "x".repeat(2000);
    c.entities[0].id = 0;
    c.entities[0].size[2] = f32::INFINITY;
    c.entities.push(Entity {
        id: 9,
        shape: Shape::Point,
        size: [0.0; 3],
        name: "é".repeat(600),
    });
    c.poses.truncate(3);
    c.poses[0].rotation[3] = f32::NAN;
    c.poses[1].position[0] = f32::NEG_INFINITY;
    c.poses[2].position[2] = f32::NAN; // absent, yet z must be finite
    let got: Vec<String> = validate(&c).iter().map(|p| p.to_string()).collect();
    let want = [
        "dimensions: dimensions must be 2 or 3, found 4",
        "start_step: start step must be 0 or more, found -3",
        "metres_per_unit: metres per unit must be 0 or a positive finite number, found NaN",
        "label: label must be at most 1024 bytes long, found 2000 bytes",
        "entities[0].id: entity id must not be 0, found 0",
        "entities[0].size: size z must be finite, found inf",
        "entities[2].id: entity id must be unique, found 9 again (first at entities[1])",
        "entities[2].name: name must be at most 1024 bytes long, found 1200 bytes",
        "poses[frame 0, entity 0].rotation: rotation w must be finite, found NaN (bits 0x7fc00000)",
        "poses[frame 0, entity 1].position: position x must be finite or NaN (absent), found -inf",
        "poses[frame 0, entity 2].position: position z must be finite, found NaN (bits 0x7fc00000)",
    ];
    assert_eq!(got, want);

    match encode(&c) {
        Err(Error::Invalid(problems)) => assert_eq!(problems.len(), want.len()),
        other => panic!("{other:?}"),
    }
    let msg = encode(&c).unwrap_err().to_string();
    assert!(
        msg.starts_with("pose cache is not valid (11 problems): dimensions: "),
        "{msg}"
    );
    assert!(msg.ends_with("; and 6 more"), "{msg}");
}

#[test]
fn validate_counts() {
    let mut c = golden_value();
    c.poses.pop();
    assert_eq!(
        validate(&c)[0].to_string(),
        "poses: a multiple of 2 poses (one per entity per frame), found 3 poses"
    );
    c.poses.clear();
    assert_eq!(
        validate(&c)[0].to_string(),
        "poses: frame count must be 1 to 4194304, found 0"
    );
    c.entities.clear();
    assert_eq!(
        validate(&c)[0].to_string(),
        "entities: entity count must be 1 to 65536, found 0"
    );
    assert_eq!(c.n_frames(), 0);
    assert!(encode(&c).is_err());
}

// ---------------------------------------------------------------------------
// Offsets: the offset in an error is that of the offending field or value.

#[test]
fn error_offsets_point_at_the_offending_bytes() {
    let b = golden_bytes();
    let cases = [
        (offsets::FLAGS, vec![1, 0]),
        (offsets::DIMENSIONS, vec![9]),
        (offsets::ENTITY_COUNT, vec![0, 0, 0, 0]),
        (offsets::METRES_PER_UNIT, f64::NAN.to_le_bytes().to_vec()),
        (G_ENTITY1 + 8, vec![7]),                            // shape
        (G_ENTITY1 + 11, vec![1]),                           // last padding byte
        (G_ENTITY1 + 20, f32::NAN.to_le_bytes().to_vec()),   // size z
        (pose_at(1, 1, 6), f32::NAN.to_le_bytes().to_vec()), // last value in the file
    ];
    for (at, patch) in cases {
        let mut m = b.clone();
        m[at..at + patch.len()].copy_from_slice(&patch);
        let (offset, msg) = malformed(&m);
        assert_eq!(offset, at as u64, "{msg}");
    }
    assert_eq!(pose_at(1, 1, 6), G_LEN - 4);
}

// ---------------------------------------------------------------------------
// Property: random valid caches round trip.

fn finite_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(0.0f32),
        Just(-0.0f32),
        -10.0f32..10.0,
        any::<f32>().prop_filter("finite", |v| v.is_finite()),
    ]
}

fn nan_bits() -> impl Strategy<Value = u32> {
    (any::<bool>(), 1u32..(1 << 23)).prop_map(|(neg, m)| (u32::from(neg) << 31) | 0x7f80_0000 | m)
}

fn pose() -> impl Strategy<Value = Pose> {
    let present = (
        prop::array::uniform3(finite_f32()),
        prop::array::uniform4(finite_f32()),
    )
        .prop_map(|(position, rotation)| Pose { position, rotation });
    let absent = (
        nan_bits(),
        finite_f32(),
        finite_f32(),
        prop::array::uniform4(finite_f32()),
    )
        .prop_map(|(x, y, z, rotation)| Pose {
            position: [f32::from_bits(x), y, z],
            rotation,
        });
    prop_oneof![3 => present, 1 => absent, 1 => Just(Pose::absent())]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        ".{0,12}",
        Just("é".repeat(MAX_TEXT_BYTES / 2))
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    (0u8..4).prop_map(|c| Shape::from_code(c).unwrap())
}

fn cache() -> impl Strategy<Value = PoseCache> {
    let header = (
        prop_oneof![Just(2u8), Just(3u8)],
        prop_oneof![Just(0i64), 0..=i64::MAX],
        prop_oneof![
            Just(0.0f64),
            Just(-0.0f64),
            any::<f64>().prop_filter("positive finite", |m| m.is_finite() && *m > 0.0),
        ],
        prop::array::uniform6(text()),
    );
    let entities = prop::collection::btree_set(1u64.., 1..5)
        .prop_flat_map(|ids| {
            let n = ids.len();
            (
                Just(ids.into_iter().collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec((shape(), prop::array::uniform3(finite_f32()), text()), n),
            )
        })
        .prop_map(|(ids, rest)| {
            ids.into_iter()
                .zip(rest)
                .map(|(id, (shape, size, name))| Entity {
                    id,
                    shape,
                    size,
                    name,
                })
                .collect::<Vec<_>>()
        });
    (header, entities, 1usize..5)
        .prop_flat_map(|(header, entities, frames)| {
            let n = entities.len();
            (
                Just(header),
                Just(entities),
                prop::collection::vec(pose(), n * frames),
            )
        })
        .prop_map(
            |((dimensions, start_step, metres_per_unit, t), entities, poses)| {
                let [unit_name, module_id, library_version, scene, replay, label] = t;
                PoseCache {
                    dimensions,
                    start_step,
                    metres_per_unit,
                    unit_name,
                    module_id,
                    library_version,
                    scene,
                    replay,
                    label,
                    entities,
                    poses,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_caches_round_trip(c in cache()) {
        prop_assert!(validate(&c).is_empty(), "{:?}", validate(&c));
        let bytes = encode(&c).unwrap();
        prop_assert_eq!(Some(bytes.len()), c.encoded_len());
        let back = decode(&bytes).unwrap();
        prop_assert!(same_bits(&back, &c));
        prop_assert_eq!(encode(&back).unwrap(), bytes);
    }

    #[test]
    fn one_byte_changes_never_panic(c in cache(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = encode(&c).unwrap();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        check_decode_encode(&bytes);
    }
}

// ---------------------------------------------------------------------------
// The fuzz property on stable: decode arbitrary bytes; when that succeeds,
// encode must succeed and give the same bytes back. (The same property as
// `fuzz/fuzz_targets/ospc_decode.rs`.)

/// Returns whether `bytes` decoded.
fn check_decode_encode(bytes: &[u8]) -> bool {
    match decode(bytes) {
        Ok(c) => {
            assert!(validate(&c).is_empty(), "decoded cache is not valid");
            let again = encode(&c).expect("decoded cache does not encode");
            assert_eq!(again, bytes, "decode -> encode changed the bytes");
            true
        }
        Err(e) => {
            let offset = e.offset().expect("decode error without an offset");
            assert!(
                offset <= bytes.len() as u64,
                "offset {offset} past the end: {e}"
            );
            false
        }
    }
}

/// SplitMix64: a tiny deterministic generator, so the run is the same every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = b.len();
        match rng.below(9) {
            0 => {
                let i = rng.below(len);
                if len > 0 {
                    b[i] ^= 1 << rng.below(8);
                }
            }
            1 => {
                let i = rng.below(len);
                if len > 0 {
                    b[i] = [0, 1, 0x7f, 0x80, 0xff][rng.below(5)];
                }
            }
            2 => b.truncate(rng.below(len + 1)),
            3 => {
                let i = rng.below(len + 1);
                b.insert(i, rng.next() as u8);
            }
            4 => {
                if len > 0 {
                    b.remove(rng.below(len));
                }
            }
            5 => {
                // An interesting u32 at a header count, text length or anywhere.
                let at = [12, 16, 36, rng.below(len)][rng.below(4)];
                let v: u32 =
                    [0, 1, 2, 65_536, 65_537, MAX_FRAMES, u32::MAX, 1024, 1025][rng.below(9)];
                if at + 4 <= len {
                    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            6 => {
                // A NaN, infinity or signalling NaN over some float.
                let at = rng.below(len);
                let v: u32 = [
                    0x7fc0_0000,
                    0x7f80_0000,
                    0xff80_0000,
                    0x7f80_0001,
                    0xffff_ffff,
                ][rng.below(5)];
                if at + 4 <= len {
                    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            7 => {
                // Duplicate a chunk (extra entities or poses).
                if len > 0 {
                    let i = rng.below(len);
                    let n = rng.below(len - i).min(64);
                    let chunk = b[i..i + n].to_vec();
                    let j = rng.below(len + 1);
                    b.splice(j..j, chunk);
                }
            }
            _ => {
                // Random bytes at the end.
                for _ in 0..rng.below(32) {
                    b.push(rng.next() as u8);
                }
            }
        }
    }
    b
}

#[test]
fn fuzz_property_on_deterministic_inputs() {
    let mut rng = Rng(0x05bc_0001);
    let mut seeds = vec![golden_bytes()];
    // A few more valid files from the proptest strategy, with a fixed seed.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..8 {
        let c = cache().new_tree(&mut runner).unwrap().current();
        seeds.push(encode(&c).unwrap());
    }
    let (mut ok, mut err) = (0, 0);
    for i in 0..6000 {
        let input = if i % 10 == 9 {
            // Random bytes behind a valid magic and version.
            let mut b = b"OSPC\x01\x00".to_vec();
            for _ in 0..rng.below(200) {
                b.push(rng.next() as u8);
            }
            b
        } else {
            let seed = seeds[rng.below(seeds.len())].clone();
            mutate(&mut rng, &seed)
        };
        if check_decode_encode(&input) {
            ok += 1;
        } else {
            err += 1;
        }
    }
    eprintln!("ok {ok}, err {err}");
    // Both paths are exercised.
    assert!(ok > 100 && err > 1000, "ok {ok}, err {err}");
}

/// The error messages quoted in `docs/formats/ospc.md`.
#[test]
fn doc_error_examples() {
    let msg = |b: &[u8]| decode(b).unwrap_err().to_string();
    assert_eq!(
        msg(&patched(6, &3u16.to_le_bytes())),
        "at byte 6: flags must be 0, found 3"
    );
    assert_eq!(
        msg(&header(65_536, MAX_FRAMES, &[0; 52])),
        "at byte 48: at least 1703936 bytes for 65536 entities (26 bytes each without names), \
         found 52 bytes before the end of the input"
    );
    assert_eq!(
        msg(&patched(pose_at(1, 1, 6), &f32::NAN.to_le_bytes())),
        "at byte 232: poses[frame 1, entity 1].rotation: rotation w must be finite, \
         found NaN (bits 0x7fc00000)"
    );
}

/// `encode` refuses a cache whose bytes would pass 256 MiB. This allocates
/// one 268 MB pose table (the smallest cache over the limit), once.
#[test]
fn encode_refuses_over_256_mib() {
    let mut c = golden_value();
    c.entities.push(Entity {
        id: 11,
        shape: Shape::Point,
        size: [0.0; 3],
        name: String::new(),
    });
    let header = c.encoded_len().unwrap() - c.poses.len() * 28;
    // The fewest frames of 3 entities that pass the limit.
    let frames = (MAX_FILE_BYTES - header) / (3 * 28) + 1;
    c.poses = vec![Pose::at([0.0; 3]); frames * 3];
    assert!(c.encoded_len().unwrap() > MAX_FILE_BYTES);
    assert!(c.encoded_len().unwrap() - 3 * 28 <= MAX_FILE_BYTES);
    let problems = validate(&c);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0].to_string(),
        format!(
            "file: an encoded size of at most 268435456 bytes (256 MiB), found {} bytes",
            c.encoded_len().unwrap()
        )
    );
    let (result, largest) = largest_alloc_in(|| encode(&c));
    assert!(matches!(result, Err(Error::Invalid(_))));
    assert!(
        largest < 4096,
        "encode allocated {largest} bytes before refusing"
    );
}

// ---------------------------------------------------------------------------
// One variant per rule: a caller can tell the rules apart without reading
// the message, and each variant carries the offset the message gives.

#[test]
fn each_rule_has_its_own_variant_and_offset() {
    let g = golden_bytes();
    let nan = f32::from_bits(0x7fc0_0002);
    let mut too_long = golden_value();
    too_long.label = "x".repeat(MAX_TEXT_BYTES + 1);
    let cases: Vec<(Vec<u8>, Error)> = vec![
        (patched(0, b"OSPD"), Error::Magic { found: *b"OSPD" }),
        (patched(4, &2u16.to_le_bytes()), Error::Version { found: 2 }),
        (patched(6, &3u16.to_le_bytes()), Error::Flags { found: 3 }),
        (patched(8, &[4]), Error::Dimensions { found: 4 }),
        (patched(9, &[1]), Error::ReservedByte { found: 1 }),
        (patched(10, &[0, 1]), Error::ReservedU16 { found: 256 }),
        (
            patched(12, &0u32.to_le_bytes()),
            Error::EntityCount { found: 0 },
        ),
        (
            patched(16, &0u32.to_le_bytes()),
            Error::FrameCount { found: 0 },
        ),
        (
            patched(20, &(-1i64).to_le_bytes()),
            Error::StartStep { found: -1 },
        ),
        (
            patched(28, &(-1.0f64).to_bits().to_le_bytes()),
            Error::MetresPerUnit {
                bits: (-1.0f64).to_bits(),
            },
        ),
        (
            force_encode(&too_long),
            Error::TextTooLong {
                offset: 61,
                field: "label".into(),
                len: MAX_TEXT_BYTES + 1,
            },
        ),
        (
            patched(54, &[0xff]),
            Error::TextNotUtf8 {
                offset: 54,
                field: "replay".into(),
                byte: 0xff,
            },
        ),
        (
            patched(12, &60_000u32.to_le_bytes()),
            Error::EntityTable {
                offset: 63,
                entities: 60_000,
                remaining: g.len() - 63,
            },
        ),
        (
            patched(63, &0u64.to_le_bytes()),
            Error::EntityIdZero {
                offset: 63,
                entity: 0,
            },
        ),
        (
            patched(93, &7u64.to_le_bytes()),
            Error::EntityIdRepeated {
                offset: 93,
                entity: 1,
                id: 7,
                first: 0,
            },
        ),
        (
            patched(101, &[4]),
            Error::Shape {
                offset: 101,
                entity: 1,
                code: 4,
            },
        ),
        (
            patched(103, &[9]),
            Error::ShapePadding {
                offset: 103,
                entity: 1,
                byte: 9,
            },
        ),
        (
            patched(109, &nan.to_bits().to_le_bytes()),
            Error::Size {
                offset: 109,
                entity: 1,
                axis: 1,
                bits: nan.to_bits(),
            },
        ),
        (
            g[..g.len() - 1].to_vec(),
            Error::PoseBytes {
                offset: 124,
                frames: 2,
                entities: 2,
                remaining: g.len() - 125,
            },
        ),
        (
            patched(pose_at(1, 1, 6), &nan.to_bits().to_le_bytes()),
            Error::PoseValue {
                offset: pose_at(1, 1, 6) as u64,
                frame: 1,
                entity: 1,
                value: 6,
                bits: nan.to_bits(),
            },
        ),
        (
            patched(pose_at(0, 1, 0), &f32::INFINITY.to_bits().to_le_bytes()),
            Error::PoseValue {
                offset: pose_at(0, 1, 0) as u64,
                frame: 0,
                entity: 1,
                value: 0,
                bits: f32::INFINITY.to_bits(),
            },
        ),
    ];
    for (bytes, want) in cases {
        let got = decode(&bytes).expect_err("the patch breaks a rule");
        assert_eq!(got, want, "{got}");
        let at = got.offset().unwrap();
        assert!(
            got.to_string().starts_with(&format!("at byte {at}: ")),
            "{got}"
        );
    }
    // The size limit is checked before anything is read.
    assert_eq!(
        check_file_size(MAX_FILE_BYTES as u64 + 1),
        Err(Error::FileTooLarge {
            len: MAX_FILE_BYTES as u64 + 1
        })
    );
}
