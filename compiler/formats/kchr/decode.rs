//! Reading a document: every count bounded before it sizes anything, and
//! where each item was found, so that problems carry byte offsets.

use crate::formats::cursor::{self, Cursor};

use super::validate::check;
use super::{
    BANK_MIN_BYTES, Bank, CLIP_MIN_BYTES, Clip, Document, Error, Image, Loc, MAGIC, MAX_BANKS,
    MAX_BYTES, MAX_CLIPS, MAX_IMAGE_BYTES, MAX_INDICES, MAX_JOINTS, MAX_KEYS, MAX_MODELS, MAX_NAME,
    MAX_NODES, MAX_TRACKS, MAX_VERTICES, MODEL_MIN_BYTES, Model, NO_PARENT, NODE_MIN_BYTES, Node,
    Path, TRACK_MIN_BYTES, Track, VERSION, offsets,
};

/// Where decode found each item, so that problems carry offsets.
#[derive(Default)]
struct Where {
    models: Vec<ModelAt>,
    banks: Vec<BankAt>,
}

#[derive(Default)]
struct ModelAt {
    start: usize,
    nodes: Vec<usize>,
    joints: usize,
    inverse_bind: usize,
    vertices: usize,
    indices: usize,
    image: usize,
}

#[derive(Default)]
struct BankAt {
    start: usize,
    clips: Vec<ClipAt>,
}

#[derive(Default)]
struct ClipAt {
    start: usize,
    tracks: Vec<TrackAt>,
}

#[derive(Clone, Copy, Default)]
struct TrackAt {
    start: usize,
    times: usize,
    values: usize,
    width: usize,
}

impl Where {
    fn offset(&self, loc: Loc) -> Option<usize> {
        let track = |b: usize, c: usize, t: usize| -> Option<TrackAt> {
            self.banks.get(b)?.clips.get(c)?.tracks.get(t).copied()
        };
        Some(match loc {
            Loc::Document => 0,
            Loc::Model(m) => self.models.get(m)?.start,
            Loc::Node(m, n) => *self.models.get(m)?.nodes.get(n)?,
            Loc::Joint(m, j) => self.models.get(m)?.joints + 4 * j,
            Loc::InverseBind(m, j) => self.models.get(m)?.inverse_bind + 64 * j,
            Loc::Vertex(m, v) => self.models.get(m)?.vertices + 64 * v,
            Loc::Index(m, i) => self.models.get(m)?.indices + 2 * i,
            Loc::Image(m) => self.models.get(m)?.image,
            Loc::Bank(b) => self.banks.get(b)?.start,
            Loc::Clip(b, c) => self.banks.get(b)?.clips.get(c)?.start,
            Loc::Track(b, c, t) => track(b, c, t)?.start,
            Loc::KeyTime(b, c, t, k) => track(b, c, t)?.times + 4 * k,
            Loc::KeyValue(b, c, t, k) => {
                let at = track(b, c, t)?;
                at.values + 4 * at.width * k
            }
        })
    }
}

fn read_name(c: &mut Cursor, what: &'static str) -> Result<String, Error> {
    let offset = c.offset();
    let len = c.u8(what)?;
    if len == 0 || usize::from(len) > MAX_NAME {
        return Err(Error::NameLength {
            offset: offset as u64,
            what,
            len,
        });
    }
    let bytes = c.take(usize::from(len), what)?;
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => Err(Error::NameUtf8 {
            offset: (offset + 1 + e.valid_up_to()) as u64,
            what,
        }),
    }
}

/// A count (u32 or u16 already widened) checked against `limit` and the
/// bytes left for items of at least `item_bytes`.
fn read_count(
    c: &mut Cursor,
    wide: bool,
    item_bytes: u64,
    limit: usize,
    what: &str,
) -> Result<usize, Error> {
    let offset = c.offset();
    let n = if wide {
        u64::from(c.u32(what)?)
    } else {
        u64::from(c.u16(what)?)
    };
    Ok(c.count(offset as u64, n, item_bytes, limit as u64, what)?)
}

fn f32s<const N: usize>(c: &mut Cursor, what: &str) -> Result<[f32; N], Error> {
    let mut out = [0.0; N];
    for v in &mut out {
        *v = c.f32(what)?;
    }
    Ok(out)
}

fn reserved_u16(c: &mut Cursor) -> Result<(), Error> {
    let offset = c.offset();
    let found = c.u16("reserved")?;
    if found != 0 {
        return Err(Error::Reserved {
            offset: offset as u64,
            found: u32::from(found),
        });
    }
    Ok(())
}

