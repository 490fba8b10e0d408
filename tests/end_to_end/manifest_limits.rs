//! Manifest limits: the documented size parses, and every budget that stops
//! a manifest says which limit, with its number, at a line and column.

use crate::{alloc_support, guard_support};

use kiln::pipeline::kinds;
use kiln::pipeline::manifest::{MAX_MANIFEST_BYTES, MAX_YAML_ALIASES, MAX_YAML_NODES};

fn jobs(n: usize) -> String {
    let mut text = String::from("pose_caches:\n");
    for i in 0..n {
        text.push_str(&format!(
            "  - id: job-{i:05}\n    source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30\n    label: job {i}\n"
        ));
    }
    text
}

#[test]
fn fifty_thousand_jobs_parse() {
    let text = jobs(50_000);
    assert!(text.len() as u64 <= MAX_MANIFEST_BYTES, "{}", text.len());
    let (m, counts) = alloc_support::counts_in(|| kinds::parse_manifest(&text).unwrap());
    assert_eq!(m.pose_caches.len(), 50_000);
    assert_eq!(m.pose_caches[49_999].value.id.value, "job-49999");
    assert_eq!(m.pose_caches[49_999].value.id.pos.line, 5 * 49_999 + 2);
    // Linear in the text: a bounded number of bytes allocated per byte
    // read (a parse that copied the document per job would be quadratic).
    assert!(
        counts.bytes < 64 * text.len(),
        "{counts:?} for {} bytes",
        text.len()
    );
}

#[test]
fn fifty_thousand_jobs_sharing_settings_by_merge_key_parse() {
    let mut text = String::from(
        "pose_caches:\n  - &d\n    id: first\n    source: sources/characters/Fox.glb\n    animation: Run\n    rate_hz: 30\n",
    );
    for i in 0..50_000 {
        text.push_str(&format!("  - <<: *d\n    id: job-{i}\n"));
    }
    let m = match kinds::parse_manifest(&text) {
        Ok(m) => m,
        Err(e) => panic!("{e:?}"),
    };
    assert_eq!(m.pose_caches.len(), 50_001);
    let last = &m.pose_caches[50_000];
    assert_eq!(last.value.id.value, "job-49999");
    assert_eq!(last.value.rate_hz.as_ref().unwrap().value, 30.0);
}

#[test]
fn too_many_nodes_is_named_with_the_limit_and_a_position() {
    // The tersest jobs the schema takes: 9 nodes in 48 bytes.
    let mut text = String::from("pose_caches:\n");
    for _ in 0..MAX_YAML_NODES / 9 + 1 {
        text.push_str("  - {id: a, source: b, animation: 0, rate_hz: 1}\n");
    }
    assert!(text.len() as u64 <= MAX_MANIFEST_BYTES);
    let e = kinds::parse_manifest(&text).unwrap_err();
    assert_eq!(
        e.message,
        format!(
            "manifest too large: more than {MAX_YAML_NODES} YAML nodes; split it into several manifests"
        )
    );
    // At the job where the count ran out.
    let line = (MAX_YAML_NODES / 9) as u64;
    assert!(e.pos.line.abs_diff(line) < 3, "{e:?}");
}

#[test]
fn too_many_aliases_is_named_with_the_limit() {
    let mut text =
        String::from("pose_caches:\n  - &j {id: a, source: b, animation: 0, rate_hz: 1}\n");
    for _ in 0..=MAX_YAML_ALIASES {
        text.push_str("  - *j\n");
    }
    let e = match kinds::parse_manifest(&text) {
        Ok(m) => panic!("{} jobs parsed", m.pose_caches.len()),
        Err(e) => e,
    };
    assert!(
        e.message
            .contains(&format!("more than {MAX_YAML_ALIASES} YAML aliases")),
        "{e:?}"
    );
    assert_eq!(e.pos.line, MAX_YAML_ALIASES as u64 + 3, "{e:?}");
    // One fewer parses.
    let fewer = text.rsplit_once("  - *j\n").unwrap().0;
    let parsed = kinds::parse_manifest(fewer).map(|m| m.pose_caches.len());
    assert_eq!(parsed, Ok(MAX_YAML_ALIASES + 1));
}

