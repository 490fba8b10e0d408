//! The strict GGUF and safetensors readers on files written by others
//! (gguf-py's GGUFWriter, Python safetensors), and on hostile bytes:
//! truncation at every byte, trailing bytes, overlapping offsets, huge
//! lengths and counts, each refused without a large allocation.

use crate::alloc_support;

use alloc_support::largest_alloc_in;
use kiln::formats::gguf::{self, Array, TensorType, Value};
use kiln::formats::safetensors::{self, Dtype};

const TINY: &[u8] = include_bytes!("../corpus/gguf/tiny_alltypes.gguf");
const EDGE: &[u8] = include_bytes!("../corpus/safetensors/mixed_edgecases.safetensors");

/// What an allocation may reach while refusing hostile input.
const SMALL: usize = 64 << 10;

#[test]
fn gguf_py_s_file_with_every_value_type_reads_in_full() {
    let h = gguf::decode_header(TINY, TINY.len() as u64).unwrap();
    let get = |k: &str| h.get(k).unwrap_or_else(|| panic!("{k}")).clone();
    assert_eq!(
        get("general.architecture"),
        Value::String("testarch".into())
    );
    assert_eq!(get("t.u8"), Value::U8(7));
    assert_eq!(get("t.i8"), Value::I8(-7));
    assert_eq!(get("t.u16"), Value::U16(65535));
    assert_eq!(get("t.i16"), Value::I16(-32768));
    assert_eq!(get("t.u32"), Value::U32(4_000_000_000));
    assert_eq!(get("t.i32"), Value::I32(-2_000_000_000));
    assert_eq!(get("t.f32"), Value::F32(1.5));
    assert_eq!(get("t.u64"), Value::U64(9_223_372_036_854_775_813));
    assert_eq!(get("t.i64"), Value::I64(-4_611_686_018_427_387_904));
    assert_eq!(get("t.f64"), Value::F64(std::f64::consts::PI));
    assert_eq!(get("t.bool"), Value::Bool(true));
    assert_eq!(get("t.str"), Value::String("héllo ✓".into()));
    assert_eq!(get("t.arr_i32"), Value::Array(Array::I32(vec![1, 2, 3])));
    assert_eq!(
        get("t.arr_str"),
        Value::Array(Array::String(vec!["a".into(), "bc".into(), "".into()]))
    );
    assert_eq!(get("t.arr_f32"), Value::Array(Array::F32(vec![0.5, -0.25])));
    let types: Vec<(&str, TensorType, Vec<u64>)> = h
        .tensors()
        .map(|t| (t.name, t.ty, t.dims.to_vec()))
        .collect();
    assert_eq!(
        types,
        [
            ("w_f32", TensorType::F32, vec![4, 3]),
            ("w_f16", TensorType::F16, vec![4, 2]),
            ("w_i8", TensorType::I8, vec![4]),
            ("w_i32", TensorType::I32, vec![3]),
            ("w_f64", TensorType::F64, vec![2]),
            ("w_q8_0", TensorType::Q8_0, vec![32, 2]),
        ]
    );
    assert_eq!(h.tensor("w_q8_0").unwrap().offset, 192);
    assert!(h.tensor("w_none").is_none());
    // The tensor values, at the offsets the header gives.
    let data = &TINY[h.data_start as usize..];
    let w = &h.tensor_at(0).unwrap();
    let first = f32::from_le_bytes(data[w.offset as usize..][..4].try_into().unwrap());
    assert!(first.is_finite());
    // Encoding the header again gives gguf-py's bytes exactly.
    let (again, _) = gguf::encode_header(&h.metadata, &h.descs()).unwrap();
    assert_eq!(again, TINY[..h.data_start as usize]);
}

