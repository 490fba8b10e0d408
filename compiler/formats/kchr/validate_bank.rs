//! The rules of an animation bank and of its binding to each model that
//! uses it: every animated node present, every accumulated transform in
//! bounds.

use std::collections::BTreeSet;

use super::checks::{Problems, check_count, check_name, check_unit, duplicates, finite_all, norm2};
use super::{
    Bank, Clip, Loc, MAX_ACCUMULATED_SCALE, MAX_ACCUMULATED_TRANSLATION, MAX_CLIPS, MAX_DURATION_S,
    MAX_KEYS, MAX_TRACKS, MIN_ACCUMULATED_SCALE, Model, Path, Track,
};

pub(super) fn check_bank(b: usize, bank: &Bank, p: &mut Problems) {
    let here = Loc::Bank(b);
    check_name(p, here, "id", &bank.id);
    check_count(p, here, "clips", bank.clips.len(), 0, MAX_CLIPS);
    for (c, first) in duplicates(bank.clips.iter().map(|c| c.name.as_str())) {
        p.add(
            Loc::Clip(b, c),
            "name",
            format!(
                "duplicate clip name \"{}\" (clips[{first}] has it)",
                bank.clips[c].name
            ),
        );
    }
    let keys: usize = bank
        .clips
        .iter()
        .flat_map(|c| &c.tracks)
        .map(Track::keys)
        .sum();
    if keys > MAX_KEYS {
        p.add(
            here,
            "",
            format!("holds {keys} keys, more than the limit of {MAX_KEYS} per bank"),
        );
    }
    for (c, clip) in bank.clips.iter().enumerate() {
        check_clip(b, c, clip, p);
    }
}

fn check_clip(b: usize, c: usize, clip: &Clip, p: &mut Problems) {
    let here = Loc::Clip(b, c);
    check_name(p, here, "name", &clip.name);
    let duration = clip.duration_s;
    if !(0.0..=MAX_DURATION_S).contains(&duration) {
        p.add(
            here,
            "duration",
            format!("must be 0 to {MAX_DURATION_S} seconds, found {duration}"),
        );
    }
    check_count(p, here, "tracks", clip.tracks.len(), 0, MAX_TRACKS);
    for (t, pair) in clip.tracks.windows(2).enumerate() {
        let (a, z) = (&pair[0], &pair[1]);
        let order = (a.node.as_bytes(), a.path).cmp(&(z.node.as_bytes(), z.path));
        let at = Loc::Track(b, c, t + 1);
        match order {
            std::cmp::Ordering::Equal => p.add(
                at,
                "",
                format!(
                    "node \"{}\" and path {} appear twice in the clip",
                    z.node,
                    z.path.name()
                ),
            ),
            std::cmp::Ordering::Greater => p.add(
                at,
                "",
                format!(
                    "tracks must be ordered by node name then path: ({}, {}) comes after ({}, {})",
                    z.node,
                    z.path.name(),
                    a.node,
                    a.path.name()
                ),
            ),
            std::cmp::Ordering::Less => {}
        }
    }
    for (t, track) in clip.tracks.iter().enumerate() {
        let at = Loc::Track(b, c, t);
        check_name(p, at, "node", &track.node);
        let n = track.keys();
        if n == 0 {
            p.add(at, "times", "a track needs at least 1 key".to_string());
        }
        let width = track.path.width();
        if track.values.len() != n * width {
            p.add(
                at,
                "values",
                format!(
                    "must hold {width} values per key ({}), found {}",
                    n * width,
                    track.values.len()
                ),
            );
            continue;
        }
        let mut last = None::<f32>;
        for (k, &time) in track.times_s.iter().enumerate() {
            let at = Loc::KeyTime(b, c, t, k);
            if !time.is_finite() || time < 0.0 || time > duration {
                p.add(
                    at,
                    "",
                    format!("a key time must be within 0 and the clip's duration {duration} s, found {time}"),
                );
            } else if let Some(prev) = last.filter(|&prev| time <= prev) {
                p.add(
                    at,
                    "",
                    format!("key times must strictly increase: {time} follows {prev}"),
                );
            }
            last = Some(time);
        }
        for (k, value) in track.values.chunks_exact(width).enumerate() {
            let at = Loc::KeyValue(b, c, t, k);
            if finite_all(p, at, "", value) && track.path == Path::Rotation {
                check_unit(p, at, "", value);
            }
        }
    }
}

/// Every track of `bank` names a node of `model`, and the accumulated
/// bounds hold for every combination of its clips.
pub(super) fn check_binding(
    m: usize,
    model: &Model,
    bank: &Bank,
    rooted: &[bool],
    p: &mut Problems,
) {
    let reach = node_reach(m, model, bank, p);
    check_accumulated(m, model, bank, rooted, &reach, p);
}

/// Per node, over the bind transform and every key of the bank: the least
/// and greatest scale component magnitude and the longest translation.
struct Reach {
    smin: Vec<f64>,
    smax: Vec<f64>,
    tmax: Vec<f64>,
}

