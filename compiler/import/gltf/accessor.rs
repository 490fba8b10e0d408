//! Accessors: typed arrays over buffer views.
//!
//! Reads every component type (i8, u8, i16, u16, u32, f32) and element type
//! (SCALAR, VEC2-4, MAT2-4, with the glTF rule that each matrix column
//! starts on a 4-byte boundary, which pads MAT2 of 1-byte and MAT3 of 1-
//! and 2-byte components), byte strides, accessors without a buffer view
//! (all zeros) and sparse accessors. [`Packed`] holds the components
//! tightly packed (no stride, no column padding) as little-endian bytes and
//! converts them to `f32` (normalized integers by the glTF formulas) or
//! `u32`.
//!
//! Rejects: an unknown component or element type, `normalized` on float or
//! u32, a stride shorter than an element, any byte range outside its view,
//! more than [`MAX_ACCESSOR_VALUES`] values, sparse indices that are not
//! strictly increasing or out of range. Alignment is not checked: reads go
//! through `from_le_bytes`, so a misaligned (but in-range) accessor reads
//! correctly, and rejecting it would only reject real files.

use super::Error;
use super::json;
use super::views::ViewSet;

/// Most components one accessor may hold (2^28, i.e. 1 GiB as `f32`):
/// bounds the allocation for accessors without a buffer view, whose
/// `count` nothing else bounds.
pub const MAX_ACCESSOR_VALUES: usize = 1 << 28;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentType {
    I8,
    U8,
    I16,
    U16,
    U32,
    F32,
}

impl ComponentType {
    /// From the glTF `componentType` code (5120..=5126, without 5124).
    pub fn from_code(code: u32) -> Option<ComponentType> {
        Some(match code {
            5120 => ComponentType::I8,
            5121 => ComponentType::U8,
            5122 => ComponentType::I16,
            5123 => ComponentType::U16,
            5125 => ComponentType::U32,
            5126 => ComponentType::F32,
            _ => return None,
        })
    }

