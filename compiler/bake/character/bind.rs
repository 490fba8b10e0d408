//! Binding a model to its bank: the model file's node names matched to
//! the clips' by a node map.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::kchr;

use super::{Error, err};

/// How a bank's track names find a model's nodes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeMap {
    /// Characters ignored when comparing names (e.g. `"."`: `Foot.L`
    /// finds `FootL`).
    pub ignore: String,
    /// Model node name -> bank track name, taking precedence.
    pub pairs: BTreeMap<String, String>,
}

/// The node names a compiled bank animates.
pub fn bank_animated(bank: &kchr::Bank) -> BTreeSet<String> {
    bank.clips
        .iter()
        .flat_map(|c| c.tracks.iter().map(|t| t.node.clone()))
        .collect()
}

/// The file's node names (`names`, from [`node_names`](super::node_names)) renamed to the
/// names the bank `bank_id` animates them by (`animated`: its tracks'
/// nodes, from [`clip_animated`](super::clip_animated) or [`bank_animated`]), under `map`, and
/// the nodes the bank animates (which the model must hold). Every name the
/// bank animates must be a node of the file, or the error lists those
/// missing.
pub fn bind(
    names: &[String],
    bank_id: &str,
    animated: &BTreeSet<String>,
    map: &NodeMap,
) -> Result<(Vec<String>, Vec<usize>), Error> {
    let animated: BTreeSet<&str> = animated.iter().map(String::as_str).collect();
    let mut renamed = names.to_vec();
    if !map.ignore.is_empty() || !map.pairs.is_empty() {
        let strip =
            |s: &str| -> String { s.chars().filter(|c| !map.ignore.contains(*c)).collect() };
        // Bank names by their stripped form; a stripped form two names
        // share is ambiguous and matches nothing.
        let mut by_key: BTreeMap<String, Option<&str>> = BTreeMap::new();
        for &a in &animated {
            by_key
                .entry(strip(a))
                .and_modify(|v| *v = None)
                .or_insert(Some(a));
        }
        for from in map.pairs.keys() {
            if !names.contains(from) {
                return err(format!(
                    "node_map pairs name node \"{from}\", which the model's file does not have"
                ));
            }
        }
        for name in &mut renamed {
            let target = match map.pairs.get(name.as_str()) {
                Some(t) => Some(t.clone()),
                None if animated.contains(name.as_str()) => None,
                None if map.ignore.is_empty() => None,
                None => by_key
                    .get(&strip(name))
                    .copied()
                    .flatten()
                    .map(str::to_string),
            };
            if let Some(t) = target {
                *name = t;
            }
        }
        let mut seen = BTreeMap::new();
        for (i, n) in renamed.iter().enumerate() {
            if let Some(first) = seen.insert(n.as_str(), i) {
                return err(format!(
                    "node_map gives nodes {first} (\"{}\") and {i} (\"{}\") the one name \"{n}\"",
                    names[first], names[i]
                ));
            }
        }
    }
    let index: BTreeMap<&str, usize> = renamed
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let missing: Vec<&str> = animated
        .iter()
        .copied()
        .filter(|a| !index.contains_key(a))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing
            .iter()
            .take(20)
            .map(|m| format!("\"{m}\""))
            .collect();
        return err(format!(
            "the model lacks {} of the {} nodes its bank \"{}\" animates: {}{}; map them with `node_map` (pairs, or `ignore` characters)",
            missing.len(),
            animated.len(),
            bank_id,
            shown.join(", "),
            if missing.len() > 20 { ", …" } else { "" }
        ));
    }
    let nodes = animated.iter().map(|a| index[a]).collect();
    Ok((renamed, nodes))
}
