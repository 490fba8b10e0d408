//! A MotionBricks replay (`.mbreplay`), described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::formats::mbreplay::{self, Replay};

/// The smallest and largest of each axis of `points` (zeros when empty).
fn bounds(points: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in points {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if points.is_empty() {
        return ([0.0; 3], [0.0; 3]);
    }
    (lo, hi)
}

pub(super) fn data(r: &Replay) -> Value {
    let (lo, hi) = bounds(&r.positions);
    json!({
        "format": "motionbricks replay",
        "version": mbreplay::VERSION,
        "fps": r.fps,
        "frames": r.frames(),
        "duration_s": r.frames() as f64 / f64::from(r.fps),
        "joints": r.joints(),
        "parents": r.parents,
        "qpos_count": r.qpos_count,
        "pre_roll_frames": r.active_plan.iter().filter(|&&a| a == -1).count(),
        "position_bounds": { "min": lo, "max": hi },
        "plans": r.plans.iter().map(|p| json!({
            "first_frame": p.first_frame,
            "mode": p.mode,
            "length": p.length,
        })).collect::<Vec<_>>(),
    })
}

pub(super) fn text(o: &mut dyn Write, file: &str, r: &Replay) -> io::Result<()> {
    say!(o, "{}: MotionBricks replay v{}", file, mbreplay::VERSION);
    say!(
        o,
        "  {} frames at {} fps ({:.2} s), {} joints, {} qpos values per frame",
        r.frames(),
        r.fps,
        r.frames() as f64 / f64::from(r.fps),
        r.joints(),
        r.qpos_count
    );
    let pre_roll = r.active_plan.iter().filter(|&&a| a == -1).count();
    say!(o, "  {} plans; {pre_roll} pre-roll frames", r.plans.len());
    let (lo, hi) = bounds(&r.positions);
    say!(
        o,
        "  joint positions: x {:.3}..{:.3}, y {:.3}..{:.3}, z {:.3}..{:.3} m",
        lo[0],
        hi[0],
        lo[1],
        hi[1],
        lo[2],
        hi[2]
    );
    say!(o, "  parents: {:?}", r.parents);
    for (i, p) in r.plans.iter().enumerate() {
        say!(
            o,
            "  plan {i}: from frame {}, mode {}, {} frames generated",
            p.first_frame,
            p.mode,
            p.length
        );
    }
    Ok(())
}

/// `verify`'s line for a valid file.
pub(super) fn verdict(r: &Replay) -> Result<String, Vec<String>> {
    Ok(format!(
        "valid MotionBricks replay v1 ({} frames at {} fps, {} joints, {} plans)",
        r.frames(),
        r.fps,
        r.joints(),
        r.plans.len()
    ))
}

/// The replay as `kiln view`'s page draws it: every joint's world position
/// at every frame (as a pose cache's scene, at most
/// [`super::MAX_DRAWN_POSES`] of them), each joint joined to its parent.
pub(super) fn scene(r: &Replay) -> Value {
    let n = r.joints();
    let frames = r
        .frames()
        .min(super::MAX_DRAWN_POSES.checked_div(n).unwrap_or(0));
    let positions = r.positions.iter().take(frames * n).flatten().copied();
    json!({
        "kind": "joints",
        "dimensions": 3,
        "frames": frames,
        "frames_in_file": r.frames(),
        "fps": r.fps,
        "entities": (0..n).map(|j| format!("joint {j}")).collect::<Vec<_>>(),
        "parents": r.parents,
        "positions": super::f32s_base64(positions),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scene_is_every_joint_at_every_frame_with_its_parent() {
        let r = Replay {
            fps: 30,
            parents: vec![-1, 0],
            modes: vec![0; 3],
            active_plan: vec![-1; 3],
            qpos_count: 0,
            qpos: Vec::new(),
            positions: (0..6).map(|i| [i as f32, 1.0, -2.5]).collect(),
            plans: Vec::new(),
        };
        let s = scene(&r);
        assert_eq!(s["kind"], "joints");
        assert_eq!(s["parents"], json!([-1, 0]));
        assert_eq!(
            (s["frames"].as_u64(), s["frames_in_file"].as_u64()),
            (Some(3), Some(3))
        );
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(s["positions"].as_str().unwrap())
            .unwrap();
        let floats: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(floats, r.positions.concat());
    }
}
