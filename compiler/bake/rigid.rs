//! The best rigid motion between two point sets (CGeo snapshots into pose
//! caches): Horn's closed-form absolute orientation (1987), least squares
//! over rotation and translation.
//!
//! The rotation is the eigenvector of the largest eigenvalue of Horn's
//! symmetric 4 × 4 matrix built from the cross-covariance of the two
//! centred sets; the eigenvector comes from cyclic Jacobi rotations (only
//! `+ - * /` and `sqrt`, sums in order: the same bits on every machine).
//! A proper rotation always (never a reflection). The fit's worst residual,
//! the largest distance between a moved reference point and its current
//! position, says whether the motion was rigid at all.

use crate::model::math::{Quat, Vec3, quat_to_mat3};

/// A rigid motion: `current ≈ R(rotation) · reference + translation`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Unit quaternion `[x, y, z, w]`, `w ≥ 0`.
    pub rotation: Quat,
    pub translation: Vec3,
    /// The largest `|R · reference[i] + translation - current[i]|`.
    pub worst_residual: f64,
    /// The point it is at.
    pub worst_index: usize,
    /// How far from exact the residuals may be by rounding alone: a few
    /// f64 steps at the largest coordinate of either set. A tolerance
    /// below it cannot be checked (the caller refuses the coordinates).
    pub precision: f64,
}

/// Rounding steps the residuals may be off by, at the largest coordinate:
/// the centroid's sum and the centring each round once per point in the
/// worst case, but a few steps cover the rounding of the residual itself.
const PRECISION_STEPS: f64 = 16.0;

/// Jacobi sweeps before giving up (4 × 4 converges in well under 10).
const MAX_SWEEPS: usize = 50;

/// A point as f64 coordinates: a file's f32 vertices are fitted as they
/// are, never copied into f64 first (16 million of them would be 402 MB).
pub trait Point: Copy {
    fn coords(self) -> Vec3;
}

impl Point for [f64; 3] {
    fn coords(self) -> Vec3 {
        self
    }
}

impl Point for [f32; 3] {
    fn coords(self) -> Vec3 {
        self.map(f64::from)
    }
}