#[test]
fn every_gguf_truncation_and_every_trailing_byte_is_refused() {
    for n in 0..TINY.len() {
        let (r, largest) = largest_alloc_in(|| gguf::decode_header(&TINY[..n], n as u64));
        let e = r.expect_err("a prefix was accepted");
        assert!(e.offset() <= n as u64, "{e} (prefix {n})");
        assert!(largest < SMALL, "prefix {n}: {largest} bytes allocated");
        // One shape: the byte, then the rule.
        assert_eq!(
            e.to_string(),
            format!("at byte {}: {}", e.offset(), e.rule())
        );
        assert!(!e.rule().starts_with("at byte"), "{e}");
    }
    let mut longer = TINY.to_vec();
    longer.extend_from_slice(&[0; 3]);
    let e = gguf::decode_header(&longer, longer.len() as u64).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("at byte {}: 3 bytes after the end of the data", TINY.len())
    );
}

#[test]
fn hostile_gguf_counts_and_lengths_allocate_nothing_big() {
    // Every 8-byte-aligned u64 field (counts, lengths, dimensions,
    // offsets) set to u64::MAX, u32::MAX and 2^40, one at a time.
    for at in (8..TINY.len() - 8).step_by(4) {
        for v in [u64::MAX, u64::from(u32::MAX), 1 << 40] {
            let mut b = TINY.to_vec();
            b[at..at + 8].copy_from_slice(&v.to_le_bytes());
            let (r, largest) = largest_alloc_in(|| gguf::decode_header(&b, b.len() as u64));
            assert!(
                largest < SMALL,
                "u64 {v} at {at}: {largest} bytes allocated ({r:?})"
            );
        }
    }
}

#[test]
fn the_edge_case_safetensors_file_reads_with_every_dtype_it_holds() {
    let h = safetensors::decode(EDGE).unwrap();
    let got: Vec<(&str, Dtype, Vec<u64>)> = h
        .tensors()
        .map(|t| (t.name, t.dtype, t.shape.to_vec()))
        .collect();
    assert_eq!(
        got,
        [
            ("bytes_u8", Dtype::U8, vec![5]),
            ("empty_f32", Dtype::F32, vec![0, 3]),
            ("mask_bool", Dtype::Bool, vec![3]),
            ("pos_i64", Dtype::I64, vec![1, 4]),
            ("q_bf16", Dtype::BF16, vec![4, 8]),
            ("q_f16", Dtype::F16, vec![4, 8]),
            ("q_f32", Dtype::F32, vec![4, 8]),
            ("scalar_f32", Dtype::F32, vec![]),
        ]
    );
    assert_eq!(h.metadata.as_ref().unwrap()["format"], "pt");
}

#[test]
fn every_safetensors_truncation_trailing_byte_and_huge_length_is_refused() {
    for n in 0..EDGE.len() {
        let (r, largest) = largest_alloc_in(|| safetensors::decode(&EDGE[..n]));
        let e = r.expect_err("a prefix was accepted");
        assert!(largest < SMALL, "prefix {n}: {largest} bytes");
        assert_eq!(
            e.to_string(),
            format!("at byte {}: {}", e.offset(), e.rule())
        );
        assert!(!e.rule().starts_with("at byte"), "{e}");
    }
    let mut longer = EDGE.to_vec();
    longer.push(0);
    let e = safetensors::decode(&longer).unwrap_err();
    assert!(
        e.to_string().contains("1 bytes after the last tensor"),
        "{e}"
    );
    for v in [
        u64::MAX,
        u64::from(u32::MAX),
        safetensors::MAX_HEADER_BYTES + 1,
    ] {
        let mut b = EDGE.to_vec();
        b[..8].copy_from_slice(&v.to_le_bytes());
        let (r, largest) = largest_alloc_in(|| safetensors::decode(&b));
        assert!(
            matches!(r, Err(safetensors::Error::HeaderTooLong { .. })),
            "{r:?}"
        );
        assert!(largest < SMALL);
    }
}

#[test]
fn overlapping_safetensors_offsets_are_refused_naming_both_tensors() {
    let text = String::from_utf8_lossy(EDGE).into_owned();
    // q_f32 is [64,192]; start it 4 bytes early: it overlaps q_bf16.
    let bad = text.replacen("\"data_offsets\":[64,192]", "\"data_offsets\":[60,188]", 1);
    assert_ne!(bad, text);
    let e = safetensors::decode(bad.as_bytes()).unwrap_err();
    assert!(
        e.to_string()
            .contains("tensor \"q_f32\" overlaps tensor \"q_bf16\""),
        "{e}"
    );
}

