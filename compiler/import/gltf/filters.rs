//! The meshopt vertex filters (`OCTAHEDRAL`, `QUATERNION`, `EXPONENTIAL`,
//! `COLOR`), in plain Rust.
//!
//! meshoptimizer's C filters differ by CPU: its SSE path computes
//! `1 / sqrt` with `_mm_rsqrt_ps`, a 12-bit approximation, so the same
//! file decodes to different bytes on x86 than on ARM or in the browser.
//! kiln must be deterministic, so these reimplement the filters with exact
//! IEEE `f32` arithmetic in the operation order of meshoptimizer's
//! WebAssembly SIMD path (exact `sqrt` and division, rounding half to
//! even). That is the decoder glTF-Transform and three.js run, and the
//! tests prove the results equal its output bit for bit.
//!
//! Each function takes `count * stride` little-endian bytes; strides were
//! checked by the caller (oct and color 4 or 8, quat 8, exp a multiple of
//! 4).

/// `v + 1.5 * 2^23`: rounds `v` (|v| < 2^22) to the nearest integer, ties
/// to even, leaving it in the low mantissa bits.
fn snap(v: f32) -> u32 {
    (v + 12_582_912.0).to_bits()
}

pub(crate) fn octahedral(data: &mut [u8], stride: usize) {
    if stride == 4 {
        for e in data.chunks_exact_mut(4) {
            let (x, y, z) = oct(
                e[0] as i8 as f32,
                e[1] as i8 as f32,
                e[2] as i8 as f32,
                127.0,
            );
            e[0] = x as u8;
            e[1] = y as u8;
            e[2] = z as u8;
        }
    } else {
        for e in data.chunks_exact_mut(8) {
            let c = |k: usize| i16::from_le_bytes([e[2 * k], e[2 * k + 1]]);
            let z = (c(2) as u16 & 0x7fff) as f32;
            let (x, y, z) = oct(c(0) as f32, c(1) as f32, z, 32767.0);
            e[0..2].copy_from_slice(&(x as u16).to_le_bytes());
            e[2..4].copy_from_slice(&(y as u16).to_le_bytes());
            e[4..6].copy_from_slice(&(z as u16).to_le_bytes());
        }
    }
}

/// Octahedral decode of one vector; returns the snapped x, y, z.
fn oct(x: f32, y: f32, z: f32, max: f32) -> (u32, u32, u32) {
    let z = z - (x.abs() + y.abs());
    let t = z.min(0.0);
    let x = x + if x.is_sign_negative() { -t } else { t };
    let y = y + if y.is_sign_negative() { -t } else { t };
    let ll = x * x + (y * y + z * z);
    let s = max / ll.sqrt();
    (snap(x * s), snap(y * s), snap(z * s))
}

pub(crate) fn quaternion(data: &mut [u8]) {
    let scale = 32767.0f32 / 2.0f32.sqrt();
    for e in data.chunks_exact_mut(8) {
        let c = |k: usize| i16::from_le_bytes([e[2 * k], e[2 * k + 1]]) as i32;
        let cf = c(3);
        let s = (cf | 3) as f32;
        let (x, y, z) = (c(0) as f32, c(1) as f32, c(2) as f32);
        let ws = s * s;
        let ww = (ws + ws) - (x * x + (y * y + z * z));
        let w = if ww > 0.0 { ww } else { 0.0 }.sqrt();
        let ss = scale / s;
        let lanes = [snap(w * ss), snap(x * ss), snap(y * ss), snap(z * ss)];
        let packed = lanes.iter().enumerate().fold(0u64, |acc, (k, &v)| {
            acc | (((v & 0xffff) as u64) << (16 * k))
        });
        let rotated = packed.rotate_left(((cf & 3) * 16) as u32);
        e.copy_from_slice(&rotated.to_le_bytes());
    }
}

pub(crate) fn exponential(data: &mut [u8]) {
    for w in data.chunks_exact_mut(4) {
        let v = i32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        let e = v >> 24;
        let m = ((v << 8) >> 8) as f32;
        let scale = f32::from_bits((e.wrapping_add(127) as u32).wrapping_shl(23));
        w.copy_from_slice(&(scale * m).to_bits().to_le_bytes());
    }
}

