//! Fallible allocation: the one place kiln asks for memory whose size a
//! file chose, directly, through a sum, or through a decompressor. Every
//! such buffer is asked for here and a refusal is a [`NoMemory`], which the
//! caller turns into an error naming the input, what the memory was for
//! and the byte that sized it: never an abort. Bounds (a format's limits)
//! say how much a file may ask for; this says what happens when the
//! machine has less.
//!
//! A leaf: every layer may call it, and it calls nothing of kiln's.

/// Memory that could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("needs {bytes} bytes of memory, which could not be had")]
pub struct NoMemory {
    /// What was asked for.
    pub bytes: u64,
}

fn no_memory<T>(n: usize) -> NoMemory {
    NoMemory {
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    }
}

/// An empty vector with room for exactly `n` values.
pub fn with_capacity<T>(n: usize) -> Result<Vec<T>, NoMemory> {
    let mut v = Vec::new();
    reserve(&mut v, n)?;
    Ok(v)
}

/// Room for `more` values beyond `v`'s length.
pub fn reserve<T>(v: &mut Vec<T>, more: usize) -> Result<(), NoMemory> {
    v.try_reserve_exact(more)
        .map_err(|_| no_memory::<T>(v.len().saturating_add(more)))
}

/// Appends `value`, growing `v` as a vector grows (amortized doubling).
pub fn push<T>(v: &mut Vec<T>, value: T) -> Result<(), NoMemory> {
    v.try_reserve(1)
        .map_err(|_| no_memory::<T>(v.len().saturating_mul(2).max(4)))?;
    v.push(value);
    Ok(())
}

/// Appends `values`, growing `v` as a vector grows.
pub fn extend<T: Clone>(v: &mut Vec<T>, values: &[T]) -> Result<(), NoMemory> {
    v.try_reserve(values.len())
        .map_err(|_| no_memory::<T>(v.len().saturating_add(values.len())))?;
    v.extend_from_slice(values);
    Ok(())
}

/// Appends `text` to `s`, growing it as a string grows.
pub fn push_str(s: &mut String, text: &str) -> Result<(), NoMemory> {
    s.try_reserve(text.len()).map_err(|_| NoMemory {
        bytes: (s.len() as u64).saturating_add(text.len() as u64),
    })?;
    s.push_str(text);
    Ok(())
}

/// `n` default values (zeros for numbers).
pub fn zeroed<T: Clone + Default>(n: usize) -> Result<Vec<T>, NoMemory> {
    let mut v = Vec::new();
    grow(&mut v, n)?;
    Ok(v)
}

/// `n` arrays of zero bytes, as [`zeroed`] gives them, but asked of the
/// allocator as zeroed memory: a large buffer comes as fresh pages the
/// system zeroes as they are first touched, not written twice (once with
/// zeros, once with what the caller puts there).
pub fn zeroed_bytes<const N: usize>(n: usize) -> Result<Vec<[u8; N]>, NoMemory> {
    let layout = std::alloc::Layout::array::<[u8; N]>(n).map_err(|_| no_memory::<[u8; N]>(n))?;
    if layout.size() == 0 {
        return Ok(vec![[0; N]; n]); // nothing to allocate
    }
    // SAFETY: `layout` has a non-zero size; a null pointer is a refusal.
    // Otherwise the allocation is the global allocator's, of exactly `n`
    // values of `[u8; N]` at their alignment, and every byte is zero,
    // which is a valid `[u8; N]`: what `Vec::from_raw_parts` asks for,
    // with length and capacity `n`.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<[u8; N]>();
        if p.is_null() {
            return Err(no_memory::<[u8; N]>(n));
        }
        Ok(Vec::from_raw_parts(p, n, n))
    }
}

/// `n` zero bytes, asked of the allocator as zeroed memory
/// ([`zeroed_bytes`]): a buffer a read is about to fill.
pub fn zeroed_buffer(n: usize) -> Result<Vec<u8>, NoMemory> {
    zeroed_bytes::<1>(n).map(Vec::into_flattened)
}

/// Extends `v` with default values (zeros) to `len` values, if it is
/// shorter.
pub fn grow<T: Clone + Default>(v: &mut Vec<T>, len: usize) -> Result<(), NoMemory> {
    let more = len.saturating_sub(v.len());
    reserve(v, more)?;
    v.resize(v.len() + more, T::default());
    Ok(())
}

