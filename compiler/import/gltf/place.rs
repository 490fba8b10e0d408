//! Where in the file an import error is: every error the importer returns
//! starts `at byte N`, a byte of the `.glb` or `.gltf` it was given.
//!
//! The stages name what broke a rule by its JSON path
//! (`animations[2].samplers[0].input: …`), under the path of what
//! referred to it when they add one (`meshes[0].primitives[1]: indices:
//! …`, `animations[0].samplers[1].output: accessors[3]: …`). At the
//! importer's public functions, [`placed`] reads those leading paths (a
//! path that starts with a top-level glTF property stands alone, any other
//! continues the one before), finds where the innermost one's JSON value
//! starts in the text, and puts that byte first. A step the text does not
//! hold (an accessor's element, `accessors[3][5]`; a missing key) leaves
//! the place at its nearest ancestor that it does hold. A JSON syntax
//! error's line and column become their byte; an error the container made
//! already starts with its byte and is left as it is.
//!
//! The JSON is read here only to find a place, after serde has parsed it,
//! by a scanner that takes a step at a time: linear in the text, no
//! recursion, no allocation beyond the path, and bounded on any input.

use super::{Error, container};

/// glTF's top-level properties: a path that starts with one is absolute.
const TOP_LEVEL: [&str; 19] = [
    "asset",
    "extensionsUsed",
    "extensionsRequired",
    "scene",
    "scenes",
    "nodes",
    "meshes",
    "skins",
    "animations",
    "accessors",
    "bufferViews",
    "buffers",
    "materials",
    "textures",
    "samplers",
    "images",
    "cameras",
    "extensions",
    "extras",
];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `error`, made by a stage reading `file`, starting with the byte it is
/// about. An error that already starts `at byte` is returned as it is.
pub(crate) fn placed(error: Error, file: &[u8]) -> Error {
    if error.0.starts_with("at byte ") {
        return error;
    }
    let offset = offset_of(&error.0, file);
    Error(format!("at byte {offset}: {}", error.0))
}

/// The byte of `file` that an error `message` made by a stage is about.
pub(crate) fn offset_of(message: &str, file: &[u8]) -> usize {
    match container::json_within(file) {
        Some(json) => within(file, json).unwrap_or(0) + in_json(message, json),
        // The stages run on a container that parsed; were it not so, the
        // start of the file is where reading stopped.
        None => 0,
    }
}

/// Where `part` starts in `whole`, when it is a slice of it.
pub(crate) fn within(whole: &[u8], part: &[u8]) -> Option<usize> {
    let at = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (at.checked_add(part.len())? <= whole.len()).then_some(at)
}

/// The byte of `text` an error message is about.
fn in_json(message: &str, text: &[u8]) -> usize {
    if let Some(syntax) = message.strip_prefix("json: ") {
        return syntax_error_at(syntax, text);
    }
    find(text, &leading_path(message))
}

/// A serde_json syntax error's byte: its line and column (a 1-based byte
/// column: the byte it stopped at); the end of the text for one that ran
/// out of text; the first value's start for a shape error, which has none.
fn syntax_error_at(message: &str, text: &[u8]) -> usize {
    if message.contains("EOF while parsing") {
        return text.len();
    }
    let position = message.rsplit_once(" at line ").and_then(|(_, at)| {
        let (line, column) = at.split_once(" column ")?;
        Some((line.parse::<usize>().ok()?, column.parse::<usize>().ok()?))
    });
    let Some((line, column)) = position else {
        return skip_ws(text, 0);
    };
    let line_start = if line <= 1 {
        0
    } else {
        match text
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .nth(line - 2)
        {
            Some((at, _)) => at + 1,
            None => text.len(),
        }
    };
    (line_start + column.saturating_sub(1)).min(text.len())
}

/// The JSON path the leading `path: ` tokens of `message` name (its last
/// token is the rule's words, never a path).
fn leading_path(message: &str) -> Vec<Step> {
    let mut path = Vec::new();
    let tokens: Vec<&str> = message.split(": ").collect();
    for token in &tokens[..tokens.len() - 1] {
        let Some(steps) = parse_path(token) else {
            break;
        };
        if matches!(steps.first(), Some(Step::Key(k)) if TOP_LEVEL.contains(&k.as_str())) {
            path.clear();
        }
        path.extend(steps);
    }
    path
}

/// `a.b[1][2].c`, or a relative `[3]`; `None` for anything else.
fn parse_path(token: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = token;
    // A key may start the path or follow a dot; an index may start it or
    // follow a key or an index; a dot follows a key or an index.
    let (mut key_allowed, mut index_allowed) = (true, true);
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[').filter(|_| index_allowed) {
            let (digits, after) = after.split_once(']')?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            steps.push(Step::Index(digits.parse().ok()?));
            rest = after;
            key_allowed = false;
        } else if key_allowed {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Key(rest[..end].to_string()));
            rest = &rest[end..];
            (key_allowed, index_allowed) = (false, true);
        } else {
            rest = rest.strip_prefix('.').filter(|r| !r.is_empty())?;
            (key_allowed, index_allowed) = (true, false);
        }
    }
    (!steps.is_empty()).then_some(steps)
}

