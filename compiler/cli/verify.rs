//! `kiln verify`: full validation of files kiln reads or writes.

use std::path::Path;

use super::EXIT_FAILURE;
use super::inspect::{FileKind, load};

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
        FileKind::Gltf(scene) => Ok(format!(
            "valid glTF ({} nodes, {} skins, {} animations)",
            scene.nodes.len(),
            scene.skins.len(),
            scene.clips.len()
        )),
    }
}
