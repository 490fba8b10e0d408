//! Synthetic MotionBricks extraction files: the real tensor names, shapes
//! and dtypes (tests/corpus/motionbricks/inventory.json, derived from the
//! upstream code), seeded pseudo-random values, written as safetensors with
//! the extraction's `manifest.json`. Upstream weights may not be committed
//! or downloaded; these stand in for them.
//!
//! Shared by `examples/synth_motionbricks.rs` and the tests (which include
//! this file with `#[path]`).
#![allow(dead_code)]

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use kiln::bake::model_bundle::G1_JOINTS;
use kiln::bake::tensor_convert::{f64_to_bf16, f64_to_f16};
use kiln::formats::safetensors::{self, Dtype, TensorSpec};

/// How large the tensors are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The real shapes: about 730 MB in all.
    Full,
    /// Every dimension divided by 64 (at least 1): a few hundred KB, the
    /// names and ranks kept. The component tables do not match.
    Small,
}

/// The components of the extraction, in the inventory's naming.
pub const COMPONENTS: [&str; 4] = ["pose", "root", "vqvae", "support"];

/// The inventory's tensors of `component`, in state_dict order.
pub fn inventory(json: &str, component: &str, scale: Scale) -> Vec<TensorSpec> {
    let v: serde_json::Value = serde_json::from_str(json).expect("the inventory is JSON");
    v["components"][component]
        .as_array()
        .expect("a component list")
        .iter()
        .map(|t| TensorSpec {
            name: t["name"].as_str().unwrap().to_string(),
            dtype: Dtype::from_name(t["dtype"].as_str().unwrap()).unwrap(),
            shape: t["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let d = d.as_u64().unwrap();
                    match scale {
                        Scale::Full => d,
                        Scale::Small => (d / 64).max(1),
                    }
                })
                .collect(),
        })
        .collect()
}

/// A small, fast, seeded generator (64-bit LCG, top bits).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 24
    }

    /// In [-0.5, 0.5), a multiple of 2^-24 (exact in f32).
    pub fn value(&mut self) -> f32 {
        ((self.next() & 0xff_ffff) as f32 - 8_388_608.0) / 16_777_216.0
    }
}

/// The bytes of one tensor's data, in chunks to `out`.
fn write_data(t: &TensorSpec, rng: &mut Rng, out: &mut impl Write) -> io::Result<()> {
    let n: u64 = t.shape.iter().product();
    let mut buf = Vec::with_capacity(1 << 16);
    for i in 0..n {
        match t.dtype {
            Dtype::F32 => {
                let v = match t.name.as_str() {
                    "motion_std" => rng.value().abs(),
                    _ => rng.value(),
                };
                buf.extend_from_slice(&v.to_le_bytes());
            }
            Dtype::F64 => buf.extend_from_slice(&f64::from(rng.value()).to_le_bytes()),
            Dtype::I32 | Dtype::I64 if t.name == "joint_parents" => {
                let p = G1_JOINTS.get(i as usize).map_or(0, |j| j.1);
                if t.dtype == Dtype::I32 {
                    buf.extend_from_slice(&p.to_le_bytes());
                } else {
                    buf.extend_from_slice(&i64::from(p).to_le_bytes());
                }
            }
            Dtype::F16 => {
                buf.extend_from_slice(&f64_to_f16(f64::from(rng.value()) * 100.0).to_le_bytes())
            }
            Dtype::BF16 => {
                buf.extend_from_slice(&f64_to_bf16(f64::from(rng.value()) * 100.0).to_le_bytes())
            }
            Dtype::Bool => buf.push((rng.next() & 1) as u8),
            Dtype::U8 => buf.push(rng.next() as u8),
            Dtype::I8 => buf.push(rng.next() as u8),
            Dtype::I16 => buf.extend_from_slice(&(rng.next() as i16).to_le_bytes()),
            Dtype::I32 => buf.extend_from_slice(&((rng.next() as i32) >> 8).to_le_bytes()),
            Dtype::I64 => buf.extend_from_slice(&((rng.next() as i64) - (1 << 38)).to_le_bytes()),
            Dtype::U16 => buf.extend_from_slice(&(rng.next() as u16).to_le_bytes()),
            Dtype::U32 => buf.extend_from_slice(&(rng.next() as u32).to_le_bytes()),
            // Beyond i64 too: the conversion must say which element.
            Dtype::U64 => buf.extend_from_slice(&rng.next().to_le_bytes()),
            // Every byte pattern, NaN included: FP8 values are all their bytes.
            Dtype::F8E4M3
            | Dtype::F8E5M2
            | Dtype::F8E8M0
            | Dtype::F8E4M3Fnuz
            | Dtype::F8E5M2Fnuz => buf.push(rng.next() as u8),
        }
        if buf.len() >= 1 << 16 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)
}

