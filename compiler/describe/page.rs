//! `kiln view --html`: one self-contained HTML page showing files kiln
//! made (or reads), for a person to look at: each file's summary (the
//! data of `kiln inspect --json`) as tables, its tensor table, and its
//! pictures (atlases, images) inline. Nothing is fetched: the page opens
//! from disk or from a CI artifact, with every request blocked.
//!
//! Pure: values in, the page's text out. The data of every file is also
//! in the page as JSON (`<script type="application/json" id="kiln-data">`),
//! for the page's own code and for tests to read back.

use std::fmt::Write as _;

use base64::Engine as _;
use serde_json::{Value, json};

/// One file on the page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The file as the user names it (relative to the project root when
    /// inside it).
    pub path: String,
    /// What it is (`describe::label`), or empty when it could not be read.
    pub what: String,
    /// Its summary (`describe::data`), or null.
    pub data: Value,
    /// Its table's first rows (`describe::table`: the tensors), and how
    /// many it has in all.
    pub table: Option<(Vec<Value>, usize)>,
    pub pictures: Vec<Picture>,
    /// What the page draws in 3-D (`describe::scene`), or none.
    pub scene: Option<Value>,
    /// Why it is not shown (missing, not a file kiln reads, invalid).
    pub problem: Option<String>,
}

/// An image, as PNG bytes, with rectangles to outline on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    pub label: String,
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// `[x, y, width, height]` in pixels, each with its caption.
    pub rects: Vec<([u32; 4], String)>,
}

/// The most rows of one table the page shows (a checkpoint's million
/// tensors would make a page no browser opens); the rest are counted.
pub const MAX_ROWS: usize = 2_000;

/// The most items of one array of numbers or words shown inline.
const MAX_INLINE: usize = 64;

/// How deep nested values are drawn as tables; deeper ones are JSON text.
const MAX_DEPTH: usize = 12;

/// The part of three.js the page runs (`view/bundle/bundle.sh` makes it
/// from the pinned npm package; MIT, `view/three-LICENSE`).
const THREE: &str = include_str!("view/three.js");
/// three.js's licence, which the page carries with it.
const THREE_LICENSE: &str = include_str!("view/three-LICENSE");
/// kiln's own code of the page: it draws each file's `scene`.
const VIEW: &str = include_str!("view/kiln-view.js");

/// The page for `shown`, titled `title`. Scripts are in it only when a
/// file has a scene to draw, each allowed by its hash alone. A `live` page
/// (served by `kiln view --serve`, at that generation) always has them,
/// and may connect to its own server's `/events` to reload when the
/// generation moves on.
pub fn html(title: &str, shown: &[Shown], live: Option<u64>) -> String {
    let scripts: Vec<&str> = match live.is_some() || shown.iter().any(|s| s.scene.is_some()) {
        true => vec![THREE, VIEW],
        false => Vec::new(),
    };
    let connect = match live {
        Some(_) => "; connect-src 'self'",
        None => "",
    };
    let body = match live {
        Some(generation) => format!("<body data-live=\"{generation}\">"),
        None => "<body>".to_string(),
    };
    let script_src: String = scripts
        .iter()
        .map(|js| format!(" 'sha256-{}'", sha256_base64(js)))
        .collect();
    let script_src = match script_src.is_empty() {
        true => String::new(),
        false => format!("; script-src{script_src}"),
    };
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         img-src data:; style-src 'unsafe-inline'{connect}{script_src}\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n{body}\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    o.push_str("<nav><ol>\n");
    for (i, s) in shown.iter().enumerate() {
        let _ = writeln!(
            o,
            "<li><a href=\"#f{i}\">{}</a> <small>{}</small></li>",
            escape(&s.path),
            escape(if s.problem.is_some() {
                "not shown"
            } else {
                &s.what
            })
        );
    }
    o.push_str("</ol></nav>\n");
    for (i, s) in shown.iter().enumerate() {
        section(&mut o, i, s);
    }
    let data: Vec<Value> = shown.iter().map(entry).collect();
    let _ = writeln!(
        o,
        "<script type=\"application/json\" id=\"kiln-data\">{}</script>",
        script_json(&Value::Array(data))
    );
    if !scripts.is_empty() {
        let _ = writeln!(
            o,
            "<!-- three.js (MIT): {} -->",
            THREE_LICENSE.replace("--", "- -").trim()
        );
    }
    for js in scripts {
        let _ = writeln!(o, "<script>{js}</script>");
    }
    o.push_str("</body>\n</html>\n");
    o
}

/// One file's entry in the page's data (docs/json.md, "view-data"): a
/// field it does not have is left out.
fn entry(s: &Shown) -> Value {
    let mut v = json!({ "path": s.path, "what": s.what });
    if !s.data.is_null() {
        v["data"] = s.data.clone();
    }
    if let Some(scene) = &s.scene {
        v["scene"] = scene.clone();
    }
    if let Some(problem) = &s.problem {
        v["problem"] = json!(problem);
    }
    v
}