    pub fn size(self) -> usize {
        match self {
            ComponentType::I8 | ComponentType::U8 => 1,
            ComponentType::I16 | ComponentType::U16 => 2,
            ComponentType::U32 | ComponentType::F32 => 4,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementType {
    Scalar,
    Vec2,
    Vec3,
    Vec4,
    Mat2,
    Mat3,
    Mat4,
}

impl ElementType {
    pub fn parse(name: &str) -> Option<ElementType> {
        Some(match name {
            "SCALAR" => ElementType::Scalar,
            "VEC2" => ElementType::Vec2,
            "VEC3" => ElementType::Vec3,
            "VEC4" => ElementType::Vec4,
            "MAT2" => ElementType::Mat2,
            "MAT3" => ElementType::Mat3,
            "MAT4" => ElementType::Mat4,
            _ => return None,
        })
    }

    /// Components per element (4 for MAT2, 9 for MAT3, 16 for MAT4).
    pub fn components(self) -> usize {
        match self {
            ElementType::Scalar => 1,
            ElementType::Vec2 => 2,
            ElementType::Vec3 => 3,
            ElementType::Vec4 | ElementType::Mat2 => 4,
            ElementType::Mat3 => 9,
            ElementType::Mat4 => 16,
        }
    }

    /// (columns, rows) of the element's layout in a buffer: matrices have
    /// `n` columns of `n`; vectors are one column.
    fn columns(self) -> (usize, usize) {
        match self {
            ElementType::Mat2 => (2, 2),
            ElementType::Mat3 => (3, 3),
            ElementType::Mat4 => (4, 4),
            other => (1, other.components()),
        }
    }

    /// Bytes one element takes in a buffer view, matrix column padding
    /// included.
    pub fn stored_size(self, component: ComponentType) -> usize {
        let (columns, rows) = self.columns();
        let column = rows * component.size();
        if columns == 1 {
            column
        } else {
            columns * column.next_multiple_of(4)
        }
    }
}

/// An accessor's values, tightly packed little-endian components, sparse
/// substitution applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Packed {
    pub component_type: ComponentType,
    pub element_type: ElementType,
    pub normalized: bool,
    pub count: usize,
    /// `count * components * component size` bytes.
    pub bytes: Vec<u8>,
}

impl Packed {
    pub fn components(&self) -> usize {
        self.element_type.components()
    }

    /// Every component as `f32`: floats as they are, normalized integers
    /// by glTF's formulas (`max(c / 127, -1)` for i8, `c / 255` for u8,
    /// and likewise for 16 bits), other integers by value. Fails only when
    /// the memory cannot be had.
    pub fn to_f32(&self) -> Result<Vec<f32>, Error> {
        let b = &self.bytes;
        let norm = self.normalized;
        let mut out = try_vec(b.len() / self.component_type.size())?;
        match self.component_type {
            ComponentType::I8 => {
                out.extend(b.iter().map(|&c| scale_signed(c as i8 as f32, 127.0, norm)))
            }
            ComponentType::U8 => out.extend(b.iter().map(|&c| scale(c as f32, 255.0, norm))),
            ComponentType::I16 => out.extend(
                b.chunks_exact(2)
                    .map(|c| scale_signed(i16::from_le_bytes([c[0], c[1]]) as f32, 32767.0, norm)),
            ),
            ComponentType::U16 => out.extend(
                b.chunks_exact(2)
                    .map(|c| scale(u16::from_le_bytes([c[0], c[1]]) as f32, 65535.0, norm)),
            ),
            ComponentType::U32 => out.extend(
                b.chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32),
            ),
            ComponentType::F32 => out.extend(
                b.chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            ),
        }
        Ok(out)
    }

    /// Every component as `u32`, for unsigned integer types only (indices,
    /// joints); `None` for signed or float components. Fails only when the
    /// memory cannot be had.
    pub fn to_u32(&self) -> Result<Option<Vec<u32>>, Error> {
        let b = &self.bytes;
        let n = b.len() / self.component_type.size();
        Ok(Some(match self.component_type {
            ComponentType::U8 => {
                let mut out = try_vec(n)?;
                out.extend(b.iter().map(|&c| c as u32));
                out
            }
            ComponentType::U16 => {
                let mut out = try_vec(n)?;
                out.extend(
                    b.chunks_exact(2)
                        .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32),
                );
                out
            }
            ComponentType::U32 => {
                let mut out = try_vec(n)?;
                out.extend(
                    b.chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
                out
            }
            _ => return Ok(None),
        }))
    }
}

/// An empty vector with room for `n` values, or an error saying the memory
/// could not be had (an accessor's values are bounded, but may still be
/// more than the machine gives).
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>, Error> {
    crate::memory::with_capacity(n).map_err(|e| {
        Error(format!(
            "its values need {} bytes of memory, which could not be had: give kiln more memory or make the asset smaller",
            e.bytes
        ))
    })
}

fn scale(c: f32, max: f32, normalized: bool) -> f32 {
    if normalized { c / max } else { c }
}

fn scale_signed(c: f32, max: f32, normalized: bool) -> f32 {
    if normalized { (c / max).max(-1.0) } else { c }
}

/// Reads accessor `index` of `accessors` over `views`.
pub(crate) fn read(
    accessors: &[json::Accessor],
    index: usize,
    views: &ViewSet<'_>,
) -> Result<Packed, Error> {
    let path = format!("accessors[{index}]");
    let Header {
        component_type,
        element_type,
        normalized,
        count,
    } = header(accessors, index)?;
    let a = &accessors[index];
    let values = count * element_type.components();
    let layout = Layout {
        element_type,
        component_type,
    };
    let mut bytes = match a.buffer_view {
        // Without a buffer view the values are zeros (then sparse).
        None => {
            let mut zeros =
                try_vec(values * component_type.size()).map_err(|e| e.context(&path))?;
            zeros.resize(values * component_type.size(), 0);
            zeros
        }
        Some(view) => {
            let (v, stride) =
                view_bytes(views, view).map_err(|e| e.context(format!("{path}.bufferView")))?;
            layout
                .gather(v, a.byte_offset, stride, a.count)
                .map_err(|e| e.context(&path))?
        }
    };
    if let Some(sparse) = &a.sparse {
        apply_sparse(&mut bytes, &layout, a.count, sparse, views)
            .map_err(|e| e.context(format!("{path}.sparse")))?;
    }
    Ok(Packed {
        component_type,
        element_type,
        normalized,
        count,
        bytes,
    })
}

/// What an accessor declares, checked: its types, `normalized` and
/// `count`, with `count * components` within [`MAX_ACCESSOR_VALUES`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub component_type: ComponentType,
    pub element_type: ElementType,
    pub normalized: bool,
    pub count: usize,
}

