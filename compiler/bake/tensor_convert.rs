//! Element conversion between safetensors dtypes and GGML tensor types,
//! exact and the same on every machine: integer arithmetic and IEEE basic
//! operations only (no platform maths library, no SIMD shortcuts).
//!
//! Floats round to nearest, ties to even; NaN stays NaN (quiet, sign
//! kept) and infinity infinity, each counted ([`Seen`]) so the job can say
//! so. A finite value too large for the target is an error naming the
//! element, or (with [`Options::saturate`]) the target's largest finite
//! value of its sign. Q8_0 is ggml's reference quantization
//! (`quantize_row_q8_0_ref`, which gguf-py's `quants.Q8_0` reproduces bit
//! for bit): per block of 32, the scale `max|x| / 127` in f32 stored as a
//! half, each value `x × (1 / scale)` rounded half away from zero; a block
//! holding NaN or infinity cannot be quantized and is an error. Integers
//! convert exactly or not at all: a value that does not fit is an error
//! naming the element.

use crate::formats::gguf::TensorType;
use crate::formats::safetensors::Dtype;

/// A value that does not fit its target type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("element {index} is {value}, which does not fit in {target}")]
    OutOfRange {
        index: u64,
        value: String,
        target: &'static str,
    },
    #[error(
        "element {index} is {value}, beyond {target}'s largest finite value ({max}); keep the tensor in a wider type (`types:`), or set `saturate: true` to store the largest value of its sign"
    )]
    Overflow {
        index: u64,
        value: String,
        target: &'static str,
        max: &'static str,
    },
    #[error(
        "element {index} is {value}; {target} cannot hold it (keep the tensor in a float type with `types:`)"
    )]
    NotFinite {
        index: u64,
        value: String,
        target: &'static str,
    },
    #[error("element {index} is the boolean byte {byte}; it must be 0 or 1")]
    Bool { index: u64, byte: u8 },
    #[error("kiln does not convert {from} to {to}")]
    Unsupported { from: Dtype, to: &'static str },
}

impl Error {
    /// The element the error is about, if one.
    pub fn index(&self) -> Option<u64> {
        match self {
            Error::OutOfRange { index, .. }
            | Error::Overflow { index, .. }
            | Error::NotFinite { index, .. }
            | Error::Bool { index, .. } => Some(*index),
            Error::Unsupported { .. } => None,
        }
    }
}

/// How values the target cannot hold are treated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// A finite value beyond the target's range becomes its largest finite
    /// value of the same sign, instead of an error.
    pub saturate: bool,
}

/// What a conversion saw in its source: NaN and infinite values (carried
/// over as they are), the first by element index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub non_finite: u64,
    pub first_non_finite: Option<u64>,
}

/// Elements per block of the block types kiln writes, Q8_0 and Q4_0
/// (ggml's `QK8_0` = `QK4_0`; their bytes per block come from
/// [`TensorType::layout`]).
pub const BLOCK: usize = 32;

/// Bytes per element of the GGML types kiln writes (`None` for a block
/// type, whose bytes per block [`TensorType::layout`] gives).
pub fn element_bytes(ty: TensorType) -> Option<u64> {
    match ty {
        TensorType::F32 | TensorType::I32 => Some(4),
        TensorType::F16 | TensorType::BF16 | TensorType::I16 => Some(2),
        TensorType::F64 | TensorType::I64 => Some(8),
        TensorType::I8 => Some(1),
        _ => None,
    }
}

/// Converts whole elements of `from` in `input` (little endian) to `to`,
/// appending to `out`. `first` is the index of the first element (for
/// errors). `input.len()` must be a multiple of the element size, and for
/// Q8_0 of the block (32 elements). Non-finite source values are counted
/// into `seen`.
pub fn convert(
    from: Dtype,
    to: TensorType,
    input: &[u8],
    first: u64,
    options: Options,
    seen: &mut Seen,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let size = from.size() as usize;
    debug_assert!(input.len().is_multiple_of(size));
    let n = input.len() / size;
    if from.is_float() {
        count_non_finite(from, input, first, seen);
    }
    if native(from) == Some(to) {
        out.extend_from_slice(input);
        return Ok(());
    }
    match (from, to) {
        (Dtype::F32, TensorType::F16) => {
            return f32_to_16_bits(input, first, options, out, to, f32_bits_to_f16, 0x7bff);
        }
        (Dtype::F32, TensorType::BF16) => {
            return f32_to_16_bits(input, first, options, out, to, f32_bits_to_bf16, 0x7f7f);
        }
        (_, TensorType::Q8_0) if from.is_float() => return q8_0(from, input, first, out),
        (_, TensorType::Q4_0) if from.is_float() => return q4_0(from, input, first, out),
        _ => {}
    }
    out.reserve(n * element_bytes(to).unwrap_or(4) as usize);
    for (i, e) in input.chunks_exact(size).enumerate() {
        let index = first + i as u64;
        let value = read(from, e, index)?;
        write(value, to, index, options, out)?;
    }
    Ok(())
}

