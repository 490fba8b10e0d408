//! `kiln watch`: a build, then another whenever something a job reads may
//! have changed. What counts is [`super::watch`]'s pure decision; this is
//! the loop around it: the file system's events (the `notify` crate,
//! debounced by `notify-debouncer-full`, or kiln's own poller), the
//! folders watched, the builds.
//!
//! Order of work: plan and watch the folders first, then build, so a save
//! during the first build is seen. Events that arrive during a build wait
//! in the channel and make one more build when it ends ([`Queue`]). After
//! a build that re-planned or ran a job, the index is made again (what a
//! job read may have changed) and the watched folders follow it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{ErrorKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use super::engine::{self, BuildError, Event, Kept, Options, Report, Status};
use super::paths::FileSig;
use super::watch::{Index, Queue, Seen, Work, decide};

/// How to watch.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long a path must stay quiet before its events count: one save
    /// is several events (a temporary written, renamed, the old name
    /// moved away), and they make one build.
    pub debounce: Duration,
    /// Poll the folders at this interval instead of the system's change
    /// notifications (network drives, WSL's Windows folders, some
    /// containers, where no notification comes); the interval is then the
    /// window, and `debounce` is not used.
    pub poll: Option<Duration>,
}

/// The longest debounce window `kiln watch` takes.
pub const MAX_DEBOUNCE: Duration = Duration::from_secs(10);

/// What the watch does, for the CLI to show.
#[derive(Debug)]
pub enum Happening<'a> {
    /// The folders watched now (at the start, and when they change).
    Watching { folders: usize },
    /// Build `generation` starts: no output has changed yet.
    Started { generation: u64 },
    /// It ended (its outputs committed, or its errors).
    Built {
        generation: u64,
        result: &'a Result<Report, BuildError>,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {message}")]
    Watch { path: PathBuf, message: String },
    #[error("the project root {path}: {message}")]
    Root { path: PathBuf, message: String },
    #[error("the file watcher stopped")]
    Stopped,
}

/// Builds, then watches and builds again, until `opts.stop` is set (by
/// Ctrl-C). A failed build is reported and the watch goes on: the last
/// good outputs stay, and the next save is tried.
pub fn watch(
    opts: &Options,
    settings: &Settings,
    on: &mut dyn FnMut(Happening),
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(), WatchError> {
    let root = std::fs::canonicalize(&opts.root).map_err(|e| WatchError::Root {
        path: opts.root.clone(),
        message: e.to_string(),
    })?;
    let (tx, rx) = mpsc::channel();
    let mut folders = Folders::new(settings, tx)?;
    let mut index = Index::default();
    refresh(opts, &root, &mut index, &mut folders, on)?;
    let mut queue = Queue::default();
    queue.add(Work::Replan);
    let mut generation = 0;
    let mut kept = Kept::new();
    while opts.stop.requested().is_none() {
        if let Some(work) = queue.start() {
            generation += 1;
            on(Happening::Started { generation });
            let changed = match &work {
                Work::Jobs(jobs) => Some(jobs),
                Work::Nothing | Work::Replan => None,
            };
            let result = engine::rebuild(opts, &mut kept, changed, on_event);
            on(Happening::Built {
                generation,
                result: &result,
            });
            queue.finished();
            match (&work, &result) {
                (Work::Jobs(_), Ok(report)) if report.removed.is_empty() => {
                    if learn_reads(&mut index, &kept, report) {
                        follow(&root, &index, &mut folders, on)?;
                    }
                }
                _ => refresh(opts, &root, &mut index, &mut folders, on)?,
            }
        }
        let seen = match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(batch) => drain(&root, batch, &rx),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Err(WatchError::Stopped),
        };
        queue.add(decide(&index, &seen));
    }
    Ok(())
}

