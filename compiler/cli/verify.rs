//! `kiln verify`: full validation of files kiln reads or writes.

use std::path::Path;

use super::EXIT_FAILURE;
use crate::pipeline::files::load;

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
    crate::describe::verdict(&load(file).map_err(|e| vec![e])?)
}
