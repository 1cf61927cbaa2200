//! Writes that fail, for `solve --save` and `prove` (`gen`'s are in
//! gen_interrupt.rs): a full disk, simulated by a file-size limit (`ulimit
//! -f` with SIGXFSZ ignored, so a write past the limit fails part-way with
//! "File too large", as one onto a full disk fails with "No space left on
//! device"; a /dev/full link cannot stand for a save file, which is written
//! under a temporary name and renamed, nor for a log, which is read before
//! it is appended to); a save file or proof log whose name is a device (a
//! link to /dev/full, which reads zeros without end); a directory where
//! nothing can be made (read-only for a user; these tests run as root in
//! CI, where permissions stop nothing, so a directory under /proc stands
//! in). Each gets one line on stderr naming the file and the problem,
//! exit status 1 for a write that failed after work and 2 for what is
//! refused before it, no part of a file under its final name, no
//! temporary file left, and (for the log) no half line.

#[allow(unused_imports)]
use crate::common;
use peasant::prove;
use peasant::rules::{Board, Rules, Variant};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// Runs `cmd` (rayon on one thread), killed if it has not ended after two
/// minutes.
fn run_cmd(mut cmd: Command) -> Output {
    cmd.env("RAYON_NUM_THREADS", "1");
    common::output_within(cmd, Duration::from_secs(120))
}

fn run(args: &[&str]) -> Output {
    run_cmd(common::peasant_command(args))
}

/// Runs peasant under the shell's `limits` (`ulimit` commands).
fn run_sh(limits: &str, args: &[&str]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("{limits} && exec \"$0\" \"$@\""))
        .arg(common::PEASANT)
        .args(args);
    run_cmd(c)
}

/// Runs peasant with files limited to `blocks` blocks of 512 bytes (dash's
/// `ulimit -f` unit; bash's is 1024, which only makes the limit larger).
fn run_limited(blocks: u32, args: &[&str]) -> Output {
    run_sh(&format!("trap '' XFSZ; ulimit -f {blocks}"), args)
}