/// Reads and validates a document. The result owns its data.
pub fn decode(bytes: &[u8]) -> Result<Document, Error> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::TooLarge { len: bytes.len() });
    }
    let mut c = Cursor::new(bytes);
    let magic = c.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let version = c.u32("version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let reserved = c.u32("reserved")?;
    if reserved != 0 {
        return Err(Error::Reserved {
            offset: (offsets::RESERVED) as u64,
            found: reserved,
        });
    }
    let declared = c.u32("document length")?;
    if declared as usize != bytes.len() {
        return Err(Error::Length {
            declared,
            actual: bytes.len(),
        });
    }
    let n_models = read_count(&mut c, false, MODEL_MIN_BYTES, MAX_MODELS, "model count")?;
    let n_banks = read_count(&mut c, false, BANK_MIN_BYTES, MAX_BANKS, "bank count")?;
    let mut doc = Document::default();
    let mut at = Where::default();
    for _ in 0..n_models {
        let (model, model_at) = read_model(&mut c)?;
        doc.models.push(model);
        at.models.push(model_at);
    }
    for _ in 0..n_banks {
        let (bank, bank_at) = read_bank(&mut c)?;
        doc.banks.push(bank);
        at.banks.push(bank_at);
    }
    c.finish("document")?;
    let problems = check(&doc, &|loc| at.offset(loc), super::ImageCheck::Full);
    if problems.is_empty() {
        Ok(doc)
    } else {
        Err(Error::Invalid(problems))
    }
}

fn read_model(c: &mut Cursor) -> Result<(Model, ModelAt), Error> {
    let mut at = ModelAt {
        start: c.offset(),
        ..ModelAt::default()
    };
    let id = read_name(c, "model id")?;
    let bank = c.u32("bank")?;
    let n_nodes = read_count(c, true, NODE_MIN_BYTES + 1, MAX_NODES, "node count")?;
    let mut nodes = Vec::with_capacity(n_nodes);
    for _ in 0..n_nodes {
        at.nodes.push(c.offset());
        let name = read_name(c, "node name")?;
        let parent = c.u32("parent")?;
        nodes.push(Node {
            name,
            parent: (parent != NO_PARENT).then_some(parent),
            translation: f32s(c, "translation")?,
            rotation: f32s(c, "rotation")?,
            scale: f32s(c, "scale")?,
        });
    }
    let mesh_node = c.u32("mesh node")?;
    let n_joints = read_count(c, true, 4 + 64, MAX_JOINTS, "joint count")?;
    at.joints = c.offset();
    let joints = c.values(4 * n_joints, "palette", cursor::le_u32s)?;
    at.inverse_bind = c.offset();
    let inverse_bind = c.values(
        64 * n_joints,
        "inverse-bind matrices",
        cursor::le_f32_arrays::<16>,
    )?;
    let n_vertices = read_count(c, true, 64, MAX_VERTICES, "vertex count")?;
    at.vertices = c.offset();
    let vertices = c.values(64 * n_vertices, "vertices", cursor::le_f32_arrays::<16>)?;
    let n_indices = read_count(c, true, 2, MAX_INDICES, "index count")?;
    at.indices = c.offset();
    let indices = c
        .take(2 * n_indices, "indices")?
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let width = c.u32("image width")?;
    let height = c.u32("image height")?;
    let len = read_count(c, true, 1, MAX_IMAGE_BYTES, "image byte length")?;
    at.image = c.offset();
    let qoi = c.values(len, "image", crate::memory::copy)?;
    let model = Model {
        id,
        bank,
        nodes,
        mesh_node,
        joints,
        inverse_bind,
        vertices,
        indices,
        image: Image { width, height, qoi },
    };
    Ok((model, at))
}

fn read_bank(c: &mut Cursor) -> Result<(Bank, BankAt), Error> {
    let mut at = BankAt {
        start: c.offset(),
        ..BankAt::default()
    };
    let id = read_name(c, "bank id")?;
    let n_clips = read_count(c, true, CLIP_MIN_BYTES, MAX_CLIPS, "clip count")?;
    let mut clips = Vec::with_capacity(n_clips);
    for _ in 0..n_clips {
        let mut clip_at = ClipAt {
            start: c.offset(),
            ..ClipAt::default()
        };
        let name = read_name(c, "clip name")?;
        let duration_s = c.f32("duration")?;
        let n_tracks = read_count(c, true, TRACK_MIN_BYTES, MAX_TRACKS, "track count")?;
        let mut tracks = Vec::with_capacity(n_tracks);
        for _ in 0..n_tracks {
            let start = c.offset();
            let node = read_name(c, "track node name")?;
            let offset = c.offset();
            let code = c.u8("path")?;
            let path = Path::from_code(code).ok_or(Error::PathCode {
                offset: offset as u64,
                code,
            })?;
            let offset = c.offset();
            let step = match c.u8("step")? {
                0 => false,
                1 => true,
                code => {
                    return Err(Error::StepFlag {
                        offset: offset as u64,
                        code,
                    });
                }
            };
            reserved_u16(c)?;
            let width = path.width();
            let n_keys = read_count(c, true, 4 + 4 * width as u64, MAX_KEYS, "key count")?;
            let times = c.offset();
            let times_s = c.values(4 * n_keys, "key times", cursor::le_f32s)?;
            let values_at = c.offset();
            let values = c.values(4 * width * n_keys, "key values", cursor::le_f32s)?;
            clip_at.tracks.push(TrackAt {
                start,
                times,
                values: values_at,
                width,
            });
            tracks.push(Track {
                node,
                path,
                step,
                times_s,
                values,
            });
        }
        at.clips.push(clip_at);
        clips.push(Clip {
            name,
            duration_s,
            tracks,
        });
    }
    Ok((Bank { id, clips }, at))
}
