//! Animations: one [`Clip`] per glTF animation, one [`Channel`] per glTF
//! channel that targets a node.
//!
//! Outputs are converted to `f32`; besides floats they may be the integer
//! types `KHR_mesh_quantization` allows: translation and scale any 8- or
//! 16-bit integer (normalized or not), rotation normalized i8/i16, weights
//! normalized 8- or 16-bit. `CUBICSPLINE` outputs keep glTF's
//! (in-tangent, value, out-tangent) triplets.
//!
//! Key times must strictly increase. No file of the test corpus (including
//! gltfpack's 30 Hz resampling) repeats a time, so a repeated time is
//! rejected rather than guessed at: it would make the value at that time
//! ambiguous.
//!
//! Channels without a target node are skipped (glTF allows that; an
//! extension such as `KHR_animation_pointer` may define the target).
//!
//! Rejects: an index out of range, an unknown path or interpolation, a TRS
//! channel on a node with a `matrix` (glTF forbids it), a `weights` channel
//! on a node without morph targets, two channels with the same node and
//! path in one animation, inputs that are not float SCALAR or whose times
//! are negative, non-finite or not strictly increasing, outputs of the
//! wrong type or count (3 per key for `CUBICSPLINE`), non-finite outputs.

use crate::model::{Channel, Clip, Interpolation, LocalTransform, Node, Target};

use super::accessor::{ComponentType, ElementType, Packed};
use super::json;
use super::{Asset, Error};

pub(crate) fn read(asset: &Asset<'_>, nodes: &[Node]) -> Result<Vec<Clip>, Error> {
    let doc = asset.document();
    doc.animations
        .iter()
        .enumerate()
        .map(|(i, a)| clip(asset, i, a, nodes))
        .collect()
}

fn clip(asset: &Asset<'_>, i: usize, a: &json::Animation, nodes: &[Node]) -> Result<Clip, Error> {
    let mut channels: Vec<Channel> = Vec::with_capacity(a.channels.len());
    // (node, path) pairs targeted so far: a second channel on one is one
    // lookup, not a scan of every earlier channel.
    let mut targeted = std::collections::HashSet::new();
    for (c, ch) in a.channels.iter().enumerate() {
        let path = format!("animations[{i}].channels[{c}]");
        let Some(node) = ch.target.node else { continue };
        let target = target(asset, &path, node, &ch.target.path, nodes)?;
        if !targeted.insert((node, std::mem::discriminant(&target))) {
            return Err(Error::at(
                format!("{path}.target"),
                format!(
                    "another channel of this animation already targets node {node} {}",
                    ch.target.path
                ),
            ));
        }
        let Some(sampler) = a.samplers.get(ch.sampler) else {
            return Err(Error::at(
                format!("{path}.sampler"),
                format!(
                    "sampler {} is out of range ({} samplers)",
                    ch.sampler,
                    a.samplers.len()
                ),
            ));
        };
        let sampler_path = format!("animations[{i}].samplers[{}]", ch.sampler);
        channels.push(channel(asset, &sampler_path, sampler, node, target)?);
    }
    Ok(Clip {
        name: a.name.clone(),
        channels,
    })
}

fn target(
    asset: &Asset<'_>,
    path: &str,
    node: usize,
    name: &str,
    nodes: &[Node],
) -> Result<Target, Error> {
    let Some(n) = nodes.get(node) else {
        return Err(Error::at(
            format!("{path}.target.node"),
            format!("node {node} is out of range ({} nodes)", nodes.len()),
        ));
    };
    let target = match name {
        "translation" => Target::Translation,
        "rotation" => Target::Rotation,
        "scale" => Target::Scale,
        "weights" => Target::Weights {
            n: morph_target_count(asset, node).ok_or_else(|| {
                Error::at(
                    format!("{path}.target"),
                    format!("node {node} has no mesh with morph targets to weight"),
                )
            })?,
        },
        other => {
            return Err(Error::at(
                format!("{path}.target.path"),
                format!("unknown path {other:?} (translation, rotation, scale or weights)"),
            ));
        }
    };
    if matches!(n.local, LocalTransform::Matrix(_)) && !matches!(target, Target::Weights { .. }) {
        return Err(Error::at(
            format!("{path}.target"),
            format!("node {node} has a matrix, and glTF forbids animating its {name}"),
        ));
    }
    Ok(target)
}

/// The number of morph targets of `node`'s mesh (glTF requires every
/// primitive of a mesh to have the same number), if it has any.
fn morph_target_count(asset: &Asset<'_>, node: usize) -> Option<usize> {
    let doc = asset.document();
    let mesh = doc.meshes.get(doc.nodes.get(node)?.mesh?)?;
    let n = mesh.primitives.first()?.targets.len();
    (n > 0).then_some(n)
}

