//! What llama.cpp's converter decides, transcribed as data: the tensors it
//! keeps in F32 whatever the output type, the block size its Q8_0 needs,
//! and for each model family it converts here (the `llama.cpp` profile)
//! the GGUF names of the checkpoint's tensors, the hyper-parameters it
//! reads from `config.json`, and how the tokenizer becomes
//! `tokenizer.ggml.*`. Pure: JSON values and names in, names and metadata
//! out.
//!
//! Source (facts, not code): llama.cpp at 80fb11ac (2026-09-12, the copy
//! the npm package `node-llama-cpp` 3.21.1 bundles), `conversion/base.py`
//! `prepare_tensors`, `TextModel.set_gguf_parameters`, `conversion/bert.py`
//! (`BertModel`), and gguf-py 0.19.0 (`gguf/constants.py`: `TENSOR_NAMES`,
//! the `Keys`; `gguf/tensor_mapping.py`: the checkpoint names). `{bid}` is
//! a block number.

use std::collections::BTreeMap;

use crate::formats::gguf::Value;

mod bpe;
mod spm;
mod tokens;
mod wordpiece;

pub use bpe::{BPE_PRE_TOKENIZERS, LLAMA3_SPLIT, bpe, bpe_pre, gpt2_byte_char};
pub use spm::sentencepiece;
pub use tokens::MAX_TOKENS;
pub use wordpiece::{wordpiece, wordpiece_vocab_txt};

/// Tensors llama.cpp's converter writes as F32 under every output type
/// (its "some tensor types are always in float32" list: gating inputs,
/// position and token-type embeddings, convolutions, RWKV's mixes…),
/// by GGUF name.
pub const F32_TENSORS: &[&str] = &[
    "blk.{bid}.ffn_gate_inp.weight",        // FFN_GATE_INP
    "blk.{bid}.ffn_gate_inp_shexp.weight",  // FFN_GATE_INP_SHEXP
    "position_embd.weight",                 // POS_EMBD
    "token_types.weight",                   // TOKEN_TYPES
    "blk.{bid}.ssm_conv1d.weight",          // SSM_CONV1D
    "blk.{bid}.shortconv.conv.weight",      // SHORTCONV_CONV
    "blk.{bid}.time_mix_first.weight",      // TIME_MIX_FIRST
    "blk.{bid}.time_mix_w1.weight",         // TIME_MIX_W1
    "blk.{bid}.time_mix_w2.weight",         // TIME_MIX_W2
    "blk.{bid}.time_mix_decay_w1.weight",   // TIME_MIX_DECAY_W1
    "blk.{bid}.time_mix_decay_w2.weight",   // TIME_MIX_DECAY_W2
    "blk.{bid}.time_mix_lerp_fused.weight", // TIME_MIX_LERP_FUSED
    "posnet.{bid}.norm1.weight",            // POSNET_NORM1
    "posnet.{bid}.norm2.weight",            // POSNET_NORM2
    "v.position_embd.weight",               // V_ENC_EMBD_POS
    "a.position_embd.weight",               // A_ENC_EMBD_POS
    "blk.{bid}.altup_correct_coef.weight",  // ALTUP_CORRECT_COEF
    "blk.{bid}.altup_predict_coef.weight",  // ALTUP_PREDICT_COEF
    "blk.{bid}.ssm_conv1d_q.weight",        // SSM_CONV1D_Q
    "blk.{bid}.ssm_conv1d_k.weight",        // SSM_CONV1D_K
    "blk.{bid}.ssm_conv1d_v.weight",        // SSM_CONV1D_V
    "blk.{bid}.indexer.proj.weight",        // INDEXER_PROJ
];

/// Name endings of the tensors llama.cpp's converter may store in a
/// half or quantized type; any other name stays F32.
pub const CONVERTIBLE_ENDINGS: &[&str] = &[".weight", ".lora_a", ".lora_b"];

