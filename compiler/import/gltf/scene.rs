//! The node hierarchy, the default scene's roots and the skins.
//!
//! A node with `matrix` becomes [`LocalTransform::Matrix`], any other
//! [`LocalTransform::Trs`] (missing parts are identity). Roots are the
//! nodes of `scene`, else of scene 0, else every parentless node.
//!
//! Rejects: an index out of range, a node that is its own child or a child
//! of two nodes, a cycle, a root that has a parent (or is listed twice), a
//! node with both `matrix` and TRS, a non-finite value, a rotation whose
//! length is off 1 by more than [`ROTATION_UNIT_TOLERANCE`], a skin without
//! joints, inverse bind matrices that are not a float MAT4 accessor with
//! at least one matrix per joint.

use crate::model::{LocalTransform, Node, Skin, Trs};

use super::accessor::{ComponentType, ElementType};
use super::json;
use super::{Asset, Error};

/// How far a node's rotation quaternion's length may be from 1. glTF
/// requires unit quaternions; exporters write them with f32 rounding,
/// far inside this. A larger error is a broken file, not rounding.
pub const ROTATION_UNIT_TOLERANCE: f32 = 1e-3;

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

pub(crate) struct Hierarchy {
    pub nodes: Vec<Node>,
    pub roots: Vec<usize>,
    pub skins: Vec<Skin>,
}

pub(crate) fn read(asset: &Asset<'_>) -> Result<Hierarchy, Error> {
    let doc = asset.document();
    let mut nodes = doc
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| node(doc, i, n))
        .collect::<Result<Vec<_>, _>>()?;
    link_children(&mut nodes)?;
    check_acyclic(&nodes)?;
    let roots = roots(doc, &nodes)?;
    let skins = doc
        .skins
        .iter()
        .enumerate()
        .map(|(i, s)| skin(asset, i, s, nodes.len()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Hierarchy {
        nodes,
        roots,
        skins,
    })
}

fn finite(values: &[f32], path: &str) -> Result<(), Error> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(k) => Err(Error::at(
            format!("{path}[{k}]"),
            format!("value {} is not finite", values[k]),
        )),
    }
}

fn node(doc: &json::Document, i: usize, n: &json::Node) -> Result<Node, Error> {
    let path = format!("nodes[{i}]");
    let has_trs = n.translation.is_some() || n.rotation.is_some() || n.scale.is_some();
    let local = match n.matrix {
        Some(_) if has_trs => {
            return Err(Error::at(
                &path,
                "a node with a matrix must not also have translation, rotation or scale",
            ));
        }
        Some(m) => {
            finite(&m, &format!("{path}.matrix"))?;
            LocalTransform::Matrix(m)
        }
        None => {
            let t = n.translation.unwrap_or(Trs::IDENTITY.translation);
            let r = n.rotation.unwrap_or(Trs::IDENTITY.rotation);
            let s = n.scale.unwrap_or(Trs::IDENTITY.scale);
            finite(&t, &format!("{path}.translation"))?;
            finite(&r, &format!("{path}.rotation"))?;
            finite(&s, &format!("{path}.scale"))?;
            let length = r.iter().map(|c| c * c).sum::<f32>().sqrt();
            if (length - 1.0).abs() > ROTATION_UNIT_TOLERANCE {
                return Err(Error::at(
                    format!("{path}.rotation"),
                    format!("rotation must be a unit quaternion, its length is {length}"),
                ));
            }
            LocalTransform::Trs(Trs {
                translation: t,
                rotation: r,
                scale: s,
            })
        }
    };
    if let Some(mesh) = n.mesh
        && mesh >= doc.meshes.len()
    {
        return Err(Error::at(
            format!("{path}.mesh"),
            format!("mesh {mesh} is out of range ({} meshes)", doc.meshes.len()),
        ));
    }
    if let Some(skin) = n.skin
        && skin >= doc.skins.len()
    {
        return Err(Error::at(
            format!("{path}.skin"),
            format!("skin {skin} is out of range ({} skins)", doc.skins.len()),
        ));
    }
    Ok(Node {
        name: n.name.clone(),
        parent: None,
        children: n.children.clone(),
        local,
    })
}

fn link_children(nodes: &mut [Node]) -> Result<(), Error> {
    let count = nodes.len();
    for i in 0..count {
        for k in 0..nodes[i].children.len() {
            let child = nodes[i].children[k];
            let path = format!("nodes[{i}].children[{k}]");
            if child >= count {
                return Err(Error::at(
                    path,
                    format!("node {child} is out of range ({count} nodes)"),
                ));
            }
            if child == i {
                return Err(Error::at(path, "a node cannot be its own child"));
            }
            if let Some(p) = nodes[child].parent {
                return Err(Error::at(
                    path,
                    format!(
                        "node {child} is already a child of node {p}: a node has at most one parent"
                    ),
                ));
            }
            nodes[child].parent = Some(i);
        }
    }
    Ok(())
}