/// The checked [`Header`] of accessor `index`.
pub(crate) fn header(accessors: &[json::Accessor], index: usize) -> Result<Header, Error> {
    let path = format!("accessors[{index}]");
    let Some(a) = accessors.get(index) else {
        return Err(Error::at(
            &path,
            format!("out of range ({} accessors)", accessors.len()),
        ));
    };
    let Some(component_type) = ComponentType::from_code(a.component_type) else {
        return Err(Error::at(
            format!("{path}.componentType"),
            format!("unknown componentType {}", a.component_type),
        ));
    };
    let Some(element_type) = ElementType::parse(&a.element_type) else {
        return Err(Error::at(
            format!("{path}.type"),
            format!("unknown type {:?}", a.element_type),
        ));
    };
    if a.normalized && matches!(component_type, ComponentType::F32 | ComponentType::U32) {
        return Err(Error::at(
            format!("{path}.normalized"),
            "normalized is only allowed for 8- and 16-bit integers",
        ));
    }
    if a.count == 0 {
        return Err(Error::at(
            format!("{path}.count"),
            "count must be at least 1",
        ));
    }
    let components = element_type.components();
    let values = a
        .count
        .checked_mul(components)
        .filter(|&v| v <= MAX_ACCESSOR_VALUES);
    if values.is_none() {
        return Err(Error::at(
            format!("{path}.count"),
            format!(
                "count {} of {components} components exceeds the limit of {MAX_ACCESSOR_VALUES} values",
                a.count
            ),
        ));
    }
    Ok(Header {
        component_type,
        element_type,
        normalized: a.normalized,
        count: a.count,
    })
}

fn view_bytes<'v>(views: &'v ViewSet<'_>, view: usize) -> Result<(&'v [u8], Option<usize>), Error> {
    views.get(view).ok_or_else(|| {
        Error(format!(
            "buffer view {view} is out of range ({} buffer views)",
            views.len()
        ))
    })
}

/// How one element lies in a buffer.
struct Layout {
    element_type: ElementType,
    component_type: ComponentType,
}

impl Layout {
    fn stored_size(&self) -> usize {
        self.element_type.stored_size(self.component_type)
    }

    /// Copies `count` elements starting at `offset`, `stride` apart (tight
    /// when `None`), dropping column padding.
    fn gather(
        &self,
        data: &[u8],
        offset: usize,
        stride: Option<usize>,
        count: usize,
    ) -> Result<Vec<u8>, Error> {
        let size = self.stored_size();
        let stride = stride.unwrap_or(size);
        if stride < size {
            return Err(Error(format!(
                "byteStride {stride} is shorter than one {:?} element ({size} bytes)",
                self.element_type
            )));
        }
        let end = stride
            .checked_mul(count - 1)
            .and_then(|n| n.checked_add(offset))
            .and_then(|n| n.checked_add(size))
            .filter(|&end| end <= data.len());
        if end.is_none() {
            return Err(Error(format!(
                "byteOffset {offset} + {count} elements of {size} bytes, {stride} apart, exceed the buffer view's {} bytes",
                data.len()
            )));
        }
        let (columns, rows) = self.element_type.columns();
        let column = rows * self.component_type.size();
        let padded = column.next_multiple_of(4);
        let mut out = try_vec(count * columns * column)?;
        for e in 0..count {
            let base = offset + e * stride;
            if columns == 1 {
                out.extend_from_slice(&data[base..base + column]);
            } else {
                for c in 0..columns {
                    let at = base + c * padded;
                    out.extend_from_slice(&data[at..at + column]);
                }
            }
        }
        Ok(out)
    }
}