/// Whether llama.cpp's converter keeps the tensor `name` (GGUF) of `rank`
/// dimensions in F32 under a half or quantized output type: one dimension
/// or none, a norm (`…_norm.weight`), a name without a convertible ending,
/// or one of [`F32_TENSORS`].
pub fn keeps_f32(name: &str, rank: usize) -> bool {
    rank <= 1
        || name.ends_with("_norm.weight")
        || !CONVERTIBLE_ENDINGS.iter().any(|e| name.ends_with(e))
        || F32_TENSORS.iter().any(|t| matches_block(t, name))
}

/// `name` is `template` with `{bid}` (if any) a run of decimal digits.
fn matches_block(template: &str, name: &str) -> bool {
    match template.split_once("{bid}") {
        None => template == name,
        Some((head, tail)) => name
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())),
    }
}

/// A config.json value's GGUF type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    U32,
    F32,
}

/// A hyper-parameter: its GGUF key (`{arch}` the architecture), the
/// config.json keys it is read from (the first present), its type, and
/// whether the family needs it.
#[derive(Clone, Copy, Debug)]
pub struct Hparam {
    pub key: &'static str,
    pub from: &'static [&'static str],
    pub kind: Kind,
    pub required: bool,
}

/// A model family the `llama.cpp` profile converts.
#[derive(Debug)]
pub struct Family {
    /// `general.architecture` (gguf-py's `MODEL_ARCH` name).
    pub arch: &'static str,
    /// config.json `model_type` values of the family.
    pub model_types: &'static [&'static str],
    /// Where its tables come from, for errors.
    pub table: &'static str,
    /// Prefixes a checkpoint may put before every name.
    pub prefixes: &'static [&'static str],
    /// Checkpoint name endings and the GGUF endings they become.
    pub suffixes: &'static [(&'static str, &'static str)],
    /// Checkpoint names (without prefix; `*` any run) llama.cpp leaves out.
    pub skip: &'static [&'static str],
    /// Checkpoint name (without prefix and suffix) -> GGUF name.
    pub tensors: &'static [(&'static str, &'static str)],
    /// Its hyper-parameters besides [`COMMON_HPARAMS`].
    pub hparams: &'static [Hparam],
    /// Constant keys (`{arch}` the architecture).
    pub fixed: &'static [(&'static str, bool)],
    /// The tokenizer's kind.
    pub tokenizer: TokenizerKind,
    /// Checkpoint names (without prefix and suffix) whose rows llama.cpp's
    /// converter reorders for its rotary embedding (`LlamaModel.permute`),
    /// and the head count that groups them.
    pub permute: &'static [(&'static str, Heads)],
    /// `{arch}.rope.dimension_count`: hidden size / heads (or `head_dim`).
    pub rope_dimensions: bool,
}

/// Which tokenizer a family's `tokenizer.json` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenizerKind {
    /// BERT's WordPiece: `tokenizer.ggml.model` "bert".
    WordPiece,
    /// Byte-level BPE (GPT-2's bytes as characters, merges): "gpt2".
    Bpe,
}

/// The head count a permuted tensor's rows are grouped by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heads {
    /// `num_attention_heads`.
    Query,
    /// `num_key_value_heads` (the query heads when absent).
    KeyValue,
}

const CONTEXT: &[&str] = &[
    "max_position_embeddings",
    "n_ctx",
    "n_positions",
    "max_length",
    "max_sequence_length",
    "model_max_length",
];

/// The hyper-parameters every family's converter writes
/// (`TextModel.set_gguf_parameters`), read before the family's own.
pub const COMMON_HPARAMS: &[Hparam] = &[
    Hparam {
        key: "{arch}.context_length",
        from: CONTEXT,
        kind: Kind::U32,
        required: false,
    },
    Hparam {
        key: "{arch}.embedding_length",
        from: &["hidden_size", "n_embd", "dim"],
        kind: Kind::U32,
        required: true,
    },
    Hparam {
        key: "{arch}.feed_forward_length",
        from: &["intermediate_size", "n_inner", "hidden_dim"],
        kind: Kind::U32,
        required: true,
    },
    Hparam {
        key: "{arch}.block_count",
        from: &["num_hidden_layers", "n_layers", "n_layer", "num_layers"],
        kind: Kind::U32,
        required: true,
    },
    Hparam {
        key: "{arch}.attention.head_count",
        from: &["num_attention_heads", "n_head", "n_heads"],
        kind: Kind::U32,
        required: true,
    },
    Hparam {
        key: "{arch}.attention.head_count_kv",
        from: &["num_key_value_heads", "n_kv_heads"],
        kind: Kind::U32,
        required: false,
    },
];

