//! Reading a pose cache: the fixed header and its texts, the entity table,
//! then the poses, exactly the rest of the file.

use crate::formats::cursor::{self, Cursor};
use std::collections::BTreeMap;

use super::rules::{
    check_file_size, pose_is_valid, rule_dimensions, rule_entity_count, rule_frame_count, rule_id,
    rule_metres_per_unit, rule_pose_value, rule_size, rule_start_step, rule_text_len,
};
use super::{
    ENTITY_MIN_BYTES, Entity, Error, MAGIC, POSE_BYTES, Pose, PoseCache, Shape, TEXT_NAMES, VERSION,
};

/// ospc's reads on the shared cursor: text fields.
trait TextField {
    fn text(&mut self, what: &str) -> Result<String, Error>;
}

impl TextField for Cursor<'_> {
    /// A u16 length, at most [`MAX_TEXT_BYTES`](super::MAX_TEXT_BYTES), then that many bytes of
    /// UTF-8.
    fn text(&mut self, what: &str) -> Result<String, Error> {
        let at = self.offset();
        let len = usize::from(self.u16(&format!("{what} length"))?);
        rule_text_len(at, what, len)?;
        let start = self.offset();
        let raw = self.take(len, what)?;
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => {
                let bad = e.valid_up_to();
                Err(Error::TextNotUtf8 {
                    offset: (start + bad) as u64,
                    field: what.into(),
                    byte: raw[bad],
                })
            }
        }
    }
}

/// Reads a pose cache. The result is valid by construction: [`validate`](fn@super::validate)
/// finds no problem in it, and [`encode`](fn@super::encode) gives back `bytes` exactly.
pub fn decode(bytes: &[u8]) -> Result<PoseCache, Error> {
    check_file_size(bytes.len() as u64)?;
    let mut r = Cursor::new(bytes);

    let magic = r.array::<4>("magic")?;
    if magic != MAGIC {
        return Err(Error::Magic { found: magic });
    }
    let version = r.u16("version")?;
    if version != VERSION {
        return Err(Error::Version { found: version });
    }
    let flags = r.u16("flags")?;
    if flags != 0 {
        return Err(Error::Flags { found: flags });
    }
    let dimensions = r.u8("dimensions")?;
    rule_dimensions(dimensions)?;
    let reserved8 = r.u8("reserved byte")?;
    if reserved8 != 0 {
        return Err(Error::ReservedByte { found: reserved8 });
    }
    let reserved16 = r.u16("reserved u16")?;
    if reserved16 != 0 {
        return Err(Error::ReservedU16 { found: reserved16 });
    }
    let entity_count = r.u32("entity count")?;
    rule_entity_count(entity_count.into())?;
    let frame_count = r.u32("frame count")?;
    rule_frame_count(frame_count.into())?;
    let start_step = r.i64("start step")?;
    rule_start_step(start_step)?;
    let metres_per_unit = r.f64("metres per unit")?;
    rule_metres_per_unit(metres_per_unit)?;

    let unit_name = r.text(TEXT_NAMES[0])?;
    let module_id = r.text(TEXT_NAMES[1])?;
    let library_version = r.text(TEXT_NAMES[2])?;
    let scene = r.text(TEXT_NAMES[3])?;
    let replay = r.text(TEXT_NAMES[4])?;
    let label = r.text(TEXT_NAMES[5])?;

    let n_entities = entity_count as usize;
    let entities = read_entities(&mut r, n_entities)?;
    let poses = read_poses(&r, frame_count as usize, n_entities)?;

    Ok(PoseCache {
        dimensions,
        start_step,
        metres_per_unit,
        unit_name,
        module_id,
        library_version,
        scene,
        replay,
        label,
        entities,
        poses,
    })
}

/// The entity table: each id unique and in range, its shape known, its
/// padding zero, its size finite and positive, its name text.
fn read_entities(r: &mut Cursor, n_entities: usize) -> Result<Vec<Entity>, Error> {
    // Entities: check the smallest size they can have against what remains
    // before allocating for them (at most 65 536 x 26 bytes, which cannot
    // overflow).
    if n_entities.saturating_mul(ENTITY_MIN_BYTES) > r.remaining() {
        return Err(Error::EntityTable {
            offset: r.offset() as u64,
            entities: n_entities,
            remaining: r.remaining(),
        });
    }
    let mut entities = Vec::with_capacity(n_entities);
    let mut first_index_of: BTreeMap<u64, usize> = BTreeMap::new();
    for i in 0..n_entities {
        let what = |field: &str| format!("entities[{i}].{field}");
        let at = r.offset();
        let id = r.u64(&what("id"))?;
        rule_id(at, i, id)?;
        if let Some(first) = first_index_of.insert(id, i) {
            return Err(Error::EntityIdRepeated {
                offset: at as u64,
                entity: i,
                id,
                first,
            });
        }
        let at = r.offset();
        let code = r.u8(&what("shape"))?;
        let shape = Shape::from_code(code).ok_or(Error::Shape {
            offset: at as u64,
            entity: i,
            code,
        })?;
        let at = r.offset();
        let pad = r.array::<3>(&what("padding"))?;
        if let Some(k) = pad.iter().position(|&b| b != 0) {
            return Err(Error::ShapePadding {
                offset: (at + k) as u64,
                entity: i,
                byte: pad[k],
            });
        }
        let at = r.offset();
        let size = [
            r.f32(&what("size"))?,
            r.f32(&what("size"))?,
            r.f32(&what("size"))?,
        ];
        rule_size(at, i, &size)?;
        let name = r.text(&what("name"))?;
        entities.push(Entity {
            id,
            shape,
            size,
            name,
        });
    }
    Ok(entities)
}

/// The poses, `n_frames` (at most [`MAX_FRAMES`](super::MAX_FRAMES)) of `n_entities` each:
/// the rest of the file, exactly, each value valid.
fn read_poses(r: &Cursor, n_frames: usize, n_entities: usize) -> Result<Vec<Pose>, Error> {
    let pose_bytes = n_frames
        .checked_mul(n_entities)
        .and_then(|n| n.checked_mul(POSE_BYTES));
    if pose_bytes != Some(r.remaining()) {
        return Err(Error::PoseBytes {
            offset: r.offset() as u64,
            frames: n_frames,
            entities: n_entities,
            remaining: r.remaining(),
        });
    }
    // The length is exact, so the poses are read straight from the rest.
    let rest = r.rest();
    let first_pose = r.offset();
    let mut poses = crate::memory::with_capacity(rest.len() / POSE_BYTES).map_err(|e| {
        Error::Bytes(cursor::Error::NoMemory {
            offset: first_pose as u64,
            what: "poses".into(),
            bytes: e.bytes,
        })
    })?;
    for (j, chunk) in rest.chunks_exact(POSE_BYTES).enumerate() {
        let mut v = [0f32; 7];
        for (slot, b) in v.iter_mut().zip(chunk.chunks_exact(4)) {
            *slot = f32::from_bits(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
        let pose = Pose {
            position: [v[0], v[1], v[2]],
            rotation: [v[3], v[4], v[5], v[6]],
        };
        if !pose_is_valid(&pose) {
            let at = first_pose + j * POSE_BYTES;
            rule_pose_value(at as u64, (j / n_entities, j % n_entities), &v, 0..7)?;
        }
        poses.push(pose);
    }
    Ok(poses)
}
