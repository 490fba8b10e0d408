//! Decoding `EXT_meshopt_compression` and `KHR_meshopt_compression` buffer
//! views with meshoptimizer's decoders.
//!
//! Modes `ATTRIBUTES` (vertex codec version 0 `0xA0` or 1 `0xA1`),
//! `TRIANGLES` (index codec `0xE0`/`0xE1`) and `INDICES` (sequence codec
//! `0xD0`/`0xD1`); filters `NONE`, `OCTAHEDRAL`, `QUATERNION`,
//! `EXPONENTIAL`, and `COLOR` (KHR only). Both extensions accept both
//! vertex codec versions: meshoptimizer's own decoders do, and the EXT
//! spec's "version 0" is a statement about what encoders write.
//!
//! The filters run in Rust ([`super::filters`]): meshoptimizer's C
//! filters give different bytes on different CPUs.
//!
//! Every precondition of the C decoders (their `assert`s: vertex size a
//! multiple of 4 and at most 256, index size 2 or 4, triangle count a
//! multiple of 3) and of the filters (their strides) is checked first.
//! Before anything is allocated, the decoded size `count * byteStride` is
//! bounded by the view's `byteLength` and by what the compressed bytes can
//! possibly hold ([`MAX_VERTEX_RATIO`]), and the view's `byteLength` (the
//! decoded bytes and the zeros after them) by [`MAX_DECODED_BYTES`] across
//! all views of an asset.
//!
//! Rejects: an unknown mode or filter, a filter with a mode other than
//! ATTRIBUTES, COLOR under EXT, a stride or count breaking the rules
//! above, an unknown codec header byte, and data the decoder finds
//! truncated or malformed.

use std::ffi::c_void;

use meshopt::ffi;

use super::Error;
use super::filters;
use super::json::MeshoptView;

/// Most bytes all compressed views of one asset may hold once decoded (1
/// GiB, `byteLength` of each view, zero fill included): far above any game
/// asset, low enough that a hostile `count` or `byteLength` cannot exhaust
/// memory.
pub const MAX_DECODED_BYTES: usize = 1 << 30;

/// meshoptimizer's vertex codec handles vertices of at most 256 bytes.
const MAX_VERTEX_BYTES: usize = 256;

/// The most bytes one compressed byte can decode to with the vertex codec:
/// its cheapest encoding (version 1, a block's byte channels marked zero)
/// spends one control byte per 4 byte channels of a block of at most 256
/// vertices, i.e. 1 byte for 1024. A larger claimed ratio is a lie, caught
/// before allocating. (The index codecs need at least a byte per triangle
/// or index; those are checked too.)
const MAX_VERTEX_RATIO: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Attributes,
    Triangles,
    Indices,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Filter {
    None,
    Octahedral,
    Quaternion,
    Exponential,
    Color,
}

/// Decodes one compressed view. `path` names the extension object
/// (`bufferViews[3].extensions.EXT_meshopt_compression`), `source` is the
/// compressed byte range, `view_length` the view's own `byteLength`, and
/// `budget` what is left of [`MAX_DECODED_BYTES`], from which the whole
/// view is taken. Returns exactly `count * byteStride` bytes.
pub(crate) fn decode(
    path: &str,
    khr: bool,
    m: &MeshoptView,
    source: &[u8],
    view_length: usize,
    budget: &mut usize,
) -> Result<Vec<u8>, Error> {
    let (mode, filter) = parse_mode_filter(path, khr, m)?;
    check_stride(path, mode, filter, m)?;
    let size = m
        .count
        .checked_mul(m.byte_stride)
        .filter(|&s| s <= view_length);
    let Some(size) = size else {
        return Err(Error::at(
            path,
            format!(
                "count {} * byteStride {} exceeds the buffer view's byteLength {view_length}",
                m.count, m.byte_stride
            ),
        ));
    };
    // The view holds `view_length` bytes: the decoded ones, then zeros.
    // All of them count, or a long view over a data-less fallback buffer
    // would allocate without bound.
    if view_length > *budget {
        return Err(Error::at(
            path,
            format!(
                "a buffer view of {view_length} more decoded bytes exceeds the limit of {MAX_DECODED_BYTES} decoded bytes per asset"
            ),
        ));
    }
    *budget -= view_length;
    check_header(path, mode, source)?;
    check_ratio(path, mode, m, size, source.len())?;

    // u32 storage keeps the 2- and 4-byte elements the C code writes
    // through typed pointers aligned.
    let mut words: Vec<u32> = crate::memory::zeroed(size.div_ceil(4)).map_err(|e| {
        Error::at(
            path,
            format!("the decoded view {e}: give kiln more memory or make the asset smaller"),
        )
    })?;
    let dst = words.as_mut_ptr().cast::<c_void>();
    // SAFETY: `words` holds at least `count * byte_stride` bytes, which is
    // all any decoder writes; the preconditions the decoders assert were
    // checked by `check_stride`; `source` is a live slice of its length.
    let rc = unsafe {
        match mode {
            Mode::Attributes => ffi::meshopt_decodeVertexBuffer(
                dst,
                m.count,
                m.byte_stride,
                source.as_ptr(),
                source.len(),
            ),
            Mode::Triangles => ffi::meshopt_decodeIndexBuffer(
                dst,
                m.count,
                m.byte_stride,
                source.as_ptr(),
                source.len(),
            ),
            Mode::Indices => ffi::meshopt_decodeIndexSequence(
                dst,
                m.count,
                m.byte_stride,
                source.as_ptr(),
                source.len(),
            ),
        }
    };
    if rc != 0 {
        let why = if rc == -2 {
            "the compressed data is truncated"
        } else {
            "the compressed data is malformed"
        };
        return Err(Error::at(path, format!("{} decode failed: {why}", m.mode)));
    }
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
    bytes.truncate(size);
    match filter {
        Filter::None => {}
        Filter::Octahedral => filters::octahedral(&mut bytes, m.byte_stride),
        Filter::Quaternion => filters::quaternion(&mut bytes),
        Filter::Exponential => filters::exponential(&mut bytes),
        Filter::Color => filters::color(&mut bytes, m.byte_stride),
    }
    Ok(bytes)
}

