//! One GGUF file's bytes, streamed: its header, then each planned tensor
//! read a chunk at a time from its checkpoint, converted
//! ([`tensor_convert`]) or copied, and padded to the alignment, through
//! buffers of a fixed size whatever the tensors' (issue 29: the bytes are
//! made here, the pipeline only moves them).
//!
//! Pure: the caller reads the checkpoints, takes the bytes and counts the
//! progress, through [`Streams`].

use super::model_bundle::PlannedFile;
use super::tensor_convert;
use crate::formats::gguf;

/// Bytes read of a checkpoint at once.
pub const CHUNK_BYTES: usize = 1 << 20;

/// Fills a buffer from a checkpoint (its index among the plan's shards)
/// at one of its bytes.
pub type ReadAt<'a, E> = dyn FnMut(usize, u64, &mut [u8]) -> Result<(), E> + 'a;

/// What the stream asks of its caller.
pub struct Streams<'a, E> {
    /// Fills the buffer from checkpoint `shard` (an index into the shards
    /// the plan reads) at its byte `offset`.
    pub read_at: &'a mut ReadAt<'a, E>,
    /// Takes the next bytes of the file.
    pub write: &'a mut dyn FnMut(&[u8]) -> Result<(), E>,
    /// Told of each chunk read, by its bytes.
    pub progress: &'a mut dyn FnMut(u64) -> Result<(), E>,
}

/// Why a stream stopped.
#[derive(Debug)]
pub enum Failure<E> {
    /// The caller's read, write or progress failed.
    Io(E),
    /// The header cannot be encoded.
    Header(gguf::Error),
    /// A value cannot be converted: the checkpoint's byte of its element
    /// (of the tensor's first, for a rule of the whole tensor).
    Convert {
        shard: usize,
        byte: u64,
        tensor: String,
        error: tensor_convert::Error,
    },
}

/// A float tensor that holds NaN or infinite values (kept as they are; the
/// caller warns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonFinite {
    pub shard: usize,
    pub tensor: String,
    pub count: u64,
    pub first_element: u64,
    /// The checkpoint's byte of the first.
    pub byte: u64,
}

