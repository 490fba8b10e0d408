//! Reading one file the user names (`kiln inspect`, `kiln verify`): the
//! file system side of those commands, kept here with the rest of kiln's
//! paths; the CLI only prints.

use std::path::Path;

use super::input;
use crate::bake::atlas::{self, Atlas};
use crate::bake::model_bundle::{self as bundle, Role};
use crate::describe::{
    BundleCheck, CgeoFile, CgeoSnapshot, CharactersFile, DrawnSnapshot, FileKind, GgufFile,
    GltfSummary, Kind, MaterialInfo, MeshInfo, PrimitiveInfo, TextureInfo, page,
};
use crate::formats::cgeo;
use crate::formats::gguf;
use crate::formats::kchr;
use crate::formats::mbreplay;
use crate::formats::mbstyle;
use crate::formats::ospc;
use crate::formats::qoi;
use crate::formats::safetensors;
use crate::import::gltf;

/// Decodes every snapshot of a CGeo file, one at a time, reading each
/// snapshot's sections when it comes to them (memory: one snapshot).
/// A CGeo sequence, its first snapshots' meshes kept for `kiln view` when
/// `to_draw`.
fn load_cgeo(file: &Path, to_draw: bool) -> Result<CgeoFile, String> {
    use std::os::unix::fs::FileExt;
    let (file, meta) =
        input::open_regular(file, cgeo::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let len = meta.len();
    // The next snapshot read on a second thread while this one is decoded.
    let read_at = |offset, buf: &mut [u8]| file.read_exact_at(buf, offset);
    std::thread::scope(|scope| {
        let mut pieces = input::Pieces::new(len, |offset, buf: &mut [u8]| {
            read_at(offset, buf)
                .map_err(|e| format!("reading {} bytes at byte {offset}: {e}", buf.len()))
        })
        .read_ahead(scope, |offset, buf| read_at(offset, buf).is_ok());
        let result = read_cgeo(&mut pieces, len, to_draw);
        pieces.settle(result, |failed| match failed {
            input::PieceFailed::Read(message) => message,
            input::PieceFailed::Limit(limit) => limit.to_string(),
        })
    })
}

fn read_cgeo(source: impl cgeo::Source, len: u64, to_draw: bool) -> Result<CgeoFile, String> {
    let bytes = len as usize;
    let invalid = |e: cgeo::Error| format!("invalid CGeo: {e}");
    let mut reader = cgeo::Reader::open(source, false).map_err(invalid)?;
    let triangles = reader.first().triangles.len();
    let mut snapshots = Vec::with_capacity(reader.len());
    let mut drawn: Vec<DrawnSnapshot> = Vec::new();
    let mut draw_left = if to_draw {
        crate::describe::cgeo::MAX_DRAWN_ITEMS
    } else {
        0
    };
    // The triangles of the snapshot drawn last, to carry a list only when
    // it changes.
    let mut last_triangles: Option<Vec<[u32; 3]>> = None;
    for k in 0..reader.len() {
        // Snapshot 0 was decoded as the file was opened: not again (it
        // may be a section's whole decoded budget).
        let later = match k {
            0 => None,
            _ => Some(reader.snapshot(k).map_err(invalid)?),
        };
        let s = later.as_ref().unwrap_or(reader.first_snapshot());
        // A difference snapshot keeps snapshot 0's triangles.
        let tris = match s.complete {
            true => &s.mesh.triangles,
            false => &reader.first().triangles,
        };
        let items = s.mesh.vertices.len().saturating_add(tris.len());
        if to_draw && items <= draw_left && drawn.len() == k {
            draw_left -= items;
            let tris: Vec<[u32; 3]> = tris.iter().map(|t| t.vertices).collect();
            let same = last_triangles.as_ref() == Some(&tris);
            drawn.push(DrawnSnapshot {
                vertices: s.mesh.vertices.clone(),
                triangles: (!same).then(|| tris.clone()),
            });
            last_triangles = Some(tris);
        }
        let known = [
            cgeo::TAG_MESH_DATA,
            cgeo::TAG_BOUNDING_BOX,
            cgeo::TAG_POINTCLOUD,
        ];
        snapshots.push(CgeoSnapshot {
            complete: s.complete,
            vertices: s.mesh.vertices.len(),
            normals: s.mesh.normals.len(),
            map_channels: s.mesh.channels.len(),
            triangles: if s.complete {
                s.mesh.triangles.len()
            } else {
                triangles
            },
            bounding_box: s.bounding_box,
            points: s.point_cloud.as_ref().map(Vec::len),
            unknown_sections: s
                .order
                .iter()
                .copied()
                .filter(|id| !known.contains(id))
                .collect(),
        });
    }
    Ok(CgeoFile {
        header: reader.header().clone(),
        topology_changing: reader.topology_changing(),
        bytes,
        snapshots,
        drawn,
    })
}

/// Largest `level.json` read beside an entry.
const MAX_LEVEL_JSON_BYTES: u64 = 16 << 20;

/// Largest `.qoi` file read: 64 MiB (a compiled character document's
/// limit, and far beyond a 2,048-texel atlas).
pub const MAX_QOI_BYTES: u64 = 64 << 20;

/// Most header bytes kiln reads of a GGUF (the data is never read whole).
pub const MAX_GGUF_HEADER_BYTES: usize = 256 << 20;
/// Largest support component read whole for its values.
const MAX_SUPPORT_BYTES: u64 = 1 << 20;

/// Reads a GGUF's header from the start of the file, reading more while
/// the header runs past what was read.
fn read_gguf(file: &Path) -> Result<gguf::Header, String> {
    let (_, meta) = input::open_regular(file, u64::MAX).map_err(|e| e.to_string())?;
    let len = meta.len();
    let mut n = 1 << 20;
    loop {
        let bytes = input::read_prefix(file, n).map_err(|e| e.to_string())?;
        match gguf::decode_header(&bytes, len) {
            Err(e) if e.is_truncated() && (bytes.len() as u64) < len => {
                if n >= MAX_GGUF_HEADER_BYTES {
                    // The bytes are in the file: the limit is kiln's.
                    return Err(format!(
                        "invalid GGUF: at byte {MAX_GGUF_HEADER_BYTES}: the header (metadata and tensor descriptions) runs past the {MAX_GGUF_HEADER_BYTES} bytes kiln reads of a GGUF header (the entry at byte {} reaches beyond it)",
                        e.offset()
                    ));
                }
                n = (n * 8).min(MAX_GGUF_HEADER_BYTES);
            }
            Err(e) => return Err(format!("invalid GGUF: {e}")),
            Ok(h) => return Ok(h),
        }
    }
}

/// The bundle role of a GGUF, from its `motionbricks.component`.
fn role_of(h: &gguf::Header) -> Option<Role> {
    if h.get("general.architecture") != Some(&gguf::Value::String(bundle::ARCHITECTURE.into())) {
        return None;
    }
    match h.get("motionbricks.component") {
        Some(gguf::Value::String(c)) => Role::ALL.into_iter().find(|r| r.name() == c),
        _ => None,
    }
}

fn load_gguf(file: &Path) -> Result<GgufFile, String> {
    let header = read_gguf(file)?;
    let role = role_of(&header);
    let mut problems = Vec::new();
    if let Some(role) = role {
        problems = bundle::runtime_problems(role, &header)
            .iter()
            .map(ToString::to_string)
            .collect();
        problems.extend(bundle::pin_problem(role, &header).map(|p| p.to_string()));
        if role == Role::Support {
            let bytes = read(file, MAX_SUPPORT_BYTES)?;
            let data = &bytes[header.data_start as usize..];
            problems.extend(
                bundle::support_value_problems(&header, data)
                    .iter()
                    .map(ToString::to_string),
            );
        }
    }
    Ok(GgufFile {
        header,
        role,
        problems,
    })
}

fn load_safetensors(file: &Path) -> Result<safetensors::Header, String> {
    let (_, meta) = input::open_regular(file, u64::MAX).map_err(|e| e.to_string())?;
    let invalid = |e: safetensors::Error| format!("invalid safetensors: {e}");
    let first = input::read_prefix(file, 8).map_err(|e| e.to_string())?;
    let n = safetensors::header_len(&first, meta.len()).map_err(invalid)?;
    let bytes = input::read_prefix(file, 8 + n as usize).map_err(|e| e.to_string())?;
    safetensors::decode_header(&bytes[8..], meta.len()).map_err(invalid)
}

/// Checks a bundle folder as the runtime loads it: `manifest.json`, the
/// four components, their hashes and counts.
fn load_bundle(dir: &Path) -> Result<BundleCheck, String> {
    let manifest_path = dir.join("manifest.json");
    let text = read(&manifest_path, 1 << 20).map_err(|e| format!("manifest.json: {e}"))?;
    let manifest: serde_json::Value =
        serde_json::from_slice(&text).map_err(|e| format!("manifest.json: not JSON: {e}"))?;
    let mut problems = Vec::new();
    if manifest["format"] != bundle::BUNDLE_FORMAT {
        problems.push(format!(
            "manifest.json: format is {}, expected {:?}",
            manifest["format"],
            bundle::BUNDLE_FORMAT
        ));
    }
    let mut components = Vec::new();
    let mut inference = 0u64;
    for role in Role::ALL {
        let entry = &manifest["components"][role.name()];
        let file = role.file();
        if entry["path"] != file {
            problems.push(format!(
                "manifest.json: components.{}.path must be {file:?}",
                role.name()
            ));
        }
        let path = dir.join(file);
        let c = match load_gguf(&path) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{file}: {e}"));
                continue;
            }
        };
        match input::sha256_regular(&path, u64::MAX) {
            Ok(sha) if entry["sha256"] == crate::formats::hex(&sha) => {}
            Ok(sha) => problems.push(format!(
                "{file}: SHA-256 {} differs from manifest.json's {}",
                crate::formats::hex(&sha),
                entry["sha256"]
            )),
            Err(e) => problems.push(format!("{file}: {e}")),
        }
        let count: u64 = c.header.tensors().map(|t| t.elements()).sum();
        if entry["tensor_count"] != c.header.tensor_count() || entry["parameter_count"] != count {
            problems.push(format!(
                "manifest.json: components.{} says {} tensors and {} parameters; {file} has {} and {count}",
                role.name(),
                entry["tensor_count"],
                entry["parameter_count"],
                c.header.tensor_count()
            ));
        }
        if c.role != Some(role) {
            // The file is in this component's place: the runtime's rules
            // for it say what is wrong, each at its byte (its architecture,
            // its `motionbricks.component`, …).
            problems.extend(
                bundle::runtime_problems(role, &c.header)
                    .into_iter()
                    .map(|p| format!("{file}: {p}")),
            );
        }
        if role != Role::Support {
            inference += count;
        }
        problems.extend(c.problems.iter().map(|p| format!("{file}: {p}")));
        components.push((role, c));
    }
    if manifest["inference_parameter_count"] != inference {
        problems.push(format!(
            "manifest.json: inference_parameter_count is {}, the components hold {inference}",
            manifest["inference_parameter_count"]
        ));
    }
    Ok(BundleCheck {
        manifest,
        components,
        problems,
    })
}