/// Counts NaN and infinite elements (all exponent bits set) of `input`,
/// whose first element is `first`.
pub fn count_non_finite(from: Dtype, input: &[u8], first: u64, seen: &mut Seen) {
    // A count the compiler vectorizes (the common answer is 0), then the
    // first one's index only when there is one.
    fn count<const N: usize>(
        input: &[u8],
        non_finite: impl Fn([u8; N]) -> bool,
    ) -> (u64, Option<usize>) {
        // In blocks of 64 bytes, each counted into a small sum the
        // compiler keeps in vector lanes.
        let blocks = input.chunks_exact(64);
        let tail = blocks.remainder();
        let mut n = 0u64;
        for block in blocks {
            let mut in_block = 0u32;
            for e in block.chunks_exact(N) {
                in_block += u32::from(non_finite(e.try_into().unwrap()));
            }
            n += u64::from(in_block);
        }
        for e in tail.chunks_exact(N) {
            n += u64::from(non_finite(e.try_into().unwrap()));
        }
        let first = (n > 0)
            .then(|| {
                input
                    .chunks_exact(N)
                    .position(|c| non_finite(c.try_into().unwrap()))
            })
            .flatten();
        (n, first)
    }
    let (n, at) = match from {
        Dtype::F64 => count(input, |b: [u8; 8]| {
            u64::from_le_bytes(b) & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000
        }),
        Dtype::F32 => count(input, |b: [u8; 4]| {
            u32::from_le_bytes(b) & 0x7f80_0000 == 0x7f80_0000
        }),
        Dtype::F16 => count(input, |b: [u8; 2]| u16::from_le_bytes(b) & 0x7c00 == 0x7c00),
        Dtype::BF16 => count(input, |b: [u8; 2]| u16::from_le_bytes(b) & 0x7f80 == 0x7f80),
        d if d.is_float() => count(input, |b: [u8; 1]| !fp8_to_f64(b[0], d).is_finite()),
        _ => (0, None),
    };
    if let Some(at) = at {
        seen.non_finite += n;
        seen.first_non_finite.get_or_insert(first + at as u64);
    }
}

/// An f32's bits as a half, nearest even; `None` for a finite value that
/// rounds beyond the half's range. NaN becomes the quiet NaN `0x7e00` of
/// its sign.
#[inline]
pub fn f32_bits_to_f16(x: u32) -> Option<u16> {
    let sign = ((x >> 16) & 0x8000) as u16;
    let a = x & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        return Some(sign | 0x7e00);
    }
    if a == 0x7f80_0000 {
        return Some(sign | 0x7c00);
    }
    if a >= 0x477f_f000 {
        // 65520 and above round to infinity: finite, so an overflow.
        return None;
    }
    if a >= 0x3880_0000 {
        // A normal half: drop 13 mantissa bits, nearest even (the carry
        // moves into the exponent by itself), rebias 127 -> 15.
        let r = a + 0xfff + ((a >> 13) & 1);
        return Some(sign | ((r - 0x3800_0000) >> 13) as u16);
    }
    // Zero or a subnormal half (rare): the general rounding.
    Some(sign | f64_to_f16(f64::from(f32::from_bits(a))))
}

/// An f32's bits as a bfloat16, nearest even (torch's and gguf-py's bit
/// rounding); `None` for a finite value that rounds to infinity. NaN
/// becomes the quiet NaN `0x7fc0` of its sign.
#[inline]
pub fn f32_bits_to_bf16(x: u32) -> Option<u16> {
    let a = x & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        return Some(((x >> 16) as u16 & 0x8000) | 0x7fc0);
    }
    if a != 0x7f80_0000 && a >= 0x7f7f_8000 {
        return None;
    }
    Some((x.wrapping_add(0x7fff + ((x >> 16) & 1)) >> 16) as u16)
}

fn overflow(index: u64, value: f64, target: TensorType) -> Error {
    Error::Overflow {
        index,
        value: format!("{value:e}"),
        target: target.name(),
        max: if target == TensorType::F16 {
            "65504"
        } else if target == TensorType::BF16 {
            "3.3895314e38"
        } else {
            "3.4028235e38"
        },
    }
}

/// F32 elements as halves or bfloat16s (`bits` rounds one f32's bits;
/// `max` is the largest finite value's bits, for saturation).
fn f32_to_16_bits(
    input: &[u8],
    first: u64,
    options: Options,
    out: &mut Vec<u8>,
    target: TensorType,
    bits: impl Fn(u32) -> Option<u16>,
    max: u16,
) -> Result<(), Error> {
    out.reserve(input.len() / 2);
    for (i, e) in input.chunks_exact(4).enumerate() {
        let x = u32::from_le_bytes(e.try_into().unwrap());
        let h = match bits(x) {
            Some(h) => h,
            None if options.saturate => (((x >> 16) & 0x8000) as u16) | max,
            None => {
                return Err(overflow(
                    first + i as u64,
                    f64::from(f32::from_bits(x)),
                    target,
                ));
            }
        };
        out.extend_from_slice(&h.to_le_bytes());
    }
    Ok(())
}

