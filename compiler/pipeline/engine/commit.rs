//! Putting a job's staged outputs in place, the index last.

use sha2::Digest;

use crate::pipeline::job::Staged;
use crate::pipeline::out_dir::{EntryKind, OutTree};
use crate::pipeline::paths::{self, RelPath};
use crate::pipeline::state::{self, OutputRecord};

/// Outputs of at most this many bytes are compared with the file already
/// in place and, when their bytes are the same, kept as they are (see
/// [`commit`]).
pub const UNCHANGED_CHECK_BYTES: u64 = 1 << 20;

/// Puts a job's staged outputs in place so that whenever the index file
/// (`manifest.json`, `level.json`) is present, it describes exactly the
/// files beside it:
///
/// 1. the old index is removed (before any file it describes changes);
/// 2. every other output is renamed into place (each rename atomic);
/// 3. the previous record's outputs that are no longer in the set are
///    removed;
/// 4. the new index is renamed into place, last.
///
/// An output whose bytes equal the regular file already in its place (at
/// most [`UNCHANGED_CHECK_BYTES`], compared by SHA-256 of the file read
/// now) is left untouched and its temporary discarded: its time stamp
/// stays, so file watchers and hot reload see nothing, and no rename
/// replaces a file for nothing (on ext4, renaming over a file flushes the
/// new one, the larger part of a small job's time). When every output is
/// unchanged and nothing is stale, the index stays too.
///
/// Killed anywhere in between, the folder holds no index, or the new one
/// with all of its files; the job's record (appended after this) is
/// missing, so the next build runs it again.
pub fn commit(
    tree: &OutTree,
    staged: Vec<Staged>,
    index: Option<&RelPath>,
    stale: &[state::OutputRecord],
) -> std::io::Result<Vec<OutputRecord>> {
    let temps: Vec<_> = staged
        .iter()
        .map(|s| (s.folder.clone(), s.name.clone()))
        .collect();
    let result = commit_in_order(tree, staged, index, stale);
    if result.is_err() {
        // What was not renamed yet is not left behind.
        for (folder, name) in temps {
            folder.discard_temp(&name);
        }
    }
    result
}

/// An I/O error of the commit, naming the output (relative to the output
/// folder) it happened to.
fn naming(path: &RelPath) -> impl Fn(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("{path}: {}", paths::describe_io(&e)))
}

fn commit_in_order(
    tree: &OutTree,
    staged: Vec<Staged>,
    index: Option<&RelPath>,
    stale: &[state::OutputRecord],
) -> std::io::Result<Vec<OutputRecord>> {
    let in_place: Vec<Option<paths::FileSig>> = staged.iter().map(unchanged).collect();
    let all_unchanged = stale.is_empty() && in_place.iter().all(Option::is_some);
    let mut records = Vec::with_capacity(staged.len());
    let mut put = |s: Staged, kept: Option<paths::FileSig>| -> std::io::Result<()> {
        let sig = match kept {
            Some(sig) => {
                s.folder.discard_temp(&s.name);
                sig
            }
            None => {
                s.folder.commit_temp(&s.name).map_err(naming(&s.path))?;
                // A rename sets the change time: the signature is the
                // file's in place.
                match s.folder.stat(&s.name).map_err(naming(&s.path))? {
                    Some((EntryKind::File, sig)) if sig.size == s.bytes => sig,
                    _ => {
                        return Err(std::io::Error::other(format!(
                            "{} changed as kiln put it in place",
                            s.path
                        )));
                    }
                }
            }
        };
        records.push(OutputRecord {
            path: s.path,
            bytes: s.bytes,
            sha256: s.sha256,
            sig,
        });
        Ok(())
    };
    if all_unchanged {
        for (s, kept) in staged.into_iter().zip(in_place) {
            put(s, kept)?;
        }
        return Ok(records);
    }
    if let Some(index) = index {
        tree.remove_file(index).map_err(naming(index))?;
    }
    let mut last = Vec::new();
    for (s, kept) in staged.into_iter().zip(in_place) {
        if Some(&s.path) == index {
            last.push(s);
        } else {
            put(s, kept)?;
        }
    }
    // An output the job no longer writes goes only if it is still what
    // kiln wrote; a file the user put in its place stays.
    for o in stale {
        tree.remove_made(&o.path, o.bytes, &o.sha256, &o.sig)
            .map_err(naming(&o.path))?;
    }
    for s in last {
        put(s, None)?;
    }
    Ok(records)
}

