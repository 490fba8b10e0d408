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
//! Rejects: a malformed varint (more than 10 bytes, or a 10th byte above
//! 1), a field number 0, the group wire types (3 and 4) and the unused
//! 6 and 7, a length past the end of its message, more than
//! [`MAX_OUTPUT_FILES`] files, a body over [`MAX_BYTES`], and in what
//! kiln reads: a wire type other than the field's, a path that is not
//! UTF-8 or empty, a hash that is not 64 lowercase hex digits, a negative
//! size or exit code outside `i32`.

use std::fmt;

use super::cursor::{self, Cursor};

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
}

/// What an action-cache entry says a job made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionResult {
    pub output_files: Vec<OutputFile>,
    pub exit_code: i32,
}

/// Why bytes are not an action result kiln reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The body is larger than [`MAX_BYTES`].
    TooLarge { len: usize },
    /// A varint of more than 10 bytes, or one past 64 bits.
    Varint { offset: usize },
    /// A field key with field number 0, or a wire type protocol buffers
    /// do not define or kiln does not read (groups).
    Key {
        offset: usize,
        key: u64,
        why: &'static str,
    },
    /// A field kiln reads, with another wire type than its own.
    WireType {
        offset: usize,
        field: &'static str,
        wire: u8,
        /// The field's own wire type.
        want: u8,
    },
    /// A field kiln reads whose value breaks its rule.
    Value {
        offset: usize,
        field: &'static str,
        rule: String,
    },
    /// More output files than [`MAX_OUTPUT_FILES`].
    TooManyFiles { offset: usize },
    /// A byte-level rule of the shared cursor.
    Bytes(cursor::Error),
}

impl std::error::Error for Error {}

impl From<cursor::Error> for Error {
    fn from(e: cursor::Error) -> Error {
        Error::Bytes(e)
    }
}

impl Error {
    /// The byte the error is about.
    pub fn offset(&self) -> usize {
        match self {
            Error::TooLarge { .. } => MAX_BYTES,
            Error::Varint { offset }
            | Error::Key { offset, .. }
            | Error::WireType { offset, .. }
            | Error::Value { offset, .. }
            | Error::TooManyFiles { offset } => *offset,
            Error::Bytes(e) => e.offset(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::TooLarge { len } => write!(
                f,
                "at byte {MAX_BYTES}: the action result is {len} bytes, more than the {MAX_BYTES} kiln reads"
            ),
            Error::Varint { offset } => write!(
                f,
                "at byte {offset}: a varint longer than 10 bytes or past 64 bits"
            ),
            Error::Key { offset, key, why } => {
                write!(f, "at byte {offset}: field key {key}: {why}")
            }
            Error::WireType {
                offset,
                field,
                wire,
                want,
            } => write!(
                f,
                "at byte {offset}: {field} has wire type {wire}, not its own ({want}, {})",
                if *want == VARINT {
                    "a varint"
                } else {
                    "length-delimited"
                }
            ),
            Error::Value {
                offset,
                field,
                rule,
            } => write!(f, "at byte {offset}: {field}: {rule}"),
            Error::TooManyFiles { offset } => write!(
                f,
                "at byte {offset}: more than {MAX_OUTPUT_FILES} output files"
            ),
        }
    }
}

const VARINT: u8 = 0;
const FIXED64: u8 = 1;
const LEN: u8 = 2;
const FIXED32: u8 = 5;

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
        put_len(&mut out, 2, &of);
    }
    if result.exit_code != 0 {
        // int32: a negative value is its 64-bit two's complement.
        put_varint_field(&mut out, 4, i64::from(result.exit_code) as u64);
    }
    out
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_varint_field(out: &mut Vec<u8>, field: u64, v: u64) {
    put_varint(out, field << 3 | u64::from(VARINT));
    put_varint(out, v);
}

fn put_len(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_varint(out, field << 3 | u64::from(LEN));
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

/// One field as read: its number, where its key is and where its value
/// starts (a length-delimited one's first byte after its length).
struct Field<'a> {
    number: u64,
    key_at: usize,
    at: usize,
    value: Value<'a>,
}

enum Value<'a> {
    Varint(u64),
    Fixed,
    Bytes(Cursor<'a>),
}

impl Value<'_> {
    fn wire(&self) -> u8 {
        match self {
            Value::Varint(_) => VARINT,
            Value::Fixed => FIXED64,
            Value::Bytes(_) => LEN,
        }
    }
}

