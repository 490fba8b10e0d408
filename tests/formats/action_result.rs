//! The action-cache entry (REAPI v2 `ActionResult`): golden bytes written
//! by hand from the protocol-buffer encoding rules, round trips, fields
//! kiln does not read skipped (a server's re-marshalled entry), the
//! merge and last-wins rules, every truncation, and each refusal at its
//! byte.

use kiln::formats::action_result::{
    self, ActionResult, Digest, Error, MAX_BYTES, MAX_OUTPUT_FILES, OutputFile,
};

const HASH: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

fn one() -> ActionResult {
    ActionResult {
        output_files: vec![OutputFile {
            path: "out/a.qoi".into(),
            digest: Digest {
                sha256: kiln::formats::sha256_from_hex(HASH).unwrap(),
                size: 300,
            },
            is_executable: false,
            contents: Vec::new(),
        }],
        exit_code: 0,
    }
}

/// Bytes by hand: field 2 (output_files, key 0x12), its length; inside,
/// field 1 (path, 0x0a), field 2 (digest, 0x12) holding field 1 (hash,
/// 0x0a, 64 bytes) and field 2 (size_bytes, key 0x10, 300 as the varint
/// ac 02).
fn golden() -> Vec<u8> {
    let mut digest = vec![0x0a, 64];
    digest.extend_from_slice(HASH.as_bytes());
    digest.extend_from_slice(&[0x10, 0xac, 0x02]);
    let mut file = vec![0x0a, 9];
    file.extend_from_slice(b"out/a.qoi");
    file.extend_from_slice(&[0x12, digest.len() as u8]);
    file.extend_from_slice(&digest);
    let mut out = vec![0x12, file.len() as u8];
    out.extend_from_slice(&file);
    out
}

#[test]
fn kilns_entry_is_the_protocol_buffer_encoding() {
    assert_eq!(action_result::encode(&one()), golden());
    assert_eq!(action_result::decode(&golden()).unwrap(), one());
    assert!(action_result::validate(&one()).is_empty());
    assert_eq!(action_result::encode(&ActionResult::default()), b"");
    // proto3 leaves defaults out: an empty output's digest has no size.
    let mut empty = one();
    empty.output_files[0].digest.size = 0;
    let bytes = action_result::encode(&empty);
    assert_eq!(bytes.len(), golden().len() - 3);
    assert_eq!(action_result::decode(&bytes).unwrap(), empty);
}

#[test]
fn results_round_trip() {
    let mut r = one();
    for k in 0..300u64 {
        r.output_files.push(OutputFile {
            path: format!("out/é/{k}.bin"),
            digest: Digest {
                sha256: [k as u8; 32],
                size: k << 40,
            },
            is_executable: k % 3 == 0,
            contents: (0..k % 7).map(|b| b as u8).collect(),
        });
    }
    r.exit_code = -3;
    let bytes = action_result::encode(&r);
    assert_eq!(action_result::decode(&bytes).unwrap(), r);
    assert_eq!(
        action_result::validate(&r)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["exit code -3, not 0".to_string()]
    );
}

/// Fields kiln does not read, of every wire type, in every message, are
/// skipped: what a server that re-marshals an entry (bazel-remote adds
/// `execution_metadata.worker`) or another client writes.
#[test]
fn fields_kiln_does_not_read_are_skipped() {
    let mut body = golden();
    // execution_metadata (9) { worker (1): "w", queued_timestamp (2) { seconds: 5 } }
    body.extend_from_slice(&[0x4a, 7, 0x0a, 1, b'w', 0x12, 2, 0x08, 5]);
    // stdout_raw (5), a fixed64 (field 20), a fixed32 (field 21), a varint (field 22)
    body.extend_from_slice(&[0x2a, 2, b'h', b'i']);
    body.extend_from_slice(&[0xa1, 0x01, 1, 2, 3, 4, 5, 6, 7, 8]);
    body.extend_from_slice(&[0xad, 0x01, 1, 2, 3, 4]);
    body.extend_from_slice(&[0xb0, 0x01, 0xff, 0x01]);
    assert_eq!(action_result::decode(&body).unwrap(), one());
    // Unknown fields inside an output file and a digest, too.
    let inner = golden();
    let len = inner[1] as usize;
    let mut file = inner[2..2 + len].to_vec();
    file.extend_from_slice(&[0x3a, 0]); // node_properties (7), empty
    let mut out = vec![0x12, file.len() as u8];
    out.extend_from_slice(&file);
    assert_eq!(action_result::decode(&out).unwrap(), one());
}

