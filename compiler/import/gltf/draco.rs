//! `KHR_draco_mesh_compression`: a primitive whose attributes and triangles
//! are one Draco stream in a buffer view.
//!
//! The stream is decoded by the `draco-core` crate (pure Rust, no `unsafe`,
//! bit-exact with Google's Draco 1.5.7, which the tests check with DracoPy),
//! on the calling thread, with ceilings taken from what the glTF JSON says
//! the primitive holds, so a stream can never make more than its accessors
//! declare: faces at most the indices' `count / 3` (without an indices
//! accessor, what is left of the asset's sum of values), decoded attribute bytes at most
//! [`MAX_DRACO_BYTES_PER_VALUE`] per declared component; the decoded point
//! count must then equal the accessors'. The crate's own budget refuses
//! reservations that the stream's bytes do not back. The JSON's counts are
//! charged to the asset's sum of values before the stream is decoded, and
//! since draco-core's allocations abort when the system refuses them, kiln
//! asks for more than its measured peak first ([`DRACO_PROBE_BYTES_PER_POINT`]).
//!
//! Each glTF attribute the extension lists is read from the Draco attribute
//! with that unique id, point by point (the point-to-value map followed),
//! into the component type its accessor declares; the decoded faces are the
//! primitive's triangles. Attributes the extension does not list, and morph
//! targets, are ordinary accessors.
//!
//! Rejects: a buffer view that does not exist, a stream that does not decode
//! (the decoder's message, with the view and its length), an attribute the
//! extension lists that the primitive lacks or the stream lacks, a point
//! count or face count other than the accessors', a component count other
//! than the accessor's, a value that does not fit the accessor's type (a
//! float into integers, an integer out of range), a face naming a point the
//! stream lacks.

use std::collections::BTreeMap;

use draco_core::decode_limits::DecodeLimits;
use draco_core::decoder_buffer::DecoderBuffer;
use draco_core::draco_types::DataType;
use draco_core::geometry_attribute::PointAttribute;
use draco_core::geometry_indices::PointIndex;
use draco_core::mesh::Mesh;
use draco_core::mesh_decoder::MeshDecoder;

use super::accessor::{self, ComponentType, Header, Packed};
use super::{Asset, Error, json};

/// Draco stores at most 8 bytes a component (its 64-bit types): the ceiling
/// on decoded attribute bytes is this times the components the accessors
/// declare.
pub const MAX_DRACO_BYTES_PER_VALUE: usize = 8;

/// draco-core allocates inside itself, and its allocations abort when the
/// system refuses them; before a stream is decoded kiln asks for more than
/// the decoder's peak and gives it back ([`crate::memory::probe`]), so a
/// machine without the memory gets an error, not an abort. The peak,
/// measured on DracoPy's best-compressing streams with kiln's own copies
/// included (tests/stress/memory.rs): a flat grid of 1,000,000 points and
/// 1,996,002 triangles 134 MiB above kiln's baseline, a soup of 999,999
/// points and 333,333 triangles 74 MiB, about 62 bytes a point of three
/// components and 36 a triangle. The probe asks this much a point...
pub const DRACO_PROBE_BYTES_PER_POINT: usize = 24;
/// ...this much a point for each component the accessors declare...
pub const DRACO_PROBE_BYTES_PER_COMPONENT: usize = 16;
/// ...and this much a triangle the indices accessor declares.
pub const DRACO_PROBE_BYTES_PER_FACE: usize = 48;

/// A decoded Draco primitive: each listed glTF attribute's values, packed as
/// its accessor declares, and the triangles.
pub(crate) struct Decoded {
    pub attributes: BTreeMap<String, Packed>,
    pub indices: Vec<u32>,
}

/// Decodes primitive `p`'s Draco stream (errors are relative to the
/// primitive: `extensions.KHR_draco_mesh_compression...`).
pub(crate) fn decode(
    asset: &Asset<'_>,
    p: &json::Primitive,
    ext: &json::DracoPrimitive,
) -> Result<Decoded, Error> {
    let path = "extensions.KHR_draco_mesh_compression";
    let doc = asset.document();
    let Declared {
        attributes: declared,
        points,
        components,
    } = declared(asset, p, ext, path)?;
    let view = ext.buffer_view;
    let Some(stream) = asset.view(view) else {
        return Err(Error::at(
            format!("{path}.bufferView"),
            format!(
                "buffer view {view} does not exist ({} buffer views)",
                doc.buffer_views.len()
            ),
        ));
    };
    // The values count toward the asset's sum like an accessor's, before
    // anything is decoded: the points' values, and the triangles the
    // indices accessor declares.
    let indexed = indexed_triangles(asset, p)?;
    asset.charge(
        points
            .saturating_mul(components)
            .saturating_add(indexed.unwrap_or(0).saturating_mul(3)),
        path,
    )?;
    // Without an indices accessor nothing in the JSON counts the
    // triangles: what is left of the asset's sum bounds them (charged once
    // decoded, below).
    let faces = indexed.unwrap_or(asset.values_left() / 3);
    let limits = DecodeLimits::default()
        .with_max_points(points as u64)
        .with_max_faces(faces as u64)
        .with_max_decoded_bytes(
            points
                .saturating_mul(components)
                .saturating_mul(MAX_DRACO_BYTES_PER_VALUE) as u64,
        );
    let sizes = Sizes {
        view,
        stream_bytes: stream.len(),
        points,
        components,
        faces,
        indexed: indexed.is_some(),
    };
    probe_memory(&sizes, path)?;
    let mesh = decode_mesh(stream, limits, &sizes, path)?;
    if indexed.is_none() {
        asset.charge(mesh.num_faces().saturating_mul(3), path)?;
    }
    Ok(Decoded {
        attributes: attribute_values(&mesh, declared, points, path)?,
        indices: triangle_indices(&mesh, points, path)?,
    })
}