/// Writes a safetensors file of `tensors` with seeded values.
pub fn write_checkpoint(path: &Path, tensors: &[TensorSpec], seed: u64) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    out.write_all(&safetensors::encode_header(tensors, None).expect("sizes fit"))?;
    let mut rng = Rng::new(seed);
    for t in tensors {
        write_data(t, &mut rng, &mut out)?;
    }
    out.flush()
}

/// The words of [`write_tiny_bert`]'s WordPiece vocabulary after its five
/// special tokens ([PAD] 0, [UNK] 1, [CLS] 2, [SEP] 3, [MASK] 4).
pub const TINY_BERT_WORDS: [&str; 11] = [
    "the", "cat", "sat", "on", "mat", "kiln", "game", "##s", "##ing", ".", "asset",
];

/// A tiny BERT as Hugging Face saves one, in `dir`: `model.safetensors`
/// (the `bert.`-less names, `layers` blocks of width `hidden`, two heads,
/// 512 positions (llama.cpp's runtimes want a context of a few hundred), plus `embeddings.position_ids` and the pooler, which a
/// conversion for llama.cpp leaves out), `config.json` and a WordPiece
/// `tokenizer.json` of [`TINY_BERT_WORDS`]. Values seeded.
pub fn write_tiny_bert(dir: &Path, layers: usize, hidden: u64, seed: u64) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let vocab = 5 + TINY_BERT_WORDS.len() as u64;
    let f = |name: String, shape: Vec<u64>| TensorSpec {
        name,
        dtype: Dtype::F32,
        shape,
    };
    let mut t = vec![
        f(
            "embeddings.word_embeddings.weight".into(),
            vec![vocab, hidden],
        ),
        f(
            "embeddings.position_embeddings.weight".into(),
            vec![512, hidden],
        ),
        f(
            "embeddings.token_type_embeddings.weight".into(),
            vec![2, hidden],
        ),
        f("embeddings.LayerNorm.weight".into(), vec![hidden]),
        f("embeddings.LayerNorm.bias".into(), vec![hidden]),
        TensorSpec {
            name: "embeddings.position_ids".into(),
            dtype: Dtype::I64,
            shape: vec![1, 512],
        },
        f("pooler.dense.weight".into(), vec![hidden, hidden]),
        f("pooler.dense.bias".into(), vec![hidden]),
    ];
    for l in 0..layers {
        let p = format!("encoder.layer.{l}.");
        for (name, rows, cols) in [
            ("attention.self.query", hidden, hidden),
            ("attention.self.key", hidden, hidden),
            ("attention.self.value", hidden, hidden),
            ("attention.output.dense", hidden, hidden),
            ("intermediate.dense", 4 * hidden, hidden),
            ("output.dense", hidden, 4 * hidden),
        ] {
            t.push(f(format!("{p}{name}.weight"), vec![rows, cols]));
            t.push(f(format!("{p}{name}.bias"), vec![rows]));
        }
        for norm in ["attention.output.LayerNorm", "output.LayerNorm"] {
            t.push(f(format!("{p}{norm}.weight"), vec![hidden]));
            t.push(f(format!("{p}{norm}.bias"), vec![hidden]));
        }
    }
    write_checkpoint(&dir.join("model.safetensors"), &t, seed)?;
    let config = format!(
        "{{\"architectures\": [\"BertModel\"], \"model_type\": \"bert\", \"hidden_size\": {hidden}, \"intermediate_size\": {}, \"num_hidden_layers\": {layers}, \"num_attention_heads\": 2, \"layer_norm_eps\": 1e-12, \"max_position_embeddings\": 512, \"type_vocab_size\": 2, \"vocab_size\": {vocab}, \"pad_token_id\": 0}}\n",
        4 * hidden
    );
    std::fs::write(dir.join("config.json"), config)?;
    let special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
    let added: Vec<String> = special
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{{\"id\": {i}, \"content\": \"{s}\", \"special\": true, \"single_word\": false, \"lstrip\": false, \"rstrip\": false, \"normalized\": false}}"))
        .collect();
    let words: Vec<String> = special
        .iter()
        .chain(TINY_BERT_WORDS.iter())
        .enumerate()
        .map(|(i, w)| format!("\"{w}\": {i}"))
        .collect();
    let tokenizer = format!(
        "{{\"version\": \"1.0\", \"added_tokens\": [{}], \"normalizer\": {{\"type\": \"BertNormalizer\", \"clean_text\": true, \"handle_chinese_chars\": true, \"strip_accents\": null, \"lowercase\": true}}, \"pre_tokenizer\": {{\"type\": \"BertPreTokenizer\"}}, \"post_processor\": {{\"type\": \"TemplateProcessing\", \"single\": [{{\"SpecialToken\": {{\"id\": \"[CLS]\", \"type_id\": 0}}}}, {{\"Sequence\": {{\"id\": \"A\", \"type_id\": 0}}}}, {{\"SpecialToken\": {{\"id\": \"[SEP]\", \"type_id\": 0}}}}], \"pair\": [], \"special_tokens\": {{}}}}, \"decoder\": {{\"type\": \"WordPiece\", \"prefix\": \"##\", \"cleanup\": true}}, \"model\": {{\"type\": \"WordPiece\", \"unk_token\": \"[UNK]\", \"continuing_subword_prefix\": \"##\", \"max_input_chars_per_word\": 100, \"vocab\": {{{}}}}}}}\n",
        added.join(", "),
        words.join(", ")
    );
    std::fs::write(dir.join("tokenizer.json"), tokenizer)
}

