//! The `motionbricks-g1` profile: one bundle component's plan from its
//! extraction file, and the bundle's `manifest.json`.

use crate::formats::gguf::Value;
use crate::formats::motionbricks::{
    BUNDLE_FORMAT, BUNDLE_NAME, G1_JOINTS, SKELETON, UPSTREAM_REVISION, common_metadata, kv,
};
use crate::formats::safetensors;
use crate::memory;
use std::collections::BTreeMap;

use super::{
    Error, PlannedFile, PlannedTensor, Role, check_collisions, compact_name, ggml_dims,
    motionbricks_type,
};

/// The plan of one bundle component from its extraction file's header
/// (`source_sha256`: the file's SHA-256, 64 lowercase hex).
pub fn motionbricks_component(
    role: Role,
    header: &safetensors::Header,
    source_sha256: &str,
) -> Result<PlannedFile, Error> {
    let plan = select_component(role, header, source_sha256)?;
    let (n, values) = role.table();
    let found_values = plan.parameter_count();
    if plan.tensors.len() != n || found_values != values {
        return Err(Error::Table {
            component: role.name(),
            tensors: n,
            values,
            found_tensors: plan.tensors.len(),
            found_values,
        });
    }
    Ok(plan)
}

/// The component's selection, names, order, types and metadata, before
/// its tensor count and value total are checked against the table.
pub(super) fn select_component(
    role: Role,
    header: &safetensors::Header,
    source_sha256: &str,
) -> Result<PlannedFile, Error> {
    let no_memory = |e: memory::NoMemory| Error::NoMemory {
        what: "tensor table",
        bytes: e.bytes,
    };
    let mut selected: Vec<(&str, safetensors::Tensor)> =
        memory::with_capacity(header.len()).map_err(no_memory)?;
    selected.extend(
        header
            .tensors()
            .filter_map(|t| role.select(t.name).map(|stripped| (stripped, t))),
    );
    // Sorted by the stripped name before compaction, plain byte order.
    selected.sort_by(|a, b| a.0.cmp(b.0));
    let mut tensors = memory::with_capacity(selected.len()).map_err(no_memory)?;
    for (stripped, t) in selected {
        tensors.push(PlannedTensor {
            name: compact_name(stripped),
            source: t.name.to_string(),
            from: t.dtype,
            to: motionbricks_type(t.dtype),
            dims: ggml_dims(t.name, t.shape)?,
            elements: t.elements(),
            begin: t.begin,
            end: t.end,
            row_heads: None,
        });
    }
    check_collisions(&tensors)?;
    let count = tensors.iter().map(|t| t.elements).sum();
    let mut metadata = common_metadata(role.name(), BUNDLE_NAME, source_sha256, count);
    if role == Role::Support {
        let names: Vec<&str> = G1_JOINTS.iter().map(|(n, _)| *n).collect();
        metadata.push(kv(
            "motionbricks.joint_names",
            Value::String(names.join(",")),
        ));
    }
    Ok(PlannedFile { metadata, tensors })
}

/// A component as the bundle's `manifest.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentEntry {
    pub role: Role,
    pub parameter_count: u64,
    pub sha256: String,
    pub tensor_count: usize,
}

/// The bundle's `manifest.json`, byte for byte as Python's
/// `json.dumps(x, indent=2, sort_keys=True)` plus a newline.
pub fn bundle_manifest(components: &[ComponentEntry], safe_manifest_sha256: &str) -> String {
    let mut by_name: BTreeMap<&str, &ComponentEntry> = BTreeMap::new();
    for c in components {
        by_name.insert(c.role.name(), c);
    }
    let inference: u64 = components
        .iter()
        .filter(|c| c.role != Role::Support)
        .map(|c| c.parameter_count)
        .sum();
    let mut s = String::from("{\n  \"components\": {\n");
    for (i, (name, c)) in by_name.iter().enumerate() {
        s.push_str(&format!(
            "    \"{name}\": {{\n      \"parameter_count\": {},\n      \"path\": \"{}\",\n      \"sha256\": \"{}\",\n      \"tensor_count\": {}\n    }}{}\n",
            c.parameter_count,
            c.role.file(),
            c.sha256,
            c.tensor_count,
            if i + 1 < by_name.len() { "," } else { "" }
        ));
    }
    s.push_str(&format!(
        "  }},\n  \"format\": \"{BUNDLE_FORMAT}\",\n  \"inference_parameter_count\": {inference},\n  \"joint_count\": {},\n  \"safe_manifest_sha256\": \"{safe_manifest_sha256}\",\n  \"skeleton\": \"{SKELETON}\",\n  \"upstream_revision\": \"{UPSTREAM_REVISION}\"\n}}\n",
        G1_JOINTS.len()
    ));
    s
}
