//! What a file kiln reads holds, for people and for programs: each file
//! type's summary as data (the `--json` document of `kiln inspect`, which
//! a browser view can show), the same in lines of text, and `kiln
//! verify`'s verdict. One module per file type; [`FileKind`] is a decoded
//! file (the pipeline's `files::load` reads one), and the four functions
//! here are all the CLI calls, so a new file type adds a module and an arm
//! here, never a line in `cli/`.
//!
//! Pure: bytes and values in, values and text out, written to the sink the
//! caller gives.

/// `writeln!` into a text sink, returning its error.
macro_rules! say {
    ($o:expr, $($arg:tt)*) => {
        writeln!($o, $($arg)*)?
    };
}

pub mod atlas;
pub mod bundle;
pub mod cgeo;
pub mod characters;
pub mod gguf;
pub mod page;
mod pose_cache;
mod qoi;
mod replay;
pub mod safetensors;
pub mod scene;
mod style;

use std::io::{self, Write};
use std::path::Path;

use serde_json::Value;

pub use bundle::BundleCheck;
pub use cgeo::{CgeoFile, CgeoSnapshot, DrawnSnapshot};
pub use characters::CharactersFile;
pub use gguf::GgufFile;
pub use pose_cache::MAX_DRAWN_POSES;
pub use scene::{GltfSummary, MaterialInfo, MeshInfo, PrimitiveInfo, TextureInfo};
pub use style::not_canonical_note;

use crate::formats::mbreplay::Replay;
use crate::formats::ospc::PoseCache;
use crate::formats::{
    cgeo as cgeo_format, gguf as gguf_format, kchr, mbreplay, mbstyle, ospc, qoi as qoi_format,
    safetensors as st,
};

/// A file kiln understands, decoded.
pub enum FileKind {
    PoseCache(PoseCache),
    Replay(Replay),
    /// A `.mbstyle` that passed every check the runtime makes, and where
    /// it departs from kiln's canonical form (which the runtime accepts).
    Style(mbstyle::Read),
    Gltf(GltfSummary),
    Gguf(GgufFile),
    Safetensors(st::Header),
    /// A folder holding a MotionBricks bundle.
    Bundle(BundleCheck),
    Qoi(qoi_format::Image),
    /// A compiled characters entry (KCHR v1), valid, with its level's
    /// `level.json` when one is beside its folder (`levels/<level>/`).
    Characters(CharactersFile),
    /// A Corona CGeo mesh cache, every snapshot decoded (one at a time).
    Cgeo(CgeoFile),
}

/// A table too large to hold as a JSON value (a checkpoint's million
/// tensors): serialized row by row as it is written.
pub enum Table<'a> {
    Gguf(&'a gguf_format::Header),
    Safetensors(&'a st::Header),
}

impl<'a> Table<'a> {
    /// How many rows.
    pub fn len(&self) -> usize {
        match self {
            Table::Gguf(h) => h.tensor_count(),
            Table::Safetensors(h) => h.len(),
        }
    }

    /// Whether it has no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each row, made as it is asked for.
    pub fn rows(&self) -> Box<dyn Iterator<Item = Value> + 'a> {
        match *self {
            Table::Gguf(h) => Box::new(gguf::rows(h)),
            Table::Safetensors(h) => Box::new(safetensors::rows(h)),
        }
    }
}

impl serde::Serialize for Table<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for row in self.rows() {
            seq.serialize_element(&row)?;
        }
        seq.end()
    }
}

/// The file's summary as data: the fields of `kiln inspect --json` (a
/// field the file does not have is null), but for [`table`]'s.
pub fn data(kind: &FileKind) -> Value {
    match kind {
        FileKind::PoseCache(c) => pose_cache::data(c),
        FileKind::Replay(r) => replay::data(r),
        FileKind::Style(s) => style::data(s),
        FileKind::Gltf(g) => scene::data(g),
        FileKind::Gguf(g) => gguf::data(g),
        FileKind::Safetensors(h) => safetensors::data(h),
        FileKind::Bundle(b) => bundle::data(b),
        FileKind::Qoi(q) => qoi::data(q),
        FileKind::Characters(c) => characters::data(c),
        FileKind::Cgeo(c) => cgeo::data(c),
    }
}

