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
    let entries = page_data(&html).as_array().unwrap().clone();
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
    // A replay's joint tree, a level's characters, a CGeo sequence, and
    // --json; every documented field of both documents was printed.
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
        "out/levels/sandbox/@world/characters",
        "out/cgeo/fox-run-cgeo.cgeo",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut seen = BTreeSet::new();
    check(&schema(), "view", ".", &printed, &mut seen);
    assert_eq!(
        (printed["files"].as_u64(), printed["not_shown"].as_u64()),
        (Some(5), Some(1))
    );
    assert_eq!(
        printed["bytes"].as_u64(),
        Some(fs::metadata(p.path("all.html")).unwrap().len())
    );
    let html = fs::read_to_string(p.path("all.html")).unwrap();
    for entry in page_data(&html).as_array().unwrap() {
        check(&schema(), "view-data", ".", entry, &mut seen);
    }
    for ((doc, path), fields) in schema()
        .iter()
        .filter(|((doc, _), _)| doc == "view" || doc == "view-data")
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
    let url = format!("file://{}", page.display());
    chromium_with(
        &url,
        profile,
        NO_HOSTS,
        &["--virtual-time-budget=2000", "--dump-dom"],
    )
}

/// Every host name unresolvable.
const NO_HOSTS: &str = "MAP * ~NOTFOUND";