/// Each node's [`Reach`] under `bank`, reporting the tracks whose node the
/// model lacks and the scale keys that cross zero.
fn node_reach(m: usize, model: &Model, bank: &Bank, p: &mut Problems) -> Reach {
    let index: std::collections::BTreeMap<&str, usize> = model
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i))
        .collect();
    let mut missing = BTreeSet::new();
    let n_nodes = model.nodes.len();
    let mut smin = vec![f64::INFINITY; n_nodes];
    let mut smax = vec![0.0f64; n_nodes];
    let mut tmax = vec![0.0f64; n_nodes];
    for (n, node) in model.nodes.iter().enumerate() {
        for &s in &node.scale {
            smin[n] = smin[n].min(f64::from(s).abs());
            smax[n] = smax[n].max(f64::from(s).abs());
        }
        tmax[n] = norm2(&node.translation).sqrt();
    }
    // A bank's bounds rules are checked per model, against the bank's
    // locations: the keys are the bank's.
    let b = model.bank as usize;
    for (c, clip) in bank.clips.iter().enumerate() {
        for (t, track) in clip.tracks.iter().enumerate() {
            let Some(&n) = index.get(track.node.as_str()) else {
                missing.insert(track.node.as_str());
                continue;
            };
            let width = track.path.width();
            for (k, value) in track.values.chunks_exact(width).enumerate() {
                match track.path {
                    Path::Rotation => {}
                    Path::Translation => tmax[n] = tmax[n].max(norm2(value).sqrt()),
                    Path::Scale => {
                        for (axis, &s) in value.iter().enumerate() {
                            let bind = model.nodes[n].scale[axis];
                            if s == 0.0 || (s < 0.0) != (bind < 0.0) {
                                p.add(
                                    Loc::KeyValue(b, c, t, k),
                                    "",
                                    format!(
                                        "models[{m}] ({}): scale {s} on axis {axis} of node \"{}\" crosses the bind scale {bind} through zero (a singular transform)",
                                        model.id, track.node
                                    ),
                                );
                            }
                            smin[n] = smin[n].min(f64::from(s).abs());
                            smax[n] = smax[n].max(f64::from(s).abs());
                        }
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|n| format!("\"{n}\"")).collect();
        p.add(
            Loc::Model(m),
            "bank",
            format!(
                "the model lacks {} node{} its bank \"{}\" animates: {}",
                names.len(),
                if names.len() == 1 { "" } else { "s" },
                bank.id,
                names.join(", ")
            ),
        );
    }
    Reach { smin, smax, tmax }
}

/// The accumulated scale and translation along each chain of `model`,
/// parents first, within their bounds: reported where a chain first goes
/// out of them (its descendants follow).
fn check_accumulated(
    m: usize,
    model: &Model,
    bank: &Bank,
    rooted: &[bool],
    reach: &Reach,
    p: &mut Problems,
) {
    let Reach { smin, smax, tmax } = reach;
    let n_nodes = model.nodes.len();
    // Nodes on a cycle or under a bad parent are reported elsewhere and
    // skipped here.
    let mut acc: Vec<Option<(f64, f64, f64)>> = vec![None; n_nodes];
    for start in 0..n_nodes {
        if !rooted[start] || acc[start].is_some() {
            continue;
        }
        let mut chain = vec![start];
        while let Some(parent) = model.nodes[*chain.last().unwrap()].parent {
            let parent = parent as usize;
            if acc[parent].is_some() {
                break;
            }
            chain.push(parent);
        }
        while let Some(n) = chain.pop() {
            let (pmin, pmax, pt) = model.nodes[n]
                .parent
                .and_then(|q| acc[q as usize])
                .unwrap_or((1.0, 1.0, 0.0));
            let a = (pmin * smin[n], pmax * smax[n], pt + pmax * tmax[n]);
            acc[n] = Some(a);
            let (amin, amax, at) = a;
            let here = Loc::Node(m, n);
            // Only where a chain first goes out of bounds: its descendants
            // follow.
            let scale_ok = |lo: f64, hi: f64| {
                (MIN_ACCUMULATED_SCALE..=MAX_ACCUMULATED_SCALE).contains(&lo)
                    && (MIN_ACCUMULATED_SCALE..=MAX_ACCUMULATED_SCALE).contains(&hi)
            };
            if !scale_ok(amin, amax) && scale_ok(pmin, pmax) {
                p.add(
                    here,
                    "scale",
                    format!(
                        "accumulated scale magnitude may reach {amin:e} to {amax:e} over the bind pose and bank \"{}\"; it must stay within {MIN_ACCUMULATED_SCALE:e} and {MAX_ACCUMULATED_SCALE:e}",
                        bank.id
                    ),
                );
            }
            if at >= MAX_ACCUMULATED_TRANSLATION && pt < MAX_ACCUMULATED_TRANSLATION {
                p.add(
                    here,
                    "translation",
                    format!(
                        "accumulated translation may reach {at:e} over the bind pose and bank \"{}\"; it must stay below {MAX_ACCUMULATED_TRANSLATION:e}",
                        bank.id
                    ),
                );
            }
        }
    }
}
