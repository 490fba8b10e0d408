//! OneScope pose cache, version 1 (`.ospc`). Spec: `docs/formats/ospc.md`.
//!
//! (skeleton: to be implemented)

/// Most bytes a pose cache may have.
pub const MAX_FILE_BYTES: usize = 256 << 20;
pub const MAX_ENTITIES: u32 = 65_536;
pub const MAX_FRAMES: u32 = 4_194_304;
pub const MAX_TEXT_BYTES: usize = 1024;
pub const MAGIC: [u8; 4] = *b"OSPC";
pub const VERSION: u16 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Point,
    Sphere,
    Box,
    Capsule,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// Non-zero, unique within the cache.
    pub id: u64,
    pub shape: Shape,
    /// Sphere: radius in x. Box: half extents. Capsule: radius in x, half
    /// length in y (axis is local Y). Finite.
    pub size: [f32; 3],
    pub name: String,
}

/// One entity at one frame: position x y z, rotation x y z w, stored
/// exactly as in the file (so a NaN payload round-trips bit for bit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: [f32; 3],
    pub rotation: [f32; 4],
}

#[derive(Clone, Debug, PartialEq)]
pub struct PoseCache {
    /// 2 or 3.
    pub dimensions: u8,
    pub start_step: i64,
    /// 0 (no physical size) or positive and finite.
    pub metres_per_unit: f64,
    pub unit_name: String,
    pub module_id: String,
    pub library_version: String,
    pub scene: String,
    pub replay: String,
    pub label: String,
    pub entities: Vec<Entity>,
    /// `frames * entities.len()` poses, frame-major: pose of entity `e` at
    /// frame `f` is `poses[f * entities.len() + e]`.
    pub poses: Vec<Pose>,
}

#[derive(Debug, thiserror::Error)]
#[error("at byte {offset}: {message}")]
pub struct Error {
    pub offset: u64,
    pub message: String,
}

/// (skeleton) Encodes a valid cache.
pub fn encode(cache: &PoseCache) -> Result<Vec<u8>, Error> {
    let _ = cache;
    Err(Error {
        offset: 0,
        message: "not implemented".into(),
    })
}

/// (skeleton) Decodes and validates a pose cache.
pub fn decode(bytes: &[u8]) -> Result<PoseCache, Error> {
    let _ = bytes;
    Err(Error {
        offset: 0,
        message: "not implemented".into(),
    })
}

impl PoseCache {
    pub fn n_frames(&self) -> usize {
        self.poses.len() / self.entities.len().max(1)
    }
}

impl Pose {
    pub fn is_absent(&self) -> bool {
        self.position[0].is_nan()
    }
}
