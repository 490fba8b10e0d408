//! `kiln inspect`: what a file holds, as text or JSON.

use std::path::Path;

use serde_json::{Value, json};

use super::EXIT_FAILURE;
use crate::bake::atlas::{self, Atlas, RegionKind};
use crate::formats::gguf::{self, Array, Value as Gv};
use crate::formats::kchr;
use crate::formats::mbreplay::{self, Replay};
use crate::formats::mbstyle::{self, Style};
use crate::formats::ospc::{self, PoseCache, Shape};
use crate::formats::qoi;
use crate::formats::safetensors;
use crate::model::Scene;
use crate::model::scene::{Clip, Interpolation, Target};
use crate::pipeline::files::{
    self, BundleCheck, CharactersFile, FileKind, GgufFile, GltfSummary, load,
};

/// `v`'s fields after `kiln` and `schema`, as every JSON document kiln
/// prints begins, and without its null fields: a field a file does not
/// have is left out (docs/json.md).
fn document(v: Value) -> Value {
    let mut fields = serde_json::Map::new();
    fields.insert("kiln".into(), json!(crate::VERSION));
    fields.insert("schema".into(), json!(super::JSON_SCHEMA));
    if let Value::Object(rest) = v {
        fields.extend(rest);
    }
    without_nulls(Value::Object(fields))
}

/// `v` with every object field whose value is null removed, at any depth
/// (a loop over a work list: no recursion on a file's nesting).
fn without_nulls(mut v: Value) -> Value {
    let mut work: Vec<&mut Value> = vec![&mut v];
    while let Some(item) = work.pop() {
        match item {
            Value::Object(fields) => {
                fields.retain(|_, f| !f.is_null());
                work.extend(fields.values_mut());
            }
            Value::Array(items) => work.extend(items.iter_mut()),
            _ => {}
        }
    }
    v
}

