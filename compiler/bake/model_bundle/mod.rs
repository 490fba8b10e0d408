//! safetensors checkpoints into GGUF: which tensors go into which file,
//! under what name, as what type, with what metadata. Pure: headers in,
//! plans out; the pipeline streams the bytes through [`tensor_convert`].
//!
//! Two profiles:
//! - `motionbricks-g1`, the MotionBricks GGUF bundle v1 exactly as
//!   ../shared/specs/motionbricks.md gives it (docs/formats/motionbricks.md):
//!   four components from four extraction files, tensors selected and
//!   renamed by the component table, sorted by name, every float F32 and
//!   every integer I32, the metadata keys in their order and types, and
//!   the bundle's `manifest.json`;
//! - `generic`: one GGUF of every tensor (or those a filter keeps), under a
//!   type policy, with the metadata the manifest gives.
//!
//! [`tensor_convert`]: super::tensor_convert

use sha2::{Digest, Sha256};

use super::llama_cpp;
use crate::formats::gguf::{self, TensorDesc, TensorType, Value};
use crate::formats::safetensors::Dtype;
use crate::memory;

// The identity every MotionBricks file carries lives with the formats
// (`.mbstyle` needs it too); re-exported here, where the bundle uses it.
pub use crate::formats::motionbricks::{
    ALIGNMENT, ARCHITECTURE, BUNDLE_FORMAT, BUNDLE_NAME, G1_JOINTS, SAFE_MANIFEST_FORMAT, SKELETON,
    UPSTREAM_REVISION, common_metadata, kv,
};

mod generic;
mod motionbricks;
mod rename;
mod runtime;

pub use generic::{GENERIC_KEYS, Generic, TypePolicy, generic};
pub use motionbricks::{ComponentEntry, bundle_manifest, motionbricks_component};
pub use rename::{MAX_RENAMED_NAME_BYTES, captures, check_template, wildcard};
pub use runtime::{anchors, pin_problem, runtime_problems, support_value_problems};

/// A component of the bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Pose,
    Root,
    VqDecoder,
    Support,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Pose, Role::Root, Role::VqDecoder, Role::Support];

    /// The component's name (`motionbricks.component`, the manifest key).
    pub fn name(self) -> &'static str {
        match self {
            Role::Pose => "pose",
            Role::Root => "root",
            Role::VqDecoder => "vq-decoder",
            Role::Support => "support",
        }
    }

    /// The output file.
    pub fn file(self) -> &'static str {
        match self {
            Role::Pose => "pose.gguf",
            Role::Root => "root.gguf",
            Role::VqDecoder => "vq-decoder.gguf",
            Role::Support => "support.gguf",
        }
    }

    /// The extraction file it is made from.
    pub fn source(self) -> &'static str {
        match self {
            Role::Pose => "pose",
            Role::Root => "root",
            Role::VqDecoder => "vqvae",
            Role::Support => "support",
        }
    }

    /// The official extraction's SHA-256 of that file (the runtime's pin).
    pub fn pin(self) -> &'static str {
        match self {
            Role::Pose => "01327768be7413111dc927947a95cfb3e9ee7c52acfa35a054e8c2f3b838b888",
            Role::Root => "d1529a8c9da915cb7dd0499272baba61db480660c0aae92b67fbe69828e83c5a",
            Role::VqDecoder => "544782e605ed96d60bf999243ef8f44640ea021a5655ef20af2d2853c3e18b5b",
            Role::Support => "229b764411652b2ab0f824481d6daf897f701a97223029759444fc5bc241ea22",
        }
    }

    /// (tensors, values) the component must have.
    pub fn table(self) -> (usize, u64) {
        match self {
            Role::Pose => (209, 136_588_272),
            Role::Root => (150, 34_122_833),
            Role::VqDecoder => (51, 12_437_277),
            Role::Support => (4, 972),
        }
    }

    /// Whether the component keeps `name`, and its name with the prefix
    /// stripped.
    fn select(self, name: &str) -> Option<&str> {
        match self {
            Role::Pose => name
                .strip_prefix("backbone_net.")
                .filter(|_| name != "backbone_net.initted"),
            Role::Root => name.strip_prefix("backbone_net."),
            Role::VqDecoder => {
                if name.starts_with("pose_net.decoder.")
                    || name == "pose_net.quantizer.vq._codebook.embed"
                {
                    name.strip_prefix("pose_net.")
                } else {
                    None
                }
            }
            Role::Support => Some(name),
        }
    }
}

