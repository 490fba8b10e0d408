//! Bakers: the in-memory model in, output documents out.
//!
//! Pure like the codecs: no files, no threads. Each baker is a few named
//! stage functions with a typed settings struct.

pub mod atlas;
pub mod cgeo_poses;
pub mod cgeo_sequence;
pub mod character;
pub mod gguf_stream;
pub mod level;
pub mod llama_cpp;
pub mod model_bundle;
pub mod pose_cache;
pub mod rigid;
pub mod skinning;
pub mod style;
pub mod tensor_convert;
