//! `cargo run --release --example character_phases -- GLB...`: where the
//! time of compiling a character goes, median of RUNS (default 15) per
//! phase, as the characters kind runs them: import the scene (container,
//! JSON, accessors, meshopt, animations), the clips into a bank, the skin
//! and meshes (with materials), the base colour images decoded, the atlas
//! laid out and painted, the model (palette, vertices), the atlas's QOI,
//! and the KCHR encode (which validates the document, QOI included). Prints
//! one JSON object per file. Used by `benches/characters.sh`.

use std::time::{Duration, Instant};

use kiln::bake::atlas::{self, Settings};
use kiln::bake::character::{self as bake, ClipSettings, NodeMap};
use kiln::formats::kchr;
use kiln::import::{gltf, image};
use kiln::model::material::Rgba8;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Times each phase of compiling a character, median of RUNS (the
/// environment's `RUNS`, default 15), one JSON object per file.
#[derive(clap::Parser)]
struct Args {
    /// The GLB files.
    #[arg(required = true)]
    files: Vec<String>,
}

fn main() {
    let args: Args = clap::Parser::parse();
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    for path in args.files {
        let bytes = std::fs::read(&path).expect("read the file");
        let phases = [
            "scene", "clips", "meshes", "images", "atlas", "model", "qoi", "encode", "verify",
        ];
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); phases.len()];
        let mut size = 0;
        for _ in 0..runs {
            let mut lap = Instant::now();
            let mut mark = |k: usize, times: &mut Vec<Vec<Duration>>| {
                times[k].push(lap.elapsed());
                lap = Instant::now();
            };
            let scene = gltf::import_scene(&bytes, &[]).expect("scene");
            let names = bake::node_names(&scene);
            mark(0, &mut times);
            let settings = ClipSettings {
                resample_hz: 30.0,
                resample_all: false,
                tolerance: None,
            };
            let clips = scene
                .clips
                .iter()
                .enumerate()
                .map(|(i, c)| kchr::Clip {
                    name: format!("clip{i}"),
                    ..bake::clip(
                        &scene,
                        &names,
                        c,
                        &settings,
                        &[],
                        kiln::formats::kchr::MAX_KEYS,
                    )
                    .expect("clip")
                    .clip
                })
                .collect();
            let bank = kchr::Bank {
                id: "bank".into(),
                clips,
            };
            mark(1, &mut times);
            let (sel, _) = bake::select(&scene, None).expect("select");
            let source = gltf::Source::parse(&bytes).expect("parse");
            let meshes = gltf::import_meshes(source, &[], &[], Some(&sel.meshes)).expect("meshes");
            let prims = bake::primitives(&scene, &sel, &meshes);
            mark(2, &mut times);
            let decoded: Vec<Option<Rgba8>> = meshes
                .images
                .iter()
                .map(|e| e.as_ref().map(|e| image::decode(&e.bytes).expect("image")))
                .collect();
            mark(3, &mut times);
            let settings = Settings::default();
            let sides: Vec<Option<[u32; 2]>> = decoded
                .iter()
                .map(|i| i.as_ref().map(|i| [i.width, i.height]))
                .collect();
            let layout =
                atlas::layout(&prims, &meshes.materials, &sides, &settings).expect("atlas");
            let atlas = atlas::paint(&layout, &prims, |i| Ok(decoded[i].clone().expect("image")))
                .expect("atlas");
            mark(4, &mut times);
            let (names, animated) = bake::bind(
                &names,
                &bank.id,
                &bake::bank_animated(&bank),
                &NodeMap::default(),
            )
            .expect("bind");
            let compiled =
                bake::model(&scene, &names, &sel, &meshes, &atlas, &animated).expect("model");
            // `model` encodes the atlas's QOI inside; that encode is timed
            // again alone and taken out of the model's phase.
            let model_time = lap.elapsed();
            lap = Instant::now();
            std::hint::black_box(atlas::encode_qoi(&atlas.image));
            let qoi_time = lap.elapsed();
            times[5].push(model_time.saturating_sub(qoi_time));
            times[6].push(qoi_time);
            lap = Instant::now();
            let doc = kchr::Document {
                models: vec![kchr::Model {
                    id: "m".into(),
                    ..compiled.model
                }],
                banks: vec![bank],
            };
            // As the characters kind encodes: its atlases just encoded, so
            // not decoded again; then the full check `kiln verify` makes.
            let out = kchr::encode_with(&doc, kchr::ImageCheck::Header).expect("encode");
            size = out.len();
            times[7].push(lap.elapsed());
            lap = Instant::now();
            assert!(kchr::validate(&doc).is_empty());
            times[8].push(lap.elapsed());
        }
        let fields: Vec<String> = phases
            .iter()
            .zip(times)
            .map(|(p, t)| format!("\"{p}_ms\": {:.3}", ms(median(t))))
            .collect();
        println!(
            "{{\"file\": \"{}\", \"kchr_bytes\": {size}, {}}}",
            std::path::Path::new(&path)
                .file_name()
                .unwrap()
                .to_string_lossy(),
            fields.join(", ")
        );
    }
}
