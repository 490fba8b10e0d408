//! `kiln view --html`: the page of what was built, read back: every output
//! is on it with the summary `kiln inspect --json` gives, the atlases are
//! inline, and it fetches nothing.

use crate::cli_support::{Project, stderr};
use crate::json_support::{check, schema};

use std::collections::BTreeSet;

use std::fs;

use serde_json::Value;

/// The page's embedded data (one entry per file), and the page.
fn page(p: &Project, args: &[&str]) -> (Vec<Value>, String) {
    let mut all = vec!["view", "--html", "page.html"];
    all.extend_from_slice(args);
    let out = p.kiln(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = fs::read_to_string(p.path("page.html")).unwrap();
    let start = html.find("id=\"kiln-data\">").unwrap() + "id=\"kiln-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: Value = serde_json::from_str(&html[start..end]).unwrap();
    let entries = data.as_array().unwrap().clone();
    for entry in &entries {
        check(&schema(), "view-data", ".", entry, &mut BTreeSet::new());
    }
    (entries, html)
}

/// `v` without null fields, at any depth.
fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, f)| !f.is_null())
                .map(|(k, f)| (k.clone(), without_nulls(f)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

#[test]
fn the_page_shows_every_output_as_inspect_reads_it() {
    let p = Project::demo();
    let built = p.builds(&[]);
    let outputs: Vec<String> = built["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| j["outputs"].as_array().unwrap().clone())
        .map(|o| o["path"].as_str().unwrap().to_string())
        .collect();
    let (files, html) = page(&p, &[]);
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, outputs);
    for f in &files {
        let path = f["path"].as_str().unwrap();
        assert!(f["problem"].is_null(), "{path}: {}", f["problem"]);
        if path.ends_with(".json") {
            let text = fs::read_to_string(p.path(path)).unwrap();
            assert_eq!(f["data"], serde_json::from_str::<Value>(&text).unwrap());
            continue;
        }
        let out = p.kiln(&["inspect", "--json", path]);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut inspected: Value = serde_json::from_slice(&out.stdout).unwrap();
        let fields = inspected.as_object_mut().unwrap();
        for k in ["kiln", "schema", "tensors"] {
            fields.remove(k);
        }
        assert_eq!(without_nulls(&f["data"]), inspected, "{path}");
    }
    // Each model of each level has its atlas drawn.
    let models: usize = files
        .iter()
        .filter(|f| f["what"] == "compiled characters")
        .map(|f| f["data"]["models"].as_array().unwrap().len())
        .sum();
    assert!(models >= 5);
    assert_eq!(
        html.matches("href=\"data:image/png;base64,").count(),
        models
    );
    // The GGUF's tensors are a table.
    assert!(html.contains("<h3>tensors ("));
    // It needs nothing else: outside its scripts no address but the SVG
    // namespace, nothing to fetch; in them no way to ask for anything (the
    // XHTML namespace three.js makes elements in is a name, not a
    // request); and a policy that refuses any connection.
    let mut bare = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    let mut scripts = String::new();
    while let Some(start) = bare.find("<script>") {
        let end = start + bare[start..].find("</script>").unwrap() + "</script>".len();
        scripts.push_str(&bare[start..end]);
        bare.replace_range(start..end, "");
    }
    for fetch in ["http:", "https:", " src=", "@import", "url(", "<link"] {
        assert!(!bare.contains(fetch), "{fetch}");
    }
    for ask in [
        "XMLHttpRequest",
        "fetch(",
        "import(",
        "WebSocket",
        "sendBeacon",
        "https:",
    ] {
        assert!(!scripts.contains(ask), "{ask}");
    }
    assert!(html.contains("content=\"default-src 'none'; img-src data:"));
    assert_eq!(
        html.matches("<script>").count(),
        2,
        "three.js and kiln's own"
    );
    assert!(
        html.len() < 5 << 20,
        "the demo's page is {} bytes",
        html.len()
    );
}

#[test]
fn the_page_shows_what_is_named_and_what_is_not_built() {
    let p = Project::demo();
    // Nothing built yet: every output listed as such.
    let (files, _) = page(&p, &["forest"]);
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        [
            "out/levels/forest/@world/characters",
            "out/levels/forest/level.json"
        ]
    );
    for f in &files {
        assert!(
            f["problem"].as_str().unwrap().contains("not built yet"),
            "{f}"
        );
    }
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (files, html) = page(
        &p,
        &[
            "out/poses/fox-run.ospc",
            "out/models/tiny-mlp/tiny-mlp.gguf",
        ],
    );
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["what"], "pose cache");
    assert_eq!(files[1]["what"], "GGUF");
    assert!(!html.contains("data:image/png"));
    // A file kiln does not read is listed with the reason.
    p.write("notes.txt", "hello");
    let (files, _) = page(&p, &["notes.txt"]);
    assert!(
        files[0]["problem"]
            .as_str()
            .unwrap()
            .contains("not a file kiln reads"),
        "{}",
        files[0]
    );
    // A replay's joint tree, and --json; every documented field of both
    // documents was printed.
    let replay = kiln::formats::mbreplay::encode(&crate::synth::replay()).unwrap();
    p.write_bytes("walk.mbreplay", &replay);
    let out = p.kiln(&[
        "view",
        "--json",
        "--html",
        "all.html",
        "walk.mbreplay",
        "notes.txt",
        "out/poses/fox-run.ospc",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut seen = BTreeSet::new();
    check(&schema(), "view", ".", &printed, &mut seen);
    assert_eq!(
        (printed["files"].as_u64(), printed["not_shown"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(
        printed["bytes"].as_u64(),
        Some(fs::metadata(p.path("all.html")).unwrap().len())
    );
    let html = fs::read_to_string(p.path("all.html")).unwrap();
    let start = html.find("id=\"kiln-data\">").unwrap() + "id=\"kiln-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: Value = serde_json::from_str(&html[start..end]).unwrap();
    for entry in data.as_array().unwrap() {
        check(&schema(), "view-data", ".", entry, &mut seen);
    }
    for ((doc, path), fields) in schema()
        .iter()
        .filter(|((doc, _), _)| doc.starts_with("view"))
    {
        for name in fields.keys() {
            assert!(
                seen.contains(&(doc.clone(), path.clone(), name.clone())),
                "{doc} {path} `{name}` was never printed"
            );
        }
    }

    // A target that names no job: the build's own words, exit status 2.
    let out = p.kiln(&["view", "--html", "x.html", "no-such-job"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!p.path("x.html").exists());
}

/// What headless Chromium logs of `page` (every console message, each a
/// `CONSOLE` line: the page's code logs nothing, so any is an error, a
/// request its policy refused or a script that should not be there; but
/// the WebGL driver's notes that copying a frame stalls, which the page
/// does once per drawn frame, by design), and the DOM it built (after
/// its scripts ran), with every host name unresolvable. WebGL is
/// SwiftShader's, on the CPU.
fn chromium(page: &std::path::Path, profile: &std::path::Path) -> (Vec<String>, String) {
    let out = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-unsafe-swiftshader",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=2000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium (Debian's package; tests/full.sh installs it)");
    assert!(out.status.success(), "{}", stderr(&out));
    let console = stderr(&out)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .filter(|l| !l.contains("GL Driver Message (OpenGL, Performance, GL_CLOSE_PATH_NV, High): GPU stall due to ReadPixels"))
        .map(str::to_string)
        .collect();
    (console, String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
#[ignore = "full tier: Chromium from Debian's packages (tests/full.sh installs it)"]
fn chromium_opens_the_page_with_no_network_and_no_console_message() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (files, html) = page(&p, &[]);
    let (console, dom) = chromium(&p.path("page.html"), &p.path("profile"));
    assert_eq!(console, Vec::<String>::new());
    for i in 0..files.len() {
        assert!(
            dom.contains(&format!("<section id=\"f{i}\"")),
            "section {i}"
        );
    }
    assert_eq!(
        dom.matches("data:image/png;base64,").count(),
        html.matches("data:image/png;base64,").count()
    );
    // Exact: the positions the page's code reads out of its data, at its
    // first, middle and last frame, are the pose cache's own (kiln's
    // decoder), an absent pose as null; and it drew each one with WebGL.
    let caches: Vec<&Value> = files.iter().filter(|f| f["what"] == "pose cache").collect();
    assert!(caches.len() >= 10);
    assert_eq!(dom.matches("data-webgl=\"yes\"").count(), caches.len());
    let expected: Vec<Expected> = caches
        .iter()
        .map(|file| {
            let bytes = fs::read(p.path(file["path"].as_str().unwrap())).unwrap();
            let cache = kiln::formats::ospc::decode(&bytes).unwrap();
            let n = cache.entities.len();
            let positions = cache
                .poses
                .iter()
                .map(|p| (!p.is_absent()).then_some(p.position));
            (
                file["path"].as_str().unwrap().to_string(),
                n,
                positions.collect(),
            )
        })
        .collect();
    let compared = compare_checks(&dom, &expected);
    assert!(compared > 1000, "{compared}");
    // A replay: its joint tree, the positions its decoder gives.
    let replay = crate::synth::replay();
    p.write_bytes(
        "walk.mbreplay",
        &kiln::formats::mbreplay::encode(&replay).unwrap(),
    );
    let (files, _) = page(&p, &["walk.mbreplay"]);
    assert_eq!(files[0]["scene"]["kind"], "joints");
    assert_eq!(
        files[0]["scene"]["parents"],
        serde_json::json!(replay.parents)
    );
    let (console, dom) = chromium(&p.path("page.html"), &p.path("profile"));
    assert_eq!(console, Vec::<String>::new());
    assert_eq!(dom.matches("data-webgl=\"yes\"").count(), 1);
    let positions = replay.positions.iter().map(|p| Some(*p)).collect();
    let expected = [("walk.mbreplay".to_string(), replay.joints(), positions)];
    assert_eq!(compare_checks(&dom, &expected), 3 * 3 * replay.joints());

    // The check can fail: a page that asks for anything is caught.
    let asking = html.replace(
        "</body>",
        "<img src=\"http://kiln.invalid/x.png\"><script>console.log(1)</script></body>",
    );
    fs::write(p.path("asking.html"), asking).unwrap();
    let (console, _) = chromium(&p.path("asking.html"), &p.path("profile"));
    assert_eq!(console.len(), 2, "{console:?}");
}

/// Text of an HTML element as written by a browser's serializer: `&amp;`,
/// `&lt;`, `&gt;` and `&quot;` back to their characters.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// A file drawn on the page: its path, entities, and every position
/// (frame-major, an absent one `None`) as kiln decodes them.
type Expected = (String, usize, Vec<Option<[f32; 3]>>);

/// Compares the positions the page's code wrote for each drawn file (its
/// first, middle and last frame) with `expected`, in page order, within
/// 1e-5; how many numbers it compared.
fn compare_checks(dom: &str, expected: &[Expected]) -> usize {
    let checks: Vec<Value> = dom
        .split("<pre class=\"kiln-check\" hidden=\"\">")
        .skip(1)
        .map(|rest| serde_json::from_str(&unescape(&rest[..rest.find("</pre>").unwrap()])).unwrap())
        .collect();
    assert_eq!(checks.len(), expected.len());
    let mut compared = 0;
    for ((path, n, positions), check) in expected.iter().zip(&checks) {
        let last = positions.len() / n - 1;
        let check = check.as_array().unwrap();
        let frames: Vec<u64> = check.iter().map(|c| c["frame"].as_u64().unwrap()).collect();
        assert_eq!(frames, [0, last as u64 / 2, last as u64], "{path}");
        for c in check {
            let frame = c["frame"].as_u64().unwrap() as usize;
            for (e, got) in c["positions"].as_array().unwrap().iter().enumerate() {
                let Some(want) = positions[frame * n + e] else {
                    assert!(got.is_null(), "{path}: frame {frame} entity {e}");
                    continue;
                };
                for k in 0..3 {
                    let v = got[k].as_f64().unwrap();
                    assert!(
                        (v - f64::from(want[k])).abs() <= 1e-5,
                        "{path}: {v} {want:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    compared
}