/// The base64 of `text`'s SHA-256: a Content-Security-Policy's hash of an
/// inline script.
fn sha256_base64(text: &str) -> String {
    use sha2::Digest as _;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()))
}

fn section(o: &mut String, i: usize, s: &Shown) {
    let _ = writeln!(
        o,
        "<section id=\"f{i}\" data-path=\"{}\">\n<h2>{} <small>{}</small></h2>",
        escape(&s.path),
        escape(&s.path),
        escape(&s.what)
    );
    if let Some(problem) = &s.problem {
        let _ = writeln!(o, "<p class=\"problem\">{}</p>", escape(problem));
    }
    for p in &s.pictures {
        picture(o, p);
    }
    if !s.data.is_null() {
        value(o, &s.data, 0);
    }
    if let Some((rows, total)) = &s.table {
        let _ = writeln!(o, "<h3>tensors ({total})</h3>");
        rows_table(o, rows, 0);
        if *total > rows.len() {
            let _ = writeln!(
                o,
                "<p class=\"more\">… and {} more (every row: <code>kiln inspect --json</code>)</p>",
                total - rows.len()
            );
        }
    }
    o.push_str("</section>\n");
}

fn picture(o: &mut String, p: &Picture) {
    let png = base64::engine::general_purpose::STANDARD.encode(&p.png);
    let _ = write!(
        o,
        "<figure><svg class=\"picture\" viewBox=\"0 0 {w} {h}\" width=\"{dw}\" \
         xmlns=\"http://www.w3.org/2000/svg\"><image width=\"{w}\" height=\"{h}\" \
         href=\"data:image/png;base64,{png}\" style=\"image-rendering:pixelated\"/>",
        w = p.width,
        h = p.height,
        dw = p.width.clamp(192, 512),
    );
    for ([x, y, w, h], caption) in &p.rects {
        let _ = write!(
            o,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"><title>{}</title></rect>",
            escape(caption)
        );
    }
    let _ = writeln!(
        o,
        "</svg><figcaption>{} ({} × {})</figcaption></figure>",
        escape(&p.label),
        p.width,
        p.height
    );
}

/// A value as HTML: an object as a two-column table, an array of objects
/// as a table with a column per key, a short array of scalars inline.
fn value(o: &mut String, v: &Value, depth: usize) {
    if depth >= MAX_DEPTH {
        let _ = write!(o, "<code>{}</code>", escape(&v.to_string()));
        return;
    }
    match v {
        Value::Object(fields) => {
            o.push_str("<table class=\"fields\">");
            for (k, f) in fields {
                if f.is_null() {
                    continue;
                }
                let _ = write!(o, "<tr><th>{}</th><td>", escape(k));
                value(o, f, depth + 1);
                o.push_str("</td></tr>");
            }
            o.push_str("</table>\n");
        }
        Value::Array(items) if items.iter().any(Value::is_object) => {
            let shown = &items[..items.len().min(MAX_ROWS)];
            rows_table(o, shown, depth + 1);
            if items.len() > shown.len() {
                let _ = write!(
                    o,
                    "<p class=\"more\">… and {} more</p>",
                    items.len() - shown.len()
                );
            }
        }
        Value::Array(items) => {
            let shown: Vec<String> = items
                .iter()
                .take(MAX_INLINE)
                .map(|i| escape(&scalar(i)))
                .collect();
            let _ = write!(o, "[{}", shown.join(", "));
            if items.len() > MAX_INLINE {
                let _ = write!(o, ", … {} in all", items.len());
            }
            o.push(']');
        }
        other => o.push_str(&escape(&scalar(other))),
    }
}

