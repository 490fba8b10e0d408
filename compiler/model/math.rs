//! Small vector, quaternion and matrix helpers.
//!
//! Everything is `f64` and uses only IEEE basic operations (`+ - * /`,
//! `sqrt`) or the pure-Rust `libm` crate for transcendentals, never the
//! platform's C library: the same inputs give the same bits on every
//! machine, which is what makes baked outputs byte-identical.
//!
//! Quaternions are `[x, y, z, w]`; matrices are column-major `[f64; 16]`
//! (glTF's order).

pub type Quat = [f64; 4];
pub type Vec3 = [f64; 3];
pub type Mat4 = [f64; 16];

pub const QUAT_IDENTITY: Quat = [0.0, 0.0, 0.0, 1.0];

pub fn quat_dot(a: Quat, b: Quat) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `q / |q|`, or the identity for a (near) zero quaternion.
pub fn quat_normalize(q: Quat) -> Quat {
    let len = quat_dot(q, q).sqrt();
    if len.is_nan() || len <= 1e-30 || !len.is_finite() {
        return QUAT_IDENTITY;
    }
    [q[0] / len, q[1] / len, q[2] / len, q[3] / len]
}

/// Spherical linear interpolation along the shorter arc, normalized: the
/// rotation turns at a constant rate from `a` to `b`.
///
/// glTF asks for slerp on LINEAR rotation samplers, and KCHR's LINEAR
/// tracks for the shortest arc. The angle comes from Kahan's
/// `2·atan2(|a − b|, |a + b|)`, accurate however close the inputs are (an
/// `acos` of the dot product loses half the digits there), so slerp's
/// weights stay exact down to angles where they equal a lerp's to the last
/// bit (below 1e-9 rad, where a lerp is used). A normalized lerp for
/// "close" inputs, as many runtimes do, would not turn at a constant rate:
/// 1.8° apart it is off by microradians, which key reduction would see.
pub fn quat_slerp(a: Quat, b: Quat, t: f64) -> Quat {
    let b = if quat_dot(a, b) < 0.0 {
        [-b[0], -b[1], -b[2], -b[3]]
    } else {
        b
    };
    let diff: Quat = std::array::from_fn(|i| a[i] - b[i]);
    let sum: Quat = std::array::from_fn(|i| a[i] + b[i]);
    let angle = 2.0 * libm::atan2(quat_dot(diff, diff).sqrt(), quat_dot(sum, sum).sqrt());
    let (wa, wb) = if angle < 1e-9 {
        (1.0 - t, t)
    } else {
        let s = libm::sin(angle);
        (libm::sin((1.0 - t) * angle) / s, libm::sin(t * angle) / s)
    };
    quat_normalize([
        wa * a[0] + wb * b[0],
        wa * a[1] + wb * b[1],
        wa * a[2] + wb * b[2],
        wa * a[3] + wb * b[3],
    ])
}

/// The row-major 3x3 rotation matrix of a unit quaternion (`r[3 * row +
/// col]`).
pub fn quat_to_mat3(q: Quat) -> [f64; 9] {
    let [x, y, z, w] = q;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    [
        1.0 - 2.0 * (yy + zz),
        2.0 * (xy - wz),
        2.0 * (xz + wy),
        2.0 * (xy + wz),
        1.0 - 2.0 * (xx + zz),
        2.0 * (yz - wx),
        2.0 * (xz - wy),
        2.0 * (yz + wx),
        1.0 - 2.0 * (xx + yy),
    ]
}

/// The column-major transform of translation `t`, unit quaternion `q` and
/// scale `s` (glTF's T * R * S).
pub fn mat4_from_trs(t: Vec3, q: Quat, s: Vec3) -> Mat4 {
    let r = quat_to_mat3(q);
    let mut m = [0.0; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[4 * col + row] = r[3 * row + col] * s[col];
        }
    }
    m[12..15].copy_from_slice(&t);
    m[15] = 1.0;
    m
}

/// `a * b` for column-major matrices.
pub fn mat4_mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            let mut sum = 0.0;
            for k in 0..4 {
                sum += a[k * 4 + row] * b[col * 4 + k];
            }
            out[col * 4 + row] = sum;
        }
    }
    out
}