/// The attributes the extension lists (each a glTF attribute of the
/// primitive, with its accessor's header), their common point count and
/// their components in all.
struct Declared<'a> {
    attributes: Vec<(&'a str, u32, Header)>,
    points: usize,
    components: usize,
}

/// What the JSON declares, checked before anything is decoded.
fn declared<'a>(
    asset: &Asset<'_>,
    p: &json::Primitive,
    ext: &'a json::DracoPrimitive,
    path: &str,
) -> Result<Declared<'a>, Error> {
    let doc = asset.document();
    let mut declared: Vec<(&str, u32, Header)> = Vec::with_capacity(ext.attributes.len());
    for (name, &id) in &ext.attributes {
        let Some(&a) = p.attributes.get(name) else {
            return Err(Error::at(
                format!("{path}.attributes.{name}"),
                "the primitive has no such attribute",
            ));
        };
        let header = accessor::header(&doc.accessors, a)
            .map_err(|e| e.context(format!("attributes.{name}")))?;
        declared.push((name, id, header));
    }
    let Some(&(_, _, first)) = declared.first() else {
        return Err(Error::at(
            format!("{path}.attributes"),
            "lists no attribute",
        ));
    };
    let points = first.count;
    if let Some((name, _, h)) = declared.iter().find(|(_, _, h)| h.count != points) {
        return Err(Error::at(
            format!("attributes.{name}"),
            format!(
                "{} values, but the other attributes of the Draco primitive have {points}",
                h.count
            ),
        ));
    }
    let components: usize = declared
        .iter()
        .map(|(_, _, h)| h.element_type.components())
        .sum();
    Ok(Declared {
        attributes: declared,
        points,
        components,
    })
}

/// The triangles the indices accessor declares (a whole number of them),
/// if the primitive has one.
fn indexed_triangles(asset: &Asset<'_>, p: &json::Primitive) -> Result<Option<usize>, Error> {
    let doc = asset.document();
    Ok(match p.indices {
        Some(a) => {
            let count = accessor::header(&doc.accessors, a)
                .map_err(|e| e.context("indices"))?
                .count;
            if !count.is_multiple_of(3) {
                return Err(Error::at(
                    "indices",
                    format!("{count} indices is not a whole number of triangles"),
                ));
            }
            Some(count / 3)
        }
        None => None,
    })
}

/// The sizes of a Draco stream and of what it decodes to, for the memory
/// probe and the errors.
struct Sizes {
    view: usize,
    stream_bytes: usize,
    points: usize,
    components: usize,
    faces: usize,
    indexed: bool,
}

/// The memory draco-core will ask for, asked for first with room to
/// spare: its own allocations abort when the system refuses them, so a
/// refusal is an error here, naming the stream's sizes.
fn probe_memory(s: &Sizes, path: &str) -> Result<(), Error> {
    let &Sizes {
        view,
        stream_bytes,
        points,
        components,
        faces,
        indexed,
    } = s;
    let probe = DRACO_PROBE_BYTES_PER_POINT
        .saturating_add(DRACO_PROBE_BYTES_PER_COMPONENT.saturating_mul(components))
        .saturating_mul(points)
        .saturating_add(DRACO_PROBE_BYTES_PER_FACE.saturating_mul(faces));
    crate::memory::probe(probe).map_err(|e| {
        let (triangles, or) = if indexed {
            (format!("{faces} triangles"), "")
        } else {
            (
                format!("at most {faces} triangles"),
                ", or give the primitive its indices accessor (without one, nothing but the asset's sum of values bounds the triangles)",
            )
        };
        Error::at(
            path,
            format!(
                "decoding the Draco stream in buffer view {view} ({} bytes, {points} points, {triangles}) {e}: give kiln more memory or make the asset smaller{or}",
                stream_bytes
            ),
        )
    })?;
    Ok(())
}