/// With at most one parent each, the nodes form a forest unless some
/// nodes form a cycle; those (and their descendants) are not reachable
/// from any parentless node. The error names a node on the cycle.
fn check_acyclic(nodes: &[Node]) -> Result<(), Error> {
    let mut reached = vec![false; nodes.len()];
    let mut stack: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].parent.is_none())
        .collect();
    while let Some(i) = stack.pop() {
        reached[i] = true;
        stack.extend(nodes[i].children.iter().copied());
    }
    let Some(mut i) = reached.iter().position(|r| !r) else {
        return Ok(());
    };
    // Every unreached node has a parent; walking up `len` times from one
    // surely ends on the cycle above it.
    for _ in 0..nodes.len() {
        i = nodes[i].parent.unwrap_or(i);
    }
    Err(Error::at(
        format!("nodes[{i}]"),
        "the node hierarchy has a cycle through this node",
    ))
}

fn roots(doc: &json::Document, nodes: &[Node]) -> Result<Vec<usize>, Error> {
    let (list, path) = match doc.scene {
        Some(s) => match doc.scenes.get(s) {
            Some(scene) => (&scene.nodes, format!("scenes[{s}].nodes")),
            None => {
                return Err(Error::at(
                    "scene",
                    format!("scene {s} is out of range ({} scenes)", doc.scenes.len()),
                ));
            }
        },
        None => match doc.scenes.first() {
            Some(scene) => (&scene.nodes, "scenes[0].nodes".to_string()),
            None => {
                return Ok((0..nodes.len())
                    .filter(|&i| nodes[i].parent.is_none())
                    .collect());
            }
        },
    };
    let mut seen = vec![false; nodes.len()];
    for (k, &root) in list.iter().enumerate() {
        let at = format!("{path}[{k}]");
        let Some(node) = nodes.get(root) else {
            return Err(Error::at(
                at,
                format!("node {root} is out of range ({} nodes)", nodes.len()),
            ));
        };
        if let Some(p) = node.parent {
            return Err(Error::at(
                at,
                format!("node {root} is a child of node {p}, so it cannot be a root"),
            ));
        }
        if std::mem::replace(&mut seen[root], true) {
            return Err(Error::at(at, format!("node {root} is listed twice")));
        }
    }
    Ok(list.clone())
}

fn skin(asset: &Asset<'_>, i: usize, s: &json::Skin, node_count: usize) -> Result<Skin, Error> {
    let path = format!("skins[{i}]");
    if s.joints.is_empty() {
        return Err(Error::at(
            format!("{path}.joints"),
            "a skin needs at least one joint",
        ));
    }
    for (k, &j) in s.joints.iter().enumerate() {
        if j >= node_count {
            return Err(Error::at(
                format!("{path}.joints[{k}]"),
                format!("node {j} is out of range ({node_count} nodes)"),
            ));
        }
    }
    if let Some(root) = s.skeleton
        && root >= node_count
    {
        return Err(Error::at(
            format!("{path}.skeleton"),
            format!("node {root} is out of range ({node_count} nodes)"),
        ));
    }
    let inverse_bind = match s.inverse_bind_matrices {
        None => vec![IDENTITY; s.joints.len()],
        Some(a) => {
            let at = format!("{path}.inverseBindMatrices");
            let packed = asset.read_accessor(a).map_err(|e| e.context(&at))?;
            if packed.element_type != ElementType::Mat4
                || packed.component_type != ComponentType::F32
            {
                return Err(Error::at(
                    at,
                    format!(
                        "accessor {a} must be float MAT4, it is {:?} {:?}",
                        packed.component_type, packed.element_type
                    ),
                ));
            }
            if packed.count < s.joints.len() {
                return Err(Error::at(
                    at,
                    format!(
                        "accessor {a} has {} matrices for {} joints",
                        packed.count,
                        s.joints.len()
                    ),
                ));
            }
            let values = packed
                .to_f32()
                .map_err(|e| e.context(format!("accessors[{a}]")))?;
            finite(&values, &format!("accessors[{a}]"))?;
            values
                .chunks_exact(16)
                .take(s.joints.len())
                .map(|m| m.try_into().unwrap_or(IDENTITY))
                .collect()
        }
    };
    Ok(Skin {
        name: s.name.clone(),
        joints: s.joints.clone(),
        inverse_bind,
        skeleton: s.skeleton,
    })
}
