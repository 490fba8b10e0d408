//! A guard against hangs, for the few places where only the clock can tell.
//! Work is bounded by counting (`alloc_support::counts_in`, steps, bytes);
//! this catches the one thing counting cannot, a loop that never ends, with
//! a limit far past any machine's load, and says it was a timeout.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// Far past what any guarded call needs on a loaded machine (each takes
/// milliseconds to a few seconds).
pub const HANG_LIMIT: Duration = Duration::from_secs(300);

/// Runs `f`; if it is still running after [`HANG_LIMIT`], prints a timeout
/// naming `what` and aborts the test binary (a hang would otherwise stop
/// the suite with no message).
pub fn no_hang<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let (done, wait) = mpsc::channel::<()>();
    let what = what.to_owned();
    let watchdog = std::thread::spawn(move || {
        if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(HANG_LIMIT) {
            eprintln!(
                "timeout: {what} still running after {HANG_LIMIT:?}: a hang, not a slow \
                 machine (its work is bounded by the counts the test checks)"
            );
            std::process::abort();
        }
    });
    let out = f();
    drop(done);
    watchdog.join().unwrap();
    out
}