/// Loads a glTF asset, reads every accessor and every mesh (Draco streams
/// decoded), so a broken one anywhere is found, not just in what a pose
/// cache needs, and imports its scene.
fn load_gltf(
    bytes: &[u8],
    len: usize,
    externals: &[(String, Vec<u8>)],
) -> Result<GltfSummary, String> {
    let invalid = |e: gltf::Error| format!("invalid glTF: {e}");
    let source = || gltf::Source::from_prefix(bytes, len, None);
    let asset = gltf::Asset::from_source(source().map_err(invalid)?, externals).map_err(invalid)?;
    let doc = asset.document();
    for i in 0..doc.accessors.len() {
        asset.check_accessor(i).map_err(invalid)?;
    }
    let mut meshes = Vec::with_capacity(doc.meshes.len());
    for (i, def) in doc.meshes.iter().enumerate() {
        let mesh = asset.mesh(i).map_err(invalid)?;
        let primitives = def
            .primitives
            .iter()
            .zip(&mesh.primitives)
            .map(|(p, decoded)| PrimitiveInfo {
                vertices: decoded.positions.len(),
                indices: match p.indices {
                    Some(_) => decoded.indices.len(),
                    None => 0,
                },
                attributes: p.attributes.keys().cloned().collect(),
                morph_targets: p.targets.len(),
                material: p.material,
                draco: p.extensions.draco.is_some(),
            })
            .collect();
        meshes.push(MeshInfo {
            name: def.name.clone(),
            primitives,
        });
    }
    let scene = gltf::import_source(source().map_err(invalid)?, externals).map_err(invalid)?;
    Ok(GltfSummary {
        generator: doc.asset.generator.clone(),
        extensions_used: doc.extensions_used.clone(),
        extensions_required: doc.extensions_required.clone(),
        accessors: doc.accessors.len(),
        buffer_views: doc.buffer_views.len(),
        buffers: doc.buffers.len(),
        node_uses: doc.nodes.iter().map(|n| (n.mesh, n.skin)).collect(),
        meshes,
        materials: doc
            .materials
            .iter()
            .map(|m| {
                let pbr = m.pbr_metallic_roughness.as_ref();
                MaterialInfo {
                    name: m.name.clone(),
                    base_color: pbr.and_then(|p| p.base_color_factor).unwrap_or([1.0; 4]),
                    base_color_texture: pbr
                        .and_then(|p| p.base_color_texture.as_ref())
                        .map(|t| t.index),
                    alpha_mode: m.alpha_mode.clone().unwrap_or_else(|| "OPAQUE".into()),
                }
            })
            .collect(),
        textures: doc
            .textures
            .iter()
            .map(|t| {
                let image = t.source.and_then(|i| doc.images.get(i));
                TextureInfo {
                    image: t.source,
                    image_name: image.and_then(|i| i.name.clone()),
                    uri: image
                        .and_then(|i| i.uri.clone())
                        .filter(|u| !u.starts_with("data:")),
                    mime_type: image.and_then(|i| i.mime_type.clone()),
                }
            })
            .collect(),
        scene,
    })
}