/// BERT (`BertModel`, `BertForMaskedLM`, …): llama.cpp's `bert`
/// architecture, a WordPiece tokenizer.
pub const BERT: Family = Family {
    arch: "bert",
    model_types: &["bert"],
    table: "the BERT table (compiler/bake/llama_cpp.rs, from gguf-py 0.19.0's tensor_mapping.py)",
    prefixes: &["", "bert."],
    suffixes: &[
        (".weight", ".weight"),
        (".bias", ".bias"),
        (".gamma", ".weight"),
        (".beta", ".bias"),
    ],
    skip: &[
        "embeddings.position_ids",
        "pooler.dense.*",
        "cls.predictions.*",
        "cls.seq_relationship.*",
    ],
    tensors: &[
        ("embeddings.word_embeddings", "token_embd"),
        ("embeddings.position_embeddings", "position_embd"),
        ("embeddings.token_type_embeddings", "token_types"),
        ("embeddings.LayerNorm", "token_embd_norm"),
        (
            "encoder.layer.{bid}.attention.self.query",
            "blk.{bid}.attn_q",
        ),
        ("encoder.layer.{bid}.attention.self.key", "blk.{bid}.attn_k"),
        (
            "encoder.layer.{bid}.attention.self.value",
            "blk.{bid}.attn_v",
        ),
        (
            "encoder.layer.{bid}.attention.output.dense",
            "blk.{bid}.attn_output",
        ),
        (
            "encoder.layer.{bid}.attention.output.LayerNorm",
            "blk.{bid}.attn_output_norm",
        ),
        ("encoder.layer.{bid}.intermediate.dense", "blk.{bid}.ffn_up"),
        ("encoder.layer.{bid}.output.dense", "blk.{bid}.ffn_down"),
        (
            "encoder.layer.{bid}.output.LayerNorm",
            "blk.{bid}.layer_output_norm",
        ),
    ],
    hparams: &[
        Hparam {
            key: "{arch}.attention.layer_norm_epsilon",
            from: &["layer_norm_eps", "layer_norm_epsilon", "norm_epsilon"],
            kind: Kind::F32,
            required: true,
        },
        Hparam {
            key: "tokenizer.ggml.token_type_count",
            from: &["type_vocab_size"],
            kind: Kind::U32,
            required: false,
        },
    ],
    fixed: &[("{arch}.attention.causal", false)],
    tokenizer: TokenizerKind::WordPiece,
    permute: &[],
    rope_dimensions: false,
};

