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
    /// Parses the container (`.glb` or `.gltf` text) and the JSON of a
    /// whole file.
    pub fn parse(bytes: &'a [u8]) -> Result<Source<'a>, Error> {
        Source::from_prefix(bytes, bytes.len(), None)
    }

    /// What a reader of a file of `file_len` bytes whose first bytes are
    /// `head` reads next: [`Need::More`] bytes, or, once the JSON is there,
    /// the parsed JSON and how many leading bytes the asset needs in all
    /// (of a GLB, the BIN chunk's data only as far as buffer 0's
    /// `byteLength`). Then [`Source::from_prefix`] of those bytes.
    pub fn need(head: &[u8], file_len: usize) -> Result<Need, Error> {
        let step = || match container::parse_head(head, file_len)? {
            container::Head::More(n) => Ok(Need::More(n)),
            container::Head::Json { json, bin_at } => {
                let doc = Document::parse(json)?;
                let bytes = match bin_at {
                    Some((start, len)) => start + len.min(bin_buffer_len(&doc)),
                    None => 0,
                };
                Ok(Need::Json {
                    doc: Box::new(doc),
                    bytes: bytes.max(head.len().min(file_len)),
                })
            }
        };
        step().map_err(|e| place::placed(e, head))
    }

    /// The source of the first `bytes` of a file of `file_len` bytes, as
    /// [`Source::need`] asked for them, with their JSON `doc` if it was
    /// parsed before (else it is parsed here).
    pub fn from_prefix(
        bytes: &'a [u8],
        file_len: usize,
        doc: Option<Document>,
    ) -> Result<Source<'a>, Error> {
        let parse = || {
            let container = container::parse_prefix(bytes, file_len)?;
            let doc = match doc {
                Some(doc) => doc,
                None => Document::parse(container.json)?,
            };
            Ok(Source {
                doc,
                bin: container.bin,
                file: bytes,
            })
        };
        parse().map_err(|e| place::placed(e, bytes))
    }

    /// The external buffer files the asset refers to, in first-use order,
    /// for the caller to fetch from beside it: each plain file name with
    /// the bytes the asset needs of it (the largest `byteLength` of a
    /// buffer that names it).
    pub fn external_needs(&self) -> Result<Vec<(String, usize)>, Error> {
        buffers::external_needs(&self.doc).map_err(|e| place::placed(e, self.file))
    }

    /// [`Source::external_needs`]' file names alone.
    pub fn external_uris(&self) -> Result<Vec<String>, Error> {
        Ok(names(self.external_needs()?))
    }

    /// The external image files that base colour textures show, in
    /// first-use order (only a reader of materials needs them), each
    /// needed whole (`usize::MAX`).
    pub fn image_needs(&self) -> Result<Vec<(String, usize)>, Error> {
        buffers::image_needs(&self.doc).map_err(|e| place::placed(e, self.file))
    }

    /// [`Source::image_needs`]' file names alone.
    pub fn image_uris(&self) -> Result<Vec<String>, Error> {
        Ok(names(self.image_needs()?))
    }
}

/// The names of `needs`.
fn names(needs: Vec<(String, usize)>) -> Vec<String> {
    needs.into_iter().map(|(name, _)| name).collect()
}

/// What [`Source::need`] asks for.
pub enum Need {
    /// The first `n` bytes of the file.
    More(usize),
    /// The JSON, parsed, and the first `bytes` bytes of the file.
    Json { doc: Box<Document>, bytes: usize },
}

/// How much of a GLB's BIN chunk buffer 0 takes (0 when buffer 0 has a
/// `uri`, or is a meshopt fallback, and so is not the BIN chunk).
fn bin_buffer_len(doc: &Document) -> usize {
    match doc.buffers.first() {
        Some(b) if b.uri.is_none() && !b.is_meshopt_fallback() => b.byte_length,
        _ => 0,
    }
}

/// A glTF asset: its JSON and every buffer view's bytes (compressed views
/// already decoded). Accessors are read on demand.
///
/// Its public readers return errors placed in the file (`place`); the
/// importer's stages read through the `read_` ones, whose errors they name
/// by their own path first, and place at the end.
pub struct Asset<'a> {
    doc: Document,
    views: ViewSet<'a>,
    file: &'a [u8],
    externals: &'a [(String, Vec<u8>)],
    /// What is left of [`MAX_ASSET_VALUES`] for the reads still to come.
    values_left: std::cell::Cell<usize>,
}

