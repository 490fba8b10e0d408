//! The clip stage: a glTF clip's tracks by node name, times from 0,
//! resampled at a rate, keys reduced within a tolerance.

use crate::formats::kchr;
use crate::model::math;
use crate::model::sample;
use crate::model::{Channel, Clip, Interpolation, Scene, Target};

use super::reach::{Reach, chain_worst, reach};
use super::reduce::{Tolerance, as4, error_m, lerp_key, reduce};
use super::{Error, err};

/// How a bank's clips are made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipSettings {
    /// Rate for resampling CUBICSPLINE tracks (and every track when
    /// `resample_all`).
    pub resample_hz: f64,
    pub resample_all: bool,
    /// `None`: keys stay as they are.
    pub tolerance: Option<Tolerance>,
}

/// What [`clip`] made.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledClip {
    /// `name` is the caller's to set.
    pub clip: kchr::Clip,
    /// Keys after resampling, before reduction.
    pub keys_before: usize,
    /// Morph weight channels left out (KCHR has no morph targets).
    pub dropped_weights: usize,
    pub warnings: Vec<String>,
    /// At most this far (metres) does any vertex of the skin, or any
    /// joint, move from where the source clip puts it, at any time: the
    /// errors of resampling and of key reduction, each measured at the
    /// distance from its joint of what the joint moves, added along every
    /// chain of joints (see `reach`).
    pub worst_m: f64,
}

/// When the clip's first key is (0 if it has none): [`clip`] shifts its
/// keys to start at 0.
fn clip_start(clip: &Clip) -> f64 {
    let start = clip
        .channels
        .iter()
        .filter_map(|c| c.times_s.first())
        .fold(f32::INFINITY, |a, &t| a.min(t));
    if start.is_finite() {
        f64::from(start)
    } else {
        0.0
    }
}

/// What key reduction may use of `tol`: resampling's and storage's errors
/// are the floor, so reduction gets what is left; an error when the floor
/// alone passes the tolerance.
fn reduction_budget(
    scene: &Scene,
    clip: &Clip,
    start: f64,
    settings: &ClipSettings,
    reach: &[Reach],
    tol: Tolerance,
) -> Result<Tolerance, Error> {
    let resampling = chain_worst(
        scene,
        &floor_errors(clip, start, settings, reach, usize::MAX)?.0,
    );
    if resampling > tol.position_m {
        return err(cannot_meet(
            clip, start, settings, reach, resampling, &tol, scene,
        ));
    }
    Ok(Tolerance {
        position_m: tol.position_m - resampling,
        ..tol
    })
}

