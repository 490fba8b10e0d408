//! Tests of the `.mbstyle` codec (`kiln::formats::mbstyle`): the layout
//! checked by gguf-py's GGUFReader against the spec's rules written again in
//! Python (tests/oracles/gguf_check.py `style`), the runtime's refusals one
//! by one, the canonical round trip, truncation and hostile input.

use std::path::Path;
use std::process::Command;

use kiln::formats::gguf::{self, Value};
use kiln::formats::mbstyle::{self, Error, Style, decode, encode, mask, validate};

use crate::alloc_support;

const SHA: &str = "7ea40c20130c8a9799d83c0438750b51a5be9b1e09357c4928887961fc992d33";

use crate::synth;

/// A style of `frames` frames whose every value is distinct.
fn style(frames: usize) -> Style {
    synth::style("walk_zombie", frames, (6, 11))
}

#[test]
#[ignore = "full tier: gguf-py"]
fn gguf_py_reads_the_layout_the_spec_gives() {
    let s = style(6);
    let bytes = encode(&s).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("walk_zombie.mbstyle");
    std::fs::write(&file, &bytes).unwrap();
    let expected = serde_json::json!({
        "name": s.name, "speed": s.speed, "frames": 6, "index": s.index,
        "source_sha256": SHA,
        "values": {
            "allowed_tokens": s.allowed_tokens,
            "global_headings": s.headings,
            "global_joint_positions": s.joint_positions.as_flattened(),
            "global_joint_rotations": s.joint_rotations.as_flattened(),
            "global_root_positions": s.root_positions.as_flattened(),
        }
    });
    let json = dir.path().join("expected.json");
    std::fs::write(&json, expected.to_string()).unwrap();
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/gguf_check.py"))
        .args(["style", file.to_str().unwrap(), json.to_str().unwrap()])
        .output()
        .expect("python3 with gguf==0.19.0 (bash tests/full.sh makes a venv with it)");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(s.parameter_count(), 412 * 6 + 11);
    assert_eq!(s.token_range(), Some((6, 11)));
}

#[test]
fn decode_gives_back_the_style_and_encode_the_bytes() {
    for frames in [4, 5, 100] {
        let s = style(frames);
        let bytes = encode(&s).unwrap();
        let back = decode(&bytes).unwrap();
        assert_eq!(back, s);
        assert_eq!(encode(&back).unwrap(), bytes);
    }
}

/// Header of `bytes` with metadata entry `key` replaced by `value`, and
/// the data copied (the new header may differ in length).
fn with_metadata(bytes: &[u8], key: &str, value: Option<Value>) -> Vec<u8> {
    let h = gguf::decode_header(bytes, bytes.len() as u64).unwrap();
    let mut metadata: Vec<(String, Value)> = h.metadata.clone();
    let i = metadata.iter().position(|(k, _)| k == key).unwrap();
    match value {
        Some(v) => metadata[i].1 = v,
        None => {
            metadata.remove(i);
        }
    }
    let (mut out, _) = gguf::encode_header(&metadata, &h.descs()).unwrap();
    out.extend_from_slice(&bytes[h.data_start as usize..]);
    out
}