/// Most values all the accessor reads (and Draco decodes) of one asset may
/// give together (2^28, 1 GiB as `f32`: what the largest file holds at
/// four bytes a value). Each accessor is bounded alone by
/// [`accessor::MAX_ACCESSOR_VALUES`]; this bounds their sum, which
/// accessors without a buffer view, or many primitives reading one large
/// accessor, would otherwise multiply from a small file.
pub const MAX_ASSET_VALUES: usize = 1 << 28;

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
                values_left: std::cell::Cell::new(MAX_ASSET_VALUES),
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

    /// Checks accessor `index` as [`Asset::accessor`] reads it, without
    /// holding the values of one that has neither a buffer view nor a
    /// sparse part: its values are zeros, or (a Draco primitive's) the
    /// stream's, which [`Asset::mesh`] checks; nothing to read.
    pub fn check_accessor(&self, index: usize) -> Result<(), Error> {
        let zeros = self
            .doc
            .accessors
            .get(index)
            .is_some_and(|a| a.buffer_view.is_none() && a.sparse.is_none());
        if zeros {
            accessor::header(&self.doc.accessors, index).map_err(|e| self.place(e))?;
        } else {
            self.accessor(index)?;
        }
        Ok(())
    }

    /// Accessor `index` as `f32` (normalized integers converted), with its
    /// number of components per element.
    pub fn accessor_f32(&self, index: usize) -> Result<(Vec<f32>, usize), Error> {
        let packed = self.accessor(index)?;
        let values = packed
            .to_f32()
            .map_err(|e| self.place(e.context(format!("accessors[{index}]"))))?;
        Ok((values, packed.components()))
    }

    /// Accessor `index` as `u32` (unsigned integer types only: indices,
    /// joints), with its number of components per element.
    pub fn accessor_u32(&self, index: usize) -> Result<(Vec<u32>, usize), Error> {
        self.read_accessor_u32(index).map_err(|e| self.place(e))
    }

    /// [`Asset::accessor`], the error not yet placed; its values are
    /// charged to the asset's [`MAX_ASSET_VALUES`] before it is read.
    pub(crate) fn read_accessor(&self, index: usize) -> Result<Packed, Error> {
        let h = accessor::header(&self.doc.accessors, index)?;
        self.charge(
            h.count * h.element_type.components(),
            &format!("accessors[{index}].count"),
        )?;
        accessor::read(&self.doc.accessors, index, &self.views)
    }

    /// What is left of [`MAX_ASSET_VALUES`].
    pub(crate) fn values_left(&self) -> usize {
        self.values_left.get()
    }

    /// Takes `values` from what is left of [`MAX_ASSET_VALUES`], or fails
    /// at `path` (what asks for them) when they are more.
    pub(crate) fn charge(&self, values: usize, path: &str) -> Result<(), Error> {
        let left = self.values_left.get();
        if values > left {
            return Err(Error::at(
                path,
                format!(
                    "reading it makes the asset's accessors give more than {MAX_ASSET_VALUES} values together ({} given before it, {values} more); the accessors a file's meshes, skins and animations read, counted each time they are read, are bounded as a sum",
                    MAX_ASSET_VALUES - left
                ),
            ));
        }
        self.values_left.set(left - values);
        Ok(())
    }

    /// [`Asset::accessor_u32`], the error not yet placed.
    pub(crate) fn read_accessor_u32(&self, index: usize) -> Result<(Vec<u32>, usize), Error> {
        let packed = self.read_accessor(index)?;
        match packed
            .to_u32()
            .map_err(|e| e.context(format!("accessors[{index}]")))?
        {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::glb;

    /// A reader asks for the header, the JSON and buffer 0's bytes of the
    /// BIN chunk, and the source it gets from them is the whole file's.
    #[test]
    fn need_reads_the_bin_chunk_as_far_as_buffer_0() {
        let json = br#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":5}]}"#;
        let bytes = glb::encode(json, Some(&[7; 4096]));
        let mut prefix = bytes[..20].to_vec();
        let doc = loop {
            match Source::need(&prefix, bytes.len()).unwrap() {
                Need::More(n) => prefix = bytes[..n].to_vec(),
                Need::Json { doc, bytes: n } => {
                    prefix = bytes[..n].to_vec();
                    break doc;
                }
            }
        };
        let bin_start = bytes.len() - 4096;
        assert_eq!(prefix.len(), bin_start + 5);
        let source = Source::from_prefix(&prefix, bytes.len(), Some(*doc)).unwrap();
        assert_eq!(source.bin, Some(&[7u8; 5][..]));
        // A .gltf is read whole; a buffer with a uri takes nothing of BIN.
        let text = br#"{"asset":{"version":"2.0"}}"#;
        assert!(matches!(
            Source::need(&text[..20], text.len()),
            Ok(Need::More(27))
        ));
        let json = br#"{"asset":{"version":"2.0"},"buffers":[{"uri":"a.bin","byteLength":5}]}"#;
        let bytes = glb::encode(json, Some(&[7; 64]));
        let at = bytes.len() - 64;
        match Source::need(&bytes[..at], bytes.len()).unwrap() {
            Need::Json { bytes: n, .. } => assert_eq!(n, at),
            Need::More(n) => panic!("asked for {n}"),
        }
    }

    /// The values of an asset's accessor reads are bounded as a sum: an
    /// accessor without a buffer view (zeros, 64 MiB of u8 here) read again
    /// and again gives at most [`MAX_ASSET_VALUES`] values in all; the read
    /// that would pass it is refused before its bytes exist, naming it.
    #[test]
    fn accessor_reads_are_bounded_as_a_sum() {
        let count = MAX_ASSET_VALUES / 4;
        let json = format!(
            r#"{{"asset":{{"version":"2.0"}},"accessors":[{{"componentType":5121,"count":{count},"type":"SCALAR"}},{{"componentType":5121,"count":1,"type":"SCALAR"}}]}}"#
        );
        let bytes = glb::encode(json.as_bytes(), None);
        let asset = Asset::load(&bytes, &[]).unwrap();
        for _ in 0..4 {
            assert_eq!(asset.read_accessor(0).unwrap().bytes.len(), count);
        }
        let e = asset.accessor(1).unwrap_err().0;
        assert!(
            e.contains("accessors[1].count: reading it makes the asset's accessors give more than 268435456 values together (268435456 given before it, 1 more)"),
            "{e}"
        );
        assert!(e.starts_with("at byte "), "placed in the file: {e}");
        // Another asset starts again.
        let again = Asset::load(&bytes, &[]).unwrap();
        assert!(again.accessor(1).is_ok());
    }
}