/// One tensor of a GGUF to write: where its bytes come from and what they
/// become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedTensor {
    /// The name in the GGUF.
    pub name: String,
    /// The source tensor's name.
    pub source: String,
    pub from: Dtype,
    pub to: TensorType,
    /// GGML order.
    pub dims: Vec<u64>,
    pub elements: u64,
    /// The source bytes, relative to the source's data start.
    pub begin: u64,
    pub end: u64,
    /// `Some(heads)`: the rows (the source's first dimension) are written
    /// in llama.cpp's rotary order for that many heads
    /// ([`llama_cpp::permuted_row`]); `None`: in order.
    pub row_heads: Option<u64>,
}

impl PlannedTensor {
    /// The source byte ranges, relative to the data start, in the order
    /// the GGUF takes them: the whole tensor, or row by row.
    pub fn segments(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let rows = match self.row_heads {
            Some(_) => self.dims.last().copied().unwrap_or(1).max(1),
            None => 1,
        };
        let row_bytes = (self.end - self.begin) / rows;
        (0..rows).map(move |r| {
            let src = self
                .row_heads
                .map_or(r, |h| llama_cpp::permuted_row(r, rows, h));
            (self.begin + src * row_bytes, row_bytes)
        })
    }
}

/// A GGUF to write: its metadata and tensors, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedFile {
    pub metadata: Vec<(String, Value)>,
    pub tensors: Vec<PlannedTensor>,
}

impl PlannedFile {
    pub fn descs(&self) -> Vec<TensorDesc<'_>> {
        self.tensors
            .iter()
            .map(|t| TensorDesc {
                name: &t.name,
                dims: &t.dims,
                ty: t.to,
            })
            .collect()
    }

    pub fn parameter_count(&self) -> u64 {
        self.tensors.iter().map(|t| t.elements).sum()
    }
}

/// Why a conversion cannot be planned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(
        "component {component}: {found_tensors} tensors with {found_values} values selected; the bundle needs {tensors} tensors with {values} values"
    )]
    Table {
        component: &'static str,
        tensors: usize,
        values: u64,
        found_tensors: usize,
        found_values: u64,
    },
    #[error(
        "tensor {name:?} has {n} dimensions; GGUF allows at most {}",
        gguf::MAX_DIMS
    )]
    TooManyDims { name: String, n: usize },
    #[error("tensors {first:?} and {second:?} both become {name:?} in the GGUF")]
    Collision {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "tensor name {name:?} is {len} bytes; GGUF allows at most 63 (set `compact_names: true` to shorten such names as the MotionBricks rules do)"
    )]
    NameTooLong { name: String, len: usize },
    #[error("the filter keeps no tensor of the {n} in the checkpoint")]
    NothingKept { n: usize },
    #[error("metadata key {key:?} is written by kiln; leave it out")]
    ReservedKey { key: String },
    #[error(
        "tensor {name:?} is not in {table}; llama.cpp would not load it (use `profile: generic` with `rename` for a checkpoint of other names)"
    )]
    UnknownTensor { name: String, table: &'static str },
    #[error(
        "tensor {name:?} has {rows} rows, which {heads} heads of an even size do not divide (config.json's head counts do not fit the checkpoint)"
    )]
    Heads { name: String, rows: u64, heads: u64 },
    #[error("{key}: {pattern:?} matches no tensor of the checkpoint")]
    Unmatched { key: &'static str, pattern: String },
    #[error(
        "rename: {from:?} -> {to:?}: the new name must hold as many `*` as the pattern (each is what the pattern's `*` matched, in order)"
    )]
    Template { from: String, to: String },
    #[error(
        "rename: tensor {name:?} matches both {first:?} and {second:?}, as specific as each other; make one of them narrower"
    )]
    RenameConflict {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "rename: {pattern:?} matches a tensor name of {len} bytes; kiln renames names of at most {MAX_RENAMED_NAME_BYTES}"
    )]
    RenameTooLong { len: usize, pattern: String },
    #[error(
        "types: tensor {name:?} matches both {first:?} and {second:?}, which name different types"
    )]
    TypeConflict {
        name: String,
        first: String,
        second: String,
    },
    #[error(
        "types: {pattern:?} gives the integer tensor {name:?} ({dtype}) a float type; integer tensors keep their type (write `keep`, or narrow the pattern)"
    )]
    IntegerType {
        name: String,
        dtype: Dtype,
        pattern: String,
    },
    #[error(
        "types: {pattern:?} makes {name:?} a block type (Q8_0, Q4_0), but its rows of {ne0} elements are not whole blocks of 32; give it f16, bf16 or f32"
    )]
    Blocks {
        name: String,
        ne0: u64,
        pattern: String,
    },
    #[error(
        "the {what} needs {bytes} bytes of memory, which could not be had: give kiln more memory"
    )]
    NoMemory { what: &'static str, bytes: u64 },
}