#[test]
fn each_runtime_refusal_is_its_own_error() {
    let good = encode(&style(5)).unwrap();
    let s = |v: &str| Some(Value::String(v.into()));
    let cases: Vec<(&str, Option<Value>, &str)> = vec![
        (
            "general.architecture",
            s("llama"),
            "general.architecture: is \"llama\"",
        ),
        (
            "motionbricks.component",
            s("pose"),
            "motionbricks.component: is \"pose\"",
        ),
        ("motionbricks.skeleton", s("smpl"), "motionbricks.skeleton"),
        (
            "motionbricks.upstream_revision",
            s("0"),
            "upstream_revision",
        ),
        (
            "motionbricks.source_sha256",
            s("ABC"),
            "not 64 lowercase hex",
        ),
        (
            "motionbricks.style_name",
            None,
            "metadata motionbricks.style_name STRING is missing (the runtime reads it)",
        ),
        (
            "motionbricks.style_speed",
            Some(Value::F64(0.6)),
            "metadata motionbricks.style_speed must be FLOAT32, found FLOAT64",
        ),
        (
            "motionbricks.style_frames",
            Some(Value::U64(5)),
            "metadata motionbricks.style_frames must be UINT32, found UINT64",
        ),
        (
            "motionbricks.style_frames",
            Some(Value::U32(6)),
            "motionbricks.style_frames is 6, the tensors give 5",
        ),
        (
            "motionbricks.parameter_count",
            Some(Value::U64(7)),
            "parameter_count: is 7, the tensors hold 2071",
        ),
        (
            "motionbricks.style_speed",
            Some(Value::F32(-0.5)),
            "style_speed must be 0 or a positive finite number, found -0.5",
        ),
        (
            "motionbricks.style_speed",
            Some(Value::F32(f32::INFINITY)),
            "found inf",
        ),
        (
            "general.name",
            s("other"),
            "general.name \"other\" must be the style name",
        ),
    ];
    for (key, value, part) in cases {
        let bytes = with_metadata(&good, key, value);
        // The runtime's refusals, by `read` as by `decode`.
        let e = mbstyle::read(&bytes).expect_err(part);
        assert_eq!(decode(&bytes), Err(e.clone()));
        assert!(e.to_string().contains(part), "{e} lacks {part:?}");
        // At the changed entry; a removed one, where the keys end (where
        // it would be).
        let h = gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
        let at = h.key_at(key);
        assert_eq!(e.offset(), Some(at), "{e}");
        assert!(e.to_string().starts_with(&format!("at byte {at}: ")), "{e}");
    }

    // Value rules, written through encode's own checks and then patched.
    let mut empty = style(5);
    empty.name = String::new();
    assert!(
        validate(&empty)
            .iter()
            .any(|p| p.to_string().contains("must not be empty"))
    );
    let mut zero = style(5);
    zero.allowed_tokens = [0; 11];
    assert_eq!(
        encode(&zero).unwrap_err(),
        Error::Invalid(vec![mbstyle::Problem::of("", Error::MaskEmpty.to_string())])
    );
    let mut two = style(5);
    two.allowed_tokens[3] = 2;
    assert!(
        matches!(encode(&two), Err(Error::Invalid(p)) if p[0].to_string().contains("allowed_tokens[3] must be 0 or 1, found 2"))
    );
    let mut nan = style(5);
    nan.joint_rotations[7][4] = f32::NAN;
    assert!(
        matches!(encode(&nan), Err(Error::Invalid(p)) if p[0].to_string().contains("global_joint_rotations[67] must be finite"))
    );
    for frames in [3, 100_001] {
        let e = encode(&style(frames)).unwrap_err();
        assert!(e.to_string().contains("4 to 100000 frames"), "{e}");
    }

    // The same value rules on decode: patch the data of a good file.
    let h = gguf::decode_header(&good, good.len() as u64).unwrap();
    let at = |tensor: usize, i: usize| {
        h.data_start as usize + h.tensor_at(tensor).unwrap().offset as usize + 4 * i
    };
    let patch = |off: usize, v: [u8; 4]| {
        let mut b = good.clone();
        b[off..off + 4].copy_from_slice(&v);
        b
    };
    // Each at the value's byte.
    let placed = |offset: usize, rule: Error| {
        Err(Error::At {
            offset: offset as u64,
            rule: Box::new(rule),
        })
    };
    assert_eq!(
        decode(&patch(at(0, 2), 7i32.to_le_bytes())),
        placed(at(0, 2), Error::MaskValue { index: 2, value: 7 })
    );
    let mut zeros = good.clone();
    zeros[at(0, 0)..at(0, 11)].fill(0);
    assert_eq!(decode(&zeros), placed(at(0, 0), Error::MaskEmpty));
    let inf = f32::INFINITY.to_bits();
    assert_eq!(
        decode(&patch(at(4, 5), inf.to_le_bytes())),
        placed(
            at(4, 5),
            Error::NotFinite {
                tensor: "global_root_positions",
                index: 5,
                bits: inf
            }
        )
    );
    assert_eq!(
        decode(&patch(at(1, 0), f32::NAN.to_le_bytes())),
        placed(
            at(1, 0),
            Error::NotFinite {
                tensor: "global_headings",
                index: 0,
                bits: f32::NAN.to_bits()
            }
        )
    );
    let nan_rotation = at(3, 7 * 9 + 4);
    let e = decode(&patch(nan_rotation, f32::NAN.to_le_bytes())).unwrap_err();
    assert_eq!(e.offset(), Some(nan_rotation as u64), "{e}");
    assert!(
        e.to_string().starts_with(&format!(
            "at byte {nan_rotation}: global_joint_rotations[67]"
        )),
        "{e}"
    );
    // Non-zero padding after the mask (11 values, padded to 48 bytes).
    assert_eq!(
        decode(&patch(at(0, 11), [1, 0, 0, 0])),
        Err(Error::NotCanonical {
            offset: at(0, 11) as u64
        })
    );
}

