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

/// A test of [`run_external_tests`]: its name and its body, given what
/// `find` found.
pub type ExternalTest<'a, T> = (&'a str, &'a mut (dyn FnMut(T) + Send));

/// Runs a file's tests as its `main`: `find` looks for the programs they
/// need (`Err` says what is missing), once, before the first selected
/// test; each test gets a clone of what it found. Honours what `cargo
/// test` passes a test binary: `--list`, `--ignored`, `--exact`, `--skip
/// NAME`, name filters and `--test-threads N` (else `RUST_TEST_THREADS`,
/// else one thread a core, as libtest): the tests run side by side, for
/// most of their time is spent waiting on the programs they start.
pub fn run_external_tests<T: Clone + Send + Sync>(
    find: impl FnOnce() -> Result<T, String>,
    tests: &mut [ExternalTest<'_, T>],
) -> ExitCode {
    let args = Selection::from_args();
    if args.list {
        for (name, _) in tests.iter() {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    let start = Instant::now();
    let mut counts = Counts::default();
    let total = tests.len();
    let selected: Vec<&mut ExternalTest<'_, T>> =
        tests.iter_mut().filter(|t| args.selects(t.0)).collect();
    counts.filtered_out = (total - selected.len()) as u32;
    let count = selected.len();
    println!(
        "\nrunning {count} test{}",
        if count == 1 { "" } else { "s" }
    );
    if selected.is_empty() {
        return summary(counts, start);
    }
    let found = match find() {
        Ok(found) => found,
        Err(missing) if !required() => {
            for (name, _) in &selected {
                println!("test {name} ... ignored, {missing}");
            }
            counts.ignored = count as u32;
            return summary(counts, start);
        }
        Err(missing) => {
            eprintln!("{missing} (PEASANT_REQUIRE_EXTERNAL=1: a missing program fails the test)");
            for (name, _) in &selected {
                println!("test {name} ... FAILED");
            }
            counts.failed = count as u32;
            return summary(counts, start);
        }
    };
    let threads = args.threads.clamp(1, count);
    let queue = std::sync::Mutex::new(std::collections::VecDeque::from(selected));
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let Some((name, test)) = queue.lock().unwrap().pop_front() else {
                    break;
                };
                // The panic's message is printed by the default hook, on stderr.
                if catch_unwind(AssertUnwindSafe(|| test(found.clone()))).is_err() {
                    println!("test {name} ... FAILED");
                    failures.lock().unwrap().push(*name);
                } else {
                    println!("test {name} ... ok");
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    counts.failed = failures.len() as u32;
    counts.passed = count as u32 - counts.failed;
    if !failures.is_empty() {
        println!("\nfailures:");
        for name in failures {
            println!("    {name}");
        }
    }
    summary(counts, start)
}

/// How the tests ended, as libtest counts.
#[derive(Default)]
struct Counts {
    passed: u32,
    failed: u32,
    ignored: u32,
    filtered_out: u32,
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
    /// How many tests run at once.
    threads: usize,
}

impl Selection {
    fn from_args() -> Selection {
        let mut s = Selection {
            threads: std::env::var("RUST_TEST_THREADS")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            ..Selection::default()
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--list" => s.list = true,
                "--ignored" => s.ignored_only = true,
                "--exact" => s.exact = true,
                "--skip" => s.skips.extend(args.next()),
                "--test-threads" => {
                    s.threads = args.next().and_then(|n| n.parse().ok()).unwrap_or(1)
                }
                // libtest's other options that take a value.
                "--logfile" | "--color" | "--format" | "--shuffle-seed" | "-Z" => {
                    args.next();
                }
                a if a.starts_with("--skip=") => s.skips.push(a["--skip=".len()..].to_string()),
                a if a.starts_with("--test-threads=") => {
                    s.threads = a["--test-threads=".len()..].parse().unwrap_or(1)
                }
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
