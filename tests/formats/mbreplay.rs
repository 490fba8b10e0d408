//! Tests of the `.mbreplay` codec (`kiln::formats::mbreplay`) against the
//! layout in `docs/formats/mbreplay.md`, with bytes written field by field.

use kiln::formats::mbreplay::{
    Error, FloatField, MAX_FILE_BYTES, MAX_FRAMES, MAX_JOINTS, Plan, Replay, decode, encode,
    payload_bytes, validate,
};

use crate::alloc_support;
use alloc_support::largest_alloc_in;

fn u32s(b: &mut Vec<u8>, v: &[u32]) {
    v.iter().for_each(|x| b.extend(x.to_le_bytes()));
}
fn i32s(b: &mut Vec<u8>, v: &[i32]) {
    v.iter().for_each(|x| b.extend(x.to_le_bytes()));
}
fn f32s(b: &mut Vec<u8>, v: &[f32]) {
    v.iter().for_each(|x| b.extend(x.to_le_bytes()));
}

/// 30 fps, 3 frames, 2 joints, 1 qpos, 1 plan: 264 bytes.
///
/// | bytes | field |
/// |---|---|
/// | 0..40 | header |
/// | 40..48 | parents [2] |
/// | 48..60 | modes [3] |
/// | 60..72 | active plan [3] |
/// | 72..84 | qpos [3, 1] |
/// | 84..156 | positions [3, 2, 3] |
/// | 156..160 | first playback frame [1] |
/// | 160..164 | plan mode [1] |
/// | 164..168 | generated length [1] |
/// | 168..264 | targets [1, 4, 2, 3] |
fn golden_bytes() -> Vec<u8> {
    let mut b = b"MBRPLY1\0".to_vec();
    u32s(&mut b, &[1, 30, 3, 2, 1, 1, 4, 0]);
    i32s(&mut b, &[-1, 0]);
    i32s(&mut b, &[7, 7, 8]);
    i32s(&mut b, &[-1, 0, 0]);
    f32s(&mut b, &[0.5, 0.25, -0.0]);
    for f in 0..3 {
        let x = f as f32 * 0.1;
        f32s(&mut b, &[x, 0.9, 0.0, x, 0.4, 0.2]);
    }
    u32s(&mut b, &[1]);
    i32s(&mut b, &[2]);
    u32s(&mut b, &[24]);
    for k in 0..4 {
        let z = k as f32;
        f32s(&mut b, &[0.0, 0.9, z, 0.0, 0.4, z + 0.2]);
    }
    assert_eq!(b.len(), 264);
    b
}

fn golden_value() -> Replay {
    Replay {
        fps: 30,
        parents: vec![-1, 0],
        modes: vec![7, 7, 8],
        active_plan: vec![-1, 0, 0],
        qpos_count: 1,
        qpos: vec![0.5, 0.25, -0.0],
        positions: (0..3)
            .flat_map(|f| {
                let x = f as f32 * 0.1;
                [[x, 0.9, 0.0], [x, 0.4, 0.2]]
            })
            .collect(),
        plans: vec![Plan {
            first_frame: 1,
            mode: 2,
            length: 24,
            targets: (0..4)
                .flat_map(|k| {
                    let z = k as f32;
                    [[0.0, 0.9, z], [0.0, 0.4, z + 0.2]]
                })
                .collect(),
        }],
    }
}

fn patched(offset: usize, patch: &[u8]) -> Vec<u8> {
    let mut b = golden_bytes();
    b[offset..offset + patch.len()].copy_from_slice(patch);
    b
}

#[test]
fn golden_decodes_and_round_trips() {
    let r = decode(&golden_bytes()).unwrap();
    assert_eq!(r, golden_value());
    assert_eq!(r.qpos[2].to_bits(), (-0.0f32).to_bits());
    assert_eq!(r.position(2, 1), Some([0.2, 0.4, 0.2]));
    assert_eq!(r.position(3, 0), None);
    assert_eq!(r.position(0, 2), None);
    assert!(validate(&r).is_empty());
    assert_eq!(encode(&r).unwrap(), golden_bytes());
    assert_eq!(encode(&golden_value()).unwrap(), golden_bytes());
    assert_eq!(payload_bytes(3, 2, 1, 1), Some(224));
}

