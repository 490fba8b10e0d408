//! The MotionBricks runtime's checks of a bundle file it loads: the tensor
//! shapes it anchors on, its pinned identity, and the values of its
//! support tensors, each a `Problem` at its byte.

use crate::formats::gguf::{self, TensorType, Value};
use crate::formats::motionbricks::Problem;
use crate::formats::motionbricks::{BUNDLE_NAME, G1_JOINTS};

use super::Role;

/// The tensor shapes the runtime checks (GGML order).
pub fn anchors(role: Role) -> &'static [(&'static str, &'static [u64])] {
    match role {
        Role::Pose => &[
            ("_pose_token_emb.weight", &[32, 88]),
            ("_position_emb.embed", &[1024, 1, 16]),
            ("_proj_pose_output_logit.weight", &[1024, 80]),
        ],
        Role::Root => &[
            ("_position_emb.embed", &[512, 1, 16]),
            ("_proj_num_token_output_logit.weight", &[512, 12]),
            ("_conv_output.model.6.weight", &[3, 512, 5]),
        ],
        Role::VqDecoder => &[
            ("quantizer.vq._codebook.embed", &[32, 10, 8]),
            ("decoder.model.6.weight", &[3, 512, 413]),
        ],
        Role::Support => &[
            ("neutral_joints", &[3, 34]),
            ("joint_parents", &[34]),
            ("motion_mean", &[418]),
            ("motion_std", &[418]),
        ],
    }
}

/// What the MotionBricks runtime refuses in one component's header, each
/// at its byte (empty: it loads). A source hash that is not the runtime's
/// pin is reported by [`pin_problem`], apart.
pub fn runtime_problems(role: Role, h: &gguf::Header) -> Vec<Problem> {
    let mut problems =
        crate::formats::motionbricks::common_problems(role.name(), Some(BUNDLE_NAME), h);
    let mut problem =
        |offset: u64, message: String| problems.push(Problem::at(offset, "", message));
    let (n, _) = role.table();
    if h.tensor_count() != n {
        // The tensor count is the header's u64 after the magic and version.
        problem(
            8,
            format!("{} tensors; the runtime needs {n}", h.tensor_count()),
        );
    }
    if let Some(i) = h.tensors().position(|t| t.name.is_empty()) {
        problem(h.tensor_info_at(i), "a tensor has an empty name".into());
    }
    for (name, dims) in anchors(role) {
        match h.tensors().position(|t| t.name == *name) {
            None => problem(
                h.tensor_info_at(h.tensor_count()),
                format!("tensor {name} is missing"),
            ),
            Some(i) if h.tensor_at(i).is_some_and(|t| t.dims != *dims) => problem(
                h.tensor_info_at(i),
                format!(
                    "tensor {name} has shape {:?}; the runtime needs {dims:?}",
                    h.tensor_at(i).map(|t| t.dims).unwrap_or_default()
                ),
            ),
            Some(_) => {}
        }
    }
    if role == Role::Support {
        let at = h.key_at("motionbricks.joint_names");
        match h.get("motionbricks.joint_names") {
            Some(Value::String(names)) => {
                let names: Vec<&str> = names.split(',').collect();
                let unique: std::collections::BTreeSet<&&str> = names.iter().collect();
                if names.len() != G1_JOINTS.len()
                    || unique.len() != names.len()
                    || names.iter().any(|n| n.is_empty())
                {
                    problem(
                        at,
                        format!(
                            "metadata motionbricks.joint_names holds {} names ({} unique); the runtime needs 34 unique names",
                            names.len(),
                            unique.len()
                        ),
                    );
                }
            }
            Some(v) => problem(
                at,
                format!(
                    "metadata motionbricks.joint_names must be STRING, is {}",
                    v.type_text()
                ),
            ),
            None => problem(at, "metadata motionbricks.joint_names is missing".into()),
        }
    }
    problems
}

/// The runtime pins each component's source hash to the official
/// extraction's; a bundle made with `pins: record` does not load there.
pub fn pin_problem(role: Role, h: &gguf::Header) -> Option<Problem> {
    match h.get("motionbricks.source_sha256") {
        Some(Value::String(s)) if s == role.pin() => None,
        Some(Value::String(s)) => Some(Problem::at(
            h.key_at("motionbricks.source_sha256"),
            "",
            format!(
                "motionbricks.source_sha256 is {s}, not the runtime's pin {} (converted from other weights, with pins: record)",
                role.pin()
            ),
        )),
        _ => None,
    }
}

/// The support component's values, as the runtime checks them: every
/// value finite, `joint_parents[0] == -1` and every other parent below its
/// own index, `motion_std` not negative; each at the value's byte in the
/// file. `data` is the file's data section.
pub fn support_value_problems(h: &gguf::Header, data: &[u8]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (t_index, t) in h.tensors().enumerate() {
        let (Some(bytes), Ok(start)) = (t.bytes(), usize::try_from(t.offset)) else {
            continue;
        };
        let at = |i: usize| h.tensor_byte_at(t_index, 4 * i as u64);
        let Some(raw) = data.get(start..start + bytes as usize) else {
            problems.push(Problem::at(
                h.tensor_info_at(t_index),
                "",
                format!("tensor {} lies outside the data", t.name),
            ));
            continue;
        };
        match t.ty {
            TensorType::F32 => {
                for (i, c) in raw.chunks_exact(4).enumerate() {
                    let v = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    if !v.is_finite() {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!("{}[{i}] is {v}, not finite", t.name),
                        ));
                        break;
                    }
                    if t.name == "motion_std" && v < 0.0 {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!("motion_std[{i}] is {v}, below 0"),
                        ));
                        break;
                    }
                }
            }
            TensorType::I32 if t.name == "joint_parents" => {
                for (i, c) in raw.chunks_exact(4).enumerate() {
                    let p = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    let ok = if i == 0 {
                        p == -1
                    } else {
                        p >= 0 && (p as usize) < i
                    };
                    if !ok {
                        problems.push(Problem::at(
                            at(i),
                            "",
                            format!(
                                "joint_parents[{i}] is {p}; the runtime needs {}",
                                if i == 0 {
                                    "-1".to_string()
                                } else {
                                    format!("a parent below {i}")
                                }
                            ),
                        ));
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    problems
}