/// A repeated message field merges, a repeated scalar's last value wins.
#[test]
fn a_repeated_field_merges_or_the_last_wins() {
    let mut body = golden();
    // exit_code 7 then 0.
    body.extend_from_slice(&[0x20, 7, 0x20, 0]);
    assert_eq!(action_result::decode(&body).unwrap(), one());
    // One output file whose digest comes in two pieces: hash, then size.
    let mut d1 = vec![0x0a, 64];
    d1.extend_from_slice(HASH.as_bytes());
    let mut file = vec![0x0a, 9];
    file.extend_from_slice(b"out/a.qoi");
    file.extend_from_slice(&[0x12, d1.len() as u8]);
    file.extend_from_slice(&d1);
    file.extend_from_slice(&[0x12, 3, 0x10, 0xac, 0x02]);
    let mut out = vec![0x12, file.len() as u8];
    out.extend_from_slice(&file);
    assert_eq!(action_result::decode(&out).unwrap(), one());
}

/// Every prefix of an entry either decodes (it ends between fields of the
/// outer message) or is refused at a byte inside it.
#[test]
fn every_truncation_decodes_or_is_refused_within_it() {
    let mut r = one();
    r.output_files.push(r.output_files[0].clone());
    r.output_files[1].path = "out/b".into();
    let bytes = action_result::encode(&r);
    let boundary = golden().len();
    for cut in 0..bytes.len() {
        match action_result::decode(&bytes[..cut]) {
            Ok(got) => {
                assert!(cut == 0 || cut == boundary, "cut {cut} decoded: {got:?}");
            }
            Err(e) => {
                assert!(e.offset() <= cut as u64, "cut {cut}: {e}");
                assert!(e.to_string().starts_with("at byte "), "{e}");
            }
        }
    }
}

#[track_caller]
fn refused(body: &[u8], offset: usize, want: &str) {
    let e = action_result::decode(body).unwrap_err();
    assert_eq!(e.offset(), offset as u64, "{e}");
    let text = e.to_string();
    assert!(
        text.starts_with(&format!("at byte {offset}: ")) && text.contains(want),
        "{text} lacks {want:?}"
    );
}

#[test]
fn each_refusal_names_its_rule_and_byte() {
    // A varint of 11 bytes, and one whose 10th byte passes 64 bits.
    refused(
        &[0x20; 1]
            .iter()
            .chain(&[0x80; 10])
            .copied()
            .chain([1])
            .collect::<Vec<_>>(),
        1,
        "varint",
    );
    let mut over = vec![0x20];
    over.extend_from_slice(&[0xff; 9]);
    over.push(2);
    refused(&over, 1, "varint");
    // Field number 0; groups; wire type 7.
    refused(&[0x02, 0], 0, "field number 0");
    refused(&[0x13], 0, "groups");
    refused(&[0x17], 0, "do not exist");
    // A length past the end.
    refused(&[0x12, 5, 0], 2, "length-delimited field");
    // output_files as a varint; exit_code as bytes.
    refused(
        &[0x10, 1],
        0,
        "output_files has wire type 0, not its own (2, length-delimited)",
    );
    refused(
        &[0x22, 0],
        0,
        "exit_code has wire type 2, not its own (0, a varint)",
    );
    // exit_code outside int32.
    refused(&[0x20, 0x80, 0x80, 0x80, 0x80, 0x10], 1, "outside int32");
    // A hash not lowercase hex, or short; a negative size; a path not
    // UTF-8; an output file without a path.
    let upper = golden()
        .iter()
        .map(|&b| if b == b'e' { b'E' } else { b })
        .collect::<Vec<_>>();
    refused(&upper, 17, "not 64 lowercase hex digits");
    refused(
        &[0x12, 6, 0x12, 4, 0x0a, 2, b'a', b'b'],
        6,
        "not 64 lowercase hex digits",
    );
    let mut negative = vec![0x12, 13, 0x12, 11, 0x10];
    negative.extend_from_slice(&[0xff; 9]);
    negative.push(1);
    refused(&negative, 5, "is negative");
    refused(&[0x12, 3, 0x0a, 1, 0xff], 4, "not UTF-8");
    refused(&[0x12, 0], 2, "path: missing or empty");
    // Too large, before anything is read.
    let e = action_result::decode(&vec![0; MAX_BYTES + 1]).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e}");
}