#[test]
fn tensors_other_than_the_five_are_refused() {
    let good = encode(&style(5)).unwrap();
    let h = gguf::decode_header(&good, good.len() as u64).unwrap();
    let data = &good[h.data_start as usize..];
    let rebuild = |descs: Vec<gguf::TensorDesc>, data: &[u8]| {
        let (mut out, _) = gguf::encode_header(&h.metadata, &descs).unwrap();
        out.extend_from_slice(data);
        out
    };
    // Renamed.
    let mut d = h.descs();
    d[2].name = "global_joint_position";
    let renamed = rebuild(d, data);
    let e = decode(&renamed).unwrap_err();
    // At the description of tensor 2.
    let at = gguf::decode_header(&renamed, renamed.len() as u64)
        .unwrap()
        .tensor_info_at(2);
    assert!(e.to_string().starts_with(&format!("at byte {at}: tensor 2 must be global_joint_positions F32 with GGML shape [3, 34, F], found global_joint_position")), "{e}");
    // Wrong type.
    let mut d = h.descs();
    d[0].ty = gguf::TensorType::F32;
    let e = decode(&rebuild(d, data)).unwrap_err();
    assert!(matches!(e.rule(), Error::Tensor { index: 0, .. }), "{e}");
    assert_eq!(e.offset(), Some(h.tensor_info_at(0)));
    // Wrong shape (fewer joints).
    // A valid GGUF (the data sized for the new shape), so the style's rule
    // is what refuses it.
    let mut d = h.descs();
    d[3].dims = &[9, 33, 5];
    let (_, layout) = gguf::encode_header(&h.metadata, &d).unwrap();
    let mut resized = data.to_vec();
    resized.resize(layout.data_bytes as usize, 0);
    let e = decode(&rebuild(d, &resized)).unwrap_err();
    assert!(matches!(e.rule(), Error::Tensor { index: 3, .. }), "{e}");
    // One tensor missing.
    let mut d = h.descs();
    d.pop();
    let cut = h.tensor_at(4).unwrap().offset as usize;
    let short = rebuild(d, &data[..cut]);
    let e = decode(&short).unwrap_err();
    assert!(matches!(e.rule(), Error::Tensor { index: 4, .. }), "{e}");
    // A missing tensor: where its description would be, after the four.
    let four = gguf::decode_header(&short, short.len() as u64).unwrap();
    assert_eq!(e.offset(), Some(four.tensor_info_at(4)));
    assert!(four.tensor_info_at(4) > four.tensor_info_at(3));
}