/// The stat signature of the regular file in `s`'s place if its bytes are
/// `s`'s (a small output only; see [`UNCHANGED_CHECK_BYTES`]).
fn unchanged(s: &Staged) -> Option<paths::FileSig> {
    if s.bytes > UNCHANGED_CHECK_BYTES {
        return None;
    }
    let (kind, sig) = s.folder.stat(&s.name).ok()??;
    if kind != EntryKind::File || sig.size != s.bytes {
        return None;
    }
    let bytes = s.folder.read(&s.name, s.bytes)?;
    (<[u8; 32]>::from(sha2::Sha256::digest(&bytes)) == s.sha256).then_some(sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::job::JobIo;
    use crate::pipeline::job::Outputs;
    use crate::pipeline::out_dir::Folder;
    use crate::pipeline::paths::Resolver;
    use std::fs;
    use std::io::Write as _;

    fn rel(s: &str) -> RelPath {
        RelPath::parse(s).unwrap()
    }

    /// Stages `files` (name, text) through a JobIo, as a run would.
    fn stage(
        resolver: &Resolver,
        tree: &OutTree,
        outputs: &Outputs,
        files: &[(&str, &str)],
    ) -> Vec<Staged> {
        let mut io = JobIo::new(resolver, tree, outputs);
        for (name, text) in files {
            let mut out = io.create(&rel(name)).unwrap();
            out.write_all(text.as_bytes()).unwrap();
            io.close(out).unwrap();
        }
        io.complete().unwrap().1
    }

    #[test]
    fn a_commit_puts_the_index_last_and_removes_what_left_the_set() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let resolver = Resolver::new(&root);
        let tree = OutTree::new(Folder::create_out(&root.join("out")).unwrap());
        let read = |name: &str| fs::read_to_string(root.join("out").join(name)).ok();
        let old = Outputs {
            files: vec![rel("b/x.bin"), rel("b/y.bin"), rel("b/manifest.json")],
            index: Some(rel("b/manifest.json")),
        };
        let staged = stage(
            &resolver,
            &tree,
            &old,
            &[
                ("b/x.bin", "x1"),
                ("b/y.bin", "y1"),
                ("b/manifest.json", "x y"),
            ],
        );
        let records = commit(&tree, staged, old.index.as_ref(), &[]).unwrap();
        let paths: Vec<&str> = records.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["b/x.bin", "b/y.bin", "b/manifest.json"]);
        assert_eq!(read("b/manifest.json").as_deref(), Some("x y"));

        // The set shrinks: y.bin leaves it, and goes before the new index
        // is in place.
        let new = Outputs {
            files: vec![rel("b/x.bin"), rel("b/manifest.json")],
            index: Some(rel("b/manifest.json")),
        };
        let staged = stage(
            &resolver,
            &tree,
            &new,
            &[("b/x.bin", "x2"), ("b/manifest.json", "x")],
        );
        let y = records
            .iter()
            .find(|r| r.path.as_str() == "b/y.bin")
            .unwrap();
        commit(&tree, staged, new.index.as_ref(), std::slice::from_ref(y)).unwrap();
        assert_eq!(read("b/x.bin").as_deref(), Some("x2"));
        assert_eq!(read("b/y.bin"), None);
        assert_eq!(read("b/manifest.json").as_deref(), Some("x"));
        let left: Vec<_> = fs::read_dir(root.join("out/b")).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporaries left");

        // A commit that fails part way leaves no index, never an old one
        // describing new files: x.bin's place is taken by a folder, so its
        // rename fails after the old index went.
        let staged = stage(
            &resolver,
            &tree,
            &new,
            &[("b/x.bin", "x3"), ("b/manifest.json", "x")],
        );
        fs::remove_file(root.join("out/b/x.bin")).unwrap();
        fs::create_dir(root.join("out/b/x.bin")).unwrap();
        fs::write(root.join("out/b/x.bin/keep"), "").unwrap();
        assert!(commit(&tree, staged, new.index.as_ref(), &[]).is_err());
        assert_eq!(read("b/manifest.json"), None);
        let mut left: Vec<String> = fs::read_dir(root.join("out/b"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["x.bin"], "the folder, and no temporary");
    }
}
