//! A OneScope pose cache (`.ospc`), described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::ospc::{self, PoseCache, Shape};

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Point => "point",
        Shape::Sphere => "sphere",
        Shape::Box => "box",
        Shape::Capsule => "capsule",
    }
}

fn absent_count(c: &PoseCache) -> usize {
    c.poses.iter().filter(|p| p.is_absent()).count()
}

pub(super) fn data(c: &PoseCache) -> Value {
    json!({
        "format": "onescope pose cache",
        "version": ospc::VERSION,
        "dimensions": c.dimensions,
        "start_step": c.start_step,
        "frames": c.n_frames(),
        "metres_per_unit": c.metres_per_unit,
        "unit_name": c.unit_name,
        "module_id": c.module_id,
        "library_version": c.library_version,
        "scene": c.scene,
        "replay": c.replay,
        "label": c.label,
        "absent_poses": absent_count(c),
        "entities": c.entities.iter().map(|e| json!({
            "id": e.id,
            "name": e.name,
            "shape": shape_name(e.shape),
            "size": e.size,
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, c: &PoseCache) -> io::Result<()> {
    say!(o, "{}: OneScope pose cache v{}", file, ospc::VERSION);
    say!(
        o,
        "  {} entities x {} frames, {}-D, steps {}..{}",
        c.entities.len(),
        c.n_frames(),
        c.dimensions,
        c.start_step,
        c.start_step + c.n_frames() as i64 - 1
    );
    say!(
        o,
        "  unit: {:?} ({} m per unit)",
        c.unit_name,
        c.metres_per_unit
    );
    say!(
        o,
        "  origin: module {:?}, version {:?}, scene {:?}, replay {:?}",
        c.module_id,
        c.library_version,
        c.scene,
        c.replay
    );
    say!(o, "  label: {:?}", c.label);
    say!(o, "  absent poses: {}", absent_count(c));
    for e in &c.entities {
        say!(
            o,
            "  entity {:016x} {:<8} {:?} {:?}",
            e.id,
            shape_name(e.shape),
            e.size,
            e.name
        );
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(cache: &PoseCache) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid pose cache v1 ({} entities, {} frames)",
        cache.entities.len(),
        cache.n_frames()
    ))
}