/// Runs peasant with 4 GiB of address space: a reader of /dev/full that
/// never ends fails at once instead of filling the machine's memory.
fn run_small(args: &[&str]) -> Output {
    run_sh("ulimit -v 4194304", args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The one line of stderr, which must name every word of `words`; no panic.
fn one_line(out: &Output, words: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(
        err.starts_with("peasant: ") && !err.contains("panicked"),
        "{err}"
    );
    for w in words {
        assert!(err.contains(w), "{err:?} does not name {w:?}");
    }
    err
}

/// The names of the files in `dir`.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A directory no file can be made in, and a path in it: read-only for a
/// user; for root, who may write anywhere, /proc.
fn unwritable(base: &Path, name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = base.join("read-only");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(dir.join("probe"), b"").is_ok() {
        let _ = std::fs::remove_file(dir.join("probe"));
        return Path::new("/proc").join(name);
    }
    dir.join(name)
}

const SOLVE: [&str; 7] = [
    "--board", "4x6", "solve", "pawngame", "--quiet", "--method", "ab",
];

/// `solve --save` onto a full disk: the result is still printed, then one
/// line names the save file and the failure, exit status 1; no save file
/// and no temporary file. Over an older save, the older file stays as it
/// was, byte for byte.
#[test]
fn solve_save_onto_a_full_disk_leaves_no_part_of_a_file() {
    let dir = common::temp_dir("save-full");
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("solve.save");
    let s = save.to_str().unwrap();
    let args: Vec<&str> = SOLVE.iter().copied().chain(["--save", s]).collect();
    let out = run_limited(1, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    one_line(&out, &[s, "File too large"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("value:"));
    assert!(names(&dir).is_empty(), "{:?}", names(&dir));

    // The disk freed: a whole save. Then full again: the old one stays.
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let old = std::fs::read(&save).unwrap();
    assert!(old.len() > 1024, "{} bytes: too small to fail", old.len());
    let out = run_limited(1, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    one_line(&out, &[s, "File too large"]);
    assert_eq!(std::fs::read(&save).unwrap(), old, "the old save changed");
    assert_eq!(names(&dir), ["solve.save"]);
}

/// A save file that is a device, or in a directory where nothing can be
/// made: refused in one line before any search, exit status 2, nothing
/// written.
#[test]
fn solve_save_to_a_device_or_an_unwritable_directory_is_refused() {
    let dir = common::temp_dir("save-refused");
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("full.save");
    std::os::unix::fs::symlink("/dev/full", &link).unwrap();
    let l = link.to_str().unwrap();
    let args: Vec<&str> = SOLVE.iter().copied().chain(["--save", l]).collect();
    let out = run_small(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    one_line(&out, &["--save", l, "not a regular file"]);
    assert!(out.stdout.is_empty());
    assert_eq!(names(&dir), ["full.save"]);

    let target = unwritable(&dir, "solve.save");
    let t = target.to_str().unwrap();
    let args: Vec<&str> = SOLVE.iter().copied().chain(["--save", t]).collect();
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    one_line(&out, &["--save", t, "cannot write in"]);
    assert!(!target.exists());
}

fn prove_args(d: &str) -> Vec<&str> {
    vec![
        "--board",
        "4x5",
        "prove",
        "pawngame",
        "--dir",
        d,
        "--all-moves",
        "--workers",
        "1",
        "--job-nodes",
        "10",
        "--max-job-nodes",
        "10",
        "--sync-each-line",
        "--method",
        "ab",
        "-q",
    ]
}

fn variant_4x5() -> Variant {
    Variant::new(Board::new(4, 5).unwrap(), Rules::default())
}

/// `prove` onto a full disk: the run stops at the first line it cannot
/// append, with one line naming the log and the failure, exit status 1;
/// the log holds whole lines only (the part of a line the disk took is
/// cut off again), every one believed. With the disk freed, the same
/// command resumes and completes, and the log checks.
#[test]
fn prove_onto_a_full_disk_stops_and_leaves_whole_lines() {
    let dir = common::temp_dir("prove-full");
    let d = dir.to_str().unwrap();
    let out = run_limited(1, &prove_args(d));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let log_path = dir.join(prove::LOG_FILE);
    one_line(
        &out,
        &[log_path.to_str().unwrap(), "File too large", "stops"],
    );
    let bytes = std::fs::read(&log_path).unwrap();
    assert!(bytes.ends_with(b"\n") && bytes.len() <= 1024, "{bytes:?}");
    let log = prove::read_dir_log(&dir, variant_4x5()).unwrap();
    assert!(log.damaged.is_empty(), "{:?}", log.damaged);
    assert!(!log.jobs.is_empty(), "the run stopped before any job");

    let out = run(&prove_args(d));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let log = prove::read_dir_log(&dir, variant_4x5()).unwrap();
    assert!(log.damaged.is_empty(), "{:?}", log.damaged);
    let out = run(&["prove", "--check", d, "--samples", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("no disagreement"));
}

/// A proof log that is a device: `prove`, `--status`, `--check` and
/// `--merge` into it refuse it in one line (exit status 2) instead of
/// reading zeros for ever or writing into it. A proof directory that
/// cannot be made: refused in one line, exit status 2, before any job.
#[test]
fn prove_refuses_a_device_log_and_an_unwritable_directory() {
    let dir = common::temp_dir("prove-refused");
    let dev = dir.join("device");
    std::fs::create_dir_all(&dev).unwrap();
    std::os::unix::fs::symlink("/dev/full", dev.join(prove::LOG_FILE)).unwrap();
    let d = dev.to_str().unwrap();
    let good = dir.join("good");
    let g = good.to_str().unwrap();
    let out = run(&[
        "--board",
        "4x5",
        "prove",
        "pawngame",
        "--dir",
        g,
        "--max-jobs",
        "2",
        "-q",
    ]);
    assert!(matches!(out.status.code(), Some(0 | 3)), "{}", stderr(&out));
    for args in [
        prove_args(d),
        vec!["prove", "--status", d],
        vec!["prove", "--check", d],
        vec!["prove", "--merge", g, "--dir", d],
    ] {
        let out = run_small(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        one_line(&out, &[d, "not a regular file"]);
    }
    assert_eq!(names(&dev), [prove::LOG_FILE]);

    let target = unwritable(&dir, "proof");
    let t = target.to_str().unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let under_file = file.join("proof");
    for bad in [t, under_file.to_str().unwrap()] {
        let out = run(&prove_args(bad));
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", stderr(&out));
        one_line(&out, &[bad, "cannot write a proof log"]);
    }
    assert!(!target.exists());
}