fn varint(c: &mut Cursor<'_>) -> Result<u64, Error> {
    let start = c.offset();
    let mut v = 0u64;
    for k in 0..10 {
        let [b] = c.array::<1>("a varint")?;
        if k == 9 && b > 1 {
            return Err(Error::Varint { offset: start });
        }
        v |= u64::from(b & 0x7f) << (7 * k);
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err(Error::Varint { offset: start })
}

/// The next field of the message `c` holds.
fn field<'a>(c: &mut Cursor<'a>) -> Result<Field<'a>, Error> {
    let key_at = c.offset();
    let key = varint(c)?;
    let number = key >> 3;
    if number == 0 || number > u64::from(u32::MAX >> 3) {
        return Err(Error::Key {
            offset: key_at,
            key,
            why: "field number 0 or past 2^29 - 1",
        });
    }
    let mut at = c.offset();
    let value = match (key & 7) as u8 {
        VARINT => Value::Varint(varint(c)?),
        FIXED64 => {
            c.skip(8, "a 64-bit field")?;
            Value::Fixed
        }
        LEN => {
            let n = varint(c)?;
            let body = c.sub(n, "a length-delimited field")?;
            at = body.offset();
            Value::Bytes(body)
        }
        FIXED32 => {
            c.skip(4, "a 32-bit field")?;
            Value::Fixed
        }
        3 | 4 => {
            return Err(Error::Key {
                offset: key_at,
                key,
                why: "groups (wire types 3 and 4) are not read",
            });
        }
        _ => {
            return Err(Error::Key {
                offset: key_at,
                key,
                why: "wire types 6 and 7 do not exist",
            });
        }
    };
    Ok(Field {
        number,
        key_at,
        at,
        value,
    })
}

fn bytes_of<'a>(f: &Field<'a>, name: &'static str) -> Result<Cursor<'a>, Error> {
    match &f.value {
        Value::Bytes(c) => Ok(c.clone()),
        other => Err(Error::WireType {
            offset: f.key_at,
            field: name,
            wire: other.wire(),
            want: LEN,
        }),
    }
}

fn varint_of(f: &Field<'_>, name: &'static str) -> Result<u64, Error> {
    match f.value {
        Value::Varint(v) => Ok(v),
        ref other => Err(Error::WireType {
            offset: f.key_at,
            field: name,
            wire: other.wire(),
            want: VARINT,
        }),
    }
}

/// The action result in `bytes`.
pub fn decode(bytes: &[u8]) -> Result<ActionResult, Error> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::TooLarge { len: bytes.len() });
    }
    let mut c = Cursor::new(bytes);
    let mut result = ActionResult::default();
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            2 => {
                if result.output_files.len() == MAX_OUTPUT_FILES {
                    return Err(Error::TooManyFiles { offset: f.at });
                }
                let mut file: OutputFile = Default::default();
                output_file(bytes_of(&f, "output_files")?, &mut file)?;
                if file.path.is_empty() {
                    return Err(Error::Value {
                        offset: f.at,
                        field: "output_files.path",
                        rule: "missing or empty".into(),
                    });
                }
                result.output_files.push(file);
            }
            4 => {
                let v = varint_of(&f, "exit_code")? as i64;
                result.exit_code = i32::try_from(v).map_err(|_| Error::Value {
                    offset: f.at,
                    field: "exit_code",
                    rule: format!("{v} is outside int32"),
                })?;
            }
            _ => {}
        }
    }
    Ok(result)
}

fn output_file(mut c: Cursor<'_>, file: &mut OutputFile) -> Result<(), Error> {
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            1 => file.path = string(bytes_of(&f, "output_files.path")?, "output_files.path")?,
            2 => digest(bytes_of(&f, "output_files.digest")?, &mut file.digest)?,
            4 => file.is_executable = varint_of(&f, "output_files.is_executable")? != 0,
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
                let text = string(bytes_of(&f, "digest.hash")?, "digest.hash")?;
                d.sha256 = super::sha256_from_hex(&text).ok_or_else(|| Error::Value {
                    offset: f.at,
                    field: "digest.hash",
                    rule: format!("{text:?} is not 64 lowercase hex digits (a SHA-256)"),
                })?;
            }
            2 => {
                let v = varint_of(&f, "digest.size_bytes")?;
                if v > i64::MAX as u64 {
                    return Err(Error::Value {
                        offset: f.at,
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

fn string(c: Cursor<'_>, name: &'static str) -> Result<String, Error> {
    let at = c.offset();
    std::str::from_utf8(c.rest())
        .map(str::to_owned)
        .map_err(|e| Error::Value {
            offset: at + e.valid_up_to(),
            field: name,
            rule: "not UTF-8".into(),
        })
}

/// What kiln requires of a result it restores from: exit code 0, and no
/// path twice. (That the paths are exactly a job's outputs is the
/// pipeline's check: only it knows them.)
pub fn validate(result: &ActionResult) -> Vec<String> {
    let mut problems = Vec::new();
    if result.exit_code != 0 {
        problems.push(format!("exit code {}, not 0", result.exit_code));
    }
    let mut paths: Vec<&str> = result
        .output_files
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    paths.sort_unstable();
    for pair in paths.windows(2) {
        if pair[0] == pair[1] {
            problems.push(format!("{:?} is named twice", pair[0]));
        }
    }
    problems
}