#[test]
fn truncations_and_trailing_bytes_are_refused() {
    let good = encode(&style(4)).unwrap();
    let step = (good.len() / 997).max(1);
    for n in (0..good.len()).step_by(step).chain([good.len() - 1]) {
        assert!(decode(&good[..n]).is_err(), "a prefix of {n} bytes decoded");
    }
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        decode(&long),
        Err(Error::Gguf(gguf::Error::Trailing { .. }))
    ));
}

#[test]
fn hostile_sizes_fail_fast_without_big_allocations() {
    // A header claiming 4 billion frames in a small file.
    let good = encode(&style(4)).unwrap();
    let h = gguf::decode_header(&good, good.len() as u64).unwrap();
    let dims: Vec<Vec<u64>> = h
        .tensors()
        .map(|t| {
            let mut d = t.dims.to_vec();
            if let Some(last) = d.last_mut()
                && t.name != "allowed_tokens"
            {
                *last = u32::MAX as u64;
            }
            d
        })
        .collect();
    let d: Vec<gguf::TensorDesc> = h
        .tensors()
        .zip(&dims)
        .map(|(t, dims)| gguf::TensorDesc {
            name: t.name,
            dims,
            ty: t.ty,
        })
        .collect();
    let (mut bytes, _) = gguf::encode_header(&h.metadata, &d).unwrap();
    bytes.extend_from_slice(&[0; 4096]);
    let (result, counts) = alloc_support::counts_in(|| decode(&bytes));
    assert!(result.is_err());
    let largest = counts.largest;
    assert!(largest < 64 << 10, "allocated {largest} bytes at once");
    // The header's own entries, not the claimed sizes.
    assert!(counts.bytes < 1 << 20, "{counts:?}");
    // Over the file limit: refused before the header is read.
    let e = decode(&vec![0u8; mbstyle::MAX_FILE_BYTES as usize + 1]).unwrap_err();
    assert!(matches!(e.rule(), Error::FileTooLarge { .. }), "{e}");
    assert_eq!(e.offset(), Some(mbstyle::MAX_FILE_BYTES));
}

#[test]
fn inspect_and_verify_apply_the_runtimes_checks() {
    let kiln = env!("CARGO_BIN_EXE_kiln");
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("walk_zombie.mbstyle");
    std::fs::write(&good, encode(&style(8)).unwrap()).unwrap();
    let out = Command::new(kiln)
        .arg("verify")
        .arg(&good)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("valid MotionBricks style v1 \"walk_zombie\" (8 frames, speed 0.6 m/s) the runtime loads"),
        "{text}"
    );
    let out = Command::new(kiln)
        .args(["inspect", "--json"])
        .arg(&good)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "motionbricks style");
    assert_eq!(v["frames"], 8);
    assert_eq!(v["token_range"], serde_json::json!([6, 11]));
    assert_eq!(
        v["allowed_tokens"],
        serde_json::json!([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
    );
    assert_eq!(v["ranges"]["root_positions"][0].as_f64().unwrap() as f32, {
        let s = style(8);
        s.root_positions
            .as_flattened()
            .iter()
            .copied()
            .fold(f32::INFINITY, f32::min)
    });
    let out = Command::new(kiln)
        .arg("inspect")
        .arg(&good)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("allowed plans: [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0] (6..11 tokens)"),
        "{text}"
    );

    // A style the runtime refuses: verify says why and exits 1.
    let bytes = encode(&style(8)).unwrap();
    let bad = dir.path().join("bad.mbstyle");
    let slow = with_metadata(&bytes, "motionbricks.style_speed", Some(Value::F32(-1.0)));
    std::fs::write(&bad, &slow).unwrap();
    let out = Command::new(kiln).arg("verify").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // At the speed's metadata entry.
    let at = gguf::decode_header(&slow, slow.len() as u64)
        .unwrap()
        .key_at("motionbricks.style_speed");
    assert!(
        err.contains(&format!("a MotionBricks style the runtime refuses: at byte {at}: motionbricks.style_speed must be 0 or a positive finite number, found -1.0")),
        "{err}"
    );
}