/// Reads and fully decodes `file` (a regular file, at most its format's
/// limit); an error names the format, the rule and the byte. The format is
/// the one its first bytes give; failing that, the one its name gives, so
/// a `.qoi` whose magic is damaged is refused by QOI's rule at byte 0.
pub fn load(file: &Path) -> Result<FileKind, String> {
    load_as(file, false)
}

/// [`load`], keeping what `kiln view` draws that a summary does not need
/// (a CGeo sequence's first meshes, bounded).
pub fn load_to_draw(file: &Path) -> Result<FileKind, String> {
    load_as(file, true)
}

fn load_as(file: &Path, to_draw: bool) -> Result<FileKind, String> {
    if file.is_dir() && file.join("manifest.json").is_file() {
        return load_bundle(file).map(FileKind::Bundle);
    }
    let head = input::read_prefix(file, 8).map_err(|e| e.to_string())?;
    // Safetensors has no magic (a length comes first): its name says.
    let by_name = crate::describe::kind_by_name(file);
    let kind = match by_name {
        Some(Kind::Safetensors) => by_name,
        _ => crate::describe::kind_by_magic(&head).or(by_name),
    };
    let Some(kind) = kind else {
        return Err(format!(
            "at byte 0: not a file kiln reads: it starts with {:02x?}, no format's magic, and its name gives none (kiln reads {})",
            &head[..head.len().min(4)],
            crate::describe::file_types_text()
        ));
    };
    match kind {
        Kind::Replay => {
            let bytes = read(file, mbreplay::MAX_FILE_BYTES as u64)?;
            mbreplay::decode(&bytes)
                .map(FileKind::Replay)
                .map_err(|e| format!("invalid MotionBricks replay: {e}"))
        }
        Kind::Gguf => {
            let g = load_gguf(file)?;
            let component = g.header.get("motionbricks.component");
            if component != Some(&gguf::Value::String(mbstyle::COMPONENT.into())) {
                return Ok(FileKind::Gguf(g));
            }
            let bytes = read(file, mbstyle::MAX_FILE_BYTES)?;
            mbstyle::read(&bytes).map(FileKind::Style).map_err(|e| {
                match e.rule() {
                    // The runtime loads it: kiln's own refusal.
                    mbstyle::Error::MaskEmpty => {
                        format!("a MotionBricks style that can never plan: {e}")
                    }
                    _ => format!("a MotionBricks style the runtime refuses: {e}"),
                }
            })
        }
        Kind::Qoi => {
            let bytes = read(file, MAX_QOI_BYTES)?;
            qoi::decode(&bytes)
                .map(FileKind::Qoi)
                .map_err(|e| format!("invalid QOI image: {e}"))
        }
        Kind::Characters => {
            let bytes = read(file, kchr::MAX_BYTES as u64)?;
            let doc = kchr::decode(&bytes)
                .map_err(|e| format!("invalid compiled characters (KCHR v1): {e}"))?;
            // `levels/<level>/@world/characters` -> `levels/<level>/level.json`.
            let level = file
                .parent()
                .and_then(Path::parent)
                .map(|d| d.join("level.json"))
                .filter(|p| p.is_file())
                .and_then(|p| read(&p, MAX_LEVEL_JSON_BYTES).ok())
                .and_then(|b| serde_json::from_slice(&b).ok());
            Ok(FileKind::Characters(CharactersFile {
                doc,
                bytes: bytes.len(),
                level,
            }))
        }
        Kind::Safetensors => load_safetensors(file).map(FileKind::Safetensors),
        Kind::PoseCache => {
            let bytes = read(file, ospc::MAX_FILE_BYTES as u64)?;
            ospc::decode(&bytes)
                .map(FileKind::PoseCache)
                .map_err(|e| format!("invalid pose cache: {e}"))
        }
        Kind::Gltf => {
            let (bytes, len) = read_gltf(file)?;
            let source = || gltf::Source::from_prefix(&bytes, len, None);
            let needs = source()
                .and_then(|s| s.external_needs())
                .map_err(|e| format!("invalid glTF: {e}"))?;
            let externals = read_beside(file, needs, "buffer")?;
            load_gltf(&bytes, len, &externals).map(FileKind::Gltf)
        }
        Kind::Cgeo => load_cgeo(file, to_draw).map(FileKind::Cgeo),
    }
}

