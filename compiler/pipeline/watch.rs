//! What `kiln watch` does about the file events it is given: a pure
//! decision, events in and work out, with no watcher and no clock, so
//! every editor's way of saving is a scripted test.
//!
//! Editors save in many ways: write in place; write a temporary and rename
//! it over the file; rename the original away (`file~`) and create the
//! file anew (vim); delete and create. A watcher reports each as some mix
//! of creations, removals, renames and writes, on the file and on names
//! beside it. So every event is only "this path may have changed": the
//! decision maps paths to the jobs that read them, and the content hash
//! (in the build) decides whether anything did change. Events under the
//! output folder are kiln's own writes and are never work.

use std::collections::{BTreeMap, BTreeSet};

use super::names::glob_matches;
use super::state::JobKey;

/// The folder whose `*.yaml` and `*.yml` files are the project's
/// manifests: one created or removed there changes the plan.
const MANIFESTS: &str = "manifests";

/// What the last plan and its builds say about the project's files, for
/// the watcher: every path (root-relative) that feeds a job.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index {
    /// The manifests the plan read.
    pub manifests: BTreeSet<String>,
    /// Each file a job read (sources, the files beside them that they
    /// name, a glob's matches) -> the jobs that read it.
    pub readers: BTreeMap<String, BTreeSet<JobKey>>,
    /// Each glob of a job (`folder/pattern`: the pattern is in the file
    /// name only).
    pub globs: Vec<(String, JobKey)>,
    /// The output folder, when it is under the root: what happens there
    /// is kiln's own doing.
    pub out: Option<String>,
}

/// One thing the watcher reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Something happened at this root-relative path (a file or a
    /// folder; created, removed, renamed from or to, or written).
    Path(String),
    /// Events may have been lost (the watcher's queue overflowed), or the
    /// watch has just started: anything may have changed.
    Rescan,
}

/// What to do about a batch of events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// Nothing a job reads was touched.
    Nothing,
    /// These jobs' inputs may have changed: hash them again and rebuild
    /// what changed.
    Jobs(BTreeSet<JobKey>),
    /// A manifest, the set of manifests, a glob's matches or a folder of
    /// inputs may have changed (and with a folder, the folders to watch):
    /// plan again (a build from the start, whose
    /// no-op path keeps an unchanged project cheap).
    Replan,
}

impl Index {
    /// Records that `job` reads each of `files` (its declared inputs, and
    /// the files its last build read beside them) and has the `globs`
    /// (`folder/pattern`).
    pub fn add_job<'a>(
        &mut self,
        job: &JobKey,
        files: impl IntoIterator<Item = &'a str>,
        globs: impl IntoIterator<Item = &'a str>,
    ) {
        for file in files {
            self.readers
                .entry(file.to_string())
                .or_default()
                .insert(job.clone());
        }
        for glob in globs {
            self.globs.push((glob.to_string(), job.clone()));
        }
    }

    /// The folders to watch (root-relative; `""` is the root): each one
    /// that holds an input, a manifest or a glob's matches, and
    /// `manifests/`. Folders, never single files: an editor that renames
    /// a file away and writes a new one would leave a watch on the file
    /// watching the old one. The output folder is never among them.
    pub fn folders(&self) -> BTreeSet<String> {
        let parent = |path: &str| path.rsplit_once('/').map_or("", |(dir, _)| dir).to_string();
        let mut folders: BTreeSet<String> = self
            .readers
            .keys()
            .chain(&self.manifests)
            .chain(self.globs.iter().map(|(glob, _)| glob))
            .map(|path| parent(path))
            .collect();
        folders.insert(MANIFESTS.to_string());
        if let Some(out) = &self.out {
            folders.retain(|f| !is_within(f, out));
        }
        folders
    }
}

impl Work {
    /// Both: a re-plan covers any jobs; jobs add up.
    pub fn merge(self, other: Work) -> Work {
        match (self, other) {
            (Work::Replan, _) | (_, Work::Replan) => Work::Replan,
            (Work::Nothing, w) | (w, Work::Nothing) => w,
            (Work::Jobs(mut a), Work::Jobs(b)) => {
                a.extend(b);
                Work::Jobs(a)
            }
        }
    }
}

/// The work a batch of events calls for.
pub fn decide(index: &Index, seen: &[Seen]) -> Work {
    seen.iter()
        .map(|s| match s {
            Seen::Rescan => Work::Replan,
            Seen::Path(path) => decide_path(index, path),
        })
        .fold(Work::Nothing, Work::merge)
}

