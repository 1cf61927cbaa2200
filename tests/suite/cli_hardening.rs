//! Bad input to every command but `solve`, tried as a new user would: sizes
//! that cannot be allocated, zero counts, paths that do not exist or cannot
//! be written, a directory where a file is expected and the reverse, tables
//! of another board or rule set, finished games. Each gets one line on
//! stderr naming the problem and exit status 2 (1 for damaged data), never
//! a panic, never a wrong answer. Also `gen --check` on a directory with
//! several damaged files, and `gen` into a directory it cannot write.

#[allow(unused_imports)]
use crate::common::{self, gen};
use peasant::{
    index::Material,
    rules::{Board, Rules, Variant},
    table::file_name,
};
use std::path::{Path, PathBuf};
use std::process::Output;

fn run(args: &[&str]) -> Output {
    common::run_peasant(args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn variant(w: u8, h: u8) -> Variant {
    Variant::new(Board::new(w, h).unwrap(), Rules::default())
}

/// Runs `args`; the problems with its answer if it is not a refusal with
/// exit status `status` mentioning every word of `mentions`.
fn check_refused(args: &[&str], status: i32, mentions: &[&str]) -> Result<(), String> {
    common::check_refusal(args, &run(args), status, mentions)
}

fn assert_all(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Three tables with one flipped byte each and a fourth cut short: one run
/// of `gen --check` names all four (and what is wrong with each), confirms
/// the intact ones, ends with a summary line and exit status 1.
#[test]
fn gen_check_names_every_damaged_file_in_one_run() {
    let v = variant(4, 5);
    let dir = gen(v, 4, "check-four");
    let path = |w, b| dir.join(file_name(v, Material::new(w, b)));
    let flipped = [path(2, 1), path(1, 2), path(3, 1)];
    let truncated = path(2, 2);
    for p in &flipped {
        let mut b = std::fs::read(p).unwrap();
        let at = b.len() / 3;
        b[at] ^= 0x10;
        std::fs::write(p, b).unwrap();
    }
    let b = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &b[..b.len() - 7]).unwrap();

    let d = dir.to_str().unwrap();
    let out = run(&["--board", "4x5", "gen", "--check", d]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for p in flipped.iter().chain([&truncated]) {
        let name = p.display().to_string();
        let line = err
            .lines()
            .find(|l| l.contains("DAMAGED") && l.contains(&name))
            .unwrap_or_else(|| panic!("{name} is not named as damaged:\n{err}"));
        if p == &truncated {
            assert!(line.contains("truncated"), "{line}");
        } else {
            assert!(line.contains("checksum"), "{line}");
        }
    }
    // 1v1 is intact and checked; 1v3 is intact but needs the values of a
    // damaged class, which its line names.
    let ok = err
        .lines()
        .find(|l| l.starts_with("1v1: ok"))
        .unwrap_or_else(|| panic!("1v1 not confirmed:\n{err}"));
    assert!(ok.contains(" 0 mismatches"), "{ok}");
    let unchecked = err
        .lines()
        .find(|l| l.starts_with("1v3:"))
        .unwrap_or_else(|| panic!("1v3 not named:\n{err}"));
    assert!(
        unchecked.contains("NOT checked")
            && flipped
                .iter()
                .chain([&truncated])
                .any(|p| unchecked.contains(&format!("({} is damaged", p.display()))),
        "{unchecked}"
    );
    let summary = stdout(&out);
    assert_eq!(summary.lines().count(), 1, "{summary}");
    assert!(
        summary.contains("6 tables: 1 intact, 4 damaged, 1 not checked"),
        "{summary}"
    );
    let last = err.lines().last().unwrap();
    assert!(last.starts_with("peasant: 5 of 6 tables"), "{last}");
    for p in flipped.iter().chain([&truncated]) {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(last.contains(&*name), "{last}");
    }

    // JSON: the same verdicts, one object.
    let out = run(&["--json", "--board", "4x5", "gen", "--check", d]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["ok"], false);
    let damaged = v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["damage"].is_null())
        .count();
    assert_eq!(damaged, 4, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An intact directory: every table confirmed, status 0.
#[test]
fn gen_check_confirms_intact_tables() {
    let v = variant(4, 5);
    let dir = gen(v, 4, "check-intact");
    let out = run(&["--board", "4x5", "gen", "--check", dir.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.contains(": ok: ")).count(),
        6,
        "{err}"
    );
    assert!(
        stdout(&out).contains("6 tables: 6 intact, 0 damaged"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory no file can be made in: read-only for a user; for root,
/// who may write anywhere, a directory under /proc (where nothing can be
/// made).
fn unwritable_dir(base: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = base.join("read-only");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::write(dir.join("probe"), b"").is_ok() {
        let _ = std::fs::remove_file(dir.join("probe"));
        return PathBuf::from("/proc/peasant-tables");
    }
    dir
}

/// Flips the middle byte of every table in a copy of `from`.
fn damaged_copy(from: &Path, name: &str) -> common::TempDir {
    let dir = common::temp_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let mut b = std::fs::read(&p).unwrap();
        let mid = b.len() / 2;
        b[mid] ^= 8;
        std::fs::write(dir.join(p.file_name().unwrap()), b).unwrap();
    }
    dir
}

/// Every command but `solve`, every flag: bad input of every kind (a
/// missing file, a file for a directory, a number out of range, a
/// damaged table) is refused in one line.
#[test]
fn bad_input_to_every_command_is_refused_in_one_line() {
    let t45 = gen(variant(4, 5), 4, "audit-4x5");
    let t14 = gen(variant(1, 4), 2, "audit-1x4");
    let base = common::temp_dir("audit-paths");
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("a-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let under_file = file.join("sub");
    let missing = base.join("no-such-dir");
    let unwritable = unwritable_dir(&base);
    let dmg = damaged_copy(&t45, "audit-damaged");
    // A table name that is a directory.
    let odd = common::temp_dir("audit-odd");
    std::fs::create_dir_all(odd.join("4x5-2v2.ptb")).unwrap();
    for e in std::fs::read_dir(&t45).unwrap() {
        let p = e.unwrap().path();
        if !p.ends_with("4x5-2v2.ptb") {
            std::fs::copy(&p, odd.join(p.file_name().unwrap())).unwrap();
        }
    }
    let p = |p: &Path| p.to_str().unwrap().to_string();
    let (t45s, t14s, files, unders, missings, unw, dmgs, odds) = (
        p(&t45),
        p(&t14),
        p(&file),
        p(&under_file),
        p(&missing),
        p(&unwritable),
        p(&dmg),
        p(&odd),
    );
    let two_v_two = "4/pp2/4/PP2/4 w -";
    let svg = p(&base.join("off.svg"));
    let cases: Vec<(Vec<&str>, i32, Vec<&str>)> = vec![
        // perft
        (vec!["perft", "pawngame", "-1"], 2, vec!["-1"]),
        (
            vec!["perft", "pawngame", "99999999999"],
            2,
            vec!["99999999999"],
        ),
        (vec!["perft", "pawngame", "x"], 2, vec!["'x'"]),
        // global options
        (vec!["--board", "0x0", "show", "pawngame"], 2, vec!["0x0"]),
        (
            vec!["--board", "9x8", "perft", "pawngame", "1"],
            2,
            vec!["9x8"],
        ),
        (vec!["--board", "8x3", "show", "pawngame"], 2, vec!["8x3"]),
        (
            vec!["--board", "4x4", "show", "peasants"],
            2,
            vec!["peasants"],
        ),
        // a move after `moves` that is not legal there, or after the game's end
        (
            vec!["--board", "6x8", "solve", "peasants moves c4 c5 c5"],
            2,
            vec![
                "'c5'",
                "not a legal move",
                "6/pppppp/pp1ppp/2p3/2P3/PP1PPP/PPPPPP/6 w -",
            ],
        ),
        (
            vec!["--board", "1x4", "perft", "pawngame moves a3", "1"],
            2,
            vec!["'a3'", "game is over"],
        ),
        // show: a mark off the board (panicked when flipped)
        (
            vec![
                "--board", "1x5", "show", "pawngame", "--svg", &svg, "--flip", "--arrow", "b2b4",
            ],
            2,
            vec!["b2b4", "1x5"],
        ),
        // gen: counts and sizes
        (vec!["gen", "--max-pawns", "0"], 2, vec!["max-pawns"]),
        (vec!["gen", "--max-pawns", "1"], 2, vec!["max-pawns"]),
        (vec!["gen", "--max-pawns", "-3"], 2, vec!["-3"]),
        (vec!["gen", "--max-pawns", "256"], 2, vec!["256"]),
        (
            vec!["--board", "4x5", "gen", "--max-pawns", "13"],
            2,
            vec!["at most 12"],
        ),
        (
            vec!["--board", "4x5", "gen", "--class", "9v1"],
            2,
            vec!["9v1", "no positions"],
        ),
        (vec!["gen", "--class", "0v1"], 2, vec!["0v1"]),
        (vec!["gen", "--class", "3v"], 2, vec!["3v"]),
        (
            vec!["gen", "--max-pawns", "3", "--memory-mb", "0"],
            2,
            vec!["memory-mb"],
        ),
        (
            vec!["gen", "--max-pawns", "3", "--memory-mb", "-1"],
            2,
            vec!["-1"],
        ),
        (
            vec!["gen", "--max-pawns", "3", "--zstd-level", "0"],
            2,
            vec!["0"],
        ),
        (
            vec!["gen", "--max-pawns", "3", "--zstd-level", "23"],
            2,
            vec!["23"],
        ),
        (vec!["gen"], 2, vec!["required"]),
        (
            vec!["gen", "--max-pawns", "2", "--check", &t45s],
            2,
            vec!["--check"],
        ),
        // gen: where the tables go
        (
            vec!["--board", "4x5", "gen", "--max-pawns", "2", "--out", &files],
            2,
            vec!["not a directory"],
        ),
        (
            vec![
                "--board",
                "4x5",
                "gen",
                "--max-pawns",
                "2",
                "--out",
                &unders,
            ],
            2,
            vec!["cannot make directory"],
        ),
        (
            vec!["--board", "4x5", "gen", "--max-pawns", "2", "--out", &unw],
            2,
            vec!["cannot"],
        ),
        // gen --check: a file, nothing, another board or rule set
        (
            vec!["--board", "4x5", "gen", "--check", &files],
            2,
            vec!["not a directory"],
        ),
        (
            vec!["--board", "4x5", "gen", "--check", &missings],
            2,
            vec!["no such directory"],
        ),
        (
            vec!["--board", "5x5", "gen", "--check", &t45s],
            2,
            vec!["no tables for --board 5x5", "holds tables of 4x5"],
        ),
        (
            vec!["--board", "4x5", "--no-en-passant", "gen", "--check", &t45s],
            2,
            vec!["no-en-passant", "holds tables of 4x5"],
        ),
        // probe
        (
            vec!["probe", two_v_two, "--tables", &files],
            2,
            vec!["not a directory"],
        ),
        (
            vec!["probe", two_v_two, "--tables", &missings],
            2,
            vec!["no table directory", "peasant gen"],
        ),
        (
            vec!["--seventh-rank-wins", "probe", two_v_two, "--tables", &t45s],
            2,
            vec!["seventh-rank-wins", "holds tables of 4x5"],
        ),
        (
            vec!["--board", "4x6", "probe", "pawngame", "--tables", &t45s],
            2,
            vec!["4x6", "holds tables of 4x5"],
        ),
        (
            vec!["probe", "4/pppp/4/PPPP/4 w -", "--tables", &t45s],
            2,
            vec!["4v4", "peasant gen"],
        ),
        (
            vec!["probe", two_v_two, "--tables", &dmgs],
            1,
            vec!["damaged", "4x5-2v2.ptb"],
        ),
        (
            vec!["probe", two_v_two, "--tables", &odds],
            1,
            vec!["4x5-2v2.ptb"],
        ),
        // verify
        (
            vec![
                "--board",
                "4x5",
                "verify",
                "--tables",
                &t45s,
                "--samples",
                "0",
            ],
            2,
            vec!["samples"],
        ),
        (
            vec![
                "--board",
                "4x5",
                "verify",
                "--tables",
                &t45s,
                "--samples",
                "-5",
            ],
            2,
            vec!["-5"],
        ),
        (
            vec![
                "--board",
                "4x5",
                "verify",
                "--tables",
                &t45s,
                "--hash-mb",
                "99999999",
            ],
            2,
            vec!["hash-mb"],
        ),
        (
            vec!["--board", "4x5", "verify", "--tables", &files],
            2,
            vec!["not a directory"],
        ),
        (
            vec!["--board", "4x5", "verify", "--tables", &missings],
            2,
            vec!["no table directory"],
        ),
        (
            vec!["--board", "4x6", "verify", "--tables", &t45s],
            2,
            vec!["holds tables of 4x5"],
        ),
        (
            vec!["--board", "1x4", "verify", "--tables", &t14s],
            2,
            vec!["game in progress"],
        ),
        (
            vec!["--board", "4x5", "verify", "--tables", &dmgs],
            1,
            vec!["damaged"],
        ),
    ];
    let mut failures = Vec::new();
    for (args, status, mentions) in &cases {
        if let Err(e) = check_refused(args, *status, mentions) {
            failures.push(e);
        }
    }
    // Nothing was made where nothing should be.
    assert!(!under_file.exists() && !missing.exists() && !base.join("off.svg").exists());
    assert_all(failures);
    drop((t45, t14, base, dmg, odd));
}

/// Near the refused inputs, answers that must stay right: depth 0, a
/// finished game (probe answers it from the rules, perft counts no moves),
/// a wider board answered by the narrower board's tables.
#[test]
fn edge_inputs_that_have_answers_get_the_right_ones() {
    let t45 = gen(variant(4, 5), 4, "edge-4x5");
    let d = t45.to_str().unwrap();
    let ok = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(ok(&["perft", "pawngame", "0"]).trim(), "1");
    // White to move without pawns has lost; every pawn blocked is a draw.
    assert_eq!(ok(&["perft", "4/4/4/p3/4 w -", "3"]).trim(), "0");
    let lost = ok(&["probe", "4/4/4/p3/4 w -", "--tables", d]);
    assert!(
        lost.contains("value:  loss in 0") && lost.contains("game over"),
        "{lost}"
    );
    let blocked = ok(&["probe", "4/p3/P3/4/4 w -", "--tables", d]);
    assert!(
        blocked.contains("value:  draw") && blocked.contains("stalemate"),
        "{blocked}"
    );
    // 5x5 positions whose pawns stand on four files: the 4x5 tables answer.
    let wide = ok(&["probe", "5/pp3/5/PP3/5 w -", "--tables", d]);
    let narrow = ok(&["probe", "4/pp2/4/PP2/4 w -", "--tables", d]);
    let value = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("value:"))
            .unwrap()
            .to_string()
    };
    assert_eq!(value(&wide), value(&narrow));
    let _ = std::fs::remove_dir_all(&t45);
}

/// `solve`'s bad inputs, refused in one line before any search: a
/// transposition table that cannot be had, absurd thread counts, a save
/// file that could never be written, a table directory that is not one.
#[test]
fn bad_input_to_solve_is_refused_before_any_search() {
    let dir = common::temp_dir("solve-bad");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let file = dir.join("plain-file");
    std::fs::write(&file, b"not a table directory").unwrap();
    let d = |p: &Path| p.to_str().unwrap().to_string();
    let (sub, missing_parent, missing) = (
        d(&dir.join("sub")),
        d(&dir.join("no-such-dir").join("save")),
        d(&dir.join("no-such-tables")),
    );
    let file = d(&file);
    let cases: Vec<(Vec<&str>, i32, Vec<&str>)> = vec![
        (
            vec![
                "--board",
                "4x8",
                "solve",
                "peasants",
                "--hash-mb",
                "99999999",
                "--method",
                "ab",
            ],
            2,
            vec!["does not fit in memory"],
        ),
        (
            vec![
                "--board",
                "4x8",
                "solve",
                "peasants",
                "--hash-mb",
                "99999999",
                "--method",
                "pn",
            ],
            2,
            vec!["does not fit in memory"],
        ),
        (
            vec!["--board", "4x4", "solve", "pawngame", "--threads", "100000"],
            2,
            vec!["--threads"],
        ),
        (
            vec![
                "--board",
                "4x4",
                "solve",
                "pawngame",
                "--threads",
                "2",
                "--emulate-turns",
                "100",
            ],
            2,
            vec!["--emulate-turns", "--value-only"],
        ),
        (
            vec![
                "--board",
                "4x4",
                "solve",
                "pawngame",
                "--method",
                "ab",
                "--value-only",
                "--threads",
                "2",
                "--emulate-turns",
                "0",
            ],
            2,
            vec!["--emulate-turns"],
        ),
        (
            vec!["--board", "4x4", "solve", "pawngame", "--save", &sub],
            2,
            vec!["--save", "directory"],
        ),
        (
            vec![
                "--board",
                "4x4",
                "solve",
                "pawngame",
                "--save",
                &missing_parent,
            ],
            2,
            vec!["--save", "not a directory"],
        ),
        (
            vec!["--board", "4x4", "solve", "pawngame", "--tables", &file],
            2,
            vec!["--tables", "not a directory"],
        ),
        (
            vec!["--board", "4x4", "solve", "pawngame", "--tables", &missing],
            2,
            vec!["--tables", "no such directory"],
        ),
    ];
    let mut failures = Vec::new();
    for (args, status, mentions) in &cases {
        if let Err(e) = check_refused(args, *status, mentions) {
            failures.push(e);
        }
    }
    assert_all(failures);
    // Nothing was written where the save file could not go.
    assert!(!dir.join("no-such-dir").exists());
}

/// The argument parser's refusals (an unknown flag or command, a missing
/// or bad value, a flag without the one it needs): one line, exit status
/// 2, naming the problem and pointing to `--help` once.
#[test]
fn argument_errors_are_one_line_pointing_to_help_once() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["perft", "pawngame", "1", "--bogus"], "--bogus"),
        (vec!["gen", "--max-pawns"], "--max-pawns"),
        (vec!["gen", "--max-pawns", "x"], "'x'"),
        (vec!["frobnicate"], "frobnicate"),
        (vec!["perft"], "required"),
        (vec!["solve", "pawngame", "--save-every", "5"], "--save"),
        (vec!["--board"], "--board"),
    ];
    let mut failures = Vec::new();
    for (args, word) in &cases {
        if let Err(e) = check_refused(args, 2, &[word]) {
            failures.push(e);
        }
        let err = stderr(&run(args));
        if err.matches("--help").count() != 1 {
            failures.push(format!("{args:?}: --help not named once: {err:?}"));
        }
    }
    assert_all(failures);
}

/// `gen --max-pawns N` makes a table for every class the board can hold
/// and none for the classes it cannot, which were empty files before: on
/// 3x4 a side has at most three pawns (white on rank 2, black on rank 3),
/// so of the classes up to six pawns 4v1, 1v4 and the like are left out,
/// and 3v3 is made from the classes below it that exist.
#[test]
fn gen_makes_no_table_of_a_class_the_board_cannot_hold() {
    let dir = common::temp_dir("gen-no-empty");
    let d = dir.to_str().unwrap();
    let out = run(&["--board", "3x4", "gen", "--max-pawns", "6", "--out", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = Material::up_to(6)
        .into_iter()
        .filter(|m| m.white <= 3 && m.black <= 3)
        .map(|m| format!("3x4-{m}.ptb"))
        .collect();
    want.sort();
    assert_eq!(names, want);
    assert_eq!(names.len(), 9);
    let out = run(&["--board", "3x4", "gen", "--check", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// `peasant ... | head`: output into a pipe whose reader has gone ends the
/// program quietly (killed by SIGPIPE, as `cat` is), never with a panic
/// and a backtrace.
#[test]
fn output_into_a_closed_pipe_is_not_a_panic() {
    use std::process::Stdio;
    let mut child = common::peasant_command(["--board", "5x5", "solve", "pawngame"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}
