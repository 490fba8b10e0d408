//! The writer: a validated [`Sequence`] into CGeo bytes.

use super::validate::validate;
use super::{
    Error, Header, KEY_COMPRESSED, KEY_MATERIAL, KEY_OBJECT, KEY_SCALE, KEY_SNAPSHOTS, KEY_START,
    KEY_TIME_PER_SNAPSHOT, KEY_VERSION, Line, MAGIC, MAX_HEADER_BYTES, Mesh, Rule, Sequence,
    Snapshot, TAG_ANIM_TABLE_END, TAG_ANIM_TABLE_START, TAG_ANIMATION_SNAPSHOT_END,
    TAG_ANIMATION_SNAPSHOT_START, TAG_BOUNDING_BOX, TAG_MESH_DATA, TAG_MESH_MAP_COORDS_END,
    TAG_MESH_NORMALS_END, TAG_MESH_VERTICES_END, TAG_POINTCLOUD, TOPOLOGY_CHANGING, VERSION,
};

/// Writes `seq` (which must be valid: see [`validate`]).
pub fn encode(seq: &Sequence) -> Result<Vec<u8>, Error> {
    let problems = validate(seq);
    if !problems.is_empty() {
        return Err(Error::at(
            0,
            Rule::Invalid(crate::formats::problem::join(&problems)),
        ));
    }
    let first = &seq.snapshots[0].mesh;
    let snapshots: Vec<Vec<u8>> = seq
        .snapshots
        .iter()
        .map(|s| encode_snapshot(s, first, seq.header.compressed))
        .collect();
    let lengths: Vec<u64> = snapshots.iter().map(|s| s.len() as u64).collect();
    let mut out = encode_prefix(&seq.header, seq.topology_changing, &lengths)?;
    for s in snapshots {
        out.extend_from_slice(&s);
    }
    Ok(out)
}

/// The start of a file: the magic, the header, the flags and the offset
/// table, for snapshots of the encoded `lengths` ([`encode_snapshot`]'s)
/// that follow it in order. With [`encode_snapshot`], a writer that holds
/// one snapshot at a time: call it once per snapshot to learn the lengths,
/// write this, then each snapshot again (checked with
/// [`validate_header`](super::validate_header) and [`validate_snapshot`](super::validate_snapshot)).
pub fn encode_prefix(
    h: &Header,
    topology_changing: bool,
    lengths: &[u64],
) -> Result<Vec<u8>, Error> {
    let mut text = String::new();
    let bool_text = if h.compressed { "True" } else { "False" };
    for (k, v) in [
        (KEY_VERSION, VERSION.to_string()),
        (KEY_SNAPSHOTS, h.snapshots.to_string()),
        (KEY_TIME_PER_SNAPSHOT, h.time_per_snapshot_us.to_string()),
        (KEY_START, h.start_us.to_string()),
        (KEY_SCALE, format!("{:?}", h.scale)),
        (KEY_MATERIAL, h.material.clone()),
        (KEY_OBJECT, h.object.clone()),
        (KEY_COMPRESSED, bool_text.to_string()),
    ] {
        text.push_str(&format!("{k}: {v}\n"));
    }
    for line in &h.other {
        match line {
            Line::Property(k, v) => text.push_str(&format!("{k}: {v}\n")),
            Line::Text(t) => text.push_str(&format!("{t}\n")),
        }
    }
    let header_len = u32::try_from(text.len())
        .ok()
        .filter(|&n| n <= MAX_HEADER_BYTES)
        .ok_or(Error::at(1, Rule::HeaderLength(u32::MAX)))?;
    if lengths.len() != h.snapshots as usize {
        return Err(Error::at(
            0,
            Rule::Invalid(format!(
                "the header says {} snapshots, {} were given",
                h.snapshots,
                lengths.len()
            )),
        ));
    }
    let mut out = vec![MAGIC];
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    let flags = if topology_changing {
        TOPOLOGY_CHANGING
    } else {
        0
    };
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&TAG_ANIM_TABLE_START.to_le_bytes());
    // Each entry points past its snapshot's start tag, at its first
    // section.
    let mut at = (out.len() + 8 * lengths.len() + 4) as u64;
    for len in lengths {
        out.extend_from_slice(&(at + 4).to_le_bytes());
        at += len;
    }
    out.extend_from_slice(&TAG_ANIM_TABLE_END.to_le_bytes());
    Ok(out)
}