/// LLaMA (`LlamaForCausalLM`): llama.cpp's `llama` architecture, a
/// byte-level BPE tokenizer (`tokenizer.json`); the query and key
/// projections' rows reordered as its converter does.
pub const LLAMA: Family = Family {
    arch: "llama",
    model_types: &["llama"],
    table: "the LLaMA table (compiler/bake/llama_cpp.rs, from gguf-py 0.19.0's tensor_mapping.py)",
    prefixes: &["", "text_model."],
    suffixes: &[(".weight", ".weight"), (".bias", ".bias")],
    skip: &["model.layers.*.self_attn.rotary_emb.inv_freq"],
    tensors: &[
        ("model.embed_tokens", "token_embd"),
        ("model.norm", "output_norm"),
        ("lm_head", "output"),
        ("model.layers.{bid}.input_layernorm", "blk.{bid}.attn_norm"),
        ("model.layers.{bid}.self_attn.q_proj", "blk.{bid}.attn_q"),
        ("model.layers.{bid}.self_attn.k_proj", "blk.{bid}.attn_k"),
        ("model.layers.{bid}.self_attn.v_proj", "blk.{bid}.attn_v"),
        (
            "model.layers.{bid}.self_attn.o_proj",
            "blk.{bid}.attn_output",
        ),
        (
            "model.layers.{bid}.post_attention_layernorm",
            "blk.{bid}.ffn_norm",
        ),
        ("model.layers.{bid}.mlp.gate_proj", "blk.{bid}.ffn_gate"),
        ("model.layers.{bid}.mlp.up_proj", "blk.{bid}.ffn_up"),
        ("model.layers.{bid}.mlp.down_proj", "blk.{bid}.ffn_down"),
    ],
    hparams: &[
        Hparam {
            key: "{arch}.rope.freq_base",
            from: &["rope_theta"],
            kind: Kind::F32,
            required: false,
        },
        Hparam {
            key: "{arch}.attention.layer_norm_rms_epsilon",
            from: &["rms_norm_eps", "norm_eps"],
            kind: Kind::F32,
            required: true,
        },
        Hparam {
            key: "{arch}.vocab_size",
            from: &["vocab_size"],
            kind: Kind::U32,
            required: true,
        },
    ],
    fixed: &[],
    tokenizer: TokenizerKind::Bpe,
    permute: &[
        ("model.layers.{bid}.self_attn.q_proj", Heads::Query),
        ("model.layers.{bid}.self_attn.k_proj", Heads::KeyValue),
    ],
    rope_dimensions: true,
};

/// The families, for `config.json`'s `model_type`.
pub const FAMILIES: &[&Family] = &[&BERT, &LLAMA];

/// llama.cpp's pooling types (`{arch}.pooling_type`).
pub const POOLING: &[(&str, u32)] = &[("none", 0), ("mean", 1), ("cls", 2), ("last", 3)];

/// The family of a `config.json`, by its `model_type`.
pub fn family(config: &serde_json::Value) -> Result<&'static Family, String> {
    let Some(model_type) = config.get("model_type").and_then(|v| v.as_str()) else {
        return Err("config.json has no \"model_type\" (text); kiln picks the family by it".into());
    };
    FAMILIES
        .iter()
        .copied()
        .find(|f| f.model_types.contains(&model_type))
        .ok_or_else(|| {
            let known: Vec<&str> = FAMILIES.iter().flat_map(|f| f.model_types.iter().copied()).collect();
            format!("config.json: model_type {model_type:?} is not a family kiln converts for llama.cpp (it converts {}); use `profile: generic` with `rename` and `metadata`", known.join(", "))
        })
}

/// The rename rules and skips of a family, as the generic conversion's
/// patterns: `(checkpoint pattern, GGUF template)`, `*` for `{bid}`.
pub fn name_rules(f: &Family) -> (Vec<(String, String)>, Vec<String>) {
    let mut rename = Vec::new();
    let mut skip = Vec::new();
    for prefix in f.prefixes {
        for (from, to) in f.tensors {
            for (end, new_end) in f.suffixes {
                rename.push((
                    format!("{prefix}{}{end}", from.replace("{bid}", "*")),
                    format!("{}{new_end}", to.replace("{bid}", "*")),
                ));
            }
        }
        for s in f.skip {
            skip.push(format!("{prefix}{s}"));
        }
    }
    (rename, skip)
}

