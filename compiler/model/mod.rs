//! The in-memory model: what importers produce and bakers consume.
//!
//! Plain data, no I/O, no on-disk layout. Core types are not file formats: a
//! `Scene` is never serialized as-is; bakers turn it into documents under
//! `formats/`.

pub mod material;
pub mod math;
pub mod sample;
pub mod scene;

pub use scene::{
    Channel, Clip, Instance, Interpolation, LocalTransform, Node, Scene, Skin, Target, Trs,
};
