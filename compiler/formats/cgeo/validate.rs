//! Every rule a [`Sequence`] must keep to be written, as problems.

use crate::formats::problem::Problem;

use super::payload::inflate_section;
use super::{
    Header, Line, MANDATORY, MAX_ELEMENTS, MAX_MAP_CHANNELS, MAX_SNAPSHOTS, Mesh, Sequence,
    Snapshot, TAG_ANIMATION_SNAPSHOT_END, TAG_BOUNDING_BOX, TAG_MESH_DATA, TAG_POINTCLOUD,
};

/// Every problem that would make `seq` an invalid file.
pub fn validate(seq: &Sequence) -> Vec<Problem> {
    let mut problems = Vec::new();
    let h = &seq.header;
    if seq.snapshots.len() != h.snapshots as usize {
        problems.push(Problem::of(
            "",
            format!(
                "the header says {} snapshots, the sequence has {}",
                h.snapshots,
                seq.snapshots.len()
            ),
        ));
    }
    if seq.snapshots.is_empty() || seq.snapshots.len() as u64 > MAX_SNAPSHOTS {
        problems.push(Problem::of(
            "",
            format!("{} snapshots (1 to {MAX_SNAPSHOTS})", seq.snapshots.len()),
        ));
    }
    problems.extend(validate_header(h));
    let Some(first) = seq.snapshots.first() else {
        return problems;
    };
    for (k, s) in seq.snapshots.iter().enumerate() {
        problems.extend(validate_snapshot(
            k,
            s,
            &first.mesh,
            seq.topology_changing,
            h.compressed,
        ));
    }
    problems
}

/// Every problem of a header (its snapshot count aside, which is the
/// sequence's).
pub fn validate_header(h: &Header) -> Vec<Problem> {
    let mut problems = Vec::new();
    if h.time_per_snapshot_us == 0 && h.snapshots > 1 {
        problems.push(Problem::of(
            "",
            "time per snapshot is 0 with several snapshots",
        ));
    }
    if !(h.scale.is_finite() && h.scale >= 0.0) {
        problems.push(Problem::of(
            "",
            format!("scale {} is not a finite number, 0 or more", h.scale),
        ));
    }
    for line in &h.other {
        let text = match line {
            Line::Property(k, v) => {
                if MANDATORY.contains(&k.trim()) {
                    problems.push(Problem::of(
                        "",
                        format!("header property {k:?} is set by the header's own fields"),
                    ));
                }
                if k.contains(':') || k.trim() != k || v.trim() != v {
                    problems.push(Problem::of("", format!(
                        "header property {k:?}: a key without colons, neither key nor value padded"
                    )));
                }
                format!("{k}{v}")
            }
            Line::Text(t) => {
                if t.contains(':') || t.trim() != t || t.is_empty() {
                    problems.push(Problem::of(
                        "",
                        format!("free text {t:?} must be non-empty, unpadded and without a colon"),
                    ));
                }
                t.clone()
            }
        };
        if text.contains('\n') {
            problems.push(Problem::of("", "a header line holds a line break"));
        }
    }
    for (k, name) in [(0, &h.material), (1, &h.object)] {
        if name.contains('\n') || name.trim() != name {
            problems.push(Problem::of(
                "",
                format!(
                    "{} {name:?} holds a line break or padding",
                    MANDATORY[5 + k]
                ),
            ));
        }
    }
    problems
}

