//! The rules of a document as a whole; `validate_model` and
//! `validate_bank` hold the rules of each part, `checks` the small checks
//! they all use.

use crate::formats::problem::Problem;

use super::checks::{Problems, check_count, duplicates};
use super::validate_bank::{check_bank, check_binding};
use super::validate_model::check_model;
use super::{Document, ImageCheck, Loc, MAX_BANKS, MAX_BYTES, MAX_MODELS, MAX_PROBLEMS, Node};

/// Every problem of `doc` (at most [`MAX_PROBLEMS`], then one saying more
/// were found), each with its path; empty when it is valid.
pub fn validate(doc: &Document) -> Vec<Problem> {
    check(doc, &|_| None, ImageCheck::Full)
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