fn apply_sparse(
    bytes: &mut [u8],
    layout: &Layout,
    count: usize,
    sparse: &json::Sparse,
    views: &ViewSet<'_>,
) -> Result<(), Error> {
    let n = sparse.count;
    if n == 0 || n > count {
        return Err(Error::at(
            "count",
            format!("sparse count {n} must be from 1 to the accessor's count {count}"),
        ));
    }
    let index_type = match ComponentType::from_code(sparse.indices.component_type) {
        Some(t @ (ComponentType::U8 | ComponentType::U16 | ComponentType::U32)) => t,
        _ => {
            return Err(Error::at(
                "indices.componentType",
                format!(
                    "componentType {} is not an unsigned integer type",
                    sparse.indices.component_type
                ),
            ));
        }
    };
    let index_layout = Layout {
        element_type: ElementType::Scalar,
        component_type: index_type,
    };
    let (data, _) = view_bytes(views, sparse.indices.buffer_view)
        .map_err(|e| e.context("indices.bufferView"))?;
    let indices = index_layout
        .gather(data, sparse.indices.byte_offset, None, n)
        .map_err(|e| e.context("indices"))?;
    let indices = Packed {
        component_type: index_type,
        element_type: ElementType::Scalar,
        normalized: false,
        count: n,
        bytes: indices,
    }
    .to_u32()
    .map_err(|e| e.context("indices"))?
    .unwrap_or_default();

    let (data, _) =
        view_bytes(views, sparse.values.buffer_view).map_err(|e| e.context("values.bufferView"))?;
    let values = layout
        .gather(data, sparse.values.byte_offset, None, n)
        .map_err(|e| e.context("values"))?;

    let width = values.len() / n;
    let mut previous: Option<usize> = None;
    for (k, &i) in indices.iter().enumerate() {
        let i = i as usize;
        if i >= count {
            return Err(Error::at(
                format!("indices[{k}]"),
                format!("index {i} is out of range (count {count})"),
            ));
        }
        if previous.is_some_and(|p| i <= p) {
            return Err(Error::at(
                format!("indices[{k}]"),
                format!("index {i} does not strictly increase"),
            ));
        }
        previous = Some(i);
        bytes[i * width..(i + 1) * width].copy_from_slice(&values[k * width..(k + 1) * width]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_column_padding() {
        use ComponentType::*;
        use ElementType::*;
        assert_eq!(Mat2.stored_size(I8), 8);
        assert_eq!(Mat2.stored_size(U16), 8);
        assert_eq!(Mat3.stored_size(U8), 12);
        assert_eq!(Mat3.stored_size(I16), 24);
        assert_eq!(Mat3.stored_size(F32), 36);
        assert_eq!(Mat4.stored_size(U8), 16);
        assert_eq!(Vec3.stored_size(U8), 3);
    }

    #[test]
    fn normalized_formulas() {
        let p = |ct, bytes: Vec<u8>| Packed {
            component_type: ct,
            element_type: ElementType::Scalar,
            normalized: true,
            count: 0,
            bytes,
        };
        assert_eq!(
            p(ComponentType::I8, vec![0x80, 0x81, 0, 127])
                .to_f32()
                .unwrap(),
            [-1.0, -1.0, 0.0, 1.0]
        );
        assert_eq!(
            p(ComponentType::U8, vec![0, 255]).to_f32().unwrap(),
            [0.0, 1.0]
        );
        let v = p(
            ComponentType::I16,
            [i16::MIN, -32767, 32767]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect(),
        )
        .to_f32()
        .unwrap();
        assert_eq!(v, [-1.0, -1.0, 1.0]);
        let v = p(
            ComponentType::U16,
            [0u16, 65535].iter().flat_map(|x| x.to_le_bytes()).collect(),
        )
        .to_f32()
        .unwrap();
        assert_eq!(v, [0.0, 1.0]);
    }
}
