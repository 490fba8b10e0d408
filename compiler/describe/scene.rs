//! A glTF asset, described for a manifest's author.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::model::Scene;
use crate::model::scene::{Clip, Interpolation, Target};

/// What a glTF asset holds, for a manifest's author: the scene kiln
/// imports (node tree, skins, clips) and, from the document, the meshes,
/// materials and textures.
pub struct GltfSummary {
    pub scene: Scene,
    pub generator: Option<String>,
    pub extensions_used: Vec<String>,
    pub extensions_required: Vec<String>,
    pub accessors: usize,
    pub buffer_views: usize,
    pub buffers: usize,
    /// Per node: the mesh and the skin it instantiates.
    pub node_uses: Vec<(Option<usize>, Option<usize>)>,
    pub meshes: Vec<MeshInfo>,
    pub materials: Vec<MaterialInfo>,
    pub textures: Vec<TextureInfo>,
}

pub struct MeshInfo {
    pub name: Option<String>,
    pub primitives: Vec<PrimitiveInfo>,
}

pub struct PrimitiveInfo {
    /// Vertices, as decoded (Draco and meshopt streams included).
    pub vertices: usize,
    /// Index count (0 for a non-indexed primitive).
    pub indices: usize,
    /// Attribute names (`POSITION`, `NORMAL`, `TEXCOORD_0`, ...), sorted.
    pub attributes: Vec<String>,
    pub morph_targets: usize,
    pub material: Option<usize>,
    /// `KHR_draco_mesh_compression`.
    pub draco: bool,
}

pub struct MaterialInfo {
    pub name: Option<String>,
    pub base_color: [f32; 4],
    pub base_color_texture: Option<usize>,
    pub alpha_mode: String,
}

pub struct TextureInfo {
    pub image: Option<usize>,
    pub image_name: Option<String>,
    /// The image's file beside the asset, for an external one.
    pub uri: Option<String>,
    pub mime_type: Option<String>,
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

pub(super) fn data(g: &GltfSummary) -> Value {
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

pub(super) fn text(o: &mut dyn Write, file: &str, g: &GltfSummary) -> io::Result<()> {
    let s = &g.scene;
    say!(o, "{}: glTF 2.0", file);
    if let Some(generator) = &g.generator {
        say!(o, "  generator: {generator}");
    }
    if !g.extensions_used.is_empty() {
        say!(
            o,
            "  extensions: {} (required: {})",
            g.extensions_used.join(", "),
            if g.extensions_required.is_empty() {
                "none".to_string()
            } else {
                g.extensions_required.join(", ")
            }
        );
    }
    say!(
        o,
        "  {} accessors, {} buffer views, {} buffers",
        g.accessors,
        g.buffer_views,
        g.buffers
    );
    let joint_of = joint_of(s);
    say!(
        o,
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
        say!(o, "{line}");
    }
    if !s.skins.is_empty() {
        say!(o, "\nskins: the `skin:` a pose cache names");
    }
    for (i, k) in s.skins.iter().enumerate() {
        let root = skin_root(s, k).map_or("none".to_string(), |r| node_label(s, r));
        say!(
            o,
            "  {i} {:?}: {} joints, root {root}",
            k.name.as_deref().unwrap_or(""),
            k.joints.len()
        );
    }
    if !s.clips.is_empty() {
        say!(o, "\nanimations: the `animation:` a pose cache names");
    }
    for (i, c) in s.clips.iter().enumerate() {
        let (targets, interpolations) = clip_shape(c);
        let targets: Vec<String> = targets.iter().map(|(t, n)| format!("{n} {t}")).collect();
        say!(
            o,
            "  {i} {:?}: {:.3} s, {} channels ({}), {}",
            c.name.as_deref().unwrap_or(""),
            c.duration_s(),
            c.channels.len(),
            targets.join(", "),
            interpolations.join(", ")
        );
    }
    meshes_text(o, g)
}

/// The meshes, materials and textures in lines of text.
fn meshes_text(o: &mut dyn Write, g: &GltfSummary) -> io::Result<()> {
    if !g.meshes.is_empty() {
        say!(o, "\nmeshes:");
    }
    for (i, m) in g.meshes.iter().enumerate() {
        say!(
            o,
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
            say!(
                o,
                "    primitive {k}: {} vertices, {} indices, {material}{extra}; {}",
                p.vertices,
                p.indices,
                p.attributes.join(", ")
            );
        }
    }
    if !g.materials.is_empty() {
        say!(o, "\nmaterials:");
    }
    for (i, m) in g.materials.iter().enumerate() {
        let [r, gr, b, a] = m.base_color;
        let texture = m
            .base_color_texture
            .map_or(String::new(), |t| format!(", base colour texture {t}"));
        say!(
            o,
            "  {i} {:?}: base colour ({r}, {gr}, {b}, {a}){texture}, {}",
            m.name.as_deref().unwrap_or(""),
            m.alpha_mode
        );
    }
    if !g.textures.is_empty() {
        say!(o, "\ntextures:");
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
        say!(o, "  {i}: {image}");
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(g: &GltfSummary) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid glTF ({} nodes, {} skins, {} animations, {} meshes, {} accessors)",
        g.scene.nodes.len(),
        g.scene.skins.len(),
        g.scene.clips.len(),
        g.meshes.len(),
        g.accessors
    ))
}