/// Hostile manifests: an alias bomb ("billion laughs", 10^9 nodes from 10
/// lines), nesting 100,000 deep, every truncation of the demo's manifests.
/// Each ends in a parse or an error with a position, having allocated a
/// bounded number of bytes per byte of text (an expanded bomb would be
/// gigabytes).
#[test]
fn alias_bombs_deep_nesting_and_truncations_end_quickly() {
    // Anchors in a model's metadata (values of any shape), so nothing
    // refuses the document's shape before the aliases are expanded.
    let mut bomb = String::from(
        "model_bundles:\n  - id: a\n    metadata:\n      k0: &l0 [x, x, x, x, x, x, x, x, x, x]\n",
    );
    for k in 1..10 {
        let refs = vec![format!("*l{}", k - 1); 10].join(", ");
        bomb.push_str(&format!("      k{k}: &l{k} [{refs}]\n"));
    }
    let deep = format!(
        "pose_caches: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    for (what, text, says) in [
        ("alias bomb", bomb, ""),
        ("deep nesting", deep, "recursion limit"),
    ] {
        let (e, counts) = guard_support::no_hang(what, || {
            alloc_support::counts_in(|| {
                kinds::parse_manifest(&text)
                    .err()
                    .unwrap_or_else(|| panic!("{what} parsed"))
            })
        });
        assert!(
            counts.bytes < 256 * text.len(),
            "{what}: {counts:?} for {} bytes",
            text.len()
        );
        assert!(e.message.to_lowercase().contains(says), "{what}: {e:?}");
        eprintln!("{what}: {e:?}, {counts:?}");
        assert!(e.pos.line >= 1, "{what}: no position: {e:?}");
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("manifests");
    let mut cuts = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
            let (r, counts) = alloc_support::counts_in(|| kinds::parse_manifest(&text[..cut]));
            if let Err(e) = r {
                let lines = text[..cut].lines().count() as u64;
                assert!(e.pos.line <= lines + 1, "cut {cut}: {e:?}");
            }
            assert!(
                counts.bytes < 256 * cut + (64 << 10),
                "cut {cut}: {counts:?}"
            );
            cuts += 1;
        }
    }
    assert!(cuts > 4000, "{cuts}");
}

/// Line ends as YAML has them: `\r\n`, `\n`, and a lone `\r` (old Mac
/// files). A manifest whose first line is a comment, saved with lone `\r`s,
/// is its jobs, not one long comment; positions count its lines.
#[test]
fn every_yaml_line_end_is_a_line_end() {
    let unix = "# the demo\npose_caches:\n  - id: a\n    source: s.glb\n    animation: 0\n    rate_hz: 30\n";
    for (name, text) in [
        ("\\n", unix.to_string()),
        ("\\r\\n", unix.replace('\n', "\r\n")),
        ("\\r", unix.replace('\n', "\r")),
    ] {
        let parsed = kinds::parse_manifest(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(parsed.pose_caches.len(), 1, "{name}");
        let bad = text.replace("rate_hz", "rate");
        let e = kinds::parse_manifest(&bad)
            .err()
            .unwrap_or_else(|| panic!("{name}: parsed"));
        assert_eq!(e.pos.line, 6, "{name}: {e:?}");
    }
}

/// A key given twice is named in plain words at its second place, without
/// the YAML library's advice to its own callers ("set DuplicateKeyPolicy
/// in Options").
#[test]
fn a_key_given_twice_is_named_in_plain_words() {
    let p = crate::cli_support::Project::empty();
    for (text, at, key) in [
        (
            "pose_caches:\n  - id: a\n    source: s.glb\n    rate_hz: 30\n    rate_hz: 60\n",
            "a.yaml:5:5:",
            "rate_hz",
        ),
        (
            "pose_caches: []\npose_caches: []\n",
            "a.yaml:2:1:",
            "pose_caches",
        ),
    ] {
        p.write("manifests/a.yaml", text);
        let err = p.fails(&["build"]);
        assert!(err.contains(at), "{err}");
        assert!(
            err.contains(&format!("`{key}` is given twice in one mapping; keep one")),
            "{err}"
        );
        assert!(
            !err.contains("DuplicateKeyPolicy") && !err.contains("Options"),
            "{err}"
        );
    }
}