/// Makes the index again and watches its folders. When the manifests do
/// not plan (one is being edited, a source is gone for a moment between
/// an editor's delete and create), the last index stays: a superset of
/// what to watch, never less (the build reports the problem; a manifest
/// saved re-plans).
fn refresh(
    opts: &Options,
    root: &Path,
    index: &mut Index,
    folders: &mut Folders,
    on: &mut dyn FnMut(Happening),
) -> Result<(), WatchError> {
    if let Ok(new) = engine::watch_index(opts) {
        *index = new;
    }
    follow(root, index, folders, on)
}

/// Watches the index's folders (and no others).
fn follow(
    root: &Path,
    index: &Index,
    folders: &mut Folders,
    on: &mut dyn FnMut(Happening),
) -> Result<(), WatchError> {
    if folders.follow(root, index)? {
        on(Happening::Watching {
            folders: folders.watched.len(),
        });
    }
    Ok(())
}

/// After a build of the jobs whose inputs may have changed (the plan
/// unchanged), adds to the index what each job that ran read (a glTF may
/// name a new buffer file): the index grows only by the files those jobs
/// read, without planning. Whether anything was added.
fn learn_reads(index: &mut Index, kept: &Kept, report: &Report) -> bool {
    let before = index.readers.len();
    let ran = report
        .jobs
        .iter()
        .filter(|j| matches!(j.status, Status::Built | Status::Restored));
    for job in ran {
        let key = (job.kind.clone(), job.id.clone());
        index.add_job(&key, kept.reads(&key), []);
    }
    index.readers.len() != before
}

/// What reaches the loop: the notifier's debounced events, or the paths
/// polling found changed.
enum Batch {
    Notified(DebounceEventResult),
    Polled(Vec<PathBuf>),
}

/// A batch of events, and any others already waiting, as paths relative
/// to the root (or a rescan).
fn drain(root: &Path, first: Batch, rx: &Receiver<Batch>) -> Vec<Seen> {
    let mut seen = Vec::new();
    for batch in std::iter::once(first).chain(rx.try_iter()) {
        match batch {
            Batch::Polled(paths) => seen.extend(paths.iter().map(|p| seen_path(root, p))),
            Batch::Notified(Ok(events)) => {
                for event in events {
                    if event.need_rescan() {
                        seen.push(Seen::Rescan);
                    }
                    if is_change(&event.kind) {
                        seen.extend(event.paths.iter().map(|p| seen_path(root, p)));
                    }
                }
            }
            // Events may have been lost: look at everything again.
            Batch::Notified(Err(_)) => seen.push(Seen::Rescan),
        }
    }
    seen
}

/// Whether an event may mean a changed file: anything but a read (a
/// build reads every manifest and the sources it hashes; were reads
/// changes, each build would start the next). A file closed after writing
/// counts.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// A path the watcher reported, relative to the root (the root itself, or
/// a path outside it, is a rescan).
fn seen_path(root: &Path, path: &Path) -> Seen {
    match path.strip_prefix(root).ok().and_then(Path::to_str) {
        Some(rel) if !rel.is_empty() => Seen::Path(rel.to_string()),
        _ => Seen::Rescan,
    }
}

/// The folders watched, through one of the two kinds of watcher.
struct Folders {
    watcher: Watcher,
    watched: BTreeSet<PathBuf>,
}

enum Watcher {
    Native(Debouncer<RecommendedWatcher, RecommendedCache>),
    /// kiln's own poller (a thread), which reads the folders it is given.
    /// notify's `PollWatcher` compares modification times in whole
    /// seconds, so a second save within the second of the first went
    /// unseen; this one compares what a build's freshness check compares.
    Poll(Arc<Mutex<BTreeSet<PathBuf>>>),
}

impl Folders {
    fn new(settings: &Settings, tx: mpsc::Sender<Batch>) -> Result<Folders, WatchError> {
        let watcher = match settings.poll {
            None => {
                let to_loop = move |r| {
                    let _ = tx.send(Batch::Notified(r));
                };
                new_debouncer(settings.debounce, None, to_loop)
                    .map(Watcher::Native)
                    .map_err(|e| watch_error(Path::new("."), &e))?
            }
            Some(every) => {
                let folders = Arc::new(Mutex::new(BTreeSet::new()));
                let polled = folders.clone();
                std::thread::Builder::new()
                    .name("kiln watch --poll".into())
                    .spawn(move || poll(every, &polled, &tx))
                    .map_err(|e| WatchError::Watch {
                        path: PathBuf::from("."),
                        message: format!("cannot start the polling thread: {e}"),
                    })?;
                Watcher::Poll(folders)
            }
        };
        Ok(Folders {
            watcher,
            watched: BTreeSet::new(),
        })
    }