/// The best rigid motion taking `reference` onto `current` (the same
/// number of points, paired by index; at least one).
pub fn fit<A: Point, B: Point>(reference: &[A], current: &[B]) -> Fit {
    assert_eq!(reference.len(), current.len(), "paired point sets");
    assert!(!reference.is_empty(), "at least one point");
    let (ca, cb) = (centroid(reference), centroid(current));
    // Cross-covariance S[i][j] = Σ (a - ca)_i (b - cb)_j.
    let mut s = [[0.0f64; 3]; 3];
    for (a, b) in reference.iter().zip(current) {
        let a = sub(a.coords(), ca);
        let b = sub(b.coords(), cb);
        for i in 0..3 {
            for j in 0..3 {
                s[i][j] += a[i] * b[j];
            }
        }
    }
    let [[sxx, sxy, sxz], [syx, syy, syz], [szx, szy, szz]] = s;
    // Horn's N, in quaternion order (w, x, y, z).
    let n = [
        [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
        [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
        [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
        [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ];
    let (values, vectors) = jacobi(n);
    let best = (0..4).fold(0, |b, k| if values[k] > values[b] { k } else { b });
    let [w, x, y, z] = std::array::from_fn(|r| vectors[r][best]);
    let len = (w * w + x * x + y * y + z * z).sqrt();
    let sign = if w < 0.0 { -1.0 } else { 1.0 };
    let rotation = if len > 0.0 {
        [
            sign * x / len,
            sign * y / len,
            sign * z / len,
            sign * w / len,
        ]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    };
    let r = quat_to_mat3(rotation);
    let rca = apply(&r, ca);
    let translation = sub(cb, rca);
    // Residuals in centred coordinates, `R·(a − ca) − (b − cb)`: the same
    // as `R·a + t − b` exactly, but without adding numbers of the size of
    // the object's distance from the origin (which, far away, would round
    // a deformation away).
    let (mut worst_residual, mut worst_index) = (0.0, 0);
    for (i, (a, b)) in reference.iter().zip(current).enumerate() {
        let d = sub(apply(&r, sub(a.coords(), ca)), sub(b.coords(), cb));
        let e = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        if e > worst_residual {
            (worst_residual, worst_index) = (e, i);
        }
    }
    let largest = reference
        .iter()
        .map(|p| p.coords())
        .chain(current.iter().map(|p| p.coords()))
        .flat_map(|p| p.into_iter())
        .fold(0.0f64, |m, x| m.max(x.abs()));
    Fit {
        rotation,
        translation,
        worst_residual,
        worst_index,
        precision: PRECISION_STEPS * f64::EPSILON * largest,
    }
}

fn centroid<P: Point>(points: &[P]) -> Vec3 {
    let mut c = [0.0; 3];
    for p in points {
        let p = p.coords();
        for i in 0..3 {
            c[i] += p[i];
        }
    }
    let n = points.len() as f64;
    [c[0] / n, c[1] / n, c[2] / n]
}

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Row-major 3 × 3 times a vector.
fn apply(r: &[f64; 9], v: Vec3) -> Vec3 {
    std::array::from_fn(|i| r[3 * i] * v[0] + r[3 * i + 1] * v[1] + r[3 * i + 2] * v[2])
}

/// Eigenvalues and eigenvectors (columns) of a symmetric 4 × 4 matrix, by
/// cyclic Jacobi rotations.
fn jacobi(mut a: [[f64; 4]; 4]) -> ([f64; 4], [[f64; 4]; 4]) {
    let mut v = [[0.0; 4]; 4];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    let scale: f64 = a.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max);
    for _ in 0..MAX_SWEEPS {
        let off: f64 = (0..4)
            .flat_map(|p| ((p + 1)..4).map(move |q| (p, q)))
            .map(|(p, q)| a[p][q] * a[p][q])
            .sum();
        let tiny = f64::EPSILON * scale;
        if off <= tiny * tiny {
            break;
        }
        for p in 0..4 {
            for q in (p + 1)..4 {
                if a[p][q] == 0.0 {
                    continue;
                }
                // The rotation that zeroes a[p][q] (Numerical Recipes' form,
                // tan of the angle without trigonometry).
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (rp, rq) = (a[p], a[q]);
                for k in 0..4 {
                    a[p][k] = c * rp[k] - s * rq[k];
                    a[q][k] = s * rp[k] + c * rq[k];
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    ([a[0][0], a[1][1], a[2][2], a[3][3]], v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::math::quat_normalize;

    fn points(seed: u64, n: usize) -> Vec<[f64; 3]> {
        let mut x = seed;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        (0..n)
            .map(|_| [next() * 3.0, next(), next() * 0.5])
            .collect()
    }

    fn moved(p: &[[f64; 3]], q: Quat, t: Vec3) -> Vec<[f64; 3]> {
        let r = quat_to_mat3(q);
        p.iter()
            .map(|v| {
                let m = apply(&r, *v);
                [m[0] + t[0], m[1] + t[1], m[2] + t[2]]
            })
            .collect()
    }

    /// Far from the origin the residuals are taken in centred coordinates:
    /// a cube of side 1,000 at 10^15, turned a quarter and with one corner
    /// pushed 0.5 units, has the residual the same cube has at the origin,
    /// within the `precision` the fit reports (a few units there),
    /// and `precision` says how far the fit can be trusted.
    #[test]
    fn far_from_the_origin_the_residual_is_still_exact() {
        let far = 1e15;
        let cube: Vec<[f64; 3]> = (0..8)
            .map(|k| {
                let c = |b: usize| if k & (1 << b) == 0 { 0.0 } else { 1000.0 };
                [far + c(0), far + c(1), far + c(2)]
            })
            .collect();
        let mut turned: Vec<[f64; 3]> = cube
            .iter()
            .map(|p| [far - (p[1] - far), far + (p[0] - far), p[2]])
            .collect();
        turned[7][2] += 0.5;
        let f = fit(&cube, &turned);
        // The same sets at the origin: the residual does not depend on
        // where they are.
        let home = |p: &[[f64; 3]]| -> Vec<[f64; 3]> {
            p.iter()
                .map(|v| [v[0] - far, v[1] - far, v[2] - far])
                .collect()
        };
        let near = fit(&home(&cube), &home(&turned));
        assert!(near.worst_residual > 0.3, "{}", near.worst_residual);
        assert!(
            (f.worst_residual - near.worst_residual).abs() <= f.precision,
            "{} far, {} near",
            f.worst_residual,
            near.worst_residual
        );
        assert_eq!(f.worst_index, 7);
        assert!(f.precision > 1.0 && f.precision < 10.0, "{}", f.precision);
        // Collapsed to one point far away: the whole cube's size, not 0.
        let collapsed = vec![[far, far, far]; 8];
        let f = fit(&cube, &collapsed);
        assert!(f.worst_residual > 800.0, "{}", f.worst_residual);
    }

    #[test]
    fn a_known_rigid_motion_is_recovered() {
        for (seed, q, t) in [
            (1, [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0]),
            (2, [0.3, -0.2, 0.5, 0.7], [1.0, -2.0, 3.5]),
            (3, [1.0, 0.0, 0.0, 0.0], [0.0, 10.0, 0.0]), // half turn: w = 0
            (4, [0.0, 0.6, 0.0, -0.8], [-5.0, 0.0, 0.25]), // w < 0: same rotation
        ] {
            let q = quat_normalize(q);
            let a = points(seed, 200);
            let f = fit(&a, &moved(&a, q, t));
            let want = if q[3] < 0.0 { q.map(|x| -x) } else { q };
            let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
            assert!(
                close(&f.rotation, &want),
                "{seed}: {:?} vs {want:?}",
                f.rotation
            );
            assert!(close(&f.translation, &t), "{seed}: {:?}", f.translation);
            assert!(f.worst_residual < 1e-9, "{seed}: {}", f.worst_residual);
            assert!(f.rotation[3] >= 0.0);
        }
    }

    #[test]
    fn a_deformation_shows_in_the_worst_residual() {
        let a = points(5, 50);
        let mut b = moved(&a, quat_normalize([0.1, 0.2, 0.3, 0.9]), [1.0, 2.0, 3.0]);
        b[17][1] += 0.01;
        let f = fit(&a, &b);
        assert_eq!(f.worst_index, 17);
        assert!(
            f.worst_residual > 0.005 && f.worst_residual < 0.011,
            "{}",
            f.worst_residual
        );
    }

    #[test]
    fn degenerate_sets_still_fit() {
        // One point: a translation.
        let f = fit(&[[1.0, 2.0, 3.0]], &[[4.0, 6.0, 8.0]]);
        assert_eq!(f.translation, [3.0, 4.0, 5.0]);
        assert!(f.worst_residual < 1e-12);
        // Collinear points: the rotation about their line is free; the
        // residual still vanishes.
        let line: Vec<[f64; 3]> = (0..10).map(|i| [i as f64, 0.0, 0.0]).collect();
        let f = fit(
            &line,
            &moved(
                &line,
                quat_normalize([0.0, 0.0, 0.38, 0.92]),
                [0.5, 0.0, 0.0],
            ),
        );
        assert!(f.worst_residual < 1e-9, "{}", f.worst_residual);
    }
}