/// Streams the GGUF of `plan`: tensor `i` comes from checkpoint
/// `shards[i]`, whose data starts at its byte `data_start[shards[i]]`.
/// Returns the tensors with NaN or infinite values.
pub fn stream<E>(
    plan: &PlannedFile,
    data_start: &[u64],
    shards: &[usize],
    options: tensor_convert::Options,
    s: Streams<'_, E>,
) -> Result<Vec<NonFinite>, Failure<E>> {
    let (header, layout) =
        gguf::encode_header(&plan.metadata, &plan.descs()).map_err(Failure::Header)?;
    (s.write)(&header).map_err(Failure::Io)?;
    let mut buf = vec![0u8; CHUNK_BYTES];
    let mut converted = Vec::with_capacity(2 * CHUNK_BYTES);
    let mut non_finite = Vec::new();
    let mut written = 0u64;
    for ((t, info), &shard) in plan.tensors.iter().zip(layout.tensors()).zip(shards) {
        let mut seen = tensor_convert::Seen::default();
        let element = t.from.size() as usize;
        let chunk = CHUNK_BYTES / element * element;
        let start = data_start[shard] + t.begin;
        let same_type = tensor_convert::native(t.from) == Some(t.to);
        let mut out_bytes = 0u64;
        // The tensor in order, or row by row in llama.cpp's rotary order;
        // `at` is a byte of the tensor, from its start.
        for (seg_begin, seg_len) in t.segments() {
            let seg = seg_begin - t.begin;
            let mut at = seg;
            while at < seg + seg_len {
                let n = chunk.min((seg + seg_len - at) as usize);
                (s.read_at)(shard, start + at, &mut buf[..n]).map_err(Failure::Io)?;
                let first = at / element as u64;
                let bytes = if same_type {
                    if t.from.is_float() {
                        tensor_convert::count_non_finite(t.from, &buf[..n], first, &mut seen);
                    }
                    &buf[..n]
                } else {
                    converted.clear();
                    tensor_convert::convert(
                        t.from,
                        t.to,
                        &buf[..n],
                        first,
                        options,
                        &mut seen,
                        &mut converted,
                    )
                    .map_err(|error| Failure::Convert {
                        shard,
                        byte: start + error.index().map_or(0, |i| i * element as u64),
                        tensor: t.source.clone(),
                        error,
                    })?;
                    &converted[..]
                };
                (s.write)(bytes).map_err(Failure::Io)?;
                out_bytes += bytes.len() as u64;
                at += n as u64;
                (s.progress)(n as u64).map_err(Failure::Io)?;
            }
        }
        if let Some(first) = seen.first_non_finite {
            non_finite.push(NonFinite {
                shard,
                tensor: t.source.clone(),
                count: seen.non_finite,
                first_element: first,
                byte: start + first * element as u64,
            });
        }
        let padded = gguf::pad(out_bytes, layout.alignment).expect("laid out above");
        debug_assert_eq!(written, info.offset);
        (s.write)(&vec![0; (padded - out_bytes) as usize]).map_err(Failure::Io)?;
        written += padded;
    }
    debug_assert_eq!(written, layout.data_bytes);
    Ok(non_finite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bake::model_bundle::PlannedTensor;
    use crate::formats::gguf::TensorType;
    use crate::formats::safetensors::Dtype;

    /// A file of two F32 tensors: `a` (n values, kept) from checkpoint 0
    /// and `b` (to F16) from checkpoint 1, whose data starts at byte 8.
    fn plan(n: u64) -> PlannedFile {
        let t = |name: &str, to, begin, end| PlannedTensor {
            name: name.into(),
            source: name.into(),
            from: Dtype::F32,
            to,
            dims: vec![(end - begin) / 4],
            elements: (end - begin) / 4,
            begin,
            end,
            row_heads: None,
        };
        PlannedFile {
            metadata: vec![],
            tensors: vec![
                t("a", TensorType::F32, 0, 4 * n),
                t("b", TensorType::F16, 0, 8),
            ],
        }
    }

    fn run(
        plan: &PlannedFile,
        shards: [&[u8]; 2],
    ) -> (Vec<u8>, u64, Result<Vec<NonFinite>, Failure<String>>) {
        let mut out = Vec::new();
        let mut read = 0;
        let result = stream(
            plan,
            &[0, 8],
            &[0, 1],
            tensor_convert::Options::default(),
            Streams {
                read_at: &mut |shard, offset, buf| {
                    let src = shards[shard];
                    let at = offset as usize;
                    let bytes = src.get(at..at + buf.len()).ok_or("past the end")?;
                    buf.copy_from_slice(bytes);
                    Ok(())
                },
                write: &mut |bytes| {
                    out.extend_from_slice(bytes);
                    Ok(())
                },
                progress: &mut |n| {
                    read += n;
                    Ok(())
                },
            },
        );
        (out, read, result)
    }

    fn f32s(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// A tensor longer than a chunk comes out whole and in order, the other
    /// converted, each padded, as the header lays them out; what was read is
    /// counted; a NaN is reported at its element and byte.
    #[test]
    fn tensors_stream_in_chunks_converted_and_padded() {
        let n = (CHUNK_BYTES / 4 + 3) as u64;
        let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let mut b = vec![0u8; 8];
        b.extend(f32s(&[1.5, f32::NAN]));
        let p = plan(n);
        let (out, read, result) = run(&p, [&f32s(&a), &b]);
        let found = result.unwrap();
        assert_eq!(read, 4 * n + 8);
        let (header, layout) = gguf::encode_header(&p.metadata, &p.descs()).unwrap();
        assert_eq!(out.len() as u64, header.len() as u64 + layout.data_bytes);
        assert_eq!(&out[..header.len()], &header[..]);
        let data = &out[header.len()..];
        let offsets: Vec<u64> = layout.tensors().map(|t| t.offset).collect();
        assert_eq!(&data[..4 * n as usize], &f32s(&a)[..]);
        let b_at = offsets[1] as usize;
        assert!(
            data[4 * n as usize..b_at].iter().all(|&x| x == 0),
            "padding"
        );
        assert_eq!(&data[b_at..b_at + 2], &[0x00, 0x3e], "1.5 in F16");
        assert_eq!(
            found,
            [NonFinite {
                shard: 1,
                tensor: "b".into(),
                count: 1,
                first_element: 1,
                byte: 8 + 4,
            }]
        );
    }

    /// A value F16 cannot hold stops the stream at its checkpoint byte; a
    /// failed read is the caller's error, as it gave it.
    #[test]
    fn a_refusal_names_its_byte_and_a_read_error_passes_through() {
        let mut b = vec![0u8; 8];
        b.extend(f32s(&[1.0, 1e9]));
        let p = plan(1);
        match run(&p, [&f32s(&[0.0]), &b]).2 {
            Err(Failure::Convert {
                shard: 1,
                byte: 12,
                tensor,
                ..
            }) => assert_eq!(tensor, "b"),
            other => panic!("{other:?}"),
        }
        match run(&p, [&f32s(&[0.0]), &b[..10]]).2 {
            Err(Failure::Io(e)) => assert_eq!(e, "past the end"),
            other => panic!("{other:?}"),
        }
    }
}
