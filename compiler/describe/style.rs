//! A MotionBricks style (`.mbstyle`), described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::mbstyle::{self, Style};

/// Smallest and largest of `values` (0 and 0 when empty).
fn range(values: &[f32]) -> [f32; 2] {
    values
        .iter()
        .fold([f32::INFINITY, f32::NEG_INFINITY], |[lo, hi], &v| {
            [lo.min(v), hi.max(v)]
        })
}

fn style_ranges(s: &Style) -> Value {
    json!({
        "headings": range(&s.headings),
        "joint_positions": range(s.joint_positions.as_flattened()),
        "joint_rotations": range(s.joint_rotations.as_flattened()),
        "root_positions": range(s.root_positions.as_flattened()),
    })
}

pub(super) fn data(read: &mbstyle::Read) -> Value {
    let s = &read.style;
    let mut v = json!({
        "format": "motionbricks style",
        "version": 1,
        "name": s.name,
        "speed": s.speed,
        "index": s.index,
        "frames": s.frames(),
        "duration_s": s.frames() as f64 / 30.0,
        "allowed_tokens": s.allowed_tokens,
        "token_range": s.token_range().map(|(a, b)| [a, b]),
        "source_sha256": s.source_sha256,
        "ranges": style_ranges(s),
    });
    if let Some(e) = &read.not_canonical {
        v["not_canonical"] = json!(e.to_string());
    }
    v
}

/// The style as `kiln view`'s page draws it: the G1 skeleton's 34 joints
/// at every frame (each its stored position plus the frame's projected
/// root, in `f32`s: where the clip puts it in the world), each joined to
/// its parent, as a replay's (at most [`super::MAX_DRAWN_POSES`] poses).
pub(super) fn scene(read: &mbstyle::Read) -> Value {
    use crate::formats::motionbricks::G1_JOINTS;
    let s = &read.style;
    let n = mbstyle::JOINTS;
    let frames = s.frames().min(super::MAX_DRAWN_POSES / n);
    let positions = s
        .joint_positions
        .chunks_exact(n)
        .zip(&s.root_positions)
        .take(frames)
        .flat_map(|(joints, root)| {
            joints
                .iter()
                .flat_map(move |p| [p[0] + root[0], p[1] + root[1], p[2] + root[2]])
        });
    json!({
        "kind": "joints",
        "dimensions": 3,
        "frames": frames,
        "frames_in_file": s.frames(),
        "fps": 30,
        "entities": G1_JOINTS.iter().map(|(name, _)| name).collect::<Vec<_>>(),
        "parents": G1_JOINTS.iter().map(|(_, parent)| parent).collect::<Vec<_>>(),
        "positions": super::f32s_base64(positions),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, read: &mbstyle::Read) -> io::Result<()> {
    let s = &read.style;
    say!(
        o,
        "{}: MotionBricks style v1 {:?} (index {})",
        file,
        s.name,
        s.index
    );
    say!(
        o,
        "  {} frames ({:.2} s at 30 fps), speed {} m/s",
        s.frames(),
        s.frames() as f64 / 30.0,
        s.speed
    );
    let plans = match s.token_range() {
        Some((a, b)) => format!("{a}..{b} tokens"),
        None => "not one range".into(),
    };
    say!(o, "  allowed plans: {:?} ({plans})", s.allowed_tokens);
    let r = |v: &[f32]| {
        let [lo, hi] = range(v);
        format!("{lo:.3}..{hi:.3}")
    };
    say!(o, "  headings {} rad", r(&s.headings));
    say!(
        o,
        "  root positions {} m",
        r(s.root_positions.as_flattened())
    );
    say!(
        o,
        "  joint positions {} m (relative to the root)",
        r(s.joint_positions.as_flattened())
    );
    say!(
        o,
        "  joint rotations {}",
        r(s.joint_rotations.as_flattened())
    );
    say!(o, "  source sha256 {}", s.source_sha256);
    if let Some(e) = &read.not_canonical {
        say!(o, "  {}", not_canonical_note(e));
    }
    Ok(())
}

/// What a style the runtime loads but kiln would not write is: said apart
/// from the runtime's verdict.
pub fn not_canonical_note(e: &mbstyle::Error) -> String {
    format!(
        "not kiln's canonical form (the runtime loads it; kiln writes the spec's 14 keys in order, names of at most {} bytes, zero padding): {e}",
        mbstyle::MAX_NAME_BYTES
    )
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(read: &mbstyle::Read) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid MotionBricks style v1 {:?} ({} frames, speed {} m/s) the runtime loads{}",
        read.style.name,
        read.style.frames(),
        read.style.speed,
        read.not_canonical
            .as_ref()
            .map_or_else(String::new, |e| format!("; {}", not_canonical_note(e)))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn style(frames: usize) -> mbstyle::Read {
        let n = mbstyle::JOINTS;
        mbstyle::Read {
            style: Style {
                name: "walk".into(),
                speed: 1.0,
                index: 0,
                source_sha256: "0".repeat(64),
                allowed_tokens: mbstyle::mask(6, 16),
                headings: vec![0.0; frames],
                joint_positions: (0..frames * n)
                    .map(|i| [i as f32, 0.5, -(i as f32)])
                    .collect(),
                joint_rotations: vec![[0.0; 9]; frames * n],
                root_positions: (0..frames).map(|f| [0.25, 0.0, f as f32]).collect(),
            },
            not_canonical: None,
        }
    }

    fn positions(scene: &Value) -> Vec<f32> {
        base64::engine::general_purpose::STANDARD
            .decode(scene["positions"].as_str().unwrap())
            .unwrap()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn the_scene_is_every_g1_joint_where_the_clip_puts_it() {
        let read = style(3);
        let s = scene(&read);
        assert_eq!(s["kind"], "joints");
        assert_eq!(s["entities"][0], "pelvis_skel");
        assert_eq!(s["parents"][0], -1);
        assert_eq!(s["parents"][33], 32);
        assert_eq!(
            (s["frames"].as_u64(), s["frames_in_file"].as_u64()),
            (Some(3), Some(3))
        );
        let p = positions(&s);
        assert_eq!(p.len(), 3 * mbstyle::JOINTS * 3);
        // Frame 2, joint 1: stored [69, 0.5, -69] plus root [0.25, 0, 2].
        let at = (2 * mbstyle::JOINTS + 1) * 3;
        assert_eq!(&p[at..at + 3], [69.25, 0.5, -67.0]);
    }

    #[test]
    fn a_long_style_is_drawn_up_to_the_bound() {
        let frames = super::super::MAX_DRAWN_POSES / mbstyle::JOINTS + 2;
        let s = scene(&style(frames));
        let drawn = super::super::MAX_DRAWN_POSES / mbstyle::JOINTS;
        assert_eq!(
            (s["frames"].as_u64(), s["frames_in_file"].as_u64()),
            (Some(drawn as u64), Some(frames as u64))
        );
        assert_eq!(positions(&s).len(), drawn * mbstyle::JOINTS * 3);
    }
}