    /// Watches the index's folders (each one that exists, or the nearest
    /// folder above it that does, so its creation is seen) and no others;
    /// whether the set changed.
    fn follow(&mut self, root: &Path, index: &Index) -> Result<bool, WatchError> {
        let wanted: BTreeSet<PathBuf> = index
            .folders()
            .iter()
            .filter_map(|folder| existing(root, folder))
            .collect();
        if wanted == self.watched {
            return Ok(false);
        }
        match &mut self.watcher {
            Watcher::Poll(folders) => {
                folders
                    .lock()
                    .expect("no panics while held")
                    .clone_from(&wanted);
            }
            Watcher::Native(d) => {
                for gone in self.watched.difference(&wanted) {
                    // Gone already, most likely: nothing to stop.
                    let _ = d.unwatch(gone);
                }
                for new in wanted.difference(&self.watched) {
                    d.watch(new, RecursiveMode::NonRecursive)
                        .map_err(|e| watch_error(new, &e))?;
                }
            }
        }
        self.watched = wanted;
        Ok(true)
    }
}

/// The stat signature (what a build's freshness check compares: size,
/// nanosecond modification and change times, inode) of every entry of
/// `folders` (not below them).
fn stamps(folders: &BTreeSet<PathBuf>) -> BTreeMap<PathBuf, FileSig> {
    let mut out = BTreeMap::new();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else {
            continue;
        };
        for entry in entries.flatten() {
            if let Ok(meta) = entry.path().symlink_metadata() {
                out.insert(entry.path(), FileSig::of(&meta));
            }
        }
    }
    out
}

/// The paths whose signatures differ (added, removed or changed), among those
/// of folders both scans read.
fn differences(
    old: &BTreeMap<PathBuf, FileSig>,
    new: &BTreeMap<PathBuf, FileSig>,
    both: &BTreeSet<PathBuf>,
) -> Vec<PathBuf> {
    let in_both = |p: &Path| p.parent().is_some_and(|f| both.contains(f));
    let changed = new
        .iter()
        .filter(|(p, s)| old.get(*p) != Some(s))
        .map(|(p, _)| p);
    let gone = old.keys().filter(|p| !new.contains_key(*p));
    changed
        .chain(gone)
        .filter(|p| in_both(p))
        .cloned()
        .collect()
}

/// The polling thread: every `every`, the folders' signatures against the
/// last; what differs goes to the loop. Ends when the loop is gone.
fn poll(every: Duration, folders: &Mutex<BTreeSet<PathBuf>>, tx: &mpsc::Sender<Batch>) {
    let mut read = folders.lock().expect("no panics while held").clone();
    let mut last = stamps(&read);
    loop {
        std::thread::sleep(every);
        let now = folders.lock().expect("no panics while held").clone();
        let new = stamps(&now);
        let both: BTreeSet<PathBuf> = read.intersection(&now).cloned().collect();
        let changed = differences(&last, &new, &both);
        (read, last) = (now, new);
        if !changed.is_empty() && tx.send(Batch::Polled(changed)).is_err() {
            return;
        }
    }
}

/// `folder` (relative to `root`) if it is a folder, else the nearest one
/// above it that is, within the root.
fn existing(root: &Path, folder: &str) -> Option<PathBuf> {
    let mut path = root.join(folder);
    loop {
        if path.is_dir() {
            return Some(path);
        }
        if path == root || !path.pop() || !path.starts_with(root) {
            return None;
        }
    }
}

