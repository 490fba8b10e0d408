//! Every rule a header must keep to be written, as problems.

use crate::formats::problem::Problem;
use std::collections::BTreeMap;

use super::TensorSpec;
use super::decode::MAX_METADATA_ENTRIES;

/// Every problem that would make the header [`encode_header`](super::encode_header) writes for
/// `tensors` one [`decode`](fn@super::decode) refuses: an empty name, a name twice (JSON
/// keeps only the last), the name `__metadata__`, a size past 2^64 bytes,
/// more metadata entries than [`MAX_METADATA_ENTRIES`]. Each is named by
/// its entry (`tensors[3]`); there is no byte yet.
pub fn validate(
    tensors: &[TensorSpec],
    metadata: Option<&BTreeMap<String, String>>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut order: Vec<usize> = (0..tensors.len()).collect();
    order.sort_by(|&a, &b| tensors[a].name.cmp(&tensors[b].name).then(a.cmp(&b)));
    for pair in order.windows(2) {
        if tensors[pair[0]].name == tensors[pair[1]].name {
            problems.push(Problem::of(
                format!("tensors[{}]", pair[1]),
                format!(
                    "tensor {:?} appears twice (first as tensors[{}])",
                    tensors[pair[1]].name, pair[0]
                ),
            ));
        }
    }
    let mut at = Some(0u64);
    for (i, t) in tensors.iter().enumerate() {
        let path = format!("tensors[{i}]");
        if t.name.is_empty() {
            problems.push(Problem::of(path.clone(), "the tensor name is empty"));
        }
        if t.name == "__metadata__" {
            problems.push(Problem::of(
                path.clone(),
                "__metadata__ is the header's metadata, not a tensor name",
            ));
        }
        let bytes = t
            .shape
            .iter()
            .try_fold(t.dtype.size(), |n, &d| n.checked_mul(d));
        at = at.zip(bytes).and_then(|(a, b)| a.checked_add(b));
        if at.is_none() {
            problems.push(Problem::of(
                path,
                format!("tensor {:?}: the data so far passes 2^64 bytes", t.name),
            ));
            break;
        }
    }
    if metadata.is_some_and(|m| m.len() > MAX_METADATA_ENTRIES) {
        problems.push(Problem::of(
            "__metadata__",
            format!("more than {MAX_METADATA_ENTRIES} entries"),
        ));
    }
    problems
}
