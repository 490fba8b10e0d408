//! Model conversion end to end: the `kiln` binary on projects holding
//! synthetic MotionBricks extractions and small checkpoints, with gguf-py's
//! GGUFReader (tests/oracles/gguf_check.py) as the independent reader.

use crate::cli_support;
use crate::synth;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{KILN, REPO, ids_with, stderr};
use kiln::formats::safetensors::{Dtype, TensorSpec};
use serde_json::Value;

const INVENTORY: &str = include_str!("../corpus/motionbricks/inventory.json");

struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::Builder::new()
            .prefix("kiln-mb-")
            .tempdir()
            .unwrap();
        fs::create_dir_all(dir.path().join("manifests")).unwrap();
        fs::create_dir_all(dir.path().join("sources/weights")).unwrap();
        Project { dir }
    }

    /// A synthetic MotionBricks extraction in `sources/weights`.
    fn extraction(&self, scale: synth::Scale, seed: u64) {
        synth::write_extraction(&self.path("sources/weights"), INVENTORY, scale, seed).unwrap();
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn manifest(&self, text: &str) {
        fs::write(self.path("manifests/models.yaml"), text).unwrap();
    }

    fn kiln(&self, args: &[&str]) -> std::process::Output {
        Command::new(KILN)
            .args(args)
            .current_dir(self.dir.path())
            .env_remove("CI")
            .output()
            .unwrap()
    }

    fn build_json(&self) -> (Value, std::process::Output) {
        let out = self.kiln(&["build", "--json"]);
        let v =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
        (v, out)
    }
}

const BUNDLE: &str = "model_bundles:
  - id: mb
    profile: motionbricks-g1
    sources: { pose: sources/weights/pose.safetensors, root: sources/weights/root.safetensors,
               vqvae: sources/weights/vqvae.safetensors, support: sources/weights/support.safetensors,
               manifest: sources/weights/manifest.json }
";

