//! A section's payload, stored or a zlib stream inflated as it is parsed
//! ([`inflate_section`] is the one place that says so).

use miniz_oxide::inflate::stream::{InflateState, inflate};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

use crate::formats::cursor;
use crate::memory;

use super::{INFLATE_WINDOW, MAX_INFLATE_RATIO, MAX_SECTION_DECODED_BYTES, Rule};

/// A section's payload being read, and what its counts have claimed of
/// it: `pending`, the bytes claimed and not yet read (never more than can
/// still come), and `claimed`, all the bytes its counts claimed (at most
/// [`MAX_SECTION_DECODED_BYTES`]). Each count is checked with the ones
/// before it, not alone.
pub(super) struct Payload<'a> {
    stored: Stored<'a>,
    pending: u64,
    claimed: u64,
}

/// The bytes of one section's payload as the parser reads them: the
/// stored bytes, or their zlib stream inflated as it is read.
pub(super) enum Stored<'a> {
    Plain { bytes: &'a [u8], pos: usize },
    Zlib(Box<Inflater<'a>>),
}

pub(super) struct Inflater<'a> {
    input: &'a [u8],
    consumed: usize,
    produced: usize,
    ended: bool,
    state: Box<InflateState>,
}

/// The codec of a compressed section: zlib (RFC 1950), the whole payload
/// one stream. The one place that says so.
pub(super) fn inflate_section(stored: &[u8]) -> Result<Payload<'_>, Rule> {
    let header_ok = stored.len() >= 2
        && stored[0] & 0x0F == 8
        && stored[0] >> 4 <= 7
        && stored[1] & 0x20 == 0
        && (u16::from(stored[0]) << 8 | u16::from(stored[1])) % 31 == 0;
    if !header_ok {
        return Err(Rule::NotZlib);
    }
    Ok(Payload::of(Stored::Zlib(Box::new(Inflater {
        input: stored,
        consumed: 0,
        produced: 0,
        ended: false,
        state: InflateState::new_boxed(DataFormat::Zlib),
    }))))
}