/// The clip `clip` of `scene` as a bank's clip: one track per channel, by
/// node name (`names`), times from 0, rotations normalized, CUBICSPLINE
/// evaluated (Hermite with its tangents) at `resample_hz` into LINEAR
/// keys, then keys reduced within what the tolerance leaves after
/// resampling. `radius` is, per node of `scene`, how far the skin it
/// carries reaches from it ([`skin_radius`](super::skin_radius); missing or 0 where unknown).
/// A clip whose resampling alone moves the skin by more than
/// `position_m` is refused, naming a setting that would meet it. Morph
/// weight channels are dropped (and counted): KCHR has no morph targets.
pub fn clip(
    scene: &Scene,
    names: &[String],
    clip: &Clip,
    settings: &ClipSettings,
    radius: &[f64],
    max_keys: usize,
) -> Result<CompiledClip, Error> {
    let mut warnings = Vec::new();
    let mut kept = 0usize;
    let start = clip_start(clip);
    if start != 0.0 {
        warnings.push(format!("keys start at {start} s: shifted to start at 0"));
    }
    let reach = reach(scene, radius);
    // Resampling's and storage's errors are the floor: reduction may use
    // what is left.
    let budget = match settings.tolerance {
        None => None,
        Some(tol) => Some(reduction_budget(scene, clip, start, settings, &reach, tol)?),
    };
    let mut node_error = vec![0.0f64; scene.nodes.len()];
    let mut tracks = Vec::new();
    let mut dropped = 0;
    let mut keys_before = 0;
    for channel in &clip.channels {
        let Some(path) = track_path(channel) else {
            dropped += 1;
            continue;
        };
        let (times, values, step) = keys(channel, path, start, settings)?;
        keys_before += times.len();
        let at = reach[channel.node];
        if resampled(channel, settings) {
            node_error[channel.node] += resample_error(channel, path, start, &times, &values, at);
        }
        let (times, values) = match &budget {
            Some(tol) if !step => {
                let (t, v, e) = reduce(&times, &values, path, tol, at);
                node_error[channel.node] += e;
                (t, v)
            }
            _ => (times, values),
        };
        node_error[channel.node] += storage_error(&times, &values, path, at);
        // The bank's limit holds as the keys are made, not once all exist.
        kept += times.len();
        if kept > max_keys {
            return err(format!(
                "with this clip the bank holds more than {max_keys} keys{}; a bank holds at most {} (set a `tolerance:` to reduce them, or take fewer animations)",
                match max_keys < kchr::MAX_KEYS {
                    true => " more",
                    false => "",
                },
                kchr::MAX_KEYS
            ));
        }
        let (times_s, values, merged) = in_float32(&times, &values, path.width());
        if merged > 0 {
            warnings.push(format!(
                "node \"{}\" {}: {merged} key(s) fell on the float32 time of the key after them once the clip starts at 0, and were merged into it",
                names[channel.node],
                path.name()
            ));
        }
        tracks.push(kchr::Track {
            node: names[channel.node].clone(),
            path,
            step,
            times_s,
            values,
        });
    }
    tracks.sort_by(|a, b| (a.node.as_bytes(), a.path).cmp(&(b.node.as_bytes(), b.path)));
    if let Some(w) = tracks
        .windows(2)
        .find(|w| w[0].node == w[1].node && w[0].path == w[1].path)
    {
        return err(format!(
            "two channels animate the {} of node \"{}\"",
            w[0].path.name(),
            w[0].node
        ));
    }
    let duration = tracks
        .iter()
        .filter_map(|t| t.times_s.last().copied())
        .fold(0.0f32, f32::max);
    if duration > kchr::MAX_DURATION_S {
        return err(format!(
            "the clip lasts {duration} s, more than the {} s a compiled clip may",
            kchr::MAX_DURATION_S
        ));
    }
    Ok(CompiledClip {
        clip: kchr::Clip {
            name: String::new(),
            duration_s: duration,
            tracks,
        },
        keys_before,
        dropped_weights: dropped,
        warnings,
        worst_m: chain_worst(scene, &node_error),
    })
}

/// The KCHR path a channel becomes; `None` for morph weights (dropped).
fn track_path(channel: &Channel) -> Option<kchr::Path> {
    match channel.target {
        Target::Translation => Some(kchr::Path::Translation),
        Target::Rotation => Some(kchr::Path::Rotation),
        Target::Scale => Some(kchr::Path::Scale),
        Target::Weights { .. } => None,
    }
}

/// The node names a clip animates (its tracks' nodes), by `names`.
pub fn clip_animated<'a>(names: &'a [String], clip: &'a Clip) -> impl Iterator<Item = &'a str> {
    clip.channels
        .iter()
        .filter(|c| track_path(c).is_some())
        .map(|c| names[c.node].as_str())
}

/// Per node, the error no key reduction can take back, added: its
/// resampled channels' resampling error ([`resample_error`]) and every
/// channel's float32 storage error over all its keys ([`storage_error`]:
/// reduction keeps a subset of them, whose storage error is no larger).
/// Also the keys resampling made: the channels resampled one at a time,
/// stopping (`None`) once more than `max_keys` are made.
fn floor_errors(
    clip: &Clip,
    start: f64,
    settings: &ClipSettings,
    reach: &[Reach],
    max_keys: usize,
) -> Result<(Vec<f64>, Option<usize>), Error> {
    let mut per_node = vec![0.0f64; reach.len()];
    let mut made = 0usize;
    for channel in &clip.channels {
        let Some(path) = track_path(channel) else {
            continue;
        };
        let resampled = resampled(channel, settings);
        if resampled {
            made = made.saturating_add(source_keys(channel, settings)?);
            if made > max_keys {
                return Ok((per_node, None));
            }
        }
        let (times, values, _) = keys(channel, path, start, settings)?;
        let at = reach[channel.node];
        if resampled {
            per_node[channel.node] += resample_error(channel, path, start, &times, &values, at);
        }
        per_node[channel.node] += storage_error(&times, &values, path, at);
    }
    Ok((per_node, Some(made)))
}