/// Rows (objects) as a table with a column for every key any row has, in
/// the order first seen.
fn rows_table(o: &mut String, rows: &[Value], depth: usize) {
    let mut columns: Vec<&str> = Vec::new();
    for row in rows {
        if let Value::Object(fields) = row {
            for k in fields.keys() {
                if !columns.contains(&k.as_str()) {
                    columns.push(k);
                }
            }
        }
    }
    o.push_str("<table class=\"rows\"><tr>");
    for c in &columns {
        let _ = write!(o, "<th>{}</th>", escape(c));
    }
    o.push_str("</tr>");
    for row in rows {
        o.push_str("<tr>");
        for c in &columns {
            o.push_str("<td>");
            match row.get(c) {
                Some(v) if !v.is_null() => value(o, v, depth + 1),
                _ => {}
            }
            o.push_str("</td>");
        }
        o.push_str("</tr>");
    }
    o.push_str("</table>\n");
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Text made safe inside HTML elements and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that can sit inside a `<script>` element: no `<` (so no
/// `</script>` or `<!--`) and no line separators that older parsers end a
/// line at; the same JSON value once parsed.
pub fn script_json(v: &Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
h2{border-top:1px solid #ccc;padding-top:1em}small{color:#777;font-weight:normal}\
table{border-collapse:collapse;margin:.3em 0}th,td{border:1px solid #ddd;padding:2px 6px;\
text-align:left;vertical-align:top}table.fields>tbody>tr>th{background:#f6f6f6}\
table.rows>tbody>tr:first-child>th{background:#eef}.problem{color:#a00}.more{color:#777}\
figure{display:inline-block;margin:.5em}svg.picture{background:\
repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px;border:1px solid #ccc;\
height:auto}svg.picture rect{fill:none;stroke:#f0f;stroke-width:1px;\
vector-effect:non-scaling-stroke}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_cannot_leave_their_element() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
        let v = json!({"name": "</script><script>alert(1)</script>\u{2028}"});
        let text = script_json(&v);
        assert!(!text.contains('<') && !text.contains('\u{2028}'), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    }

    #[test]
    fn a_page_shows_each_file_and_counts_what_it_leaves_out() {
        let rows: Vec<Value> = (0..3).map(|i| json!({"name": format!("t{i}")})).collect();
        let shown = [
            Shown {
                path: "out/a.gguf".into(),
                what: "GGUF".into(),
                data: json!({"tensors_total": 5, "metadata": [{"key": "k<", "value": 1}]}),
                table: Some((rows, 5)),
                ..Shown::default()
            },
            Shown {
                path: "out/b.ospc".into(),
                problem: Some("missing: not built yet".into()),
                ..Shown::default()
            },
        ];
        let page = html("kiln & co", &shown, None);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>kiln &amp; co</title>"));
        assert!(page.contains("<td>k&lt;</td>"), "{page}");
        assert!(page.contains("<td>t2</td>") && page.contains("… and 2 more"));
        assert!(page.contains("missing: not built yet"));
        // Nothing the page would fetch.
        for needle in ["http:", "https:", " src=", "@import", "url("] {
            let outside_svg_ns = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
            assert!(!outside_svg_ns.contains(needle), "{needle}");
        }
        let start = page.find("id=\"kiln-data\">").unwrap() + 15;
        let end = page[start..].find("</script>").unwrap() + start;
        let data: Value = serde_json::from_str(&page[start..end]).unwrap();
        assert_eq!(data[0]["path"], "out/a.gguf");
        assert_eq!(data[1]["problem"], "missing: not built yet");
    }

    #[test]
    fn scripts_come_with_a_scene_and_only_their_hashes_may_run() {
        let plain = html("t", &[Shown::default()], None);
        assert!(!plain.contains("<script>") && !plain.contains("script-src"));
        assert!(!plain.contains("connect-src") && plain.contains("<body>"));
        // Served, the page reloads itself: its scripts, and its server.
        let live = html("t", &[Shown::default()], Some(7));
        assert!(live.contains("<body data-live=\"7\">"));
        assert!(live.contains("default-src 'none'; img-src data:; style-src 'unsafe-inline'; connect-src 'self'; script-src 'sha256-"));
        assert!(live.contains(&format!("<script>{VIEW}</script>")));
        let drawn = Shown {
            scene: Some(json!({"kind": "poses"})),
            ..Shown::default()
        };
        let page = html("t", &[drawn], None);
        for js in [THREE, VIEW] {
            assert!(!js.contains("</script"));
            assert!(page.contains(&format!("<script>{js}</script>")));
            assert!(page.contains(&format!("'sha256-{}'", sha256_base64(js))));
        }
        assert!(!page.contains("unsafe-eval") && !page.contains("script-src 'unsafe-inline'"));
        // The hash is the one browsers compute (of the script's text).
        assert_eq!(
            sha256_base64("console.log(1)"),
            "CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M="
        );
    }

    #[test]
    fn a_picture_is_inline_with_its_rectangles() {
        let p = Picture {
            label: "atlas of fox".into(),
            png: vec![1, 2, 3],
            width: 4,
            height: 2,
            rects: vec![([0, 0, 2, 2], "fur".into())],
        };
        let mut o = String::new();
        picture(&mut o, &p);
        assert!(o.contains("href=\"data:image/png;base64,AQID\""), "{o}");
        assert!(o.contains("<rect x=\"0\" y=\"0\" width=\"2\" height=\"2\"><title>fur</title>"));
        assert!(o.contains("atlas of fox (4 × 2)"));
    }

    #[test]
    fn deep_values_become_text() {
        let mut v = json!(1);
        for _ in 0..40 {
            v = json!({ "a": v });
        }
        let mut o = String::new();
        value(&mut o, &v, 0);
        assert_eq!(o.matches("<table").count(), MAX_DEPTH);
        assert!(o.contains("<code>"));
    }
}