impl<'a> Payload<'a> {
    pub(super) fn of(stored: Stored<'a>) -> Payload<'a> {
        Payload {
            stored,
            pending: 0,
            claimed: 0,
        }
    }

    /// Where the next byte comes from: (file-relative offset within the
    /// stored payload, inflated offset).
    pub(super) fn pos(&self) -> (usize, Option<usize>) {
        match &self.stored {
            Stored::Plain { pos, .. } => (*pos, None),
            Stored::Zlib(z) => (z.consumed, Some(z.produced)),
        }
    }

    /// The most bytes still to come.
    fn possible(&self) -> u64 {
        match &self.stored {
            Stored::Plain { bytes, pos } => (bytes.len() - pos) as u64,
            Stored::Zlib(z) if z.ended => 0,
            // What the stored bytes left can inflate to, plus what the
            // inflater may hold decoded but not handed out yet (its window).
            Stored::Zlib(z) => {
                ((z.input.len() - z.consumed) as u64 + 1) * MAX_INFLATE_RATIO + INFLATE_WINDOW
            }
        }
    }

    pub(super) fn fill(&mut self, out: &mut [u8]) -> Result<(), Rule> {
        self.pending = self.pending.saturating_sub(out.len() as u64);
        match &mut self.stored {
            Stored::Plain { bytes, pos } => {
                let end = *pos + out.len();
                if end > bytes.len() {
                    return Err(Rule::Bytes(cursor::Error::Truncated {
                        offset: *pos as u64,
                        what: "the section's payload".into(),
                        need: out.len() as u64,
                        have: bytes.len() - *pos,
                    }));
                }
                out.copy_from_slice(&bytes[*pos..end]);
                *pos = end;
                Ok(())
            }
            Stored::Zlib(z) => z.fill(out),
        }
    }

    /// Nothing may be left: all stored bytes used, the zlib stream ended
    /// exactly here.
    pub(super) fn finish(&mut self) -> Result<(), Rule> {
        match &mut self.stored {
            Stored::Plain { bytes, pos } if *pos < bytes.len() => Err(Rule::PayloadTrailing {
                extra: (bytes.len() - *pos) as u64,
            }),
            Stored::Plain { .. } => Ok(()),
            Stored::Zlib(z) => {
                let mut one = [0u8; 1];
                match z.fill(&mut one) {
                    Ok(()) => Err(Rule::InflatedTrailing),
                    Err(Rule::InflatedShort { .. }) if z.consumed == z.input.len() => Ok(()),
                    Err(Rule::InflatedShort { .. }) => Err(Rule::PayloadTrailing {
                        extra: (z.input.len() - z.consumed) as u64,
                    }),
                    Err(e) => Err(e),
                }
            }
        }
    }

    pub(super) fn u8(&mut self) -> Result<u8, Rule> {
        let mut b = [0u8; 1];
        self.fill(&mut b)?;
        Ok(b[0])
    }

    pub(super) fn u32(&mut self) -> Result<u32, Rule> {
        let mut b = [0u8; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub(super) fn u64(&mut self) -> Result<u64, Rule> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub(super) fn tag(&mut self, what: &'static str, want: u32) -> Result<(), Rule> {
        let found = self.u32()?;
        if found == want {
            Ok(())
        } else {
            Err(Rule::Tag { what, want, found })
        }
    }

    /// A count, at most `limit`, whose `item_bytes`-byte items can come
    /// after the items counts before it claimed, and fit the section's
    /// decoded budget with them.
    pub(super) fn count(
        &mut self,
        count: u64,
        item_bytes: u64,
        limit: u64,
        what: &'static str,
    ) -> Result<usize, Rule> {
        if count > limit {
            return Err(Rule::TooMany { what, count, limit });
        }
        let bytes = count.saturating_mul(item_bytes);
        let possible = self.possible().saturating_sub(self.pending);
        if bytes > possible {
            return Err(Rule::CannotFit {
                what,
                count,
                item_bytes,
                possible,
            });
        }
        let claimed = self.claimed.saturating_add(bytes);
        if claimed > MAX_SECTION_DECODED_BYTES {
            return Err(Rule::SectionTooLarge { what, claimed });
        }
        self.pending += bytes;
        self.claimed = claimed;
        Ok(count as usize)
    }

    /// `n` finite float triples (`n` checked by the caller): stored ones
    /// decoded where they are, inflated ones through a window of
    /// [`WINDOW_ITEMS`] triples. The values are allocated fallibly (the
    /// count is within the limits, the memory may not be).
    pub(super) fn vec3s(&mut self, n: usize, what: &'static str) -> Result<Vec<[f32; 3]>, Rule> {
        self.read_triples(n, None, [what, what])
    }

    /// `base.len()` float triples of differences, each added to `base`'s
    /// (the differences become the values in one pass). Each difference
    /// is finite, else the first that is not is the error (`whats[0]`);
    /// then each sum, else the first that is not (`whats[1]`), reported
    /// only once every difference has been read and checked.
    pub(super) fn sums(
        &mut self,
        base: &[[f32; 3]],
        whats: [&'static str; 2],
    ) -> Result<Vec<[f32; 3]>, Rule> {
        self.read_triples(base.len(), Some(base), whats)
    }

    fn read_triples(
        &mut self,
        n: usize,
        base: Option<&[[f32; 3]]>,
        whats: [&'static str; 2],
    ) -> Result<Vec<[f32; 3]>, Rule> {
        let mut out: Vec<[f32; 3]> = memory::with_capacity(n).map_err(|e| Rule::NoMemory {
            what: whats[0],
            bytes: e.bytes,
        })?;
        let mut bad_sum = None;
        // Stored bytes are read where they are; inflated ones through the
        // window.
        if let Some(raw) = self.plain(n * 12)? {
            triples(raw, base, &mut out, whats[0], &mut bad_sum)?;
        } else {
            let mut raw = [0u8; WINDOW_ITEMS * 12];
            while out.len() < n {
                let k = (n - out.len()).min(WINDOW_ITEMS);
                self.fill(&mut raw[..k * 12])?;
                let base = base.map(|b| &b[out.len()..out.len() + k]);
                triples(&raw[..k * 12], base, &mut out, whats[0], &mut bad_sum)?;
            }
        }
        match bad_sum {
            Some(index) => Err(Rule::NotFinite {
                what: whats[1],
                index,
            }),
            None => Ok(out),
        }
    }

    /// The next `len` bytes of a stored payload, where they are (`None`
    /// for an inflated one, which [`Payload::fill`] reads).
    fn plain(&mut self, len: usize) -> Result<Option<&'a [u8]>, Rule> {
        let Stored::Plain { bytes, pos } = &mut self.stored else {
            return Ok(None);
        };
        let bytes: &'a [u8] = bytes;
        let Some(raw) = pos.checked_add(len).and_then(|end| bytes.get(*pos..end)) else {
            return Err(Rule::Bytes(cursor::Error::Truncated {
                offset: *pos as u64,
                what: "the section's payload".into(),
                need: len as u64,
                have: bytes.len() - *pos,
            }));
        };
        *pos += len;
        self.pending = self.pending.saturating_sub(len as u64);
        Ok(Some(raw))
    }
}

/// Appends the float triples of `raw` (little-endian) to `out`, each
/// float finite, else the first that is not is the error (`what`, with
/// its triple's index in `out`). With `base` (as many triples as `raw`
/// holds), each is added to `base`'s, and the index of the first sum that
/// is not finite is kept in `bad_sum` if it holds none yet.
fn triples(
    raw: &[u8],
    base: Option<&[[f32; 3]]>,
    out: &mut Vec<[f32; 3]>,
    what: &'static str,
    bad_sum: &mut Option<usize>,
) -> Result<(), Rule> {
    // Through a window on the stack, as flat floats: a check, then a copy
    // (or an addition) the compiler does four floats at a time, then one
    // append.
    let mut window = [[0f32; 3]; WINDOW_ITEMS];
    for (p, part) in raw.chunks(WINDOW_ITEMS * 12).enumerate() {
        if let Some(i) = first_not_finite(part) {
            return Err(Rule::NotFinite {
                what,
                index: out.len() + i / 3,
            });
        }
        let values = &mut window[..part.len() / 12];
        let words = part.as_chunks::<4>().0;
        match base {
            None => {
                for (v, w) in values.as_flattened_mut().iter_mut().zip(words) {
                    *v = f32::from_le_bytes(*w);
                }
            }
            Some(base) => {
                let base = &base[p * WINDOW_ITEMS..][..values.len()];
                for ((v, w), a) in values
                    .as_flattened_mut()
                    .iter_mut()
                    .zip(words)
                    .zip(base.as_flattened())
                {
                    *v = *a + f32::from_le_bytes(*w);
                }
                let any = values
                    .as_flattened()
                    .iter()
                    .fold(false, |acc, x| acc | !x.is_finite());
                if any && bad_sum.is_none() {
                    *bad_sum = values
                        .iter()
                        .position(|v| v.iter().any(|x| !x.is_finite()))
                        .map(|i| out.len() + i);
                }
            }
        }
        out.extend_from_slice(values);
    }
    Ok(())
}

/// The index of the first float of `raw` (little-endian) that is an
/// infinity or a NaN (its exponent all ones). The common answer, none, is
/// one pass without a branch per value.
fn first_not_finite(raw: &[u8]) -> Option<usize> {
    const EXPONENT: u32 = 0x7f80_0000;
    let words = raw.as_chunks::<4>().0;
    let bad = |w: &[u8; 4]| u32::from_le_bytes(*w) & EXPONENT == EXPONENT;
    let any = words.iter().fold(0u32, |acc, w| acc | u32::from(bad(w)));
    if any == 0 {
        return None;
    }
    words.iter().position(bad)
}

/// Triples decoded at a time, through a window on the stack: an inflated
/// section's values are never held twice (its bytes are inflated a window
/// at a time), and a stored one's are copied or added four floats at a time.
const WINDOW_ITEMS: usize = 1024;

impl Inflater<'_> {
    fn fill(&mut self, out: &mut [u8]) -> Result<(), Rule> {
        let mut done = 0;
        while done < out.len() {
            if self.ended {
                return Err(Rule::InflatedShort {
                    need: out.len() - done,
                });
            }
            let r = inflate(
                &mut self.state,
                &self.input[self.consumed..],
                &mut out[done..],
                MZFlush::None,
            );
            self.consumed += r.bytes_consumed;
            self.produced += r.bytes_written;
            done += r.bytes_written;
            match r.status {
                Ok(MZStatus::StreamEnd) => self.ended = true,
                Ok(_) => {}
                Err(MZError::Buf) if r.bytes_written == 0 && r.bytes_consumed == 0 => {
                    // No progress: the stored bytes ran out mid-stream.
                    return Err(Rule::Zlib("the stream is cut short".into()));
                }
                Err(MZError::Buf) => {}
                Err(e) => return Err(Rule::Zlib(format!("{e:?}"))),
            }
        }
        Ok(())
    }
}

// ------------------------------------------------------------- reading