fn parse_mode_filter(path: &str, khr: bool, m: &MeshoptView) -> Result<(Mode, Filter), Error> {
    let mode = match m.mode.as_str() {
        "ATTRIBUTES" => Mode::Attributes,
        "TRIANGLES" => Mode::Triangles,
        "INDICES" => Mode::Indices,
        other => {
            return Err(Error::at(
                format!("{path}.mode"),
                format!("unknown mode {other:?} (ATTRIBUTES, TRIANGLES or INDICES)"),
            ));
        }
    };
    let filter = match m.filter.as_deref().unwrap_or("NONE") {
        "NONE" => Filter::None,
        "OCTAHEDRAL" => Filter::Octahedral,
        "QUATERNION" => Filter::Quaternion,
        "EXPONENTIAL" => Filter::Exponential,
        "COLOR" if khr => Filter::Color,
        other => {
            return Err(Error::at(
                format!("{path}.filter"),
                format!("unknown filter {other:?}"),
            ));
        }
    };
    if filter != Filter::None && mode != Mode::Attributes {
        return Err(Error::at(
            format!("{path}.filter"),
            format!(
                "filter {} is only allowed with mode ATTRIBUTES",
                m.filter.as_deref().unwrap_or_default()
            ),
        ));
    }
    Ok((mode, filter))
}

fn check_stride(path: &str, mode: Mode, filter: Filter, m: &MeshoptView) -> Result<(), Error> {
    let s = m.byte_stride;
    let fail = |rule: &str| {
        Err(Error::at(
            format!("{path}.byteStride"),
            format!("byteStride {s} breaks the rule: {rule}"),
        ))
    };
    if m.count == 0 {
        return Err(Error::at(
            format!("{path}.count"),
            "count must be at least 1",
        ));
    }
    match mode {
        Mode::Attributes if s == 0 || !s.is_multiple_of(4) || s > MAX_VERTEX_BYTES => {
            return fail("ATTRIBUTES needs a multiple of 4 from 4 to 256");
        }
        Mode::Triangles | Mode::Indices if s != 2 && s != 4 => {
            return fail("TRIANGLES and INDICES need 2 or 4");
        }
        Mode::Triangles if !m.count.is_multiple_of(3) => {
            return Err(Error::at(
                format!("{path}.count"),
                format!("TRIANGLES count {} is not a multiple of 3", m.count),
            ));
        }
        _ => {}
    }
    match filter {
        Filter::Octahedral | Filter::Color if s != 4 && s != 8 => {
            fail("OCTAHEDRAL and COLOR need 4 or 8")
        }
        Filter::Quaternion if s != 8 => fail("QUATERNION needs 8"),
        _ => Ok(()),
    }
}

/// Rejects a compressed range too short to hold what it claims (the
/// decoders would fail too, but only after the output was allocated).
fn check_ratio(
    path: &str,
    mode: Mode,
    m: &MeshoptView,
    size: usize,
    source: usize,
) -> Result<(), Error> {
    let (needed, rule) = match mode {
        Mode::Attributes => (
            size.div_ceil(MAX_VERTEX_RATIO),
            "1 byte per 1024 decoded bytes",
        ),
        Mode::Triangles => (1 + m.count / 3 + 16, "a byte per triangle and 17 more"),
        Mode::Indices => (1 + m.count + 4, "a byte per index and 5 more"),
    };
    if source < needed {
        return Err(Error::at(
            path,
            format!(
                "{source} compressed bytes cannot hold count {}: {} needs at least {rule}",
                m.count, m.mode
            ),
        ));
    }
    Ok(())
}

