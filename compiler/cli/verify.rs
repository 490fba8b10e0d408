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
    match load(file)? {
        FileKind::PoseCache(cache) => Ok(format!(
            "valid pose cache v1 ({} entities, {} frames)",
            cache.entities.len(),
            cache.n_frames()
        )),
        FileKind::Gltf(g) => {
            let mut summary = format!(
                "valid glTF ({} nodes, {} skins, {} animations, {} accessors)",
                g.scene.nodes.len(),
                g.scene.skins.len(),
                g.scene.clips.len(),
                g.accessors
            );
            if !g.undecoded.is_empty() {
                summary.push_str(&format!(
                    "; its meshes use {}, which kiln does not decode or check",
                    g.undecoded.join(", ")
                ));
            }
            Ok(summary)
        }
    }
}
