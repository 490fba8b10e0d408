//! Names: the nearest of a list to a slip, a list said in words, and the
//! glob match of file names and targets. A leaf: the manifest parser, the
//! planner, paths and the build's selection all use it.

/// `a`, `a or b`, `a, b or c`, each quoted.
pub fn or_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Up to three of `candidates` nearest to `name` by edit distance, nearest
/// first (then in byte order), among those close enough to be a slip: at
/// most a third of the longer name's characters apart, and at most 3.
pub fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(usize, &str)> = candidates
        .filter_map(|c| {
            let d = edit_distance(name, c);
            let longer = name.chars().count().max(c.chars().count());
            (d > 0 && d <= 3 && d * 3 <= longer.max(3)).then_some((d, c))
        })
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Levenshtein distance over characters; names are short (bounded by the
/// manifest's limits), so the two-row table is small.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let replace = prev[j] + usize::from(ca != cb);
            row[j + 1] = replace.min(prev[j + 1] + 1).min(row[j] + 1);
        }
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

/// Whether `name` matches the glob `pattern` (`*`, `?`, bytes otherwise).
/// Linear in practice: the classic greedy match with one backtrack point.
pub fn glob_matches(pattern: &[u8], name: &[u8]) -> bool {
    if name.first() == Some(&b'.') && pattern.first() != Some(&b'.') {
        return false;
    }
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_a_shell() {
        let m = |p: &str, n: &str| glob_matches(p.as_bytes(), n.as_bytes());
        assert!(m("debris-*.cgeo", "debris-01.cgeo"));
        assert!(m("debris-*.cgeo", "debris-.cgeo"));
        assert!(!m("debris-*.cgeo", "debris-01.cgeo.bak"));
        assert!(m("*", "a"));
        assert!(!m("*", ".hidden"));
        assert!(m(".*", ".hidden"));
        assert!(m("a?c", "abc"));
        assert!(!m("a?c", "ac"));
        assert!(m("*a*b*", "xxaxxbxx"));
        assert!(!m("*a*b", "xxaxxbxxa"));
        assert!(m("exact.bin", "exact.bin"));
        assert!(!m("exact.bin", "exact.bi"));
        assert!(m("**", "ab"));
    }

    #[test]
    fn nearest_names_are_slips_nearest_first() {
        let names = ["rate_hz", "rate", "shape", "source", "sources"];
        assert_eq!(nearest("rate_zh", names.into_iter()), ["rate_hz"]);
        assert_eq!(nearest("sourc", names.into_iter()), ["source", "sources"]);
        assert_eq!(nearest("xyzzy", names.into_iter()), Vec::<&str>::new());
        // The name itself is not a slip.
        assert_eq!(nearest("rate_hz", names.into_iter()), Vec::<&str>::new());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        // Deletions, from the longer side (two mutants of the table missed).
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("ab", "a"), 1);
        assert_eq!(edit_distance("a", "ab"), 1);
        assert_eq!(or_list(&["a", "b", "c"]), "\"a\", \"b\" or \"c\"");
    }
}
