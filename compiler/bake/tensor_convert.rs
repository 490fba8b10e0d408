//! Element conversion between safetensors dtypes and GGML tensor types,
//! exact and the same on every machine: integer arithmetic and IEEE basic
//! operations only (no platform maths library, no SIMD shortcuts).
//!
//! Floats round to nearest, ties to even; NaN stays NaN (quiet, sign
//! kept); a value too large for the target becomes infinity of its sign,
//! as IEEE conversion does. Integers convert exactly or not at all: a value
//! that does not fit is an error naming the element.

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
    #[error("element {index} is the boolean byte {byte}; it must be 0 or 1")]
    Bool { index: u64, byte: u8 },
    #[error("kiln does not convert {from} to {to}")]
    Unsupported { from: Dtype, to: &'static str },
}

impl Error {
    /// The element the error is about, if one.
    pub fn index(&self) -> Option<u64> {
        match self {
            Error::OutOfRange { index, .. } | Error::Bool { index, .. } => Some(*index),
            Error::Unsupported { .. } => None,
        }
    }
}

/// Bytes per element of the GGML types kiln writes.
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
/// errors). `input.len()` must be a multiple of the element size.
pub fn convert(
    from: Dtype,
    to: TensorType,
    input: &[u8],
    first: u64,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let size = from.size() as usize;
    debug_assert!(input.len().is_multiple_of(size));
    let n = input.len() / size;
    if native(from) == Some(to) {
        out.extend_from_slice(input);
        return Ok(());
    }
    out.reserve(n * element_bytes(to).unwrap_or(4) as usize);
    for (i, e) in input.chunks_exact(size).enumerate() {
        let index = first + i as u64;
        let value = read(from, e, index)?;
        write(value, to, index, out)?;
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
        Dtype::U8 | Dtype::Bool => return None,
    })
}

/// One element, widened without loss.
#[derive(Clone, Copy, Debug)]
enum Elem {
    Float(f64),
    Int(i64),
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
        Dtype::I64 => Elem::Int(i64::from_le_bytes(b(8))),
        Dtype::I32 => Elem::Int(i64::from(i32::from_le_bytes([e[0], e[1], e[2], e[3]]))),
        Dtype::I16 => Elem::Int(i64::from(i16::from_le_bytes([e[0], e[1]]))),
        Dtype::I8 => Elem::Int(i64::from(e[0] as i8)),
        Dtype::U8 => Elem::Int(i64::from(e[0])),
        Dtype::Bool => match e[0] {
            0 | 1 => Elem::Int(i64::from(e[0])),
            byte => return Err(Error::Bool { index, byte }),
        },
    })
}

fn write(value: Elem, to: TensorType, index: u64, out: &mut Vec<u8>) -> Result<(), Error> {
    let range = |v: i64, target: &'static str| Error::OutOfRange {
        index,
        value: v.to_string(),
        target,
    };
    match (value, to) {
        (Elem::Float(x), TensorType::F64) => out.extend_from_slice(&x.to_le_bytes()),
        // IEEE conversion: round to nearest even, overflow to infinity.
        (Elem::Float(x), TensorType::F32) => out.extend_from_slice(&(x as f32).to_le_bytes()),
        (Elem::Float(x), TensorType::F16) => out.extend_from_slice(&f64_to_f16(x).to_le_bytes()),
        (Elem::Float(x), TensorType::BF16) => out.extend_from_slice(&f64_to_bf16(x).to_le_bytes()),
        (Elem::Int(v), TensorType::I64) => out.extend_from_slice(&v.to_le_bytes()),
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
        let input: Vec<u8> = [tie, f64::NAN, 1e300, -1e300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        convert(Dtype::F64, TensorType::F32, &input, 0, &mut out).unwrap();
        let got: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(got[0], 1.0);
        assert!(got[1].is_nan());
        assert_eq!(got[2], f32::INFINITY);
        assert_eq!(got[3], f32::NEG_INFINITY);
    }

    #[test]
    fn integers_convert_exactly_or_say_which_element_does_not_fit() {
        let mut out = Vec::new();
        let input: Vec<u8> = [-1i64, 7, i64::from(i32::MAX)]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        convert(Dtype::I64, TensorType::I32, &input, 0, &mut out).unwrap();
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
        let e = convert(Dtype::I64, TensorType::I32, &big, 10, &mut Vec::new()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "element 11 is 1099511627776, which does not fit in I32"
        );
        let mut out = Vec::new();
        convert(Dtype::Bool, TensorType::I32, &[1, 0], 0, &mut out).unwrap();
        assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 0]);
        let e = convert(Dtype::Bool, TensorType::I32, &[1, 2], 0, &mut Vec::new()).unwrap_err();
        assert_eq!(e, Error::Bool { index: 1, byte: 2 });
        let mut out = Vec::new();
        convert(Dtype::U8, TensorType::I16, &[255], 0, &mut out).unwrap();
        assert_eq!(out, 255i16.to_le_bytes());
    }

    #[test]
    fn same_types_copy_the_bytes() {
        let input = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let mut out = Vec::new();
        convert(Dtype::F32, TensorType::F32, &input, 0, &mut out).unwrap();
        assert_eq!(out, input);
        // F16 -> F32 is exact.
        let mut out = Vec::new();
        convert(
            Dtype::F16,
            TensorType::F32,
            &0x3c00u16.to_le_bytes(),
            0,
            &mut out,
        )
        .unwrap();
        assert_eq!(f32::from_le_bytes(out[..4].try_into().unwrap()), 1.0);
    }
}