/// The summary's field that is streamed, not held: its key and rows.
pub fn table(kind: &FileKind) -> Option<(&'static str, Table<'_>)> {
    match kind {
        FileKind::Gguf(g) => Some(("tensors", Table::Gguf(&g.header))),
        FileKind::Safetensors(h) => Some(("tensors", Table::Safetensors(h))),
        _ => None,
    }
}

/// What `kiln view`'s page draws of the file in 3-D (its `scene`), if it
/// draws anything: a pose cache's entities moving, a replay's joint tree,
/// compiled characters skinned and playing their clips, a CGeo sequence's
/// meshes (those `files::load_to_draw` kept), a style's G1 joints moving.
pub fn scene(kind: &FileKind) -> Option<Value> {
    match kind {
        FileKind::PoseCache(c) => Some(pose_cache::scene(c)),
        FileKind::Replay(r) => Some(replay::scene(r)),
        FileKind::Characters(c) => Some(characters::scene(c)),
        FileKind::Cgeo(c) => Some(cgeo::scene(c)),
        FileKind::Style(s) => Some(style::scene(s)),
        _ => None,
    }
}

/// Numbers as `kiln view`'s page carries them: each value's little-endian
/// bytes (`f32::to_le_bytes`, `u16::to_le_bytes`, ...), in base64.
fn le_base64<const N: usize>(values: impl IntoIterator<Item = [u8; N]>) -> String {
    use base64::Engine as _;
    let bytes: Vec<u8> = values.into_iter().flatten().collect();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Floats as the page carries them: little-endian `f32`s, in base64.
fn f32s_base64(values: impl IntoIterator<Item = f32>) -> String {
    le_base64(values.into_iter().map(f32::to_le_bytes))
}

/// What the file is, in a few words (a heading's).
pub fn label(kind: &FileKind) -> &'static str {
    match kind {
        FileKind::PoseCache(_) => "pose cache",
        FileKind::Replay(_) => "MotionBricks replay",
        FileKind::Style(_) => "MotionBricks style",
        FileKind::Gltf(_) => "glTF",
        FileKind::Gguf(_) => "GGUF",
        FileKind::Safetensors(_) => "safetensors checkpoint",
        FileKind::Bundle(_) => "MotionBricks bundle",
        FileKind::Qoi(_) => "QOI image",
        FileKind::Characters(_) => "compiled characters",
        FileKind::Cgeo(_) => "CGeo sequence",
    }
}

/// The summary in lines of text, the first naming `file` and its format.
pub fn text(kind: &FileKind, file: &str, o: &mut dyn Write) -> io::Result<()> {
    match kind {
        FileKind::PoseCache(c) => pose_cache::text(o, file, c),
        FileKind::Replay(r) => replay::text(o, file, r),
        FileKind::Style(s) => style::text(o, file, s),
        FileKind::Gltf(g) => scene::text(o, file, g),
        FileKind::Gguf(g) => gguf::text(o, file, g),
        FileKind::Safetensors(h) => safetensors::text(o, file, h),
        FileKind::Bundle(b) => bundle::text(o, file, b),
        FileKind::Qoi(q) => qoi::text(o, file, q),
        FileKind::Characters(c) => characters::text(o, file, c),
        FileKind::Cgeo(c) => cgeo::text(o, file, c),
    }
}

/// `kiln verify`'s verdict: a valid file's one-line summary, or every
/// problem found in it (a file that did not decode never gets here).
pub fn verdict(kind: &FileKind) -> Result<String, Vec<String>> {
    match kind {
        FileKind::PoseCache(c) => pose_cache::verdict(c),
        FileKind::Replay(r) => replay::verdict(r),
        FileKind::Style(s) => style::verdict(s),
        FileKind::Gltf(g) => scene::verdict(g),
        FileKind::Gguf(g) => gguf::verdict(g),
        FileKind::Safetensors(h) => safetensors::verdict(h),
        FileKind::Bundle(b) => bundle::verdict(b),
        FileKind::Qoi(q) => qoi::verdict(q),
        FileKind::Characters(c) => characters::verdict(c),
        FileKind::Cgeo(c) => cgeo::verdict(c),
    }
}