/// [`chromium`] of `url`, with `hosts` its resolver's rules and `args`
/// (how long it runs, what it dumps).
fn chromium_with(
    url: &str,
    profile: &std::path::Path,
    hosts: &str,
    args: &[&str],
) -> (Vec<String>, String) {
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
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--host-resolver-rules={hosts}"))
        .args(args)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
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

/// What the page's code wrote into its hidden `<pre class="CLASS">`
/// elements, in page order.
fn checks_in(dom: &str, class: &str) -> Vec<Value> {
    dom.split(&format!("<pre class=\"{class}\" hidden=\"\">"))
        .skip(1)
        .map(|rest| serde_json::from_str(&unescape(&rest[..rest.find("</pre>").unwrap()])).unwrap())
        .collect()
}

#[test]
fn a_cgeo_sequence_is_drawn_up_to_its_bound() {
    use base64::Engine as _;
    use kiln::describe::cgeo::MAX_DRAWN_ITEMS;
    use kiln::formats::cgeo::{Header, Mesh, Sequence, Snapshot, Triangle};
    let p = Project::demo();
    // Ten snapshots of 30,000 vertices: the first eight fit the bound
    // (240,000 vertices and their triangles), the rest are counted. With
    // the topology changing, each snapshot's triangles are its own, and
    // carried only where they differ from the last drawn.
    let n = 30_000;
    let triangle = |a: u32| Triangle {
        vertices: [a, a + 1, a + 2],
        normals: [0; 3],
        material: 0,
        edges: 0,
    };
    let snapshots = (0..10u32)
        .map(|k| Snapshot {
            complete: true,
            mesh: Mesh {
                vertices: (0..n).map(|i| [i as f32, k as f32, 0.5]).collect(),
                normals: vec![[0.0, 0.0, 1.0]],
                channels: Vec::new(),
                triangles: vec![triangle(k / 2)],
                map_indices: Vec::new(),
            },
            bounding_box: None,
            point_cloud: None,
            unknown: Vec::new(),
            order: Vec::new(),
        })
        .collect();
    let seq = Sequence {
        header: Header {
            snapshots: 10,
            time_per_snapshot_us: 40_000,
            start_us: 0,
            scale: 1.0,
            material: "[none]".into(),
            object: "plane".into(),
            compressed: false,
            other: Vec::new(),
        },
        topology_changing: true,
        snapshots,
    };
    p.write_bytes("plane.cgeo", &kiln::formats::cgeo::encode(&seq).unwrap());
    let (files, _) = page(&p, &["plane.cgeo"]);
    let s = &files[0]["scene"];
    assert_eq!(s["kind"], "meshes");
    let drawn = MAX_DRAWN_ITEMS / (n + 1);
    assert_eq!(
        (s["frames"].as_u64(), s["frames_in_file"].as_u64()),
        (Some(drawn as u64), Some(10))
    );
    let b64 = |v: &Value| {
        base64::engine::general_purpose::STANDARD
            .decode(v.as_str().unwrap())
            .unwrap()
    };
    for (k, snap) in s["snapshots"].as_array().unwrap().iter().enumerate() {
        let floats: Vec<f32> = b64(&snap["positions"])
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(floats, seq.snapshots[k].mesh.vertices.concat());
        assert_eq!(snap["vertex_count"].as_u64(), Some(n as u64));
        // Snapshots 2k and 2k + 1 share their triangles.
        match k % 2 {
            0 => {
                let a = (k / 2) as u32;
                let ints: Vec<u8> = [a, a + 1, a + 2]
                    .iter()
                    .flat_map(|i| i.to_le_bytes())
                    .collect();
                assert_eq!(b64(&snap["triangles"]), ints);
            }
            _ => assert!(snap.get("triangles").is_none(), "{k}"),
        }
    }
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
    let models: usize = files
        .iter()
        .filter_map(|f| f["scene"]["models"].as_array())
        .map(Vec::len)
        .sum();
    assert!(models >= 6, "{models}");
    let sequences: Vec<&Value> = files
        .iter()
        .filter(|f| f["what"] == "CGeo sequence")
        .collect();
    assert_eq!(sequences.len(), 1);
    let styles = files
        .iter()
        .filter(|f| f["what"] == "MotionBricks style")
        .count();
    assert_eq!(styles, 1);
    assert_eq!(
        dom.matches("data-webgl=\"yes\"").count(),
        caches.len() + models + sequences.len() + styles
    );
    // A CGeo sequence: the meshes the page drew at its first, middle and
    // last snapshot are the decoder's.
    let checks = checks_in(&dom, "kiln-check-meshes");
    assert_eq!(checks.len(), sequences.len());
    let path = sequences[0]["path"].as_str().unwrap();
    let seq = kiln::formats::cgeo::decode(&fs::read(p.path(path)).unwrap()).unwrap();
    let last = seq.snapshots.len() - 1;
    let frames: Vec<u64> = checks[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["frame"].as_u64().unwrap())
        .collect();
    assert_eq!(frames, [0, last as u64 / 2, last as u64]);
    let mut compared = 0;
    for c in checks[0].as_array().unwrap() {
        let s = &seq.snapshots[c["frame"].as_u64().unwrap() as usize];
        assert_eq!(
            c["vertex_count"].as_u64(),
            Some(s.mesh.vertices.len() as u64)
        );
        assert_eq!(
            c["triangle_count"].as_u64(),
            Some(seq.snapshots[0].mesh.triangles.len() as u64)
        );
        for v in c["vertices"].as_array().unwrap() {
            let i = v[0].as_u64().unwrap() as usize;
            for k in 0..3 {
                // As f32: serde_json's parse of the page's shortest f64
                // text may be an ulp off.
                assert_eq!(
                    v[1 + k].as_f64().map(|x| x as f32),
                    Some(s.mesh.vertices[i][k]),
                    "{path} vertex {i}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 3 * 3 * 16, "{compared}");
    // A style: the G1 joints where its clip puts them (each stored
    // position plus its frame's root), in page order among the caches.
    let expected: Vec<Expected> = files
        .iter()
        .filter(|f| f["what"] == "pose cache" || f["what"] == "MotionBricks style")
        .map(|file| {
            let path = file["path"].as_str().unwrap().to_string();
            let bytes = fs::read(p.path(&path)).unwrap();
            if file["what"] == "MotionBricks style" {
                let style = kiln::formats::mbstyle::read(&bytes).unwrap().style;
                let n = kiln::formats::mbstyle::JOINTS;
                let positions = style
                    .joint_positions
                    .chunks_exact(n)
                    .zip(&style.root_positions)
                    .flat_map(|(joints, r)| {
                        joints
                            .iter()
                            .map(move |j| Some([j[0] + r[0], j[1] + r[1], j[2] + r[2]]))
                    });
                return (path, n, positions.collect());
            }
            let cache = kiln::formats::ospc::decode(&bytes).unwrap();
            let n = cache.entities.len();
            let positions = cache
                .poses
                .iter()
                .map(|p| (!p.is_absent()).then_some(p.position));
            (path, n, positions.collect())
        })
        .collect();
    assert_eq!(expected.len(), caches.len() + 1);
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

#[test]
#[ignore = "full tier: Chromium from Debian's packages (tests/full.sh installs it)"]
fn chromium_plays_compiled_characters_as_kiln_skins_them() {
    use kiln::bake::skinning;
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (files, _) = page(&p, &[]);
    let levels: Vec<&Value> = files
        .iter()
        .filter(|f| f["what"] == "compiled characters")
        .collect();
    assert!(levels.len() >= 2);
    let (console, dom) = chromium(&p.path("page.html"), &p.path("profile"));
    assert_eq!(console, Vec::<String>::new());
    let checks = checks_in(&dom, "kiln-check-characters");
    assert_eq!(checks.len(), levels.len());
    // Exact: at three times of every clip of every model, the world
    // position of every node the page posed (its own sampler and three.js's
    // bones) is kiln's CPU skinning's within 1e-5 m, and so are the
    // vertices three.js's skinned mesh moves (its bone matrices are f32s,
    // so within 1e-5 of the model's size).
    let (mut nodes, mut vertices) = (0, 0);
    for (file, check) in levels.iter().zip(&checks) {
        let path = file["path"].as_str().unwrap();
        let doc = kiln::formats::kchr::decode(&fs::read(p.path(path)).unwrap()).unwrap();
        let check = check.as_array().unwrap();
        let poses: usize = doc
            .models
            .iter()
            .map(|m| 3 * doc.banks[m.bank as usize].clips.len())
            .sum();
        assert_eq!(check.len(), poses, "{path}");
        for c in check {
            let model = doc.models.iter().find(|m| m.id == c["model"]).unwrap();
            let clips = &doc.banks[model.bank as usize].clips;
            let clip = clips.iter().find(|x| x.name == c["clip"]).unwrap();
            let t = c["time_s"].as_f64().unwrap();
            let local = skinning::local_poses(model, Some(clip), t);
            let world = skinning::world_matrices(model, &local);
            let got = c["nodes"].as_array().unwrap();
            assert_eq!(got.len(), model.nodes.len());
            for (n, (w, g)) in world.iter().zip(got).enumerate() {
                for k in 0..3 {
                    let v = g[k].as_f64().unwrap();
                    assert!(
                        (v - w[12 + k]).abs() <= 1e-5,
                        "{path} {} {} at {t}: node {n}: {v} against {}",
                        model.id,
                        clip.name,
                        w[12 + k]
                    );
                }
                nodes += 1;
            }
            let skin = skinning::skin(model, &world);
            let size = skin.iter().flatten().fold(1.0f64, |m, x| m.max(x.abs()));
            let got = c["vertices"].as_array().unwrap();
            assert!(got.len() >= model.vertices.len().min(16), "{path}");
            for g in got {
                let i = g[0].as_u64().unwrap() as usize;
                for k in 0..3 {
                    let v = g[1 + k].as_f64().unwrap();
                    assert!(
                        (v - skin[i][k]).abs() <= 1e-5 * size,
                        "{path} {} {} at {t}: vertex {i}: {v} against {}",
                        model.id,
                        clip.name,
                        skin[i][k]
                    );
                }
                vertices += 1;
            }
        }
    }
    assert!(nodes > 1000 && vertices > 500, "{nodes} {vertices}");

    // The rules the demo's clips do not all use: a STEP track, a rotation
    // whose next key is on the far side (the shorter arc), keys starting
    // after 0 and ending before the clip, an animated scale, a node bound
    // away from the origin and scaled.
    let doc = tricky_characters();
    p.write_bytes("tricky.kchr", &kiln::formats::kchr::encode(&doc).unwrap());
    let (files, _) = page(&p, &["tricky.kchr"]);
    assert_eq!(files[0]["what"], "compiled characters");
    let (console, dom) = chromium(&p.path("page.html"), &p.path("profile"));
    assert_eq!(console, Vec::<String>::new());
    assert_eq!(dom.matches("data-webgl=\"yes\"").count(), 1);
    let check = checks_in(&dom, "kiln-check-characters").remove(0);
    let check = check.as_array().unwrap();
    let model = &doc.models[0];
    let clip = &doc.banks[0].clips[0];
    let times: Vec<f64> = check
        .iter()
        .map(|c| c["time_s"].as_f64().unwrap())
        .collect();
    assert_eq!(times, [0.0, 0.37 * 2.0, 2.0]);
    for (c, t) in check.iter().zip(times) {
        let world = skinning::world_matrices(model, &skinning::local_poses(model, Some(clip), t));
        for (w, g) in world.iter().zip(c["nodes"].as_array().unwrap()) {
            for k in 0..3 {
                let v = g[k].as_f64().unwrap();
                assert!(
                    (v - w[12 + k]).abs() <= 1e-5,
                    "at {t}: {v} against {}",
                    w[12 + k]
                );
            }
        }
        let skin = skinning::skin(model, &world);
        for g in c["vertices"].as_array().unwrap() {
            let i = g[0].as_u64().unwrap() as usize;
            for k in 0..3 {
                let v = g[1 + k].as_f64().unwrap();
                assert!(
                    (v - skin[i][k]).abs() <= 1e-5,
                    "at {t}: vertex {i}: {v} against {}",
                    skin[i][k]
                );
            }
        }
        assert_eq!(
            c["vertices"].as_array().unwrap().len(),
            model.vertices.len()
        );
    }
}

/// A small characters file whose one clip uses what the demo's may not:
/// see its use above.
fn tricky_characters() -> kiln::formats::kchr::Document {
    use kiln::formats::kchr::{Bank, Clip, Document, Image, Model, Node, Path, Track};
    let node = |name: &str, parent, translation, rotation, scale| Node {
        name: String::from(name),
        parent,
        translation,
        rotation,
        scale,
    };
    let s45 = std::f32::consts::FRAC_PI_8.sin();
    let c45 = std::f32::consts::FRAC_PI_8.cos();
    let h = std::f32::consts::FRAC_1_SQRT_2;
    // Inverse binds: each joint's bind world translation undone.
    let moved = |x: f32, y: f32, z: f32| {
        let mut m = [0.0; 16];
        for i in 0..4 {
            m[5 * i] = 1.0;
        }
        m[12..15].copy_from_slice(&[x, y, z]);
        m
    };
    let vertex = |p: [f32; 3], j: [f32; 2], w: f32| {
        [
            p[0],
            p[1],
            p[2],
            0.0,
            1.0,
            0.0,
            0.5,
            0.5,
            j[0],
            j[1],
            0.0,
            0.0,
            w,
            1.0 - w,
            0.0,
            0.0,
        ]
    };
    let rgba: Vec<u8> = [
        [200u8, 80, 40, 255],
        [40, 160, 90, 255],
        [30, 60, 200, 255],
        [250, 250, 250, 255],
    ]
    .concat();
    let qoi = kiln::formats::qoi::encode(&kiln::formats::qoi::Image {
        header: kiln::formats::qoi::Header {
            width: 2,
            height: 2,
            channels: kiln::formats::qoi::Channels::Rgba,
            colorspace: kiln::formats::qoi::Colorspace::Srgb,
        },
        rgba,
    })
    .unwrap();
    Document {
        models: vec![Model {
            id: "tricky".into(),
            bank: 0,
            nodes: vec![
                node(
                    "root",
                    None,
                    [0.5, 0.0, 0.0],
                    [0.0, 0.0, 0.0, 1.0],
                    [2.0; 3],
                ),
                node(
                    "hip",
                    Some(0),
                    [0.0, 1.0, 0.0],
                    [0.0, s45, 0.0, c45],
                    [1.0; 3],
                ),
                node(
                    "spine",
                    Some(1),
                    [0.0, 0.5, 0.25],
                    [0.0, 0.0, 0.0, 1.0],
                    [1.0; 3],
                ),
                node(
                    "tail",
                    Some(2),
                    [0.0, 0.0, -0.75],
                    [h, 0.0, 0.0, h],
                    [1.0; 3],
                ),
            ],
            mesh_node: 0,
            joints: vec![1, 2, 3],
            inverse_bind: vec![
                moved(-0.5, -2.0, 0.0),
                moved(-0.5, -3.0, -0.5),
                moved(-0.5, -3.0, 1.0),
            ],
            vertices: vec![
                vertex([0.0, 2.0, 0.0], [0.0, 1.0], 1.0),
                vertex([1.0, 2.5, 0.0], [0.0, 1.0], 0.5),
                vertex([0.0, 3.0, 0.5], [1.0, 2.0], 0.25),
                vertex([0.0, 3.0, -1.0], [2.0, 0.0], 0.75),
            ],
            indices: vec![0, 1, 2, 0, 2, 3],
            image: Image {
                width: 2,
                height: 2,
                qoi,
            },
        }],
        banks: vec![Bank {
            id: "tricks".into(),
            clips: vec![Clip {
                name: "tricky".into(),
                duration_s: 2.0,
                tracks: vec![
                    Track {
                        node: "hip".into(),
                        path: Path::Translation,
                        step: true,
                        times_s: vec![0.0, 0.5, 1.5],
                        values: vec![0.0, 1.0, 0.0, 0.25, 1.0, 0.0, 0.0, 1.5, 0.5],
                    },
                    Track {
                        node: "hip".into(),
                        path: Path::Rotation,
                        step: false,
                        times_s: vec![0.2, 1.0, 1.8],
                        values: vec![0.0, 0.0, 0.0, 1.0, 0.0, -s45, 0.0, -c45, h, 0.0, 0.0, h],
                    },
                    Track {
                        node: "spine".into(),
                        path: Path::Rotation,
                        step: true,
                        times_s: vec![0.3, 0.9],
                        values: vec![0.0, 0.0, s45, c45, 0.0, 0.0, -s45, c45],
                    },
                    Track {
                        node: "spine".into(),
                        path: Path::Scale,
                        step: false,
                        times_s: vec![0.5, 1.5],
                        values: vec![1.0, 1.0, 1.0, 1.5, 0.5, 2.0],
                    },
                ],
            }],
        }],
    }
}

/// Where the golden screenshots are, with the Chromium version that took
/// them.
const SHOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/view");

#[test]
#[ignore = "full tier: Chromium from Debian's packages (tests/full.sh installs it)"]
fn chromium_draws_the_golden_screenshots() {
    // Visual: a character at 37 % of its first clip, a pose cache half
    // way, a source asset's atlas with its regions outlined, each alone at
    // the page's corner (`?only=&picture=`), as the goldens show them.
    // SwiftShader draws the same bytes on every run of one Chromium;
    // another Chromium may differ a little, so then (as three.js's own
    // screenshot tests) a pixel may differ by 0.1 of its range and 1 % of
    // the pixels by more. Re-take them with KILN_BLESS=1.
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (files, _) = page(&p, &[]);
    fs::rename(p.path("page.html"), p.path("demo.html")).unwrap();
    let index = |path: &str| files.iter().position(|f| f["path"] == path).unwrap();
    let forest = index("out/levels/forest/@world/characters");
    let models = files[forest]["scene"]["models"].as_array().unwrap();
    let cesium = models.iter().position(|m| m["id"] == "cesium-man").unwrap();
    let poses = index("out/poses/cesium-man-walk.ospc");
    let (files, _) = page(
        &p,
        &[
            "sources/characters/RobotExpressive.glb",
            "out/poses/fox-run.ospc",
        ],
    );
    let regions = files[0]["data"]["materials"].as_array().unwrap().len();
    assert_eq!(regions, 3);
    let shots = [
        ("character", "demo.html", forest, "0.37", cesium, [480, 320]),
        ("poses", "demo.html", poses, "0.5", 0, [480, 320]),
        ("atlas", "page.html", 0, "0", 0, [194, 578]),
    ];
    let version = String::from_utf8(
        std::process::Command::new("chromium")
            .arg("--version")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let version = version
        .lines()
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let bless = std::env::var_os("KILN_BLESS").is_some();
    let recorded = fs::read_to_string(format!("{SHOTS}/chromium.txt")).unwrap_or_default();
    let same_chromium = recorded.trim() == version;
    for (name, html, file, at, picture, [width, height]) in shots {
        let shot = p.path(&format!("{name}.png"));
        let url = format!(
            "file://{}?only={file}&at={at}&picture={picture}",
            p.path(html).display()
        );
        let (console, _) = chromium_with(
            &url,
            &p.path("profile"),
            NO_HOSTS,
            &[
                "--virtual-time-budget=2000",
                &format!("--window-size={width},{height}"),
                &format!("--screenshot={}", shot.display()),
                "--hide-scrollbars",
            ],
        );
        assert_eq!(console, Vec::<String>::new());
        let golden = format!("{SHOTS}/{name}.png");
        if bless {
            fs::create_dir_all(SHOTS).unwrap();
            fs::copy(&shot, &golden).unwrap();
            fs::write(format!("{SHOTS}/chromium.txt"), format!("{version}\n")).unwrap();
            continue;
        }
        let decode =
            |path: &std::path::Path| kiln::import::image::decode(&fs::read(path).unwrap()).unwrap();
        let (got, want) = (decode(&shot), decode(std::path::Path::new(&golden)));
        assert_eq!((got.width, got.height), (want.width, want.height), "{name}");
        let far = got
            .pixels
            .chunks_exact(4)
            .zip(want.pixels.chunks_exact(4))
            .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 25))
            .count();
        let differ = got
            .pixels
            .chunks_exact(4)
            .zip(want.pixels.chunks_exact(4))
            .filter(|(a, b)| a != b)
            .count();
        if same_chromium {
            assert_eq!(
                differ, 0,
                "{name}: {differ} pixels differ from {golden} (this Chromium took it)"
            );
        } else {
            let pixels = (got.width * got.height) as usize;
            assert!(
                far * 100 <= pixels,
                "{name}: {far} of {pixels} pixels differ by more than 0.1 from {golden} (taken by {recorded:?}, this is {version:?})"
            );
        }
        // What is drawn is not the background alone.
        let background = got.pixels[..4].to_vec();
        let drawn = got
            .pixels
            .chunks_exact(4)
            .filter(|px| **px != background[..])
            .count();
        assert!(drawn > 100, "{name}: {drawn} pixels drawn");
    }
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
    let checks = checks_in(dom, "kiln-check");
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

/// A child process killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(p: &Project, args: &[&str], out: std::process::Stdio) -> Killed {
    Killed(
        std::process::Command::new(crate::cli_support::KILN)
            .args(args)
            .current_dir(p.root())
            .env_remove("CI")
            .stdout(out)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    )
}

/// A `kiln view --serve --port 0 --json` of `p`: the server, its port and
/// its address (from its first line, checked against docs/json.md).
fn serve(p: &Project) -> (Killed, u16, String) {
    use std::io::{BufRead, BufReader};
    let mut server = spawn(
        p,
        &["view", "--serve", "--port", "0", "--json"],
        std::process::Stdio::piped(),
    );
    let mut first = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let started: Value = serde_json::from_str(&first).unwrap();
    check(&schema(), "view-serve", ".", &started, &mut BTreeSet::new());
    let url = started["url"].as_str().unwrap().to_string();
    let port: u16 = url["http://127.0.0.1:".len()..url.len() - 1]
        .parse()
        .unwrap();
    (server, port, url)
}

#[test]
#[ignore = "full tier: Chromium from Debian's packages (tests/full.sh installs it)"]
fn chromium_opens_the_served_page_and_its_event_stream() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (_server, _, url) = serve(&p);
    // In a browser: the page opens from the server with no console
    // message (its policy lets it connect to its own server alone) and
    // opens its event stream. (Full tier: Chromium.)
    // Its server's address resolves; it runs until its load and a stop
    // (its event stream never ends, so virtual time would not run out).
    let (console, dom) = chromium_with(
        &format!("{url}?only=0"),
        &p.path("profile"),
        &format!("{NO_HOSTS}, EXCLUDE 127.0.0.1"),
        &["--timeout=5000", "--dump-dom"],
    );
    assert_eq!(console, Vec::<String>::new());
    assert!(
        dom.contains("data-events=\"open\""),
        "{}",
        &dom[..dom.len().min(400)]
    );
    assert!(dom.contains("data-webgl=\"yes\""));
}

/// `GET path` of a `kiln view --serve` on `port`, with `host` (and
/// `method`): the status code and the body.
fn http(port: u16, method: &str, path: &str, host: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head[9..12].parse().unwrap(), body.to_string())
}

/// The page's embedded data.
fn page_data(html: &str) -> Value {
    let start = html.find("id=\"kiln-data\">").unwrap() + "id=\"kiln-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn the_served_page_moves_on_when_kiln_watch_commits() {
    use crate::cli_support::{ROBOT_CC, robot_cc_variant};
    use std::io::{Read, Write};
    use std::process::Stdio;
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let (_, html) = page(&p, &[]);
    let (mut server, port, _) = serve(&p);
    let host = format!("127.0.0.1:{port}");
    // The page, made for the request: what --html writes, at generation 0.
    let (status, served) = http(port, "GET", "/?only=3", &host);
    assert_eq!(status, 200);
    assert!(served.contains("<body data-live=\"0\">"));
    assert!(served.contains("connect-src 'self'"));
    assert_eq!(page_data(&served), page_data(&html));
    // What it refuses.
    assert_eq!(http(port, "GET", "/nothing", &host).0, 404);
    assert_eq!(http(port, "POST", "/", &host).0, 405);
    assert_eq!(
        http(port, "GET", "/", &format!("kiln.example:{port}")).0,
        421
    );
    // The event stream: generation 0 now; a save kiln watch builds moves it.
    let mut events = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    events
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    write!(events, "GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut seen = String::new();
    let mut next_data = |seen: &mut String| -> u64 {
        loop {
            if let Some(at) = seen.find("data: ") {
                let rest = &seen[at + 6..];
                if let Some(end) = rest.find("\n\n") {
                    let n = rest[..end].parse().unwrap();
                    *seen = rest[end..].to_string();
                    return n;
                }
            }
            let mut buf = [0u8; 512];
            let n = events.read(&mut buf).expect("an event within a minute");
            assert!(n > 0, "the stream ended: {seen}");
            seen.push_str(std::str::from_utf8(&buf[..n]).unwrap());
        }
    };
    assert!(seen.is_empty());
    assert_eq!(next_data(&mut seen), 0);
    let _watch = spawn(&p, &["watch", "--quiet"], Stdio::null());
    p.write_bytes(ROBOT_CC, &robot_cc_variant(b'8'));
    let generation = next_data(&mut seen);
    assert!(generation >= 1);
    let (_, served) = http(port, "GET", "/", &host);
    let live: u64 = served
        .split("<body data-live=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(live >= generation, "{live} {generation}");
    // Ctrl-C ends it cleanly.
    let pid = i32::try_from(server.0.id()).unwrap();
    // SAFETY: kill(2) on the child's pid, which is still ours (not waited
    // for yet).
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    assert_eq!(server.0.wait().unwrap().code(), Some(0));
}

#[test]
fn a_levels_atlases_are_outlined_with_the_regions_its_level_json_gives() {
    let p = Project::demo();
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let level: Value =
        serde_json::from_slice(&fs::read(p.path("out/levels/forest/level.json")).unwrap()).unwrap();
    let models = level["characters"]["models"].as_array().unwrap();
    // The robot's regions are its source's atlas's, as the material stage
    // makes them (`kiln inspect --atlas-png --json`).
    let out = p.kiln(&[
        "inspect",
        "--json",
        "--atlas-png",
        "robot.png",
        "sources/characters/RobotExpressive.glb",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let inspected: Value = serde_json::from_slice(&out.stdout).unwrap();
    let robot = models.iter().find(|m| m["id"] == "robot").unwrap();
    let rects: Vec<&Value> = robot["atlas_regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["rect"])
        .collect();
    let expected: Vec<&Value> = inspected["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["rect"])
        .collect();
    assert_eq!(rects, expected);
    assert_eq!(
        robot["atlas_regions"][0]["materials"],
        inspected["regions"][0]["materials"]
    );
    // The page outlines each region of each model's atlas.
    let (_, html) = page(&p, &["forest"]);
    let regions: usize = models
        .iter()
        .map(|m| m["atlas_regions"].as_array().unwrap().len())
        .sum();
    assert!(regions >= models.len());
    assert_eq!(html.matches("<rect x=").count(), regions);
    let [x, y, w, h] = [0, 1, 2, 3].map(|i| rects[0][i].as_u64().unwrap());
    assert!(html.contains(&format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\">"
    )));
}