/// The work one path calls for.
fn decide_path(index: &Index, path: &str) -> Work {
    let path = path.trim_end_matches('/');
    if index.out.as_deref().is_some_and(|out| is_within(path, out)) {
        return Work::Nothing;
    }
    if index.manifests.contains(path) || is_manifest_name(path) {
        return Work::Replan;
    }
    // A glob's folder gaining or losing a match changes its job's plan;
    // so does the folder itself (or one above it) moving.
    let glob_touched = index.globs.iter().any(|(glob, _)| {
        let (folder, pattern) = glob.rsplit_once('/').unwrap_or(("", glob));
        let in_folder = match path.rsplit_once('/') {
            Some((dir, name)) => dir == folder && glob_matches(pattern.as_bytes(), name.as_bytes()),
            None => folder.is_empty() && glob_matches(pattern.as_bytes(), path.as_bytes()),
        };
        in_folder || (!folder.is_empty() && is_within(folder, path))
    });
    if glob_touched {
        return Work::Replan;
    }
    // A folder that held manifests moved or went.
    if index.manifests.iter().any(|m| is_within(m, path)) {
        return Work::Replan;
    }
    // A folder of inputs renamed or removed: the plan's files moved, and
    // the folders to watch are not those any more.
    let folder = format!("{path}/");
    if index
        .readers
        .range(folder.clone()..)
        .next()
        .is_some_and(|(file, _)| file.starts_with(&folder))
    {
        return Work::Replan;
    }
    match index.readers.get(path) {
        Some(readers) => Work::Jobs(readers.clone()),
        None => Work::Nothing,
    }
}

/// Whether `path` is `folder` or inside it.
fn is_within(path: &str, folder: &str) -> bool {
    path == folder
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A file of the manifests folder a build would read as a manifest
/// (`manifests/*.yaml`, `*.yml`; not a hidden editor file).
fn is_manifest_name(path: &str) -> bool {
    let Some((MANIFESTS, name)) = path.rsplit_once('/') else {
        return false;
    };
    !name.starts_with('.') && (name.ends_with(".yaml") || name.ends_with(".yml"))
}

/// The watch loop's state between batches: what waits, and whether a
/// build is running. Events that arrive during a build wait and make
/// exactly one more build when it ends, so no save is lost and no build
/// sees a set of files half saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    waiting: Work,
    building: bool,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            waiting: Work::Nothing,
            building: false,
        }
    }
}

impl Queue {
    /// Adds a batch's work.
    pub fn add(&mut self, work: Work) {
        self.waiting = std::mem::replace(&mut self.waiting, Work::Nothing).merge(work);
    }

    /// The build to start now: what waits, when no build runs and there
    /// is work (then the build counts as running until
    /// [`Queue::finished`]).
    pub fn start(&mut self) -> Option<Work> {
        if self.building || self.waiting == Work::Nothing {
            return None;
        }
        self.building = true;
        Some(std::mem::replace(&mut self.waiting, Work::Nothing))
    }

    /// The running build ended (built, or failed: either way the next
    /// batch is tried).
    pub fn finished(&mut self) {
        self.building = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: &str) -> JobKey {
        ("pose_cache".to_string(), id.to_string())
    }

    fn jobs(ids: &[&str]) -> Work {
        Work::Jobs(ids.iter().map(|id| job(id)).collect())
    }

    fn paths(list: &[&str]) -> Vec<Seen> {
        list.iter().map(|p| Seen::Path(p.to_string())).collect()
    }

    /// Two manifests; `fox` reads a GLB, `walk` the same GLB and its
    /// external buffer in a folder; `debris` a glob of CGeo files; the
    /// output folder `out`.
    fn index() -> Index {
        let mut readers: BTreeMap<String, BTreeSet<JobKey>> = BTreeMap::new();
        let mut read = |file: &str, id: &str| {
            readers.entry(file.to_string()).or_default().insert(job(id));
        };
        read("sources/fox.glb", "fox");
        read("sources/fox.glb", "walk");
        read("sources/rig/walk.gltf", "walk");
        read("sources/rig/walk.bin", "walk");
        read("sources/seq/debris-crate.cgeo", "debris");
        read("sources/seq/debris-rock.cgeo", "debris");
        Index {
            manifests: ["manifests/poses.yaml", "extra/more.yaml"]
                .map(String::from)
                .into(),
            readers,
            globs: vec![("sources/seq/debris-*.cgeo".to_string(), job("debris"))],
            out: Some("out".to_string()),
        }
    }