/// Shortens a name of 64 bytes or more by the MotionBricks rules: each
/// replacement in order, every occurrence; if still too long, its first 48
/// bytes, `.`, and 12 hex digits of the SHA-256 of the original name.
pub fn compact_name(name: &str) -> String {
    if name.len() < gguf::MAX_NAME_BYTES {
        return name.to_string();
    }
    const RULES: [(&str, &str); 8] = [
        ("_root_token_transformer_encoder.layers.", "root.l."),
        ("_shared_transformer_encoder.layers.", "shared.l."),
        ("_transformer_encoder.layers.", "transformer.l."),
        ("self_attn.", "attn."),
        ("in_proj_weight", "qkv.weight"),
        ("in_proj_bias", "qkv.bias"),
        ("external_cond_blocks.", "xcond."),
        ("target_cond_blocks.", "tcond."),
    ];
    let mut short = name.to_string();
    for (from, to) in RULES {
        short = short.replace(from, to);
    }
    if short.len() < gguf::MAX_NAME_BYTES {
        return short;
    }
    let hash = Sha256::digest(name.as_bytes());
    let mut head = 48;
    while !short.is_char_boundary(head) {
        head -= 1;
    }
    format!("{}.{}", &short[..head], &crate::formats::hex(&hash[..6]))
}

/// GGML dimensions: reversed, a 0-d scalar as \[1\].
fn ggml_dims(name: &str, shape: &[u64]) -> Result<Vec<u64>, Error> {
    if shape.len() > gguf::MAX_DIMS {
        return Err(Error::TooManyDims {
            name: name.to_string(),
            n: shape.len(),
        });
    }
    if shape.is_empty() {
        return Ok(vec![1]);
    }
    Ok(shape.iter().rev().copied().collect())
}

/// MotionBricks' type rule: floats to F32, integers and booleans to I32.
fn motionbricks_type(dtype: Dtype) -> TensorType {
    if dtype.is_float() {
        TensorType::F32
    } else {
        TensorType::I32
    }
}

