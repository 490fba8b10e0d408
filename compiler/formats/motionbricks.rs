//! The identity every MotionBricks file carries (the GGUF bundle's
//! components and `.mbstyle` styles): the architecture, skeleton and
//! upstream revision, the G1 skeleton, and the ten metadata keys every
//! MotionBricks GGUF starts with. Spec: docs/formats/motionbricks.md.

use super::gguf::{Header, Value};

/// The upstream revision the bundle's components name.
pub const UPSTREAM_REVISION: &str = "a0732b642c0333077e127a2f56ab0014c196bca4";
pub const SKELETON: &str = "g1skel34";
pub const ARCHITECTURE: &str = "motionbricks";
pub const BUNDLE_NAME: &str = "NVIDIA MotionBricks G1";
pub const BUNDLE_FORMAT: &str = "motionbricks-gguf-bundle-v1";
pub const SAFE_MANIFEST_FORMAT: &str = "motionbricks-safe-manifest-v1";
pub const ALIGNMENT: u32 = 32;

/// The G1 skeleton: (name, parent), index order.
pub const G1_JOINTS: [(&str, i32); 34] = [
    ("pelvis_skel", -1),
    ("left_hip_pitch_skel", 0),
    ("left_hip_roll_skel", 1),
    ("left_hip_yaw_skel", 2),
    ("left_knee_skel", 3),
    ("left_ankle_pitch_skel", 4),
    ("left_ankle_roll_skel", 5),
    ("left_toe_base", 6),
    ("right_hip_pitch_skel", 0),
    ("right_hip_roll_skel", 8),
    ("right_hip_yaw_skel", 9),
    ("right_knee_skel", 10),
    ("right_ankle_pitch_skel", 11),
    ("right_ankle_roll_skel", 12),
    ("right_toe_base", 13),
    ("waist_yaw_skel", 0),
    ("waist_roll_skel", 15),
    ("waist_pitch_skel", 16),
    ("left_shoulder_pitch_skel", 17),
    ("left_shoulder_roll_skel", 18),
    ("left_shoulder_yaw_skel", 19),
    ("left_elbow_skel", 20),
    ("left_wrist_roll_skel", 21),
    ("left_wrist_pitch_skel", 22),
    ("left_wrist_yaw_skel", 23),
    ("left_hand_roll_skel", 24),
    ("right_shoulder_pitch_skel", 17),
    ("right_shoulder_roll_skel", 26),
    ("right_shoulder_yaw_skel", 27),
    ("right_elbow_skel", 28),
    ("right_wrist_roll_skel", 29),
    ("right_wrist_pitch_skel", 30),
    ("right_wrist_yaw_skel", 31),
    ("right_hand_roll_skel", 32),
];

/// One metadata entry.
pub fn kv(key: &str, value: Value) -> (String, Value) {
    (key.to_string(), value)
}

/// The ten keys every MotionBricks GGUF starts with, in order.
pub fn common_metadata(
    component: &str,
    name: &str,
    source_sha256: &str,
    parameter_count: u64,
) -> Vec<(String, Value)> {
    vec![
        kv("general.architecture", Value::String(ARCHITECTURE.into())),
        kv("general.name", Value::String(name.into())),
        kv("general.alignment", Value::U32(ALIGNMENT)),
        kv("general.file_type", Value::U32(0)),
        kv("motionbricks.format_version", Value::U32(1)),
        kv("motionbricks.component", Value::String(component.into())),
        kv("motionbricks.skeleton", Value::String(SKELETON.into())),
        kv(
            "motionbricks.upstream_revision",
            Value::String(UPSTREAM_REVISION.into()),
        ),
        kv(
            "motionbricks.source_sha256",
            Value::String(source_sha256.into()),
        ),
        kv("motionbricks.parameter_count", Value::U64(parameter_count)),
    ]
}

pub use super::problem::Problem;