/// A float element as f32, as llama.cpp's converter takes it (F64 rounded
/// to nearest even; the halves exactly).
fn as_f32(from: Dtype, e: &[u8]) -> f32 {
    match from {
        Dtype::F64 => f64::from_le_bytes(e.try_into().unwrap()) as f32,
        Dtype::F32 => f32::from_le_bytes(e.try_into().unwrap()),
        Dtype::F16 => f16_to_f32(u16::from_le_bytes([e[0], e[1]])),
        Dtype::BF16 => bf16_to_f32(u16::from_le_bytes([e[0], e[1]])),
        d if d.is_float() => fp8_to_f64(e[0], d) as f32, // exact
        _ => unreachable!("only floats are quantized"),
    }
}

/// Rounds half away from zero (C's `roundf`, gguf-py's `np_roundf`) a
/// value of magnitude below 2^31, without a maths library: the integer
/// part by truncation, then up when the exact fraction is at least 1/2.
fn round_half_away(v: f32) -> i32 {
    let a = v.abs();
    let t = a as i32; // truncates
    let frac = a - t as f32; // exact: a and t share an exponent range
    let r = t + i32::from(frac >= 0.5);
    if v < 0.0 { -r } else { r }
}

/// Q4_0 blocks of whole blocks of float elements: ggml's reference
/// (`quantize_row_q4_0_ref`, gguf-py's `quants.Q4_0`): per block of 32,
/// `d = x[m] / -8` for the first element `m` of the largest magnitude, each
/// value `min(15, trunc(x × (1 / d) + 8.5))`, element `j` in the low nibble
/// of byte `j` and element `j + 16` in its high nibble, after `d` as a half.
fn q4_0(from: Dtype, input: &[u8], first: u64, out: &mut Vec<u8>) -> Result<(), Error> {
    quantize(from, input, first, TensorType::Q4_0, out, |x, out| {
        let (mut amax, mut max) = (0f32, 0f32);
        for &v in x {
            if v.abs() > amax {
                amax = v.abs();
                max = v;
            }
        }
        let d = max / -8.0;
        let id = if d == 0.0 { 0.0 } else { 1.0 / d };
        out.extend_from_slice(&f64_to_f16(f64::from(d)).to_le_bytes());
        let q = |v: f32| ((v * id + 8.5) as i32).clamp(0, 15) as u8; // `as` truncates
        for j in 0..BLOCK / 2 {
            out.push(q(x[j]) | (q(x[j + BLOCK / 2]) << 4));
        }
    })
}

/// Q8_0 blocks of whole blocks of float elements.
fn q8_0(from: Dtype, input: &[u8], first: u64, out: &mut Vec<u8>) -> Result<(), Error> {
    quantize(from, input, first, TensorType::Q8_0, out, |x, out| {
        let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
        let d = amax / 127.0;
        let id = if d == 0.0 { 0.0 } else { 1.0 / d };
        out.extend_from_slice(&f64_to_f16(f64::from(d)).to_le_bytes());
        for &v in x {
            out.push(round_half_away(v * id) as i8 as u8);
        }
    })
}

/// Whole blocks of float elements, each read as f32 (a NaN or infinity is
/// an error: no block type holds one) and written by `block`.
fn quantize(
    from: Dtype,
    input: &[u8],
    first: u64,
    target: TensorType,
    out: &mut Vec<u8>,
    block: impl Fn(&[f32; BLOCK], &mut Vec<u8>),
) -> Result<(), Error> {
    let size = from.size() as usize;
    let (_, per_block, block_bytes) = target.layout().expect("a GGML block type");
    debug_assert_eq!(per_block as usize, BLOCK);
    debug_assert!((input.len() / size).is_multiple_of(BLOCK));
    out.reserve(input.len() / size / BLOCK * block_bytes as usize);
    let mut x = [0f32; BLOCK];
    for (b, elements) in input.chunks_exact(size * BLOCK).enumerate() {
        for (j, e) in elements.chunks_exact(size).enumerate() {
            x[j] = as_f32(from, e);
            if !x[j].is_finite() {
                return Err(Error::NotFinite {
                    index: first + (b * BLOCK + j) as u64,
                    value: format!("{}", x[j]),
                    target: target.name(),
                });
            }
        }
        block(&x, out);
    }
    Ok(())
}

/// The GGML type that holds `dtype`'s bytes unchanged, if there is one.
pub fn native(dtype: Dtype) -> Option<TensorType> {
    Some(match dtype {
        Dtype::F64 => TensorType::F64,
        Dtype::F32 => TensorType::F32,
        Dtype::F16 => TensorType::F16,
        Dtype::BF16 => TensorType::BF16,
        Dtype::I64 => TensorType::I64,
        Dtype::I32 => TensorType::I32,
        Dtype::I16 => TensorType::I16,
        Dtype::I8 => TensorType::I8,
        Dtype::U8
        | Dtype::Bool
        | Dtype::U16
        | Dtype::U32
        | Dtype::U64
        | Dtype::F8E4M3
        | Dtype::F8E5M2
        | Dtype::F8E8M0
        | Dtype::F8E4M3Fnuz
        | Dtype::F8E5M2Fnuz => return None,
    })
}