/// Checks names unique after compaction: the first tensor (in order)
/// whose name an earlier one has is the error, found by sorting (no map
/// of every name).
fn check_collisions(tensors: &[PlannedTensor]) -> Result<(), Error> {
    let mut order: Vec<u32> =
        memory::with_capacity(tensors.len()).map_err(|e| Error::NoMemory {
            what: "tensor table",
            bytes: e.bytes,
        })?;
    order.extend(0..tensors.len() as u32);
    let name = |i: u32| tensors[i as usize].name.as_str();
    order.sort_unstable_by(|&a, &b| (name(a), a).cmp(&(name(b), b)));
    let later = order
        .windows(2)
        .filter(|w| name(w[0]) == name(w[1]))
        .map(|w| w[1])
        .min();
    let Some(later) = later else {
        return Ok(());
    };
    let first = order
        .iter()
        .find(|&&i| name(i) == name(later))
        .expect("the name is in the table");
    let (t, f) = (&tensors[later as usize], &tensors[*first as usize]);
    Err(Error::Collision {
        name: t.name.clone(),
        first: f.source.clone(),
        second: t.source.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::motionbricks::select_component;
    use super::*;
    use crate::formats::safetensors;
    use std::collections::BTreeMap;

    #[test]
    fn compaction_follows_the_rules_in_order() {
        let long = "_root_token_transformer_model.layers.0.self_attn.out_proj.weight";
        assert_eq!(long.len(), 64);
        assert_eq!(
            compact_name(long),
            "_root_token_transformer_model.layers.0.attn.out_proj.weight"
        );
        let short = "_transformer_model.layers.10.self_attn.in_proj_weight";
        assert_eq!(compact_name(short), short, "under 64 bytes: kept");
        let encoder = "a_longer_prefix_here._transformer_encoder.layers.3.self_attn.in_proj_bias";
        assert!(encoder.len() >= 64);
        assert_eq!(
            compact_name(encoder),
            "a_longer_prefix_here.transformer.l.3.attn.qkv.bias"
        );
        let hopeless = "x".repeat(80);
        let c = compact_name(&hopeless);
        assert_eq!(c.len(), 48 + 1 + 12);
        assert!(c.starts_with(&"x".repeat(48)));
        let hash = Sha256::digest(hopeless.as_bytes());
        assert!(c.ends_with(&crate::formats::hex(&hash[..6])));
    }

    #[test]
    fn names_that_compact_to_one_are_an_error_naming_both() {
        let t = |name: &'static str, begin| safetensors::Tensor {
            name,
            dtype: Dtype::F32,
            shape: &[1],
            begin,
            end: begin + 4,
            entry_at: 0,
        };
        // 65 bytes with `self_attn.`, 60 once it is `attn.`: the same as
        // the second name, which is short enough to keep.
        let prefix = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
        let a = t(format!("{prefix}self_attn.out_proj.weight").leak(), 0);
        let c = t(format!("{prefix}attn.out_proj.weight").leak(), 4);
        assert!(a.name.len() >= 64 && c.name.len() < 64);
        let settings = Generic {
            architecture: "t".into(),
            metadata: BTreeMap::new(),
            policy: TypePolicy::Keep,
            compact_names: true,
            keep: vec![],
            drop: vec![],
            rename: vec![],
            types: vec![],
            permute: vec![],
            table: None,
        };
        let tensors = [(0, a), (0, c)];
        let e = generic(&tensors, &settings).unwrap_err();
        assert_eq!(
            e,
            Error::Collision {
                name: compact_name(a.name),
                first: c.name.to_string(),
                second: a.name.to_string(),
            },
            "{e}"
        );
        let no_compact = Generic {
            compact_names: false,
            ..settings
        };
        assert!(matches!(
            generic(&tensors, &no_compact),
            Err(Error::NameTooLong { .. })
        ));
    }

    fn header(tensors: &[(&str, Dtype, &[u64])]) -> safetensors::Header {
        let mut at = 0;
        let list: Vec<safetensors::Tensor> = tensors
            .iter()
            .map(|&(name, dtype, shape)| {
                let bytes = shape.iter().product::<u64>() * dtype.size();
                let t = safetensors::Tensor {
                    name,
                    dtype,
                    shape,
                    begin: at,
                    end: at + bytes,
                    entry_at: 0,
                };
                at += bytes;
                t
            })
            .collect();
        safetensors::Header::of(8, None, &list)
    }

    #[test]
    fn a_component_selects_strips_sorts_and_converts_as_the_spec_says() {
        let h = header(&[
            ("backbone_net.layers.2.w", Dtype::F64, &[2, 3]),
            ("backbone_net.layers.10.w", Dtype::BF16, &[4]),
            ("backbone_net.initted", Dtype::Bool, &[1]),
            ("backbone_net.count", Dtype::I64, &[]),
            ("backbone_net.flag", Dtype::Bool, &[2]),
            ("other.thing", Dtype::F32, &[1]),
        ]);
        let pose = select_component(Role::Pose, &h, &"0".repeat(64)).unwrap();
        let got: Vec<(&str, TensorType, Vec<u64>)> = pose
            .tensors
            .iter()
            .map(|t| (t.name.as_str(), t.to, t.dims.clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("count", TensorType::I32, vec![1]),
                ("flag", TensorType::I32, vec![2]),
                ("layers.10.w", TensorType::F32, vec![4]),
                ("layers.2.w", TensorType::F32, vec![3, 2]),
            ],
            "initted and other.* dropped; byte order; reversed dims; a 0-d scalar as [1]"
        );
        assert_eq!(pose.parameter_count(), 1 + 2 + 4 + 6);
        let keys: Vec<&str> = pose.metadata.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys.len(), 10);
        assert_eq!(pose.metadata[9].1, Value::U64(13));
        // Root keeps `initted`; the table check names both counts.
        let root = select_component(Role::Root, &h, &"0".repeat(64)).unwrap();
        assert_eq!(root.tensors.len(), 5);
        let e = motionbricks_component(Role::Root, &h, &"0".repeat(64)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "component root: 5 tensors with 14 values selected; the bundle needs 150 tensors with 34122833 values"
        );
        // The vq-decoder keeps the decoder and the codebook embedding only.
        let v = header(&[
            ("pose_net.decoder.a", Dtype::F32, &[1]),
            ("pose_net.encoder.a", Dtype::F32, &[1]),
            ("pose_net.quantizer.vq._codebook.embed", Dtype::F32, &[1]),
            (
                "pose_net.quantizer.vq._codebook.embed_avg",
                Dtype::F32,
                &[1],
            ),
            (
                "pose_net.quantizer.vq._codebook.cluster_size",
                Dtype::F32,
                &[1],
            ),
        ]);
        let vq = select_component(Role::VqDecoder, &v, &"0".repeat(64)).unwrap();
        let names: Vec<&str> = vq.tensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["decoder.a", "quantizer.vq._codebook.embed"]);
        // Five dimensions are refused.
        let deep = header(&[("x", Dtype::F32, &[1, 1, 1, 1, 1])]);
        assert!(matches!(
            select_component(Role::Support, &deep, &"0".repeat(64)),
            Err(Error::TooManyDims { n: 5, .. })
        ));
    }

    #[test]
    fn the_manifest_is_pythons_json_dumps() {
        let c = |role, n, t| ComponentEntry {
            role,
            parameter_count: n,
            sha256: "ab".repeat(32),
            tensor_count: t,
        };
        let text = bundle_manifest(
            &[
                c(Role::Pose, 10, 2),
                c(Role::Root, 20, 3),
                c(Role::VqDecoder, 30, 4),
                c(Role::Support, 972, 4),
            ],
            &"cd".repeat(32),
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["inference_parameter_count"], 60);
        assert_eq!(v["components"]["vq-decoder"]["path"], "vq-decoder.gguf");
        assert!(text.ends_with("}\n"));
        // Keys sorted: pose, root, support, vq-decoder.
        let order: Vec<usize> = ["\"pose\"", "\"root\"", "\"support\"", "\"vq-decoder\""]
            .iter()
            .map(|k| text.find(k).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn the_policies_keep_integers_and_small_tensors_f32() {
        use TypePolicy::{BF16, F16, F32, Keep, Q4_0, Q8_0};
        let w = "blk.0.attn_q.weight";
        let (tt, norm) = ("token_types.weight", "blk.3.attn_output_norm.weight");
        // (policy, dtype, rank, GGUF name, ne0) -> type.
        let cases = [
            (F16, Dtype::F32, 2, w, 32, TensorType::F16),
            (F16, Dtype::F32, 1, w, 32, TensorType::F32),
            (BF16, Dtype::F64, 0, w, 1, TensorType::F32),
            (F32, Dtype::I64, 2, w, 32, TensorType::I64),
            (Keep, Dtype::BF16, 2, w, 32, TensorType::BF16),
            (Keep, Dtype::U8, 1, w, 32, TensorType::I16),
            (Keep, Dtype::Bool, 1, w, 32, TensorType::I8),
            // llama.cpp's F32 tensors (the BERT token types crashed it as F16).
            (F16, Dtype::F32, 2, tt, 384, TensorType::F32),
            (
                BF16,
                Dtype::F32,
                2,
                "position_embd.weight",
                384,
                TensorType::F32,
            ),
            (Q8_0, Dtype::F16, 2, norm, 384, TensorType::F32),
            (Q4_0, Dtype::F32, 2, tt, 384, TensorType::F32),
            (Keep, Dtype::F16, 2, tt, 384, TensorType::F16),
            // Block types need whole blocks of 32; otherwise F16, as llama.cpp.
            (Q8_0, Dtype::F32, 2, w, 384, TensorType::Q8_0),
            (Q8_0, Dtype::F32, 2, w, 30, TensorType::F16),
            (Q4_0, Dtype::F32, 2, w, 384, TensorType::Q4_0),
            (Q4_0, Dtype::F32, 2, w, 30, TensorType::F16),
        ];
        for (policy, dtype, rank, name, ne0, want) in cases {
            assert_eq!(
                policy.target(dtype, rank, name, ne0),
                want,
                "{policy:?} {dtype} rank {rank} {name} ne0 {ne0}"
            );
        }
        assert_eq!(Q8_0.file_type(), Some(7));
        assert_eq!(Q4_0.file_type(), Some(2));
    }

    fn tensor(
        name: &'static str,
        dtype: Dtype,
        shape: &'static [u64],
    ) -> (usize, safetensors::Tensor<'static>) {
        let bytes = shape.iter().product::<u64>() * dtype.size();
        (
            0,
            safetensors::Tensor {
                name,
                dtype,
                shape,
                begin: 0,
                end: bytes,
                entry_at: 0,
            },
        )
    }

    fn settings() -> Generic {
        Generic {
            architecture: "bert".into(),
            metadata: BTreeMap::new(),
            policy: TypePolicy::F16,
            compact_names: false,
            keep: vec![],
            drop: vec![],
            rename: vec![],
            types: vec![],
            permute: vec![],
            table: None,
        }
    }

    fn bert() -> Vec<(usize, safetensors::Tensor<'static>)> {
        vec![
            tensor(
                "embeddings.token_type_embeddings.weight",
                Dtype::F32,
                &[2, 384],
            ),
            tensor(
                "embeddings.word_embeddings.weight",
                Dtype::F32,
                &[30522, 384],
            ),
            tensor(
                "encoder.layer.0.attention.self.query.weight",
                Dtype::F32,
                &[384, 384],
            ),
            tensor(
                "encoder.layer.11.attention.self.query.weight",
                Dtype::F32,
                &[384, 384],
            ),
            tensor(
                "encoder.layer.0.attention.self.query.bias",
                Dtype::F32,
                &[384],
            ),
            tensor("embeddings.position_ids", Dtype::I64, &[1, 512]),
            tensor("pooler.dense.weight", Dtype::F32, &[384, 384]),
        ]
    }

    #[test]
    fn rename_drop_and_types_make_the_names_and_types_a_runtime_wants() {
        let mut s = settings();
        s.drop = vec!["pooler.*".into(), "embeddings.position_ids".into()];
        s.rename = vec![
            (
                "embeddings.token_type_embeddings.weight".into(),
                "token_types.weight".into(),
            ),
            (
                "embeddings.word_embeddings.weight".into(),
                "token_embd.weight".into(),
            ),
            (
                "encoder.layer.*.attention.self.query.*".into(),
                "blk.*.attn_q.*".into(),
            ),
        ];
        s.types = vec![("blk.11.*".into(), TypePolicy::Q8_0)];
        let (plan, shards) = generic(&bert(), &s).unwrap();
        let got: Vec<(&str, TensorType, &str)> = plan
            .tensors
            .iter()
            .map(|t| (t.name.as_str(), t.to, t.source.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "blk.0.attn_q.bias",
                    TensorType::F32,
                    "encoder.layer.0.attention.self.query.bias"
                ),
                (
                    "blk.0.attn_q.weight",
                    TensorType::F16,
                    "encoder.layer.0.attention.self.query.weight"
                ),
                (
                    "blk.11.attn_q.weight",
                    TensorType::Q8_0,
                    "encoder.layer.11.attention.self.query.weight"
                ),
                (
                    "token_embd.weight",
                    TensorType::F16,
                    "embeddings.word_embeddings.weight"
                ),
                (
                    "token_types.weight",
                    TensorType::F32,
                    "embeddings.token_type_embeddings.weight"
                ),
            ]
        );
        assert_eq!(shards.len(), 5);
    }

    #[test]
    fn every_refusal_names_its_key_and_pattern() {
        let refuse = |edit: &dyn Fn(&mut Generic)| {
            let mut s = settings();
            edit(&mut s);
            generic(&bert(), &s).unwrap_err().to_string()
        };
        assert_eq!(
            refuse(&|s| s.drop = vec!["nothing.*".into()]),
            "drop: \"nothing.*\" matches no tensor of the checkpoint"
        );
        assert!(
            refuse(&|s| s.rename = vec![("missing".into(), "x".into())])
                .starts_with("rename: \"missing\" matches no tensor")
        );
        assert!(
            refuse(&|s| s.rename = vec![("encoder.*".into(), "x".into())]).contains("as many `*`")
        );
        let both = refuse(&|s| {
            s.rename = vec![
                ("encoder*".into(), "a*".into()),
                ("*.weight".into(), "b*".into()),
            ]
        });
        assert!(
            both.contains("matches both \"encoder*\" and \"*.weight\", as specific"),
            "{both}"
        );
        // The more specific of two overlapping patterns wins.
        let mut s = settings();
        s.drop = vec!["pooler.*".into(), "embeddings.*".into()];
        s.rename = vec![
            ("encoder.layer.*.query.*".into(), "q.*.*".into()),
            (
                "encoder.layer.*.attention.self.query.*".into(),
                "blk.*.attn_q.*".into(),
            ),
        ];
        let (plan, _) = generic(&bert(), &s).unwrap();
        let names: Vec<&str> = plan.tensors.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "blk.0.attn_q.bias",
                "blk.0.attn_q.weight",
                "blk.11.attn_q.weight"
            ]
        );
        let collide = refuse(&|s| {
            s.rename = vec![
                (
                    "embeddings.word_embeddings.weight".into(),
                    "x.weight".into(),
                ),
                ("pooler.dense.weight".into(), "x.weight".into()),
            ]
        });
        assert!(collide.contains("both become \"x.weight\""), "{collide}");
        assert!(
            refuse(&|s| s.types = vec![("nope".into(), TypePolicy::F32)])
                .starts_with("types: \"nope\" matches no tensor")
        );
        let int = refuse(&|s| s.types = vec![("embeddings.position_ids".into(), TypePolicy::F16)]);
        assert!(
            int.contains("integer tensor") && int.contains("I64"),
            "{int}"
        );
        let conflict = refuse(&|s| {
            s.types = vec![
                ("*.weight".into(), TypePolicy::F32),
                ("pooler.*".into(), TypePolicy::BF16),
            ]
        });
        assert!(
            conflict.contains("which name different types"),
            "{conflict}"
        );
        assert!(refuse(&|s| s.drop = vec!["*".into()]).starts_with("the filter keeps no tensor"));
        // Q8_0 named for a row that is not whole blocks.
        let mut odd = bert();
        odd.push(tensor("odd.weight", Dtype::F32, &[4, 30]));
        let mut s = settings();
        s.types = vec![("odd.weight".into(), TypePolicy::Q8_0)];
        let e = generic(&odd, &s).unwrap_err().to_string();
        assert!(
            e.contains("rows of 30 elements are not whole blocks of 32"),
            "{e}"
        );
    }

    #[test]
    fn captures_are_the_shortest_runs_that_let_the_rest_match() {
        assert_eq!(captures("a.*.b", "a.12.b"), Some(vec!["12"]));
        assert_eq!(captures("*.*", "x.y.z"), Some(vec!["x", "y.z"]));
        assert_eq!(captures("*", ""), Some(vec![""]));
        assert_eq!(captures("a*", "b"), None);
        assert_eq!(
            captures("l.*.w*", "l.3.w.weight"),
            Some(vec!["3", ".weight"])
        );
        // Agrees with `wildcard` on every pair of a small alphabet.
        let words = [
            "", "a", "b", "ab", "ba", "aab", "abab", "a.b", "*", "a*", "*b", "*a*", "a*b*", "**",
        ];
        for p in words {
            for n in words.iter().filter(|n| !n.contains('*')) {
                assert_eq!(captures(p, n).is_some(), wildcard(p, n), "{p:?} {n:?}");
                if let Some(c) = captures(p, n) {
                    // Putting the captures back gives the name.
                    let mut parts = c.into_iter();
                    let rebuilt: String = p
                        .split('*')
                        .enumerate()
                        .map(|(i, piece)| {
                            if i == 0 {
                                piece.to_string()
                            } else {
                                format!("{}{piece}", parts.next().unwrap())
                            }
                        })
                        .collect();
                    assert_eq!(&rebuilt, n, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn wildcards_match_dots_too() {
        assert!(wildcard("encoder.*", "encoder.layer.0.weight"));
        assert!(wildcard("*.bias", "a.b.bias"));
        assert!(!wildcard("*.bias", "a.b.weight"));
        assert!(wildcard("exact", "exact"));
        assert!(!wildcard("exact", "exactly"));
    }

    #[test]
    fn the_skeleton_is_a_tree_in_index_order() {
        for (i, (_, parent)) in G1_JOINTS.iter().enumerate() {
            assert!(*parent < i as i32, "joint {i}");
        }
        assert_eq!(G1_JOINTS[0].1, -1);
    }

    /// Every runtime problem names the byte it is about: the entry, the
    /// tensor description, the value, or where a missing one would be.
    #[test]
    fn runtime_problems_name_their_bytes() {
        let mut metadata = crate::formats::motionbricks::common_metadata(
            "support",
            BUNDLE_NAME,
            &"a".repeat(64),
            3 * 34 + 34 + 418,
        );
        metadata[6].1 = Value::String("smpl".into()); // skeleton
        metadata.push(kv("motionbricks.joint_names", Value::String("a,a".into())));
        let desc = |name: &'static str, dims: &'static [u64], ty| TensorDesc { name, dims, ty };
        // Three tensors, not four: motion_std missing, joint_parents of
        // the wrong shape.
        let tensors = [
            desc("joint_parents", &[33], TensorType::I32),
            desc("motion_mean", &[418], TensorType::F32),
            desc("neutral_joints", &[3, 34], TensorType::F32),
        ];
        let (_, h) = gguf::encode_header(&metadata, &tensors).unwrap();
        let problems: Vec<String> = runtime_problems(Role::Support, &h)
            .iter()
            .map(ToString::to_string)
            .collect();
        let expected = [
            format!(
                "at byte {}: metadata motionbricks.skeleton: is \"smpl\"",
                h.metadata_at(6)
            ),
            format!(
                "at byte {}: metadata motionbricks.parameter_count: is 554",
                h.metadata_at(9)
            ),
            "at byte 8: 3 tensors; the runtime needs 4".into(),
            format!(
                "at byte {}: tensor joint_parents has shape [33]",
                h.tensor_info_at(0)
            ),
            format!(
                "at byte {}: tensor motion_std is missing",
                h.tensor_info_at(3)
            ),
            format!(
                "at byte {}: metadata motionbricks.joint_names holds 2 names (1 unique)",
                h.metadata_at(10)
            ),
        ];
        assert_eq!(problems.len(), expected.len(), "{problems:#?}");
        for (p, e) in problems.iter().zip(&expected) {
            assert!(p.starts_with(e.as_str()), "{p:?} is not {e:?}");
        }

        // Values: at their bytes in the file.
        let mut data = vec![0u8; h.data_bytes as usize];
        let nan_at = h.tensor_at(1).unwrap().offset as usize + 4 * 7;
        data[nan_at..nan_at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let problems: Vec<String> = support_value_problems(&h, &data)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            problems,
            [
                format!(
                    "at byte {}: joint_parents[0] is 0; the runtime needs -1",
                    h.data_start
                ),
                format!(
                    "at byte {}: motion_mean[7] is NaN, not finite",
                    h.data_start + nan_at as u64
                ),
            ]
        );
    }
}