pub fn mat4_translation(m: &Mat4) -> Vec3 {
    [m[12], m[13], m[14]]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize3(v: Vec3) -> Option<Vec3> {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len > 1e-30 && len.is_finite() {
        Some([v[0] / len, v[1] / len, v[2] / len])
    } else {
        None
    }
}

/// The rotation of a transform matrix, with scale and shear removed.
///
/// The x axis is normalized, y is made orthogonal to it (Gram-Schmidt) and
/// z is their cross product, so a mirrored matrix still gives a proper
/// rotation. A degenerate matrix (zero scale) gives the identity.
pub fn mat4_rotation(m: &Mat4) -> Quat {
    let Some(x) = normalize3([m[0], m[1], m[2]]) else {
        return QUAT_IDENTITY;
    };
    let y_raw = [m[4], m[5], m[6]];
    let d = x[0] * y_raw[0] + x[1] * y_raw[1] + x[2] * y_raw[2];
    let Some(y) = normalize3([
        y_raw[0] - d * x[0],
        y_raw[1] - d * x[1],
        y_raw[2] - d * x[2],
    ]) else {
        return QUAT_IDENTITY;
    };
    let z = cross(x, y);
    quat_from_basis(x, y, z)
}

/// Quaternion of the orthonormal basis with columns `x`, `y`, `z`
/// (Shepperd's method, choosing the largest pivot for stability). The
/// result has `w >= 0`.
fn quat_from_basis(x: Vec3, y: Vec3, z: Vec3) -> Quat {
    let (m00, m11, m22) = (x[0], y[1], z[2]);
    let trace = m00 + m11 + m22;
    let q = if trace > 0.0 {
        let s = (trace + 1.0).sqrt() * 2.0;
        [
            (y[2] - z[1]) / s,
            (z[0] - x[2]) / s,
            (x[1] - y[0]) / s,
            0.25 * s,
        ]
    } else if m00 > m11 && m00 > m22 {
        let s = (1.0 + m00 - m11 - m22).sqrt() * 2.0;
        [
            0.25 * s,
            (y[0] + x[1]) / s,
            (z[0] + x[2]) / s,
            (y[2] - z[1]) / s,
        ]
    } else if m11 > m22 {
        let s = (1.0 + m11 - m00 - m22).sqrt() * 2.0;
        [
            (y[0] + x[1]) / s,
            0.25 * s,
            (z[1] + y[2]) / s,
            (z[0] - x[2]) / s,
        ]
    } else {
        let s = (1.0 + m22 - m00 - m11).sqrt() * 2.0;
        [
            (z[0] + x[2]) / s,
            (z[1] + y[2]) / s,
            0.25 * s,
            (x[1] - y[0]) / s,
        ]
    };
    let q = quat_normalize(q);
    if q[3] < 0.0 {
        [-q[0], -q[1], -q[2], -q[3]]
    } else {
        q
    }
}

/// Splits a transform matrix into translation, rotation and per-axis scale
/// (the scale keeps the sign of the determinant on x). Used when a matrix
/// node must be treated as TRS.
pub fn mat4_decompose(m: &Mat4) -> (Vec3, Quat, Vec3) {
    let len = |c: usize| (m[c] * m[c] + m[c + 1] * m[c + 1] + m[c + 2] * m[c + 2]).sqrt();
    let mut s = [len(0), len(4), len(8)];
    let det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
        + m[8] * (m[1] * m[6] - m[5] * m[2]);
    if det < 0.0 {
        s[0] = -s[0];
    }
    let mut r = *m;
    if s[0] != 0.0 {
        for v in &mut r[..3] {
            *v /= s[0];
        }
    }
    (mat4_translation(m), mat4_rotation(&r), s)
}

/// The rotation about +Z closest to `q` (swing-twist decomposition): what a
/// 2-D cache keeps of a 3-D orientation.
pub fn quat_twist_z(q: Quat) -> Quat {
    quat_normalize([0.0, 0.0, q[2], q[3]])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn trs_matrix_round_trip() {
        let q = quat_normalize([0.1, -0.7, 0.3, 0.6]);
        let m = mat4_from_trs([1.0, 2.0, 3.0], q, [2.0, 2.0, 2.0]);
        let (t, r, s) = mat4_decompose(&m);
        assert!(close(&t, &[1.0, 2.0, 3.0]));
        let r = if quat_dot(r, q) < 0.0 {
            r.map(|c| -c)
        } else {
            r
        };
        assert!(close(&r, &q), "{r:?} vs {q:?}");
        assert!(close(&s, &[2.0, 2.0, 2.0]));
    }

    #[test]
    fn slerp_halfway_about_z() {
        let a = QUAT_IDENTITY;
        let b = [0.0, 0.0, 1.0, 0.0]; // 180 degrees about z
        let h = quat_slerp(a, b, 0.5);
        let e = std::f64::consts::FRAC_1_SQRT_2;
        assert!(close(&h, &[0.0, 0.0, e, e]), "{h:?}");
        // Takes the shorter arc: -b is the same rotation.
        let h2 = quat_slerp(a, [0.0, 0.0, -e, e], 1.0);
        assert!(close(&h2, &[0.0, 0.0, -e, e]));
    }

    #[test]
    fn slerp_turns_at_a_constant_rate_however_close_the_ends() {
        // The angle from `a` to slerp(a, b, t) is t times the angle from a
        // to b, for ends 90°, 3.6° (where a normalized lerp is off by
        // about 3e-6 rad), 0.01° and 1e-6° apart.
        let angle = |x: Quat, y: Quat| {
            let d: Quat = std::array::from_fn(|i| x[i] - y[i]);
            let s: Quat = std::array::from_fn(|i| x[i] + y[i]);
            2.0 * libm::atan2(quat_dot(d, d).sqrt(), quat_dot(s, s).sqrt())
        };
        for half_deg in [45.0f64, 1.8, 0.005, 5e-7] {
            let h = half_deg.to_radians();
            let b = [libm::sin(h) * 0.6, libm::sin(h) * 0.8, 0.0, libm::cos(h)];
            for t in [0.1, 0.25, 0.5, 0.8] {
                let q = quat_slerp(QUAT_IDENTITY, b, t);
                let got = angle(QUAT_IDENTITY, q);
                assert!(
                    (got - t * h).abs() <= 1e-15 + 1e-12 * h,
                    "{half_deg}° at {t}: {got} vs {}",
                    t * h
                );
            }
        }
    }

    #[test]
    fn mul_composes_translations() {
        let a = mat4_from_trs([1.0, 0.0, 0.0], QUAT_IDENTITY, [1.0; 3]);
        let b = mat4_from_trs([0.0, 2.0, 0.0], QUAT_IDENTITY, [1.0; 3]);
        assert!(close(
            &mat4_translation(&mat4_mul(&a, &b)),
            &[1.0, 2.0, 0.0]
        ));
    }
}