/// The fuzz targets' properties, on stable, over deterministic mutations.
#[test]
fn fuzz_properties_on_deterministic_inputs() {
    let mut x: u64 = 42;
    let mut next = || {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (x >> 33) as usize
    };
    for _ in 0..5000 {
        let mut b = TINY.to_vec();
        for _ in 0..1 + next() % 4 {
            let i = next() % b.len();
            b[i] = next() as u8;
        }
        if let Ok(h) = gguf::decode_header(&b, b.len() as u64) {
            let (again, _) = gguf::encode_header(&h.metadata, &h.descs()).unwrap();
            assert_eq!(again, b[..h.data_start as usize]);
        }
        let mut s = EDGE.to_vec();
        let i = next() % s.len();
        s[i] = next() as u8;
        if let Ok(h) = safetensors::decode(&s) {
            assert_eq!(h.data_start() + h.data_bytes(), s.len() as u64);
        }
    }
}

/// gguf-py's tables (`GGML_QUANT_SIZES`, `GGMLQuantizationType`,
/// `GGUFValueType`) as JSON.
fn gguf_py_tables() -> serde_json::Value {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import json\n\
             from gguf.constants import GGML_QUANT_SIZES as S, GGMLQuantizationType as Q, GGUFValueType as V\n\
             print(json.dumps({'types': {t.value: [t.name, *S[t]] for t in Q if t in S}, 'values': {t.value: t.name for t in V}}))",
        ])
        .output()
        .expect("python3 with gguf==0.19.0 (bash tests/full.sh makes a venv with it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[ignore = "full tier: gguf-py"]
fn the_tensor_type_table_agrees_with_gguf_py_and_ggml() {
    let py = gguf_py_tables();
    let types = py["types"].as_object().unwrap();
    for code in 0..64u32 {
        let ours = TensorType(code).layout();
        let theirs = types.get(&code.to_string()).map(|t| {
            (
                t[0].as_str().unwrap().to_string(),
                t[1].as_u64().unwrap(),
                t[2].as_u64().unwrap(),
            )
        });
        match (code, ours, theirs) {
            // ggml's block_q8_1 is two halves and 32 bytes (ggml-common.h);
            // gguf-py 0.19.0 still lists the old 40-byte block.
            (9, Some(("Q8_1", 32, 36)), Some((name, 32, 40))) => assert_eq!(name, "Q8_1"),
            // Q2_0 is newer than gguf-py 0.19.0.
            (42, Some(("Q2_0", 64, 18)), None) => {}
            (_, Some((name, block, bytes)), Some(t)) => {
                assert_eq!((name.to_string(), block, bytes), t, "type {code}")
            }
            (_, None, None) => {}
            (_, ours, theirs) => panic!("type {code}: kiln {ours:?}, gguf-py {theirs:?}"),
        }
    }
    let values = py["values"].as_object().unwrap();
    for code in 0..16u32 {
        let theirs = values
            .get(&code.to_string())
            .map_or("unknown", |v| v.as_str().unwrap());
        assert_eq!(gguf::type_name(code), theirs, "value type {code}");
    }
}

#[test]
fn value_types_are_named_as_gguf_py_names_them() {
    assert_eq!(
        Value::Array(Array::I32(vec![1])).type_text(),
        "ARRAY[INT32]"
    );
    assert_eq!(Value::U64(1).type_text(), "UINT64");
    assert!(Array::Bool(vec![]).is_empty());
    assert!(!Array::Bool(vec![true]).is_empty());
    assert_eq!(gguf::TensorType::Q8_0.to_string(), "Q8_0");
    assert_eq!(gguf::TensorType(4).to_string(), "unknown");
}

/// GGUF's `validate` finds every problem of a header to write, each named
/// by its entry, where `encode_header` stops at the first: empty and
/// repeated keys, a bad alignment, a repeated tensor, a type GGUF lacks,
/// too many dims. A set it finds nothing in encodes; a set with one
/// problem is refused by `encode_header` with the same rule.
#[test]
fn gguf_validate_names_every_problem_encode_would_refuse() {
    use gguf::TensorDesc;
    let kv = |k: &str, v: Value| (k.to_string(), v);
    let t = |name, dims, ty| TensorDesc { name, dims, ty };
    let good_meta = [kv("general.name", Value::String("x".into()))];
    let good = [
        t("a", &[2, 3][..], TensorType::F32),
        t("b", &[4], TensorType::F16),
    ];
    assert!(gguf::validate(&good_meta, &good).is_empty());
    assert!(gguf::encode_header(&good_meta, &good).is_ok());

    let meta = [
        kv("", Value::U8(1)),
        kv("k", Value::U8(1)),
        kv("k", Value::U8(2)),
        kv("general.alignment", Value::U32(3)),
    ];
    let tensors = [
        t("a", &[2][..], TensorType::F32),
        t("a", &[2], TensorType::F32),
        t("c", &[2], TensorType(1000)),
        t("d", &[1, 1, 1, 1, 1], TensorType::F32),
    ];
    let problems: Vec<String> = gguf::validate(&meta, &tensors)
        .iter()
        .map(ToString::to_string)
        .collect();
    let want = [
        "metadata[0]: the key is empty",
        "metadata[2]: metadata key \"k\" appears twice (first as metadata[1])",
        "metadata[3]:",
        "tensors[1]: tensor \"a\" appears twice (first as tensors[0])",
        "tensors[2]:",
        "tensors[3]:",
    ];
    assert_eq!(problems.len(), want.len(), "{problems:#?}");
    for (p, w) in problems.iter().zip(want) {
        assert!(p.starts_with(w), "{p} is not {w}");
        assert!(!p.contains("at byte"), "no byte before writing: {p}");
    }
    // One problem at a time: encode_header refuses with the same rule.
    for (m, ts) in [
        (&meta[3..4], &good[..]),
        (&good_meta[..], &tensors[2..3]),
        (&good_meta[..], &tensors[3..4]),
    ] {
        let found = gguf::validate(m, ts);
        assert_eq!(found.len(), 1, "{found:?}");
        let e = gguf::encode_header(m, ts).unwrap_err().to_string();
        assert!(e.ends_with(&found[0].message), "{e} / {}", found[0].message);
    }
}

/// Safetensors' `validate` refuses what would make `encode_header` write a
/// header `decode` misreads: a name twice (JSON keeps only the last, so
/// the offsets would no longer cover the data), `__metadata__` as a
/// tensor, an empty name, sizes past 2^64; `encode_header` then gives
/// nothing. A valid set round-trips.
#[test]
fn safetensors_validate_refuses_what_the_header_could_not_say() {
    use safetensors::TensorSpec;
    let spec = |name: &str, shape: &[u64]| TensorSpec {
        name: name.into(),
        dtype: Dtype::F32,
        shape: shape.to_vec(),
    };
    let good = [spec("a", &[2, 2]), spec("b", &[3])];
    assert!(safetensors::validate(&good, None).is_empty());
    let mut file = safetensors::encode_header(&good, None).unwrap();
    file.extend_from_slice(&[0u8; 28]);
    assert_eq!(safetensors::decode(&file).unwrap().len(), 2);

    let bad = [
        spec("a", &[1]),
        spec("a", &[2]),
        spec("__metadata__", &[1]),
        spec("", &[1]),
        spec("huge", &[u64::MAX, 2]),
    ];
    let problems: Vec<String> = safetensors::validate(&bad, None)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        problems,
        [
            "tensors[1]: tensor \"a\" appears twice (first as tensors[0])",
            "tensors[2]: __metadata__ is the header's metadata, not a tensor name",
            "tensors[3]: the tensor name is empty",
            "tensors[4]: tensor \"huge\": the data so far passes 2^64 bytes",
        ]
    );
    assert_eq!(safetensors::encode_header(&bad[..2], None), None);
}