#[test]
fn the_token_range_reads_the_mask_back() {
    let mut s = style(4);
    for (a, b) in [(6, 6), (8, 10), (6, 16), (16, 16)] {
        s.allowed_tokens = mask(a, b);
        assert_eq!(s.token_range(), Some((a, b)));
    }
    s.allowed_tokens = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(s.token_range(), None, "not one range");
    s.allowed_tokens = [0; 11];
    assert_eq!(s.token_range(), None);
}

#[test]
fn the_largest_valid_style_fits_the_file_limit_closely() {
    // The header of a style with the longest name kiln writes, from a
    // small one (the header does not grow with the frames: every count is
    // a fixed-width number), plus the data of 100,000 frames, each tensor
    // padded to 32 bytes: the mask (64), then 4, 408, 1,224 and 12 bytes a
    // frame (each a multiple of 32 at 100,000 frames).
    let mut s = style(4);
    s.name = "n".repeat(mbstyle::MAX_NAME_BYTES);
    let small = encode(&s).unwrap();
    let h = gguf::decode_header(&small, small.len() as u64).unwrap();
    let largest = h.data_start + 64 + 1648 * mbstyle::MAX_FRAMES as u64;
    assert!(largest <= mbstyle::MAX_FILE_BYTES, "{largest}");
    // The limit itself: 100,000 frames of values and 68 KiB for the header
    // (a name of up to about 60 KiB written by another tool).
    assert_eq!(mbstyle::MAX_FILE_BYTES, 164_869_632);
    assert!(
        mbstyle::MAX_FILE_BYTES - largest < 72 << 10,
        "the limit is {} bytes above the largest style",
        mbstyle::MAX_FILE_BYTES - largest
    );
}

/// A name longer than kiln writes (the runtime has no limit; another tool
/// may write one) is refused at its entry, like every other rule.
#[test]
fn a_name_longer_than_kiln_writes_is_refused_at_its_entry() {
    let good = encode(&style(4)).unwrap();
    let name = Value::String("n".repeat(mbstyle::MAX_NAME_BYTES + 1));
    let long = with_metadata(&good, "motionbricks.style_name", Some(name.clone()));
    let long = with_metadata(&long, "general.name", Some(name));
    let h = gguf::decode_header(&long, long.len() as u64).unwrap();
    let e = decode(&long).unwrap_err();
    assert_eq!(
        e,
        Error::At {
            offset: h.key_at("motionbricks.style_name"),
            rule: Box::new(Error::NameTooLong {
                len: mbstyle::MAX_NAME_BYTES + 1
            })
        }
    );
    // The longest name kiln writes reads back.
    let name = Value::String("n".repeat(mbstyle::MAX_NAME_BYTES));
    let longest = with_metadata(&good, "motionbricks.style_name", Some(name.clone()));
    let longest = with_metadata(&longest, "general.name", Some(name));
    assert_eq!(
        decode(&longest).unwrap().name.len(),
        mbstyle::MAX_NAME_BYTES
    );
}

#[test]
fn a_scalar_where_the_headings_belong_is_an_error_not_a_panic() {
    let good = encode(&style(5)).unwrap();
    let h = gguf::decode_header(&good, good.len() as u64).unwrap();
    let mut d = h.descs();
    d[1].dims = &[];
    let (mut bytes, layout) = gguf::encode_header(&h.metadata, &d).unwrap();
    bytes.resize(layout.file_bytes() as usize, 0);
    let e = decode(&bytes).unwrap_err();
    assert!(matches!(e.rule(), Error::Tensor { index: 1, .. }), "{e}");
}

#[test]
fn a_file_of_exactly_the_limit_is_read_not_refused_for_its_size() {
    let at_limit = vec![0u8; mbstyle::MAX_FILE_BYTES as usize];
    assert!(matches!(decode(&at_limit), Err(Error::Gguf(_))));
}