/// Rates offered when a clip's resampling misses its tolerance: common
/// frame rates and their multiples, up to the most the characters kind
/// takes (1,000 Hz).
const RATES_HZ: [f64; 25] = [
    24.0, 25.0, 30.0, 48.0, 50.0, 60.0, 72.0, 90.0, 96.0, 100.0, 120.0, 144.0, 150.0, 180.0, 192.0,
    200.0, 240.0, 300.0, 360.0, 384.0, 480.0, 600.0, 720.0, 960.0, 1000.0,
];

/// Why a clip's resampling misses the tolerance, and what would meet it:
/// `resample: cubic` (LINEAR keys kept as they are) when that does at
/// this rate, and the lowest rate of [`RATES_HZ`] above this one that
/// does (trying rates while their keys together stay under
/// [`MAX_BANK_SOURCE_KEYS`]); when neither does, a larger `position_m`.
fn cannot_meet(
    clip: &Clip,
    start: f64,
    settings: &ClipSettings,
    reach: &[Reach],
    resampling: f64,
    tol: &Tolerance,
    scene: &Scene,
) -> String {
    let meets = |s: &ClipSettings, budget: &mut usize| -> Option<bool> {
        let (per_node, made) = floor_errors(clip, start, s, reach, *budget).ok()?;
        *budget -= made?;
        Some(chain_worst(scene, &per_node) <= tol.position_m)
    };
    let mut budget = MAX_BANK_SOURCE_KEYS;
    let cubic = settings.resample_all
        && meets(
            &ClipSettings {
                resample_all: false,
                ..*settings
            },
            &mut budget,
        ) == Some(true);
    let mut rate = None;
    for &r in RATES_HZ.iter().filter(|&&r| r > settings.resample_hz) {
        let s = ClipSettings {
            resample_hz: r,
            ..*settings
        };
        match meets(&s, &mut budget) {
            Some(true) => {
                rate = Some(r);
                break;
            }
            Some(false) => {}
            None => break,
        }
    }
    let hint = match (cubic, rate) {
        (true, Some(r)) => format!(
            "`resample: cubic` (LINEAR keys kept as they are) meets it, and so does `resample_hz: {r}`"
        ),
        (true, None) => "`resample: cubic` (LINEAR keys kept as they are) meets it".to_string(),
        (false, Some(r)) => format!("`resample_hz: {r}` meets it"),
        (false, None) => format!(
            "no rate up to {} Hz meets it: raise position_m",
            RATES_HZ[RATES_HZ.len() - 1]
        ),
    };
    format!(
        "resampled at {} Hz, the clip moves the skin up to {} from the source, more than the tolerance's position_m {} ({}); {hint}",
        settings.resample_hz,
        millimetres(resampling),
        tol.position_m,
        millimetres(tol.position_m)
    )
}

/// A distance in metres written in millimetres for a person: two decimals,
/// or two significant digits below 0.01 mm.
pub fn millimetres(m: f64) -> String {
    let mm = m * 1000.0;
    match mm {
        0.0 => "0 mm".to_string(),
        x if x >= 0.01 => format!("{x:.2} mm"),
        x => format!("{x:.1e} mm"),
    }
}

