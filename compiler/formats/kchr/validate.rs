//! The rules of a document as a whole and of its names and numbers;
//! `validate_model` and `validate_bank` hold the rules of each part.

use crate::formats::problem::Problem;

use super::validate_bank::{check_bank, check_binding};
use super::validate_model::check_model;
use super::{
    Document, ImageCheck, Loc, MAX_BANKS, MAX_BYTES, MAX_MODELS, MAX_NAME, MAX_PROBLEMS, Node,
    UNIT_TOLERANCE,
};

/// Every problem of `doc` (at most [`MAX_PROBLEMS`], then one saying more
/// were found), each with its path; empty when it is valid.
pub fn validate(doc: &Document) -> Vec<Problem> {
    check(doc, &|_| None, ImageCheck::Full)
}

pub(super) struct Problems<'a> {
    list: Vec<Problem>,
    more: usize,
    offset: &'a dyn Fn(Loc) -> Option<usize>,
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

pub(super) fn check(
    doc: &Document,
    offset: &dyn Fn(Loc) -> Option<usize>,
    images: ImageCheck,
) -> Vec<Problem> {
    let mut p = Problems {
        list: Vec::new(),
        more: 0,
        offset,
        images,
    };
    check_document(doc, &mut p);
    for (m, model) in doc.models.iter().enumerate() {
        // Which nodes reach a root: both checks skip the others.
        let rooted = rooted(&model.nodes);
        check_model(m, model, &rooted, &mut p);
        if let Some(bank) = doc.banks.get(model.bank as usize) {
            check_binding(m, model, bank, &rooted, &mut p);
        }
    }
    for (b, bank) in doc.banks.iter().enumerate() {
        check_bank(b, bank, &mut p);
    }
    if p.more > 0 {
        let more = p.more;
        p.more = 0;
        p.list.pop();
        p.add(
            Loc::Document,
            "",
            format!(
                "{} more problems not listed (at most {MAX_PROBLEMS} are)",
                more + 1
            ),
        );
    }
    p.list
}

/// The rule `name` breaks as an id, clip or node name (its length), in
/// words, if any: "must be 1 to 128 bytes of UTF-8, found N bytes". Not a
/// validator: [`validate`] and the planner each place it (at a path, at a
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

fn check_document(doc: &Document, p: &mut Problems) {
    check_count(p, Loc::Document, "models", doc.models.len(), 0, MAX_MODELS);
    check_count(p, Loc::Document, "banks", doc.banks.len(), 0, MAX_BANKS);
    match doc.encoded_len() {
        Some(n) if n <= MAX_BYTES => {}
        n => p.add(
            Loc::Document,
            "",
            format!(
                "encodes to {} bytes, more than the limit of {MAX_BYTES} (64 MiB)",
                n.map_or("more than usize::MAX".to_string(), |n| n.to_string())
            ),
        ),
    }
    for (m, first) in duplicates(doc.models.iter().map(|m| m.id.as_str())) {
        p.add(
            Loc::Model(m),
            "id",
            format!(
                "duplicate id \"{}\" (models[{first}] has it)",
                doc.models[m].id
            ),
        );
    }
    for (b, first) in duplicates(doc.banks.iter().map(|b| b.id.as_str())) {
        p.add(
            Loc::Bank(b),
            "id",
            format!(
                "duplicate id \"{}\" (banks[{first}] has it)",
                doc.banks[b].id
            ),
        );
    }
    for (m, model) in doc.models.iter().enumerate() {
        if model.bank as usize >= doc.banks.len() {
            p.add(
                Loc::Model(m),
                "bank",
                format!(
                    "bank {} does not exist (the document has {} banks)",
                    model.bank,
                    doc.banks.len()
                ),
            );
        }
    }
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

/// For each node, whether following parents from it reaches a root (no
/// cycle and no parent out of range on the way).
fn rooted(nodes: &[Node]) -> Vec<bool> {
    let n = nodes.len();
    let mut ok = vec![false; n];
    for (start, ok) in ok.iter_mut().enumerate() {
        let mut node = start;
        let mut steps = 0;
        loop {
            match nodes[node].parent {
                None => {
                    *ok = true;
                    break;
                }
                Some(q) if (q as usize) < n && steps < n => {
                    node = q as usize;
                    steps += 1;
                }
                _ => break,
            }
        }
    }
    ok
}