/// Every problem of snapshot `k` (`first` is snapshot 0's mesh).
pub fn validate_snapshot(
    k: usize,
    s: &Snapshot,
    first: &Mesh,
    topology_changing: bool,
    compressed: bool,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    {
        let complete = k == 0 || topology_changing;
        if s.complete != complete {
            problems.push(Problem::of(
                format!("snapshot {k}"),
                format!(
                    "{} (complete: {complete})",
                    if complete {
                        "must be complete"
                    } else {
                        "must be a difference"
                    }
                ),
            ));
        }
        check_mesh(&s.mesh, complete, first, k, &mut problems);
        if let Some(b) = s.bounding_box
            && !(b.iter().all(|x| x.is_finite()) && (0..3).all(|i| b[i] <= b[i + 3]))
        {
            problems.push(Problem::of(
                format!("snapshot {k}"),
                "bounding box min above max, or not finite",
            ));
        }
        if let Some(c) = &s.point_cloud {
            if c.len() as u64 > MAX_ELEMENTS {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    format!("{} points", c.len()),
                ));
            }
            if c.iter().flatten().any(|x| !x.is_finite()) {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    "a point is not finite",
                ));
            }
        }
        let mut ids: Vec<u32> = s.unknown.iter().map(|(id, _)| *id).collect();
        for (id, _) in &s.unknown {
            if matches!(
                *id,
                TAG_MESH_DATA | TAG_BOUNDING_BOX | TAG_POINTCLOUD | TAG_ANIMATION_SNAPSHOT_END
            ) {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    format!("unknown section id 0x{id:08X} is a known tag"),
                ));
            }
        }
        ids.push(TAG_MESH_DATA);
        ids.extend(s.bounding_box.map(|_| TAG_BOUNDING_BOX));
        ids.extend(s.point_cloud.as_ref().map(|_| TAG_POINTCLOUD));
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            problems.push(Problem::of(format!("snapshot {k}"), "a section id twice"));
        }
        if !s.order.is_empty() {
            let mut order = s.order.clone();
            order.sort_unstable();
            if order != ids {
                problems.push(Problem::of(
                    format!("snapshot {k}"),
                    "the section order does not list its sections",
                ));
            }
        }
        if compressed {
            for (id, payload) in &s.unknown {
                if inflate_section(payload).is_err() {
                    problems.push(Problem::of(
                        format!("snapshot {k}"),
                        format!(
                            "unknown section 0x{id:08X} of a compressed file is not a zlib stream"
                        ),
                    ));
                }
            }
        }
    }
    problems
}

fn check_mesh(m: &Mesh, complete: bool, first: &Mesh, k: usize, problems: &mut Vec<Problem>) {
    let mut say = |m: String| problems.push(Problem::of(format!("snapshot {k}"), m));
    for (what, n) in [
        ("vertices", m.vertices.len()),
        ("normals", m.normals.len()),
        ("triangles", m.triangles.len()),
    ] {
        if n as u64 > MAX_ELEMENTS {
            say(format!("{n} {what}, more than {MAX_ELEMENTS}"));
        }
    }
    if m.channels.len() as u64 > MAX_MAP_CHANNELS {
        say(format!("{} map channels", m.channels.len()));
    }
    let finite = |v: &[[f32; 3]]| v.iter().flatten().all(|x| x.is_finite());
    if !finite(&m.vertices) || !finite(&m.normals) || !m.channels.iter().all(|c| finite(c)) {
        say("a value is not finite".into());
    }
    if !complete {
        let same = m.vertices.len() == first.vertices.len()
            && m.normals.len() == first.normals.len()
            && m.channels.len() == first.channels.len()
            && m.channels
                .iter()
                .zip(&first.channels)
                .all(|(a, b)| a.len() == b.len());
        if !same {
            say("a difference snapshot has other counts than snapshot 0".into());
        }
        if !m.triangles.is_empty() || !m.map_indices.is_empty() {
            say("a difference snapshot holds topology".into());
        }
        return;
    }
    if m.map_indices.len() != m.triangles.len() * m.channels.len() {
        say("map indices are not one triple per triangle and channel".into());
        return;
    }
    for (i, t) in m.triangles.iter().enumerate() {
        if t.vertices.iter().any(|&x| x as usize >= m.vertices.len())
            || t.normals.iter().any(|&x| x as usize >= m.normals.len())
        {
            say(format!("triangle {i}: an index out of range"));
        }
        if t.edges & !7 != 0 {
            say(format!("triangle {i}: edge bits other than 0, 1, 2"));
        }
        for (c, ch) in m.channels.iter().enumerate() {
            if m.map_indices[i * m.channels.len() + c]
                .iter()
                .any(|&x| x as usize >= ch.len())
            {
                say(format!("triangle {i}: map index out of range"));
            }
        }
    }
}
