//! Meshes: each primitive's triangles and vertex attributes.
//!
//! Reads `POSITION` (required), `NORMAL`, `TEXCOORD_0`, `TEXCOORD_1`, …
//! (consecutive sets), `COLOR_0` (RGB or RGBA; float or normalized u8/u16,
//! linear by glTF's rule), `JOINTS_0`/`WEIGHTS_0` and `JOINTS_1`/`WEIGHTS_1`,
//! of any component type the accessor reader knows (quantized ones
//! included), the morph targets' `POSITION` and `NORMAL` displacements and
//! the mesh's default weights, and the indices (or `0..n` without them).
//! Strips (mode 5) and fans (mode 6) are unrolled into triangle lists, with
//! strips' odd triangles flipped to keep their winding. Morph targets are
//! read, not applied: the baker decides.
//!
//! Rejects: points and lines (modes 0 to 3; a character is made of
//! triangles), a missing `POSITION`, an attribute whose count differs from
//! `POSITION`'s or whose element type is wrong, a value that is not finite,
//! a colour outside 0..=1, an index out of range, a triangle list whose
//! length is not a multiple of 3.

use std::borrow::Cow;

use crate::model::material::{Mesh, MorphTarget, Primitive};

use super::{Asset, Error, Packed, accessor, draco, json};

/// How far outside 0..=1 a float colour may be and still be read (clamped):
/// writers round; a larger excursion is a broken file.
const COLOR_TOLERANCE: f32 = 1e-4;

