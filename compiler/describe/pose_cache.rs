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

/// The most poses of one cache `kiln view` draws (frames past them are
/// left out, and counted): the page carries each as three floats.
pub const MAX_DRAWN_POSES: usize = 250_000;

/// The cache as `kiln view`'s page draws it: each entity's position at
/// every frame (frame-major, three little-endian `f32`s a pose, base64;
/// an absent pose's x is NaN), with the entities' names and shapes.
pub(super) fn scene(c: &PoseCache) -> Value {
    let n = c.entities.len();
    let frames = c
        .n_frames()
        .min(MAX_DRAWN_POSES.checked_div(n).unwrap_or(0));
    let positions = c.poses[..frames * n].iter().map(|p| p.position);
    json!({
        "kind": "poses",
        "dimensions": c.dimensions,
        "frames": frames,
        "frames_in_file": c.n_frames(),
        "entities": c.entities.iter().map(|e| &e.name).collect::<Vec<_>>(),
        "shapes": c.entities.iter().map(|e| shape_name(e.shape)).collect::<Vec<_>>(),
        "positions": super::f32s_base64(positions.flatten()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::ospc::{Entity, Pose};
    use base64::Engine as _;

    fn cache(entities: usize, frames: usize) -> PoseCache {
        PoseCache {
            dimensions: 3,
            start_step: 0,
            metres_per_unit: 1.0,
            unit_name: "metre".into(),
            module_id: "kiln".into(),
            library_version: String::new(),
            scene: String::new(),
            replay: String::new(),
            label: String::new(),
            entities: (0..entities)
                .map(|e| Entity {
                    id: e as u64 + 1,
                    shape: Shape::Point,
                    size: [0.0; 3],
                    name: format!("e{e}"),
                })
                .collect(),
            poses: (0..entities * frames)
                .map(|i| match i {
                    1 => Pose::absent(),
                    _ => Pose::at([i as f32, 0.5, -(i as f32)]),
                })
                .collect(),
        }
    }

    fn floats(scene: &Value) -> Vec<f32> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(scene["positions"].as_str().unwrap())
            .unwrap();
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn the_scene_is_every_position_frame_major_an_absent_one_nan() {
        let s = scene(&cache(2, 3));
        assert_eq!(
            (s["frames"].as_u64(), s["frames_in_file"].as_u64()),
            (Some(3), Some(3))
        );
        assert_eq!(s["entities"], json!(["e0", "e1"]));
        let v = floats(&s);
        assert_eq!(v.len(), 2 * 3 * 3);
        assert_eq!(&v[..3], &[0.0, 0.5, 0.0]);
        assert!(v[3].is_nan());
        assert_eq!(&v[15..], &[5.0, 0.5, -5.0]);
    }

    #[test]
    fn frames_past_the_drawn_poses_are_left_out() {
        let s = scene(&cache(2, MAX_DRAWN_POSES / 2 + 3));
        assert_eq!(s["frames"].as_u64(), Some(MAX_DRAWN_POSES as u64 / 2));
        assert_eq!(
            s["frames_in_file"].as_u64(),
            Some(MAX_DRAWN_POSES as u64 / 2 + 3)
        );
        assert_eq!(floats(&s).len(), MAX_DRAWN_POSES * 3);
    }
}