/// Runs the material stage on a glTF asset: every primitive of every mesh
/// a node instantiates, with the images beside it (plain names only).
pub fn atlas_of(file: &Path, settings: &atlas::Settings) -> Result<Atlas, String> {
    let (bytes, len) = read_gltf(file)?;
    let invalid = |e: gltf::Error| format!("invalid glTF: {e}");
    let source = gltf::Source::from_prefix(&bytes, len, None).map_err(invalid)?;
    let externals = read_beside(file, source.external_needs().map_err(invalid)?, "buffer")?;
    let images = source.image_needs().map_err(invalid)?;
    let image_files = read_beside(file, images, "image")?;
    let meshes = gltf::import_meshes(source, &externals, &image_files, None).map_err(invalid)?;
    let primitives: Vec<_> = meshes.meshes.iter().flat_map(|m| &m.primitives).collect();
    if primitives.is_empty() {
        return Err("the asset has no mesh that a node instantiates".into());
    }
    atlas::material_stage(&meshes, &primitives, settings, &super::sources::IMAGES)
}

/// A decoded QOI image as the RGBA8 the PNG writer takes.
pub fn rgba8(q: qoi::Image) -> crate::model::material::Rgba8 {
    crate::model::material::Rgba8 {
        width: q.header.width,
        height: q.header.height,
        pixels: q.rgba,
    }
}