    #[test]
    fn every_editors_way_of_saving_rebuilds_the_jobs_that_read_the_file() {
        let i = index();
        for (how, batch) in [
            ("written in place", &["sources/fox.glb"][..]),
            (
                "a temporary renamed over it",
                &["sources/.fox.glb.tmp.4711", "sources/fox.glb"],
            ),
            (
                "vim: renamed away, written anew, its swap file",
                &[
                    "sources/.fox.glb.swp",
                    "sources/4913",
                    "sources/fox.glb~",
                    "sources/fox.glb",
                    "sources/fox.glb",
                ],
            ),
            (
                "deleted, then created",
                &["sources/fox.glb", "sources/fox.glb"],
            ),
        ] {
            assert_eq!(decide(&i, &paths(batch)), jobs(&["fox", "walk"]), "{how}");
        }
        // A file beside a source that the source names.
        assert_eq!(
            decide(&i, &paths(&["sources/rig/walk.bin"])),
            jobs(&["walk"])
        );
    }

    #[test]
    fn a_glob_with_no_match_yet_still_watches_its_folder() {
        // A glob that matches nothing has no readers: only the glob itself
        // says that its folder (created, renamed, gaining a match) matters.
        let mut i = index();
        i.globs
            .push(("sources/new/*.glb".to_string(), job("later")));
        for path in ["sources/new", "sources/new/a.glb", "sources/new/"] {
            assert_eq!(decide(&i, &paths(&[path])), Work::Replan, "{path}");
        }
        for path in [
            "sources/new/a.txt",
            "sources/newer",
            "a.glb",
            "debris-x.cgeo",
        ] {
            assert_eq!(decide(&i, &paths(&[path])), Work::Nothing, "{path}");
        }
        // A glob of the root's own files: only a match there is work.
        let mut i = index();
        i.globs.push(("*.glb".to_string(), job("root")));
        assert_eq!(decide(&i, &paths(&["a.glb"])), Work::Replan);
        for path in ["README.md", "sub/a.glb"] {
            assert_eq!(decide(&i, &paths(&[path])), Work::Nothing, "{path}");
        }
    }

    #[test]
    fn kilns_own_writes_and_unread_files_are_no_work() {
        let i = index();
        for batch in [
            &["out/poses/fox.ospc", "out/.kiln/journal", "out/.kiln/lock"][..],
            &["out"],
            &["sources/notes.txt", "sources/.fox.glb.swp", "README.md"],
            // A name that only starts like an input or a glob's folder.
            &[
                "sources/fox.glb.bak",
                "sources/seqs/debris-x.cgeo",
                "outside/x",
            ],
            &[
                "manifests/.poses.yaml.swp",
                "manifests/poses.yaml~",
                "manifests/README",
            ],
            &[],
        ] {
            assert_eq!(decide(&i, &paths(batch)), Work::Nothing, "{batch:?}");
        }
        // An output folder inside a source folder, whose name a glob of
        // that folder matches: kiln making it is still not work.
        let mut inside = index();
        inside.globs.push(("sources/gen-*".to_string(), job("gen")));
        let elsewhere = inside.clone();
        inside.out = Some("sources/gen-out".to_string());
        for batch in [&["sources/gen-out"][..], &["sources/gen-out/poses/x.ospc"]] {
            assert_eq!(decide(&inside, &paths(batch)), Work::Nothing, "{batch:?}");
        }
        assert_eq!(
            decide(&elsewhere, &paths(&["sources/gen-out"])),
            Work::Replan
        );
    }

    #[test]
    fn a_manifest_edited_added_or_removed_replans() {
        let i = index();
        for batch in [
            &["manifests/poses.yaml"][..],
            &["manifests/levels.yml"],
            &["manifests/new.yaml"],
            // A manifest named on the command line, outside manifests/.
            &["extra/more.yaml"],
            // Its folder renamed away.
            &["extra"],
            &["sources/fox.glb", "manifests/poses.yaml"],
        ] {
            assert_eq!(decide(&i, &paths(batch)), Work::Replan, "{batch:?}");
        }
    }

    #[test]
    fn a_glob_gaining_or_losing_a_file_replans() {
        let i = index();
        for batch in [
            &["sources/seq/debris-plank.cgeo"][..],
            // A match deleted (it is also an input: the plan must drop it).
            &["sources/seq/debris-rock.cgeo"],
            // The glob's folder, or one above it, renamed.
            &["sources/seq"],
            &["sources"],
        ] {
            assert_eq!(decide(&i, &paths(batch)), Work::Replan, "{batch:?}");
        }
        assert_eq!(
            decide(
                &i,
                &paths(&["sources/seq/readme.txt", "sources/seq/.debris-x.cgeo"])
            ),
            Work::Nothing,
            "neither matches (a hidden file never matches a pattern without its dot)"
        );
    }

