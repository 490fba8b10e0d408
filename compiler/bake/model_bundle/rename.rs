//! Names by pattern: `*` wildcards, their captures, and rename templates.

use super::Error;

/// Longest tensor name a `rename` pattern is matched against (a checkpoint
/// may hold longer names; renaming one is refused, naming it).
pub const MAX_RENAMED_NAME_BYTES: usize = 4096;

/// A rename template has as many `*` as its pattern (checked when the
/// manifest is planned, and again on the rules a family's table makes).
pub fn check_template(from: &str, to: &str) -> Result<(), Error> {
    let stars = |s: &str| s.bytes().filter(|&b| b == b'*').count();
    if stars(from) != stars(to) || to.is_empty() {
        return Err(Error::Template {
            from: from.to_string(),
            to: to.to_string(),
        });
    }
    Ok(())
}

/// `name`'s new name under the rename rules (`None`: no rule names it):
/// an exact rule first, else the most
/// specific pattern that matches (the most bytes besides `*`:
/// `layer.*.attention.output.norm.*` over `layer.*.output.norm.*`; two
/// as specific are an error).
pub(super) fn rename(rules: &[(String, String)], name: &str) -> Result<Option<String>, Error> {
    if let Some((_, to)) = rules.iter().find(|(from, _)| from == name) {
        return Ok(Some(to.clone()));
    }
    let literal = |p: &str| p.bytes().filter(|&b| b != b'*').count();
    let mut hit: Option<&(String, String)> = None;
    let mut tie: Option<&(String, String)> = None;
    for rule in rules.iter().filter(|(from, _)| from.contains('*')) {
        if wildcard(&rule.0, name) {
            match hit {
                Some(best) if literal(&best.0) > literal(&rule.0) => {}
                Some(best) if literal(&best.0) == literal(&rule.0) => tie = Some(rule),
                _ => {
                    hit = Some(rule);
                    tie = None;
                }
            }
        }
    }
    if let (Some(first), Some(second)) = (hit, tie) {
        return Err(Error::RenameConflict {
            name: name.to_string(),
            first: first.0.clone(),
            second: second.0.clone(),
        });
    }
    let Some((from, to)) = hit else {
        return Ok(None);
    };
    if name.len() > MAX_RENAMED_NAME_BYTES {
        return Err(Error::RenameTooLong {
            len: name.len(),
            pattern: from.clone(),
        });
    }
    let captured = captures(from, name).expect("the pattern matched");
    let mut out = String::with_capacity(to.len() + name.len());
    let mut parts = captured.into_iter();
    for piece in to.split('*').enumerate() {
        if piece.0 > 0 {
            out.push_str(parts.next().expect("as many stars"));
        }
        out.push_str(piece.1);
    }
    Ok(Some(out))
}

/// What each `*` of `pattern` matches in `name`, each as short as the rest
/// of the pattern allows (leftmost first); `None` if it does not match.
/// Work is pattern length × name length, a table of booleans.
pub fn captures<'a>(pattern: &str, name: &'a str) -> Option<Vec<&'a str>> {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let w = n.len() + 1;
    // ok[i * w + j]: p[i..] matches n[j..].
    let mut ok = vec![false; (p.len() + 1) * w];
    ok[p.len() * w + n.len()] = true;
    for i in (0..p.len()).rev() {
        for j in (0..=n.len()).rev() {
            ok[i * w + j] = if p[i] == b'*' {
                ok[(i + 1) * w + j] || (j < n.len() && ok[i * w + j + 1])
            } else {
                j < n.len() && p[i] == n[j] && ok[(i + 1) * w + j + 1]
            };
        }
    }
    if !ok[0] {
        return None;
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < p.len() {
        if p[i] == b'*' {
            let start = j;
            while !ok[(i + 1) * w + j] {
                j += 1;
            }
            out.push(&name[start..j]);
        } else {
            j += 1;
        }
        i += 1;
    }
    Some(out)
}

/// `*` matches any run of characters (dots included); everything else is
/// literal.
pub fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == n[j] {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}