/// The output files are bounded: the one past [`MAX_OUTPUT_FILES`] is
/// refused at its byte, before it is held.
#[test]
fn more_output_files_than_the_limit_are_refused() {
    let file = [0x12, 3, 0x0a, 1, b'a'];
    let body = file.repeat(MAX_OUTPUT_FILES + 1);
    refused(
        &body,
        MAX_OUTPUT_FILES * file.len() + 2,
        "more than 65536 output files",
    );
    assert_eq!(
        action_result::decode(&body[..MAX_OUTPUT_FILES * file.len()])
            .unwrap()
            .output_files
            .len(),
        MAX_OUTPUT_FILES
    );
}

#[test]
fn validate_refuses_a_path_named_twice() {
    let mut r = one();
    r.output_files.push(r.output_files[0].clone());
    assert_eq!(
        action_result::validate(&r)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        vec!["\"out/a.qoi\" is named twice".to_string()]
    );
}

/// `tests/oracles/action_result.py` (Google's protobuf runtime) in `mode`,
/// `input` on its standard input.
fn protobuf(mode: &str, input: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut child = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/oracles/action_result.py"
        ))
        .arg(mode)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "action_result.py {mode}");
    out.stdout
}

/// Google's protobuf runtime reads kiln's entries as kiln wrote them, and
/// kiln reads the runtime's (with the fields a server adds when it
/// re-marshals: `execution_metadata.worker`, `stdout_raw`) as it wrote them.
#[test]
#[ignore = "full tier: Google's protobuf runtime (tests/oracles/action_result.py)"]
fn googles_protobuf_runtime_agrees_with_kiln() {
    let mut r = one();
    for k in 0..40u64 {
        r.output_files.push(OutputFile {
            path: format!("out/ü/{k}.gguf"),
            digest: Digest {
                sha256: std::array::from_fn(|i| (i as u64 * 7 + k) as u8),
                size: (k * k) << 30,
            },
            is_executable: k % 5 == 0,
            // Inlined bytes on some (as kiln inlines small outputs).
            contents: if k % 4 == 1 {
                vec![k as u8; k as usize * 3]
            } else {
                Vec::new()
            },
        });
    }
    for exit_code in [0, -3, i32::MAX] {
        r.exit_code = exit_code;
        let as_json = serde_json::json!({
            "files": r.output_files.iter().map(|f| serde_json::json!({
                "path": f.path,
                "hash": kiln::formats::hex(&f.digest.sha256),
                "size": f.digest.size,
                "executable": f.is_executable,
                "contents": kiln::formats::hex(&f.contents),
            })).collect::<Vec<_>>(),
            "exit_code": exit_code,
            "worker": "",
            "stdout": "",
        });
        // kiln writes, the runtime reads.
        let read: serde_json::Value =
            serde_json::from_slice(&protobuf("decode", &action_result::encode(&r))).unwrap();
        assert_eq!(read, as_json, "exit code {exit_code}");
        // The runtime writes (a server's extra fields too), kiln reads.
        let mut theirs = as_json.clone();
        theirs["worker"] = "bazel-remote@127.0.0.1".into();
        theirs["stdout"] = "built".into();
        let bytes = protobuf("encode", &serde_json::to_vec(&theirs).unwrap());
        assert_eq!(
            action_result::decode(&bytes).unwrap(),
            r,
            "exit code {exit_code}"
        );
        // Without the extra fields the runtime's bytes are kiln's.
        let bare = protobuf("encode", &serde_json::to_vec(&as_json).unwrap());
        let ours = action_result::encode(&r);
        assert!(
            bare == ours,
            "exit code {exit_code}: the runtime wrote {} bytes, kiln {}; first difference at byte {:?}",
            bare.len(),
            ours.len(),
            bare.iter().zip(&ours).position(|(a, b)| a != b)
        );
    }
}
