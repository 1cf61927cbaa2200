//! The `peasant` command line: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    cli::signals::note_nohup();
    // Every status the command line gives (0, 1, 2, 3, 130) fits a byte.
    std::process::ExitCode::from(u8::try_from(cli::main()).unwrap_or(1))
}

/// Output into a pipe whose reader has gone (`peasant ... | head`) ends
/// the program quietly, as it ends `cat`, instead of a panic in the
/// middle of printing: Rust starts programs with SIGPIPE ignored, so
/// every write would fail with EPIPE and `println!` panic.
#[cfg(unix)]
fn restore_sigpipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: setting the default disposition of one signal, before any
    // thread is started; `signal` is in every Unix C library.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