#[test]
fn every_proper_prefix_and_any_trailing_byte_is_rejected() {
    let g = golden_bytes();
    for n in 0..g.len() {
        let e = decode(&g[..n]).expect_err("a prefix decoded");
        let at = e.offset().unwrap();
        assert!(at <= n as u64, "prefix {n}: offset {at} past the end: {e}");
        assert!(e.to_string().starts_with(&format!("at byte {at}: ")), "{e}");
    }
    let mut long = g.clone();
    long.push(0);
    assert_eq!(
        decode(&long),
        Err(Error::Size {
            expected: Some(264),
            len: 265
        })
    );
    assert_eq!(
        decode(&long).unwrap_err().to_string(),
        "at byte 264: exactly 264 bytes for the header's dimensions, found 265 bytes"
    );
}

#[test]
fn each_rule_has_its_own_variant_and_offset() {
    let nan = f32::from_bits(0x7fc0_0003);
    let cases: Vec<(Vec<u8>, Error, usize)> = vec![
        (
            patched(0, b"MBRPLY2\0"),
            Error::Magic {
                found: *b"MBRPLY2\0",
            },
            0,
        ),
        (
            patched(8, &2u32.to_le_bytes()),
            Error::Version { found: 2 },
            8,
        ),
        (
            patched(12, &0u32.to_le_bytes()),
            Error::Fps { found: 0 },
            12,
        ),
        (
            patched(12, &1001u32.to_le_bytes()),
            Error::Fps { found: 1001 },
            12,
        ),
        (
            patched(16, &0u32.to_le_bytes()),
            Error::Frames { found: 0 },
            16,
        ),
        (
            patched(16, &(MAX_FRAMES + 1).to_le_bytes()),
            Error::Frames {
                found: MAX_FRAMES + 1,
            },
            16,
        ),
        (
            patched(20, &0u32.to_le_bytes()),
            Error::Joints { found: 0 },
            20,
        ),
        (
            patched(20, &(MAX_JOINTS + 1).to_le_bytes()),
            Error::Joints {
                found: MAX_JOINTS + 1,
            },
            20,
        ),
        (
            patched(24, &1025u32.to_le_bytes()),
            Error::Qpos { found: 1025 },
            24,
        ),
        (
            patched(28, &4u32.to_le_bytes()),
            Error::Plans {
                found: 4,
                frames: 3,
            },
            28,
        ),
        (
            patched(32, &5u32.to_le_bytes()),
            Error::TargetFrames { found: 5 },
            32,
        ),
        (
            patched(36, &1u32.to_le_bytes()),
            Error::Flags { found: 1 },
            36,
        ),
        (
            patched(40, &0i32.to_le_bytes()),
            Error::RootParent {
                offset: 40,
                found: 0,
            },
            40,
        ),
        (
            patched(44, &1i32.to_le_bytes()),
            Error::Parent {
                offset: 44,
                joint: 1,
                found: 1,
            },
            44,
        ),
        (
            patched(44, &(-1i32).to_le_bytes()),
            Error::Parent {
                offset: 44,
                joint: 1,
                found: -1,
            },
            44,
        ),
        (
            patched(68, &1i32.to_le_bytes()),
            Error::ActivePlan {
                offset: 68,
                frame: 2,
                found: 1,
                plans: 1,
            },
            68,
        ),
        (
            patched(64, &(-2i32).to_le_bytes()),
            Error::ActivePlan {
                offset: 64,
                frame: 1,
                found: -2,
                plans: 1,
            },
            64,
        ),
        (
            patched(80, &nan.to_le_bytes()),
            Error::NotFinite {
                offset: 80,
                field: FloatField::Qpos,
                index: 2,
                bits: nan.to_bits(),
            },
            80,
        ),
        (
            patched(84 + 4 * 7, &f32::INFINITY.to_le_bytes()),
            Error::NotFinite {
                offset: 112,
                field: FloatField::Positions,
                index: 7,
                bits: f32::INFINITY.to_bits(),
            },
            112,
        ),
        (
            patched(156, &3u32.to_le_bytes()),
            Error::FirstFrame {
                offset: 156,
                plan: 0,
                found: 3,
                frames: 3,
            },
            156,
        ),
        (
            patched(164, &0u32.to_le_bytes()),
            Error::PlanLength {
                offset: 164,
                plan: 0,
            },
            164,
        ),
        (
            patched(260, &f32::NEG_INFINITY.to_le_bytes()),
            Error::NotFinite {
                offset: 260,
                field: FloatField::Targets,
                index: 23,
                bits: f32::NEG_INFINITY.to_bits(),
            },
            260,
        ),
    ];
    for (bytes, want, offset) in cases {
        let got = decode(&bytes).expect_err("the patch breaks a rule");
        assert_eq!(got, want, "{got}");
        assert_eq!(got.offset(), Some(offset as u64), "{got}");
        assert!(
            got.to_string().starts_with(&format!("at byte {offset}: ")),
            "{got}"
        );
    }
    // Plan index 0 and -1 and the last frame are fine.
    let mut ok = golden_value();
    ok.plans[0].first_frame = 2;
    ok.plans[0].length = 1;
    assert!(decode(&encode(&ok).unwrap()).is_ok());
}