fn oracle(args: &[&str]) {
    let out = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles/gguf_check.py"))
        .args(args)
        .output()
        .expect("python3 runs (bash tests/full.sh installs gguf==0.19.0, numpy and safetensors in a venv)");
    assert!(
        out.status.success(),
        "gguf_check.py {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What gguf-py reads of a GGUF: metadata and tensors, as JSON.
fn gguf_py_read(path: &Path) -> Value {
    let out = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles/gguf_check.py"))
        .args(["read", path.to_str().unwrap()])
        .output()
        .expect("python3 with gguf==0.19.0 (bash tests/full.sh makes a venv with it)");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
#[ignore = "full tier: gguf-py"]
fn a_full_size_synthetic_bundle_converts_and_gguf_py_reads_it_as_the_spec_says() {
    let p = Project::new();
    p.extraction(synth::Scale::Full, 7);
    p.manifest(&format!("{BUNDLE}    pins: record\n"));
    let (report, out) = p.build_json();
    assert!(out.status.success(), "{}", stderr(&out));
    let job = &report["jobs"][0];
    assert_eq!(job["kind"], "model_bundle");
    let warnings = job["warnings"].as_array().unwrap();
    assert_eq!(
        warnings.len(),
        4,
        "one per component not pinned: {warnings:?}"
    );
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("the runtime's pin for pose will not match")
    );
    let files: Vec<&str> = job["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "out/models/mb/pose.gguf",
            "out/models/mb/root.gguf",
            "out/models/mb/vq-decoder.gguf",
            "out/models/mb/support.gguf",
            "out/models/mb/manifest.json"
        ]
    );
    // The bundle's bytes are guarded like the demo's: a change needs a new
    // model_bundle VERSION (the extraction is 730 MB, too large for the
    // demo, so it is generated here from its seed).
    golden_bundle(&p.path("out/models/mb"), &files);
    oracle(&[
        "bundle",
        p.path("out/models/mb").to_str().unwrap(),
        p.path("sources/weights").to_str().unwrap(),
    ]);
    // kiln verify applies the runtime's checks: the only thing the
    // runtime would refuse in a bundle of other weights is the pins.
    let out = p.kiln(&["verify", "out/models/mb"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let problems: Vec<&str> = err.lines().collect();
    assert_eq!(problems.len(), 4, "{err}");
    for (line, file) in problems
        .iter()
        .zip(["pose", "root", "vq-decoder", "support"])
    {
        // At the hash's metadata entry.
        let gguf = fs::read(p.path(&format!("out/models/mb/{file}.gguf"))).unwrap();
        let at = kiln::formats::gguf::decode_header(&gguf, gguf.len() as u64)
            .unwrap()
            .key_at("motionbricks.source_sha256");
        assert!(
            line.contains(&format!(
                "{file}.gguf: at byte {at}: motionbricks.source_sha256 is "
            )),
            "{line}"
        );
        assert!(line.contains("not the runtime's pin"), "{line}");
    }
    let (report, _) = p.build_json();
    assert_eq!(ids_with(&report, "fresh"), ["mb"]);

    // What the runtime checks, broken one at a time, is found.
    let support = p.path("out/models/mb/support.gguf");
    let good = fs::read(&support).unwrap();
    let h = kiln::formats::gguf::decode_header(&good, good.len() as u64).unwrap();
    let parents = h.tensor("joint_parents").unwrap();
    let at = (h.data_start + parents.offset) as usize;
    let mut bad = good.clone();
    bad[at..at + 4].copy_from_slice(&5i32.to_le_bytes());
    fs::write(&support, &bad).unwrap();
    let err = stderr(&p.kiln(&["verify", "out/models/mb"]));
    assert!(
        err.contains(&format!(
            "support.gguf: at byte {at}: joint_parents[0] is 5; the runtime needs -1"
        )),
        "{err}"
    );
    assert!(
        err.contains("support.gguf: SHA-256 "),
        "the manifest's hash no longer matches: {err}"
    );
    fs::write(&support, &good).unwrap();
    // A pose.gguf of another architecture is refused by the architecture
    // rule at that entry's byte (not as "not a pose component").
    let pose = p.path("out/models/mb/pose.gguf");
    let good_pose = fs::read(&pose).unwrap();
    let h = kiln::formats::gguf::decode_header(&good_pose, good_pose.len() as u64).unwrap();
    let mut metadata = h.metadata.clone();
    metadata[0].1 = kiln::formats::gguf::Value::String("llama".into());
    let (head, llama) = kiln::formats::gguf::encode_header(&metadata, &h.descs()).unwrap();
    let mut bad = head;
    bad.extend_from_slice(&good_pose[h.data_start as usize..]);
    fs::write(&pose, &bad).unwrap();
    let err = stderr(&p.kiln(&["verify", "out/models/mb"]));
    assert!(
        err.contains(&format!(
            "pose.gguf: at byte {}: metadata general.architecture: is \"llama\", the runtime needs \"motionbricks\"",
            llama.key_at("general.architecture")
        )),
        "{err}"
    );
    assert!(!err.contains("not a pose component"), "{err}");
    fs::write(&pose, &good_pose).unwrap();
    fs::remove_file(p.path("out/models/mb/root.gguf")).unwrap();
    let err = stderr(&p.kiln(&["verify", "out/models/mb"]));
    assert!(err.contains("root.gguf: "), "{err}");
    // The build puts it back; inspect names the role.
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let out = p.kiln(&["inspect", "--json", "out/models/mb/root.gguf"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["motionbricks_component"], "root");
    assert_eq!(v["tensors"].as_array().unwrap().len(), 150);
    let out = p.kiln(&["inspect", "out/models/mb"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("183148382 inference parameters"), "{text}");
    let out = p.kiln(&["inspect", "--json", "out/models/mb"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    crate::json_support::conforms("inspect-bundle", &v);
    assert_eq!(v["components"].as_array().unwrap().len(), 4);

    // The same job, now a generic conversion: its output set shrinks from
    // five files to one, and the four that left it (and the old index) go.
    p.manifest("model_bundles:\n  - id: mb\n    profile: generic\n    source: sources/weights/support.safetensors\n    architecture: t\n");
    let (report, out) = p.build_json();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built"), ["mb"]);
    let mut left: Vec<String> = fs::read_dir(p.path("out/models/mb"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["mb.gguf"]);
}

#[test]
fn pins_enforce_refuses_an_unofficial_input_before_writing_anything() {
    let p = Project::new();
    p.extraction(synth::Scale::Small, 1);
    p.manifest(BUNDLE);
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "manifests/models.yaml:4:22: job \"mb\": sources/weights/pose.safetensors: SHA-256 "
        ),
        "{err}"
    );
    assert!(
        err.contains("is not the official extraction's 01327768be7413111dc927947a95cfb3e9ee7c52acfa35a054e8c2f3b838b888 (pins: enforce)"),
        "{err}"
    );
    let written = fs::read_dir(p.path("out/models/mb")).map_or(0, |d| d.count());
    assert_eq!(written, 0, "nothing written");
}

#[test]
fn a_component_that_differs_from_the_table_is_refused_with_both_numbers() {
    let p = Project::new();
    p.extraction(synth::Scale::Small, 1);
    p.manifest(&format!("{BUNDLE}    pins: record\n"));
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("component pose: 209 tensors with ")
            && err.contains(" values selected; the bundle needs 209 tensors with 136588272 values"),
        "{err}"
    );
    assert!(
        !p.path("out/models/mb")
            .read_dir()
            .is_ok_and(|mut d| d.next().is_some())
    );
}

/// A checkpoint of `tensors` with seeded values.
fn checkpoint(p: &Project, rel: &str, tensors: &[(&str, Dtype, &[u64])], seed: u64) {
    let specs: Vec<TensorSpec> = tensors
        .iter()
        .map(|(n, d, s)| TensorSpec {
            name: n.to_string(),
            dtype: *d,
            shape: s.to_vec(),
        })
        .collect();
    synth::write_checkpoint(&p.path(rel), &specs, seed).unwrap();
}

/// Every float dtype, ranks 0 to 4, rows of whole Q8_0 blocks and not,
/// and the tensors llama.cpp's converter keeps in F32 (a norm, the token
/// types, a name without `.weight`).
const GENERIC_TENSORS: &[(&str, Dtype, &[u64])] = &[
    ("blk.2.attn_q.weight", Dtype::F32, &[8, 64]),
    ("blk.10.ffn_up.weight", Dtype::F64, &[3, 40]),
    ("norm.b", Dtype::BF16, &[7]),
    ("emb.weight", Dtype::F16, &[2, 3, 4, 32]),
    ("token_types.weight", Dtype::F32, &[2, 32]),
    ("out_norm.weight", Dtype::BF16, &[2, 32]),
    ("proj.b", Dtype::F32, &[2, 32]),
    ("ids", Dtype::I64, &[6]),
    ("mask", Dtype::Bool, &[3]),
    ("scalar", Dtype::F32, &[]),
];

/// The GGUF names in byte order.
const GENERIC_ORDER: [&str; 10] = [
    "blk.10.ffn_up.weight",
    "blk.2.attn_q.weight",
    "emb.weight",
    "ids",
    "mask",
    "norm.b",
    "out_norm.weight",
    "proj.b",
    "scalar",
    "token_types.weight",
];

/// A project whose checkpoint is converted under each type policy of
/// [`GENERIC_SHA256`] (`m-<policy>`), built.
fn generic_policies_built() -> Project {
    let p = Project::new();
    checkpoint(&p, "sources/weights/m.safetensors", GENERIC_TENSORS, 3);
    let mut text = String::from("model_bundles:\n");
    for (policy, _) in GENERIC_SHA256 {
        text.push_str(&format!(
            "  - id: m-{policy}\n    profile: generic\n    source: sources/weights/m.safetensors\n    architecture: test\n    metadata: {{ general.name: m, test.n: {{uint32: 5}}, test.on: true, test.tokens: [a, \"b c\"], test.ids: {{int32: [1, -2]}}, test.scores: {{float32: [0.5, -1.5]}} }}\n    type: {policy}\n"
        ));
    }
    p.manifest(&text);
    let (report, out) = p.build_json();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built").len(), GENERIC_SHA256.len());
    p
}

#[test]
#[ignore = "full tier: gguf-py"]
fn generic_conversions_under_every_type_policy_equal_the_source() {
    let p = generic_policies_built();
    for (policy, sha) in GENERIC_SHA256 {
        let gguf = p.path(&format!("out/models/m-{policy}/m-{policy}.gguf"));
        // The bytes the fast tier's twin expects are the bytes checked here.
        use sha2::Digest;
        let got = kiln::formats::hex(&sha2::Sha256::digest(fs::read(&gguf).unwrap()));
        assert_eq!(
            got, sha,
            "{policy}: GENERIC_SHA256 is not what gguf-py checks"
        );
        oracle(&[
            "generic",
            gguf.to_str().unwrap(),
            p.path("sources/weights/m.safetensors").to_str().unwrap(),
            policy,
        ]);
    }
    // The metadata, in kiln's order then key order, with its types.
    let out = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles/gguf_check.py"))
        .args([
            "read",
            p.path("out/models/m-f16/m-f16.gguf").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let md: Vec<(String, String)> = v["metadata"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e[0].as_str().unwrap().to_string(),
                e[1][0].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want = [
        ("general.architecture", "STRING"),
        ("general.alignment", "UINT32"),
        ("general.file_type", "UINT32"),
        ("general.name", "STRING"),
        ("test.ids", "ARRAY"),
        ("test.n", "UINT32"),
        ("test.on", "BOOL"),
        ("test.scores", "ARRAY"),
        ("test.tokens", "ARRAY"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(md, want);
    // Arrays with their element types and values, as gguf-py reads them.
    let value = |k: &str| {
        let e = v["metadata"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e[0] == k)
            .unwrap();
        (e[1].clone(), e[2].clone())
    };
    assert_eq!(
        value("test.tokens"),
        (
            serde_json::json!(["ARRAY", "STRING"]),
            serde_json::json!(["a", "b c"])
        )
    );
    assert_eq!(
        value("test.ids"),
        (
            serde_json::json!(["ARRAY", "INT32"]),
            serde_json::json!([1, -2])
        )
    );
    assert_eq!(
        value("test.scores"),
        (
            serde_json::json!(["ARRAY", "FLOAT32"]),
            serde_json::json!([0.5, -1.5])
        )
    );
    let tensors: Vec<String> = v["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t[0].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tensors, GENERIC_ORDER, "byte order");
}

/// The SHA-256 of each policy's GGUF from `generic_conversions_…`'s
/// checkpoint, recorded from a build whose every value gguf-py checked
/// against the source (that test, in the full tier, checks them again).
const GENERIC_SHA256: [(&str, &str); 6] = [
    (
        "keep",
        "22b0737ff49250be95e413f6298288bb9d34ac2f90e2f19348e22bd861e4ba8d",
    ),
    (
        "f32",
        "e51c8a0533369efc3733341e08fdd74be28ae33fe58ecb1fda2f3bb6149fa099",
    ),
    (
        "f16",
        "8c930c43d5cf77b83a4931e26db39e1f119142ebcc22b18245e4e9fee3ea310d",
    ),
    (
        "bf16",
        "00677b10b41577b963507cfa9c230054c7c8a9a35cd30d75c7dfa643d862c020",
    ),
    (
        "q8_0",
        "121dba25a116475a141c6241c3718dbdd04029cf7e2a78cc7fb47f33002289be",
    ),
    (
        "q4_0",
        "d5325ca1612e53d33488a3399f098fcb0f7b1d70c73724402610b612457d9373",
    ),
];

/// The fast tier's half of the test above: the same four conversions give
/// the bytes gguf-py checked, and kiln's own strict reader finds the
/// metadata in kiln's order with its types and the tensors in byte order.
#[test]
fn generic_conversions_under_every_type_policy_give_the_checked_bytes() {
    use sha2::Digest;
    let p = generic_policies_built();
    let sha = |policy: &str| {
        let bytes = fs::read(p.path(&format!("out/models/m-{policy}/m-{policy}.gguf"))).unwrap();
        kiln::formats::hex(&sha2::Sha256::digest(&bytes))
    };
    // Every policy's hash at once, so a deliberate change re-records them
    // in one run.
    let got: Vec<(&str, String)> = GENERIC_SHA256
        .iter()
        .map(|(policy, _)| (*policy, sha(policy)))
        .collect();
    let want: Vec<(&str, String)> = GENERIC_SHA256
        .iter()
        .map(|(p, s)| (*p, s.to_string()))
        .collect();
    assert_eq!(got, want, "other bytes than gguf-py checked");
    for (policy, _) in GENERIC_SHA256 {
        let bytes = fs::read(p.path(&format!("out/models/m-{policy}/m-{policy}.gguf"))).unwrap();
        let h = kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
        let md: Vec<(&str, &str)> = h
            .metadata
            .iter()
            .map(|(k, v)| (k.as_str(), kiln::formats::gguf::type_name(v.type_code())))
            .collect();
        // `keep` mixes types, so it states no file type.
        let mut want = vec![
            ("general.architecture", "STRING"),
            ("general.alignment", "UINT32"),
            ("general.file_type", "UINT32"),
            ("general.name", "STRING"),
            ("test.ids", "ARRAY"),
            ("test.n", "UINT32"),
            ("test.on", "BOOL"),
            ("test.scores", "ARRAY"),
            ("test.tokens", "ARRAY"),
        ];
        if policy == "keep" {
            want.remove(2);
        }
        assert_eq!(md, want, "{policy}");
        let names: Vec<&str> = h.tensors().map(|t| t.name).collect();
        assert_eq!(names, GENERIC_ORDER, "{policy}: byte order");
    }
}

#[test]
#[ignore = "full tier: gguf-py"]
fn the_corpus_edge_case_file_converts_and_reads_back() {
    let p = Project::new();
    fs::copy(
        Path::new(REPO).join("tests/corpus/safetensors/mixed_edgecases.safetensors"),
        p.path("sources/weights/edge.safetensors"),
    )
    .unwrap();
    p.manifest("model_bundles:\n  - id: edge\n    profile: generic\n    source: sources/weights/edge.safetensors\n    architecture: test\n");
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    oracle(&[
        "generic",
        p.path("out/models/edge/edge.gguf").to_str().unwrap(),
        p.path("sources/weights/edge.safetensors").to_str().unwrap(),
        "keep",
    ]);
}

/// A value the conversion cannot keep (a BOOL byte other than 0 or 1)
/// fails the job at the byte of the checkpoint that holds it.
#[test]
fn a_value_that_does_not_convert_is_named_at_its_byte() {
    let p = Project::new();
    let rel = "sources/weights/b.safetensors";
    checkpoint(&p, rel, &[("mask", Dtype::Bool, &[3])], 1);
    let mut bytes = fs::read(p.path(rel)).unwrap();
    let h = kiln::formats::safetensors::decode(&bytes).unwrap();
    let at = (h.data_start() + h.tensors().next().unwrap().begin + 1) as usize;
    bytes[at] = 2;
    fs::write(p.path(rel), &bytes).unwrap();
    p.manifest("model_bundles:\n  - id: b\n    profile: generic\n    source: sources/weights/b.safetensors\n    architecture: t\n");
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "sources/weights/b.safetensors: at byte {at}: tensor \"mask\": element 1 is the boolean byte 2; it must be 0 or 1"
        )),
        "{err}"
    );
}

#[test]
fn generic_refusals_name_the_setting() {
    let p = Project::new();
    let long = "x".repeat(70);
    checkpoint(
        &p,
        "sources/weights/l.safetensors",
        &[(&long, Dtype::F32, &[2])],
        1,
    );
    let entry = |extra: &str| {
        format!(
            "model_bundles:\n  - id: l\n    profile: generic\n    source: sources/weights/l.safetensors\n    architecture: t\n{extra}"
        )
    };
    p.manifest(&entry(""));
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("manifests/models.yaml:4:13:")
            && err.contains("is 70 bytes; GGUF allows at most 63"),
        "{err}"
    );
    p.manifest(&entry("    compact_names: true\n"));
    assert!(p.kiln(&["build"]).status.success());
    p.manifest(&entry("    tensors: ['y*']\n"));
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("manifests/models.yaml:6:14:") && err.contains("keeps no tensor"),
        "{err}"
    );
    p.manifest(&entry(
        "    metadata: { general.alignment: {uint32: 64} }\n",
    ));
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("metadata general.alignment is written by kiln"),
        "{err}"
    );
    p.manifest(&entry("    pins: record\n"));
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("manifests/models.yaml:6:11: pins is for the motionbricks-g1 profile"),
        "{err}"
    );
    p.manifest("model_bundles:\n  - id: l\n    profile: generic\n    source: sources/weights/l.safetensors\n");
    let err = stderr(&p.kiln(&["build"]));
    assert!(err.contains("needs `architecture:`"), "{err}");
}

/// One tensor of every dtype kiln reads (18 of the format's 22), the
/// FP8s with every byte pattern (NaN and infinity too), under `keep`,
/// `f32`, `f16` and `bf16` (E8M0, whose powers of two pass F16's range,
/// 1-D: it stays F32).
const EVERY_DTYPE: &[(&str, Dtype, &[u64])] = &[
    ("a.f64.weight", Dtype::F64, &[4, 8]),
    ("b.f32.weight", Dtype::F32, &[4, 8]),
    ("c.f16.weight", Dtype::F16, &[4, 8]),
    ("d.bf16.weight", Dtype::BF16, &[4, 8]),
    ("e.e4m3.weight", Dtype::F8E4M3, &[16, 16]),
    ("f.e5m2.weight", Dtype::F8E5M2, &[16, 16]),
    ("g.e8m0.weight", Dtype::F8E8M0, &[256]),
    ("h.e4m3fnuz.weight", Dtype::F8E4M3Fnuz, &[16, 16]),
    ("i.e5m2fnuz.weight", Dtype::F8E5M2Fnuz, &[16, 16]),
    ("j.i64", Dtype::I64, &[5]),
    ("k.i32", Dtype::I32, &[5]),
    ("l.i16", Dtype::I16, &[5]),
    ("m.i8", Dtype::I8, &[5]),
    ("n.u64", Dtype::U64, &[5]),
    ("o.u32", Dtype::U32, &[5]),
    ("p.u16", Dtype::U16, &[5]),
    ("q.u8", Dtype::U8, &[5]),
    ("r.bool", Dtype::Bool, &[5]),
];

const EVERY_DTYPE_POLICIES: [&str; 4] = ["keep", "f32", "f16", "bf16"];

/// The SHA-256 of each policy's GGUF of [`EVERY_DTYPE`], every value of
/// which the full tier checks with gguf-py and ml_dtypes.
const EVERY_DTYPE_SHA256: [&str; 4] = [
    "17fac1c3da49ec559289d94fd7df14bb28698fd15ae22b142fd901c419092d02",
    "e4542804a65e25af9da04cd0a50f85ae4103acdd46b07251b0ac7fcee58fefdd",
    "72fc3ed110daee9f83480b5f288a9b0a92dbf95eb5d69c280dec83c82c90eab4",
    "c5dccf47537bb7038352ca2e0def451d6c53fc1d54bd82148dde366dd2d1bb88",
];

fn every_dtype_built() -> Project {
    let p = Project::new();
    checkpoint(&p, "sources/weights/all.safetensors", EVERY_DTYPE, 9);
    // The FP8s hold every byte, in order.
    let mut bytes = fs::read(p.path("sources/weights/all.safetensors")).unwrap();
    let h = kiln::formats::safetensors::decode(&bytes).unwrap();
    for t in h
        .tensors()
        .filter(|t| t.dtype.is_float() && t.dtype.size() == 1)
    {
        let at = (h.data_start() + t.begin) as usize;
        for b in 0..256 {
            bytes[at + b] = b as u8;
        }
    }
    fs::write(p.path("sources/weights/all.safetensors"), &bytes).unwrap();
    let mut text = String::from("model_bundles:\n");
    for policy in EVERY_DTYPE_POLICIES {
        text.push_str(&format!(
            "  - {{ id: all-{policy}, profile: generic, source: sources/weights/all.safetensors, architecture: test, type: {policy} }}\n"
        ));
    }
    p.manifest(&text);
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    p
}

#[test]
fn every_dtype_converts_exactly_under_every_float_policy() {
    use sha2::Digest;
    let p = every_dtype_built();
    let mut got = Vec::new();
    for policy in EVERY_DTYPE_POLICIES {
        let bytes =
            fs::read(p.path(&format!("out/models/all-{policy}/all-{policy}.gguf"))).unwrap();
        got.push(kiln::formats::hex(&sha2::Sha256::digest(&bytes)));
        if policy == "keep" {
            let h = kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
            let types: Vec<&str> = h.tensors().map(|t| t.ty.name()).collect();
            assert_eq!(
                types,
                [
                    "F64", "F32", "F16", "BF16", "F16", "F16", "F32", "F16", "F16", "I64", "I32",
                    "I16", "I8", "I64", "I64", "I32", "I16", "I8"
                ]
            );
        }
    }
    assert_eq!(got, EVERY_DTYPE_SHA256, "other bytes than gguf-py checked");
}

#[test]
#[ignore = "full tier: gguf-py, ml_dtypes"]
fn every_dtype_converts_to_what_gguf_py_and_ml_dtypes_read() {
    let p = every_dtype_built();
    for policy in EVERY_DTYPE_POLICIES {
        oracle(&[
            "generic",
            p.path(&format!("out/models/all-{policy}/all-{policy}.gguf"))
                .to_str()
                .unwrap(),
            p.path("sources/weights/all.safetensors").to_str().unwrap(),
            policy,
        ]);
    }
}

/// The FP8 answers the fast tier checks every byte against are what
/// ml_dtypes gives today.
#[test]
#[ignore = "full tier: ml_dtypes"]
fn the_recorded_fp8_values_are_ml_dtypes_own() {
    let out = Command::new("python3")
        .arg(Path::new(REPO).join("tests/oracles/fp8_values.py"))
        .output()
        .expect("python3 with ml_dtypes (bash tests/full.sh makes a venv with it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let live: Value = serde_json::from_slice(&out.stdout).unwrap();
    let recorded: Value = serde_json::from_str(
        &fs::read_to_string(Path::new(REPO).join("tests/golden/fp8_values.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(live, recorded);
}

/// A BERT's `vocab.txt` converts to the same GGUF as the `tokenizer.json`
/// Hugging Face makes of it (the tiny BERT's vocabulary written both
/// ways): every byte equal. A line that repeats one, an empty line, and a
/// LLaMA naming a `vocab.txt` are refused at the tokenizer line.
#[test]
fn a_berts_vocab_txt_converts_as_its_tokenizer_json() {
    let p = Project::new();
    let src = p.path("sources/bert");
    synth::write_tiny_bert(&src, 1, 16, 5).unwrap();
    let t: Value = serde_json::from_slice(&fs::read(src.join("tokenizer.json")).unwrap()).unwrap();
    let mut by_id: Vec<(u64, &str)> = t["model"]["vocab"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (v.as_u64().unwrap(), k.as_str()))
        .collect();
    by_id.sort();
    assert!(
        by_id.iter().enumerate().all(|(i, (id, _))| *id == i as u64),
        "no holes"
    );
    let lines: String = by_id.iter().map(|(_, t)| format!("{t}\n")).collect();
    fs::write(src.join("vocab.txt"), &lines).unwrap();
    let entry = |id: &str, tokenizer: &str| {
        format!(
            "  - {{ id: {id}, profile: llama.cpp, source: sources/bert/model.safetensors, config: sources/bert/config.json, tokenizer: sources/bert/{tokenizer} }}\n"
        )
    };
    p.manifest(&format!(
        "model_bundles:\n{}{}",
        entry("json", "tokenizer.json"),
        entry("txt", "vocab.txt")
    ));
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = fs::read(p.path("out/models/json/json.gguf")).unwrap();
    let txt = fs::read(p.path("out/models/txt/txt.gguf")).unwrap();
    assert!(json == txt, "the two conversions differ");

    let refused = |text: &str, want: &str| {
        fs::write(src.join("vocab.txt"), text).unwrap();
        p.manifest(&format!("model_bundles:\n{}", entry("txt", "vocab.txt")));
        let out = p.kiln(&["build"]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains("models.yaml:2:") && err.contains(want),
            "{err}"
        );
    };
    refused(
        &format!("{lines}[PAD]\n"),
        &format!(
            "vocab.txt: line {} repeats \"[PAD]\", line 1",
            by_id.len() + 1
        ),
    );
    refused(
        &lines.replacen('\n', "\n\n", 1),
        "vocab.txt: line 2 is empty",
    );
    synth::write_tiny_llama(&p.path("sources/llama"), 1, 16, 3).unwrap();
    fs::write(p.path("sources/llama/vocab.txt"), &lines).unwrap();
    p.manifest("model_bundles:\n  - { id: l, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/vocab.txt }\n");
    let out = p.kiln(&["build"]);
    assert!(stderr(&out).contains("a WordPiece vocab.txt; the llama family's tokenizer is a BPE tokenizer.json or a SentencePiece tokenizer.model"), "{}", stderr(&out));
}

/// The llama.cpp profile reads a LLaMA's SentencePiece `tokenizer.model`
/// as llama.cpp's converter does (`_set_vocab_sentencepiece`): "llama",
/// pre "default", the pieces with their scores and types (user-defined as
/// NORMAL), ids past them up to `vocab_size` as `[PAD<id>]` (score -10000,
/// UNUSED), and the special ids of `config.json`. The model file is the
/// one Google's trainer made (`tests/corpus/sentencepiece`). What cannot be
/// converted is refused at the `tokenizer` line.
#[test]
fn the_llama_cpp_profile_reads_a_sentencepiece_model() {
    use kiln::formats::gguf::{Array, Value as V};
    let p = Project::new();
    let src = p.path("sources/llama");
    synth::write_tiny_llama_of(&src, 1, 16, 3, 410).unwrap();
    let corpus = Path::new(REPO).join("tests/corpus/sentencepiece");
    fs::copy(corpus.join("bpe400.model"), src.join("tokenizer.model")).unwrap();
    let config = src.join("config.json");
    let mut c: Value = serde_json::from_slice(&fs::read(&config).unwrap()).unwrap();
    c["bos_token_id"] = 1.into();
    c["eos_token_id"] = 2.into();
    c["unk_token_id"] = 0.into();
    c["pad_token_id"] = 999.into(); // past the vocabulary: left out, as gguf-py does
    fs::write(&config, c.to_string()).unwrap();
    let entry = "model_bundles:\n  - { id: l, profile: llama.cpp, source: sources/llama/model.safetensors, config: sources/llama/config.json, tokenizer: sources/llama/tokenizer.model }\n";
    p.manifest(entry);
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(p.path("out/models/l/l.gguf")).unwrap();
    let h = kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
    let md: std::collections::BTreeMap<&str, &V> =
        h.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    let want: Value =
        serde_json::from_slice(&fs::read(corpus.join("bpe400.json")).unwrap()).unwrap();
    let pieces = want["pieces"].as_array().unwrap();
    let mut tokens: Vec<String> = pieces
        .iter()
        .map(|p| p[0].as_str().unwrap().to_string())
        .collect();
    let mut scores: Vec<f32> = pieces
        .iter()
        .map(|p| p[1].as_f64().unwrap() as f32)
        .collect();
    // SentencePiece's types as llama.cpp's: user-defined (4) is NORMAL.
    let mut types: Vec<i32> = pieces
        .iter()
        .map(|p| match p[2].as_i64().unwrap() as i32 {
            4 => 1,
            t => t,
        })
        .collect();
    for id in 400..410 {
        tokens.push(format!("[PAD{id}]"));
        scores.push(-10000.0);
        types.push(5);
    }
    assert_eq!(md["tokenizer.ggml.model"], &V::String("llama".into()));
    assert_eq!(md["tokenizer.ggml.pre"], &V::String("default".into()));
    assert_eq!(
        md["tokenizer.ggml.tokens"],
        &V::Array(Array::String(tokens))
    );
    assert_eq!(md["tokenizer.ggml.scores"], &V::Array(Array::F32(scores)));
    assert_eq!(
        md["tokenizer.ggml.token_type"],
        &V::Array(Array::I32(types))
    );
    assert_eq!(md["tokenizer.ggml.bos_token_id"], &V::U32(1));
    assert_eq!(md["tokenizer.ggml.eos_token_id"], &V::U32(2));
    assert_eq!(md["tokenizer.ggml.unknown_token_id"], &V::U32(0));
    assert!(!md.contains_key("tokenizer.ggml.padding_token_id"));
    assert!(!md.contains_key("tokenizer.ggml.merges"));

    // Refusals, each at the tokenizer line (line 2 of the manifest).
    let refused = |p: &Project, want: &str| {
        let out = p.kiln(&["build"]);
        assert!(!out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains("models.yaml:2:") && err.contains(want),
            "{err}"
        );
    };
    // More pieces than the model has rows.
    c["vocab_size"] = 300.into();
    fs::write(&config, c.to_string()).unwrap();
    refused(
        &p,
        "tokenizer.model holds 400 pieces, more than config.json's vocab_size 300",
    );
    c["vocab_size"] = 410.into();
    c["bos_token_id"] = (-1).into();
    fs::write(&config, c.to_string()).unwrap();
    refused(
        &p,
        "config.json: bos_token_id is -1; a token id is 0 or more",
    );
    c["bos_token_id"] = 1.into();
    fs::write(&config, c.to_string()).unwrap();
    // A file that is not a model: its byte named.
    fs::write(src.join("tokenizer.model"), b"{\"model\": 1}").unwrap();
    refused(
        &p,
        "sources/llama/tokenizer.model: at byte 0: field key 123",
    );
    // SentencePiece's BPE as a tokenizer.json: name the model instead.
    let tj = src.join("tokenizer.json");
    let text = fs::read_to_string(&tj)
        .unwrap()
        .replace("\"byte_fallback\": false", "\"byte_fallback\": true");
    fs::write(&tj, text).unwrap();
    p.manifest(&entry.replace("tokenizer.model", "tokenizer.json"));
    refused(&p, "byte_fallback: true");
    // A BERT reads WordPiece only.
    synth::write_tiny_bert(&p.path("sources/bert"), 1, 16, 5).unwrap();
    fs::copy(
        corpus.join("bpe400.model"),
        p.path("sources/bert/tokenizer.model"),
    )
    .unwrap();
    p.manifest("model_bundles:\n  - { id: b, profile: llama.cpp, source: sources/bert/model.safetensors, config: sources/bert/config.json, tokenizer: sources/bert/tokenizer.model }\n");
    refused(
        &p,
        "a SentencePiece model; the bert family's tokenizer is a WordPiece tokenizer.json",
    );
}

/// The llama.cpp profile on a tiny BERT as Hugging Face saves one: the
/// GGUF names of llama.cpp's table (the pooler and position ids left out),
/// the hyper-parameters and the WordPiece vocabulary as `tokenizer.ggml.*`,
/// llama.cpp's F32 tensors F32 under f16; what it refuses, at its line.
#[test]
fn the_llama_cpp_profile_writes_what_llama_cpp_loads() {
    let p = Project::new();
    synth::write_tiny_bert(&p.path("sources/bert"), 2, 32, 5).unwrap();
    let entry = |extra: &str| {
        format!(
            "model_bundles:\n  - id: b\n    profile: llama.cpp\n    source: sources/bert/model.safetensors\n    config: sources/bert/config.json\n    tokenizer: sources/bert/tokenizer.json\n    type: f16\n{extra}"
        )
    };
    p.manifest(&entry(
        "    pooling: mean\n    metadata: { general.name: tiny }\n",
    ));
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(p.path("out/models/b/b.gguf")).unwrap();
    let h = kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
    let tensors: Vec<(&str, &str)> = h.tensors().map(|t| (t.name, t.ty.name())).collect();
    let mut want = vec![
        ("position_embd.weight", "F32"),
        ("token_embd.weight", "F16"),
        ("token_embd_norm.bias", "F32"),
        ("token_embd_norm.weight", "F32"),
        ("token_types.weight", "F32"),
    ];
    for l in 0..2 {
        for (name, ty) in [
            ("attn_k.bias", "F32"),
            ("attn_k.weight", "F16"),
            ("attn_output.bias", "F32"),
            ("attn_output.weight", "F16"),
            ("attn_output_norm.bias", "F32"),
            ("attn_output_norm.weight", "F32"),
            ("attn_q.bias", "F32"),
            ("attn_q.weight", "F16"),
            ("attn_v.bias", "F32"),
            ("attn_v.weight", "F16"),
            ("ffn_down.bias", "F32"),
            ("ffn_down.weight", "F16"),
            ("ffn_up.bias", "F32"),
            ("ffn_up.weight", "F16"),
            ("layer_output_norm.bias", "F32"),
            ("layer_output_norm.weight", "F32"),
        ] {
            want.push((format!("blk.{l}.{name}").leak(), ty));
        }
    }
    want.sort();
    assert_eq!(tensors, want);
    let md: std::collections::BTreeMap<&str, &kiln::formats::gguf::Value> =
        h.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    use kiln::formats::gguf::{Array, Value as V};
    assert_eq!(md["general.architecture"], &V::String("bert".into()));
    assert_eq!(md["general.name"], &V::String("tiny".into()));
    assert_eq!(md["bert.block_count"], &V::U32(2));
    assert_eq!(md["bert.embedding_length"], &V::U32(32));
    assert_eq!(md["bert.pooling_type"], &V::U32(1));
    assert_eq!(md["bert.attention.causal"], &V::Bool(false));
    assert_eq!(md["tokenizer.ggml.model"], &V::String("bert".into()));
    let V::Array(Array::String(tokens)) = md["tokenizer.ggml.tokens"] else {
        panic!("tokens")
    };
    assert_eq!(
        &tokens[..8],
        [
            "[PAD]",
            "[UNK]",
            "[CLS]",
            "[SEP]",
            "[MASK]",
            "\u{2581}the",
            "\u{2581}cat",
            "\u{2581}sat"
        ]
    );
    assert_eq!(tokens[12], "s", "##s");
    assert_eq!(md["tokenizer.ggml.bos_token_id"], &V::U32(2));
    assert_eq!(md["tokenizer.ggml.seperator_token_id"], &V::U32(3));

    // Refusals, each at its key's line and column.
    for (extra, line_col, words) in [
        (
            "    rename: { a: b }\n",
            "8:13",
            "rename is not for the llama.cpp profile",
        ),
        (
            "    architecture: bert\n",
            "8:19",
            "architecture is not for the llama.cpp profile",
        ),
        ("    pooling: max\n", "8:14", "unknown variant `max`"),
        (
            "    metadata: { bert.block_count: {uint32: 3} }\n",
            "8:15",
            "metadata bert.block_count is written by the llama.cpp profile",
        ),
    ] {
        p.manifest(&entry(extra));
        let err = stderr(&p.kiln(&["build"]));
        assert!(
            err.contains(&format!("manifests/models.yaml:{line_col}:")) && err.contains(words),
            "{extra}: {err}"
        );
    }
    p.manifest("model_bundles:\n  - { id: b, profile: llama.cpp, source: sources/bert/model.safetensors }\n");
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("needs `config:`") && err.contains("needs `tokenizer:`"),
        "{err}"
    );
    // A tensor the table does not know; a family kiln does not convert.
    p.manifest(&entry(""));
    checkpoint(
        &p,
        "sources/bert/model.safetensors",
        &[("encoder.layer.0.extra.weight", Dtype::F32, &[4, 4])],
        1,
    );
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("tensor \"encoder.layer.0.extra.weight\" is not in the BERT table"),
        "{err}"
    );
    fs::write(
        p.path("sources/bert/config.json"),
        "{\"model_type\": \"t5\"}",
    )
    .unwrap();
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("manifests/models.yaml:5:13:")
            && err.contains("model_type \"t5\" is not a family kiln converts"),
        "{err}"
    );
}

/// The llama.cpp profile on a tiny LLaMA: llama.cpp's names, the
/// hyper-parameters (rope dimensions made from the head size), the BPE
/// vocabulary, and the query and key projections' rows in llama.cpp's
/// rotary order (the GGUF's row r is the checkpoint's row
/// `permuted_row(r)`), the value projection's untouched.
#[test]
fn the_llama_cpp_profile_reorders_llamas_rotary_rows() {
    let p = Project::new();
    synth::write_tiny_llama(&p.path("sources/l"), 1, 64, 2).unwrap();
    p.manifest("model_bundles:\n  - { id: l, profile: llama.cpp, source: sources/l/model.safetensors, config: sources/l/config.json, tokenizer: sources/l/tokenizer.json }\n");
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let gguf = fs::read(p.path("out/models/l/l.gguf")).unwrap();
    let g = kiln::formats::gguf::decode_header(&gguf, gguf.len() as u64).unwrap();
    let src = fs::read(p.path("sources/l/model.safetensors")).unwrap();
    let h = kiln::formats::safetensors::decode(&src).unwrap();
    let names: Vec<&str> = g.tensors().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "blk.0.attn_k.weight",
            "blk.0.attn_norm.weight",
            "blk.0.attn_output.weight",
            "blk.0.attn_q.weight",
            "blk.0.attn_v.weight",
            "blk.0.ffn_down.weight",
            "blk.0.ffn_gate.weight",
            "blk.0.ffn_norm.weight",
            "blk.0.ffn_up.weight",
            "output.weight",
            "output_norm.weight",
            "token_embd.weight"
        ]
    );
    let md: std::collections::BTreeMap<&str, &kiln::formats::gguf::Value> =
        g.metadata.iter().map(|(k, v)| (k.as_str(), v)).collect();
    use kiln::formats::gguf::Value as V;
    assert_eq!(md["general.architecture"], &V::String("llama".into()));
    assert_eq!(md["llama.rope.dimension_count"], &V::U32(16));
    assert_eq!(md["llama.attention.head_count_kv"], &V::U32(2));
    assert_eq!(md["tokenizer.ggml.model"], &V::String("gpt2".into()));
    let rows_of = |gguf_name: &str, src_name: &str, heads: Option<u64>| {
        let t = g.tensors().find(|t| t.name == gguf_name).unwrap();
        let s = h.tensor(src_name).unwrap();
        let row = (t.dims[0] * 4) as usize;
        let rows = t.dims[1];
        for r in 0..rows {
            let from = heads.map_or(r, |n| kiln::bake::llama_cpp::permuted_row(r, rows, n));
            let at = (g.data_start + t.offset) as usize + r as usize * row;
            let was = (h.data_start() + s.begin) as usize + from as usize * row;
            assert_eq!(
                &gguf[at..at + row],
                &src[was..was + row],
                "{gguf_name} row {r}"
            );
        }
    };
    rows_of(
        "blk.0.attn_q.weight",
        "model.layers.0.self_attn.q_proj.weight",
        Some(4),
    );
    rows_of(
        "blk.0.attn_k.weight",
        "model.layers.0.self_attn.k_proj.weight",
        Some(2),
    );
    rows_of(
        "blk.0.attn_v.weight",
        "model.layers.0.self_attn.v_proj.weight",
        None,
    );
}

/// `rename`, `drop` and `types` from a manifest: the GGUF holds the new
/// names, sorted, without the dropped tensors, in the types asked; each
/// refusal points at its key's line.
#[test]
fn rename_drop_and_types_shape_the_gguf_and_refusals_name_their_line() {
    let p = Project::new();
    checkpoint(
        &p,
        "sources/weights/b.safetensors",
        &[
            (
                "embeddings.token_type_embeddings.weight",
                Dtype::F32,
                &[2, 32],
            ),
            ("embeddings.word_embeddings.weight", Dtype::F32, &[10, 32]),
            (
                "encoder.layer.0.attention.self.query.weight",
                Dtype::F32,
                &[32, 32],
            ),
            (
                "encoder.layer.1.attention.self.query.weight",
                Dtype::F32,
                &[32, 32],
            ),
            ("pooler.dense.weight", Dtype::F32, &[32, 32]),
        ],
        4,
    );
    let entry = |extra: &str| {
        format!(
            "model_bundles:\n  - id: b\n    profile: generic\n    source: sources/weights/b.safetensors\n    architecture: bert\n    type: f16\n{extra}"
        )
    };
    p.manifest(&entry(
        "    drop: ['pooler.*']\n    rename: { embeddings.token_type_embeddings.weight: token_types.weight, embeddings.word_embeddings.weight: token_embd.weight, 'encoder.layer.*.attention.self.query.weight': 'blk.*.attn_q.weight' }\n    types: { blk.1.attn_q.weight: q8_0 }\n",
    ));
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = fs::read(p.path("out/models/b/b.gguf")).unwrap();
    let h = kiln::formats::gguf::decode_header(&bytes, bytes.len() as u64).unwrap();
    let got: Vec<(&str, &str)> = h.tensors().map(|t| (t.name, t.ty.name())).collect();
    assert_eq!(
        got,
        [
            ("blk.0.attn_q.weight", "F16"),
            ("blk.1.attn_q.weight", "Q8_0"),
            ("token_embd.weight", "F16"),
            // llama.cpp keeps the token types in F32 (F16 crashed it).
            ("token_types.weight", "F32"),
        ]
    );
    for (extra, line_col, words) in [
        (
            "    drop: ['nothing.*']\n",
            "7:11",
            "drop: \"nothing.*\" matches no tensor",
        ),
        ("    rename: { 'encoder.*': x }\n", "7:13", "as many `*`"),
        (
            "    rename: { missing: x }\n",
            "7:13",
            "rename: \"missing\" matches no tensor",
        ),
        (
            "    types: { nope: f32 }\n",
            "7:12",
            "types: \"nope\" matches no tensor",
        ),
        (
            "    types: { pooler.dense.weight: q4_k }\n",
            "7:35",
            "unknown variant `q4_k`",
        ),
        ("    drop: ['']\n", "7:11", "may not be empty"),
    ] {
        p.manifest(&entry(extra));
        let err = stderr(&p.kiln(&["build"]));
        assert!(
            err.contains(&format!("manifests/models.yaml:{line_col}:")) && err.contains(words),
            "{extra}: {err}"
        );
    }
}

/// A finite value beyond F16 fails the job at its element's byte in the
/// checkpoint, or with `saturate: true` becomes 65504; NaN and infinity
/// are kept and reported with the first one's byte.
#[test]
fn no_value_is_lost_silently() {
    let p = Project::new();
    let rel = "sources/weights/v.safetensors";
    checkpoint(&p, rel, &[("w.weight", Dtype::F32, &[2, 4])], 1);
    let mut bytes = fs::read(p.path(rel)).unwrap();
    let h = kiln::formats::safetensors::decode(&bytes).unwrap();
    let data = (h.data_start() + h.tensors().next().unwrap().begin) as usize;
    bytes[data + 4 * 5..data + 4 * 6].copy_from_slice(&1e6f32.to_le_bytes());
    fs::write(p.path(rel), &bytes).unwrap();
    let entry = |extra: &str| {
        format!(
            "model_bundles:\n  - id: v\n    profile: generic\n    source: sources/weights/v.safetensors\n    architecture: t\n    type: f16\n{extra}"
        )
    };
    p.manifest(&entry(""));
    let out = p.kiln(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let at = data + 4 * 5;
    assert!(
        err.contains(&format!(
            "sources/weights/v.safetensors: at byte {at}: tensor \"w.weight\": element 5 is 1e6, beyond F16's largest finite value (65504)"
        )),
        "{err}"
    );
    p.manifest(&entry("    saturate: true\n"));
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let gguf = fs::read(p.path("out/models/v/v.gguf")).unwrap();
    let g = kiln::formats::gguf::decode_header(&gguf, gguf.len() as u64).unwrap();
    let start = (g.data_start + g.tensors().next().unwrap().offset) as usize;
    assert_eq!(&gguf[start + 10..start + 12], &0x7bffu16.to_le_bytes());
    // A NaN and an infinity: kept, and said.
    bytes[data + 4 * 5..data + 4 * 6].copy_from_slice(&f32::NAN.to_le_bytes());
    bytes[data + 4 * 7..data + 4 * 8].copy_from_slice(&f32::INFINITY.to_le_bytes());
    fs::write(p.path(rel), &bytes).unwrap();
    let out = p.kiln(&["build"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "tensor \"w.weight\" holds 2 NaN or infinite values (the first is element 5, at byte {at}); they are kept as they are"
        )),
        "{err}"
    );
}

#[test]
fn a_new_shard_matching_the_glob_dirties_exactly_its_job() {
    let p = Project::new();
    checkpoint(
        &p,
        "sources/weights/m-1.safetensors",
        &[("a", Dtype::F32, &[4])],
        1,
    );
    checkpoint(
        &p,
        "sources/weights/m-2.safetensors",
        &[("b", Dtype::F32, &[4])],
        2,
    );
    checkpoint(
        &p,
        "sources/weights/other.safetensors",
        &[("c", Dtype::F32, &[4])],
        3,
    );
    p.manifest("model_bundles:\n  - id: sharded\n    profile: generic\n    source: sources/weights/m-*.safetensors\n    architecture: t\n  - id: other\n    profile: generic\n    source: sources/weights/other.safetensors\n    architecture: t\n");
    let (report, out) = p.build_json();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built").len(), 2);
    let (report, _) = p.build_json();
    assert_eq!(report["totals"]["planned"], false, "a no-op");
    checkpoint(
        &p,
        "sources/weights/m-3.safetensors",
        &[("c2", Dtype::F32, &[4])],
        4,
    );
    let out = p.kiln(&["build", "--explain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("sharded: rebuilt because setting inputs changed"),
        "{text}"
    );
    assert!(!text.contains("other:"), "{text}");
    // A tensor in two shards is an error.
    checkpoint(
        &p,
        "sources/weights/m-4.safetensors",
        &[("a", Dtype::F32, &[4])],
        5,
    );
    let err = stderr(&p.kiln(&["build"]));
    assert!(err.contains("tensor \"a\" is in both sources/weights/m-1.safetensors and sources/weights/m-4.safetensors"), "{err}");
}

#[test]
#[ignore = "full tier: gguf-py"]
fn a_sharded_checkpoint_reads_as_one_through_its_index() {
    let p = Project::new();
    checkpoint(
        &p,
        "sources/weights/s-1.safetensors",
        &[("a", Dtype::F32, &[4]), ("b", Dtype::I32, &[2])],
        1,
    );
    checkpoint(
        &p,
        "sources/weights/s-2.safetensors",
        &[("c", Dtype::F32, &[2, 2])],
        2,
    );
    let index = r#"{"metadata": {"total_size": 32}, "weight_map": {"a": "s-1.safetensors", "b": "s-1.safetensors", "c": "s-2.safetensors"}}"#;
    fs::write(
        p.path("sources/weights/model.safetensors.index.json"),
        index,
    )
    .unwrap();
    p.manifest("model_bundles:\n  - id: s\n    profile: generic\n    source: sources/weights/model.safetensors.index.json\n    architecture: t\n");
    let (report, out) = p.build_json();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(ids_with(&report, "built"), ["s"]);
    let v = gguf_py_read(&p.path("out/models/s/s.gguf"));
    assert_eq!(v["tensors"].as_array().unwrap().len(), 3);
    // A shard changed: the job rebuilds (shards are inputs it discovered).
    checkpoint(
        &p,
        "sources/weights/s-2.safetensors",
        &[("c", Dtype::F32, &[2, 2])],
        9,
    );
    let (report, _) = p.build_json();
    assert_eq!(ids_with(&report, "built"), ["s"]);
    // An index that disagrees with its shards is refused.
    fs::write(
        p.path("sources/weights/model.safetensors.index.json"),
        index.replace(r#""c": "s-2.safetensors""#, r#""c": "s-1.safetensors""#),
    )
    .unwrap();
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("the index puts tensor \"c\" in s-1.safetensors, which does not hold it"),
        "{err}"
    );
    // An index that is not the schema is refused at its byte.
    fs::write(
        p.path("sources/weights/model.safetensors.index.json"),
        r#"{"weight_map": {"a": 1}}"#,
    )
    .unwrap();
    let err = stderr(&p.kiln(&["build"]));
    assert!(
        err.contains("sources/weights/model.safetensors.index.json: at byte 21: shard index: invalid type: integer `1`, expected a string"),
        "{err}"
    );
}

/// Compares the SHA-256 of each of `files` (`out/models/mb/...`) with
/// tests/golden/synthetic-bundle.sha256, headed by the model_bundle
/// VERSION; `KILN_BLESS=1` rewrites it, but never under the same VERSION.
fn golden_bundle(dir: &Path, files: &[&str]) {
    let version = kiln::pipeline::kinds::OUTPUTS
        .iter()
        .find(|(kind, ..)| *kind == "model_bundle")
        .map(|&(_, _, v)| v)
        .unwrap();
    let mut actual = format!("# model_bundle VERSION {version}\n");
    for f in files {
        let name = f.rsplit('/').next().unwrap();
        actual.push_str(&format!("{}  {name}\n", sha256_file(&dir.join(name))));
    }
    let golden = Path::new(REPO).join("tests/golden/synthetic-bundle.sha256");
    let old = fs::read_to_string(&golden).unwrap_or_default();
    if std::env::var_os("KILN_BLESS").is_some() && old != actual {
        assert!(
            !old.starts_with(actual.lines().next().unwrap()),
            "the synthetic bundle's bytes changed under the same VERSION: bump model_bundle's VERSION, then bless"
        );
        fs::write(&golden, &actual).unwrap();
    }
    let expected = fs::read_to_string(&golden).expect("golden file (bless with KILN_BLESS=1)");
    assert_eq!(actual, expected, "the synthetic bundle (seed 7)");
}

/// SHA-256 of a file, hex.
fn sha256_file(path: &Path) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    let mut f = fs::File::open(path).unwrap();
    std::io::copy(&mut f, &mut h).unwrap();
    kiln::formats::hex(&h.finalize())
}

/// Whenever the bundle's manifest.json is present, it describes exactly the
/// files beside it (temporaries aside).
fn assert_index_agrees(dir: &Path) {
    let Ok(text) = fs::read_to_string(dir.join("manifest.json")) else {
        return; // no index: nothing claimed
    };
    let m: Value = serde_json::from_str(&text).expect("a complete index");
    let mut listed = vec!["manifest.json".to_string()];
    for (name, c) in m["components"].as_object().unwrap() {
        let file = c["path"].as_str().unwrap();
        assert_eq!(
            sha256_file(&dir.join(file)),
            c["sha256"],
            "{name}: the index disagrees with {file}"
        );
        listed.push(file.to_string());
    }
    let mut present: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".kiln-tmp"))
        .collect();
    present.sort();
    listed.sort();
    assert_eq!(
        present, listed,
        "files beside the index it does not describe"
    );
}

#[test]
#[ignore = "full tier: SIGKILLs during a 100 MB conversion"]
fn killing_a_bundle_build_never_leaves_an_index_that_disagrees_with_its_files() {
    let p = Project::new();
    let weights = p.path("sources/weights");
    p.extraction(synth::Scale::Full, 11);
    // Two versions of the support file: each build changes one output.
    let support: Vec<TensorSpec> = synth::inventory(INVENTORY, "support", synth::Scale::Full);
    let variant = |seed: u64| {
        synth::write_checkpoint(&weights.join("support.safetensors"), &support, seed).unwrap()
    };
    p.manifest(&format!("{BUNDLE}    pins: record\n"));
    assert!(p.kiln(&["build", "--quiet"]).status.success());
    let dir = p.path("out/models/mb");
    // Kill points by what the build has reached (polled): while it hashes
    // its inputs, while each output is being written, when the commit has
    // removed the old index, when the new index is written.
    let tmp = |name: &str| dir.join(format!(".{name}.kiln-tmp"));
    let size = |path: &Path| fs::metadata(path).map_or(0, |m| m.len());
    type Reached<'a> = Box<dyn Fn() -> bool + 'a>;
    let points: Vec<(&str, Reached)> = vec![
        ("hashing inputs", Box::new(|| true)),
        (
            "writing pose.gguf",
            Box::new(|| size(&tmp("pose.gguf")) > 1 << 20),
        ),
        (
            "pose.gguf half written",
            Box::new(|| size(&tmp("pose.gguf")) > 270 << 20),
        ),
        ("writing root.gguf", Box::new(|| tmp("root.gguf").exists())),
        (
            "writing vq-decoder.gguf",
            Box::new(|| tmp("vq-decoder.gguf").exists()),
        ),
        (
            "writing support.gguf",
            Box::new(|| tmp("support.gguf").exists()),
        ),
        (
            "the old index removed",
            Box::new(|| !dir.join("manifest.json").exists()),
        ),
        (
            "writing the new index",
            Box::new(|| tmp("manifest.json").exists()),
        ),
    ];
    let mut kills = Vec::new();
    for (i, (point, reached)) in points.iter().enumerate() {
        variant(100 + i as u64);
        let mut child = Command::new(KILN)
            .args(["build", "--quiet"])
            .current_dir(p.dir.path())
            .env_remove("CI")
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        let alive = loop {
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            if reached() && (i > 0 || started.elapsed() > std::time::Duration::from_millis(100)) {
                break true;
            }
            std::thread::yield_now();
        };
        if alive && child.try_wait().unwrap().is_none() {
            child.kill().unwrap(); // SIGKILL
            kills.push(*point);
        }
        child.wait().unwrap();
        assert_index_agrees(&dir);
    }
    eprintln!("killed at: {kills:?}");
    // The long phases are always reached before the build ends.
    assert!(kills.len() >= 6, "killed only at {kills:?}");
    // The next build finishes, and gives what a clean build gives.
    let out = p.kiln(&["build", "--quiet"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_index_agrees(&dir);
    assert!(
        p.kiln(&["build", "--quiet", "--out", "clean"])
            .status
            .success()
    );
    for file in [
        "pose.gguf",
        "root.gguf",
        "vq-decoder.gguf",
        "support.gguf",
        "manifest.json",
    ] {
        assert_eq!(
            sha256_file(&dir.join(file)),
            sha256_file(&p.path("clean/models/mb").join(file)),
            "{file}"
        );
    }
}
