//! [`Asset`]: a loaded glTF document with its buffers and buffer views
//! resolved, so any accessor can be read.
//!
//! Rejects an `extensionsRequired` entry that kiln does not support (see
//! [`SUPPORTED_REQUIRED_EXTENSIONS`]), plus everything the container, JSON,
//! buffer and buffer view stages reject.

use super::accessor::{self, Packed};
use super::json::Document;
use super::views::{self, ViewSet};
use super::{Error, buffers, container, place};

/// Required extensions kiln honours: it reads quantized attributes,
/// decodes meshopt-compressed buffer views and Draco-compressed primitives.
pub const SUPPORTED_REQUIRED_EXTENSIONS: [&str; 4] = [
    "KHR_mesh_quantization",
    "EXT_meshopt_compression",
    "KHR_meshopt_compression",
    "KHR_draco_mesh_compression",
];

/// Required extensions that change only materials or textures, which the
/// importer does not read, so requiring them changes nothing we produce.
/// (Extensions that change geometry, nodes or animation, such as
/// `EXT_mesh_gpu_instancing` or `KHR_animation_pointer`, are rejected when
/// required.)
const MATERIAL_ONLY_EXTENSIONS: [&str; 5] = [
    "KHR_texture_transform",
    "KHR_texture_basisu",
    "EXT_texture_webp",
    "EXT_texture_avif",
    "KHR_materials_variants",
];
const MATERIAL_ONLY_PREFIX: &str = "KHR_materials_";

/// A glTF source with its container and JSON parsed, before its buffers
/// are resolved: first ask it which external files it needs, then load it.
/// (Parsing once serves both questions.)
pub struct Source<'a> {
    doc: Document,
    bin: Option<&'a [u8]>,
    /// The whole file, where errors are placed ([`place`]).
    file: &'a [u8],
}

impl<'a> Source<'a> {
    /// Parses the container (`.glb` or `.gltf` text) and the JSON.
    pub fn parse(bytes: &'a [u8]) -> Result<Source<'a>, Error> {
        let parse = || {
            let container = container::parse(bytes)?;
            Ok(Source {
                doc: Document::parse(container.json)?,
                bin: container.bin,
                file: bytes,
            })
        };
        parse().map_err(|e| place::placed(e, bytes))
    }

    /// A source whose JSON was parsed before ([`super::import_source_with_json`]
    /// gave it back): only the container is read again. `doc` must be the
    /// JSON of these `bytes`.
    pub fn with_json(bytes: &'a [u8], doc: Document) -> Result<Source<'a>, Error> {
        let container = container::parse(bytes)?;
        Ok(Source {
            doc,
            bin: container.bin,
            file: bytes,
        })
    }

    /// The plain file names of the external buffer files the asset refers
    /// to, in first-use order, for the caller to fetch from beside it.
    pub fn external_uris(&self) -> Result<Vec<String>, Error> {
        buffers::external_names(&self.doc).map_err(|e| place::placed(e, self.file))
    }

    /// The plain file names of the external image files that base colour
    /// textures show, in first-use order (only a reader of materials
    /// needs them).
    pub fn image_uris(&self) -> Result<Vec<String>, Error> {
        buffers::image_names(&self.doc).map_err(|e| place::placed(e, self.file))
    }
}

/// A glTF asset: its JSON and every buffer view's bytes (compressed views
/// already decoded). Accessors are read on demand.
///
/// Its public readers return errors placed in the file ([`place`]); the
/// importer's stages read through the `read_` ones, whose errors they name
/// by their own path first, and place at the end.
pub struct Asset<'a> {
    doc: Document,
    views: ViewSet<'a>,
    file: &'a [u8],
    externals: &'a [(String, Vec<u8>)],
}

impl<'a> Asset<'a> {
    /// Parses the container and JSON, then [`Asset::from_source`].
    pub fn load(bytes: &'a [u8], externals: &'a [(String, Vec<u8>)]) -> Result<Asset<'a>, Error> {
        Asset::from_source(Source::parse(bytes)?, externals)
    }