/// The GGML type that holds every value of a dtype GGUF has no type for,
/// exactly: the unsigned integers the next wider signed one (U64 as I64,
/// each value checked), the FP8s a half (E8M0, whose powers of two reach
/// 2^-127, an F32), BOOL as I8.
pub fn widened(dtype: Dtype) -> Option<TensorType> {
    Some(match dtype {
        Dtype::Bool => TensorType::I8,
        Dtype::U8 => TensorType::I16,
        Dtype::U16 => TensorType::I32,
        Dtype::U32 | Dtype::U64 => TensorType::I64,
        Dtype::F8E4M3 | Dtype::F8E5M2 | Dtype::F8E4M3Fnuz | Dtype::F8E5M2Fnuz => TensorType::F16,
        Dtype::F8E8M0 => TensorType::F32,
        _ => return None,
    })
}

/// An FP8 element's value, exactly (every FP8 value is an f64), by its
/// dtype's exponent and mantissa widths, bias and special values.
pub fn fp8_to_f64(byte: u8, dtype: Dtype) -> f64 {
    let (e_bits, m_bits, bias) = match dtype {
        Dtype::F8E4M3 => (4, 3, 7),
        Dtype::F8E5M2 => (5, 2, 15),
        Dtype::F8E4M3Fnuz => (4, 3, 8),
        Dtype::F8E5M2Fnuz => (5, 2, 16),
        Dtype::F8E8M0 => {
            // Unsigned powers of two; 0xff is NaN.
            return if byte == 0xff {
                f64::NAN
            } else {
                pow2(i32::from(byte) - 127)
            };
        }
        _ => unreachable!("not an FP8"),
    };
    let fnuz = matches!(dtype, Dtype::F8E4M3Fnuz | Dtype::F8E5M2Fnuz);
    if fnuz && byte == 0x80 {
        return f64::NAN;
    }
    let negative = byte & 0x80 != 0;
    let exp = i32::from((byte >> m_bits) & ((1 << e_bits) - 1));
    let mant = i32::from(byte & ((1 << m_bits) - 1));
    let all_ones = exp == (1 << e_bits) - 1;
    let magnitude = match dtype {
        Dtype::F8E5M2 if all_ones => {
            if mant == 0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        Dtype::F8E4M3 if all_ones && mant == 7 => f64::NAN,
        _ if exp == 0 => f64::from(mant) * pow2(1 - bias - m_bits),
        _ => f64::from((1 << m_bits) + mant) * pow2(exp - bias - m_bits),
    };
    if negative { -magnitude } else { magnitude }
}

/// One element, widened without loss.
#[derive(Clone, Copy, Debug)]
enum Elem {
    Float(f64),
    Int(i128),
}

fn read(from: Dtype, e: &[u8], index: u64) -> Result<Elem, Error> {
    let b = |n: usize| -> [u8; 8] {
        let mut a = [0u8; 8];
        a[..n].copy_from_slice(&e[..n]);
        a
    };
    Ok(match from {
        Dtype::F64 => Elem::Float(f64::from_le_bytes(b(8))),
        Dtype::F32 => Elem::Float(f64::from(f32::from_le_bytes([e[0], e[1], e[2], e[3]]))),
        Dtype::F16 => Elem::Float(f64::from(f16_to_f32(u16::from_le_bytes([e[0], e[1]])))),
        Dtype::BF16 => Elem::Float(f64::from(bf16_to_f32(u16::from_le_bytes([e[0], e[1]])))),
        Dtype::I64 => Elem::Int(i128::from(i64::from_le_bytes(b(8)))),
        Dtype::I32 => Elem::Int(i128::from(i32::from_le_bytes([e[0], e[1], e[2], e[3]]))),
        Dtype::I16 => Elem::Int(i128::from(i16::from_le_bytes([e[0], e[1]]))),
        Dtype::I8 => Elem::Int(i128::from(e[0] as i8)),
        Dtype::U8 => Elem::Int(i128::from(e[0])),
        Dtype::U16 => Elem::Int(i128::from(u16::from_le_bytes([e[0], e[1]]))),
        Dtype::U32 => Elem::Int(i128::from(u32::from_le_bytes([e[0], e[1], e[2], e[3]]))),
        Dtype::U64 => Elem::Int(i128::from(u64::from_le_bytes(b(8)))),
        Dtype::Bool => match e[0] {
            0 | 1 => Elem::Int(i128::from(e[0])),
            byte => return Err(Error::Bool { index, byte }),
        },
        Dtype::F8E4M3 | Dtype::F8E5M2 | Dtype::F8E8M0 | Dtype::F8E4M3Fnuz | Dtype::F8E5M2Fnuz => {
            Elem::Float(fp8_to_f64(e[0], from))
        }
    })
}

fn write(
    value: Elem,
    to: TensorType,
    index: u64,
    options: Options,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let range = |v: i128, target: &'static str| Error::OutOfRange {
        index,
        value: v.to_string(),
        target,
    };
    match (value, to) {
        (Elem::Float(x), TensorType::F64) => out.extend_from_slice(&x.to_le_bytes()),
        // IEEE conversion, round to nearest even; a finite value that
        // rounds to infinity is an overflow (or the largest finite value).
        (Elem::Float(x), TensorType::F32) => {
            let mut v = x as f32;
            if v.is_infinite() && x.is_finite() {
                if !options.saturate {
                    return Err(overflow(index, x, to));
                }
                v = f32::MAX.copysign(v);
            }
            out.extend_from_slice(&v.to_le_bytes());
        }
        (Elem::Float(x), TensorType::F16) => {
            let mut h = f64_to_f16(x);
            if h & 0x7fff == 0x7c00 && x.is_finite() {
                if !options.saturate {
                    return Err(overflow(index, x, to));
                }
                h = (h & 0x8000) | 0x7bff;
            }
            out.extend_from_slice(&h.to_le_bytes());
        }
        (Elem::Float(x), TensorType::BF16) => {
            let mut h = f64_to_bf16(x);
            if h & 0x7fff == 0x7f80 && x.is_finite() {
                if !options.saturate {
                    return Err(overflow(index, x, to));
                }
                h = (h & 0x8000) | 0x7f7f;
            }
            out.extend_from_slice(&h.to_le_bytes());
        }
        (Elem::Int(v), TensorType::I64) => {
            let v = i64::try_from(v).map_err(|_| range(v, "I64"))?;
            out.extend_from_slice(&v.to_le_bytes());
        }
        (Elem::Int(v), TensorType::I32) => {
            let v = i32::try_from(v).map_err(|_| range(v, "I32"))?;
            out.extend_from_slice(&v.to_le_bytes());
        }
        (Elem::Int(v), TensorType::I16) => {
            let v = i16::try_from(v).map_err(|_| range(v, "I16"))?;
            out.extend_from_slice(&v.to_le_bytes());
        }
        (Elem::Int(v), TensorType::I8) => {
            let v = i8::try_from(v).map_err(|_| range(v, "I8"))?;
            out.extend_from_slice(&v.to_le_bytes());
        }
        (Elem::Int(v), TensorType::F32) => {
            // Exact only up to 2^24: integers are never made floats by a
            // profile, but a user's `type: f32` on an integer tensor is
            // refused by the planner before this.
            out.extend_from_slice(&(v as f32).to_le_bytes());
        }
        (_, to) => {
            return Err(Error::Unsupported {
                from: Dtype::F64,
                to: to.name(),
            });
        }
    }
    Ok(())
}