    /// A folder of inputs renamed or removed re-plans: the jobs' files
    /// moved (the plan says which are missing, at their manifest lines),
    /// and the watched folders must be renewed.
    #[test]
    fn a_folder_of_inputs_renamed_replans() {
        let i = index();
        assert_eq!(decide(&i, &paths(&["sources/rig"])), Work::Replan);
        assert_eq!(decide(&i, &paths(&["sources/rig/"])), Work::Replan);
        // Not a folder of inputs: a name that only starts like one.
        assert_eq!(decide(&i, &paths(&["sources/ri"])), Work::Nothing);
        assert_eq!(decide(&i, &paths(&["sources/rig2"])), Work::Nothing);
    }

    #[test]
    fn a_lost_event_replans() {
        let i = index();
        assert_eq!(decide(&i, &[Seen::Rescan]), Work::Replan);
        let mut batch = paths(&["out/x"]);
        batch.push(Seen::Rescan);
        assert_eq!(decide(&i, &batch), Work::Replan);
        assert_eq!(decide(&Index::default(), &[Seen::Rescan]), Work::Replan);
    }

    #[test]
    fn the_index_is_built_job_by_job_and_watches_folders_not_files() {
        let mut i = Index {
            manifests: ["manifests/poses.yaml".to_string()].into(),
            out: Some("out".to_string()),
            ..Index::default()
        };
        i.add_job(&job("fox"), ["sources/fox.glb"], []);
        i.add_job(
            &job("walk"),
            [
                "sources/fox.glb",
                "sources/rig/walk.gltf",
                "sources/rig/walk.bin",
            ],
            [],
        );
        i.add_job(
            &job("debris"),
            [
                "sources/seq/debris-crate.cgeo",
                "sources/seq/debris-rock.cgeo",
            ],
            ["sources/seq/debris-*.cgeo"],
        );
        i.add_job(&job("top"), ["top.glb"], []);
        // (An input kiln wrote itself never comes from a plan; it is
        // still not watched.)
        i.add_job(&job("odd"), ["out/old.glb"], []);
        let mut want = index();
        want.manifests = ["manifests/poses.yaml".to_string()].into();
        want.add_job(&job("top"), ["top.glb"], []);
        want.add_job(&job("odd"), ["out/old.glb"], []);
        assert_eq!(i, want);
        assert_eq!(
            i.folders(),
            ["", "manifests", "sources", "sources/rig", "sources/seq"]
                .map(String::from)
                .into()
        );
    }

    #[test]
    fn work_merges_jobs_and_a_replan_covers_them() {
        assert_eq!(jobs(&["a"]).merge(jobs(&["b"])), jobs(&["a", "b"]));
        assert_eq!(Work::Nothing.merge(jobs(&["a"])), jobs(&["a"]));
        assert_eq!(jobs(&["a"]).merge(Work::Nothing), jobs(&["a"]));
        assert_eq!(jobs(&["a"]).merge(Work::Replan), Work::Replan);
        assert_eq!(Work::Replan.merge(Work::Nothing), Work::Replan);
        assert_eq!(Work::Nothing.merge(Work::Nothing), Work::Nothing);
    }

    #[test]
    fn saves_during_a_build_make_exactly_one_more_build() {
        let mut q = Queue::default();
        assert_eq!(q.start(), None, "nothing to do");
        q.add(jobs(&["a"]));
        assert_eq!(q.start(), Some(jobs(&["a"])));
        // Three saves while it builds: none starts a second build at once.
        q.add(jobs(&["b"]));
        assert_eq!(q.start(), None);
        q.add(jobs(&["c"]));
        q.add(Work::Nothing);
        assert_eq!(q.start(), None);
        q.finished();
        assert_eq!(
            q.start(),
            Some(jobs(&["b", "c"])),
            "one build of all that waited"
        );
        q.finished();
        assert_eq!(q.start(), None, "and nothing after");
        // A failed build is finished too: the next save is tried.
        q.add(Work::Replan);
        assert_eq!(q.start(), Some(Work::Replan));
        q.finished();
        q.add(jobs(&["a"]));
        assert_eq!(q.start(), Some(jobs(&["a"])));
    }
}