/// The family's hyper-parameters from `config.json`, with the pooling
/// type when one is given.
pub fn hparams(
    f: &Family,
    config: &serde_json::Value,
    pooling: Option<u32>,
) -> Result<BTreeMap<String, Value>, String> {
    let mut out = BTreeMap::new();
    for h in COMMON_HPARAMS.iter().chain(f.hparams) {
        let key = h.key.replace("{arch}", f.arch);
        let Some((name, v)) = h.from.iter().find_map(|k| config.get(*k).map(|v| (*k, v))) else {
            if h.required {
                return Err(format!(
                    "config.json has none of {:?}, which {key} is read from",
                    h.from
                ));
            }
            continue;
        };
        let value = match h.kind {
            Kind::U32 => v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(Value::U32)
                .ok_or_else(|| {
                    format!(
                        "config.json: {name} is {v}; {key} needs a whole number from 0 to {}",
                        u32::MAX
                    )
                })?,
            Kind::F32 => v
                .as_f64()
                .filter(|x| x.is_finite() && (*x as f32).is_finite())
                .map(|x| Value::F32(x as f32))
                .ok_or_else(|| {
                    format!("config.json: {name} is {v}; {key} needs a finite float32")
                })?,
        };
        out.insert(key, value);
    }
    for (key, value) in f.fixed {
        out.insert(key.replace("{arch}", f.arch), Value::Bool(*value));
    }
    if let Some(p) = pooling {
        out.insert(format!("{}.pooling_type", f.arch), Value::U32(p));
    }
    if f.rope_dimensions {
        let get = |k: &str| config.get(k).and_then(|v| v.as_u64());
        let dims = match (
            get("head_dim"),
            get("hidden_size"),
            get("num_attention_heads"),
        ) {
            (Some(d), _, _) => d,
            (None, Some(h), Some(n)) if n > 0 && h % n == 0 => h / n,
            _ => {
                return Err("config.json: neither head_dim nor a hidden_size that num_attention_heads divides, which {arch}.rope.dimension_count is made from".replace("{arch}", f.arch));
            }
        };
        let dims = u32::try_from(dims)
            .map_err(|_| format!("config.json: head_dim {dims} is beyond u32"))?;
        out.insert(format!("{}.rope.dimension_count", f.arch), Value::U32(dims));
    }
    Ok(out)
}

/// The head count that groups a tensor's rows for llama.cpp's rotary
/// reordering, if the family reorders it: `(checkpoint pattern, heads)`
/// for each tensor the family permutes, `*` for `{bid}`, with every prefix
/// and suffix.
pub fn permute_rules(f: &Family, config: &serde_json::Value) -> Result<Vec<(String, u64)>, String> {
    let get = |k: &str| config.get(k).and_then(|v| v.as_u64());
    let mut out = Vec::new();
    for (name, heads) in f.permute {
        let n = match heads {
            Heads::Query => get("num_attention_heads"),
            Heads::KeyValue => get("num_key_value_heads").or(get("num_attention_heads")),
        }
        .filter(|&n| n > 0)
        .ok_or("config.json: num_attention_heads is not a whole number above 0")?;
        for prefix in f.prefixes {
            for (end, _) in f.suffixes {
                out.push((format!("{prefix}{}{end}", name.replace("{bid}", "*")), n));
            }
        }
    }
    Ok(out)
}

