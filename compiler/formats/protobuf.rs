//! The protocol-buffer wire format, as the codecs that read it share it
//! (`action_result`, `sentencepiece`): fields read off one checked
//! [`Cursor`], held to the wire type of the field a codec reads, and one
//! error shape with the byte of each refusal. Spec: the protocol buffers
//! encoding guide (protobuf.dev/programming-guides/encoding).
//!
//! Rejects: a malformed varint (more than 10 bytes, or a 10th byte above
//! 1), a field number 0 or past 2^29 - 1, the group wire types (3 and 4)
//! and the unused 6 and 7, a length past the end of its message; in a
//! field a codec reads: another wire type than its own, a string that is
//! not UTF-8. Every other field is skipped, of any wire type.

use std::fmt;

use super::cursor::{self, Cursor};

pub const VARINT: u8 = 0;
pub const FIXED64: u8 = 1;
pub const LEN: u8 = 2;
pub const FIXED32: u8 = 5;

/// Why bytes are not the message a codec reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The body is larger than the codec reads.
    TooLarge { len: usize, max: usize },
    /// A varint of more than 10 bytes, or one past 64 bits.
    Varint { offset: u64 },
    /// A field key with field number 0, or a wire type protocol buffers
    /// do not define or kiln does not read (groups).
    Key {
        offset: u64,
        key: u64,
        why: &'static str,
    },
    /// A field kiln reads, with another wire type than its own.
    WireType {
        offset: u64,
        field: &'static str,
        wire: u8,
        /// The field's own wire type.
        want: u8,
    },
    /// A field kiln reads whose value breaks its rule.
    Value {
        offset: u64,
        field: &'static str,
        rule: String,
    },
    /// More of a repeated field than the codec reads.
    TooMany {
        offset: u64,
        what: &'static str,
        max: usize,
    },
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
    pub fn offset(&self) -> u64 {
        match self {
            Error::TooLarge { max, .. } => *max as u64,
            Error::Varint { offset }
            | Error::Key { offset, .. }
            | Error::WireType { offset, .. }
            | Error::Value { offset, .. }
            | Error::TooMany { offset, .. } => *offset,
            Error::Bytes(e) => e.offset(),
        }
    }
}

fn wire_name(wire: u8) -> &'static str {
    match wire {
        VARINT => "a varint",
        FIXED64 => "64-bit",
        LEN => "length-delimited",
        _ => "32-bit",
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Bytes(e) => write!(f, "{e}"),
            Error::TooLarge { len, max } => write!(
                f,
                "at byte {max}: the message is {len} bytes, more than the {max} kiln reads"
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
                wire_name(*want)
            ),
            Error::Value {
                offset,
                field,
                rule,
            } => write!(f, "at byte {offset}: {field}: {rule}"),
            Error::TooMany { offset, what, max } => {
                write!(f, "at byte {offset}: more than {max} {what}")
            }
        }
    }
}

/// One field as read: its number, where its key is and where its value
/// starts (a length-delimited one's first byte after its length).
pub struct Field<'a> {
    pub number: u64,
    pub key_at: usize,
    pub at: usize,
    value: Value<'a>,
}

enum Value<'a> {
    Varint(u64),
    Fixed64,
    Fixed32([u8; 4]),
    Bytes(Cursor<'a>),
}

impl Value<'_> {
    fn wire(&self) -> u8 {
        match self {
            Value::Varint(_) => VARINT,
            Value::Fixed64 => FIXED64,
            Value::Fixed32(_) => FIXED32,
            Value::Bytes(_) => LEN,
        }
    }
}

pub fn varint(c: &mut Cursor<'_>) -> Result<u64, Error> {
    let start = c.offset();
    let mut v = 0u64;
    for k in 0..10 {
        let [b] = c.array::<1>("a varint")?;
        if k == 9 && b > 1 {
            return Err(Error::Varint {
                offset: start as u64,
            });
        }
        v |= u64::from(b & 0x7f) << (7 * k);
        if b < 0x80 {
            return Ok(v);
        }
    }
    Err(Error::Varint {
        offset: start as u64,
    })
}

/// The next field of the message `c` holds.
pub fn field<'a>(c: &mut Cursor<'a>) -> Result<Field<'a>, Error> {
    let key_at = c.offset();
    let key = varint(c)?;
    let number = key >> 3;
    if number == 0 || number > u64::from(u32::MAX >> 3) {
        return Err(Error::Key {
            offset: key_at as u64,
            key,
            why: "field number 0 or past 2^29 - 1",
        });
    }
    let mut at = c.offset();
    let value = match (key & 7) as u8 {
        VARINT => Value::Varint(varint(c)?),
        FIXED64 => {
            c.skip(8, "a 64-bit field")?;
            Value::Fixed64
        }
        LEN => {
            let n = varint(c)?;
            let body = c.sub(n, "a length-delimited field")?;
            at = body.offset();
            Value::Bytes(body)
        }
        FIXED32 => Value::Fixed32(c.array::<4>("a 32-bit field")?),
        3 | 4 => {
            return Err(Error::Key {
                offset: key_at as u64,
                key,
                why: "groups (wire types 3 and 4) are not read",
            });
        }
        _ => {
            return Err(Error::Key {
                offset: key_at as u64,
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

impl<'a> Field<'a> {
    fn wrong(&self, name: &'static str, want: u8) -> Error {
        Error::WireType {
            offset: self.key_at as u64,
            field: name,
            wire: self.value.wire(),
            want,
        }
    }

    /// A length-delimited field's bytes (a message, a string).
    pub fn bytes(&self, name: &'static str) -> Result<Cursor<'a>, Error> {
        match &self.value {
            Value::Bytes(c) => Ok(c.clone()),
            _ => Err(self.wrong(name, LEN)),
        }
    }

    pub fn varint(&self, name: &'static str) -> Result<u64, Error> {
        match self.value {
            Value::Varint(v) => Ok(v),
            _ => Err(self.wrong(name, VARINT)),
        }
    }

    /// A `float` (fixed32, little-endian).
    pub fn float(&self, name: &'static str) -> Result<f32, Error> {
        match self.value {
            Value::Fixed32(b) => Ok(f32::from_le_bytes(b)),
            _ => Err(self.wrong(name, FIXED32)),
        }
    }

    /// An `int32`: a varint whose value is a 32-bit integer (a negative one
    /// written as its 64-bit two's complement).
    pub fn int32(&self, name: &'static str) -> Result<i32, Error> {
        let v = self.varint(name)? as i64;
        i32::try_from(v).map_err(|_| Error::Value {
            offset: self.at as u64,
            field: name,
            rule: format!("{v} is outside int32"),
        })
    }

    /// A `string`: UTF-8.
    pub fn string(&self, name: &'static str) -> Result<String, Error> {
        let c = self.bytes(name)?;
        let at = c.offset();
        std::str::from_utf8(c.rest())
            .map(str::to_owned)
            .map_err(|e| Error::Value {
                offset: (at + e.valid_up_to()) as u64,
                field: name,
                rule: "not UTF-8".into(),
            })
    }
}

pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub fn put_varint_field(out: &mut Vec<u8>, field: u64, v: u64) {
    put_varint(out, field << 3 | u64::from(VARINT));
    put_varint(out, v);
}

pub fn put_len(out: &mut Vec<u8>, field: u64, bytes: &[u8]) {
    put_varint(out, field << 3 | u64::from(LEN));
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

pub fn put_float(out: &mut Vec<u8>, field: u64, v: f32) {
    put_varint(out, field << 3 | u64::from(FIXED32));
    out.extend_from_slice(&v.to_le_bytes());
}