#[test]
fn hostile_counts_fail_fast_without_big_allocations() {
    let header = |frames: u32, joints: u32, qpos: u32, plans: u32| {
        let mut b = b"MBRPLY1\0".to_vec();
        u32s(&mut b, &[1, 30, frames, joints, qpos, plans, 4, 0]);
        b.extend([0u8; 60]);
        b
    };
    let cases = [
        header(MAX_FRAMES, MAX_JOINTS, 1024, MAX_FRAMES),
        header(MAX_FRAMES, 1, 0, 0),
        header(1, MAX_JOINTS, 1024, 1),
        header(u32::MAX, u32::MAX, u32::MAX, u32::MAX),
    ];
    let (v, largest) = largest_alloc_in(|| vec![1u8; 100_000]);
    assert!(largest >= 100_000 && v.len() == 100_000);
    for bytes in cases {
        let (result, counts) = alloc_support::counts_in(|| decode(&bytes));
        let e = result.expect_err("hostile header accepted");
        let largest = counts.largest;
        assert!(largest < 4096, "decode allocated {largest} bytes for {e}");
        assert!(
            counts.allocs < 64 && counts.bytes < 16 << 10,
            "{counts:?} for {e}"
        );
        assert!(
            matches!(e, Error::Size { .. } | Error::Frames { .. }),
            "{e}"
        );
    }
    // The size the largest dimensions give is computed without overflow.
    let max = payload_bytes(
        MAX_FRAMES.into(),
        MAX_JOINTS.into(),
        1024,
        MAX_FRAMES.into(),
    );
    assert!(max.is_some_and(|m| m > MAX_FILE_BYTES as u64));
    assert_eq!(payload_bytes(u64::MAX, 1, 0, 0), None);
}

#[test]
fn file_over_the_limit_is_rejected_before_reading() {
    let big = vec![0u8; MAX_FILE_BYTES + 1];
    let e = decode(&big).unwrap_err();
    assert_eq!(
        e,
        Error::FileTooLarge {
            len: MAX_FILE_BYTES as u64 + 1
        }
    );
    assert_eq!(e.offset(), Some(MAX_FILE_BYTES as u64));
}