pub(crate) fn read(asset: &Asset<'_>, index: usize) -> Result<Mesh, Error> {
    let doc = asset.document();
    let Some(mesh) = doc.meshes.get(index) else {
        return Err(Error::at(
            format!("meshes[{index}]"),
            format!("mesh does not exist ({} meshes)", doc.meshes.len()),
        ));
    };
    let primitives = mesh
        .primitives
        .iter()
        .enumerate()
        .map(|(k, p)| {
            primitive(asset, p, doc.materials.len())
                .map_err(|e| e.context(format!("meshes[{index}].primitives[{k}]")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Mesh {
        name: mesh.name.clone(),
        primitives,
        weights: mesh.weights.clone().unwrap_or_default(),
    })
}

fn primitive(asset: &Asset<'_>, p: &json::Primitive, materials: usize) -> Result<Primitive, Error> {
    let mode = p.mode.unwrap_or(4);
    if !(4..=6).contains(&mode) {
        return Err(Error::at(
            "mode",
            format!("mode {mode} is points or lines; only triangles (4, 5, 6) make a mesh"),
        ));
    }
    if let Some(m) = p.material
        && m >= materials
    {
        return Err(Error::at(
            "material",
            format!("material {m} does not exist ({materials} materials)"),
        ));
    }
    let draco = match &p.extensions.draco {
        None => None,
        Some(ext) => Some(draco::decode(asset, p, ext)?),
    };
    let reader = Attributes {
        asset,
        primitive: p,
        draco: draco.as_ref(),
    };
    if !p.attributes.contains_key("POSITION") {
        return Err(Error::at("attributes", "POSITION is required"));
    }
    let positions: Vec<[f32; 3]> = reader.floats("POSITION")?.unwrap_or_default();
    let n = positions.len();
    let attribute = |name: &str, got: usize| counted(&format!("attributes.{name}"), got, n);
    let normals = match reader.floats::<3>("NORMAL")? {
        None => None,
        Some(v) => {
            attribute("NORMAL", v.len())?;
            Some(v)
        }
    };
    let mut tex_coords = Vec::new();
    while let Some(v) = reader.floats::<2>(&format!("TEXCOORD_{}", tex_coords.len()))? {
        attribute(&format!("TEXCOORD_{}", tex_coords.len()), v.len())?;
        tex_coords.push(v);
    }
    let colors = vertex_colors(&reader, n)?;
    let joints = joint_set(&reader, "JOINTS_0", n)?;
    let weights = weight_set(&reader, "WEIGHTS_0", n)?;
    let joints_1 = joint_set(&reader, "JOINTS_1", n)?;
    let weights_1 = weight_set(&reader, "WEIGHTS_1", n)?;
    if joints_1.is_some() != weights_1.is_some() || joints.is_some() != weights.is_some() {
        return Err(Error::at(
            "attributes",
            "JOINTS_n and WEIGHTS_n come in pairs: one is missing its twin",
        ));
    }
    let targets = morph_targets(asset, p, n)?;
    let raw = raw_indices(asset, p, draco, n)?;
    let indices = triangles(mode, raw)?;
    Ok(Primitive {
        material: p.material,
        positions,
        normals,
        tex_coords,
        colors,
        joints,
        weights,
        joints_1,
        weights_1,
        targets,
        indices,
    })
}

/// COLOR_0 (VEC3 or VEC4, `n` of them) as RGBA in 0..=1, opaque without
/// alpha; a value outside 0..=1 (beyond rounding) is an error naming it.
fn vertex_colors(reader: &Attributes, n: usize) -> Result<Option<Vec<[f32; 4]>>, Error> {
    Ok(match reader.packed("COLOR_0")? {
        None => None,
        Some(packed) => {
            let v = packed
                .to_f32()
                .map_err(|e| e.context("attributes.COLOR_0"))?;
            let width = packed.components();
            if width != 3 && width != 4 {
                return Err(Error::at(
                    "attributes.COLOR_0",
                    format!("{width} components; COLOR_0 is VEC3 or VEC4"),
                ));
            }
            let mut out =
                accessor::try_vec(v.len() / width).map_err(|e| e.context("attributes.COLOR_0"))?;
            for (k, c) in v.chunks_exact(width).enumerate() {
                let mut rgba = [1.0f32; 4];
                for (j, &x) in c.iter().enumerate() {
                    if !x.is_finite() || !(-COLOR_TOLERANCE..=1.0 + COLOR_TOLERANCE).contains(&x) {
                        return Err(Error::at(
                            format!("attributes.COLOR_0[{k}][{j}]"),
                            format!("{x} is not in 0..=1"),
                        ));
                    }
                    rgba[j] = x.clamp(0.0, 1.0);
                }
                out.push(rgba);
            }
            counted("attributes.COLOR_0", out.len(), n)?;
            Some(out)
        }
    })
}

/// The morph targets' POSITION and NORMAL displacements, `n` each.
fn morph_targets(
    asset: &Asset<'_>,
    p: &json::Primitive,
    n: usize,
) -> Result<Vec<MorphTarget>, Error> {
    let mut targets = Vec::with_capacity(p.targets.len());
    for (t, target) in p.targets.iter().enumerate() {
        let read = |name: &str| -> Result<Option<Vec<[f32; 3]>>, Error> {
            match target.get(name) {
                None => Ok(None),
                Some(&a) => {
                    let v: Vec<[f32; 3]> = asset
                        .read_accessor(a)
                        .and_then(|packed| floats(&packed, &format!("attributes.{name}")))
                        .map_err(|e| e.context(format!("targets[{t}]")))?;
                    counted(&format!("targets[{t}].{name}"), v.len(), n)?;
                    Ok(Some(v))
                }
            }
        };
        targets.push(MorphTarget {
            positions: read("POSITION")?,
            normals: read("NORMAL")?,
        });
    }
    Ok(targets)
}

/// The primitive's vertex indices as stored (its Draco stream's, its
/// accessor's, or 0..n without one), each below `n`.
fn raw_indices(
    asset: &Asset<'_>,
    p: &json::Primitive,
    draco: Option<draco::Decoded>,
    n: usize,
) -> Result<Vec<u32>, Error> {
    let raw: Vec<u32> = match (draco, p.indices) {
        (Some(d), _) => d.indices,
        (None, None) => {
            let mut all = accessor::try_vec(n).map_err(|e| e.context("indices"))?;
            all.extend(0..n as u32);
            all
        }
        (None, Some(a)) => {
            let (v, width) = asset
                .read_accessor_u32(a)
                .map_err(|e| e.context("indices"))?;
            if width != 1 {
                return Err(Error::at("indices", "indices are SCALAR"));
            }
            v
        }
    };
    if let Some(k) = raw.iter().position(|&i| i as usize >= n) {
        return Err(Error::at(
            format!("indices[{k}]"),
            format!("vertex {} is out of range ({n} vertices)", raw[k]),
        ));
    }
    Ok(raw)
}

/// Where a primitive's attributes come from: its accessors, or, for those
/// its Draco stream holds, the decoded stream.
struct Attributes<'a, 'b> {
    asset: &'a Asset<'b>,
    primitive: &'a json::Primitive,
    draco: Option<&'a draco::Decoded>,
}

impl Attributes<'_, '_> {
    /// Attribute `name`'s values, `None` when the primitive lacks it.
    fn packed(&self, name: &str) -> Result<Option<Cow<'_, Packed>>, Error> {
        let Some(&a) = self.primitive.attributes.get(name) else {
            return Ok(None);
        };
        if let Some(packed) = self.draco.and_then(|d| d.attributes.get(name)) {
            return Ok(Some(Cow::Borrowed(packed)));
        }
        let packed = self
            .asset
            .read_accessor(a)
            .map_err(|e| e.context(format!("attributes.{name}")))?;
        Ok(Some(Cow::Owned(packed)))
    }

    /// Attribute `name` as finite `N`-wide floats.
    fn floats<const N: usize>(&self, name: &str) -> Result<Option<Vec<[f32; N]>>, Error> {
        match self.packed(name)? {
            None => Ok(None),
            Some(packed) => floats(&packed, &format!("attributes.{name}")).map(Some),
        }
    }
}

/// `JOINTS_n`: four joint indices per vertex, as many as positions (`n`).
fn joint_set(
    reader: &Attributes<'_, '_>,
    name: &str,
    n: usize,
) -> Result<Option<Vec<[u16; 4]>>, Error> {
    let Some(packed) = reader.packed(name)? else {
        return Ok(None);
    };
    let path = format!("attributes.{name}");
    let Some(v) = packed.to_u32().map_err(|e| e.context(&path))? else {
        return Err(Error::at(
            &path,
            format!(
                "{:?} components cannot be read as unsigned integers",
                packed.component_type
            ),
        ));
    };
    let width = packed.components();
    if width != 4 {
        return Err(Error::at(&path, format!("{name} is VEC4")));
    }
    let mut out = accessor::try_vec(v.len() / 4).map_err(|e| e.context(&path))?;
    for (k, j) in v.chunks_exact(4).enumerate() {
        let mut four = [0u16; 4];
        for (slot, &x) in four.iter_mut().zip(j) {
            *slot = u16::try_from(x).map_err(|_| {
                Error::at(format!("{path}[{k}]"), format!("joint {x} is above 65535"))
            })?;
        }
        out.push(four);
    }
    counted(&path, out.len(), n)?;
    Ok(Some(out))
}

/// `WEIGHTS_n`: four weights per vertex, as many as positions (`n`).
fn weight_set(
    reader: &Attributes<'_, '_>,
    name: &str,
    n: usize,
) -> Result<Option<Vec<[f32; 4]>>, Error> {
    let Some(v) = reader.floats::<4>(name)? else {
        return Ok(None);
    };
    counted(&format!("attributes.{name}"), v.len(), n)?;
    Ok(Some(v))
}

/// An attribute at `path` must hold as many values as POSITION (`n`).
fn counted(path: &str, got: usize, n: usize) -> Result<(), Error> {
    if got == n {
        Ok(())
    } else {
        Err(Error::at(
            path,
            format!("{got} values, but POSITION has {n}"),
        ))
    }
}

/// `packed` (at `path`) as finite `N`-wide floats.
fn floats<const N: usize>(packed: &Packed, path: &str) -> Result<Vec<[f32; N]>, Error> {
    let flat = packed.to_f32().map_err(|e| e.context(path))?;
    let width = packed.components();
    if width != N {
        return Err(Error::at(path, format!("{width} components, expected {N}")));
    }
    if let Some(k) = flat.iter().position(|v| !v.is_finite()) {
        return Err(Error::at(
            format!("{path}[{}]", k / N),
            format!("{} is not finite", flat[k]),
        ));
    }
    let mut out = accessor::try_vec(flat.len() / N).map_err(|e| e.context(path))?;
    out.extend_from_slice(flat.as_chunks::<N>().0);
    Ok(out)
}

/// A triangle list from indices of `mode` 4 (list), 5 (strip) or 6 (fan).
fn triangles(mode: u32, idx: Vec<u32>) -> Result<Vec<u32>, Error> {
    match mode {
        4 if idx.len().is_multiple_of(3) => Ok(idx),
        4 => Err(Error::at(
            "indices",
            format!("{} indices is not a whole number of triangles", idx.len()),
        )),
        5 => {
            let n = idx.len().saturating_sub(2);
            let mut out =
                accessor::try_vec(n.saturating_mul(3)).map_err(|e| e.context("indices"))?;
            out.extend((0..n).flat_map(|i| {
                if i % 2 == 0 {
                    [idx[i], idx[i + 1], idx[i + 2]]
                } else {
                    [idx[i + 1], idx[i], idx[i + 2]]
                }
            }));
            Ok(out)
        }
        _ => {
            let n = idx.len().saturating_sub(2);
            let mut out =
                accessor::try_vec(n.saturating_mul(3)).map_err(|e| e.context("indices"))?;
            out.extend((1..idx.len().saturating_sub(1)).flat_map(|i| [idx[0], idx[i], idx[i + 1]]));
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::triangles;

    #[test]
    fn strips_and_fans_unroll_with_their_winding() {
        assert_eq!(
            triangles(5, vec![0, 1, 2, 3, 4]).unwrap(),
            [0, 1, 2, 2, 1, 3, 2, 3, 4]
        );
        assert_eq!(triangles(6, vec![0, 1, 2, 3]).unwrap(), [0, 1, 2, 0, 2, 3]);
        assert_eq!(triangles(5, vec![0, 1]).unwrap(), Vec::<u32>::new());
        assert!(triangles(4, vec![0, 1]).is_err());
    }
}