/// How far the linear keys `times`/`values` (from the clip's start) made
/// from `channel` stray from the channel itself, in metres where the skin
/// is ([`error_m`]). Checked at every source key inside each step; a
/// CUBICSPLINE source also at 7 points across each step (it is sampled);
/// a LINEAR one's rotations also halfway between each two neighbouring
/// key times of either (two slerps part most near their keys, not only
/// at them). A LINEAR translation or scale needs no more: the difference
/// of two piecewise linear functions is linear between their keys, so it
/// is largest at one of them, and at the output's keys it is zero.
fn resample_error(
    channel: &Channel,
    path: kchr::Path,
    start: f64,
    times: &[f64],
    values: &[f64],
    at: Reach,
) -> f64 {
    let w = path.width();
    let key = |i: usize| -> [f64; 4] { as4(&values[i * w..(i + 1) * w]) };
    let source = |t: f64| -> [f64; 4] {
        match path {
            kchr::Path::Rotation => sample::sample_rotation(channel, t + start, 0.0),
            _ => {
                let v = sample::sample3(channel, t + start, 0.0);
                [v[0], v[1], v[2], 0.0]
            }
        }
    };
    let cubic = channel.interpolation == Interpolation::CubicSpline;
    let halves = !cubic && path == kchr::Path::Rotation;
    let mut worst = 0.0f64;
    let mut src = 0;
    for k in 0..times.len().saturating_sub(1) {
        let (t0, t1) = (times[k], times[k + 1]);
        let mut check = |t: f64| {
            let u = (t - t0) / (t1 - t0);
            let out = lerp_key(path, key(k), key(k + 1), u);
            worst = worst.max(error_m(path, out, source(t), at));
        };
        if cubic {
            for j in 1..8 {
                check(t0 + (t1 - t0) * f64::from(j) / 8.0);
            }
        }
        while src < channel.times_s.len() && f64::from(channel.times_s[src]) - start <= t0 {
            src += 1;
        }
        let mut before = t0;
        while src < channel.times_s.len() && f64::from(channel.times_s[src]) - start < t1 {
            let t = f64::from(channel.times_s[src]) - start;
            if halves {
                check((before + t) / 2.0);
            }
            check(t);
            before = t;
            src += 1;
        }
        if halves {
            check((before + t1) / 2.0);
        }
    }
    worst
}

/// How far storing keys in float32 moves what the node carries, at most:
/// each key's value as a reader takes it (rotations normalized), and its
/// time, which moves the key along its neighbouring segments (by the
/// segment's change times the time's share of it). Between two keys the
/// interpolation of the stored values stays within the larger of their
/// two errors.
fn storage_error(times: &[f64], values: &[f64], path: kchr::Path, at: Reach) -> f64 {
    let width = path.width();
    let key = |i: usize| as4(&values[i * width..(i + 1) * width]);
    let n = times.len().min(values.len() / width);
    let mut worst = 0.0f64;
    for i in 0..n {
        let a = key(i);
        let mut b = a.map(|x| f64::from(x as f32));
        if path == kchr::Path::Rotation {
            b = math::quat_normalize(b);
        }
        let mut e = error_m(path, a, b, at);
        let shift = (f64::from(times[i] as f32) - times[i]).abs();
        if shift > 0.0 {
            let mut slope = 0.0f64;
            for (j, k) in [(i.wrapping_sub(1), i), (i, i + 1)] {
                if k < n && j < n && times[k] > times[j] {
                    slope = slope.max(error_m(path, key(j), key(k), at) / (times[k] - times[j]));
                }
            }
            e += slope * shift;
        }
        worst = worst.max(e);
    }
    worst
}

/// A track's keys (f64 times from the clip's start, flat values `width`
/// wide) in the output's float32, and how many were merged: times are
/// shifted in f64 and rounded once, so two source keys closer than a
/// float32 step at their time can meet; the later of them is kept (it
/// holds from that time on), so the times strictly increase.
pub(super) fn in_float32(
    times: &[f64],
    values: &[f64],
    width: usize,
) -> (Vec<f32>, Vec<f32>, usize) {
    let mut t32: Vec<f32> = Vec::with_capacity(times.len());
    let mut v32: Vec<f32> = Vec::with_capacity(values.len());
    let mut merged = 0;
    for (k, &t) in times.iter().enumerate() {
        let t = t as f32;
        let value = values[k * width..(k + 1) * width].iter().map(|&v| v as f32);
        if t32.last() == Some(&t) {
            merged += 1;
            let at = v32.len() - width;
            v32.truncate(at);
            t32.pop();
        }
        t32.push(t);
        v32.extend(value);
    }
    (t32, v32, merged)
}

/// Most keys one track of a source may have (or make, resampled) before
/// reduction: a minute at 10 kHz, far beyond any clip; it bounds one
/// track's memory (about 40 MB) and its reduction's work.
pub const MAX_TRACK_SOURCE_KEYS: usize = 1 << 20;

/// Most keys all the tracks of a bank's clips may have (or make) before
/// reduction, checked clip by clip before a clip's keys are made: the
/// bank's work (a reduction visits each key a few dozen times).
pub const MAX_BANK_SOURCE_KEYS: usize = 1 << 24;

