//! The Bazel remote cache's action-cache entry: REAPI v2 `ActionResult`
//! (`build.bazel.remote.execution.v2`, protocol buffers), the part of it
//! kiln writes and reads. Spec: `docs/formats/action-result.md`.
//!
//! kiln writes `output_files` (each a `path` and a `Digest` of the SHA-256
//! as 64 lowercase hex digits and the size) and `exit_code` 0, nothing
//! else. A server may re-marshal what it stores (bazel-remote adds
//! `execution_metadata`) and other clients write more fields, so the
//! decoder skips every field it does not read, of any wire type, and
//! never compares bytes; a field it reads is held to its type (a string
//! is UTF-8, a digest's hash 64 lowercase hex digits, a size at most
//! `i64::MAX`). As protocol buffers say, a repeated scalar field's last
//! value wins and a repeated message field merges.
//!
//! Rejects what the wire format's reader rejects ([`super::protobuf`]),
//! more than [`MAX_OUTPUT_FILES`] files, a body over [`MAX_BYTES`], and in
//! what kiln reads: a path that is empty, a hash that is not 64 lowercase
//! hex digits, a negative size or an exit code outside `i32`.

use super::cursor::Cursor;
pub use super::problem::Problem;
pub use super::protobuf::Error;
use super::protobuf::{field, put_len, put_varint_field};

/// Largest action-cache body kiln reads: 16 MiB (a job of the most output
/// files, each with a long path, is a few MiB).
pub const MAX_BYTES: usize = 16 << 20;

/// Most output files an entry may name.
pub const MAX_OUTPUT_FILES: usize = 65_536;

/// A content digest: a SHA-256 and the size of the bytes it hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Digest {
    pub sha256: [u8; 32],
    pub size: u64,
}

/// One output: its path (relative, `/`-separated) and its bytes' digest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutputFile {
    pub path: String,
    pub digest: Digest,
    pub is_executable: bool,
    /// The bytes themselves, inlined (`contents`, field 5); empty when not.
    /// A reader checks them against the digest: they are the server's.
    pub contents: Vec<u8>,
}

/// What an action-cache entry says a job made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionResult {
    pub output_files: Vec<OutputFile>,
    pub exit_code: i32,
}

/// Bytes of an action result.
pub fn encode(result: &ActionResult) -> Vec<u8> {
    let mut out = Vec::new();
    for file in &result.output_files {
        let mut digest = Vec::new();
        put_len(&mut digest, 1, super::hex(&file.digest.sha256).as_bytes());
        // proto3 leaves a default out: an empty output has no size.
        if file.digest.size != 0 {
            put_varint_field(&mut digest, 2, file.digest.size);
        }
        let mut of = Vec::new();
        put_len(&mut of, 1, file.path.as_bytes());
        put_len(&mut of, 2, &digest);
        if file.is_executable {
            put_varint_field(&mut of, 4, 1);
        }
        if !file.contents.is_empty() {
            put_len(&mut of, 5, &file.contents);
        }
        put_len(&mut out, 2, &of);
    }
    if result.exit_code != 0 {
        // int32: a negative value is its 64-bit two's complement.
        put_varint_field(&mut out, 4, i64::from(result.exit_code) as u64);
    }

    out
}

/// The action result in `bytes`.
pub fn decode(bytes: &[u8]) -> Result<ActionResult, Error> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::TooLarge {
            len: bytes.len(),
            max: MAX_BYTES,
        });
    }
    let mut c = Cursor::new(bytes);
    let mut result = ActionResult::default();
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            2 => {
                if result.output_files.len() == MAX_OUTPUT_FILES {
                    return Err(Error::TooMany {
                        offset: f.at as u64,
                        what: "output files",
                        max: MAX_OUTPUT_FILES,
                    });
                }
                let mut file: OutputFile = Default::default();
                output_file(f.bytes("output_files")?, &mut file)?;
                if file.path.is_empty() {
                    return Err(Error::Value {
                        offset: f.at as u64,
                        field: "output_files.path",
                        rule: "missing or empty".into(),
                    });
                }
                result.output_files.push(file);
            }
            4 => result.exit_code = f.int32("exit_code")?,

            _ => {}
        }
    }
    Ok(result)
}

fn output_file(mut c: Cursor<'_>, file: &mut OutputFile) -> Result<(), Error> {
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            1 => file.path = f.string("output_files.path")?,
            2 => digest(f.bytes("output_files.digest")?, &mut file.digest)?,
            4 => file.is_executable = f.varint("output_files.is_executable")? != 0,
            5 => file.contents = f.bytes("output_files.contents")?.rest().to_vec(),
            _ => {}
        }
    }
    Ok(())
}

fn digest(mut c: Cursor<'_>, d: &mut Digest) -> Result<(), Error> {
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            1 => {
                let text = f.string("digest.hash")?;
                d.sha256 = super::sha256_from_hex(&text).ok_or_else(|| Error::Value {
                    offset: f.at as u64,
                    field: "digest.hash",
                    rule: format!("{text:?} is not 64 lowercase hex digits (a SHA-256)"),
                })?;
            }
            2 => {
                let v = f.varint("digest.size_bytes")?;
                if v > i64::MAX as u64 {
                    return Err(Error::Value {
                        offset: f.at as u64,
                        field: "digest.size_bytes",
                        rule: format!("{} is negative", v as i64),
                    });
                }
                d.size = v;
            }
            _ => {}
        }
    }
    Ok(())
}

/// What kiln requires of a result it restores from: exit code 0, and no
/// path twice. (That the paths are exactly a job's outputs is the
/// pipeline's check: only it knows them.)
pub fn validate(result: &ActionResult) -> Vec<Problem> {
    let mut problems = Vec::new();
    if result.exit_code != 0 {
        problems.push(Problem::of(
            "",
            format!("exit code {}, not 0", result.exit_code),
        ));
    }
    let mut paths: Vec<&str> = result
        .output_files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    paths.sort_unstable();
    for pair in paths.windows(2) {
        if pair[0] == pair[1] {
            problems.push(Problem::of("", format!("{:?} is named twice", pair[0])));
        }
    }
    problems
}
