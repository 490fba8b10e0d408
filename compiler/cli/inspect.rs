//! `kiln inspect`: what a file holds, as text or JSON.

use std::path::Path;

use serde_json::{Value, json};

use super::EXIT_FAILURE;
use crate::formats::ospc::{self, PoseCache, Shape};
use crate::pipeline::files::{FileKind, GltfSummary, load};

pub fn run(file: &Path, as_json: bool) -> u8 {
    let kind = match load(file) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    let value = match &kind {
        FileKind::PoseCache(c) => pose_cache_json(c),
        FileKind::Gltf(s) => scene_json(s),
    };
    if as_json {
        out!("{value}");
    } else {
        match &kind {
            FileKind::PoseCache(c) => print_pose_cache(file, c),
            FileKind::Gltf(s) => print_scene(file, s),
        }
    }
    0
}

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

fn pose_cache_json(c: &PoseCache) -> Value {
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

fn print_pose_cache(file: &Path, c: &PoseCache) {
    out!("{}: OneScope pose cache v{}", file.display(), ospc::VERSION);
    out!(
        "  {} entities x {} frames, {}-D, steps {}..{}",
        c.entities.len(),
        c.n_frames(),
        c.dimensions,
        c.start_step,
        c.start_step + c.n_frames() as i64 - 1
    );
    out!(
        "  unit: {:?} ({} m per unit)",
        c.unit_name,
        c.metres_per_unit
    );
    out!(
        "  origin: module {:?}, version {:?}, scene {:?}, replay {:?}",
        c.module_id,
        c.library_version,
        c.scene,
        c.replay
    );
    out!("  label: {:?}", c.label);
    out!("  absent poses: {}", absent_count(c));
    for e in &c.entities {
        out!(
            "  entity {:016x} {:<8} {:?} {:?}",
            e.id,
            shape_name(e.shape),
            e.size,
            e.name
        );
    }
}

fn scene_json(g: &GltfSummary) -> Value {
    let s = &g.scene;
    json!({
        "format": "gltf",
        "generator": g.generator,
        "extensions_used": g.extensions_used,
        "extensions_required": g.extensions_required,
        "meshes": g.meshes,
        "primitives": g.primitives,
        "accessors": g.accessors,
        "buffer_views": g.buffer_views,
        "buffers": g.buffers,
        "nodes": s.nodes.len(),
        "roots": s.roots,
        "skins": s.skins.iter().map(|k| json!({
            "name": k.name,
            "joints": k.joints.len(),
        })).collect::<Vec<_>>(),
        "animations": s.clips.iter().enumerate().map(|(i, c)| json!({
            "index": i,
            "name": c.name,
            "channels": c.channels.len(),
            "duration_s": c.duration_s(),
        })).collect::<Vec<_>>(),
    })
}

fn print_scene(file: &Path, g: &GltfSummary) {
    let s = &g.scene;
    out!("{}: glTF 2.0", file.display());
    if let Some(generator) = &g.generator {
        out!("  generator: {generator}");
    }
    if !g.extensions_used.is_empty() {
        out!(
            "  extensions: {} (required: {})",
            g.extensions_used.join(", "),
            if g.extensions_required.is_empty() {
                "none".to_string()
            } else {
                g.extensions_required.join(", ")
            }
        );
    }
    out!(
        "  {} meshes ({} primitives), {} accessors, {} buffer views, {} buffers",
        g.meshes,
        g.primitives,
        g.accessors,
        g.buffer_views,
        g.buffers
    );
    out!("  {} nodes, {} roots", s.nodes.len(), s.roots.len());
    for (i, k) in s.skins.iter().enumerate() {
        out!(
            "  skin {i} {:?}: {} joints",
            k.name.as_deref().unwrap_or(""),
            k.joints.len()
        );
    }
    for (i, c) in s.clips.iter().enumerate() {
        out!(
            "  animation {i} {:?}: {:.3} s, {} channels",
            c.name.as_deref().unwrap_or(""),
            c.duration_s(),
            c.channels.len()
        );
    }
}
