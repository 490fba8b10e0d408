//! The one checked byte cursor every codec reads with: takes that never
//! run past the end, little-endian numbers, counts bounded by a named
//! limit and by the bytes left before anything is allocated for them, and
//! the offset of every read, so each error names the byte it is about.
//!
//! Its errors are the byte-level rules every format shares (truncated,
//! too many, past the end, trailing bytes); each format's own error enum
//! carries them in one variant beside its format-specific rules, each with
//! its offset.

use std::fmt;

use crate::memory::{self, NoMemory};

/// A byte-level rule broken at `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `need` bytes of `what` were wanted at `offset`; `have` were left.
    Truncated {
        offset: u64,
        what: String,
        need: u64,
        have: usize,
    },
    /// A count read from the input is above the format's limit.
    TooMany {
        offset: u64,
        what: String,
        count: u64,
        limit: u64,
    },
    /// `count` items of at least `item_bytes` each cannot fit in the bytes
    /// left.
    PastEnd {
        offset: u64,
        what: String,
        count: u64,
        item_bytes: u64,
        have: usize,
    },
    /// Bytes after the end of what the format describes.
    Trailing {
        offset: u64,
        what: String,
        extra: usize,
    },
    /// The values of `what` need more memory than could be had.
    NoMemory {
        offset: u64,
        what: String,
        bytes: u64,
    },
}

impl Error {
    /// The rule broken, without the byte it was found at ([`Error::offset`]).
    pub fn rule(&self) -> String {
        match self {
            Error::Truncated {
                what, need, have, ..
            } => format!(
                "{need} bytes of {what}, found {} before the end of the input",
                bytes(*have)
            ),
            Error::TooMany {
                what, count, limit, ..
            } => format!("{what} is {count}, more than the limit of {limit}"),
            Error::PastEnd {
                what,
                count,
                item_bytes,
                have,
                ..
            } => format!(
                "{count} {what} of at least {item_bytes} bytes each need more than the {} left",
                bytes(*have)
            ),
            Error::Trailing { what, extra, .. } => {
                format!("{} after the end of the {what}", bytes(*extra))
            }
            Error::NoMemory { what, bytes, .. } => format!(
                "the {what} need {bytes} bytes of memory, which could not be had: give kiln more memory"
            ),
        }
    }
}

super::at_byte_error!(Error);

impl Error {
    pub fn offset(&self) -> u64 {
        match self {
            Error::Truncated { offset, .. }
            | Error::TooMany { offset, .. }
            | Error::PastEnd { offset, .. }
            | Error::Trailing { offset, .. }
            | Error::NoMemory { offset, .. } => *offset,
        }
    }
}

fn bytes(n: usize) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// A position in a byte slice; every read is checked.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

macro_rules! le {
    ($($name:ident: $t:ty),*) => {$(
        #[doc = concat!("A little-endian `", stringify!($t), "`.")]
        pub fn $name(&mut self, what: &str) -> Result<$t, Error> {
            Ok(<$t>::from_le_bytes(self.array(what)?))
        }
    )*};
}

impl<'a> Cursor<'a> {
    /// The next `n` bytes of `what`, converted (by [`le_f32s`] and its
    /// kind) into values allocated fallibly: memory refused is an error at
    /// their first byte.
    pub fn values<T>(
        &mut self,
        n: usize,
        what: &str,
        convert: fn(&[u8]) -> Result<Vec<T>, NoMemory>,
    ) -> Result<Vec<T>, Error> {
        let offset = self.pos;
        convert(self.take(n, what)?).map_err(|e| Error::NoMemory {
            offset: offset as u64,
            what: what.to_string(),
            bytes: e.bytes,
        })
    }

    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, pos: 0 }
    }

    /// A cursor at `offset` (at most the length: then it is at the end).
    pub fn at(bytes: &'a [u8], offset: usize) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: offset.min(bytes.len()),
        }
    }

    /// How far into the input the next read starts.
    pub fn offset(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    /// The next `n` bytes (of `what`, for the error) as a cursor of their
    /// own, its offsets still the input's (a nested message).
    pub fn sub(&mut self, n: u64, what: &str) -> Result<Cursor<'a>, Error> {
        let start = self.pos;
        let body = self.take_u64(n, what)?;
        Ok(Cursor {
            bytes: &self.bytes[..start + body.len()],
            pos: start,
        })
    }

    /// The next `n` bytes (of `what`, for the error).
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        if n > self.remaining() {
            return Err(Error::Truncated {
                offset: self.pos as u64,
                what: what.to_string(),
                need: n as u64,
                have: self.remaining(),
            });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The next `n` bytes, `n` read from the input as a u64.
    pub fn take_u64(&mut self, n: u64, what: &str) -> Result<&'a [u8], Error> {
        match usize::try_from(n) {
            Ok(n) => self.take(n, what),
            Err(_) => Err(Error::Truncated {
                offset: self.pos as u64,
                what: what.to_string(),
                need: n,
                have: self.remaining(),
            }),
        }
    }

    pub fn skip(&mut self, n: usize, what: &str) -> Result<(), Error> {
        self.take(n, what).map(|_| ())
    }

    pub fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let s = self.take(N, what)?;
        Ok(s.try_into().expect("take gave N bytes"))
    }

    le!(u8: u8, u16: u16, u32: u32, u64: u64, i8: i8, i16: i16, i32: i32, i64: i64, f32: f32, f64: f64);

    /// Checks a count read from the input (at `offset`) before it sizes
    /// anything: at most `limit`, and `count` items of at least
    /// `item_bytes` each must fit in the bytes left. The count as a usize.
    pub fn count(
        &self,
        offset: u64,
        count: u64,
        item_bytes: u64,
        limit: u64,
        what: &str,
    ) -> Result<usize, Error> {
        if count > limit {
            return Err(Error::TooMany {
                offset,
                what: what.to_string(),
                count,
                limit,
            });
        }
        let fits = count
            .checked_mul(item_bytes)
            .is_some_and(|need| need <= self.remaining() as u64);
        match usize::try_from(count) {
            Ok(n) if fits => Ok(n),
            _ => Err(Error::PastEnd {
                offset,
                what: what.to_string(),
                count,
                item_bytes,
                have: self.remaining(),
            }),
        }
    }

    /// Ends the read: no bytes may be left (`what` names the whole).
    pub fn finish(&self, what: &str) -> Result<(), Error> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::Trailing {
                offset: self.pos as u64,
                what: what.to_string(),
                extra: self.remaining(),
            })
        }
    }
}