/// Checks the codec's header byte so the error says what is wrong.
fn check_header(path: &str, mode: Mode, source: &[u8]) -> Result<(), Error> {
    let (magic, name) = match mode {
        Mode::Attributes => (0xA0, "vertex"),
        Mode::Triangles => (0xE0, "index"),
        Mode::Indices => (0xD0, "index sequence"),
    };
    let Some(&first) = source.first() else {
        return Err(Error::at(path, "the compressed data is empty"));
    };
    if first & 0xF0 != magic || first & 0x0F > 1 {
        return Err(Error::at(
            path,
            format!(
                "header byte 0x{first:02x} is not {name} codec version 0 or 1 (0x{magic:02x} or 0x{:02x})",
                magic + 1
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(mode: &str, filter: Option<&str>, stride: usize, count: usize) -> MeshoptView {
        MeshoptView {
            buffer: 0,
            byte_offset: 0,
            byte_length: 0,
            byte_stride: stride,
            count,
            mode: mode.into(),
            filter: filter.map(Into::into),
        }
    }

    fn run(m: &MeshoptView, source: &[u8]) -> Result<Vec<u8>, Error> {
        let mut budget = MAX_DECODED_BYTES;
        decode("x", false, m, source, m.count * m.byte_stride, &mut budget)
    }

    #[test]
    fn round_trips_vertices_and_indices() {
        let verts: Vec<[u8; 8]> = (0..100u8).map(|i| [i, 1, 2, 3, i, i, 0, 9]).collect();
        let enc = meshopt::encoding::encode_vertex_buffer(&verts).unwrap();
        let out = run(&view("ATTRIBUTES", None, 8, 100), &enc).unwrap();
        assert_eq!(out, verts.concat());

        let idx: Vec<u32> = vec![0, 1, 2, 2, 1, 3, 3, 1, 4];
        let enc = meshopt::encoding::encode_index_buffer(&idx, 5).unwrap();
        let out = run(&view("TRIANGLES", None, 4, 9), &enc).unwrap();
        let back: Vec<u32> = out
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(back.len(), 9);
        let enc = meshopt::encoding::encode_index_sequence(&idx, 5).unwrap();
        let out = run(&view("INDICES", None, 2, 9), &enc).unwrap();
        let back: Vec<u32> = out
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
            .collect();
        assert_eq!(back, idx);
    }

    #[test]
    fn rejects_bad_parameters_before_decoding() {
        let src = [0xA0u8; 64];
        for (m, want) in [
            (view("ATTRIBUTES", None, 6, 1), "multiple of 4"),
            (view("ATTRIBUTES", None, 260, 1), "multiple of 4"),
            (view("TRIANGLES", None, 2, 4), "multiple of 3"),
            (view("INDICES", None, 8, 3), "2 or 4"),
            (view("INDICES", Some("OCTAHEDRAL"), 4, 3), "only allowed"),
            (
                view("ATTRIBUTES", Some("QUATERNION"), 4, 3),
                "QUATERNION needs 8",
            ),
            (view("ATTRIBUTES", Some("COLOR"), 4, 3), "unknown filter"),
            (view("ATTRIBUTES", None, 4, 0), "at least 1"),
            (view("TRIANGLES", None, 4, 3), "header byte"),
        ] {
            let e = run(&m, &src).unwrap_err();
            assert!(e.0.contains(want), "{e} (wanted {want})");
        }
        let mut budget = MAX_DECODED_BYTES;
        let huge = view("ATTRIBUTES", None, 256, 1 << 31);
        let e = decode("x", false, &huge, &src, usize::MAX, &mut budget).unwrap_err();
        assert!(e.0.contains("limit"), "{e}");
        let e = decode("x", false, &huge, &src, 1000, &mut budget).unwrap_err();
        assert!(e.0.contains("byteLength"), "{e}");
    }

    #[test]
    fn claims_beyond_the_compressed_size_are_rejected() {
        let src = [0xA1u8; 64];
        let e = run(&view("ATTRIBUTES", None, 4, 1 << 20), &src).unwrap_err();
        assert!(e.0.contains("cannot hold count 1048576"), "{e}");
        let src = [0xE1u8; 64];
        let e = run(&view("TRIANGLES", None, 4, 300), &src).unwrap_err();
        assert!(e.0.contains("a byte per triangle"), "{e}");
        let src = [0xD1u8; 64];
        let e = run(&view("INDICES", None, 4, 60), &src).unwrap_err();
        assert!(e.0.contains("a byte per index"), "{e}");
    }

    #[test]
    fn truncated_data_is_an_error() {
        let verts: Vec<[u8; 4]> = (0..300u32).map(|i| i.to_le_bytes()).collect();
        let enc = meshopt::encoding::encode_vertex_buffer(&verts).unwrap();
        for cut in [1, enc.len() / 2, enc.len() - 1] {
            assert!(run(&view("ATTRIBUTES", None, 4, 300), &enc[..cut]).is_err());
        }
    }
}