/// Each model's atlas of a compiled characters file: (model id, pixels).
pub fn character_atlases(
    c: &CharactersFile,
) -> Result<Vec<(String, crate::model::material::Rgba8)>, String> {
    c.doc
        .models
        .iter()
        .map(|m| {
            qoi::decode(&m.image.qoi)
                .map(|q| (m.id.clone(), rgba8(q)))
                .map_err(|e| format!("model {}: {e}", m.id))
        })
        .collect()
}

/// Writes `image` as a PNG at `path` (a preview the user asked for).
pub fn write_png(path: &Path, image: &crate::model::material::Rgba8) -> Result<(), String> {
    let bytes = crate::import::image::encode_png(image).map_err(|e| e.to_string())?;
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

fn read(file: &Path, limit: u64) -> Result<Vec<u8>, String> {
    input::read_regular(file, limit)
        .map(|r| r.bytes)
        .map_err(|e| e.to_string())
}

/// Of the glTF file `file`, what the importer needs
/// ([`super::sources::gltf_prefix`]), and the file's length.
fn read_gltf(file: &Path) -> Result<(Vec<u8>, usize), String> {
    let (f, meta) = input::open_regular(file, gltf::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let len = meta.len() as usize;
    let (bytes, _) = super::sources::gltf_prefix(
        len,
        |buf, n| read_to(&f, buf, n),
        |e| format!("invalid glTF: {e}"),
    )?;
    Ok((bytes, len))
}

/// Extends `buf` to the first `n` bytes of `file`.
fn read_to(mut file: &std::fs::File, buf: &mut Vec<u8>, n: usize) -> Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let at = buf.len();
    input::grow(buf, n).map_err(|e| e.to_string())?;
    file.seek(SeekFrom::Start(at as u64))
        .and_then(|_| file.read_exact(&mut buf[at..]))
        .map_err(|e| e.to_string())
}

/// The files `needs` names (buffers or images, `what`), read from beside
/// `file`, each as far as it is needed. The importer only ever names plain
/// files (no directory part, no `..`), so joining them to the source's
/// folder cannot leave it.
fn read_beside(
    file: &Path,
    needs: Vec<(String, usize)>,
    what: &str,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    needs
        .into_iter()
        .map(|(uri, need)| {
            let fail = |e: String| format!("{what} {uri}: {e}");
            let (f, meta) = input::open_regular(&dir.join(&uri), gltf::MAX_FILE_BYTES)
                .map_err(|e| fail(e.to_string()))?;
            let mut data = Vec::new();
            read_to(&f, &mut data, need.min(meta.len() as usize)).map_err(fail)?;
            Ok((uri, data))
        })
        .collect()
}

/// Each shown file (as the page names it) with its stat signature, none
/// for a file not there: what `kiln view --serve` compares to know the
/// page changed.
pub fn signatures(
    files: &[(String, std::path::PathBuf)],
) -> Vec<(String, Option<super::paths::FileSig>)> {
    files
        .iter()
        .map(|(path, real)| {
            let sig = std::fs::metadata(real)
                .ok()
                .map(|m| super::paths::FileSig::of(&m));
            (path.clone(), sig)
        })
        .collect()
}

/// `file` as `kiln view` shows it (named `path` on the page): its summary,
/// the first [`page::MAX_ROWS`] rows of its tensor table, and its pictures
/// (each model's atlas of a compiled characters entry, a QOI image, the
/// atlas of a glTF asset's materials with its regions outlined); or why it
/// cannot be shown.
pub fn shown(file: &Path, path: &str) -> page::Shown {
    let mut shown = page::Shown {
        path: path.to_string(),
        ..page::Shown::default()
    };
    // kiln's JSON outputs (a level's `level.json`, a style set's
    // `manifest.json`) as what they say.
    if file.extension().is_some_and(|e| e == "json") && file.is_file() {
        let read = read(file, MAX_LEVEL_JSON_BYTES);
        match read
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| format!("invalid JSON: {e}")))
        {
            Ok(v) => {
                shown.what = "JSON".to_string();
                shown.data = v;
            }
            Err(e) => shown.problem = Some(e),
        }
        return shown;
    }
    let kind = match load_to_draw(file) {
        Ok(kind) => kind,
        Err(e) => {
            shown.problem = Some(match file.exists() {
                true => e,
                false => "not there: not built yet (`kiln build` makes it)".to_string(),
            });
            return shown;
        }
    };
    shown.what = crate::describe::label(&kind).to_string();
    shown.data = crate::describe::data(&kind);
    shown.scene = crate::describe::scene(&kind);
    shown.table = crate::describe::table(&kind)
        .map(|(_, t)| (t.rows().take(page::MAX_ROWS).collect(), t.len()));
    let pictures = match &kind {
        // Each model's atlas, its regions outlined as its level's
        // `level.json` gives them.
        FileKind::Characters(c) => character_atlases(c).and_then(|atlases| {
            atlases
                .into_iter()
                .enumerate()
                .map(|(k, (id, image))| {
                    picture(
                        format!("the atlas of model {id}"),
                        &image,
                        level_regions(c, k),
                    )
                })
                .collect()
        }),
        FileKind::Qoi(q) => {
            picture("the image".to_string(), &rgba8(q.clone()), Vec::new()).map(|p| vec![p])
        }
        // A source asset: the atlas kiln's material stage makes of it, each
        // region outlined with its materials.
        FileKind::Gltf(g) if g.node_uses.iter().any(|(mesh, _)| mesh.is_some()) => {
            atlas_of(file, &atlas::Settings::default())
                .map_err(|e| format!("its atlas: {e}"))
                .and_then(|a| {
                    let rects = a
                        .regions
                        .iter()
                        .map(|r| (r.rect, r.materials.join(", ")))
                        .collect();
                    picture("the atlas of its materials".to_string(), &a.image, rects)
                })
                .map(|p| vec![p])
        }
        _ => Ok(Vec::new()),
    };
    match pictures {
        Ok(p) => shown.pictures = p,
        Err(e) => shown.problem = Some(e),
    }
    shown
}

