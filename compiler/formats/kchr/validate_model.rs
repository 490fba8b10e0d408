//! The rules of a model: its node tree, joints, inverse binds, vertices,
//! indices and albedo image.

use crate::formats::qoi;

use super::checks::{Problems, check_count, check_name, check_unit, duplicates, finite_all};
use super::{
    Image, Loc, MAX_IMAGE_BYTES, MAX_INDICES, MAX_JOINTS, MAX_NODES, MAX_TEXTURE_SIDE,
    MAX_VERTICES, MIN_DETERMINANT, Model, UNIT_TOLERANCE,
};

pub(super) fn check_model(m: usize, model: &Model, rooted: &[bool], p: &mut Problems) {
    let here = Loc::Model(m);
    check_name(p, here, "id", &model.id);
    let n_nodes = model.nodes.len();
    check_count(p, here, "nodes", n_nodes, 1, MAX_NODES);
    for (n, node) in model.nodes.iter().enumerate() {
        let at = Loc::Node(m, n);
        check_name(p, at, "name", &node.name);
        if let Some(parent) = node.parent
            && parent as usize >= n_nodes
        {
            p.add(
                at,
                "parent",
                format!("node {parent} does not exist (the model has {n_nodes} nodes)"),
            );
        }
        finite_all(p, at, "translation", &node.translation);
        if finite_all(p, at, "rotation", &node.rotation) {
            check_unit(p, at, "rotation", &node.rotation);
        }
        finite_all(p, at, "scale", &node.scale);
    }
    for (n, first) in duplicates(model.nodes.iter().map(|n| n.name.as_str())) {
        p.add(
            Loc::Node(m, n),
            "name",
            format!(
                "duplicate node name \"{}\" (nodes[{first}] has it)",
                model.nodes[n].name
            ),
        );
    }
    // A node is on a cycle when following parents from it comes back to it.
    for (n, _) in rooted.iter().enumerate().filter(|(_, ok)| !**ok) {
        let mut node = n;
        for _ in 0..n_nodes {
            match model.nodes[node].parent {
                Some(q) if (q as usize) < n_nodes => node = q as usize,
                _ => break,
            }
            if node == n {
                p.add(
                    Loc::Node(m, n),
                    "parent",
                    "hierarchy cycle: the node is its own ancestor".to_string(),
                );
                break;
            }
        }
    }
    if model.mesh_node as usize >= n_nodes {
        p.add(
            here,
            "mesh_node",
            format!(
                "node {} does not exist (the model has {n_nodes} nodes)",
                model.mesh_node
            ),
        );
    }
    check_count(p, here, "joints", model.joints.len(), 1, MAX_JOINTS);
    for (j, &node) in model.joints.iter().enumerate() {
        if node as usize >= n_nodes {
            p.add(
                Loc::Joint(m, j),
                "",
                format!("palette entry names node {node}, which does not exist (the model has {n_nodes} nodes)"),
            );
        }
    }
    if model.inverse_bind.len() != model.joints.len() {
        p.add(
            here,
            "inverse_bind",
            format!(
                "must hold one matrix per joint ({}), found {}",
                model.joints.len(),
                model.inverse_bind.len()
            ),
        );
    }
    for (j, ibm) in model.inverse_bind.iter().enumerate() {
        check_inverse_bind(p, Loc::InverseBind(m, j), ibm);
    }
    check_vertices(m, model, p);
    check_indices(m, model, p);
    check_image(m, &model.image, p);
}

fn check_inverse_bind(p: &mut Problems, at: Loc, ibm: &[f32; 16]) {
    if !finite_all(p, at, "", ibm) {
        return;
    }
    if [ibm[3], ibm[7], ibm[11], ibm[15]] != [0.0, 0.0, 0.0, 1.0] {
        p.add(
            at,
            "",
            format!(
                "the last row must be 0 0 0 1, found {} {} {} {}",
                ibm[3], ibm[7], ibm[11], ibm[15]
            ),
        );
        return;
    }
    let e = |i: usize| f64::from(ibm[i]);
    // Column-major: element (row r, column c) is e(4c + r).
    let det = e(0) * (e(5) * e(10) - e(9) * e(6)) - e(4) * (e(1) * e(10) - e(9) * e(2))
        + e(8) * (e(1) * e(6) - e(5) * e(2));
    if det.abs() < MIN_DETERMINANT {
        p.add(
            at,
            "",
            format!(
                "singular: the 3 x 3 determinant is {det:e}, its magnitude must be at least {MIN_DETERMINANT:e}"
            ),
        );
    }
}