/// The stream decoded under `limits`, with as many points as the
/// accessors and, with an indices accessor, as many triangles.
fn decode_mesh(stream: &[u8], limits: DecodeLimits, s: &Sizes, path: &str) -> Result<Mesh, Error> {
    let &Sizes {
        view,
        points,
        faces,
        indexed,
        ..
    } = s;
    let mut mesh = Mesh::new();
    MeshDecoder::new()
        .decode(
            &mut DecoderBuffer::new(stream).with_limits(limits),
            &mut mesh,
        )
        .map_err(|e| {
            Error::at(
                path,
                format!(
                    "the Draco stream in buffer view {view} ({} bytes) does not decode: {e}",
                    stream.len()
                ),
            )
        })?;
    if mesh.num_points() != points {
        return Err(Error::at(
            path,
            format!(
                "the Draco stream decodes {} points, but the attributes' accessors have {points}",
                mesh.num_points()
            ),
        ));
    }
    if indexed && mesh.num_faces() != faces {
        return Err(Error::at(
            path,
            format!(
                "the Draco stream decodes {} triangles, but the indices accessor has {}",
                mesh.num_faces(),
                faces * 3
            ),
        ));
    }
    Ok(mesh)
}

/// Each declared attribute's values, found by its unique id.
fn attribute_values(
    mesh: &Mesh,
    declared: Vec<(&str, u32, Header)>,
    points: usize,
    path: &str,
) -> Result<BTreeMap<String, Packed>, Error> {
    let mut attributes = BTreeMap::new();
    for (name, id, header) in declared {
        let at = format!("{path}.attributes.{name}");
        let Some(attribute) = mesh.attribute_by_unique_id(id) else {
            return Err(Error::at(
                &at,
                format!("the Draco stream has no attribute with unique id {id}"),
            ));
        };
        let packed = values(attribute, points, header).map_err(|e| e.context(&at))?;
        attributes.insert(name.to_string(), packed);
    }
    Ok(attributes)
}

/// The triangles' corners, each a point below `points`.
fn triangle_indices(mesh: &Mesh, points: usize, path: &str) -> Result<Vec<u32>, Error> {
    let mut indices = accessor::try_vec(mesh.num_faces() * 3)
        .map_err(|e| e.context(format!("{path}.indices")))?;
    for (f, face) in mesh.faces().iter().enumerate() {
        for corner in face {
            if corner.0 as usize >= points {
                return Err(Error::at(
                    path,
                    format!(
                        "triangle {f} of the Draco stream names point {}, of {points}",
                        corner.0
                    ),
                ));
            }
            indices.push(corner.0);
        }
    }
    Ok(indices)
}

/// Attribute values for points `0..points`, as `header`'s component type.
fn values(attribute: &PointAttribute, points: usize, header: Header) -> Result<Packed, Error> {
    let width = header.element_type.components();
    if attribute.num_components() as usize != width {
        return Err(Error(format!(
            "the Draco attribute has {} components, the accessor {width}",
            attribute.num_components()
        )));
    }
    let stored = attribute.data_type();
    let size = stored.byte_length();
    let Ok(stride) = usize::try_from(attribute.byte_stride()) else {
        return Err(Error("the Draco attribute has a negative stride".into()));
    };
    let data = attribute.buffer().data();
    let target = header.component_type;
    let mut bytes = accessor::try_vec(points * width * target.size())?;
    for point in 0..points {
        let value = attribute.mapped_index(PointIndex(point as u32)).0 as usize;
        let element = value
            .checked_mul(stride)
            .and_then(|s| Some(s..s.checked_add(width * size)?))
            .and_then(|r| data.get(r));
        let Some(element) = element.filter(|_| value < attribute.size()) else {
            return Err(Error(format!(
                "point {point} maps to value {value}, which the Draco attribute lacks ({} values)",
                attribute.size()
            )));
        };
        for component in element.chunks_exact(size) {
            convert(stored, component, target, &mut bytes)
                .map_err(|e| e.context(format!("[{point}]")))?;
        }
    }
    Ok(Packed {
        component_type: target,
        element_type: header.element_type,
        normalized: header.normalized,
        count: points,
        bytes,
    })
}