#[test]
fn validate_collects_every_problem_with_its_path() {
    let mut r = golden_value();
    r.fps = 0;
    r.parents[1] = 5;
    r.active_plan[0] = 9;
    r.qpos[0] = f32::NAN;
    r.positions.pop();
    r.plans[0].length = 0;
    r.plans[0].targets[0][1] = f32::INFINITY;
    let problems = validate(&r);
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "fps",
            "parents[1]",
            "active_plan[0]",
            "qpos",
            "plans[0]",
            "plans[0].targets",
            "positions"
        ],
        "{problems:#?}"
    );
    let e = encode(&r).unwrap_err();
    assert!(matches!(&e, Error::Invalid(p) if p.len() == 7), "{e}");
    assert!(
        e.to_string()
            .starts_with("replay is not valid (7 problems): fps: fps must be 1")
    );
}

/// The fuzz target's property (`fuzz/fuzz_targets/mbreplay_decode.rs`) over
/// every byte of the golden file set to a few values: no panic, and what
/// decodes is valid and encodes back to the same bytes.
#[test]
fn fuzz_property_on_deterministic_inputs() {
    let g = golden_bytes();
    let mut accepted = 0;
    for i in 0..g.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut b = g.clone();
            b[i] = v;
            if let Ok(r) = decode(&b) {
                accepted += 1;
                assert!(validate(&r).is_empty());
                assert_eq!(encode(&r).unwrap(), b, "byte {i} = {v}");
            }
        }
    }
    assert!(accepted > 100, "only {accepted} mutants decoded");
}

#[test]
fn messages_name_the_array_the_index_and_the_value() {
    let g = golden_bytes();
    let mut b = g.clone();
    b[112..116].copy_from_slice(&f32::INFINITY.to_le_bytes());
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "at byte 112: animated joint world positions[7] must be finite, found inf"
    );
    let mut b = g.clone();
    b[80..84].copy_from_slice(&0x7fc0_0003u32.to_le_bytes());
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "at byte 80: qpos[2] must be finite, found NaN (bits 0x7fc00003)"
    );
    let mut b = g;
    b[260..264].copy_from_slice(&(-2.5f32).to_bits().to_le_bytes());
    b[264 - 4..264].copy_from_slice(&f32::NEG_INFINITY.to_le_bytes());
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "at byte 260: target joint world positions[23] must be finite, found -inf"
    );
}

#[test]
fn an_invalid_replay_lists_five_problems_and_counts_the_rest() {
    let mut five = golden_value();
    five.fps = 0;
    five.parents[1] = 5;
    five.active_plan[0] = 9;
    five.qpos[0] = f32::NAN;
    five.plans[0].length = 0;
    let msg = encode(&five).unwrap_err().to_string();
    assert!(
        msg.starts_with("replay is not valid (5 problems): "),
        "{msg}"
    );
    assert!(!msg.contains("more"), "{msg}");
    assert_eq!(msg.matches("; ").count(), 4, "{msg}");
    let mut seven = five;
    seven.positions.pop();
    seven.plans[0].targets[0][1] = f32::INFINITY;
    let msg = encode(&seven).unwrap_err().to_string();
    assert!(msg.ends_with("; and 2 more"), "{msg}");
    let mut one = golden_value();
    one.fps = 2000;
    assert_eq!(
        encode(&one).unwrap_err().to_string(),
        "replay is not valid (1 problem): fps: fps must be 1 to 1000, found 2000"
    );
}

/// 2 fps, 3 frames, 3 joints, 3 qpos values, 2 plans: every count above 1,
/// so a size computed with the wrong count lands on other bytes.
fn wide_bytes() -> Vec<u8> {
    let mut b = b"MBRPLY1\0".to_vec();
    u32s(&mut b, &[1, 2, 3, 3, 3, 2, 4, 0]);
    i32s(&mut b, &[-1, 0, 1]); // 40..52
    i32s(&mut b, &[5, 6, 7]); // 52..64 modes
    i32s(&mut b, &[-1, 0, 1]); // 64..76 active plans
    f32s(
        &mut b,
        &(0..9).map(|i| 100.0 + i as f32).collect::<Vec<_>>(),
    ); // 76..112 qpos
    f32s(
        &mut b,
        &(0..27).map(|i| 200.0 + i as f32).collect::<Vec<_>>(),
    ); // 112..220
    u32s(&mut b, &[0, 2]); // 220..228 first frames
    i32s(&mut b, &[8, 9]); // 228..236 plan modes
    u32s(&mut b, &[24, 32]); // 236..244 lengths
    f32s(
        &mut b,
        &(0..72).map(|i| 300.0 + i as f32).collect::<Vec<_>>(),
    ); // 244..532
    assert_eq!(b.len(), 532);
    b
}

