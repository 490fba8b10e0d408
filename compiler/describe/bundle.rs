//! A MotionBricks GGUF bundle folder, described.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::gguf::GgufFile;
use crate::bake::model_bundle::Role;

/// A bundle folder, checked as the MotionBricks runtime loads it.
pub struct BundleCheck {
    pub manifest: serde_json::Value,
    pub components: Vec<(Role, GgufFile)>,
    /// Every problem, each naming its file.
    pub problems: Vec<String>,
}

pub(super) fn data(b: &BundleCheck) -> Value {
    json!({
        "format": "motionbricks gguf bundle",
        "manifest": b.manifest,
        "components": b.components.iter().map(|(r, g)| json!({
            "component": r.name(),
            "tensors": g.header.tensor_count(),
            "parameters": g.header.tensors().map(|t| t.elements()).sum::<u64>(),
        })).collect::<Vec<_>>(),
        "runtime_problems": b.problems,
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, b: &BundleCheck) -> io::Result<()> {
    say!(
        o,
        "{}: MotionBricks GGUF bundle ({}), {} inference parameters",
        file,
        b.manifest["format"],
        b.manifest["inference_parameter_count"]
    );
    for (role, g) in &b.components {
        say!(
            o,
            "  {} {}: {} tensors, {} parameters",
            role.name(),
            role.file(),
            g.header.tensor_count(),
            g.header.tensors().map(|t| t.elements()).sum::<u64>()
        );
    }
    for p in &b.problems {
        say!(o, "  the runtime would refuse: {p}");
    }
    Ok(())
}

/// `verify`'s line for a valid bundle, or what the runtime refuses.
pub(super) fn verdict(b: &BundleCheck) -> Result<String, Vec<String>> {
    if !b.problems.is_empty() {
        return Err(b.problems.clone());
    }
    Ok(format!(
        "valid MotionBricks GGUF bundle v1 ({} components, {} inference parameters) the runtime loads",
        b.components.len(),
        b.manifest["inference_parameter_count"]
    ))
}