pub fn run(file: &Path, as_json: bool) -> u8 {
    let kind = match load(file) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    if as_json {
        // (Built only when asked for: a JSON value of a million tensors
        // is far larger than the file's header.)
        let value = match &kind {
            FileKind::PoseCache(c) => pose_cache_json(c),
            FileKind::Replay(r) => replay_json(r),
            FileKind::Style(s) => style_json(s),
            FileKind::Gltf(s) => scene_json(s),
            FileKind::Gguf(g) => {
                print_streamed(document(gguf_json(g)), "tensors", GgufTable(&g.header));
                return 0;
            }
            FileKind::Safetensors(h) => {
                // The tensor table is written as it is read, never held.
                print_streamed(
                    document(safetensors_json(h)),
                    "tensors",
                    SafetensorsTable(h),
                );
                return 0;
            }
            FileKind::Bundle(b) => bundle_json(b),
            FileKind::Qoi(q) => qoi_json(q),
            FileKind::Characters(c) => characters_json(c),
            FileKind::Cgeo(c) => cgeo_json(c),
        };
        out!("{}", document(value));
    } else {
        match &kind {
            FileKind::PoseCache(c) => print_pose_cache(file, c),
            FileKind::Replay(r) => print_replay(file, r),
            FileKind::Style(s) => print_style(file, s),
            FileKind::Gltf(s) => print_scene(file, s),
            FileKind::Gguf(g) => print_gguf(file, g),
            FileKind::Safetensors(h) => print_safetensors(file, h),
            FileKind::Bundle(b) => print_bundle(file, b),
            FileKind::Qoi(q) => print_qoi(file, q),
            FileKind::Characters(c) => print_characters(file, c),
            FileKind::Cgeo(c) => print_cgeo(file, c),
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

/// The smallest and largest of each axis of `points` (zeros when empty).
fn bounds(points: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in points {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if points.is_empty() {
        return ([0.0; 3], [0.0; 3]);
    }
    (lo, hi)
}

/// Smallest and largest of `values` (0 and 0 when empty).
fn range(values: &[f32]) -> [f32; 2] {
    values
        .iter()
        .fold([f32::INFINITY, f32::NEG_INFINITY], |[lo, hi], &v| {
            [lo.min(v), hi.max(v)]
        })
}

fn style_ranges(s: &Style) -> Value {
    json!({
        "headings": range(&s.headings),
        "joint_positions": range(s.joint_positions.as_flattened()),
        "joint_rotations": range(s.joint_rotations.as_flattened()),
        "root_positions": range(s.root_positions.as_flattened()),
    })
}

fn style_json(read: &mbstyle::Read) -> Value {
    let s = &read.style;
    let mut v = json!({
        "format": "motionbricks style",
        "version": 1,
        "name": s.name,
        "speed": s.speed,
        "index": s.index,
        "frames": s.frames(),
        "duration_s": s.frames() as f64 / 30.0,
        "allowed_tokens": s.allowed_tokens,
        "token_range": s.token_range().map(|(a, b)| [a, b]),
        "source_sha256": s.source_sha256,
        "ranges": style_ranges(s),
    });
    if let Some(e) = &read.not_canonical {
        v["not_canonical"] = json!(e.to_string());
    }
    v
}

fn print_style(file: &Path, read: &mbstyle::Read) {
    let s = &read.style;
    out!(
        "{}: MotionBricks style v1 {:?} (index {})",
        file.display(),
        s.name,
        s.index
    );
    out!(
        "  {} frames ({:.2} s at 30 fps), speed {} m/s",
        s.frames(),
        s.frames() as f64 / 30.0,
        s.speed
    );
    let plans = match s.token_range() {
        Some((a, b)) => format!("{a}..{b} tokens"),
        None => "not one range".into(),
    };
    out!("  allowed plans: {:?} ({plans})", s.allowed_tokens);
    let r = |v: &[f32]| {
        let [lo, hi] = range(v);
        format!("{lo:.3}..{hi:.3}")
    };
    out!("  headings {} rad", r(&s.headings));
    out!("  root positions {} m", r(s.root_positions.as_flattened()));
    out!(
        "  joint positions {} m (relative to the root)",
        r(s.joint_positions.as_flattened())
    );
    out!("  joint rotations {}", r(s.joint_rotations.as_flattened()));
    out!("  source sha256 {}", s.source_sha256);
    if let Some(e) = &read.not_canonical {
        out!("  {}", not_canonical_note(e));
    }
}

/// What a style the runtime loads but kiln would not write is: said apart
/// from the runtime's verdict.
pub fn not_canonical_note(e: &mbstyle::Error) -> String {
    format!(
        "not kiln's canonical form (the runtime loads it; kiln writes the spec's 14 keys in order, names of at most {} bytes, zero padding): {e}",
        mbstyle::MAX_NAME_BYTES
    )
}

fn replay_json(r: &Replay) -> Value {
    let (lo, hi) = bounds(&r.positions);
    json!({
        "format": "motionbricks replay",
        "version": mbreplay::VERSION,
        "fps": r.fps,
        "frames": r.frames(),
        "duration_s": r.frames() as f64 / f64::from(r.fps),
        "joints": r.joints(),
        "parents": r.parents,
        "qpos_count": r.qpos_count,
        "pre_roll_frames": r.active_plan.iter().filter(|&&a| a == -1).count(),
        "position_bounds": { "min": lo, "max": hi },
        "plans": r.plans.iter().map(|p| json!({
            "first_frame": p.first_frame,
            "mode": p.mode,
            "length": p.length,
        })).collect::<Vec<_>>(),
    })
}

fn print_replay(file: &Path, r: &Replay) {
    out!(
        "{}: MotionBricks replay v{}",
        file.display(),
        mbreplay::VERSION
    );
    out!(
        "  {} frames at {} fps ({:.2} s), {} joints, {} qpos values per frame",
        r.frames(),
        r.fps,
        r.frames() as f64 / f64::from(r.fps),
        r.joints(),
        r.qpos_count
    );
    let pre_roll = r.active_plan.iter().filter(|&&a| a == -1).count();
    out!("  {} plans; {pre_roll} pre-roll frames", r.plans.len());
    let (lo, hi) = bounds(&r.positions);
    out!(
        "  joint positions: x {:.3}..{:.3}, y {:.3}..{:.3}, z {:.3}..{:.3} m",
        lo[0],
        hi[0],
        lo[1],
        hi[1],
        lo[2],
        hi[2]
    );
    out!("  parents: {:?}", r.parents);
    for (i, p) in r.plans.iter().enumerate() {
        out!(
            "  plan {i}: from frame {}, mode {}, {} frames generated",
            p.first_frame,
            p.mode,
            p.length
        );
    }
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

/// A node's name as people read it: its name, or `node N`.
fn node_label(s: &Scene, i: usize) -> String {
    match s.nodes.get(i).and_then(|n| n.name.as_deref()) {
        Some(name) => format!("{name:?}"),
        None => format!("node {i}"),
    }
}

/// A skin's root: its `skeleton`, else its first joint whose parent is
/// not one of its joints.
fn skin_root(s: &Scene, skin: &crate::model::scene::Skin) -> Option<usize> {
    skin.skeleton.or_else(|| {
        skin.joints.iter().copied().find(|&j| {
            s.nodes
                .get(j)
                .and_then(|n| n.parent)
                .is_none_or(|p| !skin.joints.contains(&p))
        })
    })
}

fn interpolation_name(i: Interpolation) -> &'static str {
    match i {
        Interpolation::Step => "STEP",
        Interpolation::Linear => "LINEAR",
        Interpolation::CubicSpline => "CUBICSPLINE",
    }
}

fn target_name(t: Target) -> &'static str {
    match t {
        Target::Translation => "translation",
        Target::Rotation => "rotation",
        Target::Scale => "scale",
        Target::Weights { .. } => "weights",
    }
}

/// A clip's channels counted by target path, and its interpolations (each
/// once, in the order met).
fn clip_shape(c: &Clip) -> (Vec<(&'static str, usize)>, Vec<&'static str>) {
    let mut targets: Vec<(&'static str, usize)> = Vec::new();
    let mut interpolations = Vec::new();
    for ch in &c.channels {
        let name = target_name(ch.target);
        match targets.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => targets.push((name, 1)),
        }
        let i = interpolation_name(ch.interpolation);
        if !interpolations.contains(&i) {
            interpolations.push(i);
        }
    }
    (targets, interpolations)
}

/// The skins whose joints include each node.
fn joint_of(s: &Scene) -> Vec<Vec<usize>> {
    let mut of = vec![Vec::new(); s.nodes.len()];
    for (k, skin) in s.skins.iter().enumerate() {
        for &j in &skin.joints {
            if let Some(list) = of.get_mut(j)
                && !list.contains(&k)
            {
                list.push(k);
            }
        }
    }
    of
}

/// The nodes depth first from the roots, each with its depth (a loop,
/// not recursion: a hierarchy may be deep).
fn node_tree(s: &Scene) -> Vec<(usize, usize)> {
    let mut order = Vec::with_capacity(s.nodes.len());
    let mut stack: Vec<(usize, usize)> = s.roots.iter().rev().map(|&r| (r, 0)).collect();
    let mut seen = vec![false; s.nodes.len()];
    while let Some((i, depth)) = stack.pop() {
        if seen.get(i).copied() != Some(false) {
            continue;
        }
        seen[i] = true;
        order.push((i, depth));
        for &c in s.nodes[i].children.iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    order
}

fn scene_json(g: &GltfSummary) -> Value {
    let s = &g.scene;
    let joint_of = joint_of(s);
    json!({
        "format": "gltf",
        "generator": g.generator,
        "extensions_used": g.extensions_used,
        "extensions_required": g.extensions_required,
        "accessors": g.accessors,
        "buffer_views": g.buffer_views,
        "buffers": g.buffers,
        "roots": s.roots,
        "nodes": s.nodes.iter().enumerate().map(|(i, n)| {
            let (mesh, skin) = g.node_uses.get(i).copied().unwrap_or_default();
            json!({
                "index": i,
                "name": n.name,
                "parent": n.parent,
                "children": n.children,
                "mesh": mesh,
                "skin": skin,
                "joint_of": joint_of[i],
            })
        }).collect::<Vec<_>>(),
        "skins": s.skins.iter().enumerate().map(|(i, k)| json!({
            "index": i,
            "name": k.name,
            "joints": k.joints.len(),
            "root": skin_root(s, k),
        })).collect::<Vec<_>>(),
        "animations": s.clips.iter().enumerate().map(|(i, c)| {
            let (targets, interpolations) = clip_shape(c);
            json!({
                "index": i,
                "name": c.name,
                "duration_s": c.duration_s(),
                "channels": c.channels.len(),
                "targets": targets.into_iter().map(|(t, n)| (t.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                "interpolation": interpolations,
            })
        }).collect::<Vec<_>>(),
        "meshes": g.meshes.iter().enumerate().map(|(i, m)| json!({
            "index": i,
            "name": m.name,
            "primitives": m.primitives.iter().map(|p| json!({
                "vertices": p.vertices,
                "indices": p.indices,
                "attributes": p.attributes,
                "morph_targets": p.morph_targets,
                "material": p.material,
                "draco": p.draco,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "materials": g.materials.iter().enumerate().map(|(i, m)| json!({
            "index": i,
            "name": m.name,
            "base_color": m.base_color,
            "base_color_texture": m.base_color_texture,
            "alpha_mode": m.alpha_mode,
        })).collect::<Vec<_>>(),
        "textures": g.textures.iter().enumerate().map(|(i, t)| json!({
            "index": i,
            "image": t.image,
            "image_name": t.image_name,
            "uri": t.uri,
            "mime_type": t.mime_type,
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
        "  {} accessors, {} buffer views, {} buffers",
        g.accessors,
        g.buffer_views,
        g.buffers
    );
    let joint_of = joint_of(s);
    out!(
        "\nnodes: {} ({} roots), the names `node_map` and `root` take; [joint of skin N]",
        s.nodes.len(),
        s.roots.len()
    );
    for (i, depth) in node_tree(s) {
        let mut line = format!("  {}{}", "  ".repeat(depth.min(40)), node_label(s, i));
        if s.nodes[i].name.is_some() {
            line.push_str(&format!(" (node {i})"));
        }
        let (mesh, skin) = g.node_uses.get(i).copied().unwrap_or_default();
        if let Some(m) = mesh {
            let name = g.meshes.get(m).and_then(|x| x.name.as_deref());
            line.push_str(&format!(" mesh {m} {:?}", name.unwrap_or("")));
        }
        if let Some(k) = skin {
            line.push_str(&format!(", skin {k}"));
        }
        for k in &joint_of[i] {
            line.push_str(&format!(" [joint of skin {k}]"));
        }
        out!("{line}");
    }
    if !s.skins.is_empty() {
        out!("\nskins: the `skin:` a pose cache names");
    }
    for (i, k) in s.skins.iter().enumerate() {
        let root = skin_root(s, k).map_or("none".to_string(), |r| node_label(s, r));
        out!(
            "  {i} {:?}: {} joints, root {root}",
            k.name.as_deref().unwrap_or(""),
            k.joints.len()
        );
    }
    if !s.clips.is_empty() {
        out!("\nanimations: the `animation:` a pose cache names");
    }
    for (i, c) in s.clips.iter().enumerate() {
        let (targets, interpolations) = clip_shape(c);
        let targets: Vec<String> = targets.iter().map(|(t, n)| format!("{n} {t}")).collect();
        out!(
            "  {i} {:?}: {:.3} s, {} channels ({}), {}",
            c.name.as_deref().unwrap_or(""),
            c.duration_s(),
            c.channels.len(),
            targets.join(", "),
            interpolations.join(", ")
        );
    }
    if !g.meshes.is_empty() {
        out!("\nmeshes:");
    }
    for (i, m) in g.meshes.iter().enumerate() {
        out!(
            "  {i} {:?}: {} primitive(s)",
            m.name.as_deref().unwrap_or(""),
            m.primitives.len()
        );
        for (k, p) in m.primitives.iter().enumerate() {
            let material = p.material.map_or("the default material".to_string(), |m| {
                let name = g.materials.get(m).and_then(|x| x.name.as_deref());
                format!("material {m} {:?}", name.unwrap_or(""))
            });
            let mut extra = String::new();
            if p.morph_targets > 0 {
                extra.push_str(&format!(", {} morph targets", p.morph_targets));
            }
            if p.draco {
                extra.push_str(", Draco");
            }
            out!(
                "    primitive {k}: {} vertices, {} indices, {material}{extra}; {}",
                p.vertices,
                p.indices,
                p.attributes.join(", ")
            );
        }
    }
    if !g.materials.is_empty() {
        out!("\nmaterials:");
    }
    for (i, m) in g.materials.iter().enumerate() {
        let [r, gr, b, a] = m.base_color;
        let texture = m
            .base_color_texture
            .map_or(String::new(), |t| format!(", base colour texture {t}"));
        out!(
            "  {i} {:?}: base colour ({r}, {gr}, {b}, {a}){texture}, {}",
            m.name.as_deref().unwrap_or(""),
            m.alpha_mode
        );
    }
    if !g.textures.is_empty() {
        out!("\ntextures:");
    }
    for (i, t) in g.textures.iter().enumerate() {
        let image = t.image.map_or("no image".to_string(), |im| {
            let name = t.image_name.as_deref().unwrap_or("");
            let place = t.uri.as_deref().unwrap_or("embedded");
            let mime = t
                .mime_type
                .as_deref()
                .map_or(String::new(), |m| format!(", {m}"));
            format!("image {im} {name:?} ({place}{mime})")
        });
        out!("  {i}: {image}");
    }
}

fn gguf_value_json(v: &Gv) -> Value {
    match v {
        Gv::U8(x) => json!(x),
        Gv::I8(x) => json!(x),
        Gv::U16(x) => json!(x),
        Gv::I16(x) => json!(x),
        Gv::U32(x) => json!(x),
        Gv::I32(x) => json!(x),
        Gv::F32(x) => json!(x),
        Gv::Bool(x) => json!(x),
        Gv::String(x) => json!(x),
        Gv::U64(x) => json!(x),
        Gv::I64(x) => json!(x),
        Gv::F64(x) => json!(x),
        Gv::Array(a) => match a {
            Array::U8(v) => json!(v),
            Array::I8(v) => json!(v),
            Array::U16(v) => json!(v),
            Array::I16(v) => json!(v),
            Array::U32(v) => json!(v),
            Array::I32(v) => json!(v),
            Array::F32(v) => json!(v),
            Array::Bool(v) => json!(v),
            Array::String(v) => json!(v),
            Array::U64(v) => json!(v),
            Array::I64(v) => json!(v),
            Array::F64(v) => json!(v),
        },
    }
}

/// A value for a line of text: arrays show their first 8 elements.
fn gguf_value_text(v: &Gv) -> String {
    match v {
        Gv::Array(a) => {
            let all = gguf_value_json(v);
            let items: Vec<String> = all
                .as_array()
                .map(|x| x.iter().take(8).map(|e| e.to_string()).collect())
                .unwrap_or_default();
            let more = if a.len() > 8 { ", ..." } else { "" };
            format!("[{}{more}] ({} elements)", items.join(", "), a.len())
        }
        v => gguf_value_json(v).to_string(),
    }
}

fn gguf_json(g: &GgufFile) -> Value {
    let h = &g.header;
    json!({
        "format": "gguf",
        "version": gguf::VERSION,
        "alignment": h.alignment,
        "data_start": h.data_start,
        "data_bytes": h.data_bytes,
        "motionbricks_component": g.role.map(|r| r.name()),
        "runtime_problems": g.problems,
        "metadata": h.metadata.iter().map(|(k, v)| json!({
            "key": k,
            "type": v.type_text(),
            "value": gguf_value_json(v),
        })).collect::<Vec<_>>(),
    })
}

/// A GGUF's tensor descriptions as a JSON array, serialized one at a time.
struct GgufTable<'a>(&'a gguf::Header);

impl serde::Serialize for GgufTable<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.tensor_count()))?;
        for t in self.0.tensors() {
            seq.serialize_element(&json!({
                "name": t.name,
                "type": t.ty.name(),
                "shape": t.dims,
                "offset": t.offset,
                "bytes": t.bytes(),
            }))?;
        }
        seq.end()
    }
}

fn print_gguf(file: &Path, g: &GgufFile) {
    let h = &g.header;
    out!(
        "{}: GGUF v{}, {} tensors, {} metadata keys, alignment {}, data at byte {} ({} bytes)",
        file.display(),
        gguf::VERSION,
        h.tensor_count(),
        h.metadata.len(),
        h.alignment,
        h.data_start,
        h.data_bytes
    );
    if let Some(role) = g.role {
        out!("  MotionBricks bundle component: {}", role.name());
    }
    for p in &g.problems {
        out!("  the runtime would refuse: {p}");
    }
    out!("  metadata:");
    for (k, v) in &h.metadata {
        out!("    {k} {} {}", v.type_text(), gguf_value_text(v));
    }
    out!("  tensors (GGML shape, fastest first):");
    for t in h.tensors() {
        out!(
            "    {} {} {:?} at {}",
            t.name,
            t.ty.name(),
            t.dims,
            t.offset
        );
    }
}

/// A safetensors header as JSON, but for its tensor table
/// ([`SafetensorsTable`], streamed).
fn safetensors_json(h: &safetensors::Header) -> Value {
    json!({
        "format": "safetensors",
        "header_bytes": h.json_bytes,
        "data_bytes": h.data_bytes(),
        "metadata": h.metadata,
    })
}

/// A header's tensors as a JSON array, serialized one at a time.
struct SafetensorsTable<'a>(&'a safetensors::Header);

impl serde::Serialize for SafetensorsTable<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for t in self.0.tensors() {
            seq.serialize_element(&json!({
                "name": t.name,
                "dtype": t.dtype.name(),
                "shape": t.shape,
                "data_offsets": [t.begin, t.end],
            }))?;
        }
        seq.end()
    }
}

/// Prints `doc` with one more field, `key`, whose value is serialized as
/// it is written (a table too large to hold as a JSON value).
fn print_streamed(doc: Value, key: &str, table: impl serde::Serialize) {
    use serde::ser::{SerializeMap, Serializer};
    struct Doc<'a, T>(&'a serde_json::Map<String, Value>, &'a str, T);
    impl<T: serde::Serialize> serde::Serialize for Doc<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(self.0.len() + 1))?;
            for (k, v) in self.0 {
                map.serialize_entry(k, v)?;
            }
            map.serialize_entry(self.1, &self.2)?;
            map.end()
        }
    }
    let Value::Object(fields) = doc else {
        return;
    };
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let _ = serde_json::to_writer(&mut out, &Doc(&fields, key, table));
    let _ = writeln!(out);
}

fn print_safetensors(file: &Path, h: &safetensors::Header) {
    out!(
        "{}: safetensors, {} tensors, {} bytes of header, {} bytes of data",
        file.display(),
        h.len(),
        h.json_bytes,
        h.data_bytes()
    );
    if let Some(m) = &h.metadata {
        for (k, v) in m {
            out!("  metadata {k}: {v:?}");
        }
    }
    out!("  tensors (PyTorch shape, sorted by name):");
    for t in h.tensors() {
        out!(
            "    {} {} {:?} bytes {}..{}",
            t.name,
            t.dtype,
            t.shape,
            t.begin,
            t.end
        );
    }
}

fn bundle_json(b: &BundleCheck) -> Value {
    json!({
        "format": "motionbricks gguf bundle",
        "manifest": b.manifest,
        "components": b.components.iter().map(|(r, g)| json!({
            "component": r.name(),
            "tensors": g.header.tensor_count(),
            "parameters": g.header.tensors().map(|t| t.elements()).sum::<u64>(),
        })).collect::<Vec<_>>(),
        "runtime_problems": b.problems,
    })
}

fn print_bundle(file: &Path, b: &BundleCheck) {
    out!(
        "{}: MotionBricks GGUF bundle ({}), {} inference parameters",
        file.display(),
        b.manifest["format"],
        b.manifest["inference_parameter_count"]
    );
    for (role, g) in &b.components {
        out!(
            "  {} {}: {} tensors, {} parameters",
            role.name(),
            role.file(),
            g.header.tensor_count(),
            g.header.tensors().map(|t| t.elements()).sum::<u64>()
        );
    }
    for p in &b.problems {
        out!("  the runtime would refuse: {p}");
    }
}

fn qoi_json(q: &qoi::Image) -> Value {
    json!({
        "format": "qoi",
        "width": q.header.width,
        "height": q.header.height,
        "channels": q.header.channels as u8,
        "colorspace": match q.header.colorspace {
            qoi::Colorspace::Srgb => "srgb",
            qoi::Colorspace::Linear => "linear",
        },
        "opaque": q.is_opaque(),
    })
}

fn print_qoi(file: &Path, q: &qoi::Image) {
    let v = qoi_json(q);
    out!(
        "{}: QOI image {} x {}, {} channels, colorspace {} ({}){}",
        file.display(),
        q.header.width,
        q.header.height,
        q.header.channels as u8,
        q.header.colorspace as u8,
        v["colorspace"].as_str().unwrap_or(""),
        if q.is_opaque() { ", opaque" } else { "" }
    );
}

fn cgeo_json(c: &files::CgeoFile) -> Value {
    let h = &c.header;
    let bounds = |s: &files::CgeoSnapshot| {
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

fn print_cgeo(file: &Path, c: &files::CgeoFile) {
    let v = cgeo_json(c);
    let h = &c.header;
    out!(
        "{}: CGeo v7, {} snapshot(s) of {:?} ({}), {}{}, {} bytes",
        file.display(),
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
    out!(
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
        out!(
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
}

/// `kiln inspect --png OUT FILE`: a QOI image as a PNG.
pub fn to_png(file: &Path, out: &Path, as_json: bool) -> u8 {
    let image = match load(file) {
        Ok(FileKind::Qoi(q)) => files::rgba8(q),
        Ok(_) => {
            eprintln!(
                "error: {}: --png converts a .qoi image (for a .glb or .gltf, --atlas-png runs the material stage)",
                file.display()
            );
            return EXIT_FAILURE;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    if let Err(e) = files::write_png(out, &image) {
        eprintln!("error: {e}");
        return EXIT_FAILURE;
    }
    if as_json {
        out!(
            "{}",
            document(
                json!({"png": out.display().to_string(), "width": image.width, "height": image.height})
            )
        );
    } else {
        out!(
            "{}: wrote {} ({} x {})",
            file.display(),
            out.display(),
            image.width,
            image.height
        );
    }
    0
}

fn atlas_json(a: &Atlas) -> Value {
    json!({
        "width": a.image.width,
        "height": a.image.height,
        "fill_ratio": a.fill_ratio(),
        "fit_scale": a.fit_scale,
        "regions": a.regions.iter().map(|r| json!({
            "materials": r.materials,
            "kind": match r.kind {
                RegionKind::Solid => "solid",
                RegionKind::Textured => "textured",
                RegionKind::Baked => "baked",
            },
            "image": r.image,
            "rect": r.rect,
            "scale": r.scale,
            "tiles": r.tiles,
        })).collect::<Vec<_>>(),
        "warnings": a.warnings,
    })
}

/// `kiln inspect --atlas-png OUT FILE`: the material stage on a glTF
/// asset, its atlas written as a PNG.
pub fn atlas(file: &Path, out: &Path, as_json: bool) -> u8 {
    if let Ok(FileKind::Characters(c)) = load(file) {
        return characters_atlases(file, &c, out, as_json);
    }
    let result = files::atlas_of(file, &atlas::Settings::default());
    let a = match result {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    if let Err(e) = files::write_png(out, &a.image) {
        eprintln!("error: {e}");
        return EXIT_FAILURE;
    }
    if as_json {
        let mut v = atlas_json(&a);
        v["png"] = json!(out.display().to_string());
        out!("{}", document(v));
        return 0;
    }
    out!(
        "{}: atlas {} x {}, {} regions, {:.1} % filled; wrote {}",
        file.display(),
        a.image.width,
        a.image.height,
        a.regions.len(),
        a.fill_ratio() * 100.0,
        out.display()
    );
    for r in &a.regions {
        let [x, y, w, h] = r.rect;
        let what = match (r.kind, r.image) {
            (RegionKind::Solid, _) => "solid colour".to_string(),
            (RegionKind::Baked, _) => "vertex colours baked per triangle".to_string(),
            (RegionKind::Textured, Some(i)) => format!(
                "image {i}, {} x {} tiles, scale {:.3} x {:.3}",
                r.tiles[0], r.tiles[1], r.scale[0], r.scale[1]
            ),
            (RegionKind::Textured, None) => "texture".to_string(),
        };
        out!(
            "  {w:>4} x {h:<4} at ({x}, {y}): {} — {what}",
            r.materials.join(", ")
        );
    }
    for w in &a.warnings {
        out!("  warning: {w}");
    }
    0
}

/// What `level.json` says of a clip the file holds: (bank, clip) -> its
/// entry (`keys_source`, `error_m`).
fn level_clip<'a>(c: &'a CharactersFile, bank: &str, clip: &str) -> Option<&'a Value> {
    let banks = c.level.as_ref()?["characters"]["banks"].as_array()?;
    let b = banks.iter().find(|b| b["id"] == bank)?;
    let clips = b["clips"].as_array()?;
    clips.iter().find(|x| x["name"] == clip)
}

/// Key counts before reduction, from `level.json`.
fn source_keys(c: &CharactersFile, bank: &str, clip: &str) -> Option<u64> {
    level_clip(c, bank, clip)?["keys_source"].as_u64()
}

/// The worst skin error the compiler measured for the clip (metres), from
/// `level.json`.
fn clip_error_m(c: &CharactersFile, bank: &str, clip: &str) -> Option<f64> {
    level_clip(c, bank, clip)?["error_m"].as_f64()
}

fn clip_keys(clip: &kchr::Clip) -> usize {
    clip.tracks.iter().map(|t| t.keys()).sum()
}

fn characters_json(c: &CharactersFile) -> Value {
    let doc = &c.doc;
    json!({
        "format": "compiled characters",
        "version": kchr::VERSION,
        "feature": kchr::FEATURE,
        "bytes": c.bytes,
        "models": doc.models.iter().map(|m| json!({
            "id": m.id,
            "bank": doc.banks[m.bank as usize].id,
            "nodes": m.nodes.iter().map(|n| json!({
                "name": n.name,
                "parent": n.parent.map(|p| m.nodes[p as usize].name.clone()),
            })).collect::<Vec<_>>(),
            "mesh_node": m.nodes[m.mesh_node as usize].name,
            "palette": m.joints.iter().map(|&j| m.nodes[j as usize].name.clone()).collect::<Vec<_>>(),
            "vertices": m.vertices.len(),
            "triangles": m.indices.len() / 3,
            "atlas": {"width": m.image.width, "height": m.image.height, "qoi_bytes": m.image.qoi.len()},
        })).collect::<Vec<_>>(),
        "banks": doc.banks.iter().map(|b| json!({
            "id": b.id,
            "clips": b.clips.iter().map(|clip| json!({
                "name": clip.name,
                "duration_s": clip.duration_s,
                "keys": clip_keys(clip),
                "keys_source": source_keys(c, &b.id, &clip.name),
                "error_m": clip_error_m(c, &b.id, &clip.name),
                "tracks": clip.tracks.iter().map(|t| json!({
                    "node": t.node,
                    "path": t.path.name(),
                    "interpolation": if t.step { "step" } else { "linear" },
                    "keys": t.keys(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn print_characters(file: &Path, c: &CharactersFile) {
    let doc = &c.doc;
    out!(
        "{}: compiled characters (KCHR v{}, {}), {} bytes: {} models, {} banks",
        file.display(),
        kchr::VERSION,
        kchr::FEATURE,
        c.bytes,
        doc.models.len(),
        doc.banks.len()
    );
    for m in &doc.models {
        out!(
            "  model {}: bank {}, {} nodes, {} joints in the palette, {} vertices, {} triangles, atlas {} x {}",
            m.id,
            doc.banks[m.bank as usize].id,
            m.nodes.len(),
            m.joints.len(),
            m.vertices.len(),
            m.indices.len() / 3,
            m.image.width,
            m.image.height
        );
        let palette: Vec<&str> = m
            .joints
            .iter()
            .map(|&j| m.nodes[j as usize].name.as_str())
            .collect();
        out!("    palette: {}", palette.join(", "));
    }
    for b in &doc.banks {
        let keys: usize = b.clips.iter().map(clip_keys).sum();
        out!("  bank {}: {} clips, {keys} keys", b.id, b.clips.len());
        for clip in &b.clips {
            let before = source_keys(c, &b.id, &clip.name)
                .map(|k| format!(" ({k} before reduction)"))
                .unwrap_or_default();
            let within = clip_error_m(c, &b.id, &clip.name)
                .map(|m| {
                    format!(
                        ", the skin within {} of the source",
                        crate::bake::character::millimetres(m)
                    )
                })
                .unwrap_or_default();
            out!(
                "    clip {}: {:.3} s, {} tracks, {} keys{before}{within}",
                clip.name,
                clip.duration_s,
                clip.tracks.len(),
                clip_keys(clip)
            );
        }
    }
}

/// `kiln inspect --atlas-png OUT ENTRY`: each model's atlas, as
/// `OUT` with the model's id before the extension (`atlas-fox.png`).
fn characters_atlases(file: &Path, c: &CharactersFile, out: &Path, as_json: bool) -> u8 {
    let atlases = match files::character_atlases(c) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return EXIT_FAILURE;
        }
    };
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = out
        .extension()
        .map_or("png".into(), |e| e.to_string_lossy().into_owned());
    let mut written = Vec::new();
    for (id, image) in atlases {
        let path = out.with_file_name(format!("{stem}-{id}.{ext}"));
        if let Err(e) = files::write_png(&path, &image) {
            eprintln!("error: {e}");
            return EXIT_FAILURE;
        }
        written.push((id, path, image.width, image.height));
    }
    if as_json {
        out!(
            "{}",
            document(json!({"atlases": written.iter().map(|(id, p, w, h)| json!({
                "model": id, "png": p.display().to_string(), "width": w, "height": h,
            })).collect::<Vec<_>>()}))
        );
    } else {
        for (id, p, w, h) in &written {
            out!(
                "{}: model {id}: atlas {w} x {h}; wrote {}",
                file.display(),
                p.display()
            );
        }
    }
    0
}
