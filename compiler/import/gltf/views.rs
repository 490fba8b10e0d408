//! Buffer views: each view's bytes, sliced from its buffer or decoded from
//! a meshopt-compressed range.
//!
//! Rejects: a view or compressed range outside its buffer, a view of a
//! fallback buffer that is not compressed (it would have no data), a
//! `byteStride` outside 4..=[`MAX_BYTE_STRIDE`] or not a multiple of 4, and
//! everything [`super::meshopt`] rejects.

use super::Error;
use super::buffers::BufferData;
use super::json::Document;
use super::meshopt::{self, MAX_DECODED_BYTES};

/// glTF's schema bounds `bufferView.byteStride` to 4..=252, a multiple of 4.
pub(crate) const MAX_BYTE_STRIDE: usize = 252;

/// The buffers and every buffer view resolved over them.
pub(crate) struct ViewSet<'a> {
    buffers: Vec<BufferData<'a>>,
    views: Vec<View>,
}

struct View {
    bytes: ViewBytes,
    byte_stride: Option<usize>,
}

enum ViewBytes {
    /// `buffers[buffer][start..end]`, range already checked.
    Range {
        buffer: usize,
        start: usize,
        end: usize,
    },
    /// Decoded from a compressed range: exactly `byteLength` bytes.
    Decoded(Vec<u8>),
}

impl ViewSet<'_> {
    pub fn len(&self) -> usize {
        self.views.len()
    }

    /// View `index`'s bytes (exactly its `byteLength`) and `byteStride`.
    pub fn get(&self, index: usize) -> Option<(&[u8], Option<usize>)> {
        let view = self.views.get(index)?;
        let bytes = match &view.bytes {
            ViewBytes::Decoded(v) => v.as_slice(),
            ViewBytes::Range { buffer, start, end } => match &self.buffers[*buffer] {
                BufferData::Data(d) => &d[*start..*end],
                BufferData::Fallback => &[],
            },
        };
        Some((bytes, view.byte_stride))
    }
}

pub(crate) fn resolve<'a>(
    doc: &Document,
    buffers: Vec<BufferData<'a>>,
) -> Result<ViewSet<'a>, Error> {
    let mut budget = MAX_DECODED_BYTES;
    let mut out = Vec::with_capacity(doc.buffer_views.len());
    for (i, v) in doc.buffer_views.iter().enumerate() {
        let path = format!("bufferViews[{i}]");
        if let Some(stride) = v.byte_stride
            && (!(4..=MAX_BYTE_STRIDE).contains(&stride) || !stride.is_multiple_of(4))
        {
            return Err(Error::at(
                format!("{path}.byteStride"),
                format!("byteStride {stride} must be a multiple of 4 from 4 to {MAX_BYTE_STRIDE}"),
            ));
        }
        let bytes = match v.meshopt() {
            Some((name, m)) => {
                let ext_path = format!("{path}.extensions.{name}");
                // The decoded bytes stand for `buffer[byteOffset..][..byteLength]`,
                // which must exist even when that buffer has no data.
                let declared = doc.buffers.get(v.buffer).map(|b| b.byte_length);
                let fits = v
                    .byte_offset
                    .checked_add(v.byte_length)
                    .zip(declared)
                    .is_some_and(|(end, len)| end <= len);
                if !fits {
                    return Err(Error::at(
                        &path,
                        format!(
                            "byteOffset {} + byteLength {} does not fit buffer {} (byteLength {})",
                            v.byte_offset,
                            v.byte_length,
                            v.buffer,
                            declared.map_or("absent".to_string(), |l| l.to_string())
                        ),
                    ));
                }
                let (start, end) = range(&buffers, m.buffer, m.byte_offset, m.byte_length)
                    .map_err(|e| e.context(&ext_path))?;
                let source = match &buffers[m.buffer] {
                    BufferData::Data(d) => &d[start..end],
                    BufferData::Fallback => &[],
                };
                let khr = name.starts_with("KHR");
                let mut decoded =
                    meshopt::decode(&ext_path, khr, m, source, v.byte_length, &mut budget)?;
                // A view longer than its decoded data reads zeros past it.
                decoded.resize(v.byte_length, 0);
                ViewBytes::Decoded(decoded)
            }
            None => {
                let (start, end) = range(&buffers, v.buffer, v.byte_offset, v.byte_length)
                    .map_err(|e| e.context(&path))?;
                ViewBytes::Range {
                    buffer: v.buffer,
                    start,
                    end,
                }
            }
        };
        out.push(View {
            bytes,
            byte_stride: v.byte_stride,
        });
    }
    Ok(ViewSet {
        buffers,
        views: out,
    })
}

/// `offset..offset + length`, checked to lie in `buffer`'s data.
fn range(
    buffers: &[BufferData<'_>],
    buffer: usize,
    offset: usize,
    length: usize,
) -> Result<(usize, usize), Error> {
    let data = match buffers.get(buffer) {
        Some(BufferData::Data(d)) => d.as_ref(),
        Some(BufferData::Fallback) => {
            return Err(Error(format!(
                "buffer {buffer} is a meshopt fallback buffer with no data, and this range is not compressed"
            )));
        }
        None => {
            return Err(Error(format!(
                "buffer {buffer} is out of range ({} buffers)",
                buffers.len()
            )));
        }
    };
    offset
        .checked_add(length)
        .filter(|&end| end <= data.len())
        .map(|end| (offset, end))
        .ok_or_else(|| {
            Error(format!(
                "byteOffset {offset} + byteLength {length} exceeds buffer {buffer}'s {} bytes",
                data.len()
            ))
        })
}
