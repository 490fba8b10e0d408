//! A compiled characters entry (KCHR v1), described with its level's `level.json`.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::kchr;

pub struct CharactersFile {
    pub doc: kchr::Document,
    pub bytes: usize,
    pub level: Option<serde_json::Value>,
}

/// What `level.json` says of a clip the file holds: (bank, clip) -> its
/// entry (`keys_source`, `error_m`).
fn level_clip<'a>(c: &'a CharactersFile, bank: &str, clip: &str) -> Option<&'a Value> {
    let banks = c.level.as_ref()?["characters"]["banks"].as_array()?;
    let b = banks.iter().find(|b| b["id"] == bank)?;
    let clips = b["clips"].as_array()?;
    clips.iter().find(|x| x["name"] == clip)
}

/// Key counts before reduction, from `level.json`.
fn source_keys(c: &CharactersFile, bank: &str, clip: &str) -> Option<u64> {
    level_clip(c, bank, clip)?["keys_source"].as_u64()
}

/// The worst skin error the compiler measured for the clip (metres), from
/// `level.json`.
fn clip_error_m(c: &CharactersFile, bank: &str, clip: &str) -> Option<f64> {
    level_clip(c, bank, clip)?["error_m"].as_f64()
}

fn clip_keys(clip: &kchr::Clip) -> usize {
    clip.tracks.iter().map(|t| t.keys()).sum()
}

pub(super) fn data(c: &CharactersFile) -> Value {
    let doc = &c.doc;
    json!({
        "format": "compiled characters",
        "version": kchr::VERSION,
        "feature": kchr::FEATURE,
        "bytes": c.bytes,
        "models": doc.models.iter().map(|m| json!({
            "id": m.id,
            "bank": doc.banks[m.bank as usize].id,
            "nodes": m.nodes.iter().map(|n| json!({
                "name": n.name,
                "parent": n.parent.map(|p| m.nodes[p as usize].name.clone()),
            })).collect::<Vec<_>>(),
            "mesh_node": m.nodes[m.mesh_node as usize].name,
            "palette": m.joints.iter().map(|&j| m.nodes[j as usize].name.clone()).collect::<Vec<_>>(),
            "vertices": m.vertices.len(),
            "triangles": m.indices.len() / 3,
            "atlas": {"width": m.image.width, "height": m.image.height, "qoi_bytes": m.image.qoi.len()},
        })).collect::<Vec<_>>(),
        "banks": doc.banks.iter().map(|b| json!({
            "id": b.id,
            "clips": b.clips.iter().map(|clip| json!({
                "name": clip.name,
                "duration_s": clip.duration_s,
                "keys": clip_keys(clip),
                "keys_source": source_keys(c, &b.id, &clip.name),
                "error_m": clip_error_m(c, &b.id, &clip.name),
                "tracks": clip.tracks.iter().map(|t| json!({
                    "node": t.node,
                    "path": t.path.name(),
                    "interpolation": if t.step { "step" } else { "linear" },
                    "keys": t.keys(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, c: &CharactersFile) -> io::Result<()> {
    let doc = &c.doc;
    say!(
        o,
        "{}: compiled characters (KCHR v{}, {}), {} bytes: {} models, {} banks",
        file,
        kchr::VERSION,
        kchr::FEATURE,
        c.bytes,
        doc.models.len(),
        doc.banks.len()
    );
    for m in &doc.models {
        say!(
            o,
            "  model {}: bank {}, {} nodes, {} joints in the palette, {} vertices, {} triangles, atlas {} x {}",
            m.id,
            doc.banks[m.bank as usize].id,
            m.nodes.len(),
            m.joints.len(),
            m.vertices.len(),
            m.indices.len() / 3,
            m.image.width,
            m.image.height
        );
        let palette: Vec<&str> = m
            .joints
            .iter()
            .map(|&j| m.nodes[j as usize].name.as_str())
            .collect();
        say!(o, "    palette: {}", palette.join(", "));
    }
    for b in &doc.banks {
        let keys: usize = b.clips.iter().map(clip_keys).sum();
        say!(o, "  bank {}: {} clips, {keys} keys", b.id, b.clips.len());
        for clip in &b.clips {
            let before = source_keys(c, &b.id, &clip.name)
                .map(|k| format!(" ({k} before reduction)"))
                .unwrap_or_default();
            let within = clip_error_m(c, &b.id, &clip.name)
                .map(|m| {
                    format!(
                        ", the skin within {} of the source",
                        crate::bake::character::millimetres(m)
                    )
                })
                .unwrap_or_default();
            say!(
                o,
                "    clip {}: {:.3} s, {} tracks, {} keys{before}{within}",
                clip.name,
                clip.duration_s,
                clip.tracks.len(),
                clip_keys(clip)
            );
        }
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(c: &CharactersFile) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid compiled characters (KCHR v1, {}): {} models, {} banks, {} clips",
        kchr::FEATURE,
        c.doc.models.len(),
        c.doc.banks.len(),
        c.doc.banks.iter().map(|b| b.clips.len()).sum::<usize>()
    ))
}