#[test]
fn every_array_is_read_from_where_the_spec_puts_it() {
    let b = wide_bytes();
    let r = decode(&b).unwrap();
    assert_eq!(r.fps, 2);
    assert_eq!(r.parents, [-1, 0, 1]);
    assert_eq!(r.modes, [5, 6, 7]);
    assert_eq!(r.active_plan, [-1, 0, 1]);
    assert_eq!(r.qpos_count, 3);
    assert_eq!(r.qpos, (0..9).map(|i| 100.0 + i as f32).collect::<Vec<_>>());
    assert_eq!(r.position(2, 2), Some([224.0, 225.0, 226.0]));
    assert_eq!(r.plans.len(), 2);
    assert_eq!(
        (r.plans[1].first_frame, r.plans[1].mode, r.plans[1].length),
        (2, 9, 32)
    );
    assert_eq!(r.plans[0].targets.len(), 12);
    assert_eq!(r.plans[0].targets[11], [333.0, 334.0, 335.0]);
    assert_eq!(r.plans[1].targets[0], [336.0, 337.0, 338.0]);
    assert_eq!(encode(&r).unwrap(), b);
    // The offsets of the plan rules, for the second plan.
    let mut bad = b.clone();
    bad[240..244].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(
        decode(&bad),
        Err(Error::PlanLength {
            offset: 240,
            plan: 1
        })
    );
    let mut bad = b.clone();
    bad[224..228].copy_from_slice(&3u32.to_le_bytes());
    assert_eq!(
        decode(&bad),
        Err(Error::FirstFrame {
            offset: 224,
            plan: 1,
            found: 3,
            frames: 3
        })
    );
    let mut bad = b;
    bad[528..532].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(matches!(
        decode(&bad),
        Err(Error::NotFinite {
            offset: 528,
            index: 71,
            ..
        })
    ));
}

#[test]
fn validate_bounds_plans_by_frames_and_the_size_by_the_limit() {
    let mut r = decode(&wide_bytes()).unwrap();
    // As many plans as frames is fine.
    let extra = r.plans[0].clone();
    r.plans.push(extra);
    assert!(validate(&r).is_empty(), "{:?}", validate(&r));
    let extra = r.plans[0].clone();
    r.plans.push(extra);
    let paths: Vec<String> = validate(&r).into_iter().map(|p| p.path).collect();
    assert_eq!(paths, ["plans"]);
    // A size over the limit, from the counts alone.
    let mut big = golden_value();
    big.modes = vec![0; 70_000];
    big.qpos_count = 1024;
    let problems = validate(&big);
    let file = problems
        .iter()
        .find(|p| p.path == "file")
        .expect("a size problem");
    assert!(
        file.message
            .starts_with("an encoded size of at most 268435456 bytes, found "),
        "{}",
        file.message
    );
}

#[test]
fn a_replay_of_exactly_the_size_limit_is_allowed() {
    // 40 + 4 J + F (8 + 4 Q + 12 J) with J = 1, Q = 2, no plan:
    // 44 + 9,586,979 x 28 = 268,435,456 bytes, the limit exactly.
    let mut r = golden_value();
    r.parents = vec![-1];
    r.plans.clear();
    r.qpos_count = 2;
    r.modes = vec![0; 9_586_979];
    let at_limit = |r: &Replay| validate(r).iter().any(|p| p.path == "file");
    assert!(!at_limit(&r));
    r.modes.push(0);
    assert!(at_limit(&r));
}
