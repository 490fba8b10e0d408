//! The small checks every part of a document's validation uses: the list
//! of problems (capped), names, counts, duplicates, finite numbers, unit
//! quaternions.

use crate::formats::problem::Problem;

use super::{ImageCheck, Loc, MAX_NAME, MAX_PROBLEMS, UNIT_TOLERANCE};

/// The problems found so far (at most [`MAX_PROBLEMS`]; the rest counted).
pub(super) struct Problems<'a> {
    pub(super) list: Vec<Problem>,
    pub(super) more: usize,
    pub(super) offset: &'a dyn Fn(Loc) -> Option<usize>,
    /// How far the atlases are checked.
    pub(super) images: ImageCheck,
}

impl Problems<'_> {
    pub(super) fn add(&mut self, loc: Loc, field: &str, message: String) {
        if self.list.len() >= MAX_PROBLEMS {
            self.more += 1;
            return;
        }
        let path = if field.is_empty() {
            loc.to_string()
        } else {
            format!("{loc}.{field}")
        };
        self.list.push(Problem {
            offset: (self.offset)(loc).map(|o| o as u64),
            path,
            message,
        });
    }
}

/// The rule `name` breaks as an id, clip or node name (its length), in
/// words, if any: "must be 1 to 128 bytes of UTF-8, found N bytes". Not a
/// validator: [`validate`](fn@super::validate) and the planner each place it (at a path, at a
/// manifest position).
pub fn broken_name_rule(name: &str) -> Option<String> {
    (name.is_empty() || name.len() > MAX_NAME).then(|| {
        format!(
            "must be 1 to {MAX_NAME} bytes of UTF-8, found {} bytes",
            name.len()
        )
    })
}

pub(super) fn check_name(p: &mut Problems, loc: Loc, field: &str, name: &str) {
    if let Some(m) = broken_name_rule(name) {
        p.add(loc, field, m);
    }
}

pub(super) fn check_count(
    p: &mut Problems,
    loc: Loc,
    field: &str,
    n: usize,
    min: usize,
    max: usize,
) {
    if n < min || n > max {
        p.add(
            loc,
            field,
            format!("must hold {min} to {max} items, found {n}"),
        );
    }
}

/// Names that appear twice: each later one, with the index of the first.
pub(super) fn duplicates<'a>(names: impl Iterator<Item = &'a str>) -> Vec<(usize, usize)> {
    let mut seen = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    for (i, n) in names.enumerate() {
        if let Some(&first) = seen.get(n) {
            out.push((i, first));
        } else {
            seen.insert(n, i);
        }
    }
    out
}

pub(super) fn finite_all(p: &mut Problems, loc: Loc, field: &str, values: &[f32]) -> bool {
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        p.add(loc, field, format!("must be finite, found {v}"));
        return false;
    }
    true
}

/// The squared length of `v`, in f64.
pub(super) fn norm2(v: &[f32]) -> f64 {
    v.iter().map(|&c| f64::from(c) * f64::from(c)).sum()
}

pub(super) fn check_unit(p: &mut Problems, loc: Loc, field: &str, q: &[f32]) {
    let n = norm2(q);
    if q.iter().all(|c| c.is_finite()) && (n - 1.0).abs() > UNIT_TOLERANCE {
        p.add(
            loc,
            field,
            format!(
                "must be a unit quaternion (|q|² within {UNIT_TOLERANCE} of 1), found |q|² = {n}"
            ),
        );
    }
}
