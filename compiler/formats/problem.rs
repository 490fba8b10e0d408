//! One thing wrong with a file or a value: the shape every format's
//! `validate` returns, and the one its `Error::Invalid` carries.
//!
//! `offset` is the byte of the file where the problem is (from a decoder,
//! or a validator of bytes); `None` when there is no byte (a value checked
//! before it is encoded). `path` names the item and its field
//! (`models[1].nodes[17].name`; empty for the file as a whole), and
//! `message` the rule and what broke it.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub offset: Option<u64>,
    pub path: String,
    pub message: String,
}

impl Problem {
    /// A problem at byte `offset` of a file.
    pub fn at(offset: u64, path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            offset: Some(offset),
            path: path.into(),
            message: message.into(),
        }
    }

    /// A problem of a value, which has no byte yet.
    pub fn of(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            offset: None,
            path: path.into(),
            message: message.into(),
        }
    }
}

/// `at byte 12: models[0].name: …`, each part only when there is one.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = self.offset {
            write!(f, "at byte {o}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

/// Problems as one line: each as [`Problem`]'s `Display`, `; ` between.
pub fn join(problems: &[Problem]) -> String {
    let mut text = String::new();
    for (k, p) in problems.iter().enumerate() {
        if k > 0 {
            text.push_str("; ");
        }
        text.push_str(&p.to_string());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_says_its_byte_its_path_and_its_rule() {
        assert_eq!(
            Problem::at(12, "models[0].name", "not UTF-8").to_string(),
            "at byte 12: models[0].name: not UTF-8"
        );
        assert_eq!(Problem::at(7, "", "x").to_string(), "at byte 7: x");
        assert_eq!(Problem::of("bank", "empty").to_string(), "bank: empty");
        assert_eq!(Problem::of("", "empty").to_string(), "empty");
        assert_eq!(
            join(&[Problem::of("a", "x"), Problem::at(3, "", "y")]),
            "a: x; at byte 3: y"
        );
        assert_eq!(join(&[]), "");
    }
}