/// A copy of `values` (a fallible `to_vec`).
pub fn copy<T: Clone>(values: &[T]) -> Result<Vec<T>, NoMemory> {
    let mut v = with_capacity(values.len())?;
    v.extend_from_slice(values);
    Ok(v)
}

/// Asks for `bytes` and gives them straight back: whether the system
/// could give that much now. For a library that allocates inside itself
/// with allocations that abort (draco-core, zune-jpeg): asked first for more than
/// the library's measured peak, a refusal is an error before the library
/// starts. The memory is reserved, never touched: without a cap it costs
/// address space only, for a moment.
pub fn probe(bytes: usize) -> Result<(), NoMemory> {
    let mut v = with_capacity::<u8>(bytes)?;
    // Kept, so the optimizer cannot remove an allocation nobody reads.
    std::hint::black_box(&mut v);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the system refuses is an error, never an abort: a request no
    /// machine can meet (more than `isize::MAX` bytes) comes back as
    /// `NoMemory` naming its size, from every helper.
    #[test]
    fn memory_that_cannot_be_had_is_an_error() {
        let huge = usize::MAX / 2;
        let bytes = huge as u64;
        assert_eq!(with_capacity::<u8>(huge).unwrap_err(), NoMemory { bytes });
        assert_eq!(zeroed::<u8>(huge).unwrap_err(), NoMemory { bytes });
        assert_eq!(
            zeroed::<u32>(huge / 4).unwrap_err(),
            NoMemory {
                bytes: (huge / 4) as u64 * 4
            }
        );
        let mut v = vec![1u8, 2];
        assert_eq!(grow(&mut v, huge).unwrap_err(), NoMemory { bytes });
        assert_eq!(v, [1, 2], "unchanged");
        assert_eq!(
            reserve(&mut v, huge).unwrap_err(),
            NoMemory { bytes: bytes + 2 }
        );
        assert_eq!(probe(huge).unwrap_err(), NoMemory { bytes });
        assert_eq!(zeroed_buffer(huge).unwrap_err(), NoMemory { bytes });
        assert_eq!(
            zeroed_bytes::<4>(huge / 4).unwrap_err(),
            NoMemory {
                bytes: (huge / 4) as u64 * 4
            }
        );
        assert_eq!(
            zeroed_bytes::<8>(usize::MAX).unwrap_err(),
            NoMemory { bytes: u64::MAX },
            "a size that overflows is refused, not wrapped"
        );
        assert_eq!(
            NoMemory { bytes: 5 }.to_string(),
            "needs 5 bytes of memory, which could not be had"
        );
    }

    #[test]
    fn what_can_be_had_is_given() {
        assert_eq!(zeroed::<u16>(3).unwrap(), [0, 0, 0]);
        let mut v = vec![7u8];
        grow(&mut v, 3).unwrap();
        assert_eq!(v, [7, 0, 0]);
        grow(&mut v, 1).unwrap();
        assert_eq!(v, [7, 0, 0], "never shrinks");
        assert_eq!(copy(&[1, 2, 3]).unwrap(), [1, 2, 3]);
        let mut v = Vec::new();
        for k in 0..100 {
            push(&mut v, k).unwrap();
        }
        assert_eq!(v.len(), 100);
        let mut t = String::from("a");
        push_str(&mut t, "bc").unwrap();
        assert_eq!(t, "abc");
        probe(1 << 20).unwrap();
        let w: Vec<u64> = with_capacity(10).unwrap();
        assert!(w.is_empty() && w.capacity() >= 10);
        assert_eq!(zeroed_bytes::<4>(3).unwrap(), [[0; 4]; 3]);
        assert_eq!(zeroed_buffer(3).unwrap(), [0; 3]);
        assert!(zeroed_bytes::<4>(0).unwrap().is_empty());
        assert_eq!(zeroed_bytes::<0>(5).unwrap().len(), 5);
        // A large one: fresh zeroed pages, an ordinary vector afterwards
        // (written, grown and freed through the global allocator).
        let mut big = zeroed_bytes::<4>(1 << 22).unwrap();
        assert_eq!(big.len(), 1 << 22);
        assert!(big.iter().all(|p| *p == [0; 4]));
        big[1 << 21] = [1, 2, 3, 4];
        big.push([5; 4]);
        assert_eq!(
            (big[1 << 21], big[1 << 22], big.len()),
            ([1, 2, 3, 4], [5; 4], (1 << 22) + 1)
        );
    }
}