/// A type of file kiln reads (`inspect` and `verify` take each):
/// what it is, and the names that say it (an extension, a path's end, or
/// a folder's content).
pub struct FileType {
    pub what: &'static str,
    pub names: &'static [&'static str],
    /// `None`: a folder, recognised by its content.
    kind: Option<Kind>,
}

/// Every type of file kiln reads, in the order help lists them. The
/// extensions that say a type, the help texts and the refusal of an
/// unknown file are all read off this list.
pub const FILE_TYPES: &[FileType] = &[
    FileType {
        what: "glTF sources",
        names: &[".glb", ".gltf"],
        kind: Some(Kind::Gltf),
    },
    FileType {
        what: "pose caches",
        names: &[".ospc"],
        kind: Some(Kind::PoseCache),
    },
    FileType {
        what: "compiled characters entries",
        names: &["@world/characters"],
        kind: Some(Kind::Characters),
    },
    FileType {
        what: "CGeo sequences",
        names: &[".cgeo"],
        kind: Some(Kind::Cgeo),
    },
    FileType {
        what: "GGUF files",
        names: &[".gguf"],
        kind: Some(Kind::Gguf),
    },
    FileType {
        what: "MotionBricks styles",
        names: &[".mbstyle"],
        kind: Some(Kind::Gguf),
    },
    FileType {
        what: "MotionBricks replays",
        names: &[".mbreplay"],
        kind: Some(Kind::Replay),
    },
    FileType {
        what: "safetensors checkpoints",
        names: &[".safetensors"],
        kind: Some(Kind::Safetensors),
    },
    FileType {
        what: "QOI images",
        names: &[".qoi"],
        kind: Some(Kind::Qoi),
    },
    FileType {
        what: "MotionBricks bundle folders",
        names: &["a folder holding manifest.json"],
        kind: None,
    },
];

/// [`FILE_TYPES`] in words: `glTF sources (.glb, .gltf), pose caches
/// (.ospc), …`.
pub fn file_types_text() -> String {
    FILE_TYPES
        .iter()
        .map(|t| format!("{} ({})", t.what, t.names.join(", ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The formats kiln reads (the pipeline's `files::load` decodes each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Replay,
    Gguf,
    Qoi,
    Characters,
    Safetensors,
    PoseCache,
    Gltf,
    Cgeo,
}

/// The format a file's first bytes say it is.
pub fn kind_by_magic(head: &[u8]) -> Option<Kind> {
    let magic = &head[..head.len().min(4)];
    // CGeo's magic is one byte: with it, a header length in range.
    let cgeo_like = head.len() >= 5
        && head[0] == cgeo_format::MAGIC
        && (1..=cgeo_format::MAX_HEADER_BYTES)
            .contains(&u32::from_le_bytes([head[1], head[2], head[3], head[4]]));
    match () {
        _ if head == mbreplay::MAGIC => Some(Kind::Replay),
        _ if magic == gguf_format::MAGIC => Some(Kind::Gguf),
        _ if magic == qoi_format::MAGIC => Some(Kind::Qoi),
        _ if magic == kchr::MAGIC => Some(Kind::Characters),
        _ if magic == ospc::MAGIC => Some(Kind::PoseCache),
        _ if magic == *b"glTF" => Some(Kind::Gltf),
        _ if cgeo_like => Some(Kind::Cgeo),
        _ => None,
    }
}

/// The format a file's name says it is: its extension, or a compiled
/// characters entry's `@world/characters`.
pub fn kind_by_name(file: &Path) -> Option<Kind> {
    let name = file
        .to_string_lossy()
        .replace('\\', "/")
        .to_ascii_lowercase();
    FILE_TYPES.iter().find_map(|t| {
        let says = t.names.iter().any(|n| {
            // An extension, or the end of a path after a `/`.
            (n.starts_with('.') && name.ends_with(n))
                || (n.contains('/') && (name == *n || name.ends_with(&format!("/{n}"))))
        });
        if says { t.kind } else { None }
    })
}