    /// Checks required extensions, resolves
    /// buffers (`externals` holds (uri, bytes) for every name
    /// [`Source::external_uris`] returns) and decodes compressed views.
    pub fn from_source(
        source: Source<'a>,
        externals: &'a [(String, Vec<u8>)],
    ) -> Result<Asset<'a>, Error> {
        let Source { doc, bin, file } = source;
        let resolve = || {
            check_required_extensions(&doc)?;
            let buffers = buffers::resolve(&doc, bin, externals)?;
            views::resolve(&doc, buffers)
        };
        match resolve() {
            Ok(views) => Ok(Asset {
                doc,
                views,
                file,
                externals,
            }),
            Err(e) => Err(place::placed(e, file)),
        }
    }

    /// `error`, made by a stage reading this asset, placed in its file.
    pub(crate) fn place(&self, error: Error) -> Error {
        place::placed(error, self.file)
    }

    /// Where `bytes` are: in the file (the byte they start at), in an
    /// external file (its name, and the byte there), or in neither (bytes
    /// decoded from the file).
    pub(crate) fn locate(&self, bytes: &[u8]) -> Option<(Option<&str>, usize)> {
        if let Some(at) = place::within(self.file, bytes) {
            return Some((None, at));
        }
        self.externals
            .iter()
            .find_map(|(name, b)| Some((Some(name.as_str()), place::within(b, bytes)?)))
    }

    /// The byte of the file a stage's error `message` is about.
    pub(crate) fn offset_of(&self, message: &str) -> u64 {
        place::offset_of(message, self.file) as u64
    }

    /// The parsed JSON.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The parsed JSON, the asset's buffers let go.
    pub fn into_document(self) -> Document {
        self.doc
    }

    /// Buffer view `index`'s bytes (decoded, if compressed).
    pub fn view(&self, index: usize) -> Option<&[u8]> {
        self.views.get(index).map(|(bytes, _)| bytes)
    }

    /// Mesh `index` with its primitives' attributes and triangles (Draco
    /// streams decoded).
    pub fn mesh(&self, index: usize) -> Result<crate::model::material::Mesh, Error> {
        super::mesh::read(self, index).map_err(|e| self.place(e))
    }

    /// Accessor `index`, tightly packed, sparse substitution applied.
    pub fn accessor(&self, index: usize) -> Result<Packed, Error> {
        self.read_accessor(index).map_err(|e| self.place(e))
    }

    /// Accessor `index` as `f32` (normalized integers converted), with its
    /// number of components per element.
    pub fn accessor_f32(&self, index: usize) -> Result<(Vec<f32>, usize), Error> {
        let packed = self.accessor(index)?;
        Ok((packed.to_f32(), packed.components()))
    }

    /// Accessor `index` as `u32` (unsigned integer types only: indices,
    /// joints), with its number of components per element.
    pub fn accessor_u32(&self, index: usize) -> Result<(Vec<u32>, usize), Error> {
        self.read_accessor_u32(index).map_err(|e| self.place(e))
    }

    /// [`Asset::accessor`], the error not yet placed.
    pub(crate) fn read_accessor(&self, index: usize) -> Result<Packed, Error> {
        accessor::read(&self.doc.accessors, index, &self.views)
    }

    /// [`Asset::accessor_u32`], the error not yet placed.
    pub(crate) fn read_accessor_u32(&self, index: usize) -> Result<(Vec<u32>, usize), Error> {
        let packed = self.read_accessor(index)?;
        match packed.to_u32() {
            Some(v) => Ok((v, packed.components())),
            None => Err(Error::at(
                format!("accessors[{index}].componentType"),
                format!(
                    "{:?} components cannot be read as unsigned integers",
                    packed.component_type
                ),
            )),
        }
    }
}

fn check_required_extensions(doc: &Document) -> Result<(), Error> {
    for (i, name) in doc.extensions_required.iter().enumerate() {
        let name = name.as_str();
        let known = SUPPORTED_REQUIRED_EXTENSIONS.contains(&name)
            || MATERIAL_ONLY_EXTENSIONS.contains(&name)
            || name.starts_with(MATERIAL_ONLY_PREFIX);
        if !known {
            return Err(Error::at(
                format!("extensionsRequired[{i}]"),
                format!("required extension {name} is not supported"),
            ));
        }
    }
    Ok(())
}
