//! Every rule a pose cache must keep to be written, as problems.

use crate::formats::problem::Problem;
use std::collections::BTreeMap;

use super::rules::{
    pose_is_valid, pose_path, pose_values, rule_dimensions, rule_entity_count, rule_frame_count,
    rule_id, rule_metres_per_unit, rule_pose_value, rule_size, rule_start_step, rule_text_len,
};
use super::{Error, MAX_FILE_BYTES, PoseCache, TEXT_NAMES};

/// Every problem that would stop [`encode`](fn@super::encode), each with its path. Empty when
/// the cache is valid.
pub fn validate(cache: &PoseCache) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut push = |path: String, message: String| problems.push(Problem::of(path, message));

    if let Err(e) = rule_dimensions(cache.dimensions) {
        push("dimensions".into(), e.rule());
    }
    if let Err(e) = rule_start_step(cache.start_step) {
        push("start_step".into(), e.rule());
    }
    if let Err(e) = rule_metres_per_unit(cache.metres_per_unit) {
        push("metres_per_unit".into(), e.rule());
    }
    let fields = [
        "unit_name",
        "module_id",
        "library_version",
        "scene",
        "replay",
        "label",
    ];
    for ((field, what), text) in fields.iter().zip(TEXT_NAMES).zip(cache.texts()) {
        if let Err(e) = rule_text_len(0, what, text.len()) {
            push((*field).into(), e.rule());
        }
    }

    let n_entities = cache.entities.len();
    if let Err(e) = rule_entity_count(n_entities as u64) {
        push("entities".into(), e.rule());
    }
    let mut first_index_of: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, ent) in cache.entities.iter().enumerate() {
        if let Err(e) = rule_id(0, i, ent.id) {
            push(format!("entities[{i}].id"), e.rule());
        } else if let Some(&first) = first_index_of.get(&ent.id) {
            let e = Error::EntityIdRepeated {
                offset: 0,
                entity: i,
                id: ent.id,
                first,
            };
            push(format!("entities[{i}].id"), e.rule());
        } else {
            first_index_of.insert(ent.id, i);
        }
        if let Err(e) = rule_size(0, i, &ent.size) {
            push(format!("entities[{i}].size"), e.rule());
        }
        if let Err(e) = rule_text_len(0, "name", ent.name.len()) {
            push(format!("entities[{i}].name"), e.rule());
        }
    }

    if n_entities > 0 {
        if !cache.poses.len().is_multiple_of(n_entities) {
            let message = format!(
                "a multiple of {n_entities} poses (one per entity per frame), found {} poses",
                cache.poses.len()
            );
            push("poses".into(), message);
        } else if let Err(e) = rule_frame_count(cache.n_frames() as u64) {
            push("poses".into(), e.rule());
        }
    }
    for (j, pose) in cache.poses.iter().enumerate() {
        if pose_is_valid(pose) {
            continue;
        }
        let at = match n_entities {
            0 => (0, j),
            n => (j / n, j % n),
        };
        let values = pose_values(pose);
        // One problem per part (position, rotation), naming the first bad
        // value in it.
        for (part, range) in [("position", 0..3), ("rotation", 3..7)] {
            if let Err(e) = rule_pose_value(0, at, &values, range) {
                push(pose_path(at.0, at.1, part), e.rule());
            }
        }
    }

    match cache.encoded_len() {
        Some(n) if n <= MAX_FILE_BYTES => {}
        n => push(
            "file".into(),
            format!(
                "an encoded size of at most {MAX_FILE_BYTES} bytes (256 MiB), found {}",
                n.map_or("more than usize::MAX bytes".into(), |n| format!(
                    "{n} bytes"
                ))
            ),
        ),
    }
    problems
}
