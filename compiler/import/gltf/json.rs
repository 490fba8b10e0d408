//! The subset of the glTF 2.0 JSON that kiln reads, as plain serde structs.
//!
//! Unknown keys are tolerated (glTF allows `extras` and extensions
//! anywhere). Each element of a top-level array is deserialized on its own
//! so an error names it (`accessors[5]: missing field `count``). Only the
//! shape of the JSON is checked here; indices and ranges are checked where
//! they are used.
//!
//! Rejects: text that is not a JSON object, `asset.version` other than 2.x,
//! `asset.minVersion` above 2.0, an element of the wrong shape.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use super::Error;

/// A parsed glTF document: the arrays kiln reads, each element typed.
#[derive(Clone, Debug, Default)]
pub struct Document {
    pub asset: AssetInfo,
    pub extensions_used: Vec<String>,
    pub extensions_required: Vec<String>,
    pub scene: Option<usize>,
    pub scenes: Vec<SceneDef>,
    pub nodes: Vec<Node>,
    pub meshes: Vec<Mesh>,
    pub skins: Vec<Skin>,
    pub animations: Vec<Animation>,
    pub accessors: Vec<Accessor>,
    pub buffer_views: Vec<BufferView>,
    pub buffers: Vec<Buffer>,
    pub materials: Vec<Material>,
    pub textures: Vec<Texture>,
    pub samplers: Vec<SamplerDef>,
    pub images: Vec<ImageDef>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetInfo {
    pub version: String,
    pub min_version: Option<String>,
    pub generator: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct SceneDef {
    pub name: Option<String>,
    #[serde(default)]
    pub nodes: Vec<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Node {
    pub name: Option<String>,
    #[serde(default)]
    pub children: Vec<usize>,
    pub matrix: Option<[f32; 16]>,
    pub translation: Option<[f32; 3]>,
    pub rotation: Option<[f32; 4]>,
    pub scale: Option<[f32; 3]>,
    pub mesh: Option<usize>,
    pub skin: Option<usize>,
    pub weights: Option<Vec<f32>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Mesh {
    pub name: Option<String>,
    #[serde(default)]
    pub primitives: Vec<Primitive>,
    pub weights: Option<Vec<f32>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Primitive {
    #[serde(default)]
    pub attributes: BTreeMap<String, usize>,
    pub indices: Option<usize>,
    pub material: Option<usize>,
    /// Topology; 4 (triangles) when absent.
    pub mode: Option<u32>,
    #[serde(default)]
    pub targets: Vec<BTreeMap<String, usize>>,
    #[serde(default)]
    pub extensions: PrimitiveExtensions,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct PrimitiveExtensions {
    #[serde(rename = "KHR_draco_mesh_compression")]
    pub draco: Option<DracoPrimitive>,
}

/// `KHR_draco_mesh_compression` on a primitive: the buffer view holding
/// the Draco stream, and each glTF attribute's Draco attribute unique id.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DracoPrimitive {
    pub buffer_view: usize,
    pub attributes: BTreeMap<String, u32>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Skin {
    pub name: Option<String>,
    pub inverse_bind_matrices: Option<usize>,
    pub skeleton: Option<usize>,
    pub joints: Vec<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Animation {
    pub name: Option<String>,
    pub channels: Vec<AnimationChannel>,
    pub samplers: Vec<AnimationSampler>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct AnimationChannel {
    pub sampler: usize,
    pub target: ChannelTarget,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ChannelTarget {
    pub node: Option<usize>,
    pub path: String,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct AnimationSampler {
    pub input: usize,
    pub output: usize,
    /// `LINEAR` when absent.
    pub interpolation: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Accessor {
    pub name: Option<String>,
    pub buffer_view: Option<usize>,
    #[serde(default)]
    pub byte_offset: usize,
    pub component_type: u32,
    #[serde(default)]
    pub normalized: bool,
    pub count: usize,
    #[serde(rename = "type")]
    pub element_type: String,
    pub sparse: Option<Sparse>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Sparse {
    pub count: usize,
    pub indices: SparseIndices,
    pub values: SparseValues,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SparseIndices {
    pub buffer_view: usize,
    #[serde(default)]
    pub byte_offset: usize,
    pub component_type: u32,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SparseValues {
    pub buffer_view: usize,
    #[serde(default)]
    pub byte_offset: usize,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferView {
    pub buffer: usize,
    #[serde(default)]
    pub byte_offset: usize,
    pub byte_length: usize,
    pub byte_stride: Option<usize>,
    #[serde(default)]
    pub extensions: BufferViewExtensions,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct BufferViewExtensions {
    #[serde(rename = "EXT_meshopt_compression")]
    pub ext_meshopt: Option<MeshoptView>,
    #[serde(rename = "KHR_meshopt_compression")]
    pub khr_meshopt: Option<MeshoptView>,
}

/// `EXT_meshopt_compression` / `KHR_meshopt_compression` on a buffer view:
/// where the compressed bytes are and how to decode them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeshoptView {
    pub buffer: usize,
    #[serde(default)]
    pub byte_offset: usize,
    pub byte_length: usize,
    pub byte_stride: usize,
    pub count: usize,
    pub mode: String,
    pub filter: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Buffer {
    pub uri: Option<String>,
    pub byte_length: usize,
    #[serde(default)]
    pub extensions: BufferExtensions,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct BufferExtensions {
    #[serde(rename = "EXT_meshopt_compression")]
    pub ext_meshopt: Option<MeshoptBuffer>,
    #[serde(rename = "KHR_meshopt_compression")]
    pub khr_meshopt: Option<MeshoptBuffer>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct MeshoptBuffer {
    #[serde(default)]
    pub fallback: bool,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Material {
    pub name: Option<String>,
    pub pbr_metallic_roughness: Option<PbrMetallicRoughness>,
    /// `OPAQUE` when absent.
    pub alpha_mode: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PbrMetallicRoughness {
    pub base_color_factor: Option<[f32; 4]>,
    pub base_color_texture: Option<TextureInfo>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextureInfo {
    pub index: usize,
    #[serde(default)]
    pub tex_coord: usize,
    #[serde(default)]
    pub extensions: TextureInfoExtensions,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct TextureInfoExtensions {
    #[serde(rename = "KHR_texture_transform")]
    pub transform: Option<TextureTransform>,
}

/// `KHR_texture_transform` on a textureInfo.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextureTransform {
    pub offset: Option<[f32; 2]>,
    pub rotation: Option<f32>,
    pub scale: Option<[f32; 2]>,
    pub tex_coord: Option<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Texture {
    pub sampler: Option<usize>,
    /// Absent when only an extension (WebP, KTX2, …) gives the image.
    pub source: Option<usize>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplerDef {
    pub mag_filter: Option<u32>,
    pub min_filter: Option<u32>,
    pub wrap_s: Option<u32>,
    pub wrap_t: Option<u32>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageDef {
    pub name: Option<String>,
    pub uri: Option<String>,
    pub mime_type: Option<String>,
    pub buffer_view: Option<usize>,
}

impl Buffer {
    /// A meshopt fallback buffer: its bytes are only ever produced by
    /// decoding compressed views, so it need not be present.
    pub fn is_meshopt_fallback(&self) -> bool {
        let e = &self.extensions;
        [&e.ext_meshopt, &e.khr_meshopt]
            .iter()
            .any(|m| m.as_ref().is_some_and(|m| m.fallback))
    }
}

impl BufferView {
    /// The meshopt compression extension on this view, if any, and its
    /// name (KHR is preferred when a writer gives both).
    pub fn meshopt(&self) -> Option<(&'static str, &MeshoptView)> {
        let e = &self.extensions;
        if let Some(m) = &e.khr_meshopt {
            return Some(("KHR_meshopt_compression", m));
        }
        e.ext_meshopt
            .as_ref()
            .map(|m| ("EXT_meshopt_compression", m))
    }
}

impl Document {
    /// Parses the JSON text of a glTF asset.
    pub fn parse(text: &[u8]) -> Result<Document, Error> {
        // The top level as raw, borrowed text per key: each element is then
        // deserialized straight from its own text (no tree of values built
        // first), so an error still names it.
        let root: BTreeMap<String, &RawValue> = serde_json::from_slice(text).map_err(|e| {
            if e.classify() == serde_json::error::Category::Data {
                Error::at("json", "the top level must be an object")
            } else {
                Error::at("json", format!("not valid json: {e}"))
            }
        })?;
        let asset: AssetInfo = match root.get("asset") {
            Some(v) => one(v, "asset")?,
            None => return Err(Error::at("asset", "required object is missing")),
        };
        check_version(&asset)?;
        Ok(Document {
            asset,
            extensions_used: array(&root, "extensionsUsed")?,
            extensions_required: array(&root, "extensionsRequired")?,
            scene: match root.get("scene") {
                Some(v) => Some(one(v, "scene")?),
                None => None,
            },
            scenes: array(&root, "scenes")?,
            nodes: array(&root, "nodes")?,
            meshes: array(&root, "meshes")?,
            skins: array(&root, "skins")?,
            animations: array(&root, "animations")?,
            accessors: array(&root, "accessors")?,
            buffer_views: array(&root, "bufferViews")?,
            buffers: array(&root, "buffers")?,
            materials: array(&root, "materials")?,
            textures: array(&root, "textures")?,
            samplers: array(&root, "samplers")?,
            images: array(&root, "images")?,
        })
    }
}

type Root<'a> = BTreeMap<String, &'a RawValue>;

fn one<T: DeserializeOwned>(value: &RawValue, path: &str) -> Result<T, Error> {
    serde_json::from_str(value.get()).map_err(|e| Error::at(path, message(&e)))
}

/// A top-level array, each element deserialized on its own so an error
/// names its index. An absent key is an empty array.
fn array<T: DeserializeOwned>(root: &Root, key: &str) -> Result<Vec<T>, Error> {
    let Some(raw) = root.get(key) else {
        return Ok(Vec::new());
    };
    let items: Vec<&RawValue> =
        serde_json::from_str(raw.get()).map_err(|_| Error::at(key, "must be an array"))?;
    items
        .iter()
        .enumerate()
        // The path is formatted only for an error.
        .map(|(i, v)| {
            serde_json::from_str(v.get()).map_err(|e| Error::at(format!("{key}[{i}]"), message(&e)))
        })
        .collect()
}

/// serde's message without serde_json's position suffix: the position is
/// within the element's own text, which the JSON path already names.
fn message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&suffix) {
        Some(m) => m.to_string(),
        None => text,
    }
}

fn check_version(asset: &AssetInfo) -> Result<(), Error> {
    if !is_2x(&asset.version) {
        return Err(Error::at(
            "asset.version",
            format!("glTF version {:?} is not 2.x", asset.version),
        ));
    }
    if let Some(min) = &asset.min_version
        && min != "2.0"
    {
        return Err(Error::at(
            "asset.minVersion",
            format!("the asset needs glTF {min:?}, only 2.0 is supported"),
        ));
    }
    Ok(())
}

fn is_2x(version: &str) -> bool {
    version
        .strip_prefix("2.")
        .is_some_and(|minor| !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_errors_name_the_element() {
        let e = Document::parse(br#"{"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":1,"type":"SCALAR"},{"count":1}]}"#)
            .unwrap_err();
        assert_eq!(e.0, "accessors[1]: missing field `componentType`");
        // The top level's shape, an array's shape, a value's type.
        let cases: [(&[u8], &str); 5] = [
            (b"[1]", "json: the top level must be an object"),
            (
                b"{\"asset\":",
                "json: not valid json: EOF while parsing a value at line 1 column 9",
            ),
            (
                br#"{"asset":{"version":"2.0"},"nodes":{}}"#,
                "nodes: must be an array",
            ),
            (
                br#"{"asset":{"version":"2.0"},"nodes":[{"mesh":"a"}]}"#,
                "nodes[0]: invalid type: string \"a\", expected usize",
            ),
            (
                br#"{"asset":7}"#,
                "asset: invalid type: integer `7`, expected struct AssetInfo",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(Document::parse(text).unwrap_err().0, want);
        }
    }

    #[test]
    fn version_must_be_2x() {
        let e = Document::parse(br#"{"asset":{"version":"1.0"}}"#).unwrap_err();
        assert!(e.0.starts_with("asset.version:"), "{e}");
        let e = Document::parse(br#"{"asset":{"version":"2.0","minVersion":"2.1"}}"#).unwrap_err();
        assert!(e.0.starts_with("asset.minVersion:"), "{e}");
        Document::parse(br#"{"asset":{"version":"2.1","extras":{"x":1}},"unknown":[]}"#).unwrap();
    }
}