/// The source row of output row `r` of a tensor of `rows` rows reordered
/// for `heads` heads as llama.cpp's `LlamaModel.permute`: within each
/// head's `rows / heads` rows, the first half's rows and the second half's
/// interleaved (`reshape(heads, 2, d / 2, …).swapaxes(1, 2)`).
pub fn permuted_row(r: u64, rows: u64, heads: u64) -> u64 {
    let d = rows / heads;
    let (h, within) = (r / d, r % d);
    let (i, j) = (within / 2, within % 2);
    h * d + j * (d / 2) + i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::gguf::Array;

    #[test]
    fn the_rotary_order_interleaves_each_heads_halves() {
        // One head of 8 rows: 0 4 1 5 2 6 3 7 (numpy's
        // reshape(1, 2, 4).swapaxes(1, 2)); two heads repeat it per head.
        let rows: Vec<u64> = (0..8).map(|r| permuted_row(r, 8, 1)).collect();
        assert_eq!(rows, [0, 4, 1, 5, 2, 6, 3, 7]);
        let rows: Vec<u64> = (0..8).map(|r| permuted_row(r, 8, 2)).collect();
        assert_eq!(rows, [0, 2, 1, 3, 4, 6, 5, 7]);
        // A permutation: every source row once.
        let mut all: Vec<u64> = (0..96).map(|r| permuted_row(r, 96, 3)).collect();
        all.sort();
        assert_eq!(all, (0..96).collect::<Vec<_>>());
    }

    #[test]
    fn gpt2_bytes_are_256_printable_characters() {
        let chars: std::collections::BTreeSet<char> = (0..=255u8).map(gpt2_byte_char).collect();
        assert_eq!(chars.len(), 256);
        assert_eq!(gpt2_byte_char(b' '), '\u{0120}', "Ġ");
        assert_eq!(gpt2_byte_char(b'\n'), '\u{010a}', "Ċ");
        assert_eq!(gpt2_byte_char(b'a'), 'a');
        assert_eq!(gpt2_byte_char(0xad), '\u{0143}');
    }

    #[test]
    fn a_bpe_tokenizer_becomes_gpt2_tokens_types_and_merges() {
        let tokenizer = serde_json::json!({
            "added_tokens": [{"id": 0, "content": "<s>", "special": true}, {"id": 4, "content": "<tool>", "special": false}],
            "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>"}}, {"Sequence": {"id": "A"}}]},
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
            "model": {"type": "BPE", "vocab": {"<s>": 0, "a": 1, "b": 2, "ab": 3}, "merges": ["a b", ["a", "b c"]]}
        });
        let config = serde_json::json!({"vocab_size": 6, "bos_token_id": 0, "eos_token_id": 9});
        let md = bpe(&tokenizer, &config).unwrap();
        assert_eq!(
            md["tokenizer.ggml.tokens"],
            Value::Array(Array::String(
                ["<s>", "a", "b", "ab", "<tool>", "[PAD5]"]
                    .map(String::from)
                    .to_vec()
            ))
        );
        assert_eq!(
            md["tokenizer.ggml.token_type"],
            Value::Array(Array::I32(vec![3, 1, 1, 1, 4, 5]))
        );
        assert_eq!(
            md["tokenizer.ggml.merges"],
            Value::Array(Array::String(vec!["a b".into(), "a b\u{0120}c".into()]))
        );
        assert_eq!(md["tokenizer.ggml.bos_token_id"], Value::U32(0));
        assert!(
            !md.contains_key("tokenizer.ggml.eos_token_id"),
            "9 is beyond the vocabulary"
        );
        assert_eq!(md["tokenizer.ggml.add_bos_token"], Value::Bool(true));
        assert_eq!(md["tokenizer.ggml.pre"], Value::String("gpt-2".into()));
        let mut wp = tokenizer.clone();
        wp["model"]["type"] = "WordPiece".into();
        assert!(
            bpe(&wp, &config)
                .unwrap_err()
                .contains("the LLaMA family reads BPE")
        );
    }

    /// `vocab_size` is read one way by every tokenizer: absent, null or
    /// 0 leaves the tokenizer's own count; anything but a whole number is
    /// refused with the same words.
    #[test]
    fn every_tokenizer_reads_vocab_size_the_same_way() {
        use crate::formats::sentencepiece::{Model, Piece};
        let bpe_json = serde_json::json!({
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
            "model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []}
        });
        let wp_json = serde_json::json!({
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}}
        });
        let spm_model = Model {
            pieces: ["<unk>", "a"]
                .map(|p| Piece {
                    piece: p.into(),
                    ..Piece::default()
                })
                .to_vec(),
            ..Model::default()
        };
        let count = |md: BTreeMap<String, Value>| match &md["tokenizer.ggml.tokens"] {
            Value::Array(Array::String(t)) => t.len(),
            other => panic!("{other:?}"),
        };
        let all = |config: serde_json::Value| {
            [
                bpe(&bpe_json, &config).map(count),
                wordpiece(&wp_json, &config).map(count),
                sentencepiece(&spm_model, &config).map(count),
            ]
        };
        for absent in [
            serde_json::json!({}),
            serde_json::json!({"vocab_size": null}),
            serde_json::json!({"vocab_size": 0}),
        ] {
            assert_eq!(all(absent.clone()), [Ok(2), Ok(2), Ok(2)], "{absent}");
        }
        assert_eq!(
            all(serde_json::json!({"vocab_size": 3})),
            [Ok(3), Ok(3), Ok(3)]
        );
        for bad in [
            serde_json::json!("32"),
            serde_json::json!(-1),
            serde_json::json!(2.5),
        ] {
            let want = Err(format!("config.json: vocab_size is {bad}; a whole number"));
            assert_eq!(
                all(serde_json::json!({"vocab_size": bad})),
                [want.clone(), want.clone(), want]
            );
        }
    }

    #[test]
    fn a_pre_tokenizer_is_named_by_its_rule_or_refused() {
        let byte_level = |regex: serde_json::Value| {
            let mut b = serde_json::json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true});
            if !regex.is_null() {
                b["use_regex"] = regex;
            }
            b
        };
        let llama3 = |pattern: &str, behavior: &str, last: serde_json::Value| {
            serde_json::json!({"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior, "invert": false},
                last
            ]})
        };
        let pre = |p: serde_json::Value| bpe_pre(&serde_json::json!({ "pre_tokenizer": p }));
        let f = serde_json::Value::Bool(false);
        assert_eq!(pre(byte_level(true.into())), Ok("gpt-2"));
        assert_eq!(
            pre(byte_level(serde_json::Value::Null)),
            Ok("gpt-2"),
            "use_regex defaults to true"
        );
        assert_eq!(
            pre(llama3(LLAMA3_SPLIT, "Isolated", byte_level(f.clone()))),
            Ok("llama-bpe")
        );
        let refused = [
            serde_json::Value::Null,
            byte_level(f.clone()),
            serde_json::json!({"type": "ByteLevel", "add_prefix_space": true}),
            serde_json::json!({"type": "Metaspace", "replacement": "\u{2581}"}),
            llama3(
                &LLAMA3_SPLIT.replace("{1,3}", "+"),
                "Isolated",
                byte_level(f.clone()),
            ),
            llama3(LLAMA3_SPLIT, "Removed", byte_level(f.clone())),
            llama3(LLAMA3_SPLIT, "Isolated", byte_level(true.into())),
        ];
        for p in refused {
            let e = pre(p.clone()).unwrap_err();
            assert!(
                e.contains("is not one llama.cpp has a rule for (kiln knows gpt-2, llama-bpe"),
                "{p}: {e}"
            );
        }
    }

    #[test]
    fn a_bert_tokenizer_becomes_llama_cpps_phantom_space_vocabulary() {
        let tokenizer = serde_json::json!({
            "added_tokens": [
                {"id": 0, "content": "[PAD]", "special": true},
                {"id": 1, "content": "[UNK]", "special": true},
                {"id": 2, "content": "[CLS]", "special": true},
                {"id": 3, "content": "[SEP]", "special": true},
                {"id": 4, "content": "[MASK]", "special": true}
            ],
            "post_processor": {"type": "TemplateProcessing", "single": [
                {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "[SEP]", "type_id": 0}}
            ]},
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {
                "[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4, "hello": 5, "##lo": 6
            }}
        });
        let config = serde_json::json!({"vocab_size": 8, "pad_token_id": 0});
        let md = wordpiece(&tokenizer, &config).unwrap();
        assert_eq!(
            md["tokenizer.ggml.tokens"],
            Value::Array(Array::String(
                [
                    "[PAD]",
                    "[UNK]",
                    "[CLS]",
                    "[SEP]",
                    "[MASK]",
                    "\u{2581}hello",
                    "lo",
                    "[PAD7]"
                ]
                .map(String::from)
                .to_vec()
            ))
        );
        assert_eq!(
            md["tokenizer.ggml.token_type"],
            Value::Array(Array::I32(vec![3, 3, 3, 3, 3, 1, 1, 5]))
        );
        assert_eq!(md["tokenizer.ggml.bos_token_id"], Value::U32(2));
        assert_eq!(md["tokenizer.ggml.seperator_token_id"], Value::U32(3));
        assert_eq!(md["tokenizer.ggml.unknown_token_id"], Value::U32(1));
        assert_eq!(md["tokenizer.ggml.padding_token_id"], Value::U32(0));
        assert_eq!(md["tokenizer.ggml.mask_token_id"], Value::U32(4));
        assert_eq!(md["tokenizer.ggml.model"], Value::String("bert".into()));
        // What it refuses, by key.
        let mut bpe = tokenizer.clone();
        bpe["model"]["type"] = "BPE".into();
        assert!(
            wordpiece(&bpe, &config)
                .unwrap_err()
                .contains("model.type is Some(\"BPE\")")
        );
        let mut twice = tokenizer.clone();
        twice["model"]["vocab"]["again"] = 5.into();
        assert!(
            wordpiece(&twice, &config)
                .unwrap_err()
                .contains("share the id 5")
        );
        let mut beyond = tokenizer.clone();
        beyond["model"]["vocab"]["far"] = 99.into();
        assert!(
            wordpiece(&beyond, &config)
                .unwrap_err()
                .contains("has id 99")
        );
    }

    #[test]
    fn bert_hyper_parameters_come_from_the_config_by_their_keys() {
        let config = serde_json::json!({
            "model_type": "bert", "hidden_size": 384, "intermediate_size": 1536,
            "num_hidden_layers": 6, "num_attention_heads": 12, "layer_norm_eps": 1e-12,
            "max_position_embeddings": 512, "type_vocab_size": 2
        });
        let f = family(&config).unwrap();
        let md = hparams(f, &config, Some(1)).unwrap();
        let keys: Vec<&str> = md.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "bert.attention.causal",
                "bert.attention.head_count",
                "bert.attention.layer_norm_epsilon",
                "bert.block_count",
                "bert.context_length",
                "bert.embedding_length",
                "bert.feed_forward_length",
                "bert.pooling_type",
                "tokenizer.ggml.token_type_count"
            ]
        );
        assert_eq!(md["bert.attention.layer_norm_epsilon"], Value::F32(1e-12));
        assert_eq!(md["bert.attention.causal"], Value::Bool(false));
        let mut no_layers = config.clone();
        no_layers
            .as_object_mut()
            .unwrap()
            .remove("num_hidden_layers");
        assert!(
            hparams(f, &no_layers, None)
                .unwrap_err()
                .contains("bert.block_count is read from")
        );
        let mut negative = config.clone();
        negative["hidden_size"] = (-1).into();
        assert!(
            hparams(f, &negative, None)
                .unwrap_err()
                .contains("hidden_size is -1")
        );
        let llama = serde_json::json!({"model_type": "gpt_oss"});
        assert!(
            family(&llama)
                .unwrap_err()
                .contains("not a family kiln converts")
        );
        // Every rule names a GGUF tensor the converter's F32 list and the
        // names llama.cpp loads agree on: the token types stay F32.
        let (rename, skip) = name_rules(f);
        assert!(rename.contains(&(
            "bert.embeddings.LayerNorm.gamma".into(),
            "token_embd_norm.weight".into()
        )));
        assert!(rename.contains(&(
            "encoder.layer.*.output.dense.bias".into(),
            "blk.*.ffn_down.bias".into()
        )));
        assert!(skip.contains(&"bert.pooler.dense.*".to_string()));
        assert!(keeps_f32("token_types.weight", 2));
    }

    #[test]
    fn the_tensors_the_converter_keeps_in_f32() {
        // BERT's embeddings that crashed llama.cpp as F16 (issue 27).
        assert!(keeps_f32("token_types.weight", 2));
        assert!(keeps_f32("position_embd.weight", 2));
        assert!(keeps_f32("blk.11.ffn_gate_inp.weight", 2));
        assert!(keeps_f32("blk.0.attn_output_norm.weight", 2));
        assert!(keeps_f32("blk.0.attn_q.bias", 2), "not a .weight");
        assert!(keeps_f32("blk.0.attn_q.weight", 1), "one dimension");
        assert!(keeps_f32("blk.0.attn_q.weight", 0));
        assert!(!keeps_f32("blk.0.attn_q.weight", 2));
        assert!(!keeps_f32("token_embd.weight", 2));
        assert!(!keeps_f32("blk.0.lora.lora_a", 2));
        // `{bid}` is a number, nothing else.
        assert!(!keeps_f32("blk.x.ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("blk..ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("blk.1.2.ffn_gate_inp.weight", 2));
        assert!(!keeps_f32("x.position_embd.weight", 2));
    }
}
