//! `kiln verify`: full validation of files kiln reads or writes.

use std::path::Path;

use super::EXIT_FAILURE;
use crate::pipeline::files::{FileKind, load};

pub fn run(files: &[std::path::PathBuf]) -> u8 {
    let mut status = 0;
    for file in files {
        match verify(file) {
            Ok(summary) => out!("ok: {}: {summary}", file.display()),
            Err(message) => {
                eprintln!("error: {}: {message}", file.display());
                status = EXIT_FAILURE;
            }
        }
    }
    status
}

fn verify(file: &Path) -> Result<String, String> {
    let problems = |problems: &[String]| {
        Err(problems
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("\nerror: "))
    };
    match load(file)? {
        FileKind::Gguf(g) if !g.problems.is_empty() => problems(&g.problems),
        FileKind::Gguf(g) => Ok(format!(
            "valid GGUF v3 ({} tensors, {} metadata keys){}",
            g.header.tensors.len(),
            g.header.metadata.len(),
            g.role.map_or_else(String::new, |r| format!(
                "; a MotionBricks {} component the runtime loads",
                r.name()
            ))
        )),
        FileKind::Safetensors(h) => Ok(format!(
            "valid safetensors ({} tensors, {} bytes of data)",
            h.tensors.len(),
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
        FileKind::Style(s) => Ok(format!(
            "valid MotionBricks style v1 {:?} ({} frames, speed {} m/s) the runtime loads",
            s.name,
            s.frames(),
            s.speed
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
            "valid glTF ({} nodes, {} skins, {} animations, {} accessors)",
            g.scene.nodes.len(),
            g.scene.skins.len(),
            g.scene.clips.len(),
            g.accessors
        )),
    }
}