fn check_vertices(m: usize, model: &Model, p: &mut Problems) {
    check_count(
        p,
        Loc::Model(m),
        "vertices",
        model.vertices.len(),
        1,
        MAX_VERTICES,
    );
    let palette = model.joints.len() as f32;
    for (v, vertex) in model.vertices.iter().enumerate() {
        let at = Loc::Vertex(m, v);
        if !finite_all(p, at, "", vertex) {
            continue;
        }
        if vertex[6..8].iter().any(|&c| !(0.0..=1.0).contains(&c)) {
            p.add(
                at,
                "uv",
                format!(
                    "atlas UV must be within [0, 1], found ({}, {})",
                    vertex[6], vertex[7]
                ),
            );
        }
        for &i in &vertex[8..12] {
            if i.fract() != 0.0 || i < 0.0 || i >= palette {
                p.add(
                    at,
                    "joints",
                    format!(
                        "palette index must be an integral value below the palette length {palette}, found {i}"
                    ),
                );
                break;
            }
        }
        let weights = &vertex[12..16];
        if let Some(w) = weights.iter().find(|&&w| w < 0.0) {
            p.add(
                at,
                "weights",
                format!("weights must not be negative, found {w}"),
            );
        } else {
            let sum = weights.iter().fold(0.0f64, |s, &w| s + f64::from(w));
            if (sum - 1.0).abs() > UNIT_TOLERANCE {
                p.add(
                    at,
                    "weights",
                    format!("weights must sum to 1 (within {UNIT_TOLERANCE}), found {sum}"),
                );
            }
        }
    }
}

fn check_indices(m: usize, model: &Model, p: &mut Problems) {
    let n = model.indices.len();
    check_count(p, Loc::Model(m), "indices", n, 3, MAX_INDICES);
    if !n.is_multiple_of(3) {
        p.add(
            Loc::Model(m),
            "indices",
            format!("must be whole triangles (a multiple of 3), found {n}"),
        );
    }
    let vertices = model.vertices.len();
    for (i, &index) in model.indices.iter().enumerate() {
        if usize::from(index) >= vertices {
            p.add(
                Loc::Index(m, i),
                "",
                format!(
                    "triangle index {index} is out of range (the model has {vertices} vertices)"
                ),
            );
        }
    }
}

fn check_image(m: usize, image: &Image, p: &mut Problems) {
    let at = Loc::Image(m);
    for (field, side) in [("width", image.width), ("height", image.height)] {
        if side == 0 || side > MAX_TEXTURE_SIDE {
            p.add(
                at,
                field,
                format!("must be 1 to {MAX_TEXTURE_SIDE}, found {side}"),
            );
        }
    }
    if image.qoi.len() > MAX_IMAGE_BYTES {
        p.add(
            at,
            "qoi",
            format!(
                "{} bytes, more than the limit of {MAX_IMAGE_BYTES}",
                image.qoi.len()
            ),
        );
        return;
    }
    // The header first: dimensions that disagree (or are over the limit)
    // are reported without decoding a large image.
    let header = match qoi::header(&image.qoi) {
        Ok(h) => h,
        Err(e) => {
            p.add(at, "qoi", format!("malformed QOI: {e}"));
            return;
        }
    };
    if (header.width, header.height) != (image.width, image.height) {
        p.add(
            at,
            "qoi",
            format!(
                "the QOI header says {} x {}, the model declares {} x {}",
                header.width, header.height, image.width, image.height
            ),
        );
        return;
    }
    if header.width > MAX_TEXTURE_SIDE || header.height > MAX_TEXTURE_SIDE {
        return;
    }
    if header.channels != qoi::Channels::Rgba || header.colorspace != qoi::Colorspace::Srgb {
        p.add(
            at,
            "qoi",
            format!(
                "must have 4 channels and colorspace 0 (sRGB), found {} channels and colorspace {}",
                header.channels as u8, header.colorspace as u8
            ),
        );
        return;
    }
    if p.images == super::ImageCheck::Header {
        return;
    }
    let decoded = match qoi::decode(&image.qoi) {
        Ok(d) => d,
        Err(e) => {
            p.add(at, "qoi", format!("malformed QOI: {e}"));
            return;
        }
    };
    if !decoded.is_opaque() {
        p.add(
            at,
            "qoi",
            "the albedo must be opaque: a pixel's alpha is not 255".to_string(),
        );
        return;
    }
    if !qoi::is_reference_encoding(&decoded, &image.qoi) {
        p.add(
            at,
            "qoi",
            "not the canonical encoding: the bytes differ from the reference encoder's for these pixels"
                .to_string(),
        );
    }
}