/// Where the value at `path` starts in `text` (valid JSON), or its nearest
/// ancestor that the text holds.
fn find(text: &[u8], path: &[Step]) -> usize {
    let mut at = skip_ws(text, 0);
    for step in path {
        match child(text, at, step) {
            Some(next) => at = next,
            None => break,
        }
    }
    at
}

/// The start of the member or element `step` of the value at `at`. Of
/// duplicate keys the last counts, as serde keeps it.
fn child(text: &[u8], at: usize, step: &Step) -> Option<usize> {
    let (open, close) = match step {
        Step::Key(_) => (b'{', b'}'),
        Step::Index(_) => (b'[', b']'),
    };
    if text.get(at) != Some(&open) {
        return None;
    }
    let mut found = None;
    let mut pos = skip_ws(text, at + 1);
    let mut index = 0;
    while text.get(pos).is_some_and(|&b| b != close) {
        let value = match step {
            Step::Key(key) => {
                let key_end = skip_string(text, pos)?;
                let colon = skip_ws(text, key_end);
                if text.get(colon) != Some(&b':') {
                    return None;
                }
                let value = skip_ws(text, colon + 1);
                if key_is(&text[pos..key_end], key) {
                    found = Some(value);
                }
                value
            }
            Step::Index(i) => {
                if index == *i {
                    return Some(pos);
                }
                index += 1;
                pos
            }
        };
        pos = skip_ws(text, skip_value(text, value)?);
        if text.get(pos) == Some(&b',') {
            pos = skip_ws(text, pos + 1);
        }
    }
    found
}

/// Whether the quoted JSON string `quoted` is `key`.
fn key_is(quoted: &[u8], key: &str) -> bool {
    let raw = &quoted[1..quoted.len() - 1];
    if raw.contains(&b'\\') {
        serde_json::from_slice::<String>(quoted).is_ok_and(|k| k == key)
    } else {
        raw == key.as_bytes()
    }
}

fn skip_ws(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| b" \t\r\n".contains(b)) {
        at += 1;
    }
    at
}

/// The byte after the string that starts at `at`.
fn skip_string(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) != Some(&b'"') {
        return None;
    }
    let mut pos = at + 1;
    loop {
        match text.get(pos)? {
            b'\\' => pos += 2,
            b'"' => return Some(pos + 1),
            _ => pos += 1,
        }
    }
}

