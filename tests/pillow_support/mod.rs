//! Pillow as an independent image decoder for the tests
//! (`tests/oracles/pillow_rgba.py`; `tests/full.sh` installs Pillow).

use std::path::PathBuf;

/// What Pillow made of one file.
pub struct Decoded {
    /// Pillow's format name (`QOI`, `PNG`, `JPEG`).
    pub format: String,
    /// The file's own mode (`RGBA`, `RGB`, …) before conversion.
    pub mode: String,
    /// The pixels converted to RGBA.
    pub rgba: Vec<u8>,
}

/// Decodes each file with Pillow.
pub fn decode(files: &[PathBuf]) -> Vec<Decoded> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracles/pillow_rgba.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .args(files)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "Pillow failed (bash tests/full.sh installs it in a venv): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rest = &out.stdout[..];
    let mut all = Vec::new();
    while !rest.is_empty() {
        let nl = rest
            .iter()
            .position(|&b| b == b'\n')
            .expect("a header line");
        let line = std::str::from_utf8(&rest[..nl]).unwrap();
        let mut parts = line.split(' ');
        let (format, mode) = (parts.next().unwrap(), parts.next().unwrap());
        let n: usize = parts.next().unwrap().parse().unwrap();
        all.push(Decoded {
            format: format.into(),
            mode: mode.into(),
            rgba: rest[nl + 1..nl + 1 + n].to_vec(),
        });
        rest = &rest[nl + 1 + n..];
    }
    assert_eq!(all.len(), files.len());
    all
}

/// Writes each QOI file into a temporary folder, has Pillow decode them,
/// checks Pillow read each as an RGBA QOI, and returns every file's pixels
/// one after another.
#[allow(dead_code)]
pub fn qoi_rgba(files: &[Vec<u8>]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = files
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let path = dir.path().join(format!("{i}.qoi"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let decoded = decode(&paths);
    assert!(
        decoded
            .iter()
            .all(|d| d.format == "QOI" && d.mode == "RGBA")
    );
    decoded.into_iter().flat_map(|d| d.rgba).collect()
}