/// An IEEE half's value as f32 (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m × 2^-24, exact in f32.
            let v = m as f32 * f32::from_bits(0x3380_0000); // 2^-24
            return if sign != 0 { -v } else { v };
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, m) => sign | 0x7f80_0000 | (m << 13) | 0x0040_0000,
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// A bfloat16's value as f32 (exact: its top half).
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// Rounds a non-negative finite `x` below 2^52 to the nearest integer,
/// ties to even, with exact integer arithmetic.
fn round_ties_even(x: f64) -> u64 {
    let i = x as u64; // truncates
    let frac = x - i as f64; // exact for x below 2^52
    if frac > 0.5 || (frac == 0.5 && i & 1 == 1) {
        i + 1
    } else {
        i
    }
}

/// 2^k as an f64, for k within the normal range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// Rounds `x` to a float of `mant` explicit mantissa bits, exponent bias
/// `bias` and maximum biased exponent `max_exp` (all ones is inf/NaN),
/// nearest even; the bits without the sign.
fn round_float(a: f64, mant: u32, bias: i32, max_exp: i32) -> u64 {
    let min_normal_exp = 1 - bias;
    // The exponent of a (a > 0, finite).
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if e < min_normal_exp {
        // Subnormal in the target (or a subnormal f64): units of
        // 2^(min_normal_exp - mant). Scaling by a power of two is exact.
        let shift = (mant as i32) - min_normal_exp;
        // a < 2^min_normal_exp, so a × 2^shift < 2^mant: below 2^52.
        let scaled = if e < -1022 {
            // a is itself subnormal: far below any target's subnormals.
            0.0
        } else {
            a * pow2(shift)
        };
        return round_ties_even(scaled); // 2^mant is the smallest normal: right bits
    }
    let scaled = a * pow2(mant as i32 - e); // in [2^mant, 2^(mant+1))
    let mut r = round_ties_even(scaled);
    let mut e = e;
    if r == 1 << (mant + 1) {
        r = 1 << mant;
        e += 1;
    }
    let biased = e + bias;
    if biased >= max_exp {
        return (max_exp as u64) << mant; // infinity
    }
    ((biased as u64) << mant) | (r - (1 << mant))
}

/// `x` as an IEEE half, rounded to nearest even.
pub fn f64_to_f16(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return 0x7e00 | sign;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    if a.is_infinite() {
        return 0x7c00 | sign;
    }
    sign | round_float(a, 10, 15, 31) as u16
}

