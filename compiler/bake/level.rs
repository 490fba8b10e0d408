//! A level's index, `level.json`, beside its compiled characters: each
//! entry's name, feature, size and SHA-256, and what the compiler did to
//! each clip (key counts before and after reduction, the skin's error).

use crate::formats::{hex, kchr};

/// Per model, each region of its atlas: what the level's index says of it.
#[derive(Clone, Debug)]
pub struct AtlasRegion {
    /// `[x, y, width, height]` in atlas texels, padding excluded.
    pub rect: [u32; 4],
    /// The materials whose texels these are.
    pub materials: Vec<String>,
}

/// Per bank and clip: what the level's index says of it.
#[derive(Clone, Debug)]
pub struct ClipReport {
    pub name: String,
    pub source: String,
    /// Keys before reduction, and after.
    pub keys_source: usize,
    pub keys: usize,
    /// The bound on the skin's error ([`super::character::CompiledClip::worst_m`]).
    pub worst_m: f64,
}

/// The level's index: each entry's name, feature, size and SHA-256, and
/// what the compiler did (key counts before and after reduction).
pub fn level_json(
    level: &str,
    len: u64,
    sha: &[u8; 32],
    doc: &kchr::Document,
    (reports, regions): (&[Vec<ClipReport>], &[Vec<AtlasRegion>]),
) -> String {
    let banks: Vec<serde_json::Value> = doc
        .banks
        .iter()
        .zip(reports)
        .map(|(b, r)| {
            serde_json::json!({
                "id": b.id,
                "clips": r.iter().map(|c| serde_json::json!({
                    "name": c.name, "source": c.source, "keys_source": c.keys_source, "keys": c.keys,
                    "error_m": c.worst_m,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let value = serde_json::json!({
        "level": level,
        "entries": [{
            "name": kchr::ENTRY_NAME,
            "feature": kchr::FEATURE,
            "bytes": len,
            "sha256": hex(sha),
        }],
        "characters": {
            "models": doc.models.iter().zip(regions).map(|(m, regions)| serde_json::json!({
                "id": m.id,
                "bank": doc.banks[m.bank as usize].id,
                "nodes": m.nodes.len(),
                "joints": m.joints.len(),
                "vertices": m.vertices.len(),
                "triangles": m.indices.len() / 3,
                "atlas": [m.image.width, m.image.height],
                "atlas_regions": regions.iter().map(|r| serde_json::json!({
                    "rect": r.rect,
                    "materials": r.materials,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "banks": banks,
        },
    });
    let mut s = serde_json::to_string_pretty(&value).expect("JSON");
    s.push('\n');
    s
}
