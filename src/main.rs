//! The `peasant` command line: a thin layer over the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::signals::at_start();
    // Every status the command line gives (0, 1, 2, 3, 130) fits a byte.
    std::process::ExitCode::from(u8::try_from(cli::main()).unwrap_or(1))
}