/// `x` as a bfloat16, rounded to nearest even.
pub fn f64_to_bf16(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return 0x7fc0 | sign;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    if a.is_infinite() {
        return 0x7f80 | sign;
    }
    sign | round_float(a, 7, 127, 255) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_round_trips_through_f32() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let back = f64_to_f16(f64::from(f));
            if f.is_nan() {
                assert!(f16_to_f32(back).is_nan(), "{h:#06x}");
            } else {
                assert_eq!(back, h, "{h:#06x} -> {f} -> {back:#06x}");
            }
        }
    }

    #[test]
    fn every_bfloat16_round_trips_through_f32() {
        for h in 0..=u16::MAX {
            let f = bf16_to_f32(h);
            let back = f64_to_bf16(f64::from(f));
            if f.is_nan() {
                assert!(bf16_to_f32(back).is_nan(), "{h:#06x}");
            } else {
                assert_eq!(back, h, "{h:#06x}");
            }
        }
    }

    #[test]
    fn halves_round_to_nearest_even() {
        // 1 + 2^-11 is halfway between 1 and the next half: even is 1.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        // 1 + 3·2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9: up.
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // Just above halfway rounds up.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11) + 2f64.powi(-30)), 0x3c01);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65519.99), 0x7bff);
        assert_eq!(
            f64_to_f16(65520.0),
            0x7c00,
            "the tie goes to infinity (even)"
        );
        assert_eq!(f64_to_f16(-1e10), 0xfc00);
        // The smallest subnormal and half of it (a tie to even zero).
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_f16(3.0 * 2f64.powi(-25)), 0x0002);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16(f64::MIN_POSITIVE / 4.0), 0);
        // The largest subnormal rounds up into the smallest normal.
        assert_eq!(f64_to_f16(2f64.powi(-14) - 2f64.powi(-26)), 0x0400);
        assert!(f16_to_f32(f64_to_f16(f64::NAN)).is_nan());
    }

    #[test]
    fn bfloat16_rounds_like_torch() {
        // torch.tensor(1.00390625).bfloat16() is 1.0 (a tie to even);
        // 1.01171875 is a tie between 1.0078125 (odd) and 1.015625.
        assert_eq!(f64_to_bf16(1.003_906_25), 0x3f80);
        assert_eq!(f64_to_bf16(1.011_718_75), 0x3f82);
        assert_eq!(f64_to_bf16(f64::from(f32::MAX)), 0x7f80, "rounds up to inf");
    }

    #[test]
    fn bfloat16_from_f32_equals_the_bit_rounding_torch_uses() {
        // torch (c10::round_to_nearest_even): add 0x7fff plus the lowest
        // kept bit, keep the top half. Checked on a spread of f32 bits.
        let mut x: u32 = 0x1234_5678;
        for _ in 0..200_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let f = f32::from_bits(x);
            if f.is_nan() {
                continue;
            }
            let want = ((x.wrapping_add(0x7fff + ((x >> 16) & 1))) >> 16) as u16;
            assert_eq!(f64_to_bf16(f64::from(f)), want, "{x:#010x}");
        }
    }

    #[test]
    fn f64_to_f32_rounds_to_nearest_even_and_keeps_nan() {
        let mut out = Vec::new();
        let tie = 1.0 + 2f64.powi(-24); // halfway between 1 and 1+2^-23
        let input: Vec<u8> = [tie, f64::NAN, f64::INFINITY, 1e300, -1e300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        // A finite value beyond f32 is an overflow naming its element...
        let mut seen = Seen::default();
        let e = convert(
            Dtype::F64,
            TensorType::F32,
            &input,
            0,
            Options::default(),
            &mut seen,
            &mut out,
        )
        .unwrap_err();
        assert_eq!(e.index(), Some(3));
        assert!(
            e.to_string()
                .starts_with("element 3 is 1e300, beyond F32's largest"),
            "{e}"
        );
        // ...or, saturated, the largest f32 of its sign.
        let mut seen = Seen::default();
        out.clear();
        convert(
            Dtype::F64,
            TensorType::F32,
            &input,
            0,
            Options { saturate: true },
            &mut seen,
            &mut out,
        )
        .unwrap();
        let got: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got[0], 1.0);
        assert!(got[1].is_nan());
        assert_eq!(got[2], f32::INFINITY, "infinity stays infinity");
        assert_eq!(got[3], f32::MAX);
        assert_eq!(got[4], -f32::MAX);
        assert_eq!(
            seen,
            Seen {
                non_finite: 2,
                first_non_finite: Some(1)
            }
        );
    }

    #[test]
    fn integers_convert_exactly_or_say_which_element_does_not_fit() {
        let mut out = Vec::new();
        let input: Vec<u8> = [-1i64, 7, i64::from(i32::MAX)]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        convert(
            Dtype::I64,
            TensorType::I32,
            &input,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            out,
            [-1i32, 7, i32::MAX]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>()
        );
        let big: Vec<u8> = [0i64, 1 << 40]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let e = convert(
            Dtype::I64,
            TensorType::I32,
            &big,
            10,
            Options::default(),
            &mut Seen::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "element 11 is 1099511627776, which does not fit in I32"
        );
        let mut out = Vec::new();
        convert(
            Dtype::Bool,
            TensorType::I32,
            &[1, 0],
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 0]);
        let e = convert(
            Dtype::Bool,
            TensorType::I32,
            &[1, 2],
            0,
            Options::default(),
            &mut Seen::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(e, Error::Bool { index: 1, byte: 2 });
        let mut out = Vec::new();
        convert(
            Dtype::U8,
            TensorType::I16,
            &[255],
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, 255i16.to_le_bytes());
    }

    #[test]
    fn same_types_copy_the_bytes() {
        let input = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let mut out = Vec::new();
        convert(
            Dtype::F32,
            TensorType::F32,
            &input,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, input);
        // F16 -> F32 is exact.
        let mut out = Vec::new();
        convert(
            Dtype::F16,
            TensorType::F32,
            &0x3c00u16.to_le_bytes(),
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(f32::from_le_bytes(out[..4].try_into().unwrap()), 1.0);
    }
}