impl fmt::Display for Cursor<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {} of {}", self.pos, self.bytes.len())
    }
}

/// `bytes` read as little-endian `f32`s (a trailing partial value is
/// ignored: callers pass exact lengths).
pub fn le_f32s(bytes: &[u8]) -> Result<Vec<f32>, NoMemory> {
    convert(bytes, 4, |c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `bytes` read as groups of `N` little-endian `f32`s (points, matrices;
/// a trailing partial group is ignored, as [`le_f32s`]).
pub fn le_f32_arrays<const N: usize>(bytes: &[u8]) -> Result<Vec<[f32; N]>, NoMemory> {
    convert(bytes, 4 * N, |c| {
        std::array::from_fn(|k| {
            f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
        })
    })
}

/// `bytes` read as little-endian `u32`s (as [`le_f32s`]).
pub fn le_u32s(bytes: &[u8]) -> Result<Vec<u32>, NoMemory> {
    convert(bytes, 4, |c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `bytes` read as little-endian `i32`s (as [`le_f32s`]).
pub fn le_i32s(bytes: &[u8]) -> Result<Vec<i32>, NoMemory> {
    convert(bytes, 4, |c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// `bytes` in `size`-byte pieces, each converted, into a vector asked for
/// fallibly (the values are as many as the file's bytes say).
fn convert<T>(bytes: &[u8], size: usize, f: impl Fn(&[u8]) -> T) -> Result<Vec<T>, NoMemory> {
    let mut out = memory::with_capacity(bytes.len() / size)?;
    out.extend(bytes.chunks_exact(size).map(f));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_tracks_the_offset() {
        let bytes = [1, 0, 2, 0, 0, 0, 0xff, 0, 0, 0x80, 0x3f];
        let mut c = Cursor::new(&bytes);
        assert_eq!(c.u16("a").unwrap(), 1);
        assert_eq!(c.u32("b").unwrap(), 2);
        assert_eq!(c.offset(), 6);
        assert_eq!(c.i8("c").unwrap(), -1);
        assert_eq!(c.f32("d").unwrap(), 1.0);
        assert!(c.is_empty());
        assert!(c.finish("thing").is_ok());
    }

    #[test]
    fn a_short_read_names_the_offset_what_and_how_much() {
        let mut c = Cursor::new(&[0; 5]);
        c.skip(3, "head").unwrap();
        let e = c.u32("length").unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 3: 4 bytes of length, found 2 bytes before the end of the input"
        );
        assert_eq!(e.offset(), 3);
        assert_eq!(c.offset(), 3, "a failed read takes nothing");
        let e = c.take_u64(u64::MAX, "data").unwrap_err();
        assert!(matches!(e, Error::Truncated { need: u64::MAX, .. }));
        let e = c.finish("file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 3: 2 bytes after the end of the file"
        );
    }

    #[test]
    fn counts_are_bounded_by_the_limit_and_the_bytes_left() {
        let c = Cursor::new(&[0; 12]);
        assert_eq!(c.count(0, 3, 4, 3, "items").unwrap(), 3);
        assert_eq!(c.count(0, 0, 4, 0, "items").unwrap(), 0);
        let e = c.count(7, 4, 1, 3, "item count").unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 7: item count is 4, more than the limit of 3"
        );
        let e = c.count(0, 4, 4, 10, "items").unwrap_err();
        assert_eq!(
            e.to_string(),
            "at byte 0: 4 items of at least 4 bytes each need more than the 12 bytes left"
        );
        assert!(
            c.count(0, u64::MAX, 2, u64::MAX, "items").is_err(),
            "no overflow"
        );
        assert_eq!(c.count(0, 12, 1, 12, "bytes").unwrap(), 12);
        assert!(c.count(0, 13, 1, 13, "bytes").is_err());
    }

    #[test]
    fn at_starts_mid_input() {
        let c = Cursor::at(&[1, 2, 3], 2);
        assert_eq!(c.rest(), [3]);
        assert!(Cursor::at(&[1], 9).is_empty());
    }
}
