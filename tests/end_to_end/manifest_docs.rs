//! docs/manifest.md stays in step with the schema: it documents exactly the
//! keys kiln accepts, and every YAML example on it parses.

use std::collections::BTreeSet;

use kiln::pipeline::kinds;

const DOC: &str = include_str!("../../docs/manifest.md");

/// The keys the page documents: its "### `key`" headings.
fn documented_keys() -> BTreeSet<String> {
    DOC.lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

fn yaml_examples() -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in DOC.lines() {
        match (&mut current, line) {
            (None, "```yaml") => current = Some(String::new()),
            (Some(block), "```") => {
                out.push(std::mem::take(block));
                current = None;
            }
            (Some(block), l) => {
                block.push_str(l);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[test]
fn every_key_is_documented_and_nothing_else() {
    let schema: BTreeSet<String> = kinds::manifest_keys().into_iter().collect();
    assert_eq!(documented_keys(), schema);
}

/// The text under a "### `key`" heading, to the next heading.
fn section_of(key: &str) -> Option<&'static str> {
    let heading = format!("### `{key}`\n");
    let start = DOC.find(&heading)? + heading.len();
    let rest = &DOC[start..];
    Some(&rest[..rest.find("\n#").unwrap_or(rest.len())])
}

/// Every key below an entry's own (a bank's `tolerance.scale`, a model's
/// `atlas.padding`) is named in its entry key's section: as `` `name` ``,
/// or in a `{a, b, c: [x, y]}` list.
#[test]
fn every_nested_key_is_documented_in_its_entry_keys_section() {
    let nested = kinds::nested_manifest_keys();
    assert!(nested.len() >= 20, "{nested:?}");
    let mut missing = Vec::new();
    for key in &nested {
        let parts: Vec<&str> = key.split('.').collect();
        let (entry_key, field) = (parts[..2].join("."), parts[parts.len() - 1]);
        let text = section_of(&entry_key).unwrap_or_else(|| panic!("no section for {entry_key}"));
        let listed = text.split(['{', '}']).skip(1).step_by(2).any(|list| {
            list.split(',')
                .any(|f| f.split(':').next().unwrap().trim().trim_matches('`') == field)
        });
        if !(listed || text.contains(&format!("`{field}`"))) {
            missing.push(key.as_str());
        }
    }
    assert!(
        missing.is_empty(),
        "nested keys docs/manifest.md does not name: {missing:?}"
    );
}

#[test]
fn every_example_parses_and_uses_only_known_keys() {
    let examples = yaml_examples();
    assert!(examples.len() >= 4);
    for text in examples {
        let m = kinds::parse_manifest(&text).unwrap_or_else(|e| panic!("{e:?} in:\n{text}"));
        assert_ne!(m, Default::default(), "an example with no job:\n{text}");
    }
}

/// Each key's section shows it in use: an `Example:` line or a YAML block
/// that sets it.
#[test]
fn every_key_has_an_example() {
    for key in kinds::manifest_keys().iter().filter(|k| k.contains('.')) {
        let heading = format!("### `{key}`");
        let start = DOC
            .find(&heading)
            .unwrap_or_else(|| panic!("no section for {key}"));
        let rest = &DOC[start + heading.len()..];
        let section = &rest[..rest.find("\n### ").unwrap_or(rest.len())];
        let name = key.rsplit('.').next().unwrap();
        let shown = section.contains("Example: `") && section.contains(&format!("`{name}:"))
            || section.contains("```yaml") && section.contains(&format!("{name}:"));
        assert!(shown, "the section for {key} has no example of `{name}:`");
    }
}

#[test]
fn an_undocumented_key_is_refused() {
    let text = "pose_caches:\n  - id: a\n    source: s.glb\n    animation: 0\n    rate_hz: 1\n    colour: red\n";
    assert!(kinds::parse_manifest(text).is_err());
}

/// Every row of the Limits table names a constant, and its number is the
/// constant's value.
#[test]
fn the_limits_table_gives_each_constants_value() {
    use kiln::bake::pose_cache;
    use kiln::formats::ospc;
    use kiln::import::gltf;
    use kiln::pipeline::{manifest as m, planner};
    let constants: &[(&str, f64)] = &[
        ("manifest::MAX_MANIFEST_BYTES", m::MAX_MANIFEST_BYTES as f64),
        ("manifest::MAX_YAML_NODES", m::MAX_YAML_NODES as f64),
        ("manifest::MAX_YAML_ALIASES", m::MAX_YAML_ALIASES as f64),
        (
            "manifest::MAX_YAML_REPLAYED_EVENTS",
            m::MAX_YAML_REPLAYED_EVENTS as f64,
        ),
        ("manifest::MAX_YAML_DEPTH", m::MAX_YAML_DEPTH as f64),
        ("planner::MAX_ID_BYTES", planner::MAX_ID_BYTES as f64),
        ("gltf::MAX_FILE_BYTES", gltf::MAX_FILE_BYTES as f64),
        ("pose_cache::MAX_RATE_HZ", pose_cache::MAX_RATE_HZ),
        ("ospc::MAX_ENTITIES", f64::from(ospc::MAX_ENTITIES)),
        ("ospc::MAX_TEXT_BYTES", ospc::MAX_TEXT_BYTES as f64),
        ("ospc::MAX_FRAMES", f64::from(ospc::MAX_FRAMES)),
        ("ospc::MAX_FILE_BYTES", ospc::MAX_FILE_BYTES as f64),
        (
            "pose_cache::MAX_EVALUATIONS",
            pose_cache::MAX_EVALUATIONS as f64,
        ),
        (
            "safetensors::MAX_HEADER_BYTES",
            kiln::formats::safetensors::MAX_HEADER_BYTES as f64,
        ),
        (
            "model_bundle::MAX_CHECKPOINT_BYTES",
            kiln::pipeline::kinds::model_bundle::MAX_CHECKPOINT_BYTES as f64,
        ),
        (
            "model_bundle::MAX_INDEX_BYTES",
            kiln::pipeline::kinds::model_bundle::MAX_INDEX_BYTES as f64,
        ),
        (
            "sentencepiece::MAX_BYTES",
            kiln::formats::sentencepiece::MAX_BYTES as f64,
        ),
        (
            "sentencepiece::MAX_PIECES",
            kiln::formats::sentencepiece::MAX_PIECES as f64,
        ),
        (
            "planner::MAX_GLOB_MATCHES",
            planner::MAX_GLOB_MATCHES as f64,
        ),
        (
            "character::MAX_TRACK_SOURCE_KEYS",
            kiln::bake::character::MAX_TRACK_SOURCE_KEYS as f64,
        ),
        (
            "character::MAX_BANK_SOURCE_KEYS",
            kiln::bake::character::MAX_BANK_SOURCE_KEYS as f64,
        ),
        (
            "cgeo::MAX_FILE_BYTES",
            kiln::formats::cgeo::MAX_FILE_BYTES as f64,
        ),
        (
            "gltf::MAX_ACCESSOR_VALUES",
            kiln::import::gltf::MAX_ACCESSOR_VALUES as f64,
        ),
        (
            "gltf::MAX_ASSET_VALUES",
            kiln::import::gltf::MAX_ASSET_VALUES as f64,
        ),
        (
            "gltf::MAX_DECODED_BYTES",
            kiln::import::gltf::MAX_DECODED_BYTES as f64,
        ),
        (
            "atlas::MAX_MODEL_TEXELS",
            kiln::bake::atlas::MAX_MODEL_TEXELS as f64,
        ),
        (
            "atlas::MAX_LEVEL_TEXELS",
            kiln::bake::atlas::MAX_LEVEL_TEXELS as f64,
        ),
        (
            "cgeo::MAX_SECTION_DECODED_BYTES",
            kiln::formats::cgeo::MAX_SECTION_DECODED_BYTES as f64,
        ),
        (
            "cgeo::MAX_SECTIONS",
            kiln::formats::cgeo::MAX_SECTIONS as f64,
        ),
        (
            "cgeo_sequence::MAX_FRAMES",
            kiln::bake::cgeo_sequence::MAX_FRAMES as f64,
        ),
        (
            "input::MAX_PIECE_BYTES",
            kiln::pipeline::input::MAX_PIECE_BYTES as f64,
        ),
        (
            "input::MAX_AHEAD_BYTES",
            kiln::pipeline::input::MAX_AHEAD_BYTES as f64,
        ),
        (
            "gguf::MAX_STRING_BYTES",
            kiln::formats::gguf::MAX_STRING_BYTES as f64,
        ),
        (
            "files::MAX_GGUF_HEADER_BYTES",
            kiln::pipeline::files::MAX_GGUF_HEADER_BYTES as f64,
        ),
        ("gguf::MAX_TENSORS", kiln::formats::gguf::MAX_TENSORS as f64),
        (
            "gguf::MAX_METADATA_ENTRIES",
            kiln::formats::gguf::MAX_METADATA_ENTRIES as f64,
        ),
        (
            "gguf::MAX_ARRAY_STRINGS",
            kiln::formats::gguf::MAX_ARRAY_STRINGS as f64,
        ),
        (
            "safetensors::MAX_METADATA_ENTRIES",
            kiln::formats::safetensors::MAX_METADATA_ENTRIES as f64,
        ),
        ("image::MAX_SIDE", f64::from(kiln::import::image::MAX_SIDE)),
        (
            "image::MAX_DEFLATE_RATIO",
            kiln::import::image::MAX_DEFLATE_RATIO as f64,
        ),
        (
            "image::MAX_DECODE_BYTES",
            kiln::import::image::MAX_DECODE_BYTES as f64,
        ),
        (
            "image::MAX_JPEG_PIXELS_PER_BYTE",
            kiln::import::image::MAX_JPEG_PIXELS_PER_BYTE as f64,
        ),
        ("qoi::MAX_PIXELS", kiln::formats::qoi::MAX_PIXELS as f64),
        (
            "atlas::MAX_ATLAS_SIDE",
            f64::from(kiln::bake::atlas::MAX_ATLAS_SIDE),
        ),
        (
            "atlas::MAX_PADDING",
            f64::from(kiln::bake::atlas::MAX_PADDING),
        ),
        (
            "atlas::MAX_TILE_REPEAT",
            f64::from(kiln::bake::atlas::MAX_TILE_REPEAT),
        ),
        ("atlas::MAX_UV", kiln::bake::atlas::MAX_UV),
        ("kchr::MAX_MODELS", kiln::formats::kchr::MAX_MODELS as f64),
        ("kchr::MAX_BANKS", kiln::formats::kchr::MAX_BANKS as f64),
        ("kchr::MAX_CLIPS", kiln::formats::kchr::MAX_CLIPS as f64),
        ("kchr::MAX_KEYS", kiln::formats::kchr::MAX_KEYS as f64),
        (
            "kchr::MAX_DURATION_S",
            f64::from(kiln::formats::kchr::MAX_DURATION_S),
        ),
        ("kchr::MAX_JOINTS", kiln::formats::kchr::MAX_JOINTS as f64),
        (
            "kchr::MAX_VERTICES",
            kiln::formats::kchr::MAX_VERTICES as f64,
        ),
        ("kchr::MAX_INDICES", kiln::formats::kchr::MAX_INDICES as f64),
        ("kchr::MAX_NODES", kiln::formats::kchr::MAX_NODES as f64),
        ("kchr::MAX_BYTES", kiln::formats::kchr::MAX_BYTES as f64),
        (
            "characters::MAX_RESAMPLE_HZ",
            kiln::pipeline::kinds::characters::MAX_RESAMPLE_HZ,
        ),
        (
            "mbreplay::MAX_FILE_BYTES",
            kiln::formats::mbreplay::MAX_FILE_BYTES as f64,
        ),
        ("mbreplay::MAX_FPS", kiln::formats::mbreplay::MAX_FPS as f64),
        (
            "mbreplay::MAX_FRAMES",
            kiln::formats::mbreplay::MAX_FRAMES as f64,
        ),
        (
            "mbreplay::MAX_JOINTS",
            kiln::formats::mbreplay::MAX_JOINTS as f64,
        ),
        (
            "mbreplay::MAX_QPOS",
            kiln::formats::mbreplay::MAX_QPOS as f64,
        ),
        (
            "mbstyle::MAX_FILE_BYTES",
            kiln::formats::mbstyle::MAX_FILE_BYTES as f64,
        ),
        (
            "mbstyle::MAX_FRAMES",
            kiln::formats::mbstyle::MAX_FRAMES as f64,
        ),
        (
            "mbstyle::MAX_NAME_BYTES",
            kiln::formats::mbstyle::MAX_NAME_BYTES as f64,
        ),
        (
            "mbstyle::MAX_TOKENS",
            kiln::formats::mbstyle::MAX_TOKENS as f64,
        ),
        (
            "style::MAX_CLIP_FILE_BYTES",
            kiln::pipeline::kinds::style::MAX_CLIP_FILE_BYTES as f64,
        ),
        (
            "glb::MAX_FILE_BYTES",
            kiln::formats::glb::MAX_FILE_BYTES as f64,
        ),
        (
            "gltf::MAX_URI_BYTES",
            kiln::import::gltf::MAX_URI_BYTES as f64,
        ),
        (
            "gltf::MAX_DRACO_BYTES_PER_VALUE",
            kiln::import::gltf::MAX_DRACO_BYTES_PER_VALUE as f64,
        ),
        (
            "action_result::MAX_OUTPUT_FILES",
            kiln::formats::action_result::MAX_OUTPUT_FILES as f64,
        ),
        (
            "action_result::MAX_BYTES",
            kiln::formats::action_result::MAX_BYTES as f64,
        ),
        (
            "cgeo::MAX_ELEMENTS",
            kiln::formats::cgeo::MAX_ELEMENTS as f64,
        ),
        (
            "cgeo::MAX_INFLATE_RATIO",
            kiln::formats::cgeo::MAX_INFLATE_RATIO as f64,
        ),
        (
            "cgeo::MAX_MAP_CHANNELS",
            kiln::formats::cgeo::MAX_MAP_CHANNELS as f64,
        ),
        (
            "cgeo::MAX_SNAPSHOTS",
            kiln::formats::cgeo::MAX_SNAPSHOTS as f64,
        ),
        (
            "cgeo_sequence::MAX_CLOUD_POINTS",
            kiln::bake::cgeo_sequence::MAX_CLOUD_POINTS as f64,
        ),
        (
            "cgeo::MAX_HEADER_BYTES",
            kiln::formats::cgeo::MAX_HEADER_BYTES as f64,
        ),
        (
            "engine::MAX_KEPT_LISTED",
            kiln::pipeline::engine::MAX_KEPT_LISTED as f64,
        ),
        (
            "files::MAX_QOI_BYTES",
            kiln::pipeline::files::MAX_QOI_BYTES as f64,
        ),
        (
            "gguf::MAX_ARRAY_ELEMENTS",
            kiln::formats::gguf::MAX_ARRAY_ELEMENTS as f64,
        ),
        ("gguf::MAX_DIMS", kiln::formats::gguf::MAX_DIMS as f64),
        (
            "gguf::MAX_NAME_BYTES",
            kiln::formats::gguf::MAX_NAME_BYTES as f64,
        ),
        (
            "job::MAX_INPUT_BYTES",
            kiln::pipeline::job::MAX_INPUT_BYTES as f64,
        ),
        (
            "kchr::MAX_ACCUMULATED_SCALE",
            kiln::formats::kchr::MAX_ACCUMULATED_SCALE,
        ),
        (
            "kchr::MAX_ACCUMULATED_TRANSLATION",
            kiln::formats::kchr::MAX_ACCUMULATED_TRANSLATION,
        ),
        (
            "kchr::MAX_IMAGE_BYTES",
            kiln::formats::kchr::MAX_IMAGE_BYTES as f64,
        ),
        ("kchr::MAX_NAME", kiln::formats::kchr::MAX_NAME as f64),
        (
            "kchr::MAX_PROBLEMS",
            kiln::formats::kchr::MAX_PROBLEMS as f64,
        ),
        (
            "kchr::MAX_TEXTURE_SIDE",
            kiln::formats::kchr::MAX_TEXTURE_SIDE as f64,
        ),
        ("kchr::MAX_TRACKS", kiln::formats::kchr::MAX_TRACKS as f64),
        (
            "llama_cpp::MAX_TOKENS",
            kiln::bake::llama_cpp::MAX_TOKENS as f64,
        ),
        (
            "model_bundle::MAX_CONFIG_BYTES",
            kiln::pipeline::kinds::model_bundle::MAX_CONFIG_BYTES as f64,
        ),
        (
            "model_bundle::MAX_PATTERN_BYTES",
            kiln::pipeline::kinds::model_bundle::MAX_PATTERN_BYTES as f64,
        ),
        (
            "model_bundle::MAX_RENAMED_NAME_BYTES",
            kiln::bake::model_bundle::MAX_RENAMED_NAME_BYTES as f64,
        ),
        (
            "model_bundle::MAX_TOKENIZER_BYTES",
            kiln::pipeline::kinds::model_bundle::MAX_TOKENIZER_BYTES as f64,
        ),
        (
            "paths::MAX_SUGGESTION_NAMES",
            kiln::pipeline::paths::MAX_SUGGESTION_NAMES as f64,
        ),
        (
            "qoi::MAX_PIXELS_PER_BYTE",
            kiln::formats::qoi::MAX_PIXELS_PER_BYTE as f64,
        ),
        (
            "remote::MAX_CONFIG_FILE_BYTES",
            kiln::pipeline::remote::MAX_CONFIG_FILE_BYTES as f64,
        ),
        (
            "shared_cache::MAX_INLINE_BYTES",
            kiln::pipeline::shared_cache::MAX_INLINE_BYTES as f64,
        ),
        (
            "shared_cache::MAX_INPUT_LIST_BYTES",
            kiln::pipeline::shared_cache::MAX_INPUT_LIST_BYTES as f64,
        ),
        (
            "shared_cache::MAX_MESSAGES_BYTES",
            kiln::pipeline::shared_cache::MAX_MESSAGES_BYTES as f64,
        ),
        (
            "state::MAX_FRAME_BYTES",
            kiln::pipeline::state::MAX_FRAME_BYTES as f64,
        ),
        (
            "state::MAX_STATE_BYTES",
            kiln::pipeline::state::MAX_STATE_BYTES as f64,
        ),
        (
            "watcher::MAX_DEBOUNCE",
            kiln::pipeline::watcher::MAX_DEBOUNCE.as_millis() as f64,
        ),
        ("page::MAX_ROWS", kiln::describe::page::MAX_ROWS as f64),
        (
            "pose_cache::MAX_DRAWN_POSES",
            kiln::describe::MAX_DRAWN_POSES as f64,
        ),
        (
            "cgeo::MAX_DRAWN_ITEMS",
            kiln::describe::cgeo::MAX_DRAWN_ITEMS as f64,
        ),
        (
            "memo::MAX_MEMO_BYTES",
            kiln::pipeline::memo::MAX_MEMO_BYTES as f64,
        ),
        (
            "serve::MAX_CONNECTIONS",
            kiln::pipeline::serve::MAX_CONNECTIONS as f64,
        ),
        (
            "serve::MAX_REQUEST_BYTES",
            kiln::pipeline::serve::MAX_REQUEST_BYTES as f64,
        ),
    ];
    let section = DOC.split("## Limits").nth(1).expect("a Limits section");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| limit"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    let mut seen = Vec::new();
    for row in &rows {
        let (value, constant) = (row[2], row[3].trim_matches('`'));
        let expected = constants
            .iter()
            .find(|(name, _)| *name == constant)
            .unwrap_or_else(|| {
                panic!("the Limits table names {constant}, which the test does not know")
            })
            .1;
        let written: f64 = value.replace(',', "").parse().unwrap();
        assert_eq!(written, expected, "{constant}");
        seen.push(constant);
    }
    for (name, _) in constants {
        assert!(
            seen.contains(name),
            "{name} is missing from the Limits table"
        );
    }
}

/// Every public limit of the compiler (each `pub const MAX_`) is in the
/// Limits table (issue 29), whose values the test above checks.
#[test]
fn every_public_limit_is_in_the_limits_table() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("compiler"),
        &mut files,
    );
    let section = DOC.split("## Limits").nth(1).expect("a Limits section");
    let mut problems = Vec::new();
    let mut found = std::collections::BTreeSet::new();
    for f in &files {
        // A folder module's files (`import/gltf/*.rs`) are its own: the
        // constants are used as `gltf::…`.
        let parent = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        let module = match parent.as_ref() {
            "compiler" | "formats" | "bake" | "import" | "pipeline" | "model" | "memory"
            | "cli" | "kinds" | "describe" => f.file_stem().unwrap().to_string_lossy().into_owned(),
            folder => folder.to_string(),
        };
        let text = std::fs::read_to_string(f).unwrap();
        for (k, _) in text.match_indices("pub const MAX_") {
            let name: String = text[k + "pub const ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let qualified = format!("{module}::{name}");
            if !section.contains(&format!("`{qualified}`")) {
                problems.push(format!(
                    "{qualified} is a public limit the Limits table does not give"
                ));
            }
            found.insert(qualified);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(found.len() > 80, "{} limits found", found.len());
}
