//! What a build shows while it runs. On a terminal: a bar of the dirty
//! jobs done, with the long job's progress, rate and time left. Without
//! one (CI, a pipe): a line every `heartbeat` for each job still running
//! after that long, so a log shows life. With `--quiet` or `--json`:
//! nothing but the lock wait.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::pipeline::Event;
use crate::pipeline::job::Unit;

/// How a build shows its progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Show {
    Bar,
    /// A line per running job every so often.
    Heartbeat(Duration),
    Nothing,
}

/// A job running now.
struct Running {
    started: Instant,
    /// When its next heartbeat line is due.
    next_line: Instant,
    /// Its last progress report: done, total, unit.
    progress: Option<(u64, u64, Unit)>,
}

type RunningJobs = Arc<Mutex<BTreeMap<String, Running>>>;

pub struct Progress {
    bar: Option<ProgressBar>,
    running: RunningJobs,
    heartbeat: Option<(JoinHandle<()>, Sender<()>)>,
    interval: Duration,
}

impl Progress {
    pub fn new(show: Show) -> Progress {
        let running = RunningJobs::default();
        let bar = (show == Show::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{bar:20}] {pos}/{len} {wide_msg}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            bar
        });
        let (heartbeat, interval) = match show {
            Show::Heartbeat(interval) => {
                let (tx, rx) = mpsc::channel::<()>();
                let jobs = running.clone();
                // Woken ten times an interval: a line is at most a tenth
                // late.
                let tick = (interval / 10).max(Duration::from_millis(10));
                let thread = std::thread::spawn(move || {
                    while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(tick) {
                        let mut jobs = jobs.lock().unwrap_or_else(|e| e.into_inner());
                        for line in due_lines(&mut jobs, Instant::now(), interval) {
                            eprintln!("{line}");
                        }
                    }
                });
                (Some((thread, tx)), interval)
            }
            _ => (None, Duration::MAX),
        };
        Progress {
            bar,
            running,
            heartbeat,
            interval,
        }
    }

    pub fn on(&self, event: Event) {
        match event {
            // Always said, bar or not: the user should know why nothing moves.
            Event::WaitingForLock(path) => eprintln!(
                "waiting for another kiln build to release {}",
                path.display()
            ),
            Event::Running { dirty, .. } => {
                if let Some(bar) = &self.bar {
                    bar.set_length(dirty as u64);
                }
            }
            Event::JobStarted { id } => {
                let now = Instant::now();
                self.jobs().insert(
                    id.to_string(),
                    Running {
                        started: now,
                        next_line: now.checked_add(self.interval).unwrap_or(now),
                        progress: None,
                    },
                );
            }
            Event::Progress {
                id,
                done,
                total,
                unit,
            } => {
                let mut jobs = self.jobs();
                let Some(job) = jobs.get_mut(id) else { return };
                job.progress = Some((done, total, unit));
                if let Some(bar) = &self.bar {
                    let measure = measure(done, total, unit, job.started.elapsed());
                    bar.set_message(format!("{id}: {measure}"));
                }
            }
            Event::JobDone { id, .. } => {
                self.jobs().remove(id);
                if let Some(bar) = &self.bar {
                    bar.set_message(id.to_string());
                    bar.inc(1);
                }
            }
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Running>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if let Some((thread, tx)) = self.heartbeat {
            drop(tx);
            let _ = thread.join();
        }
    }
}

/// The heartbeat lines due at `now`, in id order; each job's next line
/// is then due an `interval` later.
fn due_lines(
    jobs: &mut BTreeMap<String, Running>,
    now: Instant,
    interval: Duration,
) -> Vec<String> {
    let mut lines = Vec::new();
    for (id, job) in jobs.iter_mut() {
        if now < job.next_line {
            continue;
        }
        while job.next_line <= now {
            job.next_line = match job.next_line.checked_add(interval) {
                Some(next) => next,
                None => break,
            };
        }
        let elapsed = now.saturating_duration_since(job.started);
        let mut line = format!("still building {id} after {}", duration(elapsed));
        if let Some((done, total, unit)) = job.progress {
            line.push_str(": ");
            line.push_str(&measure(done, total, unit, elapsed));
        }
        lines.push(line);
    }
    lines
}

