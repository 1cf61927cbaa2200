//! Tests that need programs from outside Rust (a browser, MPI), in test
//! files built without libtest's harness (`harness = false` in
//! Cargo.toml): libtest cannot skip a test at run time, and reports one
//! that returned early, having found its programs missing, as passed.
//! Here such a test is reported as ignored, with the reason, in libtest's
//! own words (which `cargo test` and CI read); under
//! `PEASANT_REQUIRE_EXTERNAL=1` a missing program fails it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

/// Whether a missing program fails the test (`PEASANT_REQUIRE_EXTERNAL=1`)
/// instead of skipping it.
pub fn required() -> bool {
    std::env::var("PEASANT_REQUIRE_EXTERNAL").is_ok_and(|v| v == "1")
}

/// Runs the test `name` as its file's `main`: `find` looks for the
/// programs it needs (`Err` says what is missing), `test` runs with what
/// `find` found. Honours what `cargo test` passes a test binary: `--list`,
/// `--ignored`, `--exact`, `--skip NAME` and name filters.
pub fn run_external<T>(
    name: &str,
    find: impl FnOnce() -> Result<T, String>,
    test: impl FnOnce(T),
) -> ExitCode {
    let args = Selection::from_args();
    if args.list {
        println!("{name}: test");
        return ExitCode::SUCCESS;
    }
    let start = Instant::now();
    if !args.selects(name) {
        println!("\nrunning 0 tests");
        return summary(Counts::default().filtered_out(), start);
    }
    println!("\nrunning 1 test");
    let found = match find() {
        Ok(found) => found,
        Err(missing) if !required() => {
            println!("test {name} ... ignored, {missing}");
            return summary(Counts::default().ignored(), start);
        }
        Err(missing) => {
            eprintln!(
                "{name}: {missing} (PEASANT_REQUIRE_EXTERNAL=1: a missing program fails the test)"
            );
            return failed(name, start);
        }
    };
    // The panic's message is printed by the default hook, on stderr.
    if catch_unwind(AssertUnwindSafe(|| test(found))).is_err() {
        return failed(name, start);
    }
    println!("test {name} ... ok");
    summary(Counts::default().passed(), start)
}

fn failed(name: &str, start: Instant) -> ExitCode {
    println!("test {name} ... FAILED\n\nfailures:\n    {name}");
    summary(Counts::default().failed(), start)
}

/// How the one test ended, as libtest counts.
#[derive(Default)]
struct Counts {
    passed: u32,
    failed: u32,
    ignored: u32,
    filtered_out: u32,
}

impl Counts {
    fn passed(self) -> Counts {
        Counts { passed: 1, ..self }
    }
    fn failed(self) -> Counts {
        Counts { failed: 1, ..self }
    }
    fn ignored(self) -> Counts {
        Counts { ignored: 1, ..self }
    }
    fn filtered_out(self) -> Counts {
        Counts {
            filtered_out: 1,
            ..self
        }
    }
}

/// libtest's closing line; exit status 101 (libtest's) on a failure.
fn summary(c: Counts, start: Instant) -> ExitCode {
    let verdict = if c.failed > 0 { "FAILED" } else { "ok" };
    println!(
        "\ntest result: {verdict}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out; finished in {:.2}s\n",
        c.passed,
        c.failed,
        c.ignored,
        c.filtered_out,
        start.elapsed().as_secs_f64()
    );
    if c.failed > 0 {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    }
}

/// Which tests the command line asks for, read as libtest reads it.
#[derive(Default)]
struct Selection {
    list: bool,
    ignored_only: bool,
    exact: bool,
    filters: Vec<String>,
    skips: Vec<String>,
}

impl Selection {
    fn from_args() -> Selection {
        let mut s = Selection::default();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--list" => s.list = true,
                "--ignored" => s.ignored_only = true,
                "--exact" => s.exact = true,
                "--skip" => s.skips.extend(args.next()),
                // libtest's other options that take a value.
                "--test-threads" | "--logfile" | "--color" | "--format" | "--shuffle-seed"
                | "-Z" => {
                    args.next();
                }
                a if a.starts_with("--skip=") => s.skips.push(a["--skip=".len()..].to_string()),
                a if a.starts_with('-') => {}
                a => s.filters.push(a.to_string()),
            }
        }
        s
    }

    /// Whether the test `name` (which is not an ignored one) runs.
    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(matches)
    }
}