/// One snapshot's bytes, its start tag to its end tag (`first` is
/// snapshot 0's mesh, which a difference snapshot is stored against).
pub fn encode_snapshot(s: &Snapshot, first: &Mesh, compressed: bool) -> Vec<u8> {
    let mut out = TAG_ANIMATION_SNAPSHOT_START.to_le_bytes().to_vec();
    let order = if s.order.is_empty() {
        default_order(s)
    } else {
        s.order.clone()
    };
    for id in order {
        let payload = match id {
            TAG_MESH_DATA => Some(mesh_payload(&s.mesh, s.complete, first)),
            TAG_BOUNDING_BOX => s.bounding_box.map(|b| f32_bytes(&b)),
            TAG_POINTCLOUD => s.point_cloud.as_ref().map(|c| {
                let mut p = (c.len() as u64).to_le_bytes().to_vec();
                p.extend(c.iter().flat_map(|v| f32_bytes(v)));
                p
            }),
            _ => None,
        };
        let stored = match payload {
            Some(p) if compressed => miniz_oxide::deflate::compress_to_vec_zlib(&p, 6),
            Some(p) => p,
            None => match s.unknown.iter().find(|(u, _)| *u == id) {
                Some((_, raw)) => raw.clone(),
                None => continue,
            },
        };
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&(stored.len() as u64).to_le_bytes());
        out.extend_from_slice(&stored);
    }
    out.extend_from_slice(&TAG_ANIMATION_SNAPSHOT_END.to_le_bytes());
    out
}

fn default_order(s: &Snapshot) -> Vec<u32> {
    let mut order = vec![TAG_MESH_DATA];
    order.extend(s.bounding_box.map(|_| TAG_BOUNDING_BOX));
    order.extend(s.point_cloud.as_ref().map(|_| TAG_POINTCLOUD));
    order.extend(s.unknown.iter().map(|(id, _)| *id));
    order
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn mesh_payload(m: &Mesh, complete: bool, first: &Mesh) -> Vec<u8> {
    let mut p = Vec::new();
    let put3 = |p: &mut Vec<u8>, v: &[[f32; 3]]| p.extend(v.iter().flat_map(|x| f32_bytes(x)));
    let diff = |a: &[[f32; 3]], b: &[[f32; 3]]| -> Vec<[f32; 3]> {
        a.iter()
            .zip(b)
            .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
            .collect()
    };
    if !complete {
        p.push(0);
        put3(&mut p, &diff(&m.vertices, &first.vertices));
        p.extend_from_slice(&TAG_MESH_VERTICES_END.to_le_bytes());
        put3(&mut p, &diff(&m.normals, &first.normals));
        p.extend_from_slice(&TAG_MESH_NORMALS_END.to_le_bytes());
        for (c, f) in m.channels.iter().zip(&first.channels) {
            put3(&mut p, &diff(c, f));
        }
        p.extend_from_slice(&TAG_MESH_MAP_COORDS_END.to_le_bytes());
        return p;
    }
    p.push(1);
    for n in [
        m.vertices.len(),
        m.normals.len(),
        m.channels.len(),
        m.triangles.len(),
    ] {
        p.extend_from_slice(&(n as u32).to_le_bytes());
    }
    put3(&mut p, &m.vertices);
    p.extend_from_slice(&TAG_MESH_VERTICES_END.to_le_bytes());
    put3(&mut p, &m.normals);
    p.extend_from_slice(&TAG_MESH_NORMALS_END.to_le_bytes());
    for c in &m.channels {
        p.extend_from_slice(&(c.len() as u32).to_le_bytes());
        put3(&mut p, c);
    }
    p.extend_from_slice(&TAG_MESH_MAP_COORDS_END.to_le_bytes());
    let channels = m.channels.len();
    for (i, t) in m.triangles.iter().enumerate() {
        for x in t.vertices.iter().chain(&t.normals) {
            p.extend_from_slice(&x.to_le_bytes());
        }
        for m3 in &m.map_indices[i * channels..(i + 1) * channels] {
            for x in m3 {
                p.extend_from_slice(&x.to_le_bytes());
            }
        }
        p.extend_from_slice(&t.material.to_le_bytes());
        p.push(t.edges);
    }
    p
}