#[cfg(test)]
mod fast_paths {
    use super::*;

    /// Every byte of each FP8 dtype decodes to what Google's ml_dtypes
    /// gives (its answers recorded in tests/golden/fp8_values.json by
    /// tests/oracles/fp8_values.py; the full tier runs it again).
    #[test]
    fn every_fp8_byte_is_the_value_ml_dtypes_gives() {
        let golden: std::collections::BTreeMap<String, Vec<String>> =
            serde_json::from_str(include_str!("../../tests/golden/fp8_values.json")).unwrap();
        assert_eq!(golden.len(), 5);
        for (name, values) in &golden {
            let dtype = Dtype::from_name(name).unwrap();
            assert_eq!(values.len(), 256);
            for (byte, want) in values.iter().enumerate() {
                let got = fp8_to_f64(byte as u8, dtype);
                if want == "nan" {
                    assert!(got.is_nan(), "{name} {byte:#04x}: {got}");
                } else {
                    let bits = u64::from_str_radix(want, 16).unwrap();
                    assert_eq!(
                        got.to_bits(),
                        bits,
                        "{name} {byte:#04x}: {got} vs {}",
                        f64::from_bits(bits)
                    );
                }
            }
        }
        // E5M2 is the top byte of a half, by construction.
        for b in 0..=255u8 {
            let h = f64::from(f16_to_f32(u16::from(b) << 8));
            let v = fp8_to_f64(b, Dtype::F8E5M2);
            assert!(v == h || v.is_nan() && h.is_nan(), "{b:#04x}");
        }
    }

    /// The unsigned integers widen exactly; a U64 beyond I64 is an error
    /// naming its element; FP8 to F16 is exact.
    #[test]
    fn new_dtypes_convert_exactly_or_name_the_element() {
        let mut out = Vec::new();
        let input: Vec<u8> = [0u64, u64::MAX >> 1, u64::MAX]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let e = convert(
            Dtype::U64,
            TensorType::I64,
            &input,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "element 2 is 18446744073709551615, which does not fit in I64"
        );
        out.clear();
        convert(
            Dtype::U16,
            TensorType::I32,
            &65535u16.to_le_bytes(),
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, 65535i32.to_le_bytes());
        out.clear();
        let all: Vec<u8> = (0..=255u8).collect();
        let mut seen = Seen::default();
        convert(
            Dtype::F8E4M3,
            TensorType::F16,
            &all,
            0,
            Options::default(),
            &mut seen,
            &mut out,
        )
        .unwrap();
        for (b, h) in out.chunks_exact(2).enumerate() {
            let h = f64::from(f16_to_f32(u16::from_le_bytes([h[0], h[1]])));
            let v = fp8_to_f64(b as u8, Dtype::F8E4M3);
            assert!(v == h || v.is_nan() && h.is_nan(), "{b:#04x}");
        }
        assert_eq!(
            seen,
            Seen {
                non_finite: 2,
                first_non_finite: Some(0x7f)
            },
            "the two NaNs"
        );
        assert_eq!(widened(Dtype::F8E8M0), Some(TensorType::F32));
        assert_eq!(widened(Dtype::U32), Some(TensorType::I64));
    }

    /// The f32 -> half and f32 -> bfloat16 bit paths equal the general
    /// rounding on 17 million f32 patterns spread over every exponent, and
    /// on each boundary exactly.
    #[test]
    fn the_bit_paths_equal_the_general_rounding() {
        let check = |x: u32| {
            let f = f32::from_bits(x);
            let h = f64_to_f16(f64::from(f));
            let want = (h & 0x7fff != 0x7c00 || !f.is_finite()).then_some(h);
            assert_eq!(f32_bits_to_f16(x), want, "f16 of {x:#010x}");
            let b = f64_to_bf16(f64::from(f));
            let want = (b & 0x7fff != 0x7f80 || !f.is_finite()).then_some(b);
            assert_eq!(f32_bits_to_bf16(x), want, "bf16 of {x:#010x}");
        };
        let mut x = 0u32;
        while let Some(next) = x.checked_add(251) {
            check(x);
            x = next;
        }
        for edge in [
            0x477f_efffu32,
            0x477f_f000,
            0x3880_0000,
            0x387f_ffff,
            0x3300_0000,
            0x3300_0001,
            0x7f7f_7fff,
            0x7f7f_8000,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0,
            1,
        ] {
            check(edge);
            check(edge | 0x8000_0000);
        }
    }

