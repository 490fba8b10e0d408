//! The rules shared by decode and validate. Each returns the variant of the
//! rule it breaks; `validate` keeps the rule's text and its own path,
//! `decode` the whole error.

use super::{Error, MAX_ENTITIES, MAX_FILE_BYTES, MAX_FRAMES, MAX_TEXT_BYTES, Pose};

pub(super) fn rule_dimensions(d: u8) -> Result<(), Error> {
    match d {
        2 | 3 => Ok(()),
        _ => Err(Error::Dimensions { found: d }),
    }
}

pub(super) fn rule_entity_count(n: u64) -> Result<(), Error> {
    if (1..=u64::from(MAX_ENTITIES)).contains(&n) {
        Ok(())
    } else {
        Err(Error::EntityCount { found: n })
    }
}

pub(super) fn rule_frame_count(n: u64) -> Result<(), Error> {
    if (1..=u64::from(MAX_FRAMES)).contains(&n) {
        Ok(())
    } else {
        Err(Error::FrameCount { found: n })
    }
}

pub(super) fn rule_start_step(s: i64) -> Result<(), Error> {
    if s >= 0 {
        Ok(())
    } else {
        Err(Error::StartStep { found: s })
    }
}

/// 0 (either sign) or positive and finite.
pub(super) fn rule_metres_per_unit(m: f64) -> Result<(), Error> {
    // -0.0 >= 0.0 holds; NaN fails both tests.
    if m.is_finite() && m >= 0.0 {
        Ok(())
    } else {
        Err(Error::MetresPerUnit { bits: m.to_bits() })
    }
}

pub(super) fn rule_text_len(offset: usize, field: &str, len: usize) -> Result<(), Error> {
    if len <= MAX_TEXT_BYTES {
        Ok(())
    } else {
        Err(Error::TextTooLong {
            offset: offset as u64,
            field: field.into(),
            len,
        })
    }
}

pub(super) fn rule_id(offset: usize, entity: usize, id: u64) -> Result<(), Error> {
    if id != 0 {
        Ok(())
    } else {
        Err(Error::EntityIdZero {
            offset: offset as u64,
            entity,
        })
    }
}

/// The first component of `size` that is not finite, if any (`offset` is
/// the size's first byte).
pub(super) fn rule_size(offset: usize, entity: usize, size: &[f32; 3]) -> Result<(), Error> {
    match size.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(axis) => Err(Error::Size {
            offset: (offset + 4 * axis) as u64,
            entity,
            axis,
            bits: size[axis].to_bits(),
        }),
    }
}

pub(super) const AXES: [&str; 4] = ["x", "y", "z", "w"];

/// Checks value `i` (0..7: position x y z, rotation x y z w) of a pose.
/// Position x may be NaN (absent) but not infinite; every other value must
/// be finite, even in an absent pose.
fn pose_value_ok(i: usize, v: f32) -> bool {
    if i == 0 {
        !v.is_infinite()
    } else {
        v.is_finite()
    }
}

/// The first value of a pose that breaks [`pose_value_ok`] in values
/// `range`, as its error (`offset` is the pose's first byte).
pub(super) fn rule_pose_value(
    offset: u64,
    (frame, entity): (usize, usize),
    values: &[f32; 7],
    range: std::ops::Range<usize>,
) -> Result<(), Error> {
    match range.into_iter().find(|&k| !pose_value_ok(k, values[k])) {
        None => Ok(()),
        Some(value) => Err(Error::PoseValue {
            offset: offset + (4 * value) as u64,
            frame,
            entity,
            value,
            bits: values[value].to_bits(),
        }),
    }
}

/// The fast path of [`pose_value_ok`] over a whole pose.
pub(super) fn pose_is_valid(p: &Pose) -> bool {
    let [x, y, z] = p.position;
    let [rx, ry, rz, rw] = p.rotation;
    !x.is_infinite()
        && y.is_finite()
        && z.is_finite()
        && rx.is_finite()
        && ry.is_finite()
        && rz.is_finite()
        && rw.is_finite()
}

pub(super) fn pose_value_name(i: usize) -> String {
    if i < 3 {
        format!("position {}", AXES[i])
    } else {
        format!("rotation {}", AXES[i - 3])
    }
}

pub(super) fn pose_values(p: &Pose) -> [f32; 7] {
    let [x, y, z] = p.position;
    let [rx, ry, rz, rw] = p.rotation;
    [x, y, z, rx, ry, rz, rw]
}

pub(super) fn fmt_f32(v: f32) -> String {
    if v.is_nan() {
        format!("NaN (bits {:#010x})", v.to_bits())
    } else {
        format!("{v:?}")
    }
}

pub(super) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub(super) fn pose_path(frame: usize, entity: usize, part: &str) -> String {
    format!("poses[frame {frame}, entity {entity}].{part}")
}

/// Checks a file size against [`MAX_FILE_BYTES`]. [`decode`](fn@super::decode) does this
/// first; a caller may call it with a file's length before reading it.
pub fn check_file_size(len: u64) -> Result<(), Error> {
    if len <= MAX_FILE_BYTES as u64 {
        Ok(())
    } else {
        Err(Error::FileTooLarge { len })
    }
}