/// Model `k`'s atlas regions as its level's `level.json` gives them
/// (`[x, y, width, height]` and their materials); none when it does not.
fn level_regions(c: &CharactersFile, k: usize) -> Vec<([u32; 4], String)> {
    let regions = c
        .level
        .as_ref()
        .and_then(|l| l["characters"]["models"].get(k))
        .filter(|m| m["id"].as_str() == c.doc.models.get(k).map(|m| m.id.as_str()))
        .and_then(|m| m["atlas_regions"].as_array());
    let rect = |r: &serde_json::Value| -> Option<[u32; 4]> {
        let a = r["rect"].as_array()?;
        let n = |i: usize| a.get(i)?.as_u64().and_then(|v| u32::try_from(v).ok());
        Some([n(0)?, n(1)?, n(2)?, n(3)?])
    };
    regions
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let materials: Vec<&str> = r["materials"]
                .as_array()?
                .iter()
                .filter_map(|m| m.as_str())
                .collect();
            Some((rect(r)?, materials.join(", ")))
        })
        .collect()
}

/// `image` as a page's picture, with `rects` to outline.
fn picture(
    label: String,
    image: &crate::model::material::Rgba8,
    rects: Vec<([u32; 4], String)>,
) -> Result<page::Picture, String> {
    Ok(page::Picture {
        label,
        png: crate::import::image::encode_png(image).map_err(|e| e.to_string())?,
        width: image.width,
        height: image.height,
        rects,
    })
}
