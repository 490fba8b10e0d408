//! Key reduction: the fewest keys that keep a track within its
//! tolerance.

use crate::formats::kchr;
use crate::model::math;

use super::reach::Reach;

/// Key reduction's tolerances (a bank's `tolerance` in the manifest).
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    /// World-space error of any joint, in metres.
    pub position_m: f64,
    /// Rotation error of a joint, in degrees.
    pub rotation_deg: f64,
    /// Scale error of a joint (a factor's difference).
    pub scale: f64,
}

/// Most keys one reduced segment may span: with the galloping search of
/// [`reduce`], a track's work is at most about `keys × 2·log2(MAX_SPAN)`
/// error checks (20 a key).
pub(super) const MAX_SPAN: usize = 1024;

/// Removes keys that linear interpolation between the kept ones reproduces
/// within `tol` (greedy, from the first key: each segment ends at a key
/// that a galloping then halving search finds, every key it spans
/// checked). The error of a key is measured where it matters
/// ([`error_m`]); each channel may use its node's share of `position_m`,
/// so that the errors along any chain of joints add up to at most
/// `position_m`; a rotation also within `rotation_deg` and a scale within
/// `scale`. A track whose keys all equal its first within the tolerance
/// keeps one key. Returns the kept keys and the largest error (metres) of
/// a dropped key.
pub(super) fn reduce(
    times: &[f64],
    values: &[f64],
    path: kchr::Path,
    tol: &Tolerance,
    at: Reach,
) -> (Vec<f64>, Vec<f64>, f64) {
    reduce_counted(times, values, path, tol, at, &mut 0)
}

/// [`reduce`], adding the error checks it made to `checks` (its work).
pub(super) fn reduce_counted(
    times: &[f64],
    values: &[f64],
    path: kchr::Path,
    tol: &Tolerance,
    at: Reach,
    checks: &mut usize,
) -> (Vec<f64>, Vec<f64>, f64) {
    let position_m = tol.position_m * at.share;
    let w = path.width();
    let n = times.len();
    if n <= 2 {
        return (times.to_vec(), values.to_vec(), 0.0);
    }
    let key = |i: usize| -> [f64; 4] { as4(&values[i * w..(i + 1) * w]) };
    let cos_half = libm::cos(tol.rotation_deg.to_radians() / 2.0);
    let close = |a: [f64; 4], b: [f64; 4]| -> bool {
        let local = match path {
            kchr::Path::Translation => true,
            kchr::Path::Scale => (0..3).all(|i| (a[i] - b[i]).abs() <= tol.scale),
            kchr::Path::Rotation => math::quat_dot(a, b).abs().min(1.0) >= cos_half,
        };
        local && error_m(path, a, b, at) <= position_m
    };
    let lerp = |a: usize, b: usize, t: f64| -> [f64; 4] {
        let u = (t - times[a]) / (times[b] - times[a]);
        lerp_key(path, key(a), key(b), u)
    };
    let k0 = key(0);
    if (1..n).all(|i| close(key(i), k0)) {
        let worst = (1..n)
            .map(|i| error_m(path, key(i), k0, at))
            .fold(0.0f64, f64::max);
        return (vec![times[0]], values[..w].to_vec(), worst);
    }
    // Every key strictly between a and c is reproduced by a segment a–c.
    let mut holds = |a: usize, c: usize| {
        ((a + 1)..c).all(|i| {
            *checks += 1;
            close(lerp(a, c, times[i]), key(i))
        })
    };
    let mut kept = vec![0usize];
    let mut a = 0;
    while a < n - 1 {
        // The end of the segment from a: galloping (spans 2, 4, 8, … while
        // they hold), then halving between the last that held and the first
        // that did not. Each try checks the keys it spans, so a key is
        // checked O(log MAX_SPAN) times, not O(MAX_SPAN).
        let last = (n - 1).min(a + MAX_SPAN);
        let (mut good, mut bad) = (a + 1, None);
        let mut span = 2;
        while bad.is_none() && good < last {
            let c = (a + span).min(last);
            match holds(a, c) {
                true => good = c,
                false => bad = Some(c),
            }
            span *= 2;
        }
        if let Some(mut bad) = bad {
            while bad - good > 1 {
                let mid = good + (bad - good) / 2;
                match holds(a, mid) {
                    true => good = mid,
                    false => bad = mid,
                }
            }
        }
        kept.push(good);
        a = good;
    }
    let worst = kept
        .windows(2)
        .flat_map(|s| ((s[0] + 1)..s[1]).map(move |i| (s[0], s[1], i)))
        .map(|(a, c, i)| error_m(path, lerp(a, c, times[i]), key(i), at))
        .fold(0.0f64, f64::max);
    let t = kept.iter().map(|&i| times[i]).collect();
    let v = kept
        .iter()
        .flat_map(|&i| values[i * w..(i + 1) * w].iter().copied())
        .collect();
    (t, v, worst)
}

// ------------------------------------------------------------ binding

/// A key of 3 or 4 values as 4 (the fourth 0 for a translation or a
/// scale).
pub(super) fn as4(k: &[f64]) -> [f64; 4] {
    [k[0], k[1], k[2], if k.len() == 4 { k[3] } else { 0.0 }]
}

/// Linear interpolation of two keys as the runtime does it: lerp, or
/// slerp for rotations.
pub(super) fn lerp_key(path: kchr::Path, a: [f64; 4], b: [f64; 4], u: f64) -> [f64; 4] {
    match path {
        kchr::Path::Rotation => math::quat_slerp(a, b, u),
        _ => [
            a[0] + (b[0] - a[0]) * u,
            a[1] + (b[1] - a[1]) * u,
            a[2] + (b[2] - a[2]) * u,
            0.0,
        ],
    }
}

/// How far (metres) the difference between two values of one channel
/// moves what the node carries: a translation's difference times the
/// parent's scale; a rotation's by the chord it sweeps at the reach
/// (`2·sin(angle/2)·reach = 2·sqrt(1 − dot²)·reach`); a scale's relative
/// difference (to the node's rest scale) times the reach.
pub(super) fn error_m(path: kchr::Path, a: [f64; 4], b: [f64; 4], at: Reach) -> f64 {
    match path {
        kchr::Path::Translation => {
            (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt() * at.parent_scale
        }
        kchr::Path::Scale => {
            let d = (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0f64, f64::max);
            d / at.rest_scale * at.reach
        }
        kchr::Path::Rotation => {
            let dot = math::quat_dot(a, b).abs().min(1.0);
            2.0 * (1.0 - dot * dot).sqrt() * at.reach
        }
    }
}
