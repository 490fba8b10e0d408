//! The byte encoding of kiln's own state files (`OUT/.kiln/*`).
//!
//! Not a user-facing format: written and read only by the same kiln
//! version (the envelope carries it), so it can change freely. Little
//! endian, strings and lists prefixed with their length as a LEB128 number. Every read is bounds-checked
//! and returns `None` on anything unexpected; a state file that does not
//! read back is simply treated as absent, which only costs a rebuild.
//!
//! A whole file is an envelope: magic, kiln's version, the BLAKE3 of the
//! body (so a corrupted file is never half-trusted), then the body.

/// Writes values into a growing buffer.
#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }

    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// An unsigned LEB128 number: 7 bits a byte, low first (lengths and
    /// counts, which are mostly small).
    pub fn var(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    pub fn bytes(&mut self, v: &[u8]) {
        self.var(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }

    pub fn hash(&mut self, v: &[u8; 32]) {
        self.buf.extend_from_slice(v);
    }
}

/// Reads values back; every method returns `None` past the end.
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { rest: bytes }
    }

    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &'a [u8] {
        self.rest
    }

    /// The next `n` bytes, raw.
    pub fn take_exact(&mut self, n: usize) -> Option<&'a [u8]> {
        self.take(n)
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.array()?))
    }

    pub fn f64(&mut self) -> Option<f64> {
        Some(f64::from_bits(self.u64()?))
    }

    pub fn f32(&mut self) -> Option<f32> {
        Some(f32::from_bits(self.u32()?))
    }

    /// An unsigned LEB128 number of at most 10 bytes.
    pub fn var(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.var()?).ok()?;
        self.take(n)
    }

    pub fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }

    pub fn string(&mut self) -> Option<String> {
        self.str().map(str::to_string)
    }

    pub fn hash(&mut self) -> Option<[u8; 32]> {
        self.array()
    }

    /// A list length, bounded by the bytes left (each item takes at least
    /// `min_item_bytes`, which must not exceed the smallest encoding of an
    /// item), so a corrupt count cannot size an allocation.
    pub fn count(&mut self, min_item_bytes: usize) -> Option<usize> {
        let n = usize::try_from(self.var()?).ok()?;
        (n.checked_mul(min_item_bytes.max(1))? <= self.rest.len()).then_some(n)
    }
}

/// Wraps `body` in the envelope of a state file of kind `magic`.
pub fn seal(magic: &[u8; 8], body: &[u8]) -> Vec<u8> {
    let mut w = Writer::default();
    w.buf.extend_from_slice(magic);
    w.str(crate::VERSION);
    w.hash(blake3::hash(body).as_bytes());
    w.buf.extend_from_slice(body);
    w.buf
}

/// The body of a state file, if it is of kind `magic`, was written by this
/// kiln version and is intact.
pub fn open<'a>(magic: &[u8; 8], file: &'a [u8]) -> Option<&'a [u8]> {
    let mut r = Reader::new(file);
    if r.take(8)? != magic || r.str()? != crate::VERSION {
        return None;
    }
    let sum = r.hash()?;
    let body = r.rest;
    (blake3::hash(body).as_bytes() == &sum).then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let mut w = Writer::default();
        w.str("héllo");
        w.f64(-0.5);
        w.u64(7);
        let file = seal(b"KILNTEST", &w.buf);
        let body = open(b"KILNTEST", &file).unwrap();
        let mut r = Reader::new(body);
        assert_eq!(r.str(), Some("héllo"));
        assert_eq!(r.f64(), Some(-0.5));
        assert_eq!(r.u64(), Some(7));
        assert!(r.is_empty());
        assert_eq!(r.u8(), None);
        for i in 0..file.len() {
            let mut bad = file.clone();
            bad[i] ^= 1;
            assert!(open(b"KILNTEST", &bad).is_none(), "flip at {i} accepted");
        }
        assert!(open(b"KILNTEST", &file[..file.len() - 1]).is_none());
        assert!(open(b"OTHERONE", &file).is_none());
    }

    #[test]
    fn var_round_trips() {
        for v in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut w = Writer::default();
            w.var(v);
            let mut r = Reader::new(&w.buf);
            assert_eq!(r.var(), Some(v));
            assert!(r.is_empty());
        }
        assert_eq!(Reader::new(&[0x80; 11]).var(), None);
        assert_eq!(Reader::new(&[0x80]).var(), None);
    }

    #[test]
    fn counts_cannot_exceed_the_bytes_left() {
        let mut w = Writer::default();
        w.var(u64::MAX / 2);
        assert_eq!(Reader::new(&w.buf).count(1), None);
        let mut w = Writer::default();
        w.var(3);
        w.buf.extend_from_slice(&[0; 6]);
        assert_eq!(Reader::new(&w.buf).count(2), Some(3));
        assert_eq!(Reader::new(&w.buf).count(3), None);
    }
}
