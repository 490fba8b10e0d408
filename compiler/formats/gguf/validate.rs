//! Every rule a header must keep to be written, as problems.

use crate::formats::problem::Problem;

use super::decode::{FirstIndex, alignment_of, no_nul};
use super::encode::describe;
use super::{DEFAULT_ALIGNMENT, KEY_ALIGNMENT, TensorDesc, Value};

/// Every problem [`encode_header`](super::encode_header) would refuse in `metadata` and
/// `tensors` (empty: they encode), each named by its entry
/// (`metadata[3]`, `tensors[7]`), with no byte (they are not written
/// yet): each error's `rule()`.
/// [`encode_header`](super::encode_header) stops at the first, at its byte.
pub fn validate(metadata: &[(String, Value)], tensors: &[TensorDesc]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut keys = FirstIndex::default();
    for (i, (key, _)) in metadata.iter().enumerate() {
        let path = format!("metadata[{i}]");
        if key.is_empty() {
            problems.push(Problem::of(path, "the key is empty"));
            continue;
        }
        if let Err(e) = no_nul(key, 0, "metadata key") {
            problems.push(Problem::of(path.clone(), e.rule()));
        }
        if let Some(first) = keys.insert(key, i) {
            problems.push(Problem::of(
                path,
                format!("metadata key {key:?} appears twice (first as metadata[{first}])"),
            ));
        }
    }
    let alignment = alignment_of(metadata, &[]).unwrap_or_else(|e| {
        let i = metadata.iter().position(|(k, _)| k == KEY_ALIGNMENT);
        problems.push(Problem::of(
            format!("metadata[{}]", i.unwrap_or(0)),
            e.rule(),
        ));
        DEFAULT_ALIGNMENT
    });
    let mut names = FirstIndex::default();
    let mut scratch = String::new();
    let mut offset = 0u64;
    for (i, t) in tensors.iter().enumerate() {
        let path = format!("tensors[{i}]");
        scratch.clear();
        match describe(t, 0, offset, alignment, &mut scratch) {
            Ok((_, size)) => match offset.checked_add(size) {
                Some(next) => offset = next,
                None => problems.push(Problem::of(
                    path.clone(),
                    format!("tensor {:?}: the data so far passes 2^64 bytes", t.name),
                )),
            },
            Err((e, _)) => problems.push(Problem::of(path.clone(), e.rule())),
        }
        if let Some(first) = names.insert(t.name, i) {
            problems.push(Problem::of(
                path,
                format!(
                    "tensor {:?} appears twice (first as tensors[{first}])",
                    t.name
                ),
            ));
        }
    }
    problems
}