/// The byte after the value that starts at `at`.
fn skip_value(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at)? {
        b'"' => skip_string(text, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut pos = at;
            loop {
                match text.get(pos)? {
                    b'"' => {
                        pos = skip_string(text, pos)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(pos + 1);
                        }
                    }
                    _ => {}
                }
                pos += 1;
            }
        }
        _ => {
            let mut pos = at;
            while text.get(pos).is_some_and(|b| !b",]} \t\r\n".contains(b)) {
                pos += 1;
            }
            (pos > at).then_some(pos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"{"asset": {"version": "2.0"},
 "accessors": [ {"count": 1}, {"count": 2, "sparse": {"count": 1, "indices": {"bufferView": 0}}} ],
 "animations": [{"samplers": [{"input": 0, "output": 1}, {"input": 2, "output": 3}]}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
 "nodes": [{"name": "a\"b, ]}"}, "x, {", {"name": "c"}], "k\u0065y": [1], "scene": 0, "scene": 0}"#;

    fn place(message: &str) -> &'static str {
        &TEXT[in_json(message, TEXT.as_bytes())..]
    }

    #[test]
    fn paths_name_the_start_of_their_value() {
        assert!(place("asset: x").starts_with(r#"{"version""#));
        assert!(place("accessors[1]: x").starts_with(r#"{"count": 2"#));
        assert!(place("accessors[1].sparse: count: x").starts_with("1, \"indices\""));
        assert!(
            place("accessors[1].sparse: indices.bufferView: x").starts_with("0}}}"),
            "{}",
            place("accessors[1].sparse: indices.bufferView: x")
        );
        assert!(place("animations[0].samplers[1].output: x").starts_with("3}]"));
        // An inner absolute path is the place: the accessor a sampler
        // refers to.
        assert!(
            place("animations[0].samplers[1].output: accessors[0]: x")
                .starts_with(r#"{"count": 1}"#)
        );
        assert!(place("meshes[0].primitives[0]: attributes: x").starts_with(r#"{"POSITION""#));
        assert!(place("meshes[0].primitives[0]: indices: x").starts_with("1}]"));
        // Strings holding commas, brackets and escaped quotes are skipped
        // whole.
        assert!(place("nodes[2]: x").starts_with(r#"{"name": "c"}"#));
        assert!(place("nodes[1]: x").starts_with(r#""x, {""#));
        // A key written with an escape; of two keys, the last.
        assert!(place("key: x").starts_with("[1]"));
        assert_eq!(&TEXT[TEXT.len() - 2..], place("scene: x"));
    }

    #[test]
    fn steps_the_text_lacks_leave_the_nearest_ancestor() {
        // An element of an accessor's data; a missing key; an index past
        // the end; an index into an object.
        assert!(place("accessors[1][7]: value NaN").starts_with(r#"{"count": 2"#));
        assert!(place("accessors[0].bufferView: x").starts_with(r#"{"count": 1}"#));
        assert!(place("nodes[5]: x").starts_with(r#"[{"name""#));
        assert!(place("asset[0]: x").starts_with(r#"{"version""#));
        // No path at all: the document.
        assert_eq!(place("buffer view 3 is out of range"), TEXT);
        assert_eq!(place("images: x"), TEXT);
    }

    #[test]
    fn leading_tokens_make_one_path() {
        let key = |k: &str| Step::Key(k.into());
        assert_eq!(
            leading_path(
                "meshes[0].primitives[2]: targets[1]: attributes.POSITION: count 3 is wrong: 4"
            ),
            [
                key("meshes"),
                Step::Index(0),
                key("primitives"),
                Step::Index(2),
                key("targets"),
                Step::Index(1),
                key("attributes"),
                key("POSITION")
            ]
        );
        assert_eq!(
            leading_path("samplers[1]: x"),
            [key("samplers"), Step::Index(1)]
        );
        for not_a_path in [
            "a b", "a..b", ".a", "a.", "a[", "a[]", "a[x]", "[-1]", "", "a[1]b", "a.[1]",
            // A sign, which `usize::from_str` would take.
            "a[+1]",
        ] {
            assert_eq!(parse_path(not_a_path), None, "{not_a_path:?}");
        }
        assert_eq!(parse_path("[3]"), Some(vec![Step::Index(3)]));
        assert_eq!(
            parse_path("a[1][2].b_2.C"),
            Some(vec![
                Step::Key("a".into()),
                Step::Index(1),
                Step::Index(2),
                Step::Key("b_2".into()),
                Step::Key("C".into())
            ])
        );
    }

    #[test]
    fn syntax_errors_are_placed_by_line_and_column() {
        let text = "{\"a\": 1,\n \"b\" 2}";
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        let at = in_json(&format!("json: not valid json: {e}"), text.as_bytes());
        assert_eq!(&text[at..], "2}", "{e}");
        let text = "{\"a\":";
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        assert_eq!(
            in_json(&format!("json: not valid json: {e}"), text.as_bytes()),
            5
        );
        assert_eq!(
            in_json("json: the top level must be an object", b"  [1]"),
            2
        );
        // A line past the text's end stays inside it.
        assert_eq!(in_json("json: x at line 9 column 3", b"{}"), 2);
    }

    #[test]
    fn an_error_is_placed_once_and_in_the_file() {
        let glb = crate::formats::glb::encode(br#"{"asset":{"version":"2.0"},"nodes":[{}]}"#, None);
        let e = placed(Error("nodes[0]: x".into()), &glb);
        // The GLB's JSON starts at byte 20; the node at 36 of the JSON.
        assert_eq!(e.0, "at byte 56: nodes[0]: x");
        assert_eq!(placed(e, &glb).0, "at byte 56: nodes[0]: x");
        let gltf = b"\xEF\xBB\xBF {\"nodes\":[{}]}";
        assert_eq!(
            placed(Error("nodes[0]: x".into()), gltf).0,
            "at byte 14: nodes[0]: x"
        );
        assert_eq!(placed(Error("x".into()), b"not a glb").0, "at byte 0: x");
    }

    #[test]
    fn within_finds_a_slice_of_the_whole_and_nothing_else() {
        let whole = b"0123456789".to_vec();
        assert_eq!(within(&whole, &whole[3..7]), Some(3));
        assert_eq!(within(&whole, &whole[..]), Some(0));
        assert_eq!(within(&whole, &whole[10..]), Some(10));
        let copy = whole[3..7].to_vec();
        assert_eq!(within(&whole, &copy), None);
        assert_eq!(within(&whole[2..], &whole[..4]), None);
        assert_eq!(within(&whole[..5], &whole[3..7]), None);
    }

    #[test]
    fn the_scanner_ends_on_any_text() {
        let path = leading_path("accessors[1].sparse.indices: x");
        for text in [
            &b""[..],
            b"{",
            b"{\"",
            b"{\"accessors\"",
            b"{\"accessors\":[",
            b"{\"accessors\":[{\"a\":\"\\",
            b"[[[[",
            b"}}}",
            b"{\"accessors\":[1 2]}",
        ] {
            assert!(find(text, &path) <= text.len());
        }
    }
}