/// A watcher's error in words that say what to do.
fn watch_error(path: &Path, e: &notify::Error) -> WatchError {
    let message = match &e.kind {
        ErrorKind::MaxFilesWatch => "the system's limit on inotify watches is reached; raise it \
            (`sudo sysctl fs.inotify.max_user_watches=524288`, and in /etc/sysctl.conf to keep it) \
            or watch by polling with --poll"
            .to_string(),
        ErrorKind::Io(io) if io.raw_os_error() == Some(24) => format!(
            "{io}: the system's limit on inotify instances is reached; raise it \
             (`sudo sysctl fs.inotify.max_user_instances=1024`) or watch by polling with --poll"
        ),
        _ => e.to_string(),
    };
    WatchError::Watch {
        path: path.to_path_buf(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_paths_are_relative_to_the_root_or_a_rescan() {
        let root = Path::new("/p");
        assert_eq!(
            seen_path(root, Path::new("/p/sources/a.glb")),
            Seen::Path("sources/a.glb".to_string())
        );
        assert_eq!(seen_path(root, Path::new("/p")), Seen::Rescan);
        assert_eq!(seen_path(root, Path::new("/elsewhere/a")), Seen::Rescan);
    }

    #[test]
    fn reading_a_file_is_not_a_change() {
        use notify::event::{CreateKind, ModifyKind, RemoveKind, RenameMode};
        for kind in [
            EventKind::Access(AccessKind::Open(AccessMode::Any)),
            EventKind::Access(AccessKind::Read),
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
        ] {
            assert!(!is_change(&kind), "{kind:?}");
        }
        for kind in [
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            EventKind::Create(CreateKind::File),
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            EventKind::Remove(RemoveKind::Any),
            EventKind::Any,
        ] {
            assert!(is_change(&kind), "{kind:?}");
        }
    }

    #[test]
    fn a_missing_folder_is_watched_through_the_nearest_one_above_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("sources/a")).unwrap();
        assert_eq!(existing(root, "sources/a"), Some(root.join("sources/a")));
        assert_eq!(
            existing(root, "sources/new/deep"),
            Some(root.join("sources"))
        );
        assert_eq!(existing(root, ""), Some(root.to_path_buf()));
        assert_eq!(existing(&root.join("gone"), "x"), None);
    }

    #[test]
    fn polling_sees_a_second_save_within_the_same_second() {
        // notify's poller compares whole seconds; kiln's the nanoseconds,
        // the size, the change time and the inode.
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        std::fs::write(a.join("x.glb"), b"one").unwrap();
        std::fs::write(b.join("y.glb"), b"new folder").unwrap();
        let only_a: BTreeSet<PathBuf> = [a.clone()].into();
        let both_folders: BTreeSet<PathBuf> = [a.clone(), b.clone()].into();
        let first = stamps(&only_a);
        std::thread::sleep(Duration::from_millis(5));
        std::fs::write(a.join("x.glb"), b"two").unwrap();
        std::fs::write(a.join("z.glb"), b"added").unwrap();
        let second = stamps(&both_folders);
        // A folder only now watched reports nothing of its own.
        let found = differences(&first, &second, &only_a);
        assert_eq!(found, [a.join("x.glb"), a.join("z.glb")]);
        std::fs::remove_file(a.join("z.glb")).unwrap();
        let third = stamps(&both_folders);
        assert_eq!(
            differences(&second, &third, &both_folders),
            [a.join("z.glb")]
        );
        assert!(differences(&third, &stamps(&both_folders), &both_folders).is_empty());
    }

    #[test]
    fn the_inotify_limit_names_the_sysctl_to_raise() {
        let e = watch_error(
            Path::new("src"),
            &notify::Error::new(ErrorKind::MaxFilesWatch),
        );
        let text = e.to_string();
        assert!(text.contains("fs.inotify.max_user_watches"), "{text}");
        assert!(text.contains("--poll"), "{text}");
        let io = std::io::Error::from_raw_os_error(24);
        let text = watch_error(Path::new("src"), &notify::Error::io(io)).to_string();
        assert!(text.contains("fs.inotify.max_user_instances"), "{text}");
    }
}
