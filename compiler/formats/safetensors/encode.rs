//! Writing a header as the reference writer does.

use std::collections::BTreeMap;

use super::TensorSpec;
use super::validate::validate;

/// The 8-byte length and the JSON header (padded with spaces to a
/// multiple of 8, as the reference writer does) for `tensors`, whose data
/// then follows in the order given. `None` if [`validate`] finds a
/// problem.
pub fn encode_header(
    tensors: &[TensorSpec],
    metadata: Option<&BTreeMap<String, String>>,
) -> Option<Vec<u8>> {
    if !validate(tensors, metadata).is_empty() {
        return None;
    }
    let mut object = serde_json::Map::new();
    if let Some(m) = metadata {
        object.insert("__metadata__".into(), serde_json::to_value(m).ok()?);
    }
    let mut at = 0u64;
    for t in tensors {
        let bytes = t
            .shape
            .iter()
            .try_fold(t.dtype.size(), |n, &d| n.checked_mul(d))?;
        let end = at.checked_add(bytes)?;
        object.insert(
            t.name.clone(),
            serde_json::json!({"dtype": t.dtype.name(), "shape": t.shape, "data_offsets": [at, end]}),
        );
        at = end;
    }
    let mut json = serde_json::to_vec(&object).ok()?;
    while !json.len().is_multiple_of(8) {
        json.push(b' ');
    }
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&json);
    Some(out)
}
