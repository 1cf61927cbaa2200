//! The program's signals. SIGPIPE gets its default back (output into a
//! closed pipe ends the program quietly). The signals that stop a long
//! run: Ctrl-C (SIGINT), SIGTERM (a batch scheduler's time limit, `kill`)
//! and SIGHUP (a closed terminal), all handled alike by ctrlc's handler
//! (its `termination` feature) so that `prove` logs its jobs in flight
//! and `solve --save` saves.
//!
//! One exception: a run started under `nohup` (SIGHUP ignored when the
//! program started) keeps ignoring SIGHUP, as `nohup` promised; ctrlc
//! would otherwise replace the ignored disposition with its handler and
//! end such a run when its terminal closed.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether SIGHUP was ignored when the program started.
static HANGUP_IGNORED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
mod sys {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    /// SIGHUP is 1 and SIGPIPE 13 on every Unix.
    const SIGHUP: i32 = 1;
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    const SIG_IGN: usize = 1;

    /// Output into a pipe whose reader has gone (`peasant ... | head`)
    /// ends the program quietly, as it ends `cat`, instead of a panic in
    /// the middle of printing: Rust starts programs with SIGPIPE ignored,
    /// so every write would fail with EPIPE and `println!` panic.
    pub fn restore_sigpipe() {
        // SAFETY: setting the default disposition of one signal, before
        // any thread is started; `signal` is in every Unix C library.
        unsafe {
            signal(SIGPIPE, SIG_DFL);
        }
    }

    /// Whether SIGHUP is ignored; it stays as it was.
    pub fn hangup_ignored() -> bool {
        // SAFETY: `signal` sets a disposition and returns the previous one,
        // which is put back at once; called before any thread is started.
        unsafe {
            let before = signal(SIGHUP, SIG_IGN);
            signal(SIGHUP, before);
            before == SIG_IGN
        }
    }

    /// Ignores SIGHUP again.
    pub fn ignore_hangup() {
        // SAFETY: setting the disposition of one signal to "ignore".
        unsafe {
            signal(SIGHUP, SIG_IGN);
        }
    }
}

#[cfg(not(unix))]
mod sys {
    pub fn restore_sigpipe() {}
    pub fn hangup_ignored() -> bool {
        false
    }
    pub fn ignore_hangup() {}
}

/// First thing in `main`, before any thread: SIGPIPE back to its default
/// (see `sys::restore_sigpipe`), and a note of whether the program was
/// started with SIGHUP ignored (`nohup`).
pub fn at_start() {
    sys::restore_sigpipe();
    HANGUP_IGNORED.store(sys::hangup_ignored(), Ordering::SeqCst);
}

/// Runs `handler` on Ctrl-C, SIGTERM and SIGHUP (SIGHUP left ignored
/// under `nohup`). At most one handler a process.
pub fn on_stop_signal<F>(handler: F) -> Result<(), ctrlc::Error>
where
    F: FnMut() + Send + 'static,
{
    ctrlc::set_handler(handler)?;
    if HANGUP_IGNORED.load(Ordering::SeqCst) {
        sys::ignore_hangup();
    }
    Ok(())
}