/// Whether `channel`'s keys are made by resampling it at `resample_hz`:
/// CUBICSPLINE always, LINEAR with `resample_all`.
fn resampled(channel: &Channel, settings: &ClipSettings) -> bool {
    channel.interpolation == Interpolation::CubicSpline
        || (settings.resample_all && channel.interpolation == Interpolation::Linear)
}

/// How many keys `channel` has before reduction: its own, or, resampled,
/// one per step of `1 / resample_hz` from its first key to its last and
/// the last. Refused beyond [`MAX_TRACK_SOURCE_KEYS`].
fn source_keys(channel: &Channel, settings: &ClipSettings) -> Result<usize, Error> {
    let n = match resampled(channel, settings) {
        false => channel.times_s.len(),
        true => {
            let first = f64::from(channel.times_s[0]);
            let last = f64::from(*channel.times_s.last().expect("a channel has keys"));
            let (rate, span) = (settings.resample_hz, last - first);
            let steps = (span * rate).ceil();
            if !(steps.is_finite() && steps < MAX_TRACK_SOURCE_KEYS as f64) {
                return err(format!(
                    "resampling {span} s at {rate} Hz makes more than the {MAX_TRACK_SOURCE_KEYS} keys a track may have"
                ));
            }
            steps as usize + 1
        }
    };
    if n > MAX_TRACK_SOURCE_KEYS {
        return err(format!(
            "a channel has {n} keys, more than the {MAX_TRACK_SOURCE_KEYS} a track may have"
        ));
    }
    Ok(n)
}

/// The keys the clip's tracks have (or make, resampled) before reduction,
/// counted without making them: what [`clip`] will hold, one track at a
/// time, and the work of reducing them. Morph weight channels are not
/// counted (they are dropped).
pub fn clip_source_keys(clip: &Clip, settings: &ClipSettings) -> Result<usize, Error> {
    let mut total = 0usize;
    for channel in &clip.channels {
        if !matches!(channel.target, Target::Weights { .. }) {
            total = total.saturating_add(source_keys(channel, settings)?);
        }
    }
    Ok(total)
}

/// A channel's keys as (times from 0, flat values, step), in f64:
/// STEP and LINEAR as they are (rotations normalized), CUBICSPLINE (or any,
/// with `resample_all`) evaluated at `resample_hz` from its first key to
/// its last (which is always a key).
pub(super) fn keys(
    channel: &Channel,
    path: kchr::Path,
    start: f64,
    settings: &ClipSettings,
) -> Result<(Vec<f64>, Vec<f64>, bool), Error> {
    let width = path.width();
    let first = f64::from(channel.times_s[0]);
    let last = f64::from(*channel.times_s.last().expect("a channel has keys"));
    let resample = resampled(channel, settings);
    let sample = |t: f64, tol: f64| -> Vec<f64> {
        match path {
            kchr::Path::Rotation => sample::sample_rotation(channel, t, tol).to_vec(),
            _ => sample::sample3(channel, t, tol).to_vec(),
        }
    };
    if !resample {
        source_keys(channel, settings)?;
        let mut values = Vec::with_capacity(channel.times_s.len() * width);
        for &t in &channel.times_s {
            values.extend(sample(f64::from(t), 0.0));
        }
        let times = channel
            .times_s
            .iter()
            .map(|&t| f64::from(t) - start)
            .collect();
        return Ok((times, values, channel.interpolation == Interpolation::Step));
    }
    let rate = settings.resample_hz;
    let n = source_keys(channel, settings)? - 1;
    let mut times = Vec::with_capacity(n + 1);
    let mut values = Vec::with_capacity((n + 1) * width);
    // The grid and the last key meet in the time domain the output uses
    // (float32 seconds from the clip's start): a grid time that is not
    // before the last key's there is the last key's (at 24 or 30 Hz the
    // grid time 55/30 and a last key of f32(55/30) are different f64s
    // but one float32).
    let last_out = (last - start) as f32;
    for k in 0..n {
        // Each key is the source at the time the output stores for it.
        let out = (first + k as f64 / rate - start) as f32;
        if out >= last_out {
            break;
        }
        times.push(f64::from(out));
        values.extend(sample(f64::from(out) + start, 0.0));
    }
    times.push(last - start);
    values.extend(sample(last, 0.0));
    Ok((times, values, false))
}
