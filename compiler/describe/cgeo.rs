//! A Corona CGeo sequence, described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::cgeo;

pub struct CgeoFile {
    pub header: cgeo::Header,
    pub topology_changing: bool,
    pub bytes: usize,
    pub snapshots: Vec<CgeoSnapshot>,
    /// The first snapshots as `kiln view` draws them (kept only for it,
    /// at most [`MAX_DRAWN_ITEMS`] vertices and triangles in all).
    pub drawn: Vec<DrawnSnapshot>,
}

/// The most vertices and triangles of one CGeo sequence `kiln view`
/// draws, over all its snapshots (later snapshots are left out, and
/// counted): the page carries each as three numbers.
pub const MAX_DRAWN_ITEMS: usize = 250_000;

/// One snapshot's mesh as the page draws it.
pub struct DrawnSnapshot {
    pub vertices: Vec<[f32; 3]>,
    /// Its triangles, when not those of the snapshot drawn before it.
    pub triangles: Option<Vec<[u32; 3]>>,
}

/// What one snapshot holds.
pub struct CgeoSnapshot {
    pub complete: bool,
    pub vertices: usize,
    pub normals: usize,
    pub map_channels: usize,
    /// Snapshot 0's for a difference snapshot.
    pub triangles: usize,
    pub bounding_box: Option<[f32; 6]>,
    pub points: Option<usize>,
    pub unknown_sections: Vec<u32>,
}

pub(super) fn data(c: &CgeoFile) -> Value {
    let h = &c.header;
    let bounds = |s: &CgeoSnapshot| {
        s.bounding_box
            .map(|b| json!({"min": &b[..3], "max": &b[3..]}))
    };
    let other: Vec<Value> = h
        .other
        .iter()
        .map(|l| match l {
            crate::formats::cgeo::Line::Property(k, v) => json!({"key": k, "value": v}),
            crate::formats::cgeo::Line::Text(t) => json!({"text": t}),
        })
        .collect();
    let n = c.snapshots.len() as i64;
    let step = h.time_per_snapshot_us as i64;
    json!({
        "format": "cgeo",
        "version": crate::formats::cgeo::VERSION,
        "bytes": c.bytes,
        "compressed": h.compressed,
        "topology_changing": c.topology_changing,
        "object": h.object,
        "material": h.material,
        "scale": h.scale,
        "time_per_snapshot_us": h.time_per_snapshot_us,
        "start_us": h.start_us,
        "end_us": h.start_us + (n - 1) * step,
        "header": other,
        "snapshots": c.snapshots.iter().enumerate().map(|(k, s)| json!({
            "index": k,
            "time_us": h.start_us + k as i64 * step,
            "complete": s.complete,
            "vertices": s.vertices,
            "normals": s.normals,
            "map_channels": s.map_channels,
            "triangles": s.triangles,
            "bounding_box": bounds(s),
            "points": s.points,
            "unknown_sections": s.unknown_sections.iter().map(|id| format!("0x{id:08X}")).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The sequence as `kiln view`'s page draws it: each drawn snapshot's
/// vertices (base64 little-endian `f32`s) and, where they change, its
/// triangles (base64 little-endian `u32` vertex indices).
pub(super) fn scene(c: &CgeoFile) -> Value {
    let h = &c.header;
    json!({
        "kind": "meshes",
        "frames": c.drawn.len(),
        "frames_in_file": c.snapshots.len(),
        "start_us": h.start_us,
        "time_per_snapshot_us": h.time_per_snapshot_us,
        "snapshots": c.drawn.iter().map(|d| {
            let mut v = json!({
                "vertex_count": d.vertices.len(),
                "positions": super::f32s_base64(d.vertices.iter().flatten().copied()),
            });
            if let Some(t) = &d.triangles {
                v["triangles"] = super::le_base64(t.iter().flatten().map(|i| i.to_le_bytes())).into();
            }
            v
        }).collect::<Vec<_>>(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, c: &CgeoFile) -> io::Result<()> {
    let v = data(c);
    let h = &c.header;
    say!(
        o,
        "{}: CGeo v7, {} snapshot(s) of {:?} ({}), {}{}, {} bytes",
        file,
        c.snapshots.len(),
        h.object,
        if h.material == "[none]" {
            "no material".to_string()
        } else {
            format!("material {:?}", h.material)
        },
        if h.compressed {
            "zlib-compressed"
        } else {
            "uncompressed"
        },
        if c.topology_changing {
            ", topology changing"
        } else {
            ""
        },
        c.bytes
    );
    say!(
        o,
        "  time {} to {} us, every {} us; scale {} (x millimetres{})",
        h.start_us,
        v["end_us"],
        h.time_per_snapshot_us,
        h.scale,
        if h.scale == 0.0 { ", unknown" } else { "" }
    );
    for (k, s) in c.snapshots.iter().enumerate() {
        let bounds = s.bounding_box.map_or("no bounding box".to_string(), |b| {
            format!(
                "bounds [{}, {}, {}] .. [{}, {}, {}]",
                b[0], b[1], b[2], b[3], b[4], b[5]
            )
        });
        say!(
            o,
            "  [{k}] {} {} vertices, {} normals, {} map channels, {} triangles; {}; {}{}",
            if s.complete {
                "complete:"
            } else {
                "difference:"
            },
            s.vertices,
            s.normals,
            s.map_channels,
            s.triangles,
            bounds,
            s.points
                .map_or("no point cloud".to_string(), |p| format!("{p} points")),
            if s.unknown_sections.is_empty() {
                String::new()
            } else {
                format!("; {} unknown section(s)", s.unknown_sections.len())
            }
        );
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(c: &CgeoFile) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid CGeo v7 ({} snapshots, {}, {} vertices in snapshot 0)",
        c.snapshots.len(),
        if c.header.compressed {
            "zlib"
        } else {
            "uncompressed"
        },
        c.snapshots.first().map_or(0, |s| s.vertices)
    ))
}