/// What the MotionBricks runtime refuses in the keys every MotionBricks
/// GGUF carries (architecture, `general.name` when `name` is given (a
/// style checks its own against its `style_name`), alignment 32, file
/// type 0, `component`, skeleton,
/// revision, format version, parameter count against the tensors, a
/// source hash of 64 lowercase hex digits), each value and type at its
/// entry; empty when they load.
pub fn common_problems(component: &str, name: Option<&str>, h: &Header) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut want = |key: &str, check: &dyn Fn(&Value) -> Result<(), String>| {
        let message = match h.get(key) {
            None => format!("metadata {key} is missing"),
            Some(v) => match check(v) {
                Ok(()) => return,
                Err(e) => format!("metadata {key}: {e}"),
            },
        };
        problems.push(Problem::at(h.key_at(key), "", message));
    };
    let string = |expected: &str| {
        let expected = expected.to_string();
        move |v: &Value| match v {
            Value::String(s) if *s == expected => Ok(()),
            Value::String(s) => Err(format!("is {s:?}, the runtime needs {expected:?}")),
            v => Err(format!("must be STRING, is {}", v.type_text())),
        }
    };
    want("general.architecture", &string(ARCHITECTURE));
    if let Some(name) = name {
        want("general.name", &string(name));
    }
    let u32_of = |expected: u32, what: &'static str| {
        move |v: &Value| match v {
            Value::U32(n) if *n == expected => Ok(()),
            Value::U32(n) => Err(format!("is {n}, the runtime needs {expected} ({what})")),
            v => Err(format!("must be UINT32, is {}", v.type_text())),
        }
    };
    want("general.alignment", &u32_of(ALIGNMENT, "bytes"));
    want("general.file_type", &u32_of(0, "all F32"));
    want("motionbricks.component", &string(component));
    want("motionbricks.skeleton", &string(SKELETON));
    want("motionbricks.upstream_revision", &string(UPSTREAM_REVISION));
    want("motionbricks.format_version", &|v| match v {
        Value::U32(1) => Ok(()),
        Value::U32(n) => Err(format!("is {n}, the runtime reads 1")),
        v => Err(format!("must be UINT32, is {}", v.type_text())),
    });
    let count: u64 = h.tensors().map(|t| t.elements()).sum();
    want("motionbricks.parameter_count", &|v| match v {
        Value::U64(n) if *n == count => Ok(()),
        Value::U64(n) => Err(format!("is {n}, the tensors hold {count}")),
        v => Err(format!("must be UINT64, is {}", v.type_text())),
    });
    want("motionbricks.source_sha256", &|v| match v {
        Value::String(s) if is_sha256_hex(s) => Ok(()),
        Value::String(s) => Err(format!("{s:?} is not 64 lowercase hex digits")),
        v => Err(format!("must be STRING, is {}", v.type_text())),
    });
    problems
}

/// 64 lowercase hex digits (a SHA-256 as the runtime reads it).
pub fn is_sha256_hex(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::gguf;

    /// Every general key the runtime checks is checked, value and type,
    /// at its entry's byte: a header of the common keys with one of them
    /// changed gives exactly one problem, there.
    #[test]
    fn every_common_key_is_checked_value_and_type_at_its_byte() {
        let sha = "0".repeat(64);
        type Metadata = Vec<(String, Value)>;
        let header = |edit: &dyn Fn(&mut Metadata)| {
            let mut m = common_metadata("pose", BUNDLE_NAME, &sha, 0);
            edit(&mut m);
            gguf::encode_header(&m, &[]).unwrap().1
        };
        assert!(common_problems("pose", Some(BUNDLE_NAME), &header(&|_| {})).is_empty());
        let set = |key: &'static str, v: Value| {
            move |m: &mut Metadata| {
                m.iter_mut().find(|(k, _)| k == key).unwrap().1 = v.clone();
            }
        };
        let cases: Vec<(&str, Value, &str)> = vec![
            (
                "general.architecture",
                Value::String("llama".into()),
                "is \"llama\", the runtime needs \"motionbricks\"",
            ),
            (
                "general.name",
                Value::String("G1".into()),
                "is \"G1\", the runtime needs \"NVIDIA MotionBricks G1\"",
            ),
            ("general.name", Value::U32(1), "must be STRING, is UINT32"),
            (
                "general.alignment",
                Value::U32(64),
                "is 64, the runtime needs 32",
            ),
            (
                "general.file_type",
                Value::U32(1),
                "is 1, the runtime needs 0",
            ),
            (
                "general.file_type",
                Value::String("0".into()),
                "must be UINT32, is STRING",
            ),
            (
                "motionbricks.component",
                Value::String("root".into()),
                "is \"root\", the runtime needs \"pose\"",
            ),
        ];
        for (key, value, want) in cases {
            let h = header(&set(key, value.clone()));
            let problems = common_problems("pose", Some(BUNDLE_NAME), &h);
            assert_eq!(problems.len(), 1, "{key} = {value:?}: {problems:?}");
            assert_eq!(problems[0].offset, Some(h.key_at(key)), "{key}");
            assert!(
                problems[0]
                    .message
                    .contains(&format!("metadata {key}: {want}")),
                "{}",
                problems[0].message
            );
        }
        let h = header(&|m| m.retain(|(k, _)| k != "general.file_type"));
        let problems = common_problems("pose", Some(BUNDLE_NAME), &h);
        assert_eq!(problems[0].message, "metadata general.file_type is missing");
    }
}