pub(crate) fn color(data: &mut [u8], stride: usize) {
    if stride == 4 {
        for e in data.chunks_exact_mut(4) {
            let c = [
                e[0] as i32,
                e[1] as i8 as i32,
                e[2] as i8 as i32,
                e[3] as i32,
            ];
            let out = ycocg(c, 255.0);
            for k in 0..4 {
                e[k] = out[k] as u8;
            }
        }
    } else {
        for e in data.chunks_exact_mut(8) {
            let c = |k: usize| u16::from_le_bytes([e[2 * k], e[2 * k + 1]]);
            let c = [
                c(0) as i32,
                c(1) as i16 as i32,
                c(2) as i16 as i32,
                c(3) as i32,
            ];
            let out = ycocg(c, 65535.0);
            for k in 0..4 {
                e[2 * k..2 * k + 2].copy_from_slice(&(out[k] as u16).to_le_bytes());
            }
        }
    }
}

/// YCoCg + alpha to RGBA; `c` is (y, co, cg, a) with co and cg sign
/// extended. Returns snapped r, g, b, a.
fn ycocg(c: [i32; 4], max: f32) -> [u32; 4] {
    let [y, co, cg, a] = c;
    let mut scale_bits = a;
    for shift in [1, 2, 4, 8] {
        scale_bits |= scale_bits >> shift;
    }
    let a = ((a << 1) & scale_bits) | (a & 1);
    let ss = max / scale_bits as f32;
    let r = y + (co - cg);
    let g = y + cg;
    let b = y - (co + cg);
    [r, g, b, a].map(|v| snap(v as f32 * ss))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_is_m_times_2_to_e() {
        let mut d = Vec::new();
        for (e, m) in [(0i32, 5i32), (-3, -8), (2, 1 << 22)] {
            d.extend_from_slice(&(((e as u32) << 24) | (m as u32 & 0xff_ffff)).to_le_bytes());
        }
        exponential(&mut d);
        let v: Vec<f32> = d
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(v, [5.0, -1.0, 16_777_216.0]);
    }

    #[test]
    fn quaternion_identity_and_rotation_index() {
        // x = y = z = 0, w reconstructed, component index 0 (w first), scale
        // bits 0xfffc | 3.
        let mut d = Vec::new();
        for v in [0i16, 0, 0, 0x7ffc] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        quaternion(&mut d);
        let q: Vec<i16> = d
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        // w lands in lane (0 + 0) = 0; the rest are 0.
        assert_eq!(q, [32767, 0, 0, 0]);
    }

    #[test]
    fn octahedral_unit_z() {
        let mut d = vec![0u8, 0, 127, 9];
        octahedral(&mut d, 4);
        assert_eq!(d, [0, 0, 127, 9]);
        let mut d = Vec::new();
        for v in [0i16, 0, 32767, -5] {
            d.extend_from_slice(&v.to_le_bytes());
        }
        octahedral(&mut d, 8);
        let v: Vec<i16> = d
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(v, [0, 0, 32767, -5]);
    }

    /// Deterministic pseudo-random floats in [-1, 1).
    fn noise(n: usize, seed: u64) -> Vec<f32> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    }

    fn normalized4(n: usize, seed: u64, dims: usize) -> Vec<[f32; 4]> {
        noise(n * 4, seed)
            .chunks(4)
            .map(|c| {
                let len = c[..dims]
                    .iter()
                    .map(|v| v * v)
                    .sum::<f32>()
                    .sqrt()
                    .max(1e-3);
                let mut v = [0.0; 4];
                for k in 0..dims {
                    v[k] = c[k] / len;
                }
                v
            })
            .collect()
    }

    fn bytes_of<T: Copy, const N: usize>(v: &[[T; N]], to: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
        v.iter().flatten().flat_map(|&c| to(c)).collect()
    }

    /// Our filters against meshoptimizer's C filters (which round half
    /// away from zero, and on x86 use an approximate `1 / sqrt`): within
    /// one step per component, and close to the encoded floats. Covers the
    /// 16-bit octahedral and the color filters, which the corpus lacks.
    #[test]
    fn agree_with_meshoptimizer_within_one_step() {
        use meshopt::encoding as enc;
        let close = |a: &[i32], b: &[i32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1);

        let normals = normalized4(500, 1, 3);
        let mut c8 = enc::encode_filter_oct::<i8>(&normals, 8);
        let mut ours = bytes_of(&c8, |v| vec![v as u8]);
        enc::decode_filter_oct(&mut c8);
        octahedral(&mut ours, 4);
        let a: Vec<i32> = ours.iter().map(|&b| b as i8 as i32).collect();
        let b: Vec<i32> = c8.iter().flatten().map(|&v| v as i32).collect();
        assert!(close(&a, &b));
        for (n, got) in normals.iter().zip(a.chunks(4)) {
            for k in 0..3 {
                assert!((n[k] - got[k] as f32 / 127.0).abs() < 0.03, "{n:?} {got:?}");
            }
        }

        let mut c16 = enc::encode_filter_oct::<i16>(&normals, 16);
        let mut ours = bytes_of(&c16, |v| v.to_le_bytes().to_vec());
        enc::decode_filter_oct(&mut c16);
        octahedral(&mut ours, 8);
        let a: Vec<i32> = ours
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as i32)
            .collect();
        let b: Vec<i32> = c16.iter().flatten().map(|&v| v as i32).collect();
        assert!(close(&a, &b));
        for (n, got) in normals.iter().zip(a.chunks(4)) {
            for k in 0..3 {
                assert!(
                    (n[k] - got[k] as f32 / 32767.0).abs() < 1e-3,
                    "{n:?} {got:?}"
                );
            }
        }

        let quats = normalized4(500, 2, 4);
        let mut q = enc::encode_filter_quat(&quats, 12);
        let mut ours = bytes_of(&q, |v| v.to_le_bytes().to_vec());
        enc::decode_filter_quat(&mut q);
        quaternion(&mut ours);
        let a: Vec<i32> = ours
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as i32)
            .collect();
        let b: Vec<i32> = q.iter().flatten().map(|&v| v as i32).collect();
        assert!(close(&a, &b));
        for (n, got) in quats.iter().zip(a.chunks(4)) {
            let sign = if n.iter().zip(got).map(|(x, &y)| x * y as f32).sum::<f32>() < 0.0 {
                -1.0
            } else {
                1.0
            };
            for k in 0..4 {
                assert!(
                    (n[k] - sign * got[k] as f32 / 32767.0).abs() < 2e-3,
                    "{n:?} {got:?}"
                );
            }
        }

        let colors: Vec<[f32; 4]> = noise(2000, 3)
            .chunks(4)
            .map(|c| [c[0].abs(), c[1].abs(), c[2].abs(), c[3].abs()])
            .collect();
        let mut c8 = enc::encode_filter_color::<u8>(&colors, 8);
        let mut ours = bytes_of(&c8, |v| vec![v]);
        enc::decode_filter_color(&mut c8);
        color(&mut ours, 4);
        let a: Vec<i32> = ours.iter().map(|&b| b as i32).collect();
        let b: Vec<i32> = c8.iter().flatten().map(|&v| v as i32).collect();
        assert!(close(&a, &b));
        for (n, got) in colors.iter().zip(a.chunks(4)) {
            for k in 0..4 {
                assert!((n[k] - got[k] as f32 / 255.0).abs() < 0.02, "{n:?} {got:?}");
            }
        }
        let mut c16 = enc::encode_filter_color::<u16>(&colors, 16);
        let mut ours = bytes_of(&c16, |v| v.to_le_bytes().to_vec());
        enc::decode_filter_color(&mut c16);
        color(&mut ours, 8);
        let a: Vec<i32> = ours
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as i32)
            .collect();
        let b: Vec<i32> = c16.iter().flatten().map(|&v| v as i32).collect();
        assert!(close(&a, &b));
        for (n, got) in colors.iter().zip(a.chunks(4)) {
            for k in 0..4 {
                assert!(
                    (n[k] - got[k] as f32 / 65535.0).abs() < 1e-3,
                    "{n:?} {got:?}"
                );
            }
        }

        let floats: Vec<[f32; 3]> = noise(300, 4)
            .chunks(3)
            .map(|c| [c[0] * 1e3, c[1], c[2] * 1e-3])
            .collect();
        let mut e = enc::encode_filter_exp(&floats, 15, enc::EncodeExpMode::Separate);
        let mut ours = bytes_of(&e, |v| v.to_le_bytes().to_vec());
        enc::decode_filter_exp(&mut e);
        exponential(&mut ours);
        assert_eq!(ours, bytes_of(&e, |v| v.to_le_bytes().to_vec()));
    }
}