    /// Q8_0 on values whose answers follow from the rule by hand: the
    /// scale is max|x| / 127 as a half, values rounded half away from
    /// zero, an all-zero block a zero scale.
    #[test]
    fn q8_0_follows_the_reference_rule() {
        let mut x = [0f32; 32];
        x[0] = 127.0;
        x[1] = -63.5; // exactly half: away from zero
        x[2] = 0.5;
        x[3] = -0.49999997;
        x[4] = 1.0;
        let input: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = Vec::new();
        let mut zeros = vec![0u8; 32 * 4];
        zeros.extend_from_slice(&input);
        convert(
            Dtype::F32,
            TensorType::Q8_0,
            &zeros,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out.len(), 68);
        assert_eq!(&out[..34], &[0u8; 34][..]);
        assert_eq!(&out[34..36], &0x3c00u16.to_le_bytes(), "scale 1.0");
        let q: Vec<i8> = out[36..].iter().map(|&b| b as i8).collect();
        assert_eq!(&q[..5], &[127, -64, 1, 0, 1]);
        assert!(q[5..].iter().all(|&v| v == 0));
        // A NaN cannot be quantized: named by its element.
        let mut bad = input.clone();
        bad[8..12].copy_from_slice(&f32::NAN.to_le_bytes());
        let e = convert(
            Dtype::F32,
            TensorType::Q8_0,
            &bad,
            64,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap_err();
        assert_eq!(e.index(), Some(66));
        assert_eq!(round_half_away(2.5), 3);
        assert_eq!(round_half_away(-2.5), -3);
        assert_eq!(round_half_away(2.4999998), 2);
    }

    /// Q4_0 on values whose answers follow from the rule by hand: the
    /// scale from the first value of the largest magnitude (sign kept),
    /// nibbles paired j and j + 16.
    #[test]
    fn q4_0_follows_the_reference_rule() {
        let mut x = [0f32; 32];
        x[0] = 1.0;
        x[1] = -8.0; // the largest magnitude: d = -8 / -8 = 1, id = 1
        x[16] = 3.0;
        x[17] = 8.0; // as large, but later: not the scale
        x[2] = -0.5; // -0.5 + 8.5 = 8.0 -> 8
        x[3] = 7.6; // 16.1 -> 16 -> clamped to 15
        let input: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        let mut out = Vec::new();
        convert(
            Dtype::F32,
            TensorType::Q4_0,
            &input,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out.len(), 18);
        assert_eq!(&out[..2], &0x3c00u16.to_le_bytes(), "d = 1.0");
        // q(v) = min(15, trunc(v * -1 + 8.5)) since id = 1 / d = 1... d is
        // max / -8 = -8 / -8 = 1, so q(v) = trunc(v + 8.5).
        let q = |v: f32| ((v + 8.5) as i32).clamp(0, 15) as u8;
        assert_eq!(out[2], q(1.0) | (q(3.0) << 4));
        assert_eq!(out[3], q(-8.0) | (q(8.0) << 4));
        assert_eq!(out[4] & 0xf, 8);
        assert_eq!(out[5] & 0xf, 15);
        assert_eq!(out[6], 8 | (8 << 4), "zeros sit at 8");
        let e = convert(
            Dtype::F32,
            TensorType::Q4_0,
            &[0u8; 124]
                .iter()
                .copied()
                .chain(f32::INFINITY.to_le_bytes())
                .collect::<Vec<u8>>(),
            0,
            Options::default(),
            &mut Seen::default(),
            &mut out,
        )
        .unwrap_err();
        assert!(e.to_string().contains("Q4_0 cannot hold it"), "{e}");
    }

    #[test]
    fn overflows_are_errors_or_saturate() {
        let input = 70000f32.to_le_bytes();
        let e = convert(
            Dtype::F32,
            TensorType::F16,
            &input,
            5,
            Options::default(),
            &mut Seen::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(e.index(), Some(5));
        assert!(
            e.to_string().contains("F16's largest finite value (65504)"),
            "{e}"
        );
        let mut out = Vec::new();
        convert(
            Dtype::F32,
            TensorType::F16,
            &(-70000f32).to_le_bytes(),
            0,
            Options { saturate: true },
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, 0xfbffu16.to_le_bytes());
        let big = f32::MAX.to_le_bytes();
        let e = convert(
            Dtype::F32,
            TensorType::BF16,
            &big,
            0,
            Options::default(),
            &mut Seen::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Overflow { target: "BF16", .. }));
        let mut out = Vec::new();
        convert(
            Dtype::F32,
            TensorType::BF16,
            &big,
            0,
            Options { saturate: true },
            &mut Seen::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, 0x7f7fu16.to_le_bytes());
        // F64 -> F16 through the general path.
        let e = convert(
            Dtype::F64,
            TensorType::F16,
            &1e6f64.to_le_bytes(),
            0,
            Options::default(),
            &mut Seen::default(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::Overflow { target: "F16", .. }));
        // Infinity is not an overflow: it stays, and is counted.
        let mut seen = Seen::default();
        let mut out = Vec::new();
        convert(
            Dtype::F32,
            TensorType::F16,
            &f32::NEG_INFINITY.to_le_bytes(),
            9,
            Options::default(),
            &mut seen,
            &mut out,
        )
        .unwrap();
        assert_eq!(out, 0xfc00u16.to_le_bytes());
        assert_eq!(
            seen,
            Seen {
                non_finite: 1,
                first_non_finite: Some(9)
            }
        );
    }
}