/// Appends one Draco component (`stored`, little-endian `raw`) as a
/// `target` component: floats stay floats; integers go to any integer type
/// that holds them, or to `f32` when exact (below 2^24).
fn convert(
    stored: DataType,
    raw: &[u8],
    target: ComponentType,
    out: &mut Vec<u8>,
) -> Result<(), Error> {
    let int: i128 = match stored {
        DataType::Float32 => {
            return if target == ComponentType::F32 {
                out.extend_from_slice(raw);
                Ok(())
            } else {
                Err(Error(format!(
                    "the Draco attribute stores floats, the accessor {target:?}"
                )))
            };
        }
        DataType::Int8 => raw[0] as i8 as i128,
        DataType::Uint8 | DataType::Bool => raw[0] as i128,
        DataType::Int16 => i16::from_le_bytes([raw[0], raw[1]]) as i128,
        DataType::Uint16 => u16::from_le_bytes([raw[0], raw[1]]) as i128,
        DataType::Int32 => i32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) as i128,
        DataType::Uint32 => u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]) as i128,
        DataType::Int64 => i64::from_le_bytes(raw.try_into().unwrap_or_default()) as i128,
        DataType::Uint64 => u64::from_le_bytes(raw.try_into().unwrap_or_default()) as i128,
        other => {
            return Err(Error(format!(
                "the Draco attribute stores {other:?} values, which glTF has no type for"
            )));
        }
    };
    let fits = |lo: i128, hi: i128| (lo..=hi).contains(&int);
    let ok = match target {
        ComponentType::I8 if fits(i8::MIN.into(), i8::MAX.into()) => {
            out.push(int as i8 as u8);
            true
        }
        ComponentType::U8 if fits(0, u8::MAX.into()) => {
            out.push(int as u8);
            true
        }
        ComponentType::I16 if fits(i16::MIN.into(), i16::MAX.into()) => {
            out.extend_from_slice(&(int as i16).to_le_bytes());
            true
        }
        ComponentType::U16 if fits(0, u16::MAX.into()) => {
            out.extend_from_slice(&(int as u16).to_le_bytes());
            true
        }
        ComponentType::U32 if fits(0, u32::MAX.into()) => {
            out.extend_from_slice(&(int as u32).to_le_bytes());
            true
        }
        ComponentType::F32 if fits(-(1 << 24), 1 << 24) => {
            out.extend_from_slice(&(int as f32).to_le_bytes());
            true
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Error(format!(
            "the Draco value {int} does not fit the accessor's {target:?}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::{ComponentType, DataType, convert};

    fn one(stored: DataType, raw: &[u8], target: ComponentType) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        convert(stored, raw, target, &mut out).map_err(|e| e.0)?;
        Ok(out)
    }

    #[test]
    fn integers_go_where_they_fit_and_nowhere_else() {
        use ComponentType::*;
        let i16s = |v: i16| v.to_le_bytes().to_vec();
        let i32s = |v: i32| v.to_le_bytes().to_vec();
        // Each target's exact range, both ends, and one past each.
        for (target, lo, hi) in [
            (I8, -128, 127),
            (U8, 0, 255),
            (I16, -32768, 32767),
            (U16, 0, 65535),
            (F32, -(1 << 24), 1 << 24),
        ] {
            for v in [lo, hi] {
                assert!(
                    one(DataType::Int32, &i32s(v), target).is_ok(),
                    "{v} {target:?}"
                );
            }
            for v in [lo - 1, hi + 1] {
                let e = one(DataType::Int32, &i32s(v), target).unwrap_err();
                assert!(e.contains("does not fit"), "{v} {target:?}: {e}");
            }
        }
        let u32max = u32::MAX.to_le_bytes();
        assert_eq!(one(DataType::Uint32, &u32max, U32).unwrap(), u32max);
        assert!(one(DataType::Int32, &i32s(-1), U32).is_err());
        assert!(one(DataType::Uint64, &(1u64 << 32).to_le_bytes(), U32).is_err());
        assert!(one(DataType::Int64, &(-1i64).to_le_bytes(), I8).is_ok());
        // The bytes are the value in the target's little-endian form.
        assert_eq!(one(DataType::Int16, &i16s(-2), I8).unwrap(), [0xFE]);
        assert_eq!(one(DataType::Uint8, &[200], U16).unwrap(), [200, 0]);
        assert_eq!(one(DataType::Int8, &[0xFF], I16).unwrap(), [0xFF, 0xFF]);
        assert_eq!(one(DataType::Uint16, &[1, 2], U32).unwrap(), [1, 2, 0, 0]);
        assert_eq!(
            one(DataType::Uint16, &[1, 2], F32).unwrap(),
            513f32.to_le_bytes()
        );
        assert_eq!(one(DataType::Bool, &[1], U8).unwrap(), [1]);
    }

    #[test]
    fn floats_stay_floats() {
        let bits = 1.5f32.to_le_bytes();
        assert_eq!(
            one(DataType::Float32, &bits, ComponentType::F32).unwrap(),
            bits
        );
        for target in [ComponentType::U8, ComponentType::U16, ComponentType::I16] {
            let e = one(DataType::Float32, &bits, target).unwrap_err();
            assert!(e.contains("stores floats"), "{e}");
        }
        let e = one(DataType::Float64, &[0; 8], ComponentType::F32).unwrap_err();
        assert!(e.contains("no type for"), "{e}");
    }
}
