//! `kiln verify`: full validation of files kiln reads or writes.

use std::path::Path;

use super::EXIT_FAILURE;
use crate::pipeline::files::{FileKind, load};

pub fn run(files: &[std::path::PathBuf], json: bool) -> u8 {
    let mut status = 0;
    let mut records = Vec::new();
    for file in files {
        let result = verify(file);
        if result.is_err() {
            status = EXIT_FAILURE;
        }
        if json {
            records.push(match &result {
                Ok(summary) => serde_json::json!({
                    "path": file.display().to_string(),
                    "valid": true,
                    "summary": summary,
                }),
                Err(problems) => serde_json::json!({
                    "path": file.display().to_string(),
                    "valid": false,
                    "errors": problems,
                }),
            });
            continue;
        }
        match result {
            Ok(summary) => out!("ok: {}: {summary}", file.display()),
            Err(problems) => {
                for p in problems {
                    eprintln!("error: {}: {p}", file.display());
                }
            }
        }
    }
    if json {
        let invalid = records.iter().filter(|r| r["valid"] == false).count();
        out!(
            "{}",
            serde_json::json!({
                    "kiln": crate::VERSION,
            "schema": super::JSON_SCHEMA,
                    "files": records,
                    "totals": { "files": files.len(), "valid": files.len() - invalid, "invalid": invalid },
                })
        );
    }
    status
}

/// A valid file's summary, or every problem found in it.
fn verify(file: &Path) -> Result<String, Vec<String>> {
    let problems = |problems: &[String]| Err(problems.to_vec());
    match load(file).map_err(|e| vec![e])? {
        FileKind::Gguf(g) if !g.problems.is_empty() => problems(&g.problems),
        FileKind::Gguf(g) => Ok(format!(
            "valid GGUF v3 ({} tensors, {} metadata keys){}",
            g.header.tensor_count(),
            g.header.metadata.len(),
            g.role.map_or_else(String::new, |r| format!(
                "; a MotionBricks {} component the runtime loads",
                r.name()
            ))
        )),
        FileKind::Safetensors(h) => Ok(format!(
            "valid safetensors ({} tensors, {} bytes of data)",
            h.len(),
            h.data_bytes()
        )),
        FileKind::Bundle(b) if !b.problems.is_empty() => problems(&b.problems),
        FileKind::Bundle(b) => Ok(format!(
            "valid MotionBricks GGUF bundle v1 ({} components, {} inference parameters) the runtime loads",
            b.components.len(),
            b.manifest["inference_parameter_count"]
        )),
        FileKind::Cgeo(c) => Ok(format!(
            "valid CGeo v7 ({} snapshots, {}, {} vertices in snapshot 0)",
            c.snapshots.len(),
            if c.header.compressed {
                "zlib"
            } else {
                "uncompressed"
            },
            c.snapshots.first().map_or(0, |s| s.vertices)
        )),
        FileKind::Qoi(q) => Ok(format!(
            "valid QOI image ({} x {}, {} channels, colorspace {})",
            q.header.width, q.header.height, q.header.channels as u8, q.header.colorspace as u8
        )),
        FileKind::Characters(c) => Ok(format!(
            "valid compiled characters (KCHR v1, {}): {} models, {} banks, {} clips",
            crate::formats::kchr::FEATURE,
            c.doc.models.len(),
            c.doc.banks.len(),
            c.doc.banks.iter().map(|b| b.clips.len()).sum::<usize>()
        )),
        FileKind::Style(read) => Ok(format!(
            "valid MotionBricks style v1 {:?} ({} frames, speed {} m/s) the runtime loads{}",
            read.style.name,
            read.style.frames(),
            read.style.speed,
            read.not_canonical
                .as_ref()
                .map_or_else(String::new, |e| format!(
                    "; {}",
                    super::inspect::not_canonical_note(e)
                ))
        )),
        FileKind::Replay(r) => Ok(format!(
            "valid MotionBricks replay v1 ({} frames at {} fps, {} joints, {} plans)",
            r.frames(),
            r.fps,
            r.joints(),
            r.plans.len()
        )),
        FileKind::PoseCache(cache) => Ok(format!(
            "valid pose cache v1 ({} entities, {} frames)",
            cache.entities.len(),
            cache.n_frames()
        )),
        FileKind::Gltf(g) => Ok(format!(
            "valid glTF ({} nodes, {} skins, {} animations, {} meshes, {} accessors)",
            g.scene.nodes.len(),
            g.scene.skins.len(),
            g.scene.clips.len(),
            g.meshes.len(),
            g.accessors
        )),
    }
}
