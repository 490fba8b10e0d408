//! Every setting of every job kind changes the job's key: the key's text is
//! the kind's entry as serde serializes it, and this walks every field the
//! schema accepts, changes it, and checks the settings digest changes.

use kiln::pipeline::fingerprint;
use kiln::pipeline::job::Outputs;
use kiln::pipeline::kinds::{self, Sections};
use kiln::pipeline::paths::RelPath;
use kiln::pipeline::plan::Job;

/// A section, an entry that sets every key, and for each key another value
/// (YAML) that parses.
type Row = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const ENTRIES: &[Row] = &[
    (
        "pose_caches",
        "id: a
source: s/a.glb
animation: Run
rate_hz: 30
entities: joints
shape: box
size: [0.1, 0.2, 0.3]
dimensions: 3
start_step: 0
label: l
replay: r.mbreplay
joint_names: [a, b]
rigid_tolerance_m: 0.001",
        &[
            ("id", "b"),
            ("source", "s/b.glb"),
            ("animation", "0"),
            ("rate_hz", "30.5"),
            ("entities", "nodes"),
            ("shape", "capsule"),
            ("size", "[0.1, 0.2, 0.4]"),
            ("dimensions", "2"),
            ("start_step", "1"),
            ("label", "m"),
            ("replay", "s.mbreplay"),
            ("joint_names", "[a, c]"),
            ("rigid_tolerance_m", "0.002"),
        ],
    ),
    (
        "model_bundles",
        "id: m
profile: generic
sources: {pose: a, root: b, vqvae: c, support: d, manifest: e}
source: s/m.safetensors
pins: enforce
architecture: bert
metadata: {general.name: x, bert.n: {uint32: 3}}
type: keep
compact_names: false
tensors: ['a.*']
drop: ['a.b']
rename: {a.c: x}
types: {x: f32}
saturate: false
config: c.json
tokenizer: t.json
pooling: mean",
        &[
            ("id", "n"),
            ("profile", "motionbricks-g1"),
            (
                "sources",
                "{pose: a, root: b, vqvae: c, support: d, manifest: f}",
            ),
            ("source", "s/n.safetensors"),
            ("pins", "record"),
            ("architecture", "llama"),
            ("metadata", "{general.name: x, bert.n: {uint32: 4}}"),
            ("type", "f16"),
            ("compact_names", "true"),
            ("tensors", "['b.*']"),
            ("drop", "['a.d']"),
            ("rename", "{a.c: y}"),
            ("types", "{x: q8_0}"),
            ("saturate", "true"),
            ("config", "d.json"),
            ("tokenizer", "u.json"),
            ("pooling", "cls"),
        ],
    ),
    (
        "styles",
        "id: s
source: s/clips.safetensors
table: [{clip: 0, name: a, speed: 1, tokens: [6, 8]}]
pins: record
animation: Sneak
name: sneak
speed: 0.6
tokens: [6, 12]
joints: {pelvis_skel: Hips}",
        &[
            ("id", "t"),
            ("source", "s/other.safetensors"),
            ("table", "[{clip: 0, name: a, speed: 1, tokens: [6, 9]}]"),
            ("pins", "enforce"),
            ("animation", "0"),
            ("name", "creep"),
            ("speed", "0.7"),
            ("tokens", "[6, 13]"),
            ("joints", "{pelvis_skel: Pelvis}"),
        ],
    ),
    (
        "characters",
        "level: forest
banks: [{id: b, clips: [{source: s/f.glb}]}]
models: [{id: m, source: s/f.glb, bank: b}]",
        &[
            ("level", "field"),
            (
                "banks",
                "[{id: b, clips: [{source: s/f.glb}], tolerance: {position_m: 0.001, rotation_deg: 0.1, scale: 0.001}}]",
            ),
            (
                "models",
                "[{id: m, source: s/f.glb, bank: b, node_map: {ignore: .}}]",
            ),
        ],
    ),
    (
        "cgeo_sequences",
        "id: c
source: s/a.glb
animation: Run
rate_hz: 30
compressed: false
up_axis: y",
        &[
            ("id", "d"),
            ("source", "s/b.glb"),
            ("animation", "1"),
            ("rate_hz", "60"),
            ("compressed", "true"),
            ("up_axis", "z"),
        ],
    ),
];

fn parse_one(section: &str, entry: &str) -> Sections {
    let indented: String = entry.lines().map(|l| format!("    {l}\n")).collect();
    let text = format!("{section}:\n  -\n{indented}");
    kinds::parse_manifest(&text).unwrap_or_else(|e| panic!("{e:?} in\n{text}"))
}

fn job_of(sections: Sections) -> Job {
    let mut jobs = Vec::new();
    kinds::for_each_spec(sections, &mut |spec| jobs.push(spec));
    assert_eq!(jobs.len(), 1);
    Job {
        id: "a".into(),
        manifest: "m.yaml".into(),
        pos: Default::default(),
        outputs: Outputs::one(RelPath::parse("o/a").unwrap()),
        inputs: vec![],
        globs: vec![],
        spec: jobs.pop().unwrap(),
    }
}

#[test]
fn every_setting_of_every_kind_changes_the_key() {
    let sections: Vec<&str> = kinds::ALL.iter().map(|(s, _)| *s).collect();
    let covered: Vec<&str> = ENTRIES.iter().map(|(s, _, _)| *s).collect();
    assert_eq!(covered, sections, "every kind has a row here");
    for (section, entry, changes) in ENTRIES {
        let base = job_of(parse_one(section, entry));
        let digest = fingerprint::digest(&base);
        let fields = kinds::entry_fields(section);
        let changed: Vec<&str> = changes.iter().map(|(f, _)| *f).collect();
        assert_eq!(changed, fields, "{section}: a change for every field");
        // Every field is in the key's text (none skipped by serde).
        let names: Vec<String> = base.settings().into_iter().map(|(n, _)| n).collect();
        for field in fields {
            assert!(
                names.iter().any(|n| n == field),
                "{section}.{field} not in the key"
            );
        }
        for (field, value) in *changes {
            let line = entry
                .lines()
                .find(|l| l.starts_with(&format!("{field}:")))
                .unwrap_or_else(|| panic!("{section}: the entry sets no {field}"));
            let other = entry.replace(line, &format!("{field}: {value}"));
            let job = job_of(parse_one(section, &other));
            assert_ne!(
                fingerprint::digest(&job),
                digest,
                "{section}.{field}: {value} did not change the key"
            );
        }
    }
}

#[test]
fn a_default_written_out_is_the_same_key_as_left_out() {
    let full = job_of(parse_one(
        "pose_caches",
        "id: a\nsource: s/a.glb\nanimation: Run\nrate_hz: 30\nentities: joints\nshape: point\ndimensions: 3\nstart_step: 0\nlabel: ''\nreplay: ''",
    ));
    let short = job_of(parse_one(
        "pose_caches",
        "id: a\nsource: s/a.glb\nanimation: Run\nrate_hz: 30",
    ));
    assert_eq!(fingerprint::digest(&full), fingerprint::digest(&short));
}