/// `done` of `total`, the share, the rate over `elapsed` and the time
/// left at that rate: "312 MB of 1.02 GB (30 %), 410 MB/s, 2 s
/// left".
fn measure(done: u64, total: u64, unit: Unit, elapsed: Duration) -> String {
    let amount = |n: u64| match unit {
        Unit::Bytes => bytes(n),
        Unit::Steps => n.to_string(),
    };
    let mut text = match unit {
        Unit::Bytes => format!("{} of {}", amount(done), amount(total)),
        Unit::Steps => format!("{} of {} steps", amount(done), amount(total)),
    };
    if let Some(share) = (u128::from(done.min(total)) * 100).checked_div(u128::from(total)) {
        text.push_str(&format!(" ({share} %)"));
    }
    let secs = elapsed.as_secs_f64();
    if done > 0 && secs > 0.0 {
        let rate = done as f64 / secs;
        match unit {
            Unit::Bytes => text.push_str(&format!(", {}/s", bytes(rate as u64))),
            Unit::Steps => text.push_str(&format!(", {rate:.1} steps/s")),
        }
        if total > done {
            let left = Duration::from_secs_f64(((total - done) as f64 / rate).min(1e9));
            text.push_str(&format!(", {} left", duration(left)));
        }
    }
    text
}

/// A byte count in decimal units: "980 B", "12.5 MB", "1.02 GB".
fn bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1_000_000_000_000, "TB"),
        (1_000_000_000, "GB"),
        (1_000_000, "MB"),
        (1_000, "kB"),
    ];
    for (size, name) in UNITS {
        if n >= size {
            let value = n as f64 / size as f64;
            return match value {
                v if v < 10.0 => format!("{v:.2} {name}"),
                v if v < 100.0 => format!("{v:.1} {name}"),
                v => format!("{v:.0} {name}"),
            };
        }
    }
    format!("{n} B")
}

/// A duration to the second: "7 s", "2 min 5 s", "1 h 3 min".
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_say_share_rate_and_time_left() {
        let s = Duration::from_secs;
        assert_eq!(
            measure(300_000_000, 1_200_000_000, Unit::Bytes, s(2)),
            "300 MB of 1.20 GB (25 %), 150 MB/s, 6 s left"
        );
        assert_eq!(
            measure(50, 200, Unit::Steps, s(10)),
            "50 of 200 steps (25 %), 5.0 steps/s, 30 s left"
        );
        // Nothing done yet: no rate, no guess.
        assert_eq!(measure(0, 4_000, Unit::Bytes, s(3)), "0 B of 4.00 kB (0 %)");
        // Done: no time left to give.
        assert_eq!(
            measure(4_000, 4_000, Unit::Bytes, s(4)),
            "4.00 kB of 4.00 kB (100 %), 1.00 kB/s"
        );
        // An empty total or a clock that has not moved divides by nothing.
        assert_eq!(measure(0, 0, Unit::Steps, s(0)), "0 of 0 steps");
        assert_eq!(measure(5, 10, Unit::Steps, s(0)), "5 of 10 steps (50 %)");
    }

    #[test]
    fn amounts_read_as_people_write_them() {
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(1_000), "1.00 kB");
        assert_eq!(bytes(12_345_678), "12.3 MB");
        assert_eq!(bytes(123_456_789), "123 MB");
        assert_eq!(bytes(u64::MAX), "18446744 TB");
        let s = Duration::from_secs;
        assert_eq!(duration(s(59)), "59 s");
        assert_eq!(duration(s(60)), "1 min 0 s");
        assert_eq!(duration(s(3599)), "59 min 59 s");
        assert_eq!(duration(s(3600 * 2 + 61)), "2 h 1 min");
    }

    #[test]
    fn a_heartbeat_line_is_due_once_an_interval_per_running_job() {
        let t0 = Instant::now();
        let ten = Duration::from_secs(10);
        let mut jobs = BTreeMap::new();
        for (id, started) in [("b", t0), ("a", t0 + Duration::from_secs(5))] {
            jobs.insert(
                id.to_string(),
                Running {
                    started,
                    next_line: started + ten,
                    progress: None,
                },
            );
        }
        jobs.get_mut("a").unwrap().progress = Some((50, 100, Unit::Steps));
        let at = |secs| t0 + Duration::from_secs(secs);
        assert!(due_lines(&mut jobs, at(9), ten).is_empty());
        assert_eq!(
            due_lines(&mut jobs, at(10), ten),
            ["still building b after 10 s"]
        );
        assert!(due_lines(&mut jobs, at(14), ten).is_empty());
        assert_eq!(
            due_lines(&mut jobs, at(15), ten),
            ["still building a after 10 s: 50 of 100 steps (50 %), 5.0 steps/s, 10 s left"]
        );
        // Woken late: one line, and the next one an interval on from the
        // last one due, not a burst to catch up.
        assert_eq!(
            due_lines(&mut jobs, at(47), ten).len(),
            2,
            "one line each for a and b"
        );
        assert!(due_lines(&mut jobs, at(49), ten).is_empty());
        assert_eq!(
            due_lines(&mut jobs, at(50), ten),
            ["still building b after 50 s"]
        );
    }
}
