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