/// A tiny LLaMA as Hugging Face saves one, in `dir`: `model.safetensors`
/// (`layers` blocks of width `hidden`, 4 query heads and 2 key-value
/// heads, SwiGLU of `2 × hidden`), `config.json`, and a byte-level BPE
/// `tokenizer.json`: `<s>` 0 and `</s>` 1, the 256 bytes as GPT-2's
/// characters (2 to 257), and the merges `t h`, `th e`. Values seeded,
/// scaled so the logits differ.
pub fn write_tiny_llama(dir: &Path, layers: usize, hidden: u64, seed: u64) -> io::Result<()> {
    write_tiny_llama_of(dir, layers, hidden, seed, 2 + 256 + 2)
}

/// [`write_tiny_llama`] with `vocab` rows in its embeddings and output
/// (its `tokenizer.json` holds 260 tokens whatever `vocab` is: a larger
/// vocabulary is for a `tokenizer.model` written beside it).
pub fn write_tiny_llama_of(
    dir: &Path,
    layers: usize,
    hidden: u64,
    seed: u64,
    vocab: u64,
) -> io::Result<()> {
    use kiln::bake::llama_cpp::gpt2_byte_char;
    std::fs::create_dir_all(dir)?;
    let (heads, kv_heads) = (4u64, 2u64);
    let head_dim = hidden / heads;
    let f = |name: String, shape: Vec<u64>| TensorSpec {
        name,
        dtype: Dtype::F32,
        shape,
    };
    let mut t = vec![
        f("model.embed_tokens.weight".into(), vec![vocab, hidden]),
        f("model.norm.weight".into(), vec![hidden]),
        f("lm_head.weight".into(), vec![vocab, hidden]),
    ];
    for l in 0..layers {
        let p = format!("model.layers.{l}.");
        t.push(f(format!("{p}input_layernorm.weight"), vec![hidden]));
        t.push(f(
            format!("{p}post_attention_layernorm.weight"),
            vec![hidden],
        ));
        t.push(f(
            format!("{p}self_attn.q_proj.weight"),
            vec![hidden, hidden],
        ));
        t.push(f(
            format!("{p}self_attn.k_proj.weight"),
            vec![kv_heads * head_dim, hidden],
        ));
        t.push(f(
            format!("{p}self_attn.v_proj.weight"),
            vec![kv_heads * head_dim, hidden],
        ));
        t.push(f(
            format!("{p}self_attn.o_proj.weight"),
            vec![hidden, hidden],
        ));
        t.push(f(
            format!("{p}mlp.gate_proj.weight"),
            vec![2 * hidden, hidden],
        ));
        t.push(f(
            format!("{p}mlp.up_proj.weight"),
            vec![2 * hidden, hidden],
        ));
        t.push(f(
            format!("{p}mlp.down_proj.weight"),
            vec![hidden, 2 * hidden],
        ));
    }
    write_checkpoint(&dir.join("model.safetensors"), &t, seed)?;
    std::fs::write(
        dir.join("config.json"),
        format!(
            "{{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": {hidden}, \"intermediate_size\": {}, \"num_hidden_layers\": {layers}, \"num_attention_heads\": {heads}, \"num_key_value_heads\": {kv_heads}, \"rms_norm_eps\": 1e-05, \"rope_theta\": 10000.0, \"max_position_embeddings\": 512, \"vocab_size\": {vocab}, \"bos_token_id\": 0, \"eos_token_id\": 1, \"tie_word_embeddings\": false}}\n",
            2 * hidden
        ),
    )?;
    let json_str = |c: &str| serde_json::to_string(c).unwrap();
    let mut words: Vec<String> = vec![r#""<s>": 0"#.into(), r#""</s>": 1"#.into()];
    for b in 0..=255u8 {
        words.push(format!(
            "{}: {}",
            json_str(&gpt2_byte_char(b).to_string()),
            2 + u64::from(b)
        ));
    }
    words.push(r#""th": 258"#.into());
    words.push(r#""the": 259"#.into());
    let tokenizer = format!(
        r#"{{"version": "1.0", "added_tokens": [{{"id": 0, "content": "<s>", "special": true, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false}}, {{"id": 1, "content": "</s>", "special": true, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false}}], "normalizer": null, "pre_tokenizer": {{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true}}, "post_processor": {{"type": "TemplateProcessing", "single": [{{"SpecialToken": {{"id": "<s>", "type_id": 0}}}}, {{"Sequence": {{"id": "A", "type_id": 0}}}}], "pair": [], "special_tokens": {{}}}}, "decoder": {{"type": "ByteLevel"}}, "model": {{"type": "BPE", "dropout": null, "unk_token": null, "fuse_unk": false, "byte_fallback": false, "vocab": {{{}}}, "merges": ["t h", "th e"]}}}}"#,
        words.join(", ")
    );
    std::fs::write(dir.join("tokenizer.json"), tokenizer + "\n")
}

/// Writes `pose.safetensors`, `root.safetensors`, `vqvae.safetensors`,
/// `support.safetensors` and `manifest.json` into `dir`.
pub fn write_extraction(
    dir: &Path,
    inventory_json: &str,
    scale: Scale,
    seed: u64,
) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (i, component) in COMPONENTS.iter().enumerate() {
        let tensors = inventory(inventory_json, component, scale);
        write_checkpoint(
            &dir.join(format!("{component}.safetensors")),
            &tensors,
            seed.wrapping_add(i as u64),
        )?;
    }
    std::fs::write(
        dir.join("manifest.json"),
        format!(
            "{{\"format\": \"motionbricks-safe-manifest-v1\", \"synthetic\": true, \"seed\": {seed}}}\n"
        ),
    )
}

/// The demo project's checkpoint, `sources/weights/tiny-mlp.safetensors`:
/// a small multi-layer perceptron of F32, BF16 and I64 tensors, seeded.
/// `examples/demo_checkpoint.rs` writes it; a test checks the committed
/// file is what it writes.
pub fn demo_checkpoint() -> Vec<TensorSpec> {
    let t = |name: &str, dtype, shape: &[u64]| TensorSpec {
        name: name.into(),
        dtype,
        shape: shape.to_vec(),
    };
    vec![
        t("embed.weight", Dtype::BF16, &[32, 16]),
        t("mlp.0.weight", Dtype::F32, &[64, 16]),
        t("mlp.0.bias", Dtype::F32, &[64]),
        t("mlp.2.weight", Dtype::F32, &[8, 64]),
        t("mlp.2.bias", Dtype::F32, &[8]),
        t("norm.weight", Dtype::F32, &[8]),
        t("steps", Dtype::I64, &[]),
    ]
}

pub const DEMO_SEED: u64 = 2026;

/// The clip file's arrays, in the order they are written.
pub const CLIP_ARRAYS: [(&str, u64); 4] = [
    ("global_headings", 1),
    ("global_joint_positions", 34 * 3),
    ("global_joint_rotations", 34 * 9),
    ("global_root_positions", 3),
];

/// Value `k` of frame `f` of clip `c` of array `a` (of [`CLIP_ARRAYS`]) in
/// a synthetic clip file: distinct, finite, and y = 0 for the root.
pub fn clip_value(a: usize, c: u64, f: u64, k: u64) -> f32 {
    if a == 3 && k == 1 {
        return 0.0;
    }
    let x = (a as u64 * 1_000_003 + c * 10_007 + f * 101 + k) as f32;
    (x * 0.001).sin() * 2.0
}

/// Writes a synthetic upstream clip file: `frames.len()` clips of
/// `max_frames` frames (clip `c` uses the first `frames[c]`; the rest are
/// zeros, as upstream pads), with unused `motion_feature` and
/// `mujoco_qpos` tensors beside them, like the real file.
pub fn write_clips(path: &Path, frames: &[i32], max_frames: u64) -> io::Result<()> {
    write_clips_with(path, frames, max_frames, &clip_value)
}

/// [`write_clips`] with the values of `value(array, clip, frame, k)`.
pub fn write_clips_with(
    path: &Path,
    frames: &[i32],
    max_frames: u64,
    value: &dyn Fn(usize, u64, u64, u64) -> f32,
) -> io::Result<()> {
    let c = frames.len() as u64;
    let mut specs = vec![
        TensorSpec {
            name: "global_headings".into(),
            dtype: Dtype::F32,
            shape: vec![c, max_frames],
        },
        TensorSpec {
            name: "global_joint_positions".into(),
            dtype: Dtype::F32,
            shape: vec![c, max_frames, 34, 3],
        },
        TensorSpec {
            name: "global_joint_rotations".into(),
            dtype: Dtype::F32,
            shape: vec![c, max_frames, 34, 3, 3],
        },
        TensorSpec {
            name: "global_root_positions".into(),
            dtype: Dtype::F32,
            shape: vec![c, max_frames, 3],
        },
    ];
    specs.push(TensorSpec {
        name: "motion_feature".into(),
        dtype: Dtype::F32,
        shape: vec![c, max_frames, 7],
    });
    specs.push(TensorSpec {
        name: "mujoco_qpos".into(),
        dtype: Dtype::F32,
        shape: vec![c, max_frames, 36],
    });
    specs.push(TensorSpec {
        name: "num_frames_per_clip".into(),
        dtype: Dtype::I32,
        shape: vec![c],
    });
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    out.write_all(&safetensors::encode_header(&specs, None).expect("sizes fit"))?;
    for (a, &(_, per_frame)) in CLIP_ARRAYS.iter().enumerate() {
        for clip in 0..c {
            for f in 0..max_frames {
                for k in 0..per_frame {
                    let v = if f < frames[clip as usize].max(0) as u64 {
                        value(a, clip, f, k)
                    } else {
                        0.0
                    };
                    out.write_all(&v.to_le_bytes())?;
                }
            }
        }
    }
    for per_frame in [7u64, 36] {
        for i in 0..c * max_frames * per_frame {
            out.write_all(&(i as f32).to_le_bytes())?;
        }
    }
    for &n in frames {
        out.write_all(&n.to_le_bytes())?;
    }
    out.flush()
}

/// The children of G1 joint `j`, in index order.
pub fn g1_children(j: usize) -> Vec<usize> {
    G1_JOINTS
        .iter()
        .enumerate()
        .filter(|(_, (_, p))| *p == j as i32)
        .map(|(c, _)| c)
        .collect()
}

/// A G1 rig (the 34 g1skel34 joints, named and parented) whose animation
/// "Walk" has `frames` keys at 30 fps on every joint's rotation and on the
/// pelvis's translation: the pelvis walks +Z at 1.2 m/s while every joint
/// turns. For the style benchmark (a 100,000-frame clip is 55 MB).
pub fn g1_walk_glb(frames: usize) -> Vec<u8> {
    use serde_json::json;
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut add = |bytes: Vec<u8>, ty: &str, count: usize, minmax: Option<(f32, f32)>| {
        let view = json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()});
        bin.extend_from_slice(&bytes);
        views.push(view);
        let mut a = json!({"bufferView": views.len() - 1, "componentType": 5126, "type": ty, "count": count});
        if let Some((lo, hi)) = minmax {
            a["min"] = json!([lo]);
            a["max"] = json!([hi]);
        }
        accessors.push(a);
        accessors.len() - 1
    };
    let f32s =
        |v: &mut dyn Iterator<Item = f32>| -> Vec<u8> { v.flat_map(f32::to_le_bytes).collect() };
    let last = (frames - 1) as f32 / 30.0;
    let times = add(
        f32s(&mut (0..frames).map(|k| k as f32 / 30.0)),
        "SCALAR",
        frames,
        Some((0.0, last)),
    );
    let walk = add(
        f32s(&mut (0..frames).flat_map(|k| [0.0, 0.9, 1.2 * k as f32 / 30.0])),
        "VEC3",
        frames,
        None,
    );
    let mut samplers = vec![json!({"input": times, "output": walk, "interpolation": "LINEAR"})];
    let mut channels = vec![json!({"sampler": 0, "target": {"node": 0, "path": "translation"}})];
    for j in 0..G1_JOINTS.len() {
        let rot = add(
            f32s(&mut (0..frames).flat_map(|k| {
                let a = 0.3 * ((k as f32 / 30.0) * (1.0 + j as f32 * 0.1)).sin();
                let (s, c) = ((a / 2.0).sin(), (a / 2.0).cos());
                [s, 0.0, 0.0, c]
            })),
            "VEC4",
            frames,
            None,
        );
        channels
            .push(json!({"sampler": samplers.len(), "target": {"node": j, "path": "rotation"}}));
        samplers.push(json!({"input": times, "output": rot, "interpolation": "LINEAR"}));
    }
    let nodes: Vec<serde_json::Value> = G1_JOINTS
        .iter()
        .enumerate()
        .map(|(j, (name, _))| {
            let children = g1_children(j);
            let t = if j == 0 {
                [0.0, 0.9, 0.0]
            } else {
                [0.02, -0.08, 0.01]
            };
            let mut n = json!({"name": name, "translation": t});
            if !children.is_empty() {
                n["children"] = json!(children);
            }
            n
        })
        .collect();
    let doc = json!({
        "asset": {"version": "2.0", "generator": "kiln examples/synth g1_walk_glb"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
        "buffers": [{"byteLength": bin.len()}], "bufferViews": views, "accessors": accessors,
        "animations": [{"name": "Walk", "samplers": samplers, "channels": channels}],
    });
    kiln::formats::glb::encode(&serde_json::to_vec(&doc).expect("JSON"), Some(&bin))
}

/// A style of `frames` frames whose every value is distinct, allowing
/// `tokens` (the inclusive range `mask` takes). The tests' and the fuzz
/// seeds' sample `.mbstyle`.
pub fn style(name: &str, frames: usize, tokens: (u32, u32)) -> kiln::formats::mbstyle::Style {
    let v = |i: usize| (i as f32 * 0.37).sin();
    kiln::formats::mbstyle::Style {
        name: name.into(),
        speed: 0.6,
        index: 10,
        source_sha256: "7ea40c20130c8a9799d83c0438750b51a5be9b1e09357c4928887961fc992d33".into(),
        allowed_tokens: kiln::formats::mbstyle::mask(tokens.0, tokens.1),
        headings: (0..frames).map(|f| v(f) * 3.0).collect(),
        joint_positions: (0..frames * 34)
            .map(|i| [v(3 * i), v(3 * i + 1), v(3 * i + 2)])
            .collect(),
        joint_rotations: (0..frames * 34)
            .map(|i| std::array::from_fn(|k| v(9 * i + k + 7)))
            .collect(),
        root_positions: (0..frames).map(|f| [v(f), 0.0, v(f + 1)]).collect(),
    }
}

/// 5 frames at 50 fps of 3 joints: joint j at frame f is at
/// (f / 10, 1 - j / 4, j / 2); one plan from frame 2.
pub fn replay() -> kiln::formats::mbreplay::Replay {
    let (frames, joints) = (5, 3);
    kiln::formats::mbreplay::Replay {
        fps: 50,
        parents: vec![-1, 0, 1],
        modes: vec![0; frames],
        active_plan: vec![-1, -1, 0, 0, 0],
        qpos_count: 2,
        qpos: (0..frames * 2).map(|i| i as f32).collect(),
        positions: (0..frames)
            .flat_map(|f| {
                (0..joints).map(move |j| [f as f32 / 10.0, 1.0 - j as f32 / 4.0, j as f32 / 2.0])
            })
            .collect(),
        plans: vec![kiln::formats::mbreplay::Plan {
            first_frame: 2,
            mode: 1,
            length: 24,
            targets: vec![[0.5, 0.5, 0.5]; 4 * joints],
        }],
    }
}