fn channel(
    asset: &Asset<'_>,
    path: &str,
    sampler: &json::AnimationSampler,
    node: usize,
    target: Target,
) -> Result<Channel, Error> {
    let interpolation = match sampler.interpolation.as_deref().unwrap_or("LINEAR") {
        "LINEAR" => Interpolation::Linear,
        "STEP" => Interpolation::Step,
        "CUBICSPLINE" => Interpolation::CubicSpline,
        other => {
            return Err(Error::at(
                format!("{path}.interpolation"),
                format!("unknown interpolation {other:?} (STEP, LINEAR or CUBICSPLINE)"),
            ));
        }
    };
    let times_s = times(asset, &format!("{path}.input"), sampler.input)?;
    let out_path = format!("{path}.output");
    let output = asset
        .read_accessor(sampler.output)
        .map_err(|e| e.context(&out_path))?;
    check_output_type(&out_path, &output, target)?;
    let values = output.to_f32().map_err(|e| e.context(&out_path))?;
    let (per_key, rule) = match interpolation {
        Interpolation::CubicSpline => (
            3 * target.width(),
            format!(
                "CUBICSPLINE {} needs 3 per key (in-tangent, value, out-tangent) of {} values",
                path_name(target),
                target.width()
            ),
        ),
        _ => (
            target.width(),
            format!(
                "{} needs {} values per key",
                path_name(target),
                target.width()
            ),
        ),
    };
    let expected = times_s.len().checked_mul(per_key);
    if expected != Some(values.len()) {
        return Err(Error::at(
            &out_path,
            format!(
                "{} output values for {} keys: {rule}",
                values.len(),
                times_s.len()
            ),
        ));
    }
    if let Some(k) = values.iter().position(|v| !v.is_finite()) {
        return Err(Error::at(
            &out_path,
            format!("value {k} ({}) is not finite", values[k]),
        ));
    }
    Ok(Channel {
        node,
        target,
        interpolation,
        times_s,
        values,
    })
}

fn times(asset: &Asset<'_>, path: &str, input: usize) -> Result<Vec<f32>, Error> {
    let packed = asset.read_accessor(input).map_err(|e| e.context(path))?;
    if packed.element_type != ElementType::Scalar || packed.component_type != ComponentType::F32 {
        return Err(Error::at(
            path,
            format!(
                "key times must be a float SCALAR accessor, accessor {input} is {:?} {:?}",
                packed.component_type, packed.element_type
            ),
        ));
    }
    let times = packed.to_f32().map_err(|e| e.context(path))?;
    let mut previous: Option<f32> = None;
    for (k, &t) in times.iter().enumerate() {
        let bad = if !t.is_finite() {
            Some("is not finite")
        } else if t < 0.0 {
            Some("is negative")
        } else if previous.is_some_and(|p| t <= p) {
            Some("does not strictly increase")
        } else {
            None
        };
        if let Some(why) = bad {
            return Err(Error::at(
                path,
                format!("key time {k} ({t} s) of accessor {input} {why}"),
            ));
        }
        previous = Some(t);
    }
    Ok(times)
}

/// The glTF `path` of a target.
fn path_name(target: Target) -> &'static str {
    match target {
        Target::Translation => "translation",
        Target::Rotation => "rotation",
        Target::Scale => "scale",
        Target::Weights { .. } => "weights",
    }
}

fn check_output_type(path: &str, output: &Packed, target: Target) -> Result<(), Error> {
    use ComponentType::*;
    let (want_type, type_name) = match target {
        Target::Translation | Target::Scale => (ElementType::Vec3, "VEC3"),
        Target::Rotation => (ElementType::Vec4, "VEC4"),
        Target::Weights { .. } => (ElementType::Scalar, "SCALAR"),
    };
    if output.element_type != want_type {
        return Err(Error::at(
            path,
            format!(
                "{} outputs must be {type_name}, not {:?}",
                path_name(target),
                output.element_type
            ),
        ));
    }
    let ct = output.component_type;
    let ok = match target {
        Target::Translation | Target::Scale => ct != U32,
        Target::Rotation => ct == F32 || (output.normalized && matches!(ct, I8 | I16)),
        Target::Weights { .. } => ct == F32 || (output.normalized && ct != U32),
    };
    if !ok {
        let norm = if output.normalized { "normalized " } else { "" };
        return Err(Error::at(
            path,
            format!(
                "{} outputs cannot be {norm}{ct:?} (glTF and KHR_mesh_quantization rules)",
                path_name(target)
            ),
        ));
    }
    Ok(())
}