/// `bytes` with its metadata rewritten by `edit` (the data kept).
fn with_keys(bytes: &[u8], edit: impl FnOnce(&mut Vec<(String, Value)>)) -> Vec<u8> {
    let h = gguf::decode_header(bytes, bytes.len() as u64).unwrap();
    let mut metadata = h.metadata.clone();
    edit(&mut metadata);
    let (mut out, _) = gguf::encode_header(&metadata, &h.descs()).unwrap();
    out.extend_from_slice(&bytes[h.data_start as usize..]);
    out
}

#[test]
fn what_the_runtime_loads_is_told_apart_from_kilns_canonical_form() {
    // Seed 001: "Minor, backwards-compatible additions are represented by
    // optional keys". The runtime reads the keys it needs by name; an
    // extra key, another order, a missing style_index (which the runtime
    // does not read) or non-zero padding load there. kiln writes none of
    // them: `read` gives the style and says how it departs, `decode`
    // (canonical only) refuses, and verify says both, exiting 0.
    let good = encode(&style(6)).unwrap();
    let extra = |at: usize| {
        move |m: &mut Vec<(String, Value)>| {
            m.insert(at, ("motionbricks.style_tempo".into(), Value::F32(1.5)))
        }
    };
    let mut padded = good.clone();
    let h = gguf::decode_header(&good, good.len() as u64).unwrap();
    let pad_at = (h.data_start + h.tensor_at(0).unwrap().offset + 44) as usize;
    padded[pad_at] = 7;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "an optional key at the end",
            with_keys(&good, extra(14)),
            "metadata key 14 must be absent (the spec has 14 keys), found motionbricks.style_tempo FLOAT32",
        ),
        (
            "an optional key among the spec's",
            with_keys(&good, extra(11)),
            "metadata key 11 must be motionbricks.style_speed FLOAT32, found motionbricks.style_tempo FLOAT32",
        ),
        (
            "keys in another order",
            with_keys(&good, |m| m.swap(11, 12)),
            "metadata key 11 must be motionbricks.style_speed FLOAT32, found motionbricks.style_frames UINT32",
        ),
        (
            "no style_index",
            with_keys(&good, |m| {
                m.pop();
            }),
            "metadata key 13 must be motionbricks.style_index UINT32, found none",
        ),
        (
            "non-zero padding",
            padded,
            "not the canonical form (the padding must be zero bytes)",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (what, bytes, part) in cases {
        let read = mbstyle::read(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(read.style.allowed_tokens, style(6).allowed_tokens, "{what}");
        assert_eq!(read.style.headings, style(6).headings, "{what}");
        let note = read.not_canonical.expect(what);
        assert!(note.to_string().contains(part), "{what}: {note}");
        assert!(note.offset().is_some(), "{what}: {note}");
        assert_eq!(decode(&bytes), Err(note.clone()), "{what}");
        let file = dir.path().join("tempo.mbstyle");
        std::fs::write(&file, &bytes).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .arg("verify")
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{what}: {text}{err}");
        assert!(
            text.contains("the runtime loads; not kiln's canonical form (the runtime loads it;")
                && text.contains(part)
                && !text.contains("refuses"),
            "{what}: {text}"
        );
        let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(["inspect", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            v["not_canonical"].as_str().unwrap().contains(part),
            "{what}: {v}"
        );
    }
    // The canonical file has no note.
    assert_eq!(mbstyle::read(&good).unwrap().not_canonical, None);
    // A mask of zeros loads in the runtime but can never plan: refused,
    // and not said to be the runtime's refusal.
    let mut zeros = good.clone();
    let mask = (h.data_start + h.tensor_at(0).unwrap().offset) as usize;
    zeros[mask..mask + 44].fill(0);
    let file = dir.path().join("zeros.mbstyle");
    std::fs::write(&file, &zeros).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a MotionBricks style that can never plan: at byte")
            && !err.contains("refuses"),
        "{err}"
    );
}
